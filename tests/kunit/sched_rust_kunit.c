// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit parity suite for CONFIG_SCHED_RUST_CFS: the C and the Rust
 * implementation of each piece run on identical inputs and must give
 * identical results.
 *
 * Included at the bottom of kernel/sched/fair.c so that it can reach the
 * static functions it compares against. The random cases are reproducible:
 * the seed changes every boot, is printed, and the boot parameter
 * sched_rust_parity_seed= replays it (a parameter of this suite only).
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/hash.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "../rust/sched_rust_kunit.h"
#include "sched_fair_kunit.h"

/* 0: a new random seed every boot, chosen at the first random test. */
static ulong rust_parity_seed;
core_param(sched_rust_parity_seed, rust_parity_seed, ulong, 0644);

/*
 * The seed of this boot's random cases: sched_rust_parity_seed= when given,
 * else one drawn once per boot, so that every CI run explores new states.
 * Every random test prints it with the parameter that replays it (the
 * fixture of the hand-written cases seeds quietly: test NULL).
 */
static ulong parity_seed(struct kunit *test)
{
	static DEFINE_MUTEX(lock);

	mutex_lock(&lock);
	if (!READ_ONCE(rust_parity_seed))
		WRITE_ONCE(rust_parity_seed, get_random_u32() | 1);
	mutex_unlock(&lock);
	if (test)
		kunit_info(test, "seed %lu: replay with sched_rust_parity_seed=%lu\n",
			   rust_parity_seed, rust_parity_seed);
	return rust_parity_seed;
}

/* Random cfs_rq states per pick parity run. */
static uint rust_parity_pick_states = 100000;
core_param(sched_rust_parity_pick_states, rust_parity_pick_states, uint, 0644);

#define PARITY_MAX_SE	1024

