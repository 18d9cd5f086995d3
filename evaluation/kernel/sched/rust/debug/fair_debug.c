// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_SCHED_RUST_CFS_DEBUG: each piece's entry point runs the Rust or the
 * C implementation, as the piece's static key says (rust/debug/switch.c), with the
 * shadow check, the route statistics and the KUnit dispatch counter around
 * it. The C implementations are fair.c's own code, compiled a second time
 * under the names SCHED_C() gives them.
 *
 * Included at the end of kernel/sched/fair.c; declared in rust/debug/fair_debug.h.
 */

static __always_inline bool sched_rust_pick_on(void)
{
	return static_branch_likely(&sched_rust_pick_key);
}

/*
 * The stock C pick instead of both (make bench's third side). Tested first,
 * so that the Rust and the C paths pass the same patched-out jumps.
 */
static __always_inline bool sched_rust_pick_stock(void)
{
	return static_branch_unlikely(&sched_rust_pick_stock_key);
}

static __always_inline bool sched_rust_tg_state_on(void)
{
	return static_branch_likely(&sched_rust_tg_state_key);
}

static __always_inline bool sched_rust_llc_on(void)
{
	return static_branch_likely(&sched_rust_llc_key);
}

/*
 * Linux 7.3's vruntime_eligible() and pick_eevdf() as they were before
 * "sched/fair: Compute the eligibility sums once per pick", renamed, with
 * entity_eligible(cfs_rq, se) spelled as the vruntime_eligible_stock() of
 * se->vruntime that it is: the oracle that the improved C (the twins
 * vruntime_eligible_c() and pick_eevdf_c()) and the Rust are checked
 * against by the KUnit suites and the shadow check, and the third side of
 * the benchmarks.
 */
static __maybe_unused int vruntime_eligible_stock(struct cfs_rq *cfs_rq, u64 vruntime)
{
	struct sched_entity *curr = cfs_rq->curr;
	s64 key, avg = cfs_rq->sum_w_vruntime;
	long load = cfs_rq->sum_weight;

	if (curr && curr->on_rq) {
		unsigned long weight = avg_vruntime_weight(cfs_rq, curr->h_load.weight);

		avg += entity_key(cfs_rq, curr) * weight;
		load += weight;
	}

	key = vruntime_op(vruntime, "-", cfs_rq->zero_vruntime);

	/*
	 * The worst case term for @key includes 'NSEC_TICK * NICE_0_LOAD'
	 * and @load obviously includes NICE_0_LOAD. NSEC_TICK is around 24
	 * bits, while NICE_0_LOAD is 20 on 64bit and 10 otherwise.
	 *
	 * This gives that on 64bit the product will be at least 64bit which
	 * overflows s64, while on 32bit it will only be 44bits and should fit
	 * comfortably.
	 */
#ifdef CONFIG_64BIT
#ifdef CONFIG_ARCH_SUPPORTS_INT128
	/* This often results in simpler code than __builtin_mul_overflow(). */
	return avg >= (__int128)key * load;
#else
	s64 rhs;
	/*
	 * On overflow, the sign of key tells us the correct answer: a large
	 * positive key means vruntime >> V, so not eligible; a large negative
	 * key means vruntime << V, so eligible.
	 */
	if (check_mul_overflow(key, load, &rhs))
		return key <= 0;

	return avg >= rhs;
#endif
#else /* 32bit */
	return avg >= key * load;
#endif
}

