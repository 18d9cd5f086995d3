// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow check of CONFIG_SCHED_RUST_CFS (CONFIG_SCHED_RUST_CFS_SHADOW):
 * on every eligibility test the implementation that was not selected and
 * 7.3's stock C (rust/debug/fair_debug.c) run too, on every pick the C, the Rust
 * and the stock C pick run again, all on the same state under the same
 * runqueue lock, and a different answer from any is counted and warned
 * about once; every new group's state is made again by C and by Rust and
 * compared with the group's; every LLC dequeue recounts the tasks queued on
 * its runqueue and checks the LLC counters. Counts are in
 * /sys/kernel/debug/sched/sched_rust/{shadow,tg_shadow,llc_check}.
 *
 * Included at the bottom of kernel/sched/fair.c, whose dispatch calls these
 * functions (declared in rust/debug/fair_debug.h) behind sched_rust_pick_debug_key.
 */

#include <linux/hash.h>

static noinline void
vruntime_eligible_shadow(struct cfs_rq *cfs_rq, u64 vruntime, bool rust, int ret)
{
	int other, stock;

	if (!READ_ONCE(sched_rust_pick_shadow_on))
		return;
	other = rust ? vruntime_eligible_c(cfs_rq, vruntime) :
		       sched_rust_vruntime_eligible(cfs_rq, vruntime);
	stock = vruntime_eligible_stock(cfs_rq, vruntime);
	atomic_long_inc(&sched_rust_shadow_checks);
	if (unlikely(!other != !ret || !stock != !ret)) {
		atomic_long_inc(&sched_rust_shadow_divergences);
		WARN_ONCE(1, "sched_rust: eligibility of %llu: %s says %d, %s says %d, stock C %d\n",
			  vruntime, rust ? "Rust" : "C", ret, rust ? "C" : "Rust", other, stock);
	}
}

/*
 * The sides of the shadow check each run in an out-of-line function of their
 * own, the same for every side of a piece: its body is the side as fair.c's
 * dispatch calls it, its result used after the call (no tail call), its
 * address taken (LLVM keeps its signature). make bench's per-call plugin
 * counts their calls (the pair_ pieces of evaluation/bench/percall.c): C, Rust
 * and stock C on the same live state, which the pieces' own calls in
 * different runs cannot give.
 */
#define SHADOW_PICK(side, pick)							\
static noinline struct sched_entity *					\
shadow_pick_##side(struct cfs_rq *cfs_rq, bool protect)			\
{										\
	struct sched_entity *se = pick(cfs_rq, protect);			\
										\
	OPTIMIZER_HIDE_VAR(se);							\
	return se;								\
}

SHADOW_PICK(c, pick_eevdf_c)
SHADOW_PICK(rust, sched_rust_pick_eevdf)
SHADOW_PICK(stock, pick_eevdf_stock)
static const void *const shadow_picks[] __used = {
	shadow_pick_c, shadow_pick_rust, shadow_pick_stock,
};

static noinline void
pick_eevdf_shadow(struct cfs_rq *cfs_rq, bool protect, bool rust, struct sched_entity *se)
{
	struct sched_entity *c, *r, *stock;

	if (!READ_ONCE(sched_rust_pick_shadow_on))
		return;
	/* The side selected too: the same state must give the same pick. */
	c = shadow_pick_c(cfs_rq, protect);
	r = shadow_pick_rust(cfs_rq, protect);
	stock = shadow_pick_stock(cfs_rq, protect);
	atomic_long_inc(&sched_rust_shadow_checks);
	if (unlikely(c != se || r != se || stock != se)) {
		atomic_long_inc(&sched_rust_shadow_divergences);
		WARN_ONCE(1, "sched_rust: pick_eevdf(protect=%d): %s picked %p; again C %p, Rust %p, stock C %p\n",
			  protect, rust ? "Rust" : "C", se, c, r, stock);
	}
}

#ifdef CONFIG_FAIR_GROUP_SCHED
/*
 * The group state's sides: a new group's allocation and initialisation
 * below its parent, and its free, out of line as the picks' are (above).
 */
#define SHADOW_TG(side, alloc, free)						\
static noinline int								\
shadow_tg_alloc_##side(struct task_group *tg, struct task_group *parent)	\
{										\
	int ok = alloc(tg, parent);						\
										\
	OPTIMIZER_HIDE_VAR(ok);							\
	return ok;								\
}										\
										\
static noinline void shadow_tg_free_##side(struct task_group *tg)		\
{										\
	free(tg);								\
}