static int eevdf_fixture_init(struct kunit *test)
{
	struct fair_kunit_rq *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->rq = kunit_kzalloc(test, sizeof(*f->rq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->rq);
	f->se = kvcalloc(PARITY_MAX_SE + 1, sizeof(*f->se), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->se);
	prandom_seed_state(&f->rnd, parity_seed(NULL));
	test->priv = f;
	return 0;
}

static void eevdf_fixture_exit(struct kunit *test)
{
	struct fair_kunit_rq *f = test->priv;

	kvfree(f->se);
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
static void eevdf_build(struct fair_kunit_rq *f, struct eevdf_state *st)
{
	struct cfs_rq *cfs_rq = &f->rq->cfs;
	struct sched_entity *curr = &f->se[PARITY_MAX_SE];
	s64 range = 1LL << (10 + fair_kunit_below(f, 25));
	bool equal_deadlines = !fair_kunit_below(f, 16);
	unsigned int i, size_class = fair_kunit_below(f, 100);

	fair_kunit_rq_reset(f);
	if (fair_kunit_below(f, 4) == 0)
		cfs_rq->zero_vruntime = fair_kunit_u64(f);
	else if (fair_kunit_below(f, 2))
		cfs_rq->zero_vruntime = U64_MAX - fair_kunit_below(f, 1 << 20);
	if (!fair_kunit_below(f, 8))
		cfs_rq->sum_shift = 1 + fair_kunit_below(f, 10);

	if (size_class < 50)
		st->nr = fair_kunit_below(f, 9);
	else if (size_class < 80)
		st->nr = 9 + fair_kunit_below(f, 56);
	else if (size_class < 97)
		st->nr = 65 + fair_kunit_below(f, 192);
	else
		st->nr = 257 + fair_kunit_below(f, PARITY_MAX_SE - 256);

	for (i = 0; i < st->nr; i++) {
		struct sched_entity *se = &f->se[i];

		memset(se, 0, sizeof(*se));
		update_load_set(&se->h_load, fair_kunit_weight(f));
		se->vruntime = cfs_rq->zero_vruntime + fair_kunit_key(f, range);
		se->deadline = equal_deadlines ? cfs_rq->zero_vruntime :
			se->vruntime + fair_kunit_below(f, 1 << 24);
		se->slice = fair_kunit_below(f, 1 << 24);
		se->on_rq = 1;
		__enqueue_entity(cfs_rq, se);
	}

	st->has_curr = fair_kunit_below(f, 4) != 0;
	st->curr_on_rq = fair_kunit_below(f, 4) != 0;
	memset(curr, 0, sizeof(*curr));
	update_load_set(&curr->h_load, fair_kunit_weight(f));
	curr->vruntime = cfs_rq->zero_vruntime + fair_kunit_key(f, range);
	/* With equal deadlines, curr ties with the best entity too. */
	curr->deadline = equal_deadlines ? cfs_rq->zero_vruntime :
		curr->vruntime + fair_kunit_below(f, 1 << 24);
	curr->on_rq = st->curr_on_rq;
	/* vprot before, at or after vruntime: protection on and off. */
	curr->vprot = curr->vruntime + fair_kunit_key(f, 1 << 20);
	cfs_rq->curr = st->has_curr ? curr : NULL;

	cfs_rq->next = st->nr && fair_kunit_below(f, 2) ?
		       &f->se[fair_kunit_below(f, st->nr)] : NULL;
	cfs_rq->h_nr_queued = st->nr + (st->has_curr && st->curr_on_rq);
	/* Sometimes exercise the single-entity shortcut with a bigger tree. */
	if (!fair_kunit_below(f, 32))
		cfs_rq->h_nr_queued = 1;
}

/*
 * PICK_BUDDY is never flipped here: it is a static key, and flipping it
 * patches the text every CPU's pick runs, for a test that needs the buddy
 * off for one call. The random test turns the buddy off per call instead,
 * by hiding cfs_rq->next: the buddy branch is the only reader of it in both
 * picks, so that is the same as turning the feature off.
 */

/*
 * The Rust entry points take the runqueue lock as held and check it with
 * lockdep: the fake runqueue's lock is held around every call, as the
 * scheduler holds the real one.
 */
static struct sched_entity *pick_rust_buddy(struct cfs_rq *cfs_rq, bool protect, bool buddy)
{
	struct sched_entity *next = cfs_rq->next, *se;
	struct rq *rq = rq_of(cfs_rq);

	if (!buddy)
		cfs_rq->next = NULL;
	raw_spin_rq_lock(rq);
	se = sched_rust_pick_eevdf(cfs_rq, protect);
	raw_spin_rq_unlock(rq);
	cfs_rq->next = next;
	return se;
}

/*
 * The C pick (@stock: 7.3's, which computes the eligibility sums for every
 * entity it tests; else the twin of fair.c's, which computes them once per
 * pick) with PICK_BUDDY off for this call only: the buddy branch is the
 * only reader of cfs_rq->next in pick_eevdf(), so hiding the buddy is the
 * same as turning the feature off, without flipping its static key.
 */
static struct sched_entity *pick_c_buddy(struct cfs_rq *cfs_rq, bool protect, bool buddy,
					 bool stock)
{
	struct sched_entity *next = cfs_rq->next, *se;

	if (!buddy)
		cfs_rq->next = NULL;
	se = stock ? pick_eevdf_stock(cfs_rq, protect) : pick_eevdf_c(cfs_rq, protect);
	cfs_rq->next = next;
	return se;
}

static struct sched_entity *pick_rust(struct cfs_rq *cfs_rq, bool protect)
{
	return pick_rust_buddy(cfs_rq, protect, true);
}

static int eligible_rust(struct cfs_rq *cfs_rq, u64 vruntime)
{
	struct rq *rq = rq_of(cfs_rq);
	int ret;

	raw_spin_rq_lock(rq);
	ret = sched_rust_vruntime_eligible(cfs_rq, vruntime);
	raw_spin_rq_unlock(rq);
	return ret;
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
	enum sched_rust_pick_route route;
};

static const struct eevdf_case eevdf_cases[] = {
	{ .name = "single_returns_ineligible_curr", .nr = 1, .tree = { { -1000, 10 } },
	  .has_curr = true, .curr_on_rq = true, .curr = { 1000, 5 }, .next = -1,
	  .protect = true, .h_nr_queued = 1, .expect = -1, .route = SCHED_RUST_ROUTE_SINGLE },
	{ .name = "single_returns_leftmost", .nr = 1, .tree = { { 500, 10 } },
	  .next = -1, .protect = true, .expect = 0, .route = SCHED_RUST_ROUTE_SINGLE },
	{ .name = "buddy_over_earlier_deadline", .nr = 3,
	  .tree = { { -20, 100 }, { -20, 200 }, { 40, 300 } }, .next = 1,
	  .protect = true, .expect = 1, .route = SCHED_RUST_ROUTE_BUDDY },
	{ .name = "buddy_ignored_without_protect", .nr = 3,
	  .tree = { { -20, 100 }, { -20, 200 }, { 40, 300 } }, .next = 1,
	  .protect = false, .expect = 0, .route = SCHED_RUST_ROUTE_FAST },
	{ .name = "buddy_ineligible", .nr = 3,
	  .tree = { { -20, 100 }, { -20, 200 }, { 40, 300 } }, .next = 2,
	  .protect = true, .expect = 0, .route = SCHED_RUST_ROUTE_FAST },
	{ .name = "protect_keeps_curr", .nr = 2, .tree = { { -10, 100 }, { 40, 200 } },
	  .has_curr = true, .curr_on_rq = true, .curr = { -30, 500 }, .curr_vprot = 5,
	  .next = -1, .protect = true, .expect = -1, .route = SCHED_RUST_ROUTE_PROTECT },
	{ .name = "protect_expired", .nr = 2, .tree = { { -10, 100 }, { 40, 200 } },
	  .has_curr = true, .curr_on_rq = true, .curr = { -30, 500 }, .curr_vprot = 0,
	  .next = -1, .protect = true, .expect = 0, .route = SCHED_RUST_ROUTE_FAST },
	{ .name = "fast_leftmost_eligible", .nr = 3,
	  .tree = { { -10, 100 }, { -20, 200 }, { 30, 300 } }, .next = -1,
	  .protect = true, .expect = 0, .route = SCHED_RUST_ROUTE_FAST },
	{ .name = "heap_leftmost_ineligible", .nr = 4,
	  .tree = { { 90, 100 }, { 50, 200 }, { -60, 300 }, { -80, 400 } },
	  .next = -1, .protect = true, .expect = 2, .route = SCHED_RUST_ROUTE_HEAP },
	{ .name = "heap_then_curr_earlier", .nr = 3,
	  .tree = { { 90, 100 }, { -40, 300 }, { 10, 400 } }, .has_curr = true,
	  .curr_on_rq = true, .curr = { -60, 200 }, .next = -1, .protect = false,
	  .expect = -1, .route = SCHED_RUST_ROUTE_HEAP },
	{ .name = "heap_curr_equal_deadline_keeps_best", .nr = 3,
	  .tree = { { 90, 100 }, { -40, 300 }, { 10, 400 } }, .has_curr = true,
	  .curr_on_rq = true, .curr = { -60, 300 }, .next = -1, .protect = false,
	  .expect = 1, .route = SCHED_RUST_ROUTE_HEAP },
	{ .name = "curr_ineligible_dropped", .nr = 2, .tree = { { -10, 100 }, { -20, 200 } },
	  .has_curr = true, .curr_on_rq = true, .curr = { 30, 50 }, .curr_vprot = 5,
	  .next = -1, .protect = true, .expect = 0, .route = SCHED_RUST_ROUTE_FAST },
	{ .name = "curr_off_rq_ignored", .nr = 2, .tree = { { -10, 100 }, { 10, 200 } },
	  .has_curr = true, .curr_on_rq = false, .curr = { -50, 50 }, .curr_vprot = 5,
	  .next = -1, .protect = true, .expect = 0, .route = SCHED_RUST_ROUTE_FAST },
	{ .name = "empty", .nr = 0, .next = -1, .protect = true,
	  .expect = -2, .route = SCHED_RUST_ROUTE_HEAP },
};

static void eevdf_case_desc(const struct eevdf_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(eevdf_cases, eevdf_cases, eevdf_case_desc);

static void sched_rust_pick_branch_test(struct kunit *test)
{
	const struct eevdf_case *c = test->param_value;
	struct fair_kunit_rq *f = test->priv;
	struct cfs_rq *cfs_rq = &f->rq->cfs;
	struct sched_entity *curr = &f->se[PARITY_MAX_SE];
	struct sched_entity *expect, *pc, *ps, *pr;
	int i;

	fair_kunit_rq_reset(f);
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
	pc = pick_eevdf_c(cfs_rq, c->protect);
	ps = pick_eevdf_stock(cfs_rq, c->protect);
	pr = pick_rust(cfs_rq, c->protect);
	KUNIT_EXPECT_EQ(test, pick_eevdf_route(cfs_rq, c->protect, true), c->route);
	KUNIT_EXPECT_PTR_EQ_MSG(test, ps, expect, "stock C");
	KUNIT_EXPECT_PTR_EQ_MSG(test, pc, expect, "C");
	KUNIT_EXPECT_PTR_EQ_MSG(test, pr, expect, "Rust");
}

static unsigned long pick_stats_sum(int impl)
{
	unsigned long sum = 0;
	int cpu, r;

	for_each_possible_cpu(cpu)
		for (r = 0; r < SCHED_RUST_NR_ROUTES; r++)
			sum += per_cpu_ptr(&sched_rust_pick_stats, cpu)->route[impl][r];
	return sum;
}

/*
 * The switch selects the implementation every dispatch calls, for each piece
 * on its own: with a piece's key set to one side, a call through fair.c's
 * dispatch (pick_eevdf(), alloc_fair_sched_group(), account_llc_enqueue())
 * is counted under that side only (sched_rust_test_calls[], counted for
 * KUnit threads; the LLC functions count on their checked path, which the
 * route statistics' debug key selects), and the pick also under the route
 * statistics. A dispatch that reads the wrong key, or inverts it, fails here.
 */
static long test_calls(enum sched_rust_piece piece, int rust)
{
	return atomic_long_read(&sched_rust_test_calls[piece][rust]);
}

static void set_piece(struct static_key_true *key, int rust)
{
	if (rust)
		static_branch_enable(key);
	else
		static_branch_disable(key);
}

/* Piece @piece on @rust, the two others on the other side. */
static void set_pieces(enum sched_rust_piece piece, int rust)
{
	set_piece(&sched_rust_tg_state_key, piece == SCHED_RUST_TG_STATE ? rust : !rust);
	set_piece(&sched_rust_pick_key, piece == SCHED_RUST_PICK ? rust : !rust);
	set_piece(&sched_rust_llc_key, piece == SCHED_RUST_LLC ? rust : !rust);
}

static void sched_rust_switch_test(struct kunit *test)
{
	struct fair_kunit_rq *f = test->priv;
	bool was_rust[3] = {
		static_key_enabled(&sched_rust_tg_state_key),
		static_key_enabled(&sched_rust_pick_key),
		static_key_enabled(&sched_rust_llc_key),
	};
	bool was_stats = sched_rust_pick_stats_on;
	long calls[2];
	struct sched_entity *se;
	unsigned long c0, r0;
	struct eevdf_state st;
	int rust;

	eevdf_build(f, &st);
	WRITE_ONCE(sched_rust_pick_stats_on, true);
	sched_rust_pick_debug_update();

	for (rust = 0; rust < 2; rust++) {
		/*
		 * Each piece is tested with the two others on the other side,
		 * so that a dispatch reading another piece's key fails.
		 */
		set_pieces(SCHED_RUST_PICK, rust);
		KUNIT_EXPECT_EQ(test, sched_rust_pick_on(), rust);
		c0 = pick_stats_sum(0);
		r0 = pick_stats_sum(1);
		calls[0] = test_calls(SCHED_RUST_PICK, 0);
		calls[1] = test_calls(SCHED_RUST_PICK, 1);
		raw_spin_rq_lock(f->rq);
		se = pick_eevdf(&f->rq->cfs, true);
		raw_spin_rq_unlock(f->rq);
		KUNIT_EXPECT_PTR_EQ(test, se,
				    rust ? pick_rust(&f->rq->cfs, true) :
					   pick_eevdf_c(&f->rq->cfs, true));
		/* Other CPUs pick too: only this implementation's count may grow. */
		KUNIT_EXPECT_GT(test, pick_stats_sum(rust), rust ? r0 : c0);
		/* Preempted, the test thread picks in schedule() too: >= 1. */
		KUNIT_EXPECT_GE_MSG(test, test_calls(SCHED_RUST_PICK, rust) - calls[rust], 1,
				    "pick on %s", rust ? "Rust" : "C");
		KUNIT_EXPECT_EQ_MSG(test, test_calls(SCHED_RUST_PICK, !rust), calls[!rust],
				    "pick on %s", rust ? "Rust" : "C");

#ifdef CONFIG_FAIR_GROUP_SCHED
		/* The task group state: a group allocated and freed by one side. */
		{
			struct task_group *tg = kzalloc(sizeof(*tg), GFP_KERNEL);

			KUNIT_ASSERT_NOT_NULL(test, tg);
			set_pieces(SCHED_RUST_TG_STATE, rust);
			calls[0] = test_calls(SCHED_RUST_TG_STATE, 0);
			calls[1] = test_calls(SCHED_RUST_TG_STATE, 1);
			KUNIT_EXPECT_EQ(test, alloc_fair_sched_group(tg, &root_task_group), 1);
			KUNIT_EXPECT_EQ_MSG(test,
					    test_calls(SCHED_RUST_TG_STATE, rust) - calls[rust], 1,
					    "tg_state on %s", rust ? "Rust" : "C");
			KUNIT_EXPECT_EQ_MSG(test, test_calls(SCHED_RUST_TG_STATE, !rust),
					    calls[!rust], "tg_state on %s", rust ? "Rust" : "C");
			free_fair_sched_group(tg);
			kfree(tg);
		}
#endif
#ifdef CONFIG_SCHED_CACHE
		/*
		 * The LLC accounting: a task without a preferred LLC on a fake
		 * runqueue (both sides leave it as it is). The test thread's own
		 * wakeups of other tasks count under the selected side too.
		 */
		{
			struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
			struct rq *rq = kunit_kzalloc(test, sizeof(*rq), GFP_KERNEL);

			KUNIT_ASSERT_NOT_NULL(test, p);
			KUNIT_ASSERT_NOT_NULL(test, rq);
			raw_spin_lock_init(&rq->__lock);
			p->preferred_llc = -1;
			set_pieces(SCHED_RUST_LLC, rust);
			calls[0] = test_calls(SCHED_RUST_LLC, 0);
			calls[1] = test_calls(SCHED_RUST_LLC, 1);
			raw_spin_rq_lock(rq);
			account_llc_enqueue(rq, p);
			raw_spin_rq_unlock(rq);
			KUNIT_EXPECT_GE_MSG(test, test_calls(SCHED_RUST_LLC, rust) - calls[rust], 1,
					    "llc on %s", rust ? "Rust" : "C");
			KUNIT_EXPECT_EQ_MSG(test, test_calls(SCHED_RUST_LLC, !rust), calls[!rust],
					    "llc on %s", rust ? "Rust" : "C");
			KUNIT_EXPECT_EQ(test, rq->nr_llc_running, 0);
		}
#endif
	}

	WRITE_ONCE(sched_rust_pick_stats_on, was_stats);
	sched_rust_pick_debug_update();
	set_piece(&sched_rust_tg_state_key, was_rust[SCHED_RUST_TG_STATE]);
	set_piece(&sched_rust_pick_key, was_rust[SCHED_RUST_PICK]);
	set_piece(&sched_rust_llc_key, was_rust[SCHED_RUST_LLC]);
}

/*
 * The boot parameter sched_rust=: every documented form, and forms that
 * a prefix match or kstrtobool() would have taken for on or off.
 */
static void sched_rust_boot_param_test(struct kunit *test)
{
	int all = BIT(SCHED_RUST_PICK) |
		  (IS_ENABLED(CONFIG_FAIR_GROUP_SCHED) ? BIT(SCHED_RUST_TG_STATE) : 0) |
		  (IS_ENABLED(CONFIG_SCHED_CACHE) ? BIT(SCHED_RUST_LLC) : 0);
	static const char * const bad[] = {
		"", "1", "0", "y", "n", "yes", "true", "false", "onx", "of", "All",
		"pick,", ",pick", "pick,,llc", "pick,bogus", "tg", "picks", "pick llc",
	};
	int i;

	KUNIT_EXPECT_EQ(test, sched_rust_parse("on"), all);
	KUNIT_EXPECT_EQ(test, sched_rust_parse("all"), all);
	KUNIT_EXPECT_EQ(test, sched_rust_parse("off"), 0);
	KUNIT_EXPECT_EQ(test, sched_rust_parse("none"), 0);
	KUNIT_EXPECT_EQ(test, sched_rust_parse("pick"), BIT(SCHED_RUST_PICK));
	KUNIT_EXPECT_EQ(test, sched_rust_parse("pick,pick"), BIT(SCHED_RUST_PICK));
#ifdef CONFIG_FAIR_GROUP_SCHED
	/* "tg_state" starts with 't', which kstrtobool() reads as true. */
	KUNIT_EXPECT_EQ(test, sched_rust_parse("tg_state"), BIT(SCHED_RUST_TG_STATE));
	KUNIT_EXPECT_EQ(test, sched_rust_parse("tg_state,pick"),
			BIT(SCHED_RUST_TG_STATE) | BIT(SCHED_RUST_PICK));
#endif
#ifdef CONFIG_SCHED_CACHE
	KUNIT_EXPECT_EQ(test, sched_rust_parse("llc"), BIT(SCHED_RUST_LLC));
	KUNIT_EXPECT_EQ(test, sched_rust_parse("llc,pick"),
			BIT(SCHED_RUST_LLC) | BIT(SCHED_RUST_PICK));
#endif
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, sched_rust_parse(bad[i]), -EINVAL,
				    "sched_rust=%s", bad[i]);
}

/*
 * Random differential test: 7.3's stock C, fair.c's C and the Rust pick, and
 * the three eligibility tests, on the same states.
 */
static void sched_rust_pick_random_test(struct kunit *test)
{
	struct fair_kunit_rq *f = test->priv;
	unsigned int n, i, fails = 0, nonnull = 0, big = 0;
	unsigned int routes[SCHED_RUST_NR_ROUTES] = {};
	static const char * const route_name[] = {
		[SCHED_RUST_ROUTE_SINGLE] = "single", [SCHED_RUST_ROUTE_BUDDY] = "buddy",
		[SCHED_RUST_ROUTE_PROTECT] = "protect", [SCHED_RUST_ROUTE_FAST] = "fast",
		[SCHED_RUST_ROUTE_HEAP] = "heap",
	};

	parity_seed(test);
	kunit_info(test, "%u states\n", rust_parity_pick_states);

	for (n = 0; n < rust_parity_pick_states && fails < 10; n++) {
		struct cfs_rq *cfs_rq = &f->rq->cfs;
		struct eevdf_state st;
		bool protect = fair_kunit_below(f, 2);
		bool pick_buddy = fair_kunit_below(f, 4) != 0;
		struct sched_entity *s, *c, *r;

		eevdf_build(f, &st);
		if (st.nr > 256)
			big++;
		/* Each pick ANDs in sched_feat(PICK_BUDDY) itself, as the route does here. */
		s = pick_c_buddy(cfs_rq, protect, pick_buddy, true);
		c = pick_c_buddy(cfs_rq, protect, pick_buddy, false);
		r = pick_rust_buddy(cfs_rq, protect, pick_buddy);
		nonnull += !!c;
		routes[pick_eevdf_route(cfs_rq, protect, pick_buddy && sched_feat(PICK_BUDDY))]++;
		if (c != r || s != c) {
			fails++;
			KUNIT_FAIL(test,
				   "state %u: stock C picked %ld, C %ld, Rust %ld (nr %u protect %d buddy %d)",
				   n, s ? (long)(s - f->se) : -1L, c ? (long)(c - f->se) : -1L,
				   r ? (long)(r - f->se) : -1L, st.nr, protect, pick_buddy);
		}

		for (i = 0; i < st.nr + 1 && i < 8; i++) {
			u64 v = f->se[i < st.nr ? i : PARITY_MAX_SE].vruntime;

			if (i == st.nr)
				v = f->se[fair_kunit_below(f, st.nr + 1)].min_vruntime;
			KUNIT_EXPECT_EQ_MSG(test, vruntime_eligible_c(cfs_rq, v),
					    eligible_rust(cfs_rq, v),
					    "state %u entity %u", n, i);
			KUNIT_EXPECT_EQ_MSG(test, vruntime_eligible_stock(cfs_rq, v),
					    vruntime_eligible_c(cfs_rq, v),
					    "stock C, state %u entity %u", n, i);
		}
	}
	kunit_info(test, "%u states, %u with > 256 entities, %u non-NULL picks\n",
		   n, big, nonnull);
	/* A generator that never lets C pick anything would test nothing. */
	KUNIT_EXPECT_GT(test, nonnull, n / 2);
	/* Nor one that misses a branch: every route takes at least 1 %. */
	for (i = 0; i < SCHED_RUST_NR_ROUTES; i++) {
		kunit_info(test, "route %s: %u states\n", route_name[i], routes[i]);
		KUNIT_EXPECT_GE_MSG(test, routes[i], n / 100, "route %s", route_name[i]);
	}
}

#ifdef CONFIG_FAIR_GROUP_SCHED
/*
 * Piece 1: the per-CPU cfs_tg_state. Groups are allocated by C and by Rust
 * below parents at several depths, checked relation by relation on every
 * possible CPU, compared with each other byte by byte (but for the fields
 * that point into their own object), and freed by the other side.
 */
static struct task_group *tg_alloc(struct kunit *test, struct task_group *parent, bool rust)
{
	struct task_group *tg = kzalloc(sizeof(*tg), GFP_KERNEL);
	int ok;

	KUNIT_ASSERT_NOT_NULL(test, tg);
	ok = rust ? sched_rust_alloc_fair_sched_group(tg, parent) :
		    alloc_fair_sched_group_c(tg, parent);
	KUNIT_ASSERT_EQ_MSG(test, ok, 1, "%s allocation", rust ? "Rust" : "C");
	tg->parent = parent;
	return tg;
}

static void tg_free(struct task_group *tg, bool rust)
{
	if (rust)
		sched_rust_free_fair_sched_group(tg);
	else
		free_fair_sched_group_c(tg);
	kfree(tg);
}

/* Every relation of a group's state with its group, parent and CPU. */
static void tg_check(struct kunit *test, struct task_group *tg, struct task_group *parent,
		     const char *side)
{
	int i;

	KUNIT_EXPECT_EQ_MSG(test, tg->shares, NICE_0_LOAD, "%s", side);
#ifdef CONFIG_CFS_BANDWIDTH
	KUNIT_EXPECT_EQ_MSG(test, tg->cfs_bandwidth.quota, RUNTIME_INF, "%s", side);
	KUNIT_EXPECT_EQ_MSG(test, tg->cfs_bandwidth.hierarchical_quota,
			    parent->cfs_bandwidth.hierarchical_quota, "%s", side);
#endif
	for_each_possible_cpu(i) {
		struct cfs_rq *cfs_rq = tg_cfs_rq(tg, i);
		struct cfs_tg_state *st = container_of(cfs_rq, struct cfs_tg_state, cfs_rq);
		struct sched_entity *pse = tg_se(parent, i);
		struct sched_entity *se = tg_se(tg, i);

		KUNIT_EXPECT_PTR_EQ_MSG(test, (void *)cfs_rq,
					(void *)per_cpu_ptr(tg->cfs_rq, i), "%s cpu %d", side, i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, se, &st->se, "%s cpu %d", side, i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, cfs_rq_se(cfs_rq), se, "%s cpu %d", side, i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, __schedstats_from_se(se), &st->stats,
					"%s cpu %d", side, i);
		/* The Rust accessors agree with the C ones. */
		KUNIT_EXPECT_PTR_EQ_MSG(test, sched_rust_tg_cfs_rq(tg, i), cfs_rq,
					"%s cpu %d", side, i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, sched_rust_tg_se(tg, i), se, "%s cpu %d", side, i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, sched_rust_tg_se(parent, i), pse,
					"%s cpu %d", side, i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, sched_rust_cfs_rq_se(cfs_rq), se,
					"%s cpu %d", side, i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, sched_rust_group_se_stats(se), &st->stats,
					"%s cpu %d", side, i);

		KUNIT_EXPECT_PTR_EQ_MSG(test, cfs_rq->tg, tg, "%s cpu %d", side, i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, cfs_rq->rq, cpu_rq(i), "%s cpu %d", side, i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, se->my_q, cfs_rq, "%s cpu %d", side, i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, se->cfs_rq, pse ? pse->my_q : &cpu_rq(i)->cfs,
					"%s cpu %d", side, i);
		KUNIT_EXPECT_EQ_MSG(test, se->depth, pse ? pse->depth + 1 : 0,
				    "%s cpu %d", side, i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, se->parent, pse, "%s cpu %d", side, i);
		KUNIT_EXPECT_EQ_MSG(test, se->load.weight, NICE_0_LOAD, "%s cpu %d", side, i);
		KUNIT_EXPECT_EQ_MSG(test, se->load.inv_weight, 0, "%s cpu %d", side, i);
		KUNIT_EXPECT_NULL_MSG(test, memchr_inv(&se->avg, 0, sizeof(se->avg)),
				      "%s cpu %d", side, i);
		KUNIT_EXPECT_TRUE_MSG(test, RB_EMPTY_ROOT(&cfs_rq->tasks_timeline.rb_root),
				      "%s cpu %d", side, i);
		KUNIT_EXPECT_NULL_MSG(test, cfs_rq->tasks_timeline.rb_leftmost,
				      "%s cpu %d", side, i);
		KUNIT_EXPECT_EQ_MSG(test, cfs_rq->zero_vruntime, (u64)(-(1LL << 20)),
				    "%s cpu %d", side, i);
#ifdef CONFIG_CFS_BANDWIDTH
		KUNIT_EXPECT_EQ_MSG(test, cfs_rq->runtime_enabled, 0, "%s cpu %d", side, i);
		KUNIT_EXPECT_TRUE_MSG(test, list_empty(&cfs_rq->throttled_list),
				      "%s cpu %d", side, i);
		KUNIT_EXPECT_TRUE_MSG(test, list_empty(&cfs_rq->throttled_csd_list),
				      "%s cpu %d", side, i);
		KUNIT_EXPECT_TRUE_MSG(test, list_empty(&cfs_rq->throttled_limbo_list),
				      "%s cpu %d", side, i);
#endif
	}
}

static void sched_rust_tg_state_parity_test(struct kunit *test)
{
	static const int depths[] = { 0, 1, 2, 5 };
	struct task_group *chain[6] = { &root_task_group };
	struct cfs_tg_state *a, *b;
	int d, k, i;

	a = kunit_kmalloc(test, sizeof(*a), GFP_KERNEL);
	b = kunit_kmalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);

	/* Parents at depth 1..5 (the root is depth 0), alternately made by C and Rust. */
	for (d = 1; d <= 5; d++)
		chain[d] = tg_alloc(test, chain[d - 1], d & 1);

	for (k = 0; k < ARRAY_SIZE(depths); k++) {
		struct task_group *parent = chain[depths[k]];
		struct task_group *tc = tg_alloc(test, parent, false);
		struct task_group *tr = tg_alloc(test, parent, true);

		tg_check(test, tc, parent, "C");
		tg_check(test, tr, parent, "Rust");
		for_each_possible_cpu(i) {
			tg_state_normalized(a, tc, i);
			tg_state_normalized(b, tr, i);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(a, b, sizeof(*a)), 0,
					    "parent depth %d cpu %d", depths[k], i);
		}
		/* Each side frees what the other allocated. */
		tg_free(tc, true);
		tg_free(tr, false);
	}

	for (d = 5; d >= 1; d--)
		tg_free(chain[d], d & 1);
}

