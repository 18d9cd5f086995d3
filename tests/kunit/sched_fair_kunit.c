// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit guard of the parts of fair.c that exist in C and, with
 * CONFIG_SCHED_RUST_CFS, in Rust: the EEVDF pick and its eligibility test,
 * the LLC epoch decay, the LLC occupancy accounting and the group state's
 * allocation. Whichever implementation the kernel has must give the
 * answers below.
 *
 * A kernel has one implementation, so the pick and the decay are checked
 * against what both gave when this file was written: a fixed sequence of
 * runqueue states built with the real __enqueue_entity() (the same states
 * on every architecture and boot: a fixed seed), whose answers from
 * pick_eevdf() and entity_eligible() are folded into a digest per block of
 * states (the decay: its own states, one digest). A change to either
 * implementation that changes an answer fails the suite on the block of
 * the first state that differs, on the kernel with that implementation; an
 * intended change updates the digests, and the other implementation then
 * fails until it follows. sched_fair_kunit_dump=<block> prints every
 * answer of one block of the pick, to compare the two kernels line by
 * line. The LLC accounting's figures depend on the machine's LLC ids, so
 * its case checks every counter after every operation against a model of
 * C's rules instead; the group state's case checks every byte of each
 * CPU's state against what the allocation must write.
 *
 * Included at the end of fair.c, whose functions under test are static.
 */
#include <kunit/test.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>

#include "sched_fair_kunit.h"

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

/*
 * One runqueue state: up to FAIR_KUNIT_MAX_SE entities queued with
 * __enqueue_entity(), keys near and far from zero_vruntime (which is near
 * the u64 wrap at times), sum_shift at times, curr on or off the runqueue
 * or none, protected or not, a next buddy at times, ties of deadlines.
 * Returns the number of entities in the tree.
 */