SHADOW_TG(c, alloc_fair_sched_group_c, free_fair_sched_group_c)
SHADOW_TG(rust, sched_rust_alloc_fair_sched_group, sched_rust_free_fair_sched_group)
static const void *const shadow_tg_sides[] __used = {
	shadow_tg_alloc_c, shadow_tg_free_c, shadow_tg_alloc_rust, shadow_tg_free_rust,
};

/*
 * A new group @tg below @parent, just allocated by the side selected (@rust)
 * and not yet online: C and Rust each allocate a scratch group below
 * @parent, whose shares and state on every possible CPU must equal @tg's
 * (tg_state_normalized(), rust/debug/fair_debug.c), and free it. A first
 * allocation and free (C's, not measured) leaves the per-CPU allocator with a
 * populated free area of the state's size, which each side's allocation then
 * takes and its free gives back: the two sides' calls run on the same
 * allocator state. Which side goes first alternates from group to group.
 */
static noinline void
alloc_fair_sched_group_shadow(struct task_group *tg, struct task_group *parent, bool rust)
{
	static atomic_t turn;
	struct cfs_tg_state *st;
	struct task_group *s;
	int i, cpu, bad, first, compared = 0;

	if (!READ_ONCE(sched_rust_pick_shadow_on))
		return;
	s = kzalloc_obj(*s, GFP_KERNEL);
	st = kmalloc_objs(*st, 2, GFP_KERNEL);
	if (!s || !st)
		goto out;
	if (alloc_fair_sched_group_c(s, parent))
		free_fair_sched_group_c(s);
	first = atomic_inc_return(&turn) & 1;
	/*
	 * Each side returns on the CPU it was called on, even after sleeping
	 * in the allocator: make bench's per-call plugin then sees every
	 * call end, and pairs the sides' calls up by their order.
	 */
	migrate_disable();
	for (i = 0; i < 2; i++) {
		bool r = i ^ first;

		s->cfs_rq = NULL;
		s->shares = 0;
		if (!(r ? shadow_tg_alloc_rust(s, parent) : shadow_tg_alloc_c(s, parent))) {
			/* Out of memory: nothing to compare, and nothing to free. */
			atomic_long_inc(&sched_rust_tg_shadow_skipped);
			continue;
		}
		bad = -1;
		for_each_possible_cpu(cpu) {
			tg_state_normalized(&st[0], tg, cpu);
			tg_state_normalized(&st[1], s, cpu);
			if (memcmp(&st[0], &st[1], sizeof(*st))) {
				bad = cpu;
				break;
			}
		}
		if (r)
			shadow_tg_free_rust(s);
		else
			shadow_tg_free_c(s);
		compared++;
		if (unlikely(bad >= 0 || s->shares != tg->shares)) {
			atomic_long_inc(&sched_rust_tg_shadow_divergences);
			WARN_ONCE(1, "sched_rust: alloc_fair_sched_group(): %s made shares %lu and a state differing on CPU %d (-1: none) from %s's, shares %lu\n",
				  r ? "Rust" : "C", s->shares, bad,
				  rust ? "Rust" : "C", tg->shares);
		}
	}
	migrate_enable();
	if (compared == 2)
		atomic_long_inc(&sched_rust_tg_shadow[rust]);
out:
	kfree(st);
	kfree(s);
}
#endif /* CONFIG_FAIR_GROUP_SCHED */

#ifdef CONFIG_SCHED_CACHE
/*
 * After every dequeue, count the tasks still queued on @rq and compare with
 * the counters that enqueue, dequeue and set_delayed()/clear_delayed()
 * maintain.
 */
static void account_llc_check(struct rq *rq, struct task_struct *leaving)
{
	unsigned int nr_llc = 0, nr_pref = 0;
	struct task_struct *p;

	if (!READ_ONCE(sched_rust_pick_shadow_on))
		return;

	lockdep_assert_rq_held(rq);
	list_for_each_entry(p, &rq->cfs_tasks, se.group_node) {
		if (p == leaving)
			continue;
		if (p->preferred_llc >= 0)
			nr_llc++;
		if (task_pref_llc_runnable(p))
			nr_pref++;
	}

	atomic_long_inc(&sched_rust_llc_checks);
	if (nr_llc == rq->nr_llc_running && nr_pref == rq->nr_pref_llc_running)
		return;
	atomic_long_inc(&sched_rust_llc_violations);
	WARN_ONCE(1, "CPU%d: nr_llc_running %u nr_pref_llc_running %u, queued tasks say %u %u (%s)\n",
		  cpu_of(rq), rq->nr_llc_running, rq->nr_pref_llc_running,
		  nr_llc, nr_pref, sched_rust_llc_on() ? "Rust" : "C");
}
#endif /* CONFIG_SCHED_CACHE */

