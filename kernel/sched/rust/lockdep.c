// SPDX-License-Identifier: GPL-2.0
/*
 * The lockdep checks behind the Rust lock tokens of CONFIG_SCHED_RUST_CFS
 * (rust/kernel/sched/lock.rs): RqLocked and EpochLocked call these, with
 * CONFIG_LOCKDEP, when C hands the Rust side a runqueue whose lock it holds.
 */
#include "../sched.h"

void sched_rust_assert_rq_held(struct rq *rq)
{
	lockdep_assert_rq_held(rq);
}

#ifdef CONFIG_SCHED_CACHE
void sched_rust_assert_epoch_held(struct rq *rq)
{
	lockdep_assert_held(&rq->cpu_epoch_lock);
}
#endif
