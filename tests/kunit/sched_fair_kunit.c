// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit guard of the EEVDF pick, its eligibility test and the LLC epoch
 * decay of fair.c, whichever implementation the kernel has: C, or Rust with
 * CONFIG_SCHED_RUST_CFS.
 *
 * Both implementations must give the same answers. A kernel has one of
 * them, so the suite checks it against what both gave when this file was
 * written: it builds a fixed sequence of runqueue states with the real
 * __enqueue_entity() (the same states on every architecture and boot: a
 * fixed seed), asks pick_eevdf() and entity_eligible() about each, and
 * folds the answers into a digest, one per block of states (the decay: its
 * own states, one digest). A change to either implementation that changes
 * an answer fails the suite on the block of the first state that differs,
 * on the kernel with that implementation; an intended change updates the
 * digests, and the other implementation then fails until it follows.
 * sched_fair_kunit_dump=<block> prints every answer of one block of the
 * pick, to compare the two kernels line by line.
 *
 * Included at the end of fair.c, whose pick_eevdf() is static.
 */
#include <kunit/test.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>

#define FAIR_KUNIT_SEED		0x5eedfa1bULL
#define FAIR_KUNIT_STATES	20000
#define FAIR_KUNIT_BLOCK	1000	/* states per digest */
#define FAIR_KUNIT_BLOCKS	(FAIR_KUNIT_STATES / FAIR_KUNIT_BLOCK)
#define FAIR_KUNIT_MAX_SE	64

/* -1: none; else the block whose answers are printed. */
static int fair_kunit_dump = -1;
core_param(sched_fair_kunit_dump, fair_kunit_dump, int, 0644);

/*
 * The digest of each block of states. Written from a run of the C
 * implementation (CONFIG_SCHED_RUST_CFS=n) and equal on the Rust one.
 */
static const u64 fair_kunit_digest[FAIR_KUNIT_BLOCKS] = {
	0xf6ab50b38f26cb0a, 0xb42d1a6e2e472bed,
	0x048202d8fe493eac, 0x267929f9d581f42f,
	0x5ee5e936b7c3467b, 0xf29218d4282774f0,
	0x71a3c8623af977df, 0xde460f2030b82be3,
	0x7a5325a30b5c2e7c, 0xdea9289010c621b7,
	0x6028c6c1636da18c, 0x91bf33c2de247dea,
	0x356aafc9aaf139ee, 0x2222584d557fd66b,
	0xf375d5a032a3b0a0, 0xdd87e3d14f705deb,
	0xca4b58ae91674b4b, 0x01ded12a3d00384e,
	0x326f1a71bb40eddd, 0x1f6af7e6df26e5a4,
};

struct fair_kunit_rq {
	struct rq *rq;
	struct sched_entity *se;	/* FAIR_KUNIT_MAX_SE entities, then curr */
	struct rnd_state rnd;
};

static u32 fair_kunit_below(struct fair_kunit_rq *f, u32 n)
{
	return prandom_u32_state(&f->rnd) % n;
}

static u64 fair_kunit_u64(struct fair_kunit_rq *f)
{
	return ((u64)prandom_u32_state(&f->rnd) << 32) | prandom_u32_state(&f->rnd);
}

/* A weight between 2 and 88761 << 10 (nice -20 in scale_load() units). */
static unsigned long fair_kunit_weight(struct fair_kunit_rq *f)
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

/* A key (vruntime - zero_vruntime) in [-range, range]. */
static s64 fair_kunit_key(struct fair_kunit_rq *f, s64 range)
{
	return (s64)(fair_kunit_u64(f) % (2 * (u64)range + 1)) - range;
}

/*
 * One runqueue state: up to FAIR_KUNIT_MAX_SE entities queued with
 * __enqueue_entity(), keys near and far from zero_vruntime (which is near
 * the u64 wrap at times), sum_shift at times, curr on or off the runqueue
 * or none, protected or not, a next buddy at times, ties of deadlines.
 * Returns the number of entities in the tree.
 */