#ifdef CONFIG_SCHED_CACHE
/*
 * The LLC shadow check: every call of an LLC function is also computed by
 * both implementations, C's and Rust's, from a copy of the state it starts
 * from, and the two results are compared field by field: the runqueue's
 * counters, the per-LLC counts of its sched domain and the task's
 * pref_llc_queued for the enqueue, dequeue and pref_llc_running paths; the
 * epoch clock, the process's per-CPU runtime and the fraction for
 * __update_mm_sched() and fraction_mm_sched(); the running average for
 * update_avg_scale(). The copies live in per-CPU scratch runqueues, domains
 * and tasks, whose locks have lockdep classes of their own, so that the
 * real state is only read: the call itself then runs on the side selected.
 */
#define LLC_SHADOW_MAX_LLCS	64

struct llc_shadow_scratch {
	struct rq rq[2];			/* [0]: C, [1]: Rust */
	struct sched_domain sd[2];
	unsigned int counts[2][LLC_SHADOW_MAX_LLCS];
	struct sched_cache_time t[2];
	struct task_struct *p[2];
};

static DEFINE_PER_CPU(struct llc_shadow_scratch *, llc_shadow_scratch);
static struct lock_class_key llc_shadow_rq_key, llc_shadow_epoch_key;

static const char *const llc_shadow_names[SCHED_RUST_LLC_NR_OPS] = {
	"account_llc_enqueue", "account_llc_dequeue", "pref_llc_running",
	"fraction_mm_sched", "update_avg_scale",
};

static void llc_shadow_diverged(enum sched_rust_llc_op op, const char *field, u64 c, u64 rust)
{
	atomic_long_inc(&sched_rust_llc_shadow_divergences);
	WARN_ONCE(1, "sched_rust: %s: %s is %llu after C, %llu after Rust\n",
		  llc_shadow_names[op], field, c, rust);
}

static inline void llc_shadow_cmp(enum sched_rust_llc_op op, const char *field, u64 c, u64 rust)
{
	if (unlikely(c != rust))
		llc_shadow_diverged(op, field, c, rust);
}

/* Scratch per possible CPU; until it exists, nothing is compared. */
static int __init llc_shadow_init(void)
{
	struct llc_shadow_scratch *s;
	int cpu, i;

	for_each_possible_cpu(cpu) {
		s = kzalloc_node(sizeof(*s), GFP_KERNEL, cpu_to_node(cpu));
		if (!s)
			return -ENOMEM;
		for (i = 0; i < 2; i++) {
			s->p[i] = kzalloc_node(sizeof(*s->p[i]), GFP_KERNEL, cpu_to_node(cpu));
			if (!s->p[i]) {
				kfree(s->p[0]);
				kfree(s);
				return -ENOMEM;
			}
			raw_spin_lock_init(&s->rq[i].__lock);
			lockdep_set_class(&s->rq[i].__lock, &llc_shadow_rq_key);
			raw_spin_lock_init(&s->rq[i].cpu_epoch_lock);
			lockdep_set_class(&s->rq[i].cpu_epoch_lock, &llc_shadow_epoch_key);
			s->sd[i].llc_counts = s->counts[i];
		}
		per_cpu(llc_shadow_scratch, cpu) = s;
	}
	return 0;
}
late_initcall(llc_shadow_init);

/* The LLC functions' sides, out of line as the picks' are (above). */
#define SHADOW_LLC(name, side, rust)						\
static noinline void shadow_llc_##name##_##side(struct rq *rq, struct task_struct *p) \
{										\
	account_llc_##name##_switch(rq, p, rust);				\
}

SHADOW_LLC(enqueue, c, false)
SHADOW_LLC(enqueue, rust, true)
SHADOW_LLC(dequeue, c, false)
SHADOW_LLC(dequeue, rust, true)

#define SHADOW_OCCUPANCY(side, rust)						\
static noinline unsigned long							\
shadow_occupancy_##side(struct rq *rq, struct sched_cache_time *pcpu_sched)	\
{										\
	unsigned long f = fraction_mm_sched_switch(rq, pcpu_sched, rust);	\
										\
	OPTIMIZER_HIDE_VAR(f);							\
	return f;								\
}

SHADOW_OCCUPANCY(c, false)
SHADOW_OCCUPANCY(rust, true)
static const void *const shadow_llc_sides[] __used = {
	shadow_llc_enqueue_c, shadow_llc_enqueue_rust, shadow_llc_dequeue_c,
	shadow_llc_dequeue_rust, shadow_occupancy_c, shadow_occupancy_rust,
};

/*
 * account_llc_enqueue(), account_llc_dequeue() and pref_llc_running_inc()/
 * _dec() (@inc) of @p on @rq, whose lock the caller holds: both sides on a
 * copy of the runqueue's counters, of its domain's per-LLC counts and of
 * what the functions read of the task.
 */
