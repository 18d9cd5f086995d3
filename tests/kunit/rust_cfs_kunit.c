// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit parity suite for CONFIG_SCHED_RUST_CFS: the C and the Rust
 * implementation of each piece run on identical inputs and must give
 * identical results.
 *
 * Included at the bottom of kernel/sched/fair.c so that it can reach the
 * static functions it compares against. The random cases are reproducible:
 * the seed is printed, and the boot parameter fair.rust_parity_seed= changes
 * it.
 */
#include <kunit/test.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/slab.h>

static ulong rust_parity_seed = 20261122;
module_param(rust_parity_seed, ulong, 0644);
MODULE_PARM_DESC(rust_parity_seed, "seed of the random C/Rust parity cases");

static uint rust_parity_pick_states = 100000;
module_param(rust_parity_pick_states, uint, 0644);
MODULE_PARM_DESC(rust_parity_pick_states, "random cfs_rq states per pick parity run");

#define PARITY_MAX_SE	1024

/* A fake runqueue with a pool of task entities; nothing else points at it. */
struct eevdf_fixture {
	struct rq *rq;
	struct sched_entity *se;	/* PARITY_MAX_SE entities, then curr */
	struct rnd_state rnd;
};

static int eevdf_fixture_init(struct kunit *test)
{
	struct eevdf_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->rq = kunit_kzalloc(test, sizeof(*f->rq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->rq);
	f->se = kvcalloc(PARITY_MAX_SE + 1, sizeof(*f->se), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->se);
	prandom_seed_state(&f->rnd, rust_parity_seed);
	test->priv = f;
	return 0;
}

static void eevdf_fixture_exit(struct kunit *test)
{
	struct eevdf_fixture *f = test->priv;

	kvfree(f->se);
}

static u64 rnd64(struct eevdf_fixture *f)
{
	return ((u64)prandom_u32_state(&f->rnd) << 32) | prandom_u32_state(&f->rnd);
}

static u32 rnd_below(struct eevdf_fixture *f, u32 n)
{
	return n ? prandom_u32_state(&f->rnd) % n : 0;
}

/* A weight between 2 and 88761 << 10 (nice -20 in scale_load() units). */
static unsigned long rnd_weight(struct eevdf_fixture *f)
{
	switch (rnd_below(f, 4)) {
	case 0:
		return 2 + rnd_below(f, 16);
	case 1:
		return NICE_0_LOAD;
	case 2:
		return scale_load(sched_prio_to_weight[rnd_below(f, 40)]);
	default:
		return 2 + rnd_below(f, (88761 << 10) - 1);
	}
}

/*
 * A key (vruntime - zero_vruntime) small enough for __enqueue_entity() to
 * accept it with any weight (|key * weight| < 2^62), but large enough that
 * key * sum_weight overflows s64 in the eligibility test of big trees.
 */
static s64 rnd_key(struct eevdf_fixture *f, s64 range)
{
	return (s64)(rnd64(f) % (2 * (u64)range + 1)) - range;
}

struct eevdf_state {
	unsigned int nr;		/* entities in the tree */
	bool curr_on_rq;
	bool has_curr;
};

/*
 * Build a random cfs_rq with the real __enqueue_entity(), so that the tree,
 * its augmentation and the sums are exactly what the scheduler would have.
 */
static void eevdf_build(struct eevdf_fixture *f, struct eevdf_state *st)
{
	struct cfs_rq *cfs_rq = &f->rq->cfs;
	struct sched_entity *curr = &f->se[PARITY_MAX_SE];
	s64 range = 1LL << (10 + rnd_below(f, 25));
	bool equal_deadlines = !rnd_below(f, 16);
	unsigned int i, size_class = rnd_below(f, 100);

	memset(f->rq, 0, sizeof(*f->rq));
	init_cfs_rq(cfs_rq);
#ifdef CONFIG_FAIR_GROUP_SCHED
	cfs_rq->rq = f->rq;
#endif
	if (rnd_below(f, 4) == 0)
		cfs_rq->zero_vruntime = rnd64(f);
	else if (rnd_below(f, 2))
		cfs_rq->zero_vruntime = U64_MAX - rnd_below(f, 1 << 20);
	if (!rnd_below(f, 8))
		cfs_rq->sum_shift = 1 + rnd_below(f, 10);

	if (size_class < 50)
		st->nr = rnd_below(f, 9);
	else if (size_class < 80)
		st->nr = 9 + rnd_below(f, 56);
	else if (size_class < 97)
		st->nr = 65 + rnd_below(f, 192);
	else
		st->nr = 257 + rnd_below(f, PARITY_MAX_SE - 256);

	for (i = 0; i < st->nr; i++) {
		struct sched_entity *se = &f->se[i];

		memset(se, 0, sizeof(*se));
		update_load_set(&se->h_load, rnd_weight(f));
		se->vruntime = cfs_rq->zero_vruntime + rnd_key(f, range);
		se->deadline = equal_deadlines ? cfs_rq->zero_vruntime :
			se->vruntime + rnd_below(f, 1 << 24);
		se->slice = rnd_below(f, 1 << 24);
		se->on_rq = 1;
		__enqueue_entity(cfs_rq, se);
	}

	st->has_curr = rnd_below(f, 4) != 0;
	st->curr_on_rq = rnd_below(f, 4) != 0;
	memset(curr, 0, sizeof(*curr));
	update_load_set(&curr->h_load, rnd_weight(f));
	curr->vruntime = cfs_rq->zero_vruntime + rnd_key(f, range);
	curr->deadline = curr->vruntime + rnd_below(f, 1 << 24);
	curr->on_rq = st->curr_on_rq;
	/* vprot before, at or after vruntime: protection on and off. */
	curr->vprot = curr->vruntime + rnd_key(f, 1 << 20);
	cfs_rq->curr = st->has_curr ? curr : NULL;

	cfs_rq->next = st->nr && rnd_below(f, 2) ? &f->se[rnd_below(f, st->nr)] : NULL;
	cfs_rq->h_nr_queued = st->nr + (st->has_curr && st->curr_on_rq);
	/* Sometimes exercise the single-entity shortcut with a bigger tree. */
	if (!rnd_below(f, 32))
		cfs_rq->h_nr_queued = 1;
}

static void set_pick_buddy(bool on)
{
#ifdef CONFIG_JUMP_LABEL
	if (on)
		static_key_enable(&sched_feat_keys[__SCHED_FEAT_PICK_BUDDY]);
	else
		static_key_disable(&sched_feat_keys[__SCHED_FEAT_PICK_BUDDY]);
#endif
	if (on)
		sysctl_sched_features |= 1UL << __SCHED_FEAT_PICK_BUDDY;
	else
		sysctl_sched_features &= ~(1UL << __SCHED_FEAT_PICK_BUDDY);
}

static struct sched_entity *pick_rust(struct cfs_rq *cfs_rq, bool protect)
{
	struct rust_sched_cfs_view view;

	cfs_rq_rust_view(cfs_rq, &view);
	return rust_sched_pick_eevdf(&view, protect, sched_feat(PICK_BUDDY));
}

/*
 * Hand-written states, one per branch of pick_eevdf(). Every entity has
 * weight NICE_0_LOAD, so the average vruntime is the mean of the keys; each
 * state is built so that only the named branch returns the expected entity.
 */
struct eevdf_case_se {
	s64 key;		/* vruntime - zero_vruntime */
	u64 deadline;		/* relative to zero_vruntime */
};

struct eevdf_case {
	const char *name;
	struct eevdf_case_se tree[4];
	int nr;
	bool has_curr, curr_on_rq;
	struct eevdf_case_se curr;
	s64 curr_vprot;		/* relative to curr's vruntime */
	int next;		/* index into tree, or -1 */
	bool protect;
	int h_nr_queued;	/* 0: nr + (curr on rq) */
	int expect;		/* index into tree, -1 for curr, -2 for NULL */
	enum rust_sched_pick_route route;
};

static const struct eevdf_case eevdf_cases[] = {
	{ .name = "single_returns_ineligible_curr", .nr = 1, .tree = { { -1000, 10 } },
	  .has_curr = true, .curr_on_rq = true, .curr = { 1000, 5 }, .next = -1,
	  .protect = true, .h_nr_queued = 1, .expect = -1, .route = RUST_SCHED_PICK_SINGLE },
	{ .name = "single_returns_leftmost", .nr = 1, .tree = { { 500, 10 } },
	  .next = -1, .protect = true, .expect = 0, .route = RUST_SCHED_PICK_SINGLE },
	{ .name = "buddy_over_earlier_deadline", .nr = 3,
	  .tree = { { -20, 100 }, { -20, 200 }, { 40, 300 } }, .next = 1,
	  .protect = true, .expect = 1, .route = RUST_SCHED_PICK_BUDDY },
	{ .name = "buddy_ignored_without_protect", .nr = 3,
	  .tree = { { -20, 100 }, { -20, 200 }, { 40, 300 } }, .next = 1,
	  .protect = false, .expect = 0, .route = RUST_SCHED_PICK_FAST },
	{ .name = "buddy_ineligible", .nr = 3,
	  .tree = { { -20, 100 }, { -20, 200 }, { 40, 300 } }, .next = 2,
	  .protect = true, .expect = 0, .route = RUST_SCHED_PICK_FAST },
	{ .name = "protect_keeps_curr", .nr = 2, .tree = { { -10, 100 }, { 40, 200 } },
	  .has_curr = true, .curr_on_rq = true, .curr = { -30, 500 }, .curr_vprot = 5,
	  .next = -1, .protect = true, .expect = -1, .route = RUST_SCHED_PICK_PROTECT },
	{ .name = "protect_expired", .nr = 2, .tree = { { -10, 100 }, { 40, 200 } },
	  .has_curr = true, .curr_on_rq = true, .curr = { -30, 500 }, .curr_vprot = 0,
	  .next = -1, .protect = true, .expect = 0, .route = RUST_SCHED_PICK_FAST },
	{ .name = "fast_leftmost_eligible", .nr = 3,
	  .tree = { { -10, 100 }, { -20, 200 }, { 30, 300 } }, .next = -1,
	  .protect = true, .expect = 0, .route = RUST_SCHED_PICK_FAST },
	{ .name = "heap_leftmost_ineligible", .nr = 4,
	  .tree = { { 90, 100 }, { 50, 200 }, { -60, 300 }, { -80, 400 } },
	  .next = -1, .protect = true, .expect = 2, .route = RUST_SCHED_PICK_HEAP },
	{ .name = "heap_then_curr_earlier", .nr = 3,
	  .tree = { { 90, 100 }, { -40, 300 }, { 10, 400 } }, .has_curr = true,
	  .curr_on_rq = true, .curr = { -60, 200 }, .next = -1, .protect = false,
	  .expect = -1, .route = RUST_SCHED_PICK_HEAP },
	{ .name = "curr_ineligible_dropped", .nr = 2, .tree = { { -10, 100 }, { -20, 200 } },
	  .has_curr = true, .curr_on_rq = true, .curr = { 30, 50 }, .curr_vprot = 5,
	  .next = -1, .protect = true, .expect = 0, .route = RUST_SCHED_PICK_FAST },
	{ .name = "curr_off_rq_ignored", .nr = 2, .tree = { { -10, 100 }, { 10, 200 } },
	  .has_curr = true, .curr_on_rq = false, .curr = { -50, 50 }, .curr_vprot = 5,
	  .next = -1, .protect = true, .expect = 0, .route = RUST_SCHED_PICK_FAST },
	{ .name = "empty", .nr = 0, .next = -1, .protect = true,
	  .expect = -2, .route = RUST_SCHED_PICK_HEAP },
};

static void eevdf_case_desc(const struct eevdf_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(eevdf_cases, eevdf_cases, eevdf_case_desc);

static void rust_cfs_pick_branch_test(struct kunit *test)
{
	const struct eevdf_case *c = test->param_value;
	struct eevdf_fixture *f = test->priv;
	struct cfs_rq *cfs_rq = &f->rq->cfs;
	struct sched_entity *curr = &f->se[PARITY_MAX_SE];
	struct sched_entity *expect, *pc, *pr;
	bool buddy = sched_feat(PICK_BUDDY);
	int i;

	memset(f->rq, 0, sizeof(*f->rq));
	init_cfs_rq(cfs_rq);
#ifdef CONFIG_FAIR_GROUP_SCHED
	cfs_rq->rq = f->rq;
#endif
	for (i = 0; i < c->nr; i++) {
		struct sched_entity *se = &f->se[i];

		memset(se, 0, sizeof(*se));
		update_load_set(&se->h_load, NICE_0_LOAD);
		se->vruntime = cfs_rq->zero_vruntime + c->tree[i].key;
		se->deadline = cfs_rq->zero_vruntime + c->tree[i].deadline;
		se->on_rq = 1;
		__enqueue_entity(cfs_rq, se);
	}
	memset(curr, 0, sizeof(*curr));
	update_load_set(&curr->h_load, NICE_0_LOAD);
	curr->vruntime = cfs_rq->zero_vruntime + c->curr.key;
	curr->deadline = cfs_rq->zero_vruntime + c->curr.deadline;
	curr->vprot = curr->vruntime + c->curr_vprot;
	curr->on_rq = c->curr_on_rq;
	cfs_rq->curr = c->has_curr ? curr : NULL;
	cfs_rq->next = c->next >= 0 ? &f->se[c->next] : NULL;
	cfs_rq->h_nr_queued = c->h_nr_queued ?: c->nr + (c->has_curr && c->curr_on_rq);

	expect = c->expect == -2 ? NULL : c->expect == -1 ? curr : &f->se[c->expect];
	set_pick_buddy(true);
	pc = pick_eevdf_c(cfs_rq, c->protect);
	pr = pick_rust(cfs_rq, c->protect);
	KUNIT_EXPECT_EQ(test, pick_eevdf_route(cfs_rq, c->protect), c->route);
	set_pick_buddy(buddy);
	KUNIT_EXPECT_PTR_EQ_MSG(test, pc, expect, "C");
	KUNIT_EXPECT_PTR_EQ_MSG(test, pr, expect, "Rust");
}

static unsigned long pick_stats_sum(int impl)
{
	unsigned long sum = 0;
	int cpu, r;

	for_each_possible_cpu(cpu)
		for (r = 0; r < RUST_SCHED_PICK_NR_ROUTES; r++)
			sum += per_cpu_ptr(&rust_sched_pick_stats, cpu)->route[impl][r];
	return sum;
}

/*
 * The switch selects the implementation that pick_eevdf() calls: with the
 * route statistics on, each call is counted under the implementation that
 * served it.
 */
static void rust_cfs_switch_test(struct kunit *test)
{
	struct eevdf_fixture *f = test->priv;
	bool was_rust = static_key_enabled(&sched_rust_pick_key);
	bool was_stats = sched_rust_pick_stats_on;
	unsigned long c0, r0;
	struct eevdf_state st;
	int rust;

	eevdf_build(f, &st);
	WRITE_ONCE(sched_rust_pick_stats_on, true);
	static_branch_enable(&sched_rust_pick_debug_key);

	for (rust = 0; rust < 2; rust++) {
		if (rust)
			static_branch_enable(&sched_rust_pick_key);
		else
			static_branch_disable(&sched_rust_pick_key);
		KUNIT_EXPECT_EQ(test, sched_rust_pick(), rust);

		c0 = pick_stats_sum(0);
		r0 = pick_stats_sum(1);
		KUNIT_EXPECT_PTR_EQ(test, pick_eevdf(&f->rq->cfs, true),
				    rust ? pick_rust(&f->rq->cfs, true) :
					   pick_eevdf_c(&f->rq->cfs, true));
		/* Other CPUs pick too: only this implementation's count may grow. */
		KUNIT_EXPECT_GT(test, pick_stats_sum(rust), rust ? r0 : c0);
	}

	WRITE_ONCE(sched_rust_pick_stats_on, was_stats);
	if (!was_stats && !sched_rust_pick_shadow_on)
		static_branch_disable(&sched_rust_pick_debug_key);
	if (was_rust)
		static_branch_enable(&sched_rust_pick_key);
	else
		static_branch_disable(&sched_rust_pick_key);
}

/*
 * Random differential test: the C and the Rust pick, and the C and the Rust
 * eligibility test, on the same states.
 */
static void rust_cfs_pick_random_test(struct kunit *test)
{
	struct eevdf_fixture *f = test->priv;
	bool buddy = sched_feat(PICK_BUDDY);
	unsigned int n, i, fails = 0, nonnull = 0, big = 0;

	kunit_info(test, "seed %lu (fair.rust_parity_seed=), %u states\n",
		   rust_parity_seed, rust_parity_pick_states);

	for (n = 0; n < rust_parity_pick_states && fails < 10; n++) {
		struct cfs_rq *cfs_rq = &f->rq->cfs;
		struct eevdf_state st;
		bool protect = rnd_below(f, 2);
		bool pick_buddy = rnd_below(f, 4) != 0;
		struct sched_entity *c, *r;

		eevdf_build(f, &st);
		if (st.nr > 256)
			big++;
		if (pick_buddy != !!sched_feat(PICK_BUDDY))
			set_pick_buddy(pick_buddy);

		c = pick_eevdf_c(cfs_rq, protect);
		r = pick_rust(cfs_rq, protect);
		nonnull += !!c;
		if (c != r) {
			fails++;
			KUNIT_FAIL(test,
				   "state %u: C picked %ld, Rust %ld (nr %u protect %d buddy %d)",
				   n, c ? (long)(c - f->se) : -1L,
				   r ? (long)(r - f->se) : -1L, st.nr, protect, pick_buddy);
		}

		for (i = 0; i < st.nr + 1 && i < 8; i++) {
			u64 v = f->se[i < st.nr ? i : PARITY_MAX_SE].vruntime;

			if (i == st.nr)
				v = f->se[rnd_below(f, st.nr + 1)].min_vruntime;
			KUNIT_EXPECT_EQ_MSG(test, vruntime_eligible_c(cfs_rq, v),
					    vruntime_eligible_rust(cfs_rq, v),
					    "state %u entity %u", n, i);
		}
	}
	set_pick_buddy(buddy);
	kunit_info(test, "%u states, %u with > 256 entities, %u non-NULL picks\n",
		   n, big, nonnull);
	/* A generator that never lets C pick anything would test nothing. */
	KUNIT_EXPECT_GT(test, nonnull, n / 2);
}

static struct kunit_case rust_cfs_parity_cases[] = {
	KUNIT_CASE(rust_cfs_switch_test),
	KUNIT_CASE_PARAM(rust_cfs_pick_branch_test, eevdf_cases_gen_params),
	KUNIT_CASE_SLOW(rust_cfs_pick_random_test),
	{}
};

static struct kunit_suite rust_cfs_parity_suite = {
	.name = "sched_rust_parity",
	.init = eevdf_fixture_init,
	.exit = eevdf_fixture_exit,
	.test_cases = rust_cfs_parity_cases,
};

kunit_test_suite(rust_cfs_parity_suite);