static unsigned int fair_kunit_build(struct fair_kunit_rq *f)
{
	struct cfs_rq *cfs_rq = &f->rq->cfs;
	struct sched_entity *curr = &f->se[FAIR_KUNIT_MAX_SE];
	s64 range = 1LL << (10 + fair_kunit_below(f, 25));
	bool ties = !fair_kunit_below(f, 16);
	unsigned int i, nr;
	bool has_curr, curr_on_rq;

	memset(f->rq, 0, sizeof(*f->rq));
	raw_spin_lock_init(&f->rq->__lock);
	init_cfs_rq(cfs_rq);
#ifdef CONFIG_FAIR_GROUP_SCHED
	cfs_rq->rq = f->rq;
#endif
	if (!fair_kunit_below(f, 4))
		cfs_rq->zero_vruntime = fair_kunit_u64(f);
	else if (fair_kunit_below(f, 2))
		cfs_rq->zero_vruntime = U64_MAX - fair_kunit_below(f, 1 << 20);
	if (!fair_kunit_below(f, 8))
		cfs_rq->sum_shift = 1 + fair_kunit_below(f, 10);

	nr = fair_kunit_below(f, 2) ? fair_kunit_below(f, 9) :
		fair_kunit_below(f, FAIR_KUNIT_MAX_SE + 1);
	for (i = 0; i < nr; i++) {
		struct sched_entity *se = &f->se[i];

		memset(se, 0, sizeof(*se));
		update_load_set(&se->h_load, fair_kunit_weight(f));
		se->vruntime = cfs_rq->zero_vruntime + fair_kunit_key(f, range);
		se->deadline = ties ? cfs_rq->zero_vruntime :
			se->vruntime + fair_kunit_below(f, 1 << 24);
		se->slice = fair_kunit_below(f, 1 << 24);
		se->on_rq = 1;
		__enqueue_entity(cfs_rq, se);
	}

	has_curr = fair_kunit_below(f, 4);
	curr_on_rq = fair_kunit_below(f, 4);
	memset(curr, 0, sizeof(*curr));
	update_load_set(&curr->h_load, fair_kunit_weight(f));
	curr->vruntime = cfs_rq->zero_vruntime + fair_kunit_key(f, range);
	curr->deadline = ties ? cfs_rq->zero_vruntime :
		curr->vruntime + fair_kunit_below(f, 1 << 24);
	curr->on_rq = curr_on_rq;
	curr->vprot = curr->vruntime + fair_kunit_key(f, 1 << 20);
	cfs_rq->curr = has_curr ? curr : NULL;
	cfs_rq->next = nr && fair_kunit_below(f, 2) ? &f->se[fair_kunit_below(f, nr)] : NULL;
	cfs_rq->h_nr_queued = nr + (has_curr && curr_on_rq);
	return nr;
}

/* FNV-1a, 64 bits, one u64 at a time. */
static u64 fair_kunit_mix(u64 h, u64 v)
{
	return (h ^ v) * 0x100000001b3ULL;
}

/* The answer for @se: its index, FAIR_KUNIT_MAX_SE for curr, U16_MAX for NULL. */
static u64 fair_kunit_index(struct fair_kunit_rq *f, struct sched_entity *se)
{
	if (!se)
		return U16_MAX;
	return se - f->se;
}

/*
 * The answers of one state: the pick with and without protection, with
 * and without the next buddy (hidden for the call: the pick is its only
 * reader), and the eligibility of every entity and of curr. The runqueue
 * lock is held as the scheduler holds it (the Rust checks it).
 */
