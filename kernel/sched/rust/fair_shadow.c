// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow check of CONFIG_SCHED_RUST_CFS (CONFIG_SCHED_RUST_CFS_SHADOW):
 * on every eligibility test and pick, the implementation that was not
 * selected runs too, on the same state under the same runqueue lock, and a
 * different answer is counted and warned about once; every LLC dequeue
 * recounts the tasks queued on its runqueue and checks the LLC counters.
 * Counts are in /sys/kernel/debug/sched/rust_cfs/{shadow,llc_check}.
 *
 * Included at the bottom of kernel/sched/fair.c, whose dispatch calls these
 * functions (declared in rust/fair_debug.h) behind sched_rust_pick_debug_key.
 */

static noinline void
vruntime_eligible_shadow(struct cfs_rq *cfs_rq, u64 vruntime, bool rust, int ret)
{
	int other;

	if (!READ_ONCE(sched_rust_pick_shadow_on))
		return;
	other = rust ? vruntime_eligible_c(cfs_rq, vruntime) :
		       sched_rust_vruntime_eligible(cfs_rq, vruntime);
	atomic_long_inc(&sched_rust_shadow_checks);
	if (unlikely(!other != !ret)) {
		atomic_long_inc(&sched_rust_shadow_divergences);
		WARN_ONCE(1, "sched_rust_cfs: eligibility of %llu: %s says %d, %s says %d\n",
			  vruntime, rust ? "Rust" : "C", ret, rust ? "C" : "Rust", other);
	}
}

static noinline void
pick_eevdf_shadow(struct cfs_rq *cfs_rq, bool protect, bool rust, struct sched_entity *se)
{
	struct sched_entity *other;

	if (!READ_ONCE(sched_rust_pick_shadow_on))
		return;
	other = rust ? pick_eevdf_c(cfs_rq, protect) :
		       sched_rust_pick_eevdf(cfs_rq, protect, sched_feat(PICK_BUDDY));
	atomic_long_inc(&sched_rust_shadow_checks);
	if (unlikely(other != se)) {
		atomic_long_inc(&sched_rust_shadow_divergences);
		WARN_ONCE(1, "sched_rust_cfs: pick_eevdf(protect=%d): %s picked %p, %s %p\n",
			  protect, rust ? "Rust" : "C", se, rust ? "C" : "Rust", other);
	}
}

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