static void llc_shadow_counts(struct rq *rq, struct task_struct *p,
			      enum sched_rust_llc_op op, bool inc, bool rust)
{
	struct llc_shadow_scratch *s;
	struct sched_domain *sd;
	unsigned int max = 0;
	int i, l;

	/* Both sides return at once for a task without a preferred LLC. */
	if (!READ_ONCE(sched_rust_pick_shadow_on) || READ_ONCE(p->preferred_llc) < 0)
		return;
	lockdep_assert_rq_held(rq);
	s = this_cpu_read(llc_shadow_scratch);
	if (!s)
		return;
	sd = rcu_dereference_all(rq->sd);
	if (sd)
		max = min_t(unsigned int, sd->llc_max, LLC_SHADOW_MAX_LLCS);
	for (i = 0; i < 2; i++) {
		struct rq *r = &s->rq[i];
		struct task_struct *t = s->p[i];

		r->nr_llc_running = rq->nr_llc_running;
		r->nr_pref_llc_running = rq->nr_pref_llc_running;
		s->sd[i].llc_max = max;
		for (l = 0; l < max; l++)
			s->counts[i][l] = READ_ONCE(sd->llc_counts[l]);
		RCU_INIT_POINTER(r->sd, sd ? &s->sd[i] : NULL);
		t->preferred_llc = READ_ONCE(p->preferred_llc);
		t->pref_llc_queued = p->pref_llc_queued;
		t->se.sched_delayed = p->se.sched_delayed;
		task_thread_info(t)->cpu = task_cpu(p);
	}

	raw_spin_lock(&s->rq[0].__lock);
	switch (op) {
	case SCHED_RUST_LLC_ENQUEUE:
		shadow_llc_enqueue_c(&s->rq[0], s->p[0]);
		break;
	case SCHED_RUST_LLC_DEQUEUE:
		shadow_llc_dequeue_c(&s->rq[0], s->p[0]);
		break;
	default:
		pref_llc_running_switch(&s->rq[0], s->p[0], inc, false);
		break;
	}
	raw_spin_unlock(&s->rq[0].__lock);

	raw_spin_lock(&s->rq[1].__lock);
	switch (op) {
	case SCHED_RUST_LLC_ENQUEUE:
		shadow_llc_enqueue_rust(&s->rq[1], s->p[1]);
		break;
	case SCHED_RUST_LLC_DEQUEUE:
		shadow_llc_dequeue_rust(&s->rq[1], s->p[1]);
		break;
	default:
		pref_llc_running_switch(&s->rq[1], s->p[1], inc, true);
		break;
	}
	raw_spin_unlock(&s->rq[1].__lock);

	atomic_long_inc(&sched_rust_llc_shadow[rust][op]);
	llc_shadow_cmp(op, "nr_llc_running", s->rq[0].nr_llc_running, s->rq[1].nr_llc_running);
	llc_shadow_cmp(op, "nr_pref_llc_running", s->rq[0].nr_pref_llc_running,
		       s->rq[1].nr_pref_llc_running);
	llc_shadow_cmp(op, "pref_llc_queued", s->p[0]->pref_llc_queued, s->p[1]->pref_llc_queued);
	for (l = 0; l < max; l++)
		llc_shadow_cmp(op, "llc_counts[]", s->counts[0][l], s->counts[1][l]);
}

/*
 * The specification of one fraction_mm_sched() (sched_rust_spec's closed
 * form of the epoch decay, on a live state): the epochs that ended by @now
 * are those whose ends E + j * p (j >= 0, E the runqueue's cpu_epoch_next,
 * p the period, 0 counting as 1) lie before @now; the runqueue's clock
 * moves by their number and its runtime is halved once per epoch, one
 * halving at a time; the process's entry catches up with the clock, its
 * runtime halved once per epoch it moved; the occupancy is the entry's
 * runtime over the runqueue's, plus one, in NICE_0_LOAD units.
 */
struct llc_spec_state {
	unsigned long epoch, next, t_epoch;
	u64 cpu_runtime, t_runtime;
};

static u64 llc_spec_halve(u64 v, unsigned long k)
{
	for (; k && v; k--)
		v /= 2;
	return v;
}

static unsigned long llc_spec_fraction(struct llc_spec_state *st, unsigned long now,
				       unsigned int period)
{
	unsigned long p = max(period, 1U), ended = 0, k;
	long delta = now - st->next;

	if (delta > 0)
		ended = ((unsigned long)delta - 1) / p + 1;
	st->epoch += ended;
	st->next += ended * p;
	st->cpu_runtime = llc_spec_halve(st->cpu_runtime, ended);
	k = st->epoch - st->t_epoch;
	st->t_epoch = st->epoch;
	st->t_runtime = llc_spec_halve(st->t_runtime, k);
	return div64_u64(NICE_0_LOAD * st->t_runtime, st->cpu_runtime + 1);
}