static void __percpu *pcpu_alloc_fail(size_t size, size_t align, bool reserved, gfp_t gfp)
{
	return NULL;
}

/*
 * A failed per-CPU allocation: both sides return 0 and leave the group as
 * they found it (all zero, cfs_rq NULL), which free_fair_sched_group() of
 * either side then accepts.
 */
static void sched_rust_tg_state_alloc_fail_test(struct kunit *test)
{
	int rust;

	kunit_activate_static_stub(test, pcpu_alloc_noprof, pcpu_alloc_fail);
	for (rust = 0; rust < 2; rust++) {
		struct task_group *tg = kunit_kzalloc(test, sizeof(*tg), GFP_KERNEL);
		int ok;

		KUNIT_ASSERT_NOT_NULL(test, tg);
		ok = rust ? sched_rust_alloc_fair_sched_group(tg, &root_task_group) :
			    alloc_fair_sched_group_c(tg, &root_task_group);
		KUNIT_EXPECT_EQ_MSG(test, ok, 0, "%s", rust ? "Rust" : "C");
		KUNIT_EXPECT_NULL_MSG(test, memchr_inv(tg, 0, sizeof(*tg)), "%s",
				      rust ? "Rust" : "C");
		sched_rust_free_fair_sched_group(tg);
		free_fair_sched_group_c(tg);
	}
	kunit_deactivate_static_stub(test, pcpu_alloc_noprof);
}
#endif /* CONFIG_FAIR_GROUP_SCHED */

