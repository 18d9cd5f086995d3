// SPDX-License-Identifier: GPL-2.0
/*
 * An executable specification of the EEVDF pick and eligibility (and of
 * the LLC occupancy accounting, at the end), and an exhaustive small-scope
 * check of 7.3.4's stock C, fair.c's C and the Rust against it.
 *
 * The specification is written from the definitions (the EEVDF paper and
 * the comments of kernel/sched/fair.c), not from any implementation: plain
 * code over a plain description of the runqueue (struct spec_rq), exact
 * arithmetic on 128 bits, no tree. It reads nothing of the cfs_rq the
 * implementations run on.
 *
 * Included at the end of sched_rust_kunit.c (so at the end of fair.c): it
 * reuses that suite's fixture and helpers, and builds every state with
 * fair.c's own __enqueue_entity() (but for the entities beyond its bound,
 * see spec_enqueue_quiet()).
 *
 * The scope: every runqueue of up to SPEC_MAX_NR entities over the small
 * domains of the tables below (weights from 2 to a group's largest, keys at
 * and far from v0, deadline ranks; v0 at the u64 wrap and the s64 sign;
 * sum_shift 0, 1 and 10), each in every insertion order, crossed with every
 * curr (none, off the runqueue, on it with each value of a table and each
 * protected vruntime of spec_vprot[]), every next buddy, protect and
 * PICK_BUDDY. The boot parameter sched_rust_spec_full=1 (make kunit-spec)
 * runs the full scope; without it a slice small enough for the CI's TCG run.
 *
 * Not enumerated, because 7.3 cannot reach them: group entities in the
 * tree (it is flattened: __enqueue_entity() warns on anything but a task);
 * h_nr_queued other than the tree's entities plus curr on the runqueue (it
 * counts every queued task, a delayed one too, and a delayed entity is an
 * entity of the tree like any other to the pick); a next buddy that is
 * curr (set_next_task_fair() clears the buddy that becomes curr, and
 * set_next_buddy()'s callers name a woken or yielded-to task that is not
 * running).
 */

/* 0: the CI slice; 1: the full scope (make kunit-spec). */
static bool spec_full;
core_param(sched_rust_spec_full, spec_full, bool, 0644);

#define SPEC_MAX_NR	5
#define SPEC_CURR	BIT(SPEC_MAX_NR)	/* the pick is curr */
#define SPEC_NULL	BIT(SPEC_MAX_NR + 1)	/* the pick is NULL */
#define SPEC_W_MAX	(88761UL << 10)		/* nice -20, scale_load() units */
/*
 * A task's weight in the tree is its h_load.weight, the product of its
 * group's weight with its share at every level (the tree is flattened:
 * only tasks are in it). Its largest is a group's largest: cgroup v1's
 * cpu.shares caps at MAX_SHARES, v2's cpu.weight 10000 is 102400 shares.
 */
#define SPEC_W_V2	scale_load(102400UL)
#define SPEC_W_GROUP	scale_load(MAX_SHARES)

/* A signed 128-bit integer, two's complement: exact for every sum below. */
struct spec_s128 {
	u64 hi, lo;
};

static struct spec_s128 s128_of(s64 v)
{
	return (struct spec_s128){ .hi = v < 0 ? U64_MAX : 0, .lo = (u64)v };
}

static struct spec_s128 s128_add(struct spec_s128 a, struct spec_s128 b)
{
	struct spec_s128 r = { .lo = a.lo + b.lo };

	r.hi = a.hi + b.hi + (r.lo < a.lo);
	return r;
}

static struct spec_s128 s128_neg(struct spec_s128 a)
{
	struct spec_s128 r = { .lo = ~a.lo + 1 };

	r.hi = ~a.hi + (r.lo == 0);
	return r;
}

/* k * w for w < 2^32: |k| = m = mh * 2^32 + ml, m * w = mh * w * 2^32 + ml * w. */
static struct spec_s128 s128_mul(s64 k, u64 w)
{
	u64 m = k < 0 ? -(u64)k : (u64)k;
	u64 low = (m & U32_MAX) * w, mid = (m >> 32) * w;
	struct spec_s128 r = { .lo = low + (mid << 32) };

	WARN_ON_ONCE(w > U32_MAX);
	r.hi = (mid >> 32) + (r.lo < low);
	return k < 0 ? s128_neg(r) : r;
}

static int s128_cmp(struct spec_s128 a, struct spec_s128 b)
{
	if (a.hi != b.hi)
		return (s64)a.hi < (s64)b.hi ? -1 : 1;
	if (a.lo != b.lo)
		return a.lo < b.lo ? -1 : 1;
	return 0;
}

/* lo <= a < hi */
static bool s128_in(struct spec_s128 a, s64 lo, s64 hi)
{
	return s128_cmp(a, s128_of(lo)) >= 0 && s128_cmp(a, s128_of(hi)) < 0;
}

/* The runqueue as the specification sees it. */
struct spec_se {
	unsigned long w;	/* h_load.weight */
	u64 v;			/* vruntime */
	u64 d;			/* deadline */
};

struct spec_rq {
	unsigned int nr;	/* entities in the tree */
	u64 v0;			/* zero_vruntime */
	unsigned int shift;	/* sum_shift */
	struct spec_se se[SPEC_MAX_NR];
	u8 row[SPEC_MAX_NR];	/* each entity's row of the scope's tables */
	bool has_curr, curr_on_rq;
	struct spec_se curr;
	u64 vprot;		/* curr's */
	int next;		/* index into se[], -1 for none */
};

/*
 * Virtual times are points on a circle of 2^64: fair.c reads each one
 * relative to v0 = zero_vruntime ("Substitute: v_i == (v_i - v0) + v0"),
 * as a signed 64-bit key. The specification does the same, once, here.
 */
static s64 spec_key(const struct spec_rq *s, u64 t)
{
	return (s64)(t - s->v0);
}

/*
 * The weight an entity counts with in V. fair.c defines V with
 * avg_vruntime_weight(): the weight shifted right by sum_shift, at least 2
 * (PARANOID_AVG's overflow recovery). @exact: the true weight instead,
 * to classify what that scaling changes apart.
 */
static u64 spec_weight(const struct spec_rq *s, unsigned long w, bool exact)
{
	if (exact || !s->shift)
		return w;
	return max(2UL, w >> s->shift);
}

/* The runnable entities: the tree's, and curr if it is on the runqueue. */
static unsigned int spec_runnable(const struct spec_rq *s, const struct spec_se **r)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nr; i++)
		r[n++] = &s->se[i];
	if (s->has_curr && s->curr_on_rq)
		r[n++] = &s->curr;
	return n;
}

/* V = v0 + A / W: A = \Sum (v_i - v0) * w_i, W = \Sum w_i, exactly. */
struct spec_avg {
	struct spec_s128 a;
	u64 w;
};

static struct spec_avg spec_average(const struct spec_rq *s, bool exact)
{
	const struct spec_se *r[SPEC_MAX_NR + 1];
	struct spec_avg avg = { s128_of(0), 0 };
	unsigned int i, n = spec_runnable(s, r);

	for (i = 0; i < n; i++) {
		u64 w = spec_weight(s, r[i]->w, exact);

		avg.a = s128_add(avg.a, s128_mul(spec_key(s, r[i]->v), w));
		avg.w += w;
	}
	return avg;
}

/*
 * Eligible: lag >= 0, lag_i = w_i * (V - v_i), so v_i <= V, so
 * (v_i - v0) * W <= A (W > 0). With nothing runnable V is undefined.
 */
static bool spec_eligible(const struct spec_rq *s, const struct spec_avg *avg, u64 v)
{
	return s128_cmp(s128_mul(spec_key(s, v), avg->w), avg->a) <= 0;
}

/* Protected: curr has not yet reached the vruntime its slice protects. */
static bool spec_protected(const struct spec_rq *s)
{
	return spec_key(s, s->curr.v) < spec_key(s, s->vprot);
}

/*
 * The pick, as a set of acceptable answers (bit i: se[i], SPEC_CURR,
 * SPEC_NULL): ties between deadlines are left open, as the paper and
 * entity_before() leave them.
 *
 * 1. Nothing runnable: NULL.
 * 2. One runnable entity: that one, eligible or not (7.3: "skip
 *    eligibility check if there is only one entity").
 * 3. protect and PICK_BUDDY: the next buddy if it is eligible ("will
 *    affect latency but not fairness").
 * 4. protect: curr, if on the runqueue, eligible and within its protected
 *    slice (RUN_TO_PARITY and PREEMPT_SHORT decide vprot, not the pick).
 * 5. Else EEVDF: of the eligible runnable entities (curr among them when it
 *    is on the runqueue), one with the earliest deadline.
 */
static const char * const spec_rule_name[] = {
	"1: nothing runnable, NULL",
	"2: one runnable entity, that one",
	"3: the eligible next buddy",
	"4: curr, eligible and protected",
	"5: an eligible entity with the earliest deadline",
};

static u32 spec_pick_rule(const struct spec_rq *s, const struct spec_avg *avg,
			  bool protect, bool buddy, unsigned int *rule)
{
	bool curr_on = s->has_curr && s->curr_on_rq;
	unsigned int i, n = s->nr + curr_on;
	s64 best = S64_MAX;
	u32 set = 0;

	*rule = 0;
	if (!n)
		return SPEC_NULL;
	*rule = 1;
	if (n == 1)
		return s->nr ? BIT(0) : SPEC_CURR;
	*rule = 2;
	if (protect && buddy && s->next >= 0 && spec_eligible(s, avg, s->se[s->next].v))
		return BIT(s->next);
	*rule = 3;
	curr_on = curr_on && spec_eligible(s, avg, s->curr.v);
	if (protect && curr_on && spec_protected(s))
		return SPEC_CURR;
	*rule = 4;

	for (i = 0; i <= s->nr; i++) {
		const struct spec_se *se = i < s->nr ? &s->se[i] : &s->curr;
		u32 bit = i < s->nr ? BIT(i) : SPEC_CURR;
		s64 d = spec_key(s, se->d);

		if (i == s->nr && !curr_on)
			break;
		if (!spec_eligible(s, avg, se->v) || d > best)
			continue;
		if (d < best)
			set = 0;
		best = d;
		set |= bit;
	}
	return set ?: SPEC_NULL;
}

/*
 * The same pick as properties of an answer, each checked on its own, so that
 * a pick that breaks one names it (sched-rust-cfs.rst, "The specification"):
 * the EEVDF properties E1-E4 from the definitions (lag, eligibility, virtual
 * deadline) and the two policy choices of fair.c, P1 and P2, that override
 * them. "Runnable": the entities of the tree, and curr when on the runqueue.
 */