static __maybe_unused struct sched_entity *pick_eevdf_stock(struct cfs_rq *cfs_rq, bool protect)
{
	struct rb_node *node = cfs_rq->tasks_timeline.rb_root.rb_node;
	struct sched_entity *se = __pick_first_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	struct sched_entity *best = NULL;

	/*
	 * We can safely skip eligibility check if there is only one entity
	 * in this cfs_rq, saving some cycles.
	 */
	if (cfs_rq->h_nr_queued == 1)
		return curr && curr->on_rq ? curr : se;

	/*
	 * Picking the ->next buddy will affect latency but not fairness.
	 */
	if (sched_feat(PICK_BUDDY) && protect &&
	    cfs_rq->next && vruntime_eligible_stock(cfs_rq, cfs_rq->next->vruntime)) {
		/* ->next will never be delayed */
		WARN_ON_ONCE(cfs_rq->next->sched_delayed);
		return cfs_rq->next;
	}

	if (curr && (!curr->on_rq || !vruntime_eligible_stock(cfs_rq, curr->vruntime)))
		curr = NULL;

	if (curr && protect && protect_slice(curr))
		return curr;

	/* Pick the leftmost entity if it's eligible */
	if (se && vruntime_eligible_stock(cfs_rq, se->vruntime)) {
		best = se;
		goto found;
	}

	/* Heap search for the EEVD entity */
	while (node) {
		struct rb_node *left = node->rb_left;

		/*
		 * Eligible entities in left subtree are always better
		 * choices, since they have earlier deadlines.
		 */
		if (left && vruntime_eligible_stock(cfs_rq, __node_2_se(left)->min_vruntime)) {
			node = left;
			continue;
		}

		se = __node_2_se(node);

		/*
		 * The left subtree either is empty or has no eligible
		 * entity, so check the current node since it is the one
		 * with earliest deadline that might be eligible.
		 */
		if (vruntime_eligible_stock(cfs_rq, se->vruntime)) {
			best = se;
			break;
		}

		node = node->rb_right;
	}
found:
	if (!best || (curr && entity_before(curr, best)))
		best = curr;

	return best;
}

/*
 * Route statistics or the shadow check are on. Out of line even when the
 * shadow check is on by default: the benchmarks switch it off and measure
 * the hot path as a kernel without it lays it out. The LLC checks are
 * behind it too.
 */
static __always_inline bool sched_rust_pick_debug(void)
{
	return static_branch_unlikely(&sched_rust_pick_debug_key);
}

static inline int vruntime_eligible_debug(struct cfs_rq *cfs_rq, u64 vruntime)
{
	bool rust = sched_rust_pick_on();
	int ret;

	if (sched_rust_pick_stock())
		ret = vruntime_eligible_stock(cfs_rq, vruntime);
	else if (rust)
		ret = sched_rust_vruntime_eligible(cfs_rq, vruntime);
	else
		ret = vruntime_eligible_c(cfs_rq, vruntime);
	if (sched_rust_pick_debug())
		vruntime_eligible_shadow(cfs_rq, vruntime, rust, ret);
	return ret;
}

/*
 * Out of line, as fair.c's pick_eevdf() was before the pick had a Rust
 * side: make bench's per-call plugin counts each pick from its call, and
 * both sides run behind the same one.
 */
static noinline struct sched_entity *pick_eevdf_debug(struct cfs_rq *cfs_rq, bool protect)
{
	bool rust = sched_rust_pick_on();
	struct sched_entity *se;

	sched_rust_test_call(SCHED_RUST_PICK, rust);
	if (sched_rust_pick_stock())
		se = pick_eevdf_stock(cfs_rq, protect);
	else if (rust)
		se = sched_rust_pick_eevdf(cfs_rq, protect);
	else
		se = pick_eevdf_c(cfs_rq, protect);
	if (sched_rust_pick_debug()) {
		pick_eevdf_stats(cfs_rq, protect, rust);
		pick_eevdf_shadow(cfs_rq, protect, rust, se);
	}
	return se;
}

#ifdef CONFIG_FAIR_GROUP_SCHED
/*
 * A copy of @tg's state on @cpu with the fields that point into the state
 * itself cleared, which two groups' states then compare equal on: for the
 * shadow check (rust/debug/fair_shadow.c) and the KUnit parity test.
 */
static void __maybe_unused
tg_state_normalized(struct cfs_tg_state *out, struct task_group *tg, int cpu)
{
	memcpy(out, container_of(tg_cfs_rq(tg, cpu), struct cfs_tg_state, cfs_rq), sizeof(*out));
	out->cfs_rq.tg = NULL;
	out->se.my_q = NULL;
#ifdef CONFIG_CFS_BANDWIDTH
	memset(&out->cfs_rq.throttled_list, 0, sizeof(out->cfs_rq.throttled_list));
	memset(&out->cfs_rq.throttled_csd_list, 0, sizeof(out->cfs_rq.throttled_csd_list));
	memset(&out->cfs_rq.throttled_limbo_list, 0, sizeof(out->cfs_rq.throttled_limbo_list));
#endif
}