#ifdef CONFIG_SCHED_CACHE
/*
 * Piece 3: the LLC occupancy accounting. Three identical fake states (a
 * runqueue, its bottom sched domain with llc_counts[], and a set of tasks),
 * one driven by the C functions, one by the Rust ones, and one by either,
 * chosen at random per call (what the runtime switch does: a task enqueued
 * by C is dequeued by Rust), through the same random sequence of valid
 * operations; after every step every counter must be equal, nr_pref_llc_running
 * must count the queued, non-delayed tasks on their preferred LLC, and the
 * slot after llc_counts[llc_max - 1] must be untouched.
 */
#define LLC_TASKS	12
#define LLC_STEPS	10000
#define LLC_MAX_IDS	4
#define LLC_SIDES	3	/* C, Rust, mixed */
#define LLC_GUARD	0x5a5a5a5aU

struct llc_side {
	struct rq *rq;
	struct sched_domain *sd;
	struct task_struct *p[LLC_TASKS];
};

/* The paths of the accounting that the random sequence must have taken. */
enum llc_path {
	LLC_PATH_PREF_QUEUED,	/* enqueued on its preferred LLC */
	LLC_PATH_DELAYED_DEQUEUE,	/* dequeued while delayed */
	LLC_PATH_UNDERFLOW,	/* dequeued with its llc_counts[] slot at 0 */
	LLC_PATH_MOVED_QUEUED,	/* task_llc() changed while queued, then dequeued */
	LLC_PATH_NO_SD,		/* rq->sd == NULL */
	LLC_PATH_MIXED,		/* enqueued by one implementation, dequeued by the other */
	LLC_NR_PATHS,
};