enum spec_prop {
	SPEC_E1_RUNNABLE,	/* NULL iff nothing runnable, else a runnable entity */
	SPEC_E2_ONE,		/* one runnable entity: that one */
	SPEC_P1_BUDDY,		/* protect, PICK_BUDDY, the next buddy eligible: next */
	SPEC_P2_PROTECTED,	/* else protect, curr runnable, eligible, protected: curr */
	SPEC_E3_ELIGIBLE,	/* else (two or more runnable): an eligible entity */
	SPEC_E4_EARLIEST,	/* else: no eligible runnable entity has an earlier deadline */
	SPEC_NR_PROPS,
};

static const char * const spec_prop_name[SPEC_NR_PROPS] = {
	"E1 (NULL iff nothing runnable, else a runnable entity)",
	"E2 (one runnable entity: that one)",
	"P1 (protect, PICK_BUDDY, eligible next buddy: next)",
	"P2 (protect, runnable eligible protected curr: curr)",
	"E3 (the pick is eligible: lag >= 0)",
	"E4 (no eligible runnable entity has an earlier deadline)",
};

/* The entity of answer bit @bit, NULL for SPEC_NULL or a bit that is none. */
static const struct spec_se *spec_se_of(const struct spec_rq *s, u32 bit)
{
	unsigned int i;

	if (bit == SPEC_CURR)
		return s->has_curr && s->curr_on_rq ? &s->curr : NULL;
	for (i = 0; i < s->nr; i++)
		if (bit == BIT(i))
			return &s->se[i];
	return NULL;
}

/*
 * The properties answer @got (one bit) breaks, each checked on its own
 * where it applies, as a mask of BIT(enum spec_prop), 0 if none; @checked
 * counts, per property, the answers it applied to. Where a property
 * applies is the rules' precedence (P1 and P2 override EEVDF's E3 and E4);
 * within it, E1's two halves, E3 and E4 are each decided without the
 * others' verdicts, so that a pick that breaks several names them all.
 */
static u32 spec_pick_props(const struct spec_rq *s, const struct spec_avg *avg,
			   bool protect, bool buddy, u32 got, u64 *checked)
{
	bool curr_on = s->has_curr && s->curr_on_rq;
	unsigned int i, n = s->nr + curr_on;
	const struct spec_se *p = spec_se_of(s, got);
	bool none = got == SPEC_NULL;
	bool next_ok, curr_ok;
	u32 bad = 0;

	checked[SPEC_E1_RUNNABLE]++;
	if (!n != none || (n && !p))
		bad |= BIT(SPEC_E1_RUNNABLE);
	if (!n)
		return bad;
	if (n == 1) {
		checked[SPEC_E2_ONE]++;
		if (got != (s->nr ? BIT(0) : SPEC_CURR))
			bad |= BIT(SPEC_E2_ONE);
		return bad;
	}
	next_ok = protect && buddy && s->next >= 0 && spec_eligible(s, avg, s->se[s->next].v);
	if (next_ok) {
		checked[SPEC_P1_BUDDY]++;
		if (got != BIT(s->next))
			bad |= BIT(SPEC_P1_BUDDY);
		return bad;
	}
	curr_ok = protect && curr_on && spec_eligible(s, avg, s->curr.v) && spec_protected(s);
	if (curr_ok) {
		checked[SPEC_P2_PROTECTED]++;
		if (got != SPEC_CURR)
			bad |= BIT(SPEC_P2_PROTECTED);
		return bad;
	}
	/* E3 and E4 speak of a runnable pick: without one, E1 said so. */
	if (!p)
		return bad;
	checked[SPEC_E3_ELIGIBLE]++;
	if (!spec_eligible(s, avg, p->v))
		bad |= BIT(SPEC_E3_ELIGIBLE);
	checked[SPEC_E4_EARLIEST]++;
	for (i = 0; i <= s->nr; i++) {
		const struct spec_se *q = i < s->nr ? &s->se[i] : &s->curr;

		if (i == s->nr && !curr_on)
			break;
		if (spec_eligible(s, avg, q->v) && spec_key(s, q->d) < spec_key(s, p->d)) {
			bad |= BIT(SPEC_E4_EARLIEST);
			break;
		}
	}
	return bad;
}

static u32 spec_pick(const struct spec_rq *s, const struct spec_avg *avg,
		     bool protect, bool buddy)
{
	unsigned int rule;

	return spec_pick_rule(s, avg, protect, buddy, &rule);
}

/*
 * The scopes. An entity of the tree is a weight, a key (vruntime - v0) and
 * a deadline rank (deadline - v0); curr takes its values from its own
 * table. Each runqueue is built with every v0 and every sum_shift of its
 * scope: v0 = U64_MAX - 1 puts the u64 wrap between the deadline ranks 1
 * and 2 and between the keys 1 and 2; v0 = S64_MAX puts the s64 sign of
 * the absolute values there.
 */
/* An entity of a table: its weight, key (vruntime - v0), deadline rank. */
struct spec_val {
	unsigned long w;
	s64 k;
	unsigned int d;
};

struct spec_scope {
	const char *name;
	unsigned int max_nr;
	const unsigned long *w;
	unsigned int nw;
	const s64 *k;
	unsigned int nk;
	unsigned int nd;
	const struct spec_val *curr;
	unsigned int ncurr;
	const u64 *v0;
	unsigned int nv0;
	const unsigned int *shift;
	unsigned int nshift;
	unsigned int nvprot;	/* the first of spec_vprot[] that curr on the runqueue takes */
};

static const unsigned long spec_w3[] = { 2, NICE_0_LOAD, SPEC_W_MAX };
static const unsigned long spec_w2[] = { 2, SPEC_W_MAX };
static const unsigned long spec_wg[] = { 2, NICE_0_LOAD, SPEC_W_V2, SPEC_W_GROUP };
static const unsigned long spec_wg2[] = { 2, SPEC_W_GROUP };
static const s64 spec_k3[] = { -1, 0, 1 };
static const s64 spec_k2[] = { -1, 1 };
/*
 * Keys far from v0: +-2^35 keeps a nice -20 entity's term below 2^62
 * (fair.c's bound) but makes (v - v0) * W overflow s64 for heavy runqueues
 * (vruntime_eligible()'s check_mul_overflow() path without int128); 2^62
 * and the s64 extremes are beyond the bound of any term of weight >= 2.
 */
static const s64 spec_kbig[] = { S64_MIN, -(1LL << 35), -1, 0, 1, 1LL << 35, 1LL << 62, S64_MAX };
static const u64 spec_v0_wrap[] = { U64_MAX - 1, S64_MAX };
static const u64 spec_v0_one[] = { U64_MAX - 1 };
static const unsigned int spec_shift0[] = { 0 };
static const unsigned int spec_shift2[] = { 0, 10 };

static const struct spec_val spec_curr3[] = {
	{ NICE_0_LOAD, 0, 1 }, { 2, -1, 0 }, { SPEC_W_MAX, 1, 2 },
};

static const struct spec_val spec_curr_big[] = {
	{ NICE_0_LOAD, 0, 1 }, { 2, S64_MAX, 0 }, { SPEC_W_MAX, -(1LL << 35), 2 },
	{ 2, 1LL << 35, 2 }, { SPEC_W_MAX, 1LL << 35, 0 },
};

static const struct spec_val spec_curr_group[] = {
	{ NICE_0_LOAD, 0, 1 }, { SPEC_W_GROUP, -1, 0 }, { SPEC_W_GROUP, 1, 2 },
	{ SPEC_W_V2, 0, 0 },
};

/*
 * curr's protected vruntime, from its vruntime: expired (at it, or before
 * it), protected by one unit, and by the longest slice's worth either way
 * (a 3 ms slice at weight 2 is about 2^40.5 of vruntime).
 */
static const s64 spec_vprot[] = { 0, 1, -1, 1LL << 41, -(1LL << 41) };

static const struct spec_val spec_curr_small[] = {
	{ 2, -1, 0 }, { 2, 1, 2 }, { SPEC_W_MAX, -1, 2 }, { SPEC_W_MAX, 1, 0 },
};

/*
 * A weight-2 entity +-4096 from v0 against nice-0 ones: where sum_shift's
 * scaling (2 stays 2, 2^20 becomes 2^10) moves V across an entity.
 */
static const s64 spec_k5[] = { -4096, -1, 0, 1, 4096 };
static const unsigned int spec_shift3[] = { 0, 1, 10 };

static const struct spec_scope spec_scopes_full[] = {
	/* Five entities: extreme weights, ties at the eligibility boundary. */
	{ "five", 5, spec_w2, ARRAY_SIZE(spec_w2), spec_k2, ARRAY_SIZE(spec_k2), 3,
	  spec_curr_small, ARRAY_SIZE(spec_curr_small),
	  spec_v0_one, ARRAY_SIZE(spec_v0_one), spec_shift0, ARRAY_SIZE(spec_shift0), 2 },
	/* Four: nice 0 too, keys at v0, both v0. */
	{ "four", 4, spec_w3, ARRAY_SIZE(spec_w3), spec_k3, ARRAY_SIZE(spec_k3), 3,
	  spec_curr3, ARRAY_SIZE(spec_curr3),
	  spec_v0_wrap, ARRAY_SIZE(spec_v0_wrap), spec_shift0, ARRAY_SIZE(spec_shift0), 2 },
	/* Three: keys up to the s64 extremes. */
	{ "far", 3, spec_w3, ARRAY_SIZE(spec_w3), spec_kbig, ARRAY_SIZE(spec_kbig), 3,
	  spec_curr_big, ARRAY_SIZE(spec_curr_big),
	  spec_v0_one, ARRAY_SIZE(spec_v0_one), spec_shift2, ARRAY_SIZE(spec_shift2), 2 },
	/* Three: the weight scaling of sum_shift 1 and 10. */
	{ "shift", 3, spec_w3, ARRAY_SIZE(spec_w3), spec_k5, ARRAY_SIZE(spec_k5), 2,
	  spec_curr3, ARRAY_SIZE(spec_curr3),
	  spec_v0_one, ARRAY_SIZE(spec_v0_one), spec_shift3, ARRAY_SIZE(spec_shift3), 2 },
	/*
	 * Three: the weights of groups (cgroup v1's and v2's largest), and
	 * curr's protected vruntime across a slice.
	 */
	{ "group", 3, spec_wg, ARRAY_SIZE(spec_wg), spec_k3, ARRAY_SIZE(spec_k3), 3,
	  spec_curr_group, ARRAY_SIZE(spec_curr_group),
	  spec_v0_wrap, ARRAY_SIZE(spec_v0_wrap), spec_shift2, ARRAY_SIZE(spec_shift2),
	  ARRAY_SIZE(spec_vprot) },
};

