// SPDX-License-Identifier: GPL-2.0
/*
 * Pick route statistics of CONFIG_SCHED_RUST_CFS (CONFIG_SCHED_RUST_CFS_STATS):
 * while /sys/kernel/debug/sched/sched_rust/pick_stats is 1, every pick_eevdf()
 * is counted per CPU under the implementation that served it and the branch
 * that decided it. The parity tests also use the classifier.
 *
 * Included at the bottom of kernel/sched/fair.c, whose dispatch calls
 * pick_eevdf_stats() (declared in rust/debug/fair_debug.h) behind sched_rust_pick_debug_key.
 */

/*
 * The branch of pick_eevdf() that decides on this state. It depends on the
 * state only, so it classifies the picks of both implementations alike.
 */
static enum sched_rust_pick_route
pick_eevdf_route(struct cfs_rq *cfs_rq, bool protect, bool pick_buddy)
{
	struct sched_entity *first = __pick_first_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;

	if (cfs_rq->h_nr_queued == 1)
		return SCHED_RUST_ROUTE_SINGLE;
	if (pick_buddy && protect && cfs_rq->next &&
	    vruntime_eligible_c(cfs_rq, cfs_rq->next->vruntime))
		return SCHED_RUST_ROUTE_BUDDY;
	if (curr && curr->on_rq && protect && protect_slice(curr) &&
	    vruntime_eligible_c(cfs_rq, curr->vruntime))
		return SCHED_RUST_ROUTE_PROTECT;
	if (first && vruntime_eligible_c(cfs_rq, first->vruntime))
		return SCHED_RUST_ROUTE_FAST;
	return SCHED_RUST_ROUTE_HEAP;
}

static noinline void pick_eevdf_stats(struct cfs_rq *cfs_rq, bool protect, bool rust)
{
	enum sched_rust_pick_route route;

	if (!READ_ONCE(sched_rust_pick_stats_on))
		return;
	route = pick_eevdf_route(cfs_rq, protect, sched_feat(PICK_BUDDY));
	this_cpu_inc(sched_rust_pick_stats.route[rust][route]);
}