struct llc_state {
	struct llc_side side[LLC_SIDES];
	bool queued[LLC_TASKS];
	bool moved[LLC_TASKS];		/* task_llc() changed since the enqueue */
	int enq_impl[LLC_TASKS];	/* mixed side: who enqueued it */
	unsigned int paths[LLC_NR_PATHS];
	struct rnd_state rnd;
};

static u32 llc_rnd(struct llc_state *st, u32 n)
{
	return prandom_u32_state(&st->rnd) % n;
}

static void llc_realloc_counts(struct kunit *test, struct llc_state *st, unsigned int max)
{
	int k;

	for (k = 0; k < LLC_SIDES; k++) {
		struct sched_domain *sd = st->side[k].sd;

		/* One guard slot after the last: no implementation may write it. */
		sd->llc_counts = kunit_kcalloc(test, max + 1, sizeof(unsigned int), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, sd->llc_counts);
		sd->llc_counts[max] = LLC_GUARD;
		sd->llc_max = max;
	}
}

/* Side 0 runs C, side 1 Rust, side 2 either (1 in rust_impl). */
static int llc_impl(struct llc_state *st, int k)
{
	return k < 2 ? k : llc_rnd(st, 2);
}

/* Both sides run under the fake runqueue's lock, which the Rust side checks. */
static void llc_enqueue(int k, struct llc_side *s, int t)
{
	raw_spin_rq_lock(s->rq);
	if (k)
		sched_rust_account_llc_enqueue(s->rq, s->p[t]);
	else
		account_llc_enqueue_c(s->rq, s->p[t]);
	raw_spin_rq_unlock(s->rq);
}

static void llc_dequeue(int k, struct llc_side *s, int t)
{
	raw_spin_rq_lock(s->rq);
	if (k)
		sched_rust_account_llc_dequeue(s->rq, s->p[t]);
	else
		account_llc_dequeue_c(s->rq, s->p[t]);
	raw_spin_rq_unlock(s->rq);
}

static void llc_pref_running(int k, struct llc_side *s, int t, bool inc)
{
	raw_spin_rq_lock(s->rq);
	if (k)
		sched_rust_pref_llc_running(s->rq, s->p[t], inc);
	else if (inc)
		pref_llc_running_inc_c(s->rq, s->p[t]);
	else
		pref_llc_running_dec_c(s->rq, s->p[t]);
	raw_spin_rq_unlock(s->rq);
}