/* The CI slice: the same kinds of state, fewer entities and values. */
static const struct spec_scope spec_scopes_ci[] = {
	{ "five", 5, spec_w2, ARRAY_SIZE(spec_w2), spec_k2, ARRAY_SIZE(spec_k2), 1,
	  spec_curr_small, 2,
	  spec_v0_one, ARRAY_SIZE(spec_v0_one), spec_shift0, ARRAY_SIZE(spec_shift0), 2 },
	{ "three", 3, spec_w2, ARRAY_SIZE(spec_w2), spec_k3, ARRAY_SIZE(spec_k3), 2,
	  spec_curr3, ARRAY_SIZE(spec_curr3),
	  spec_v0_wrap, ARRAY_SIZE(spec_v0_wrap), spec_shift0, ARRAY_SIZE(spec_shift0), 2 },
	{ "far", 2, spec_w3, ARRAY_SIZE(spec_w3), spec_kbig, ARRAY_SIZE(spec_kbig), 2,
	  spec_curr_big, ARRAY_SIZE(spec_curr_big),
	  spec_v0_one, ARRAY_SIZE(spec_v0_one), spec_shift2, ARRAY_SIZE(spec_shift2), 2 },
	{ "shift", 2, spec_w3, ARRAY_SIZE(spec_w3), spec_k5, ARRAY_SIZE(spec_k5), 2,
	  spec_curr3, ARRAY_SIZE(spec_curr3),
	  spec_v0_one, ARRAY_SIZE(spec_v0_one), spec_shift3, ARRAY_SIZE(spec_shift3), 2 },
	{ "group", 2, spec_wg2, ARRAY_SIZE(spec_wg2), spec_k3, ARRAY_SIZE(spec_k3), 2,
	  spec_curr_group, ARRAY_SIZE(spec_curr_group),
	  spec_v0_one, ARRAY_SIZE(spec_v0_one), spec_shift2, ARRAY_SIZE(spec_shift2),
	  ARRAY_SIZE(spec_vprot) },
};

/*
 * What a state is, for the verdicts: in the kernel's domain when every
 * term (v_i - v0) * w_i lies in [-2^62, 2^62) (the bound
 * __sum_w_vruntime_add() warns about) and their sum A, curr's included,
 * fits s64. Then every implementation must agree with the specification.
 * Outside it (SPEC_TERM: a term beyond the bound; SPEC_SUM: the terms
 * within, their sum not), fair.c's sums have wrapped: the disagreements
 * are counted and reported, not failed.
 */
enum spec_class { SPEC_IN, SPEC_TERM, SPEC_SUM, SPEC_NR_CLASSES };

static const char * const spec_class_name[SPEC_NR_CLASSES] = {
	"in the domain", "a term beyond 2^62", "the sum beyond s64",
};

static bool spec_term_ok(const struct spec_rq *s, const struct spec_se *se)
{
	return s128_in(s128_mul(spec_key(s, se->v), spec_weight(s, se->w, false)),
		       -(1LL << 62), 1LL << 62);
}

static enum spec_class spec_classify(const struct spec_rq *s, const struct spec_avg *avg)
{
	const struct spec_se *r[SPEC_MAX_NR + 1];
	unsigned int i, n = spec_runnable(s, r);

	for (i = 0; i < n; i++)
		if (!spec_term_ok(s, r[i]))
			return SPEC_TERM;
	return s128_in(avg->a, S64_MIN, S64_MAX) || !s128_cmp(avg->a, s128_of(S64_MAX)) ?
	       SPEC_IN : SPEC_SUM;
}

struct spec_counts {
	u64 states, queries, trees;
	u64 states_class[SPEC_NR_CLASSES];
	u64 pick_bad[SPEC_NR_CLASSES];		/* an implementation outside the set */
	u64 elig_bad[SPEC_NR_CLASSES];
	u64 parity_bad[SPEC_NR_CLASSES];	/* the implementations differ */
	u64 null_picks[SPEC_NR_CLASSES];	/* NULL with >= 2 runnable */
	u64 tree_bad[SPEC_NR_CLASSES];
	u64 approx_elig, approx_pick, approx_states;	/* sum_shift vs exact weights */
	u64 warn_missed;	/* a term beyond the bound that fair.c's WARN misses */
	u64 ineligible, ineligible_bad;	/* ineligible_vruntime() */
	u64 mul_overflow;	/* in the domain, (v - v0) * W beyond s64 */
	u64 prop_checked[SPEC_NR_PROPS];	/* picks each property applied to */
	u64 prop_bad[SPEC_NR_CLASSES];		/* a pick that breaks a property */
	u64 distinct_trees, distinct_states;	/* see struct spec_codes */
	u64 pick_trees, pick_states;		/* the same, slices and colours aside */
	unsigned int codes_off;			/* scopes whose trees were not coded */
	unsigned int printed[SPEC_NR_CLASSES];
	u64 ns;
};

static void spec_describe(const struct spec_rq *s, char *buf, size_t len)
{
	unsigned int i, o;

	o = scnprintf(buf, len, "nr %u v0 %#llx shift %u:", s->nr, s->v0, s->shift);
	for (i = 0; i < s->nr; i++)
		o += scnprintf(buf + o, len - o, " se%u(w %lu k %lld d %lld)", i, s->se[i].w,
			       spec_key(s, s->se[i].v), spec_key(s, s->se[i].d));
	if (!s->has_curr)
		o += scnprintf(buf + o, len - o, " no curr");
	else
		o += scnprintf(buf + o, len - o, " curr%s(w %lu k %lld d %lld vprot-v %lld)",
			       s->curr_on_rq ? "" : " off rq", s->curr.w, spec_key(s, s->curr.v),
			       spec_key(s, s->curr.d), (s64)(s->vprot - s->curr.v));
	scnprintf(buf + o, len - o, " next %d", s->next);
}

/* The first few disagreements of a class: a failure in the domain, a note outside. */
static void spec_report(struct kunit *test, struct spec_counts *c, enum spec_class cl,
			const struct spec_rq *s, const char *what)
{
	char *buf;

	if (c->printed[cl] >= 5)
		return;
	c->printed[cl]++;
	buf = kmalloc(1024, GFP_KERNEL);
	if (!buf)
		return;
	spec_describe(s, buf, 1024);
	if (cl == SPEC_IN)
		KUNIT_FAIL(test, "%s: %s", what, buf);
	else
		kunit_info(test, "%s (%s): %s\n", what, spec_class_name[cl], buf);
	kfree(buf);
}

/* One state described, whatever it is counted as. */
static void spec_note(struct kunit *test, enum spec_class cl, const struct spec_rq *s,
		      const char *what, int protect, int buddy)
{
	char *buf = kmalloc(1024, GFP_KERNEL);

	if (!buf)
		return;
	spec_describe(s, buf, 1024);
	kunit_info(test, "%s (%s): %s protect %d buddy %d\n", what, spec_class_name[cl], buf,
		   protect, buddy);
	kfree(buf);
}

static u32 spec_bit(struct fair_kunit_rq *f, struct sched_entity *se)
{
	if (!se)
		return SPEC_NULL;
	if (se == &f->se[PARITY_MAX_SE])
		return SPEC_CURR;
	return BIT(se - f->se);
}

/*
 * __enqueue_entity() without the WARN of __sum_w_vruntime_add(), for the
 * entities whose term is beyond its bound: the same wrapping sums, the same
 * tree insertion. A state outside the domain is counted, not warned about.
 */
static void spec_enqueue_quiet(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	unsigned long weight = avg_vruntime_weight(cfs_rq, se->h_load.weight);

	cfs_rq->sum_w_vruntime += entity_key(cfs_rq, se) * weight;
	cfs_rq->sum_weight += weight;
	se->min_vruntime = se->vruntime;
	se->min_slice = se->slice;
	se->max_slice = se->slice;
	rb_add_augmented_cached(&se->run_node, &cfs_rq->tasks_timeline, __entity_less,
				&min_vruntime_cb);
}

/* fair.c's own check of a term: the wrapped product, bits 63 and 62. */
static bool spec_warn_fires(const struct spec_rq *s, const struct spec_se *se)
{
	s64 t = (s64)((u64)spec_key(s, se->v) * spec_weight(s, se->w, false));

	return (t >> 63) != (t >> 62);
}

static void spec_build(struct fair_kunit_rq *f, const struct spec_rq *s,
		       struct spec_counts *c)
{
	struct cfs_rq *cfs_rq = &f->rq->cfs;
	unsigned int i;

	fair_kunit_rq_reset(f);
	cfs_rq->zero_vruntime = s->v0;
	cfs_rq->sum_shift = s->shift;
	for (i = 0; i < s->nr; i++) {
		struct sched_entity *se = &f->se[i];

		memset(se, 0, sizeof(*se));
		update_load_set(&se->h_load, s->se[i].w);
		se->vruntime = s->se[i].v;
		se->deadline = s->se[i].d;
		/* Slices that make min_slice and max_slice differ across subtrees. */
		se->slice = 1 + (i + spec_key(s, s->se[i].d)) % 3;
		se->on_rq = 1;
		if (spec_term_ok(s, &s->se[i])) {
			__enqueue_entity(cfs_rq, se);
		} else {
			c->warn_missed += !spec_warn_fires(s, &s->se[i]);
			spec_enqueue_quiet(cfs_rq, se);
		}
	}
}

/*
 * The augmented tree: the nodes are the entities of @present, once each, in
 * deadline order, the cached leftmost is the first; every node's
 * min_vruntime is the least vruntime of its subtree, min_slice and
 * max_slice the least and greatest slice.
 */
struct spec_walk {
	struct fair_kunit_rq *f;
	const struct spec_rq *s;
	u32 present, seen;
	struct sched_entity *first;
	s64 last_d;
	const char *why;
};

static void spec_subtree(struct spec_walk *w, struct rb_node *node, s64 *min_k,
			 u64 *min_s, u64 *max_s)
{
	s64 lk = S64_MAX, rk = S64_MAX;
	u64 ls = U64_MAX, rs = U64_MAX, lm = 0, rm = 0;
	struct sched_entity *se;
	long i;

	if (!node || w->why)
		return;
	se = __node_2_se(node);
	i = se - w->f->se;
	if (i < 0 || i >= SPEC_MAX_NR || !(w->present & BIT(i)) || (w->seen & BIT(i))) {
		w->why = "a node that is not one of the entities, or twice";
		return;
	}
	w->seen |= BIT(i);
	spec_subtree(w, node->rb_left, &lk, &ls, &lm);
	if (!w->first)
		w->first = se;
	if (spec_key(w->s, se->deadline) < w->last_d)
		w->why = "deadlines out of order";
	w->last_d = spec_key(w->s, se->deadline);
	spec_subtree(w, node->rb_right, &rk, &rs, &rm);
	*min_k = min3(spec_key(w->s, se->vruntime), lk, rk);
	*min_s = min3(se->slice, ls, rs);
	*max_s = max3(se->slice, lm, rm);
	if (spec_key(w->s, se->min_vruntime) != *min_k)
		w->why = "min_vruntime is not the least vruntime of the subtree";
	if (se->min_slice != *min_s || se->max_slice != *max_s)
		w->why = "min_slice or max_slice is not the subtree's";
}