static u64 fair_kunit_answers(struct fair_kunit_rq *f, unsigned int nr, u64 *elig)
{
	struct cfs_rq *cfs_rq = &f->rq->cfs;
	struct sched_entity *next = cfs_rq->next;
	u64 picks = 0;
	unsigned int i, k;

	raw_spin_rq_lock(f->rq);
	for (k = 0; k < 4; k++) {
		cfs_rq->next = k & 2 ? next : NULL;
		picks |= fair_kunit_index(f, pick_eevdf(cfs_rq, k & 1)) << (16 * k);
	}
	cfs_rq->next = next;
	*elig = 0;
	for (i = 0; i <= nr; i++) {
		struct sched_entity *se = i < nr ? &f->se[i] : &f->se[FAIR_KUNIT_MAX_SE];

		if (entity_eligible(cfs_rq, se))
			*elig |= BIT_ULL(i < nr ? i : 63);
	}
	raw_spin_rq_unlock(f->rq);
	return picks;
}

static void sched_fair_kunit_pick_test(struct kunit *test)
{
	struct fair_kunit_rq *f;
	unsigned int b, s, bad = 0;

	/* The next buddy only counts with PICK_BUDDY, a feature one can flip. */
	if (!sched_feat(PICK_BUDDY))
		kunit_skip(test, "PICK_BUDDY is off (/sys/kernel/debug/sched/features)");

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->rq = kunit_kzalloc(test, sizeof(*f->rq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->rq);
	f->se = kunit_kcalloc(test, FAIR_KUNIT_MAX_SE + 1, sizeof(*f->se), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->se);
	prandom_seed_state(&f->rnd, FAIR_KUNIT_SEED);

	for (b = 0; b < FAIR_KUNIT_BLOCKS; b++) {
		u64 h = 0xcbf29ce484222325ULL;

		for (s = 0; s < FAIR_KUNIT_BLOCK; s++) {
			unsigned int nr = fair_kunit_build(f);
			u64 elig, picks = fair_kunit_answers(f, nr, &elig);

			h = fair_kunit_mix(fair_kunit_mix(h, picks), elig);
			if (b == fair_kunit_dump)
				kunit_info(test, "block %u state %u: nr %u picks %016llx eligible %016llx\n",
					   b, s, nr, picks, elig);
			cond_resched();
		}
		if (h != fair_kunit_digest[b]) {
			kunit_err(test, "block %u: digest %#018llx, expected %#018llx\n",
				  b, h, fair_kunit_digest[b]);
			bad++;
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "%u of %u blocks differ (sched_fair_kunit_dump=<block>)",
			    bad, FAIR_KUNIT_BLOCKS);
}

#ifdef CONFIG_SCHED_CACHE
#define FAIR_KUNIT_DECAY_STATES	20000

/* The digest of the epoch decay's answers (the C's, as the pick's). */
static const u64 fair_kunit_decay_digest = 0xb94ec2111c056ff3;

/* A count of epochs below 2^bits: none, a few, past 64, near 2^32, or any. */
static unsigned long fair_kunit_epochs(struct fair_kunit_rq *f, unsigned int bits)
{
	switch (fair_kunit_below(f, 5)) {
	case 0:
		return 0;
	case 1:
		return 1 + fair_kunit_below(f, 70);
	case 2:
		return (1UL << 32) - 64 + fair_kunit_below(f, 192);
	default:
		return bits < 64 ? fair_kunit_u64(f) & GENMASK_ULL(bits - 1, 0) : fair_kunit_u64(f);
	}
}

/* A runtime: small, near the top of a u64 (the product wraps), or any. */
static u64 fair_kunit_runtime(struct fair_kunit_rq *f)
{
	switch (fair_kunit_below(f, 3)) {
	case 0:
		return fair_kunit_below(f, 1 << 30);
	case 1:
		return U64_MAX - fair_kunit_below(f, 1 << 30);
	default:
		return fair_kunit_u64(f);
	}
}

/*
 * One state of the epoch decay, fraction_mm_sched() with the
 * __update_mm_sched() it runs: the runqueue's epoch ends k periods and c
 * jiffies (c < 2) before now (k < 2^42), or is still running, and the
 * process's epoch lags the runqueue's by any number of epochs. Its answers
 * do not depend on HZ or on the period (llc_epoch_period, at most 2^20):
 * the epochs that went (k + c), the runtimes after the decay and the
 * occupancy. Returns false when jiffies moved during the call: the state
 * is built again.
 */
static bool fair_kunit_decay_one(struct kunit *test, struct fair_kunit_rq *f,
				 struct sched_cache_time *pcpu, u64 *h)
{
	struct rq *rq = f->rq;
	unsigned int period = max(READ_ONCE(llc_epoch_period), 1U);
	unsigned long k, c, epoch, now, next;
	bool ended = fair_kunit_below(f, 4);
	u64 frac;

	k = fair_kunit_epochs(f, 42);
	c = fair_kunit_below(f, 2);
	epoch = fair_kunit_u64(f);
	memset(rq, 0, sizeof(*rq));
	raw_spin_lock_init(&rq->cpu_epoch_lock);
	rq->cpu_epoch = epoch;
	rq->cpu_runtime = fair_kunit_runtime(f);
	pcpu->epoch = epoch - fair_kunit_epochs(f, 64);
	pcpu->runtime = fair_kunit_runtime(f);

	now = jiffies;
	next = ended ? now - (k * period + c) : now + k * period + c;
	rq->cpu_epoch_next = next;
	frac = fraction_mm_sched(rq, pcpu);
	if (time_after(jiffies, now))
		return false;

	/* The period's own part of the answer: the next epoch's end. */
	if (ended && (k || c))
		KUNIT_EXPECT_LT(test, rq->cpu_epoch_next - now, period);
	else
		KUNIT_EXPECT_EQ(test, rq->cpu_epoch_next, next);
	KUNIT_EXPECT_EQ(test, pcpu->epoch, rq->cpu_epoch);
	*h = fair_kunit_mix(*h, rq->cpu_epoch - epoch);
	*h = fair_kunit_mix(*h, rq->cpu_runtime);
	*h = fair_kunit_mix(*h, pcpu->runtime);
	*h = fair_kunit_mix(*h, frac);
	return true;
}

static void sched_fair_kunit_decay_test(struct kunit *test)
{
	struct sched_cache_time *pcpu;
	struct fair_kunit_rq *f;
	struct rnd_state again;
	u64 h = 0xcbf29ce484222325ULL;
	unsigned int s, retries = 0;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->rq = kunit_kzalloc(test, sizeof(*f->rq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->rq);
	pcpu = kunit_kzalloc(test, sizeof(*pcpu), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pcpu);
	prandom_seed_state(&f->rnd, FAIR_KUNIT_SEED);
	if (READ_ONCE(llc_epoch_period) > 1U << 20)
		kunit_skip(test, "llc_epoch_period over 2^20 (sched/llc_balancing/epoch_period)");

	for (s = 0; s < FAIR_KUNIT_DECAY_STATES; s++) {
		again = f->rnd;
		while (!fair_kunit_decay_one(test, f, pcpu, &h)) {
			f->rnd = again;
			retries++;
		}
		cond_resched();
	}
	kunit_info(test, "digest %#018llx (%u states built again: jiffies moved)\n", h, retries);
	KUNIT_EXPECT_EQ_MSG(test, h, fair_kunit_decay_digest,
			    "the epoch decay changed an answer");
}
#endif /* CONFIG_SCHED_CACHE */

static struct kunit_case sched_fair_kunit_cases[] = {
	KUNIT_CASE(sched_fair_kunit_pick_test),
#ifdef CONFIG_SCHED_CACHE
	KUNIT_CASE(sched_fair_kunit_decay_test),
#endif
	{}
};

static struct kunit_suite sched_fair_kunit_suite = {
	.name = "sched_fair",
	.test_cases = sched_fair_kunit_cases,
};

kunit_test_suite(sched_fair_kunit_suite);