/* One random valid operation, applied to every side. */
static void llc_step(struct kunit *test, struct llc_state *st)
{
	int t = llc_rnd(st, LLC_TASKS), op = llc_rnd(st, 10), k, impl;
	int pref = (int)llc_rnd(st, LLC_MAX_IDS + 2) - 1;	/* -1 .. out of range */
	int cpu = cpumask_nth(llc_rnd(st, num_online_cpus()), cpu_online_mask);
	unsigned int max = 1 + llc_rnd(st, LLC_MAX_IDS);
	struct task_struct *p0 = st->side[0].p[t];
	bool delayed = p0->se.sched_delayed;
	struct sched_domain *sd0 = rcu_dereference_protected(st->side[0].rq->sd, true);

	if (op == 6) {
		/* A domain rebuild: the counts come back zeroed, maybe resized. */
		llc_realloc_counts(test, st, max);
		return;
	}
	if (op == 9) {
		/* No sched domain (a CPU being attached or detached): rq->sd NULL. */
		for (k = 0; k < LLC_SIDES; k++)
			rcu_assign_pointer(st->side[k].rq->sd, sd0 ? NULL : st->side[k].sd);
		return;
	}
	/* The paths this step takes, read on the C side before the step. */
	if (op == 2 && st->queued[t] && p0->preferred_llc >= 0) {
		if (delayed)
			st->paths[LLC_PATH_DELAYED_DEQUEUE]++;
		if (st->moved[t])
			st->paths[LLC_PATH_MOVED_QUEUED]++;
		if (sd0 && (unsigned int)p0->preferred_llc < sd0->llc_max &&
		    !sd0->llc_counts[p0->preferred_llc])
			st->paths[LLC_PATH_UNDERFLOW]++;
	}
	if (!sd0 && op <= 2)
		st->paths[LLC_PATH_NO_SD]++;

	/* The accounting reads rq->sd under RCU, as under the rq lock. */
	guard(rcu)();
	for (k = 0; k < LLC_SIDES; k++) {
		struct llc_side *s = &st->side[k];
		struct task_struct *p = s->p[t];

		switch (op) {
		case 0:
		case 1:	/* Enqueue on a random CPU with a random preference. */
			if (st->queued[t])
				break;
			WRITE_ONCE(task_thread_info(p)->cpu, cpu);
			WRITE_ONCE(p->preferred_llc, pref);
			p->se.sched_delayed = 0;
			impl = llc_impl(st, k);
			if (k == 2)
				st->enq_impl[t] = impl;
			llc_enqueue(impl, s, t);
			break;
		case 2:	/* Dequeue; a delayed task goes through DEQUEUE_DELAYED. */
			if (!st->queued[t])
				break;
			impl = llc_impl(st, k);
			if (k == 2 && impl != st->enq_impl[t])
				st->paths[LLC_PATH_MIXED]++;
			llc_dequeue(impl, s, t);
			if (delayed) {
				p->se.sched_delayed = 0;	/* clear_delayed() */
				llc_pref_running(llc_impl(st, k), s, t, true);
			}
			break;
		case 3:	/* set_delayed() */
			if (!st->queued[t] || delayed)
				break;
			llc_pref_running(llc_impl(st, k), s, t, false);
			p->se.sched_delayed = 1;
			break;
		case 4:	/* clear_delayed() */
			if (!st->queued[t] || !delayed)
				break;
			p->se.sched_delayed = 0;
			llc_pref_running(llc_impl(st, k), s, t, true);
			break;
		case 5:	/* account_mm_sched(): the preference changes while queued. */
			if (!st->queued[t])
				break;
			llc_dequeue(llc_impl(st, k), s, t);
			WRITE_ONCE(p->preferred_llc, pref);
			impl = llc_impl(st, k);
			if (k == 2)
				st->enq_impl[t] = impl;
			llc_enqueue(impl, s, t);
			break;
		case 7:	/* Migrate while not queued: task_llc() changes. */
			if (!st->queued[t])
				WRITE_ONCE(task_thread_info(p)->cpu, cpu);
			break;
		case 8:
			/*
			 * task_llc() changes while the task is queued (CPU hotplug
			 * rebuilding the LLC ids): the dequeue must pair with the
			 * enqueue through pref_llc_queued, not task_llc().
			 */
			if (st->queued[t])
				WRITE_ONCE(task_thread_info(p)->cpu, cpu);
			break;
		}
	}
	if (op <= 1 && !st->queued[t]) {
		st->queued[t] = true;
		st->moved[t] = false;
		if (p0->preferred_llc >= 0 && p0->pref_llc_queued)
			st->paths[LLC_PATH_PREF_QUEUED]++;
	} else if (op == 2) {
		st->queued[t] = false;
	} else if (op == 5 && st->queued[t]) {
		st->moved[t] = false;
	} else if (op == 8 && st->queued[t]) {
		st->moved[t] = true;
	}
}

static void llc_compare(struct kunit *test, struct llc_state *st, int step)
{
	static const char * const side_name[LLC_SIDES] = { "C", "Rust", "mixed" };
	struct rq *rc = st->side[0].rq;
	unsigned int i, max = st->side[0].sd->llc_max, expect[LLC_SIDES] = {};
	int k, t;

	for (k = 1; k < LLC_SIDES; k++) {
		struct rq *r = st->side[k].rq;

		KUNIT_EXPECT_EQ_MSG(test, rc->nr_llc_running, r->nr_llc_running, "step %d %s",
				    step, side_name[k]);
		KUNIT_EXPECT_EQ_MSG(test, rc->nr_pref_llc_running, r->nr_pref_llc_running,
				    "step %d %s", step, side_name[k]);
		for (i = 0; i < max; i++)
			KUNIT_EXPECT_EQ_MSG(test, st->side[0].sd->llc_counts[i],
					    st->side[k].sd->llc_counts[i], "step %d llc %u %s",
					    step, i, side_name[k]);
		for (t = 0; t < LLC_TASKS; t++)
			KUNIT_EXPECT_EQ_MSG(test, st->side[0].p[t]->pref_llc_queued,
					    st->side[k].p[t]->pref_llc_queued, "step %d task %d %s",
					    step, t, side_name[k]);
	}
	for (k = 0; k < LLC_SIDES; k++) {
		KUNIT_EXPECT_EQ_MSG(test, st->side[k].sd->llc_counts[max], LLC_GUARD,
				    "step %d %s: slot llc_counts[llc_max] written", step,
				    side_name[k]);
		for (t = 0; t < LLC_TASKS; t++) {
			struct task_struct *p = st->side[k].p[t];

			expect[k] += st->queued[t] && p->pref_llc_queued && !p->se.sched_delayed;
		}
		KUNIT_EXPECT_EQ_MSG(test, st->side[k].rq->nr_pref_llc_running, expect[k],
				    "step %d %s invariant", step, side_name[k]);
	}
}

static void sched_rust_llc_accounting_test(struct kunit *test)
{
	struct llc_state *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	int k, t, step;

	KUNIT_ASSERT_NOT_NULL(test, st);
	prandom_seed_state(&st->rnd, parity_seed(test));
	kunit_info(test, "%d steps\n", LLC_STEPS);
	for (k = 0; k < LLC_SIDES; k++) {
		struct llc_side *s = &st->side[k];

		s->rq = kunit_kzalloc(test, sizeof(*s->rq), GFP_KERNEL);
		s->sd = kunit_kzalloc(test, sizeof(*s->sd), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, s->rq);
		KUNIT_ASSERT_NOT_NULL(test, s->sd);
		raw_spin_lock_init(&s->rq->__lock);
		RCU_INIT_POINTER(s->rq->sd, s->sd);
		for (t = 0; t < LLC_TASKS; t++) {
			s->p[t] = kunit_kzalloc(test, sizeof(*s->p[t]), GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, s->p[t]);
			s->p[t]->preferred_llc = -1;
		}
	}
	llc_realloc_counts(test, st, LLC_MAX_IDS);

	for (step = 0; step < LLC_STEPS; step++) {
		llc_step(test, st);
		llc_compare(test, st, step);
		if (test->status == KUNIT_FAILURE)
			return;
	}
	/* A sequence that skipped a path proves nothing about it. */
	for (k = 0; k < LLC_NR_PATHS; k++) {
		static const char * const path_name[LLC_NR_PATHS] = {
			"enqueued on the preferred LLC", "delayed dequeue", "underflow guard",
			"task_llc() changed while queued", "rq->sd NULL", "mixed C/Rust pairs",
		};

		kunit_info(test, "path %s: %u\n", path_name[k], st->paths[k]);
		KUNIT_EXPECT_GT_MSG(test, st->paths[k], 0, "path %s never taken", path_name[k]);
	}
}