static const char *spec_check_tree(struct fair_kunit_rq *f, const struct spec_rq *s,
				   u32 present)
{
	struct cfs_rq *cfs_rq = &f->rq->cfs;
	struct spec_walk w = { .f = f, .s = s, .present = present, .last_d = S64_MIN };
	struct spec_s128 a = s128_of(0);
	u64 min_s = U64_MAX, max_s = 0, weight = 0;
	s64 min_k = S64_MAX;
	unsigned int i;

	spec_subtree(&w, cfs_rq->tasks_timeline.rb_root.rb_node, &min_k, &min_s, &max_s);
	if (w.why)
		return w.why;
	if (w.seen != present)
		return "an entity missing from the tree";
	if (w.first != __pick_first_entity(cfs_rq))
		return "the cached leftmost is not the first entity";
	/* The sums: exact in the weight, modulo 2^64 in the weighted keys. */
	for (i = 0; i < s->nr; i++) {
		u64 wi = spec_weight(s, s->se[i].w, false);

		if (!(present & BIT(i)))
			continue;
		a = s128_add(a, s128_mul(spec_key(s, s->se[i].v), wi));
		weight += wi;
	}
	if (cfs_rq->sum_weight != weight || (u64)cfs_rq->sum_w_vruntime != a.lo)
		return "sum_weight or sum_w_vruntime is not the sum of the entities'";
	return NULL;
}

/* The eligibility of @v: the specification, then the three implementations. */
static void spec_check_eligible(struct kunit *test, struct spec_counts *c, enum spec_class cl,
				const struct spec_rq *s, const struct spec_avg *avg,
				const struct spec_avg *exact, u64 v)
{
	struct cfs_rq *cfs_rq = &((struct fair_kunit_rq *)test->priv)->rq->cfs;
	bool want = spec_eligible(s, avg, v);
	int st = vruntime_eligible_stock(cfs_rq, v);
	int cc = vruntime_eligible_c(cfs_rq, v);
	int r = eligible_rust(cfs_rq, v);

	c->queries++;
	if (cl == SPEC_IN && !s128_in(s128_mul(spec_key(s, v), avg->w), S64_MIN, S64_MAX))
		c->mul_overflow++;
	if (s->shift && cl == SPEC_IN && spec_eligible(s, exact, v) != want)
		c->approx_elig++;
	if (st != cc || cc != r) {
		c->parity_bad[cl]++;
		spec_report(test, c, cl, s, "eligibility: stock C, C and Rust differ");
	}
	if (!!st != want || !!cc != want || !!r != want) {
		c->elig_bad[cl]++;
		if (c->printed[cl] < 5)
			kunit_info(test, "key %lld: spec %d stock %d C %d Rust %d\n",
				   spec_key(s, v), want, st, cc, r);
		spec_report(test, c, cl, s, "eligibility: an implementation is not the spec's");
	}
}

/*
 * ineligible_vruntime(): the least vruntime at which curr, all else equal,
 * would not be eligible. With curr at v, eligible iff
 * (v - v0) * (W_o + w) <= A_o + (v - v0) * w, iff (v - v0) * W_o <= A_o,
 * where A_o and W_o are the others' sums: so the answer x is the one with
 * (x - 1 - v0) * W_o <= A_o < (x - v0) * W_o, checked as that, without a
 * division. Only fair.c has it (set_protect_slice() with PREEMPT_SHORT);
 * defined when curr has others to be compared with.
 */
static void spec_check_ineligible(struct kunit *test, struct spec_counts *c,
				  const struct spec_rq *s)
{
	struct cfs_rq *cfs_rq = &((struct fair_kunit_rq *)test->priv)->rq->cfs;
	struct spec_rq others = *s;
	struct spec_avg o;
	u64 x;

	others.has_curr = false;
	o = spec_average(&others, false);
	if (!o.w || !s128_in(o.a, S64_MIN, S64_MAX))
		return;
	x = ineligible_vruntime(cfs_rq);
	c->ineligible++;
	if (s128_cmp(s128_mul(spec_key(s, x - 1), o.w), o.a) <= 0 &&
	    s128_cmp(s128_mul(spec_key(s, x), o.w), o.a) > 0)
		return;
	c->ineligible_bad++;
	kunit_info(test, "ineligible_vruntime() - v0 = %lld\n", spec_key(s, x));
	spec_report(test, c, SPEC_IN, s, "ineligible_vruntime(): not the least ineligible v");
}

/* One pick: the specification's set, and the three implementations. */
static void spec_check_pick(struct kunit *test, struct spec_counts *c, enum spec_class cl,
			    const struct spec_rq *s, const struct spec_avg *avg,
			    const struct spec_avg *exact, int protect, int on, bool buddy)
{
	struct fair_kunit_rq *f = test->priv;
	struct cfs_rq *cfs_rq = &f->rq->cfs;
	unsigned int rule;
	u32 want, ps, pc, pr;

	want = spec_pick_rule(s, avg, protect, buddy, &rule);
	ps = spec_bit(f, pick_c_buddy(cfs_rq, protect, on, true));
	pc = spec_bit(f, pick_c_buddy(cfs_rq, protect, on, false));
	pr = spec_bit(f, pick_rust_buddy(cfs_rq, protect, on));
	c->states++;
	c->states_class[cl]++;
	if (s->shift && cl == SPEC_IN && !(spec_pick(s, exact, protect, buddy) & pc))
		c->approx_pick++;
	if (pc == SPEC_NULL && s->nr + (s->has_curr && s->curr_on_rq) > 1 &&
	    !c->null_picks[cl]++)
		spec_note(test, cl, s, "the first NULL pick with runnable entities", protect, on);
	if (ps != pc || pc != pr) {
		c->parity_bad[cl]++;
		spec_report(test, c, cl, s, "pick: stock C, C and Rust differ");
	}
	if (cl == SPEC_IN) {
		u32 got[3] = { ps, pc, pr };
		static const char * const side[3] = { "stock C", "C", "Rust" };
		u32 bad;
		int b;
		int k;

		for (k = 0; k < 3; k++) {
			bad = spec_pick_props(s, avg, protect, buddy, got[k], c->prop_checked);
			if (!bad)
				continue;
			c->prop_bad[cl]++;
			for (b = 0; b < SPEC_NR_PROPS && c->printed[cl] < 5; b++)
				if (bad & BIT(b))
					kunit_info(test, "protect %d buddy %d: %s picked %#x, which breaks %s\n",
						   protect, on, side[k], got[k], spec_prop_name[b]);
			spec_report(test, c, cl, s, "pick: breaks a property");
		}
	}
	if (!(ps & want) || !(pc & want) || !(pr & want)) {
		c->pick_bad[cl]++;
		if (c->printed[cl] < 5)
			kunit_info(test, "protect %d buddy %d: spec %#x (rule %s) stock %#x C %#x Rust %#x\n",
				   protect, on, want, spec_rule_name[rule], ps, pc, pr);
		spec_report(test, c, cl, s, "pick: not one of the spec's");
	}
}

/*
 * Every next, protect and PICK_BUDDY on one runqueue with one curr. The
 * buddy is turned off per call by hiding it (pick_c_buddy()), so that a
 * next without PICK_BUDDY is a state of its own.
 */
static void spec_check_picks(struct kunit *test, struct spec_counts *c, enum spec_class cl,
			     struct spec_rq *s, const struct spec_avg *avg,
			     const struct spec_avg *exact, bool feat_buddy)
{
	struct fair_kunit_rq *f = test->priv;
	struct cfs_rq *cfs_rq = &f->rq->cfs;
	int next, protect, on;

	for (protect = 0; protect < 2; protect++) {
		for (next = -1; next < (int)s->nr; next++) {
			s->next = next;
			cfs_rq->next = next >= 0 ? &f->se[next] : NULL;
			for (on = 1; on >= 0; on--) {
				if (!on && next < 0)
					break;
				spec_check_pick(test, c, cl, s, avg, exact, protect, on,
						on && feat_buddy);
			}
		}
	}
	s->next = -1;
	cfs_rq->next = NULL;
}

/*
 * Distinct states. Two insertion orders of one multiset can build the same
 * tree (the same entities with the same links and colours), and then every
 * state on it is one already checked. A tree's code: its number of
 * entities in the top bits, then each node in preorder as its row (7
 * bits), its slice (2), its colour and which children it has, 12 bits a
 * node: five nodes fit 63 bits, so two trees have one code only if they
 * are the same tree. Each entity's slice follows its insertion index
 * (spec_build()), so that every insertion order builds a tree of its own;
 * the pick reads neither the slices nor the colours, so the codes are kept
 * twice: whole (SPEC_WHOLE) and without them (SPEC_PICK: the states as
 * the pick sees them). The codes of one v0 and sum_shift are kept in open-addressing
 * sets twice the size of the scope's runqueues; each new code adds the
 * states checked on its tree.
 */
#define SPEC_CODE_NODE_BITS	12
#define SPEC_CODE_ROWS		128
#define SPEC_CODE_EMPTY		U64_MAX

enum { SPEC_WHOLE, SPEC_PICK, SPEC_NR_VIEWS };

struct spec_codes {
	u64 *slot[SPEC_NR_VIEWS];
	unsigned int bits;	/* each set has BIT(bits) slots */
	u64 trees[SPEC_NR_VIEWS], states[SPEC_NR_VIEWS];	/* distinct, over the scope */
	u64 trees_vh[SPEC_NR_VIEWS];	/* distinct, for the current v0 and sum_shift */
};

static u64 spec_code_node(const struct fair_kunit_rq *f, const struct spec_rq *s,
			  const struct rb_node *n, u64 code, bool whole)
{
	const struct sched_entity *se = rb_entry(n, struct sched_entity, run_node);
	unsigned int i = se - f->se;

	code = code << SPEC_CODE_NODE_BITS | (u64)s->row[i] << 5 |
	       (whole ? (se->slice & 3) << 3 | rb_is_red(n) << 2 : 0) |
	       !!n->rb_left << 1 | !!n->rb_right;
	if (n->rb_left)
		code = spec_code_node(f, s, n->rb_left, code, whole);
	if (n->rb_right)
		code = spec_code_node(f, s, n->rb_right, code, whole);
	return code;
}

/* The tree just built, into each view's set; @states: those checked on it. */
static void spec_code_add(struct spec_codes *t, const struct fair_kunit_rq *f,
			  const struct spec_rq *s, u64 states)
{
	const struct rb_node *root = f->rq->cfs.tasks_timeline.rb_root.rb_node;
	u64 mask = BIT_ULL(t->bits) - 1, code, h;
	unsigned int view;

	/* Every view's set or none (spec_codes_init()). */
	if (!t->slot[0])
		return;
	for (view = 0; view < SPEC_NR_VIEWS; view++) {
		u64 *slot = t->slot[view];

		code = (u64)s->nr << (SPEC_MAX_NR * SPEC_CODE_NODE_BITS);
		if (root)
			code |= spec_code_node(f, s, root, 0, view == SPEC_WHOLE);
		for (h = hash_64(code, t->bits); slot[h] != SPEC_CODE_EMPTY; h = (h + 1) & mask)
			if (slot[h] == code)
				break;
		if (slot[h] == code)
			continue;
		slot[h] = code;
		t->trees[view]++;
		t->trees_vh[view]++;
		t->states[view] += states;
	}
}

