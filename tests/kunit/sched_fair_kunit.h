/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runqueue states of fair.c's KUnit suites: a runqueue of the test's
 * own and a pseudo-random choice of entities' weights and keys, shared by
 * sched_fair_kunit.c and the suites included after it. For inclusion at
 * the end of fair.c only.
 */
#ifndef _KERNEL_SCHED_TESTS_SCHED_FAIR_KUNIT_H
#define _KERNEL_SCHED_TESTS_SCHED_FAIR_KUNIT_H

#include <linux/prandom.h>

/* A runqueue and a pool of task entities that nothing else points at. */
struct fair_kunit_rq {
	struct rq *rq;
	struct sched_entity *se;	/* the pool, then curr */
	struct rnd_state rnd;
};

/* A number below @n, 0 for none. */
static inline u32 fair_kunit_below(struct fair_kunit_rq *f, u32 n)
{
	return n ? prandom_u32_state(&f->rnd) % n : 0;
}

static inline u64 fair_kunit_u64(struct fair_kunit_rq *f)
{
	return ((u64)prandom_u32_state(&f->rnd) << 32) | prandom_u32_state(&f->rnd);
}

/* A weight between 2 and 88761 << 10 (nice -20 in scale_load() units). */
static inline unsigned long fair_kunit_weight(struct fair_kunit_rq *f)
{
	switch (fair_kunit_below(f, 4)) {
	case 0:
		return 2 + fair_kunit_below(f, 16);
	case 1:
		return NICE_0_LOAD;
	case 2:
		return scale_load(sched_prio_to_weight[fair_kunit_below(f, 40)]);
	default:
		return 2 + fair_kunit_below(f, (88761 << 10) - 1);
	}
}

/*
 * A key (vruntime - zero_vruntime) in [-@range, @range]: with @range below
 * 2^35, small enough for __enqueue_entity() to accept it with any weight
 * (|key * weight| < 2^62), large enough that key * sum_weight overflows
 * s64 in the eligibility test of big trees.
 */
static inline s64 fair_kunit_key(struct fair_kunit_rq *f, s64 range)
{
	return (s64)(fair_kunit_u64(f) % (2 * (u64)range + 1)) - range;
}

/* The runqueue's cfs_rq, empty, on a runqueue all zero but its lock. */
static inline struct cfs_rq *fair_kunit_rq_reset(struct fair_kunit_rq *f)
{
	memset(f->rq, 0, sizeof(*f->rq));
	raw_spin_lock_init(&f->rq->__lock);
	init_cfs_rq(&f->rq->cfs);
#ifdef CONFIG_FAIR_GROUP_SCHED
	f->rq->cfs.rq = f->rq;
#endif
	return &f->rq->cfs;
}

#endif /* _KERNEL_SCHED_TESTS_SCHED_FAIR_KUNIT_H */