/*
 * The epoch decay and the occupancy fraction: random jiffies sequences
 * (starting near the jiffies wrap, with gaps of up to hundreds of epochs) and
 * periods (including 0), with runtime added between updates as
 * account_mm_sched() does.
 */
#define LLC_DECAY_MMS	4	/* sched_cache_time entries (mms) per runqueue */

/*
 * The C update at the test's clock @now and with llc_epoch_period @period:
 * it reads jiffies and llc_epoch_period itself, and depends on jiffies only
 * through jiffies - rq->cpu_epoch_next, so cpu_epoch_next is moved by
 * jiffies - @now for the call and back after it, and the call is made again
 * if jiffies ticked meanwhile. With @fraction, fraction_mm_sched(), which
 * takes the epoch lock, else __update_mm_sched() under it.
 */
static unsigned long llc_update_c(struct rq *rq, struct sched_cache_time *t,
				  unsigned long now, unsigned int period, bool fraction)
{
	unsigned long epoch = rq->cpu_epoch, next = rq->cpu_epoch_next, j, ret = 0;
	struct sched_cache_time saved = *t;
	u64 cpu_runtime = rq->cpu_runtime;

	WRITE_ONCE(llc_epoch_period, period);
	do {
		rq->cpu_epoch = epoch;
		rq->cpu_runtime = cpu_runtime;
		*t = saved;
		j = jiffies;
		rq->cpu_epoch_next = next + (j - now);
		if (fraction) {
			ret = fraction_mm_sched_c(rq, t);
		} else {
			scoped_guard(raw_spinlock_irqsave, &rq->cpu_epoch_lock)
				__update_mm_sched_c(rq, t);
		}
		rq->cpu_epoch_next -= j - now;
	} while (READ_ONCE(jiffies) != j);
	return ret;
}

static void sched_rust_llc_decay_test(struct kunit *test)
{
	static const unsigned int periods[] = { 0, 1, 2, 3, 10, 100, 1000 };
	struct sched_cache_time *tc, *tr;
	unsigned int big_gaps = 0, k;
	bool big;
	unsigned int saved_period = READ_ONCE(llc_epoch_period);
	struct rq *rc, *rr;
	struct rnd_state rnd;
	unsigned long now;
	int step;

	rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);
	rr = kunit_kzalloc(test, sizeof(*rr), GFP_KERNEL);
	tc = kunit_kcalloc(test, LLC_DECAY_MMS, sizeof(*tc), GFP_KERNEL);
	tr = kunit_kcalloc(test, LLC_DECAY_MMS, sizeof(*tr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rc);
	KUNIT_ASSERT_NOT_NULL(test, rr);
	KUNIT_ASSERT_NOT_NULL(test, tc);
	KUNIT_ASSERT_NOT_NULL(test, tr);
	raw_spin_lock_init(&rc->cpu_epoch_lock);
	raw_spin_lock_init(&rr->cpu_epoch_lock);
	prandom_seed_state(&rnd, parity_seed(test));

	now = ULONG_MAX - 5000;
	rc->cpu_epoch_next = now;
	rc->cpu_epoch = prandom_u32_state(&rnd);
	rr->cpu_epoch_next = rc->cpu_epoch_next;
	rr->cpu_epoch = rc->cpu_epoch;
	/* Several processes' entries on one runqueue, each at its own epoch. */
	for (k = 0; k < LLC_DECAY_MMS; k++) {
		tc[k].epoch = rc->cpu_epoch - prandom_u32_state(&rnd) % 100;
		tc[k].runtime = prandom_u32_state(&rnd);
		tr[k] = tc[k];
	}

	for (step = 0; step < 10000; step++) {
		unsigned int period = periods[prandom_u32_state(&rnd) % ARRAY_SIZE(periods)];
		u64 run = prandom_u32_state(&rnd) % 1000000;
		unsigned long fc, fr;

		/* The entry of a random process, updated in random order. */
		k = prandom_u32_state(&rnd) % LLC_DECAY_MMS;
		switch (prandom_u32_state(&rnd) % 4) {
		case 0:
			break;
		case 1:
			now += prandom_u32_state(&rnd) % 4;
			break;
		case 2:
			now += prandom_u32_state(&rnd) % 400;
			break;
		default:	/* more than 64 epochs */
			now += (64 + prandom_u32_state(&rnd) % 200) * max(period, 1U);
			break;
		}
		/*
		 * An entry last updated 2^32 + 1 epochs ago: the gap does not fit
		 * 32 bits, and both sides must clear the runtime (before this
		 * series' first patch, C's __shr_u64() took the gap as unsigned
		 * int and halved it once).
		 */
		big = !(prandom_u32_state(&rnd) % 16);
		if (big) {
			tc[k].epoch = rc->cpu_epoch - ((1UL << 32) + 1);
			tr[k].epoch = tc[k].epoch;
			big_gaps++;
		}
		/* account_mm_sched(): runtime added after the update. */
		tc[k].runtime += run;
		tr[k].runtime += run;
		rc->cpu_runtime += run;
		rr->cpu_runtime += run;

		/* Both entry points of each side: the update alone, and with the fraction. */
		if (step & 1) {
			fc = llc_update_c(rc, &tc[k], now, period, true);
		} else {
			llc_update_c(rc, &tc[k], now, period, false);
			fc = div64_u64(NICE_0_LOAD * tc[k].runtime, rc->cpu_runtime + 1);
		}
		scoped_guard(raw_spinlock, &rr->cpu_epoch_lock) {
			if (step & 1) {
				fr = sched_rust_fraction_mm_sched(rr, &tr[k], now, period);
			} else {
				sched_rust_update_mm_sched(rr, &tr[k], now, period);
				fr = div64_u64(NICE_0_LOAD * tr[k].runtime, rr->cpu_runtime + 1);
			}
		}

		KUNIT_EXPECT_EQ_MSG(test, rc->cpu_epoch, rr->cpu_epoch, "step %d", step);
		KUNIT_EXPECT_EQ_MSG(test, rc->cpu_epoch_next, rr->cpu_epoch_next, "step %d", step);
		KUNIT_EXPECT_EQ_MSG(test, rc->cpu_runtime, rr->cpu_runtime, "step %d", step);
		KUNIT_EXPECT_EQ_MSG(test, tc[k].runtime, tr[k].runtime, "step %d mm %u", step, k);
		KUNIT_EXPECT_EQ_MSG(test, tc[k].epoch, tr[k].epoch, "step %d mm %u", step, k);
		KUNIT_EXPECT_EQ_MSG(test, fc, fr, "step %d mm %u", step, k);
		/* 2^32 + 1 epochs or more: cleared by the update. */
		if (big)
			KUNIT_EXPECT_EQ_MSG(test, tc[k].runtime, 0ULL, "step %d mm %u", step, k);
		if (test->status == KUNIT_FAILURE)
			break;
	}
	/* Every entry agrees at the end, the ones not touched last included. */
	for (k = 0; k < LLC_DECAY_MMS; k++) {
		KUNIT_EXPECT_EQ_MSG(test, tc[k].runtime, tr[k].runtime, "mm %u", k);
		KUNIT_EXPECT_EQ_MSG(test, tc[k].epoch, tr[k].epoch, "mm %u", k);
	}
	WRITE_ONCE(llc_epoch_period, saved_period);
	kunit_info(test, "%d updates over %d entries, %u gaps of 2^32 + 1 epochs\n", step,
		   LLC_DECAY_MMS, big_gaps);
	KUNIT_EXPECT_GT(test, big_gaps, 0);
	/* The sequence did cross the jiffies wrap. */
	KUNIT_EXPECT_LT(test, now, ULONG_MAX - 5000);
}