static const s64 spec_probes[] = {
	S64_MIN, S64_MIN + 1, -(1LL << 40), -1, 0, 1, 1LL << 40, S64_MAX,
};

/* One runqueue: its tree, then every curr and every pick on it. */
static noinline_for_stack void spec_check_rq(struct kunit *test, const struct spec_scope *sc,
					     struct spec_rq *s, unsigned int id,
					     struct spec_counts *c, struct spec_codes *t,
					     bool feat_buddy)
{
	struct fair_kunit_rq *f = test->priv;
	struct cfs_rq *cfs_rq = &f->rq->cfs;
	struct sched_entity *curr = &f->se[PARITY_MAX_SE];
	unsigned int i, j, nc = 2 + sc->nvprot * sc->ncurr;
	enum spec_class tcl = SPEC_IN;
	const char *why;

	for (i = 0; i < s->nr; i++)
		if (!spec_term_ok(s, &s->se[i]))
			tcl = SPEC_TERM;
	spec_build(f, s, c);
	c->trees++;
	spec_code_add(t, f, s, (u64)nc * 2 * (1 + 2 * s->nr));
	why = spec_check_tree(f, s, BIT(s->nr) - 1);
	if (why) {
		c->tree_bad[tcl]++;
		spec_report(test, c, tcl, s, why);
	}

	for (j = 0; j < nc; j++) {
		const struct spec_val *cv = &sc->curr[j < 2 ? 0 : (j - 2) / sc->nvprot];
		struct spec_avg avg, exact;
		enum spec_class cl;

		s->has_curr = j > 0;
		s->curr_on_rq = j > 1;
		s->curr = (struct spec_se){ cv->w, s->v0 + cv->k, s->v0 + cv->d };
		s->vprot = s->curr.v + (j < 2 ? 0 : spec_vprot[(j - 2) % sc->nvprot]);
		memset(curr, 0, sizeof(*curr));
		update_load_set(&curr->h_load, s->curr.w);
		curr->vruntime = s->curr.v;
		curr->deadline = s->curr.d;
		curr->vprot = s->vprot;
		curr->on_rq = s->curr_on_rq;
		cfs_rq->curr = s->has_curr ? curr : NULL;
		cfs_rq->h_nr_queued = s->nr + s->curr_on_rq;

		avg = spec_average(s, false);
		exact = spec_average(s, true);
		cl = spec_classify(s, &avg);
		if (avg.w) {
			for (i = 0; i < s->nr; i++)
				spec_check_eligible(test, c, cl, s, &avg, &exact, s->se[i].v);
			if (s->has_curr)
				spec_check_eligible(test, c, cl, s, &avg, &exact, s->curr.v);
			for (i = 0; i < ARRAY_SIZE(spec_probes); i++)
				spec_check_eligible(test, c, cl, s, &avg, &exact,
						    s->v0 + spec_probes[i]);
		}
		if (s->shift && cl == SPEC_IN)
			c->approx_states++;
		if (s->curr_on_rq && s->nr && cl == SPEC_IN)
			spec_check_ineligible(test, c, s);
		spec_check_picks(test, c, cl, s, &avg, &exact, feat_buddy);
	}
	s->has_curr = false;
	s->curr_on_rq = false;
	cfs_rq->curr = NULL;

	/* A tree operation: fair.c's __dequeue_entity() of one entity, then the same checks. */
	if (s->nr) {
		i = id % s->nr;
		__dequeue_entity(cfs_rq, &f->se[i]);
		why = spec_check_tree(f, s, (BIT(s->nr) - 1) & ~BIT(i));
		if (why) {
			c->tree_bad[tcl]++;
			spec_report(test, c, tcl, s, why);
		}
	}
}

/*
 * The runqueues are tuples of table rows: every insertion order of every
 * multiset, since the order shapes the tree the heap search walks. The
 * distinct sets of entities among them, for the report: the multisets of
 * up to max_nr rows, C(radix + nr - 1, nr) of each size.
 */
static u64 spec_scope_multisets(const struct spec_scope *sc)
{
	u64 total = 0, radix = sc->nw * sc->nk * sc->nd, c = 1;
	unsigned int nr;

	for (nr = 0; nr <= sc->max_nr; nr++) {
		if (nr)
			c = div64_u64(c * (radix + nr - 1), nr);
		total += c;
	}
	return total;
}

/* The number of states a scope enumerates, from its tables alone. */
static u64 spec_scope_states(const struct spec_scope *sc)
{
	u64 total = 0, rqs = 1, radix = sc->nw * sc->nk * sc->nd;
	unsigned int nr;

	for (nr = 0; nr <= sc->max_nr; nr++, rqs *= radix)
		total += rqs * sc->nv0 * sc->nshift * (2 + sc->nvprot * sc->ncurr) * 2 *
			 (1 + 2 * nr);
	return total;
}

static void spec_codes_free(struct spec_codes *t)
{
	unsigned int view;

	for (view = 0; view < SPEC_NR_VIEWS; view++) {
		kvfree(t->slot[view]);
		t->slot[view] = NULL;
	}
}

/* The distinct trees' sets, for a scope; none (not counted) when they cannot be. */
static bool spec_codes_init(struct spec_codes *t, const struct spec_scope *sc)
{
	u64 radix = sc->nw * sc->nk * sc->nd, rqs = 1, all = 0;
	unsigned int nr, view;

	memset(t, 0, sizeof(*t));
	if (radix > SPEC_CODE_ROWS || sc->max_nr > SPEC_MAX_NR)
		return false;
	for (nr = 0; nr <= sc->max_nr; nr++, rqs *= radix)
		all += rqs;
	t->bits = ilog2(roundup_pow_of_two(2 * all));
	for (view = 0; view < SPEC_NR_VIEWS; view++) {
		t->slot[view] = kvmalloc_array(BIT_ULL(t->bits), sizeof(u64), GFP_KERNEL);
		if (!t->slot[view]) {
			spec_codes_free(t);
			return false;
		}
	}
	return true;
}

/* Every set of entities built at least one tree of its own, in each view. */
static bool spec_codes_cover(struct kunit *test, const struct spec_scope *sc,
			     const struct spec_codes *t)
{
	unsigned int view;

	if (!t->slot[SPEC_PICK])
		return true;
	for (view = 0; view < SPEC_NR_VIEWS; view++) {
		if (t->trees_vh[view] < spec_scope_multisets(sc)) {
			KUNIT_FAIL(test,
				   "scope %s: %llu distinct trees, fewer than its %llu sets of entities",
				   sc->name, t->trees_vh[view], spec_scope_multisets(sc));
			return false;
		}
	}
	return true;
}

static noinline_for_stack void spec_run_scope(struct kunit *test, const struct spec_scope *sc,
					      struct spec_counts *c, struct spec_codes *t,
					      bool feat_buddy)
{
	u64 radix = sc->nw * sc->nk * sc->nd, rqs, id;
	struct spec_rq s = { .next = -1 };
	unsigned int nr, i, v, h;

	for (v = 0; v < sc->nv0; v++) {
		for (h = 0; h < sc->nshift; h++) {
			s.v0 = sc->v0[v];
			s.shift = sc->shift[h];
			for (i = 0; i < SPEC_NR_VIEWS; i++) {
				if (t->slot[i])
					memset(t->slot[i], 0xff, BIT_ULL(t->bits) * sizeof(u64));
				t->trees_vh[i] = 0;
			}
			for (nr = 0, rqs = 1; nr <= sc->max_nr; nr++, rqs *= radix) {
				s.nr = nr;
				for (id = 0; id < rqs; id++) {
					u64 digits = id;

					for (i = 0; i < nr; i++, digits /= radix) {
						unsigned int e = digits % radix;

						s.row[i] = e;
						s.se[i].w = sc->w[e % sc->nw];
						s.se[i].v = s.v0 + sc->k[e / sc->nw % sc->nk];
						s.se[i].d = s.v0 + e / sc->nw / sc->nk;
					}
					spec_check_rq(test, sc, &s, id, c, t, feat_buddy);
					if (test->status == KUNIT_FAILURE &&
					    c->printed[SPEC_IN] >= 5)
						return;
					cond_resched();
				}
			}
			if (!spec_codes_cover(test, sc, t))
				return;
		}
	}
}