static void free_fair_sched_group_debug(struct task_group *tg)
{
	if (sched_rust_tg_state_on())
		sched_rust_free_fair_sched_group(tg);
	else
		free_fair_sched_group_c(tg);
}

static int alloc_fair_sched_group_debug(struct task_group *tg, struct task_group *parent)
{
	bool rust = sched_rust_tg_state_on();
	int ok;

	sched_rust_test_call(SCHED_RUST_TG_STATE, rust);
	if (rust)
		ok = sched_rust_alloc_fair_sched_group(tg, parent);
	else
		ok = alloc_fair_sched_group_c(tg, parent);
	if (ok && sched_rust_pick_debug())
		alloc_fair_sched_group_shadow(tg, parent, rust);
	return ok;
}

static void init_tg_cfs_entry_debug(struct task_group *tg, struct cfs_rq *cfs_rq,
				    struct sched_entity *se, int cpu,
				    struct sched_entity *parent)
{
	if (sched_rust_tg_state_on())
		sched_rust_init_tg_cfs_entry(tg, cfs_rq, se, cpu, parent);
	else
		init_tg_cfs_entry_c(tg, cfs_rq, se, cpu, parent);
}
#endif /* CONFIG_FAIR_GROUP_SCHED */

#ifdef CONFIG_SCHED_CACHE
/*
 * The LLC functions run on every enqueue and dequeue: with the debug key off
 * (the benchmarks), each one's dispatch is the two-way switch alone, as laid
 * out as the pick's; the checks (the shadow recomputation, the counters'
 * check, the KUnit dispatch counter) run in an out-of-line copy of the
 * dispatch that only the debug key reaches. Each side's path costs the same
 * patched-out jumps. The enqueue and dequeue dispatches are out of line, as
 * pick_eevdf_debug() is: once their checks left them they were inlined into
 * most callers, and make bench's per-call plugin counts a piece from its
 * call.
 */
static __always_inline void pref_llc_running_switch(struct rq *rq, struct task_struct *p,
						    bool inc, bool rust)
{
	if (rust)
		sched_rust_pref_llc_running(rq, p, inc);
	else if (inc)
		pref_llc_running_inc_c(rq, p);
	else
		pref_llc_running_dec_c(rq, p);
}

static noinline void pref_llc_running_checked(struct rq *rq, struct task_struct *p, bool inc)
{
	bool rust = sched_rust_llc_on();

	llc_shadow_counts(rq, p, SCHED_RUST_LLC_PREF, inc, rust);
	pref_llc_running_switch(rq, p, inc, rust);
}

static inline void pref_llc_running_debug(struct rq *rq, struct task_struct *p, bool inc)
{
	if (sched_rust_pick_debug())
		pref_llc_running_checked(rq, p, inc);
	else
		pref_llc_running_switch(rq, p, inc, sched_rust_llc_on());
}

static __always_inline void account_llc_enqueue_switch(struct rq *rq, struct task_struct *p,
						       bool rust)
{
	if (rust)
		sched_rust_account_llc_enqueue(rq, p);
	else
		account_llc_enqueue_c(rq, p);
}

static noinline void account_llc_enqueue_checked(struct rq *rq, struct task_struct *p)
{
	bool rust = sched_rust_llc_on();

	sched_rust_test_call(SCHED_RUST_LLC, rust);
	llc_shadow_counts(rq, p, SCHED_RUST_LLC_ENQUEUE, true, rust);
	account_llc_enqueue_switch(rq, p, rust);
}

static noinline void account_llc_enqueue_debug(struct rq *rq, struct task_struct *p)
{
	if (sched_rust_pick_debug())
		account_llc_enqueue_checked(rq, p);
	else
		account_llc_enqueue_switch(rq, p, sched_rust_llc_on());
}