/*
 * fraction_mm_sched(), which runs __update_mm_sched() first, of @pcpu_sched
 * on @rq, whose cpu_epoch_lock the caller holds: both sides on a copy of the
 * epoch clock and of the per-CPU runtime, each taking the copy's lock and
 * reading jiffies as fair.c's dispatch does (a tick between the two skips the
 * comparison), and C's result against the specification's on the same
 * state: every occupancy task_cache_work()'s scan reads comes from a state
 * checked so.
 */
static void llc_shadow_epoch(struct rq *rq, struct sched_cache_time *pcpu_sched, bool rust)
{
	const enum sched_rust_llc_op op = SCHED_RUST_LLC_EPOCH;
	struct llc_shadow_scratch *s;
	struct llc_spec_state st;
	unsigned long now, f[2], want;
	unsigned int period;
	int i;

	if (!READ_ONCE(sched_rust_pick_shadow_on))
		return;
	lockdep_assert_held(&rq->cpu_epoch_lock);
	s = this_cpu_read(llc_shadow_scratch);
	if (!s)
		return;
	st = (struct llc_spec_state){
		.epoch = rq->cpu_epoch, .next = rq->cpu_epoch_next,
		.cpu_runtime = rq->cpu_runtime, .t_epoch = pcpu_sched->epoch,
		.t_runtime = pcpu_sched->runtime,
	};
	for (i = 0; i < 2; i++) {
		s->rq[i].cpu_epoch = rq->cpu_epoch;
		s->rq[i].cpu_epoch_next = rq->cpu_epoch_next;
		s->rq[i].cpu_runtime = rq->cpu_runtime;
		s->t[i] = *pcpu_sched;
	}
	period = READ_ONCE(llc_epoch_period);
	now = jiffies;
	f[0] = shadow_occupancy_c(&s->rq[0], &s->t[0]);
	f[1] = shadow_occupancy_rust(&s->rq[1], &s->t[1]);
	if (time_after(jiffies, now) || READ_ONCE(llc_epoch_period) != period) {
		atomic_long_inc(&sched_rust_llc_shadow_skipped);
		return;
	}

	atomic_long_inc(&sched_rust_llc_shadow[rust][op]);
	llc_shadow_cmp(op, "fraction", f[0], f[1]);
	llc_shadow_cmp(op, "cpu_epoch", s->rq[0].cpu_epoch, s->rq[1].cpu_epoch);
	llc_shadow_cmp(op, "cpu_epoch_next", s->rq[0].cpu_epoch_next, s->rq[1].cpu_epoch_next);
	llc_shadow_cmp(op, "cpu_runtime", s->rq[0].cpu_runtime, s->rq[1].cpu_runtime);
	llc_shadow_cmp(op, "runtime", s->t[0].runtime, s->t[1].runtime);
	llc_shadow_cmp(op, "epoch", s->t[0].epoch, s->t[1].epoch);

	/* C against the specification (the Rust against C, above). */
	want = llc_spec_fraction(&st, now, period);
	if (f[0] != want || s->rq[0].cpu_epoch != st.epoch || s->rq[0].cpu_epoch_next != st.next ||
	    s->rq[0].cpu_runtime != st.cpu_runtime || s->t[0].epoch != st.t_epoch ||
	    s->t[0].runtime != st.t_runtime) {
		atomic_long_inc(&sched_rust_llc_shadow_divergences);
		WARN_ONCE(1, "sched_rust: fraction_mm_sched(): C's occupancy %lu (runtime %llu of %llu), the specification's %lu (runtime %llu of %llu)\n",
			  f[0], s->t[0].runtime, s->rq[0].cpu_runtime, want, st.t_runtime,
			  st.cpu_runtime);
	}
}

/* update_avg_scale() of @avg by @sample: both sides on a copy, this CPU's LLC size. */
static void llc_shadow_avg(u64 *avg, u64 sample, bool rust)
{
	u64 a[2];

	if (!READ_ONCE(sched_rust_pick_shadow_on))
		return;
	guard(preempt)();
	a[0] = READ_ONCE(*avg);
	a[1] = a[0];
	update_avg_scale_c(&a[0], sample);
	sched_rust_update_avg_scale(&a[1], sample, per_cpu(sd_llc_size, smp_processor_id()));
	atomic_long_inc(&sched_rust_llc_shadow[rust][SCHED_RUST_LLC_AVG]);
	llc_shadow_cmp(SCHED_RUST_LLC_AVG, "nr_running_avg", a[0], a[1]);
}
#endif /* CONFIG_SCHED_CACHE */