#define LLC_AVG_STEPS	10000

static u64 llc_rnd64(struct rnd_state *rnd)
{
	return (u64)prandom_u32_state(rnd) << 32 | prandom_u32_state(rnd);
}

/*
 * update_avg_scale(): random averages and samples. The C function reads the
 * size of this CPU's LLC, which the Rust one takes as a parameter: the same
 * value, read with preemption off. (Other sizes are the Rust suite's.)
 */
static void sched_rust_llc_avg_scale_test(struct kunit *test)
{
	struct rnd_state rnd;
	int step, size = 0;

	prandom_seed_state(&rnd, parity_seed(test));
	for (step = 0; step < LLC_AVG_STEPS; step++) {
		u64 avg, sample, c, r;

		if (prandom_u32_state(&rnd) % 2) {
			avg = prandom_u32_state(&rnd) % 64;
			sample = prandom_u32_state(&rnd) % 64;
		} else {
			avg = llc_rnd64(&rnd);
			sample = llc_rnd64(&rnd);
		}
		c = avg;
		r = avg;
		scoped_guard(preempt) {
			size = per_cpu(sd_llc_size, smp_processor_id());
			update_avg_scale_c(&c, sample);
			sched_rust_update_avg_scale(&r, sample, size);
		}
		KUNIT_EXPECT_EQ_MSG(test, c, r, "avg %llu sample %llu size %d", avg, sample, size);
		if (test->status == KUNIT_FAILURE)
			return;
	}
	kunit_info(test, "%d steps, LLC size %d\n", step, size);
	KUNIT_EXPECT_GT(test, size, 0);
}
#endif /* CONFIG_SCHED_CACHE */

/*
 * The cache-line layouts kernel/sched/rust/debug/layout.c guards at build time,
 * stated with this build's lines: the same conditions, so that the report
 * says what is guarded and why, and that a guard compiled out would show.
 */
#define SR_LINE(T, f)		(offsetof(T, f) / SMP_CACHE_BYTES)
#define SR_END_LINE(T, f)	((offsetofend(T, f) - 1) / SMP_CACHE_BYTES)

static void sched_rust_layout_test(struct kunit *test)
{
#ifdef CONFIG_FAIR_GROUP_SCHED
	/* "sched/fair: Move the cache-hot 'load_avg' variable into its own cacheline" (2015) */
	kunit_info(test, "task_group: cfs_rq line %zu, shares line %zu, load_avg/runnable_avg line %zu\n",
		   SR_LINE(struct task_group, cfs_rq), SR_LINE(struct task_group, shares),
		   SR_LINE(struct task_group, load_avg));
	KUNIT_EXPECT_EQ(test, offsetof(struct task_group, load_avg) % SMP_CACHE_BYTES, 0);
	KUNIT_EXPECT_LT(test, SR_END_LINE(struct task_group, shares),
			SR_LINE(struct task_group, load_avg));
	KUNIT_EXPECT_LT(test, SR_END_LINE(struct task_group, cfs_rq),
			SR_LINE(struct task_group, load_avg));
	KUNIT_EXPECT_EQ(test, SR_LINE(struct task_group, load_avg),
			SR_END_LINE(struct task_group, runnable_avg));
#endif
	/* "sched: Reorder some fields in struct rq" (2026) */
	kunit_info(test, "rq: nr_running..idle line %zu, __lock lines %zu-%zu, clock_task..clock_idle line %zu, sd line %zu\n",
		   SR_LINE(struct rq, nr_running), SR_LINE(struct rq, __lock),
		   SR_END_LINE(struct rq, __lock), SR_LINE(struct rq, clock_task),
		   SR_LINE(struct rq, sd));
	KUNIT_EXPECT_EQ(test, SR_END_LINE(struct rq, idle), 0);
	KUNIT_EXPECT_GT(test, SR_LINE(struct rq, __lock), 0);
	KUNIT_EXPECT_EQ(test, SR_LINE(struct rq, clock_task), SR_END_LINE(struct rq, clock_idle));
#ifdef CONFIG_SCHED_CACHE
	kunit_info(test, "rq: nr_pref_llc_running/nr_llc_running line %zu, cpu_runtime..cpu_epoch_next line %zu (Rust LLC accounting and decay, as their C twins)\n",
		   SR_LINE(struct rq, nr_llc_running), SR_LINE(struct rq, cpu_runtime));
	KUNIT_EXPECT_EQ(test, SR_LINE(struct rq, nr_pref_llc_running),
			SR_END_LINE(struct rq, nr_llc_running));
	KUNIT_EXPECT_NE(test, SR_LINE(struct rq, nr_llc_running), SR_LINE(struct rq, clock_task));
	KUNIT_EXPECT_GT(test, SR_LINE(struct rq, nr_llc_running), SR_END_LINE(struct rq, __lock));
	KUNIT_EXPECT_GT(test, SR_LINE(struct rq, cpu_runtime), SR_END_LINE(struct rq, __lock));
#endif
	/* The pick, C and Rust: h_nr_queued .. next, apart from 'removed'. */
	kunit_info(test, "cfs_rq: h_nr_queued..next lines %zu-%zu, removed line %zu\n",
		   SR_LINE(struct cfs_rq, h_nr_queued), SR_END_LINE(struct cfs_rq, next),
		   SR_LINE(struct cfs_rq, removed));
	KUNIT_EXPECT_LE(test, SR_END_LINE(struct cfs_rq, next), 1);
	KUNIT_EXPECT_LT(test, SR_END_LINE(struct cfs_rq, next), SR_LINE(struct cfs_rq, removed));
}

static struct kunit_case sched_rust_parity_cases[] = {
	KUNIT_CASE(sched_rust_switch_test),
	KUNIT_CASE(sched_rust_boot_param_test),
	KUNIT_CASE_PARAM(sched_rust_pick_branch_test, eevdf_cases_gen_params),
	KUNIT_CASE_SLOW(sched_rust_pick_random_test),
#ifdef CONFIG_FAIR_GROUP_SCHED
	KUNIT_CASE(sched_rust_tg_state_parity_test),
	KUNIT_CASE(sched_rust_tg_state_alloc_fail_test),
#endif
#ifdef CONFIG_SCHED_CACHE
	KUNIT_CASE(sched_rust_llc_accounting_test),
	KUNIT_CASE(sched_rust_llc_decay_test),
	KUNIT_CASE(sched_rust_llc_avg_scale_test),
#endif
	KUNIT_CASE(sched_rust_layout_test),
	{}
};

static struct kunit_suite sched_rust_parity_suite = {
	.name = "sched_rust_parity",
	.init = eevdf_fixture_init,
	.exit = eevdf_fixture_exit,
	.test_cases = sched_rust_parity_cases,
};

kunit_test_suite(sched_rust_parity_suite);

/* The executable specification of the pick and its exhaustive check. */
#include "sched_rust_spec.c"