static __always_inline void account_llc_dequeue_switch(struct rq *rq, struct task_struct *p,
						       bool rust)
{
	if (rust)
		sched_rust_account_llc_dequeue(rq, p);
	else
		account_llc_dequeue_c(rq, p);
}

static noinline void account_llc_dequeue_checked(struct rq *rq, struct task_struct *p)
{
	bool rust = sched_rust_llc_on();

	llc_shadow_counts(rq, p, SCHED_RUST_LLC_DEQUEUE, false, rust);
	account_llc_dequeue_switch(rq, p, rust);
	account_llc_check(rq, p);
}

static noinline void account_llc_dequeue_debug(struct rq *rq, struct task_struct *p)
{
	if (sched_rust_pick_debug())
		account_llc_dequeue_checked(rq, p);
	else
		account_llc_dequeue_switch(rq, p, sched_rust_llc_on());
}

static __always_inline void __update_mm_sched_switch(struct rq *rq,
						     struct sched_cache_time *pcpu_sched,
						     bool rust)
{
	if (rust)
		sched_rust_update_mm_sched(rq, pcpu_sched, jiffies, READ_ONCE(llc_epoch_period));
	else
		__update_mm_sched_c(rq, pcpu_sched);
}

static noinline void __update_mm_sched_checked(struct rq *rq, struct sched_cache_time *pcpu_sched)
{
	bool rust = sched_rust_llc_on();

	llc_shadow_epoch(rq, pcpu_sched, rust);
	__update_mm_sched_switch(rq, pcpu_sched, rust);
}

static inline void __update_mm_sched_debug(struct rq *rq, struct sched_cache_time *pcpu_sched)
{
	if (sched_rust_pick_debug())
		__update_mm_sched_checked(rq, pcpu_sched);
	else
		__update_mm_sched_switch(rq, pcpu_sched, sched_rust_llc_on());
}

/* fraction_mm_sched_c() takes rq->cpu_epoch_lock itself, as stock C does. */
static __always_inline unsigned long fraction_mm_sched_switch(struct rq *rq,
							      struct sched_cache_time *pcpu_sched,
							      bool rust)
{
	if (rust) {
		guard(raw_spinlock_irqsave)(&rq->cpu_epoch_lock);

		return sched_rust_fraction_mm_sched(rq, pcpu_sched, jiffies,
						    READ_ONCE(llc_epoch_period));
	}
	return fraction_mm_sched_c(rq, pcpu_sched);
}

static noinline unsigned long fraction_mm_sched_checked(struct rq *rq,
							struct sched_cache_time *pcpu_sched)
{
	bool rust = sched_rust_llc_on();

	if (READ_ONCE(sched_rust_pick_shadow_on)) {
		guard(raw_spinlock_irqsave)(&rq->cpu_epoch_lock);

		llc_shadow_epoch(rq, pcpu_sched, rust);
	}
	return fraction_mm_sched_switch(rq, pcpu_sched, rust);
}

static unsigned long fraction_mm_sched_debug(struct rq *rq, struct sched_cache_time *pcpu_sched)
{
	if (sched_rust_pick_debug())
		return fraction_mm_sched_checked(rq, pcpu_sched);
	return fraction_mm_sched_switch(rq, pcpu_sched, sched_rust_llc_on());
}

static __always_inline void update_avg_scale_switch(u64 *avg, u64 sample, bool rust)
{
	if (rust)
		sched_rust_update_avg_scale(avg, sample,
					    per_cpu(sd_llc_size, raw_smp_processor_id()));
	else
		update_avg_scale_c(avg, sample);
}

static noinline void update_avg_scale_checked(u64 *avg, u64 sample)
{
	bool rust = sched_rust_llc_on();

	llc_shadow_avg(avg, sample, rust);
	update_avg_scale_switch(avg, sample, rust);
}

static inline void update_avg_scale_debug(u64 *avg, u64 sample)
{
	if (sched_rust_pick_debug())
		update_avg_scale_checked(avg, sample);
	else
		update_avg_scale_switch(avg, sample, sched_rust_llc_on());
}
#endif /* CONFIG_SCHED_CACHE */