#ifdef CONFIG_SCHED_CACHE
/*
 * The preferred-LLC choice of task_cache_work() against its specification,
 * written from the comments there, not from the loop: the preferred LLC is
 * the one whose CPUs' occupancies of the process add up to the most ("the
 * accumulated occupancy of each LLC", ties to the LLC of the lowest CPU);
 * the preferred CPU is the CPU of that LLC with the highest occupancy (ties
 * to the lowest CPU; none when the sum is 0); the group's preferred CPU
 * moves there only when that sum is more than twice the sum of the LLC that
 * holds the current preferred CPU ("2X", 0 when there is none). The scan
 * covers the online CPUs (get_scan_cpumasks() without NUMA balancing); the
 * CPUs visited are those of the LLCs of the scan's CPUs, each once.
 * task_cache_work() records the scan's CPUs and each occupancy it
 * computes; before it decides, C's three results (the CPU, its LLC's sum
 * and the current LLC's sum) and the CPUs it visited are compared with the
 * specification's on the same occupancies, under the scan's locks; after it
 * decides, the preferred CPU it left in the group (moved or kept by the 2X
 * rule) is compared with the specification's.
 *
 * An LLC here is a CPU's sd_llc domain. Not checked (counted as skipped):
 * a scan during which the domains were rebuilt (a cpuset partition holds
 * cpus_read_lock() as the scan does), and one whose domains split a
 * physical LLC (a partition or isolcpus=domain inside a cache), where C
 * compares llc_id()s, which the halves share: the specification does not
 * say which half is the current LLC then. With NUMA balancing on, the
 * scan's CPUs follow the threads' preferred nodes: only the CPUs visited
 * are compared with the scan's then, not the scan with the online CPUs. The
 * preferred CPU left in the group is not compared (skipped) when it is -1
 * while the specification keeps or moves it to a CPU: the tick and the load
 * balancer reset it to -1 concurrently (a process with too many threads for
 * its LLC, or no scan for a while); nor when another scan began since (one
 * of the next period, when this one took longer than a period), before or
 * after the record of this one began. Nor is a scan compared during which
 * the LLC domain of a CPU of the scan changed (a partition's rebuild holds
 * cpus_read_lock() as a reader, as the scan does) or NUMA balancing was
 * switched.
 */
struct llc_choice {
	s64 writers;		/* llc_choice_writers[] of the group when it began */
	int pref;		/* grp->cpu when the scan started */
	int want;		/* the specification's grp->cpu after it, or INT_MIN */
	bool own;		/* next_scan is the one this scan set */
	bool numa;		/* NUMA balancing on when the scan began */
	unsigned long next_scan; /* grp->next_scan when the record began */
	int nr;
	struct cpumask scan;	/* get_scan_cpumasks()'s CPUs */
	struct {
		/* the nr visits in their order */
		int cpu;
		unsigned long occ;
		struct sched_domain *sd;	/* its sd_llc then (the scan's RCU section) */
		/* by CPU number: the sd_llc of each CPU of the scan, when it began */
		struct sched_domain *scan_sd;
	} e[];
};

/*
 * The scans that write a group's preferred CPU, by a hash of the group:
 * every scan adds WRITER_ENDED + 1 when it has chosen, before its write
 * (fully ordered), and takes 1 back after it (fully ordered). The low 32
 * bits count the scans between the two, the high ones those that chose.
 * Only a scan writes a CPU there (the tick, the load balancer and a scan's
 * early return write -1), so a preferred CPU read twice with the same value
 * and another value read between (X, -1, X: the tick reset it, an older
 * scan that outlasted a period wrote it back) needs another scan's write:
 * one that had chosen and not written when this scan began (low bits), or
 * one that chose since (high bits; its add is ordered before its write, a
 * read that saw the write is ordered before the counter's read by
 * smp_rmb()). Groups that share a hash only skip more.
 */
#define LLC_CHOICE_WRITER_ENDED	BIT_ULL(32)
static atomic64_t llc_choice_writers[16];

static atomic64_t *llc_choice_writers_of(struct sched_cache_group *grp)
{
	return &llc_choice_writers[hash_ptr(grp, ilog2(ARRAY_SIZE(llc_choice_writers)))];
}

static void llc_choice_ending(struct sched_cache_group *grp)
{
	atomic64_add_return(LLC_CHOICE_WRITER_ENDED + 1, llc_choice_writers_of(grp));
}

static void llc_choice_written(struct sched_cache_group *grp)
{
	atomic64_dec_return(llc_choice_writers_of(grp));
}