static unsigned int fair_kunit_build(struct fair_kunit_rq *f)
{
	struct cfs_rq *cfs_rq = fair_kunit_rq_reset(f);
	struct sched_entity *curr = &f->se[FAIR_KUNIT_MAX_SE];
	s64 range = 1LL << (10 + fair_kunit_below(f, 25));
	bool ties = !fair_kunit_below(f, 16);
	unsigned int i, nr;
	bool has_curr, curr_on_rq;

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
 * lock is held as the scheduler holds it, interrupts off (the Rust checks
 * it).
 */
static u64 fair_kunit_answers(struct fair_kunit_rq *f, unsigned int nr, u64 *elig)
{
	struct cfs_rq *cfs_rq = &f->rq->cfs;
	struct sched_entity *next = cfs_rq->next;
	u64 picks = 0;
	unsigned int i, k;

	raw_spin_rq_lock_irq(f->rq);
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
	raw_spin_rq_unlock_irq(f->rq);
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

/*
 * The LLC occupancy accounting: account_llc_enqueue(), account_llc_dequeue()
 * and pref_llc_running_inc/dec(), on a runqueue, its bottom sched domain
 * with llc_counts[] and FAIR_KUNIT_LLC_TASKS tasks of the test's own,
 * through a fixed sequence of the operations the scheduler makes:
 * enqueues with any preference (none, the task's LLC, another, one past
 * llc_max), dequeues, delayed dequeues, set_delayed() and clear_delayed(),
 * a preference changed while queued, migrations, the task's LLC changed
 * while it is queued (hotplug), domain rebuilds that zero and resize
 * llc_counts[], and rq->sd NULL. The test keeps its own model of what the
 * accounting must give, the C's rules written out (unlike the pick's
 * digests, the figures depend on the machine's LLC ids, which the model
 * reads as the accounting does), and compares every counter and every
 * task's pref_llc_queued with it after each operation. The runqueue's
 * cfs_tasks list holds the queued tasks, as enqueue_entity() keeps it.
 */
#define FAIR_KUNIT_LLC_STEPS	20000
#define FAIR_KUNIT_LLC_TASKS	12
#define FAIR_KUNIT_LLC_IDS	4	/* at most, beyond the machine's */
#define FAIR_KUNIT_LLC_GUARD	0x5a5a5a5aU

/* The routes the sequence must take, each at least once. */
enum fair_kunit_llc_route {
	FAIR_KUNIT_LLC_PREF,		/* enqueued on its preferred LLC */
	FAIR_KUNIT_LLC_OTHER,		/* enqueued with another LLC preferred */
	FAIR_KUNIT_LLC_NONE,		/* no preference: nothing counted */
	FAIR_KUNIT_LLC_RANGE,		/* preference past llc_max: no slot */
	FAIR_KUNIT_LLC_NO_SD,		/* rq->sd NULL */
	FAIR_KUNIT_LLC_UNDERFLOW,	/* dequeued with its slot at 0 */
	FAIR_KUNIT_LLC_DELAYED,		/* dequeued while delayed */
	FAIR_KUNIT_LLC_SET_DELAYED,	/* set_delayed() of a counted task */
	FAIR_KUNIT_LLC_NR_ROUTES,
};

static const char *const fair_kunit_llc_route_name[FAIR_KUNIT_LLC_NR_ROUTES] = {
	"preferred LLC", "other LLC", "no preference", "past llc_max", "rq->sd NULL",
	"underflow guard", "delayed dequeue", "set_delayed",
};

struct fair_kunit_llc {
	struct fair_kunit_rq f;		/* for its generator */
	struct sched_domain *sd;
	unsigned int *counts;		/* sd's llc_counts[], then a guard slot */
	struct task_struct *p[FAIR_KUNIT_LLC_TASKS];
	/* The model. */
	bool queued[FAIR_KUNIT_LLC_TASKS], pq[FAIR_KUNIT_LLC_TASKS], has_sd;
	unsigned int nr_llc, nr_pref, max, *model;
	unsigned int routes[FAIR_KUNIT_LLC_NR_ROUTES];
};

/* A domain rebuild: llc_counts[] comes back zeroed, maybe resized. */
static void fair_kunit_llc_domain(struct kunit *test, struct fair_kunit_llc *l)
{
	unsigned int ids = 0;
	int cpu;

	for_each_online_cpu(cpu)
		ids = max(ids, (unsigned int)per_cpu(sd_llc_id, cpu) + 1);
	/* Sometimes fewer slots than the machine's ids: those fall past the end. */
	l->max = max(1U, ids + fair_kunit_below(&l->f, FAIR_KUNIT_LLC_IDS) - 1);
	l->counts = kunit_kcalloc(test, l->max + 1, sizeof(*l->counts), GFP_KERNEL);
	l->model = kunit_kcalloc(test, l->max, sizeof(*l->model), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l->counts);
	KUNIT_ASSERT_NOT_NULL(test, l->model);
	l->counts[l->max] = FAIR_KUNIT_LLC_GUARD;
	l->sd->llc_max = l->max;
	l->sd->llc_counts = l->counts;
}

/* A preference: none, the task's LLC, another machine id, or past llc_max. */
static int fair_kunit_llc_pref(struct fair_kunit_llc *l, struct task_struct *p)
{
	switch (fair_kunit_below(&l->f, 6)) {
	case 0:
		return -1;
	case 1:
	case 2:
		return task_llc(p);
	case 3:
		return per_cpu(sd_llc_id, cpumask_nth(fair_kunit_below(&l->f, num_online_cpus()),
						      cpu_online_mask));
	case 4:
		return task_llc(p) + 1;
	default:
		return l->max + fair_kunit_below(&l->f, 2);
	}
}

/* The model's enqueue and dequeue: account_llc_enqueue/dequeue()'s rules. */
static void fair_kunit_llc_enqueue_model(struct fair_kunit_llc *l, int t)
{
	struct task_struct *p = l->p[t];
	int pref = p->preferred_llc;

	if (pref < 0) {
		l->routes[FAIR_KUNIT_LLC_NONE]++;
		return;
	}
	l->nr_llc++;
	l->pq[t] = pref == task_llc(p);
	l->routes[l->pq[t] ? FAIR_KUNIT_LLC_PREF : FAIR_KUNIT_LLC_OTHER]++;
	if (l->pq[t] && !p->se.sched_delayed)
		l->nr_pref++;
	if (!l->has_sd)
		l->routes[FAIR_KUNIT_LLC_NO_SD]++;
	else if (pref >= l->max)
		l->routes[FAIR_KUNIT_LLC_RANGE]++;
	else
		l->model[pref]++;
}

static void fair_kunit_llc_dequeue_model(struct fair_kunit_llc *l, int t)
{
	struct task_struct *p = l->p[t];
	int pref = p->preferred_llc;

	if (pref < 0)
		return;
	l->nr_llc--;
	if (l->pq[t]) {
		if (!p->se.sched_delayed)
			l->nr_pref--;
		l->pq[t] = false;
	}
	if (l->has_sd && pref < l->max) {
		if (l->model[pref])
			l->model[pref]--;
		else
			l->routes[FAIR_KUNIT_LLC_UNDERFLOW]++;
	}
}

/*
 * The scheduler's calls, under the runqueue lock with interrupts off, as
 * the scheduler holds it (the Rust checks the lock; the debug option's
 * shadow takes locks of its own that interrupts also take), and RCU (the
 * accounting reads rq->sd), with cfs_tasks kept as
 * account_entity_enqueue/dequeue() keep it.
 */
static void fair_kunit_llc_enqueue(struct fair_kunit_llc *l, int t)
{
	struct rq *rq = l->f.rq;

	fair_kunit_llc_enqueue_model(l, t);
	l->queued[t] = true;
	guard(rcu)();
	raw_spin_rq_lock_irq(rq);
	list_add(&l->p[t]->se.group_node, &rq->cfs_tasks);
	account_llc_enqueue(rq, l->p[t]);
	raw_spin_rq_unlock_irq(rq);
}

static void fair_kunit_llc_dequeue(struct fair_kunit_llc *l, int t)
{
	struct rq *rq = l->f.rq;

	fair_kunit_llc_dequeue_model(l, t);
	l->queued[t] = false;
	guard(rcu)();
	raw_spin_rq_lock_irq(rq);
	account_llc_dequeue(rq, l->p[t]);
	list_del_init(&l->p[t]->se.group_node);
	raw_spin_rq_unlock_irq(rq);
}

/* set_delayed() with @delayed, else clear_delayed(): the flag's order is theirs. */
static void fair_kunit_llc_delay(struct fair_kunit_llc *l, int t, bool delayed)
{
	struct task_struct *p = l->p[t];
	struct rq *rq = l->f.rq;

	if (l->pq[t] && delayed) {
		l->nr_pref--;
		l->routes[FAIR_KUNIT_LLC_SET_DELAYED]++;
	} else if (l->pq[t]) {
		l->nr_pref++;
	}
	guard(rcu)();
	raw_spin_rq_lock_irq(rq);
	if (delayed) {
		pref_llc_running_dec(rq, p);
		p->se.sched_delayed = 1;
	} else {
		p->se.sched_delayed = 0;
		pref_llc_running_inc(rq, p);
	}
	raw_spin_rq_unlock_irq(rq);
}

static void fair_kunit_llc_step(struct kunit *test, struct fair_kunit_llc *l)
{
	int t = fair_kunit_below(&l->f, FAIR_KUNIT_LLC_TASKS);
	int cpu = cpumask_nth(fair_kunit_below(&l->f, num_online_cpus()), cpu_online_mask);
	struct task_struct *p = l->p[t];
	bool delayed = p->se.sched_delayed;

	switch (fair_kunit_below(&l->f, 10)) {
	case 0:
	case 1:	/* Wake-up: enqueue on a CPU, with a preference. */
		if (l->queued[t])
			break;
		WRITE_ONCE(task_thread_info(p)->cpu, cpu);
		WRITE_ONCE(p->preferred_llc, fair_kunit_llc_pref(l, p));
		fair_kunit_llc_enqueue(l, t);
		break;
	case 2:	/* Dequeue; a delayed task's is its DEQUEUE_DELAYED, then clear_delayed(). */
		if (!l->queued[t])
			break;
		if (delayed && p->preferred_llc >= 0)
			l->routes[FAIR_KUNIT_LLC_DELAYED]++;
		fair_kunit_llc_dequeue(l, t);
		if (delayed)
			fair_kunit_llc_delay(l, t, false);
		break;
	case 3:
		if (l->queued[t] && !delayed)
			fair_kunit_llc_delay(l, t, true);
		break;
	case 4:
		if (l->queued[t] && delayed)
			fair_kunit_llc_delay(l, t, false);
		break;
	case 5:	/* account_mm_sched(): the running task's preference changes. */
		if (!l->queued[t] || delayed)
			break;
		fair_kunit_llc_dequeue(l, t);
		WRITE_ONCE(p->preferred_llc, fair_kunit_llc_pref(l, p));
		fair_kunit_llc_enqueue(l, t);
		break;
	case 6:
		fair_kunit_llc_domain(test, l);
		break;
	case 7:	/* No sched domain (a CPU attached or detached), or back. */
		l->has_sd = !l->has_sd;
		rcu_assign_pointer(l->f.rq->sd, l->has_sd ? l->sd : NULL);
		break;
	default: /* A migration, or the LLC ids rebuilt while the task is queued. */
		WRITE_ONCE(task_thread_info(p)->cpu, cpu);
		break;
	}
}

static void sched_fair_kunit_llc_test(struct kunit *test)
{
	struct fair_kunit_llc *l;
	unsigned int s, i;
	int t;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	l->f.rq = kunit_kzalloc(test, sizeof(*l->f.rq), GFP_KERNEL);
	l->sd = kunit_kzalloc(test, sizeof(*l->sd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l->f.rq);
	KUNIT_ASSERT_NOT_NULL(test, l->sd);
	prandom_seed_state(&l->f.rnd, FAIR_KUNIT_SEED);
	raw_spin_lock_init(&l->f.rq->__lock);
	INIT_LIST_HEAD(&l->f.rq->cfs_tasks);
	for (t = 0; t < FAIR_KUNIT_LLC_TASKS; t++) {
		l->p[t] = kunit_kzalloc(test, sizeof(*l->p[t]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, l->p[t]);
		l->p[t]->preferred_llc = -1;
		INIT_LIST_HEAD(&l->p[t]->se.group_node);
	}
	fair_kunit_llc_domain(test, l);
	l->has_sd = true;
	RCU_INIT_POINTER(l->f.rq->sd, l->sd);

	for (s = 0; s < FAIR_KUNIT_LLC_STEPS; s++) {
		struct rq *rq = l->f.rq;

		fair_kunit_llc_step(test, l);
		KUNIT_ASSERT_EQ_MSG(test, rq->nr_llc_running, l->nr_llc, "step %u", s);
		KUNIT_ASSERT_EQ_MSG(test, rq->nr_pref_llc_running, l->nr_pref, "step %u", s);
		for (i = 0; i < l->max; i++)
			KUNIT_ASSERT_EQ_MSG(test, l->counts[i], l->model[i],
					    "step %u llc_counts[%u]", s, i);
		KUNIT_ASSERT_EQ_MSG(test, l->counts[l->max], FAIR_KUNIT_LLC_GUARD,
				    "step %u: llc_counts[llc_max] written", s);
		for (t = 0; t < FAIR_KUNIT_LLC_TASKS; t++)
			KUNIT_ASSERT_EQ_MSG(test, !!l->p[t]->pref_llc_queued, l->pq[t],
					    "step %u task %d pref_llc_queued", s, t);
		cond_resched();
	}
	/* A sequence that skipped a route proves nothing about it. */
	for (i = 0; i < FAIR_KUNIT_LLC_NR_ROUTES; i++) {
		kunit_info(test, "route %s: %u\n", fair_kunit_llc_route_name[i], l->routes[i]);
		KUNIT_EXPECT_GT_MSG(test, l->routes[i], 0, "route %s never taken",
				    fair_kunit_llc_route_name[i]);
	}
}
#endif /* CONFIG_SCHED_CACHE */

#ifdef CONFIG_FAIR_GROUP_SCHED
/*
 * The group state: alloc_fair_sched_group() below parents at depth 0 to
 * 3, each CPU's cfs_tg_state compared byte by byte with what the
 * allocation must leave in zero-filled per-CPU memory: init_cfs_rq(),
 * init_tg_cfs_entry() and init_entity_runnable_average(), written out here
 * (the removed-load lock, whose lockdep data names its initialiser, is
 * taken from the state and checked unlocked), then freed with
 * free_fair_sched_group(). A failed allocation is the parity suite's
 * (it needs a stub of the per-CPU allocator).
 */
#define FAIR_KUNIT_GROUP_DEPTH	4

static void fair_kunit_group_expect(struct cfs_tg_state *exp, struct cfs_tg_state *st,
				    struct task_group *tg, struct sched_entity *pse, int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	memset(exp, 0, sizeof(*exp));
	exp->cfs_rq.tasks_timeline = RB_ROOT_CACHED;
	exp->cfs_rq.zero_vruntime = (u64)(-(1LL << 20));
	exp->cfs_rq.removed.lock = st->cfs_rq.removed.lock;
	exp->cfs_rq.tg = tg;
	exp->cfs_rq.rq = rq;
#ifdef CONFIG_CFS_BANDWIDTH
	/* Empty lists head at the state's own, not at the copy's. */
	exp->cfs_rq.throttled_list.next = &st->cfs_rq.throttled_list;
	exp->cfs_rq.throttled_list.prev = &st->cfs_rq.throttled_list;
	exp->cfs_rq.throttled_csd_list.next = &st->cfs_rq.throttled_csd_list;
	exp->cfs_rq.throttled_csd_list.prev = &st->cfs_rq.throttled_csd_list;
	exp->cfs_rq.throttled_limbo_list.next = &st->cfs_rq.throttled_limbo_list;
	exp->cfs_rq.throttled_limbo_list.prev = &st->cfs_rq.throttled_limbo_list;
#endif
	exp->se.cfs_rq = pse ? pse->my_q : &rq->cfs;
	exp->se.depth = pse ? pse->depth + 1 : 0;
	exp->se.my_q = &st->cfs_rq;
	exp->se.load.weight = NICE_0_LOAD;
	exp->se.parent = pse;
}

static void sched_fair_kunit_group_test(struct kunit *test)
{
	struct task_group *tg[FAIR_KUNIT_GROUP_DEPTH + 1] = { &root_task_group };
	struct cfs_tg_state *exp;
	unsigned int checked = 0;
	int d, cpu;

	exp = kunit_kmalloc(test, sizeof(*exp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, exp);
	for (d = 1; d <= FAIR_KUNIT_GROUP_DEPTH; d++) {
		struct task_group *parent = tg[d - 1];

		tg[d] = kunit_kzalloc(test, sizeof(*tg[d]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, tg[d]);
		KUNIT_ASSERT_EQ_MSG(test, alloc_fair_sched_group(tg[d], parent), 1, "depth %d", d);
		tg[d]->parent = parent;
		KUNIT_EXPECT_EQ(test, tg[d]->shares, NICE_0_LOAD);
#ifdef CONFIG_CFS_BANDWIDTH
		KUNIT_EXPECT_EQ(test, tg[d]->cfs_bandwidth.quota, RUNTIME_INF);
		KUNIT_EXPECT_EQ(test, tg[d]->cfs_bandwidth.hierarchical_quota,
				parent->cfs_bandwidth.hierarchical_quota);
#endif
		for_each_possible_cpu(cpu) {
			struct cfs_rq *cfs_rq = tg_cfs_rq(tg[d], cpu);
			struct cfs_tg_state *st = container_of(cfs_rq, struct cfs_tg_state, cfs_rq);
			const u8 *a = (const u8 *)st, *b = (const u8 *)exp;
			size_t off;

			KUNIT_ASSERT_PTR_EQ(test, tg_se(tg[d], cpu), &st->se);
			KUNIT_EXPECT_FALSE(test, raw_spin_is_locked(&cfs_rq->removed.lock));
			fair_kunit_group_expect(exp, st, tg[d], tg_se(parent, cpu), cpu);
			for (off = 0; off < sizeof(*exp) && a[off] == b[off]; off++)
				;
			KUNIT_EXPECT_EQ_MSG(test, off, sizeof(*exp),
					    "depth %d cpu %d: first differing byte of cfs_tg_state",
					    d, cpu);
			checked++;
		}
	}
	for (d = FAIR_KUNIT_GROUP_DEPTH; d >= 1; d--)
		free_fair_sched_group(tg[d]);
	kunit_info(test, "%u per-CPU states checked\n", checked);
	KUNIT_EXPECT_EQ(test, checked, FAIR_KUNIT_GROUP_DEPTH * num_possible_cpus());
}
#endif /* CONFIG_FAIR_GROUP_SCHED */

static struct kunit_case sched_fair_kunit_cases[] = {
	KUNIT_CASE(sched_fair_kunit_pick_test),
#ifdef CONFIG_SCHED_CACHE
	KUNIT_CASE(sched_fair_kunit_decay_test),
	KUNIT_CASE(sched_fair_kunit_llc_test),
#endif
#ifdef CONFIG_FAIR_GROUP_SCHED
	KUNIT_CASE(sched_fair_kunit_group_test),
#endif
	{}
};

static struct kunit_suite sched_fair_kunit_suite = {
	.name = "sched_fair",
	.test_cases = sched_fair_kunit_cases,
};

kunit_test_suite(sched_fair_kunit_suite);