/* The 128-bit helpers on values whose products are known. */
static void sched_rust_spec_arith_test(struct kunit *test)
{
	static const struct {
		s64 k;
		u64 w, hi, lo;
	} v[] = {
		{ 0, 88761 << 10, 0, 0 },
		{ -1, 1, U64_MAX, U64_MAX },
		{ S64_MIN, 2, U64_MAX, 0 },
		{ S64_MIN, 1, U64_MAX, 1ULL << 63 },
		{ S64_MAX, 3, 1, 0x7ffffffffffffffdULL },
		{ 1LL << 35, 88761 << 10, 0, (88761ULL << 10) << 35 },
		{ -(1LL << 40), U32_MAX, 0xffffffffffffff00ULL, 1ULL << 40 },
		{ 0x123456789abcdefLL, 0xfedcba98, 0x121fa00, 0xacf13578ad05ebe8ULL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		struct spec_s128 p = s128_mul(v[i].k, v[i].w);

		KUNIT_EXPECT_EQ_MSG(test, p.hi, v[i].hi, "%lld * %llu", v[i].k, v[i].w);
		KUNIT_EXPECT_EQ_MSG(test, p.lo, v[i].lo, "%lld * %llu", v[i].k, v[i].w);
	}
	KUNIT_EXPECT_EQ(test, s128_cmp(s128_of(-1), s128_of(0)), -1);
	KUNIT_EXPECT_EQ(test, s128_cmp(s128_mul(S64_MAX, 2), s128_of(S64_MAX)), 1);
	KUNIT_EXPECT_EQ(test, s128_cmp(s128_mul(S64_MIN, 2), s128_of(S64_MIN)), -1);
	KUNIT_EXPECT_EQ(test, s128_cmp(s128_add(s128_of(-5), s128_of(5)), s128_of(0)), 0);
	KUNIT_EXPECT_TRUE(test, s128_in(s128_of(S64_MIN), S64_MIN, 0));
	KUNIT_EXPECT_FALSE(test, s128_in(s128_mul(S64_MIN, 2), S64_MIN, 0));
#ifdef CONFIG_ARCH_SUPPORTS_INT128
	/* Where the compiler has 128-bit integers, against them too. */
	for (i = 0; i < 4096; i++) {
		s64 k = (s64)(((u64)i * 0x9e3779b97f4a7c15ULL) ^ ((u64)i << 50));
		u64 w = (i * 2654435761U) % (U32_MAX - 1) + 1;
		__int128 p = (__int128)k * w;
		struct spec_s128 q = s128_mul(k, w);

		KUNIT_EXPECT_EQ_MSG(test, q.lo, (u64)p, "%lld * %llu", k, w);
		KUNIT_EXPECT_EQ_MSG(test, q.hi, (u64)(p >> 64), "%lld * %llu", k, w);
		if (test->status == KUNIT_FAILURE)
			break;
	}
#endif
}

/*
 * The exhaustive test's report and verdicts, each in a function of its own
 * (as the enumeration and the check of a runqueue are): every kunit_info()
 * and KUNIT_EXPECT_*() keeps its arguments in the frame, and with all of it
 * inlined the test's frame passed CONFIG_FRAME_WARN (1280 bytes) in a KASAN
 * build (1368 bytes).
 */
static noinline_for_stack void spec_exhaustive_report(struct kunit *test,
						      const struct spec_counts *c)
{
	unsigned int i;

	kunit_info(test, "%llu states (%llu runqueues built, %llu eligibility queries) in %llu ms; distinct: %llu states on %llu trees, as the pick sees them %llu on %llu\n",
		   c->states, c->trees, c->queries, div_u64(c->ns, NSEC_PER_MSEC),
		   c->distinct_states, c->distinct_trees, c->pick_states, c->pick_trees);
	kunit_info(test, "in the domain, (v - v0) * W beyond s64 (check_mul_overflow() without int128): %llu queries\n",
		   c->mul_overflow);
	for (i = 0; i < SPEC_NR_CLASSES; i++)
		kunit_info(test, "%s: %llu states; spec disagreements: %llu picks, %llu eligibility; implementations differ: %llu; NULL picks: %llu; tree: %llu\n",
			   spec_class_name[i], c->states_class[i], c->pick_bad[i], c->elig_bad[i],
			   c->parity_bad[i], c->null_picks[i], c->tree_bad[i]);
	kunit_info(test, "sum_shift > 0: %llu states; the exact weights' answer differs in %llu eligibility queries, %llu picks\n",
		   c->approx_states, c->approx_elig, c->approx_pick);
	kunit_info(test, "terms beyond 2^62 that __sum_w_vruntime_add()'s WARN misses: %llu\n",
		   c->warn_missed);
	kunit_info(test, "ineligible_vruntime(): %llu states, %llu not the spec's\n",
		   c->ineligible, c->ineligible_bad);
	for (i = 0; i < SPEC_NR_PROPS; i++)
		kunit_info(test, "property %s: applied to %llu picks\n", spec_prop_name[i],
			   c->prop_checked[i]);
	kunit_info(test, "in the domain, picks that break a property: %llu\n",
		   c->prop_bad[SPEC_IN]);
}

static noinline_for_stack void spec_exhaustive_check(struct kunit *test,
						     const struct spec_counts *c, u64 expect)
{
	unsigned int i;

	/* A check that enumerated nothing, or not the whole scope, is no pass. */
	KUNIT_EXPECT_GT(test, c->states, 0);
	KUNIT_EXPECT_EQ(test, c->states, expect);
	/* The distinct states, counted in every scope: some, and no more than the states. */
	KUNIT_EXPECT_EQ(test, c->codes_off, 0);
	KUNIT_EXPECT_GT(test, c->distinct_states, 0);
	KUNIT_EXPECT_LE(test, c->distinct_states, c->states);
	KUNIT_EXPECT_LE(test, c->distinct_trees, c->trees);
	KUNIT_EXPECT_GT(test, c->pick_states, 0);
	KUNIT_EXPECT_LE(test, c->pick_states, c->distinct_states);
	KUNIT_EXPECT_EQ(test, c->pick_bad[SPEC_IN], 0);
	KUNIT_EXPECT_EQ(test, c->prop_bad[SPEC_IN], 0);
	/* Every property applied to some pick: none is vacuous in this scope. */
	for (i = 0; i < SPEC_NR_PROPS; i++)
		KUNIT_EXPECT_GT_MSG(test, c->prop_checked[i], 0, "%s", spec_prop_name[i]);
	KUNIT_EXPECT_EQ(test, c->elig_bad[SPEC_IN], 0);
	KUNIT_EXPECT_EQ(test, c->tree_bad[SPEC_IN], 0);
	KUNIT_EXPECT_EQ(test, c->null_picks[SPEC_IN], 0);
	KUNIT_EXPECT_EQ(test, c->ineligible_bad, 0);
	KUNIT_EXPECT_GT(test, c->ineligible, 0);
	/* The implementations claim parity on every state, in the domain or not. */
	for (i = 0; i < SPEC_NR_CLASSES; i++)
		KUNIT_EXPECT_EQ_MSG(test, c->parity_bad[i], 0, "%s", spec_class_name[i]);
	/* Each class was reached: a scope that never leaves the domain tests less. */
	for (i = 0; i < SPEC_NR_CLASSES; i++)
		KUNIT_EXPECT_GT_MSG(test, c->states_class[i], 0, "%s", spec_class_name[i]);
	KUNIT_EXPECT_GT(test, c->approx_states, 0);
	KUNIT_EXPECT_GT(test, c->mul_overflow, 0);
}

static void sched_rust_spec_exhaustive_test(struct kunit *test)
{
	const struct spec_scope *scopes = spec_full ? spec_scopes_full : spec_scopes_ci;
	unsigned int i, n = spec_full ? ARRAY_SIZE(spec_scopes_full) : ARRAY_SIZE(spec_scopes_ci);
	bool feat_buddy = sched_feat(PICK_BUDDY);
	struct spec_counts *c;
	u64 expect = 0, t0;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	kunit_info(test, "%s scope (sched_rust_spec_full=%d), PICK_BUDDY %d, eligibility by %s\n",
		   spec_full ? "full" : "CI", spec_full, feat_buddy,
		   IS_ENABLED(CONFIG_ARCH_SUPPORTS_INT128) ? "the 128-bit product (int128)" :
		   "check_mul_overflow() (no int128)");
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		u64 before = c->states;
		struct spec_codes t;
		bool coded;

		expect += spec_scope_states(&scopes[i]);
		coded = spec_codes_init(&t, &scopes[i]);
		spec_run_scope(test, &scopes[i], c, &t, feat_buddy);
		if (coded) {
			kunit_info(test, "scope %s: up to %u entities, %llu states; distinct: %llu (%llu trees), as the pick sees them (slices and colours aside) %llu (%llu trees); %llu sets of entities\n",
				   scopes[i].name, scopes[i].max_nr, c->states - before,
				   t.states[SPEC_WHOLE], t.trees[SPEC_WHOLE], t.states[SPEC_PICK],
				   t.trees[SPEC_PICK], spec_scope_multisets(&scopes[i]));
			c->distinct_trees += t.trees[SPEC_WHOLE];
			c->distinct_states += t.states[SPEC_WHOLE];
			c->pick_trees += t.trees[SPEC_PICK];
			c->pick_states += t.states[SPEC_PICK];
		} else {
			kunit_info(test, "scope %s: up to %u entities, %llu states; distinct states not counted (no memory for the sets, or rows beyond a code)\n",
				   scopes[i].name, scopes[i].max_nr, c->states - before);
			c->codes_off++;
		}
		spec_codes_free(&t);
	}
	c->ns = ktime_get_ns() - t0;
	spec_exhaustive_report(test, c);
	spec_exhaustive_check(test, c, expect);
}

#ifdef CONFIG_SCHED_CACHE
/*
 * The LLC occupancy accounting, as the comments of fair.c define it: a
 * runqueue counts in nr_llc_running its queued tasks that have a preferred
 * LLC, in nr_pref_llc_running those queued on their preferred LLC and
 * runnable (not delayed), and its domain counts in llc_counts[i] its queued
 * tasks that prefer LLC i (i < llc_max). A domain rebuild zeroes
 * llc_counts[]: from then on "a temporary undercount" is allowed, 0 <=
 * llc_counts[i] <= the true count, until no queued task prefers i. Each
 * task's pref_llc_queued says it was enqueued on its preferred LLC.
 *
 * Every sequence of SPEC_LLC_OPS_FULL operations (SPEC_LLC_OPS in the CI
 * slice) over two tasks, each operation one of: enqueue, dequeue,
 * set_delayed(), clear_delayed(), a new preference (none, either CPU's
 * LLC, one beyond llc_max; through a dequeue and an enqueue when queued,
 * as account_mm_sched() does), a move to the other CPU (a migration, or
 * task_llc() changing under a queued task), and a domain rebuild; the C
 * and the Rust accounting each on its own runqueue, both against the
 * specification after every operation.
 */
#define SPEC_LLC_TASKS		2
#define SPEC_LLC_OPS		3
#define SPEC_LLC_OPS_FULL	6
#define SPEC_LLC_TASK_OPS	9
#define SPEC_LLC_ALPHABET	(SPEC_LLC_TASKS * SPEC_LLC_TASK_OPS + 1)

struct spec_llc_task {
	bool queued, delayed;
	int pref;		/* preferred_llc now */
	int enq_pref;		/* preferred_llc at the enqueue */
	bool on_pref;		/* enqueued on its preferred LLC */
	int cpu;
};

struct spec_llc {
	struct llc_side side[2];	/* C, Rust */
	struct spec_llc_task t[SPEC_LLC_TASKS];
	bool inexact[LLC_MAX_IDS + 1];
	int cpu[2];
	int llc[2];			/* their LLC ids */
	unsigned int max;		/* llc_max */
	u64 steps, undercounts, moved_queued;
};

static void spec_llc_reset(struct spec_llc *l)
{
	int k, t;

	for (k = 0; k < 2; k++) {
		struct llc_side *s = &l->side[k];

		s->rq->nr_llc_running = 0;
		s->rq->nr_pref_llc_running = 0;
		memset(s->sd->llc_counts, 0, l->max * sizeof(unsigned int));
		for (t = 0; t < SPEC_LLC_TASKS; t++) {
			s->p[t]->preferred_llc = -1;
			s->p[t]->pref_llc_queued = 0;
			s->p[t]->se.sched_delayed = 0;
			WRITE_ONCE(task_thread_info(s->p[t])->cpu, l->cpu[0]);
		}
	}
	memset(l->t, 0, sizeof(l->t));
	memset(l->inexact, 0, sizeof(l->inexact));
	for (t = 0; t < SPEC_LLC_TASKS; t++)
		l->t[t].pref = -1;
}

static void spec_llc_enqueue(struct spec_llc *l, int t)
{
	struct spec_llc_task *m = &l->t[t];
	int k;

	for (k = 0; k < 2; k++) {
		l->side[k].p[t]->se.sched_delayed = 0;
		llc_enqueue(k, &l->side[k], t);
	}
	m->queued = true;
	m->delayed = false;
	m->enq_pref = m->pref;
	m->on_pref = m->pref >= 0 && m->pref == l->llc[m->cpu];
}