/* Whether a scan other than @c's own @ended chose since @c began, or was choosing then. */
static bool llc_choice_raced(struct llc_choice *c, struct sched_cache_group *grp, int ended)
{
	s64 now;

	smp_rmb();	/* the preferred CPU's reads before the count's */
	now = atomic64_read(llc_choice_writers_of(grp));
	return lower_32_bits(c->writers) ||
	       upper_32_bits(now) != upper_32_bits(c->writers) + ended;
}

static struct llc_choice *llc_choice_begin(struct sched_cache_group *grp, unsigned long now)
{
	struct llc_choice *c;

	if (!READ_ONCE(sched_rust_pick_shadow_on))
		return NULL;
	c = kmalloc(struct_size(c, e, nr_cpu_ids), GFP_KERNEL | __GFP_NOWARN);
	if (!c) {
		atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_SKIPPED]);
		return NULL;
	}
	/* the count before the preferred CPU (a write that ended since, seen) */
	c->writers = atomic64_read_acquire(llc_choice_writers_of(grp));
	c->pref = READ_ONCE(grp->cpu);
	c->want = INT_MIN;
	/*
	 * The deadline task_cache_work() set for the next scan, now plus the
	 * period; another scan that began since set a later one (unless the
	 * period changed meanwhile: then this scan is not compared either).
	 */
	c->next_scan = READ_ONCE(grp->next_scan);
	c->own = c->next_scan == now + max_t(unsigned long, READ_ONCE(llc_epoch_period), 1);
	c->nr = 0;
	cpumask_clear(&c->scan);
	return c;
}

/* Whether get_scan_cpumasks() follows the preferred nodes. */
static bool llc_choice_numa(void)
{
#ifdef CONFIG_NUMA_BALANCING
	return static_branch_likely(&sched_numa_balancing);
#else
	return false;
#endif
}

static noinline void llc_choice_scan(struct llc_choice *c, const struct cpumask *cpus)
{
	int cpu;

	cpumask_copy(&c->scan, cpus);
	c->numa = llc_choice_numa();
	for_each_cpu(cpu, cpus)
		c->e[cpu].scan_sd = rcu_dereference_all(per_cpu(sd_llc, cpu));
}

static noinline void llc_choice_record(struct llc_choice *c, int cpu, unsigned long occ)
{
	if (c->nr < nr_cpu_ids) {
		c->e[c->nr].cpu = cpu;
		c->e[c->nr].occ = occ;
		c->e[c->nr].sd = rcu_dereference_all(per_cpu(sd_llc, cpu));
	}
	c->nr++;
}

static void llc_choice_diverged(const char *what, long c, long spec)
{
	atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_DIVERGED]);
	WARN_ONCE(1, "sched_rust: task_cache_work(): %s %ld, the specification's %ld\n",
		  what, c, spec);
}

/* The occupancy recorded for @cpu, or -1 when the scan did not visit it. */
static long llc_choice_occ_of(const struct llc_choice *c, int cpu, int *visits)
{
	long occ = -1;
	int j;

	*visits = 0;
	for (j = 0; j < c->nr; j++) {
		if (c->e[j].cpu == cpu) {
			occ = c->e[j].occ;
			(*visits)++;
		}
	}
	return occ;
}