static void spec_llc_dequeue(struct spec_llc *l, int t)
{
	struct spec_llc_task *m = &l->t[t];
	int k;

	for (k = 0; k < 2; k++) {
		llc_dequeue(k, &l->side[k], t);
		if (m->delayed) {
			/* DEQUEUE_DELAYED, then clear_delayed(). */
			l->side[k].p[t]->se.sched_delayed = 0;
			llc_pref_running(k, &l->side[k], t, true);
		}
	}
	m->queued = false;
	m->delayed = false;
}

static void spec_llc_op(struct spec_llc *l, unsigned int op)
{
	static const int prefs[] = { -1, 0, 1, 2 };	/* none, LLC of cpu[0], cpu[1], beyond */
	int t = op / SPEC_LLC_TASK_OPS, k, i;
	struct spec_llc_task *m = &l->t[t];
	bool queued;

	if (op == SPEC_LLC_ALPHABET - 1) {
		/* A domain rebuild: the counts come back zeroed. */
		for (k = 0; k < 2; k++)
			memset(l->side[k].sd->llc_counts, 0, l->max * sizeof(unsigned int));
		for (i = 0; i < SPEC_LLC_TASKS; i++)
			if (l->t[i].queued && l->t[i].enq_pref >= 0 &&
			    l->t[i].enq_pref < l->max)
				l->inexact[l->t[i].enq_pref] = true;
		return;
	}
	switch (op % SPEC_LLC_TASK_OPS) {
	case 0:
		if (!m->queued)
			spec_llc_enqueue(l, t);
		break;
	case 1:
		if (m->queued)
			spec_llc_dequeue(l, t);
		break;
	case 2:	/* set_delayed() */
		if (!m->queued || m->delayed)
			break;
		for (k = 0; k < 2; k++) {
			llc_pref_running(k, &l->side[k], t, false);
			l->side[k].p[t]->se.sched_delayed = 1;
		}
		m->delayed = true;
		break;
	case 3:	/* clear_delayed() */
		if (!m->queued || !m->delayed)
			break;
		for (k = 0; k < 2; k++) {
			l->side[k].p[t]->se.sched_delayed = 0;
			llc_pref_running(k, &l->side[k], t, true);
		}
		m->delayed = false;
		break;
	case 4 ... 7:	/* a new preference; account_mm_sched() requeues */
		if (m->delayed)
			break;
		i = prefs[op % SPEC_LLC_TASK_OPS - 4];
		i = i < 0 ? -1 : i < 2 ? l->llc[i] : l->max;
		queued = m->queued;
		if (queued)
			spec_llc_dequeue(l, t);
		for (k = 0; k < 2; k++)
			WRITE_ONCE(l->side[k].p[t]->preferred_llc, i);
		m->pref = i;
		if (queued)
			spec_llc_enqueue(l, t);
		break;
	case 8:	/* to the other CPU: task_llc() changes, queued or not */
		m->cpu = !m->cpu;
		l->moved_queued += m->queued;
		for (k = 0; k < 2; k++)
			WRITE_ONCE(task_thread_info(l->side[k].p[t])->cpu, l->cpu[m->cpu]);
		break;
	}
}

/* The specification's counters against each side's; the first miss described. */
static bool spec_llc_check(struct kunit *test, struct spec_llc *l, const u8 *ops, int n)
{
	static const char * const side[] = { "C", "Rust" };
	unsigned int llc_running = 0, pref_running = 0, i;
	const char *why = NULL;
	int k, t;

	for (t = 0; t < SPEC_LLC_TASKS; t++) {
		llc_running += l->t[t].queued && l->t[t].enq_pref >= 0;
		pref_running += l->t[t].queued && !l->t[t].delayed && l->t[t].on_pref;
	}
	for (i = 0; i < l->max; i++) {
		unsigned int exact = 0;

		for (t = 0; t < SPEC_LLC_TASKS; t++)
			exact += l->t[t].queued && l->t[t].enq_pref == i;
		if (!exact)
			l->inexact[i] = false;
		for (k = 0; k < 2 && !why; k++) {
			unsigned int got = l->side[k].sd->llc_counts[i];

			if (l->inexact[i] ? got > exact : got != exact)
				why = "llc_counts[]";
			l->undercounts += got < exact;
		}
	}
	for (k = 0; k < 2 && !why; k++) {
		struct llc_side *s = &l->side[k];

		if (s->rq->nr_llc_running != llc_running)
			why = "nr_llc_running";
		else if (s->rq->nr_pref_llc_running != pref_running)
			why = "nr_pref_llc_running";
		else if (s->sd->llc_counts[l->max] != LLC_GUARD)
			why = "the slot after llc_counts[llc_max - 1]";
		for (t = 0; t < SPEC_LLC_TASKS && !why; t++)
			if (!!s->p[t]->pref_llc_queued != (l->t[t].queued && l->t[t].on_pref))
				why = "pref_llc_queued";
	}
	l->steps++;
	if (!why)
		return true;
	KUNIT_FAIL(test, "%s is not the spec's after operations %*ph (%d: rebuild)",
		   why, n, ops, SPEC_LLC_ALPHABET - 1);
	for (k = 0; k < 2; k++)
		kunit_info(test, "%s: nr_llc_running %u (spec %u), nr_pref_llc_running %u (spec %u), llc_counts %*ph\n",
			   side[k], l->side[k].rq->nr_llc_running, llc_running,
			   l->side[k].rq->nr_pref_llc_running, pref_running,
			   (int)(l->max * sizeof(unsigned int)), l->side[k].sd->llc_counts);
	return false;
}

static void sched_rust_spec_llc_test(struct kunit *test)
{
	int len = spec_full ? SPEC_LLC_OPS_FULL : SPEC_LLC_OPS;
	struct spec_llc *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	u64 seq, nseq = 1, expect = 0, t0;
	u8 ops[SPEC_LLC_OPS_FULL];
	int k, t, i;

	KUNIT_ASSERT_NOT_NULL(test, l);
	/*
	 * Two CPUs, the first and the last online, in two LLCs: the x86_64
	 * CI's two sockets; on UML, which has no cache topology, every CPU is
	 * an LLC of its own (its sd_llc_id is its number).
	 */
	l->cpu[0] = cpumask_first(cpu_online_mask);
	l->cpu[1] = cpumask_last(cpu_online_mask);
	KUNIT_ASSERT_NE_MSG(test, l->cpu[0], l->cpu[1], "the LLC test needs two CPUs");
	for (k = 0; k < 2; k++) {
		l->llc[k] = llc_id(l->cpu[k]);
		KUNIT_ASSERT_GE(test, l->llc[k], 0);
		KUNIT_ASSERT_LT(test, l->llc[k], LLC_MAX_IDS);
	}
	KUNIT_ASSERT_NE_MSG(test, l->llc[0], l->llc[1], "the LLC test needs two LLCs");
	l->max = max(l->llc[0], l->llc[1]) + 1;
	for (k = 0; k < 2; k++) {
		struct llc_side *s = &l->side[k];

		s->rq = kunit_kzalloc(test, sizeof(*s->rq), GFP_KERNEL);
		s->sd = kunit_kzalloc(test, sizeof(*s->sd), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, s->rq);
		KUNIT_ASSERT_NOT_NULL(test, s->sd);
		raw_spin_lock_init(&s->rq->__lock);
		RCU_INIT_POINTER(s->rq->sd, s->sd);
		s->sd->llc_counts = kunit_kcalloc(test, l->max + 1, sizeof(unsigned int),
						  GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, s->sd->llc_counts);
		s->sd->llc_counts[l->max] = LLC_GUARD;
		s->sd->llc_max = l->max;
		for (t = 0; t < SPEC_LLC_TASKS; t++) {
			s->p[t] = kunit_kzalloc(test, sizeof(*s->p[t]), GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, s->p[t]);
		}
	}
	kunit_info(test, "CPUs %d and %d, LLCs %d and %d, llc_max %u, sequences of %d operations\n",
		   l->cpu[0], l->cpu[1], l->llc[0], l->llc[1], l->max, len);

	for (i = 0; i < len; i++) {
		nseq *= SPEC_LLC_ALPHABET;
		expect += nseq;
	}
	t0 = ktime_get_ns();
	for (seq = 0; seq < nseq; seq++) {
		u64 digits = seq;

		spec_llc_reset(l);
		for (i = 0; i < len; i++, digits /= SPEC_LLC_ALPHABET)
			ops[i] = digits % SPEC_LLC_ALPHABET;
		/* Every prefix is checked; a sequence's prefixes are sequences too. */
		for (i = 0; i < len; i++) {
			/*
			 * The accounting reads rq->sd under RCU; the check and
			 * its report (which allocates) run outside it.
			 */
			scoped_guard(rcu)
				spec_llc_op(l, ops[i]);
			if (!spec_llc_check(test, l, ops, i + 1))
				goto out;
		}
	}
out:
	/* Distinct states: each prefix of length i counted once. */
	kunit_info(test, "%llu sequences, %llu steps checked (%llu distinct prefixes) in %llu ms; %llu undercounts after a rebuild, %llu moves of a queued task\n",
		   seq, l->steps, expect, div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC),
		   l->undercounts, l->moved_queued);
	KUNIT_EXPECT_EQ(test, l->steps, nseq * len);
	KUNIT_EXPECT_GT(test, l->undercounts, 0);
	KUNIT_EXPECT_GT(test, l->moved_queued, 0);
}

/*
 * The epoch decay against its closed form. fair.c's comments define it: a
 * runqueue's epochs are llc_epoch_period jiffies long (0 counts as 1), its
 * clock cpu_epoch counts those that have ended and cpu_epoch_next is where
 * the next one ends; "runtime is a geometric series (r=0.5)": cpu_runtime,
 * and a process's runtime on that CPU, are halved once per epoch that ended
 * since they were last brought up to date, the process's entry catching up
 * with the runqueue's epoch when it is updated; account_mm_sched() adds the
 * time run after the update.
 *
 * Closed form: from cpu_epoch_next = E and a period p, once the clock has
 * moved T jiffies the epochs that ended are those whose ends E + j * p
 * (j >= 0) lie below E + T: ceil(T / p) of them, whatever updates came in
 * between, so cpu_epoch and cpu_epoch_next follow from E, p and T alone. A
 * runtime halved k times is floor(r / 2^k); the specification halves one
 * epoch at a time and stops when nothing is left.
 *
 * Every sequence of SPEC_DECAY_STEPS (SPEC_DECAY_STEPS_FULL) updates, each
 * after the clock moved by 0, 1, p, p + 1, 64 p or (2^32 + 1) p jiffies and
 * followed by 0 or 7 ns run, alternately the update alone and
 * fraction_mm_sched(), from initial states crossing the jiffies and epoch
 * wraps, with the process's entry 0 to 2^32 + 64 epochs behind; fair.c's C (with
 * this series' fix of __shr_u64()) and Rust each on their own runqueue, both against
 * the specification after every update.
 */
#define SPEC_DECAY_STEPS	2
#define SPEC_DECAY_STEPS_FULL	3
#define SPEC_DECAY_MOVES	6
#define SPEC_DECAY_CHOICES	(SPEC_DECAY_MOVES * 2)
#define SPEC_DECAY_FAR		((1ULL << 32) + 1)

/* @v halved @k times, one halving at a time. */
static u64 spec_halve(u64 v, u64 k)
{
	for (; k && v; k--)
		v /= 2;
	return v;
}

struct spec_decay {
	u64 steps, far_steps, frac_checked;
};

/* A runqueue's epoch clock and runtime, and one process's entry for its CPU. */
struct spec_decay_state {
	u64 epoch, next, cpu_runtime, t_epoch, t_runtime;
};

static void spec_decay_read(struct spec_decay_state *st, const struct rq *rq,
			    const struct sched_cache_time *t)
{
	st->epoch = rq->cpu_epoch;
	st->next = rq->cpu_epoch_next;
	st->cpu_runtime = rq->cpu_runtime;
	st->t_epoch = t->epoch;
	st->t_runtime = t->runtime;
}

static void spec_decay_write(const struct spec_decay_state *st, struct rq *rq,
			     struct sched_cache_time *t)
{
	rq->cpu_epoch = st->epoch;
	rq->cpu_epoch_next = st->next;
	rq->cpu_runtime = st->cpu_runtime;
	t->epoch = st->t_epoch;
	t->runtime = st->t_runtime;
}

/* The first field of @have that is not @want's, NULL if none. */
static const char *spec_decay_diff(const struct spec_decay_state *have,
				   const struct spec_decay_state *want, u64 *got, u64 *expected)
{
	static const char * const names[] = {
		"cpu_epoch", "cpu_epoch_next", "cpu_runtime", "the entry's epoch",
		"the entry's runtime",
	};
	const u64 *h = &have->epoch, *w = &want->epoch;
	int i;

	BUILD_BUG_ON(sizeof(*have) != ARRAY_SIZE(names) * sizeof(u64));
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (h[i] != w[i]) {
			*got = h[i];
			*expected = w[i];
			return names[i];
		}
	}
	return NULL;
}

static const unsigned int spec_decay_periods_ci[] = { 0, 3 };
static const unsigned int spec_decay_periods_full[] = { 0, 1, 3, 10 };
static const u64 spec_decay_epochs[] = { 7, ULONG_MAX };
static const u64 spec_decay_cpu_runtimes[] = { 0, 1000, 1ULL << 40 };
/*
 * 2^32 + 63 and 2^32 + 64 epochs: the edges of the window in which the old
 * __shr_u64() shift (gap modulo 2^32 below 64) halved instead of cleared.
 */
static const u64 spec_decay_gaps[] = {
	0, 1, 64, 1ULL << 32, SPEC_DECAY_FAR, (1ULL << 32) + 63, (1ULL << 32) + 64,
};

static const u64 spec_decay_runtimes[] = { 999, 1ULL << 40 };
#define SPEC_DECAY_STARTS						\
	(ARRAY_SIZE(spec_decay_epochs) * ARRAY_SIZE(spec_decay_cpu_runtimes) *	\
	 ARRAY_SIZE(spec_decay_gaps) * ARRAY_SIZE(spec_decay_runtimes))

/*
 * One sequence from start @start (an index into the tables' product) with
 * period @period, the moves and runs of @seq's digits; false on a failure.
 */
static bool spec_decay_sequence(struct kunit *test, struct spec_decay *d, struct rq *rc,
				struct rq *rr, unsigned int period, unsigned int start,
				u64 seq, int len)
{
	u64 p = max(period, 1U), T = 0, ended = 0;
	/* The clock starts at the end of an epoch, and crosses the jiffies wrap. */
	unsigned long e0 = ULONG_MAX - 2, now = e0;
	struct spec_decay_state st, got_c, got_r;
	struct sched_cache_time tc, tr;
	bool within, far = false;
	u64 gap, epoch0;
	int i;

	st.t_runtime = spec_decay_runtimes[start % ARRAY_SIZE(spec_decay_runtimes)];
	start /= ARRAY_SIZE(spec_decay_runtimes);
	gap = spec_decay_gaps[start % ARRAY_SIZE(spec_decay_gaps)];
	start /= ARRAY_SIZE(spec_decay_gaps);
	st.cpu_runtime = spec_decay_cpu_runtimes[start % ARRAY_SIZE(spec_decay_cpu_runtimes)];
	start /= ARRAY_SIZE(spec_decay_cpu_runtimes);
	epoch0 = spec_decay_epochs[start];
	st.epoch = epoch0;
	st.next = e0;
	st.t_epoch = epoch0 - gap;
	/* The entry, decayed, within the runqueue's runtime: its fraction at most 1. */
	within = spec_halve(st.t_runtime, gap) <= st.cpu_runtime;
	spec_decay_write(&st, rc, &tc);
	spec_decay_write(&st, rr, &tr);

	for (i = 0; i < len; i++, seq /= SPEC_DECAY_CHOICES) {
		u64 moves[SPEC_DECAY_MOVES] = { 0, 1, p, p + 1, 64 * p, SPEC_DECAY_FAR * p };
		unsigned int c = seq % SPEC_DECAY_CHOICES;
		u64 run = c & 1 ? 7 : 0, now_ended, k, got = 0, want = 0;
		unsigned long fc = 0, fr = 0;
		bool fraction = i & 1;
		const char *why;

		T += moves[c / 2];
		now += moves[c / 2];

		/* The closed form: ceil(T / p) epochs ended since the start. */
		now_ended = T ? div64_u64(T + p - 1, p) : 0;
		k = now_ended - ended;
		far |= k >= (1ULL << 32);
		ended = now_ended;
		st.epoch = epoch0 + ended;
		st.next = e0 + ended * p;
		st.cpu_runtime = spec_halve(st.cpu_runtime, k);
		k = st.epoch - st.t_epoch;
		far |= k >= (1ULL << 32);
		st.t_epoch = st.epoch;
		st.t_runtime = spec_halve(st.t_runtime, k);

		fc = llc_update_c(rc, &tc, now, period, fraction);
		scoped_guard(raw_spinlock, &rr->cpu_epoch_lock) {
			if (fraction)
				fr = sched_rust_fraction_mm_sched(rr, &tr, now, period);
			else
				sched_rust_update_mm_sched(rr, &tr, now, period);
		}
		spec_decay_read(&got_c, rc, &tc);
		spec_decay_read(&got_r, rr, &tr);

		/* The implementations agree with each other everywhere. */
		KUNIT_EXPECT_NULL(test, spec_decay_diff(&got_r, &got_c, &got, &want));
		KUNIT_EXPECT_EQ(test, fc, fr);

		/* Both against the specification. */
		why = spec_decay_diff(&got_c, &st, &got, &want);
		if (!why)
			why = spec_decay_diff(&got_r, &st, &got, &want);
		if (fraction && !why) {
			u64 f = div64_u64(NICE_0_LOAD * st.t_runtime, st.cpu_runtime + 1);

			if (fc != f) {
				why = "the fraction";
				got = fc;
				want = f;
			}
			d->frac_checked++;
		}

		/* account_mm_sched(): the time run, added after the update. */
		st.cpu_runtime += run;
		st.t_runtime += run;
		rc->cpu_runtime += run;
		rr->cpu_runtime += run;
		tc.runtime += run;
		tr.runtime += run;

		d->steps++;
		d->far_steps += far;
		if (why) {
			KUNIT_FAIL(test, "%s: %llu, the spec's %llu (period %u, step %d%s)",
				   why, got, want, period, i,
				   far ? ", after an epoch count of 2^32 or more" : "");
			return false;
		}
		if (fraction && within && fc > NICE_0_LOAD) {
			KUNIT_FAIL(test, "a fraction above NICE_0_LOAD: %lu", fc);
			return false;
		}
	}
	return true;
}

static void sched_rust_spec_decay_test(struct kunit *test)
{
	const unsigned int *periods = spec_full ? spec_decay_periods_full : spec_decay_periods_ci;
	unsigned int np = spec_full ? ARRAY_SIZE(spec_decay_periods_full) :
				      ARRAY_SIZE(spec_decay_periods_ci);
	int len = spec_full ? SPEC_DECAY_STEPS_FULL : SPEC_DECAY_STEPS;
	unsigned int saved_period = READ_ONCE(llc_epoch_period);
	struct spec_decay d = {};
	u64 nseq = 1, seq, t0;
	unsigned int ip, start;
	struct rq *rc, *rr;
	int i;

	rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);
	rr = kunit_kzalloc(test, sizeof(*rr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rc);
	KUNIT_ASSERT_NOT_NULL(test, rr);
	raw_spin_lock_init(&rc->cpu_epoch_lock);
	raw_spin_lock_init(&rr->cpu_epoch_lock);
	for (i = 0; i < len; i++)
		nseq *= SPEC_DECAY_CHOICES;

	t0 = ktime_get_ns();
	for (ip = 0; ip < np; ip++) {
		for (start = 0; start < SPEC_DECAY_STARTS; start++) {
			for (seq = 0; seq < nseq; seq++)
				if (!spec_decay_sequence(test, &d, rc, rr, periods[ip], start,
							 seq, len))
					goto out;
		}
	}
out:
	WRITE_ONCE(llc_epoch_period, saved_period);
	kunit_info(test, "%llu updates checked in %llu ms (%llu fractions), %llu after an epoch count of 2^32 or more\n",
		   d.steps, div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC), d.frac_checked,
		   d.far_steps);
	KUNIT_EXPECT_EQ(test, d.steps, (u64)np * SPEC_DECAY_STARTS * nseq * len);
	KUNIT_EXPECT_GT(test, d.frac_checked, 0);
	/* The epoch counts that do not fit 32 bits were checked. */
	KUNIT_EXPECT_GT(test, d.far_steps, 0);
}
#endif /* CONFIG_SCHED_CACHE */

static struct kunit_case sched_rust_spec_cases[] = {
	KUNIT_CASE(sched_rust_spec_arith_test),
	KUNIT_CASE_SLOW(sched_rust_spec_exhaustive_test),
#ifdef CONFIG_SCHED_CACHE
	KUNIT_CASE_SLOW(sched_rust_spec_llc_test),
	KUNIT_CASE_SLOW(sched_rust_spec_decay_test),
#endif
	{}
};

static struct kunit_suite sched_rust_spec_suite = {
	.name = "sched_rust_spec",
	.init = eevdf_fixture_init,
	.exit = eevdf_fixture_exit,
	.test_cases = sched_rust_spec_cases,
};

kunit_test_suite(sched_rust_spec_suite);