static noinline void llc_choice_check(struct llc_choice *c, struct sched_cache_group *grp,
				      int m_a_cpu, unsigned long m_a_occ,
				      unsigned long curr_m_a_occ)
{
	unsigned long best_sum = 0, cur_sum = 0;
	int best_cpu = -1, j, cpu, visits;
	cpumask_var_t done, ids;

	if (c->nr > nr_cpu_ids) {
		llc_choice_diverged("CPUs visited", c->nr, nr_cpu_ids);
		return;
	}
	for (j = 0; j < c->nr; j++) {
		if (rcu_dereference_all(per_cpu(sd_llc, c->e[j].cpu)) != c->e[j].sd)
			break;
	}
	for_each_cpu(cpu, &c->scan) {
		if (rcu_dereference_all(per_cpu(sd_llc, cpu)) != c->e[cpu].scan_sd)
			break;
	}
	if (j < c->nr || cpu < nr_cpu_ids || READ_ONCE(grp->cpu) != c->pref ||
	    llc_choice_raced(c, grp, 0) || llc_choice_numa() != c->numa) {
		atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_SKIPPED]);
		return;
	}
	if (!zalloc_cpumask_var(&done, GFP_ATOMIC | __GFP_NOWARN)) {
		atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_SKIPPED]);
		return;
	}
	if (!zalloc_cpumask_var(&ids, GFP_ATOMIC | __GFP_NOWARN)) {
		atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_SKIPPED]);
		free_cpumask_var(done);
		return;
	}

	/*
	 * The scan: the online CPUs (without NUMA balancing; cpus_read_lock()
	 * holds them); every CPU of it that has an LLC domain visited, and
	 * every CPU visited in the LLC of a CPU of it.
	 */
	if (!c->numa && !cpumask_equal(&c->scan, cpu_online_mask)) {
		llc_choice_diverged("CPUs in a scan that is not the online CPUs:",
				    cpumask_weight(&c->scan), cpumask_weight(cpu_online_mask));
		goto out;
	}
	for_each_cpu(cpu, &c->scan) {
		if (rcu_dereference_all(per_cpu(sd_llc, cpu)) &&
		    llc_choice_occ_of(c, cpu, &visits) < 0) {
			llc_choice_diverged("an unvisited CPU of the scan:", cpu, -1);
			goto out;
		}
	}
	for (j = 0; j < c->nr; j++) {
		if (!c->e[j].sd) {
			llc_choice_diverged("visited a CPU without an LLC domain:",
					    c->e[j].cpu, -1);
			goto out;
		}
		if (!cpumask_intersects(sched_domain_span(c->e[j].sd), &c->scan)) {
			llc_choice_diverged("visited a CPU outside the scan's LLCs:",
					    c->e[j].cpu, -1);
			goto out;
		}
	}

	/* The LLCs of the CPUs visited, by their lowest CPU: sums and maxima. */
	for_each_possible_cpu(cpu) {
		struct sched_domain *sd;
		unsigned long sum = 0, top = 0;
		int top_cpu = -1, i, id;
		long occ;

		if (cpumask_test_cpu(cpu, done) || llc_choice_occ_of(c, cpu, &visits) < 0)
			continue;
		sd = rcu_dereference_all(per_cpu(sd_llc, cpu));
		if (!sd) {
			llc_choice_diverged("visited a CPU without an LLC domain:", cpu, -1);
			goto out;
		}
		for_each_cpu(i, sched_domain_span(sd)) {
			occ = llc_choice_occ_of(c, i, &visits);
			if (visits != 1) {
				llc_choice_diverged("visits of a CPU of a scanned LLC:", visits, 1);
				goto out;
			}
			sum += occ;
			if (occ > top) {
				top = occ;
				top_cpu = i;
			}
		}
		cpumask_or(done, done, sched_domain_span(sd));
		/* Two domains of one physical LLC: not specified (above). */
		id = llc_id(cpu);
		if (id < 0 || id >= nr_cpu_ids || cpumask_test_and_set_cpu(id, ids)) {
			atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_SKIPPED]);
			goto out;
		}
		if (sum > best_sum) {
			best_sum = sum;
			best_cpu = top_cpu;
		}
		if (c->pref >= 0 && cpumask_test_cpu(c->pref, sched_domain_span(sd)))
			cur_sum = sum;
	}

	atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_CHECKS]);
	if (best_sum > 2 * cur_sum)
		atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_MOVES]);
	if (m_a_cpu != best_cpu)
		llc_choice_diverged("preferred CPU", m_a_cpu, best_cpu);
	else if (m_a_occ != best_sum)
		llc_choice_diverged("its LLC's occupancy", m_a_occ, best_sum);
	else if (curr_m_a_occ != cur_sum)
		llc_choice_diverged("the current preferred LLC's occupancy", curr_m_a_occ,
				    cur_sum);
	else	/* compared after the 2X rule only when C's inputs to it agree */
		c->want = best_sum > 2 * cur_sum ? best_cpu : c->pref;
out:
	free_cpumask_var(ids);
	free_cpumask_var(done);
}

/* After the 2X rule: the preferred CPU task_cache_work() left in the group. */
static noinline void llc_choice_left(struct llc_choice *c, struct sched_cache_group *grp)
{
	int cpu = READ_ONCE(grp->cpu);

	if (c->want == INT_MIN)
		return;
	if (!c->own) {
		atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_SKIPPED]);
		return;
	}
	/*
	 * Another scan that began since (the next period's: a scan can take
	 * longer than a period) writes the group's preferred CPU too. It set
	 * next_scan (a full barrier) before it wrote: seen its write, seen that.
	 */
	smp_rmb();
	if (READ_ONCE(grp->next_scan) != c->next_scan) {
		atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_SKIPPED]);
		return;
	}
	/* Nor one that began before and wrote after this one (this one's add counted). */
	if (llc_choice_raced(c, grp, 1)) {
		atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_SKIPPED]);
		return;
	}
	if (cpu == c->want)
		atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_LEFT]);
	else if (cpu == -1)
		atomic_long_inc(&sched_rust_llc_choice[SCHED_RUST_CHOICE_SKIPPED]);
	else
		llc_choice_diverged("preferred CPU left in the group", cpu, c->want);
}
#endif /* CONFIG_SCHED_CACHE */
