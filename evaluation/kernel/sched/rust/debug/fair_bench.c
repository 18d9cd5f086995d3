// SPDX-License-Identifier: GPL-2.0
/*
 * In-kernel microbenchmarks of CONFIG_SCHED_RUST_CFS: the C and the Rust side
 * of a piece, interleaved in one boot, on identical prepared states.
 *
 * Included at the bottom of kernel/sched/fair.c (CONFIG_SCHED_RUST_CFS_BENCH)
 * to reach its static functions. Not a test: it asserts nothing.
 *
 *   echo run > /sys/kernel/debug/sched/sched_rust/bench    run every case
 *   cat /sys/kernel/debug/sched/sched_rust/bench           print the table
 *
 * Each case runs ROUNDS rounds; a round times one batch of BATCH calls of
 * each side, with interrupts off (but for the group allocation, which
 * sleeps), the order alternating between rounds. A batch is one loop that
 * calls one function BATCH times, the same loop for every side: the
 * function is the side's implementation as a kernel without the debug
 * option calls it (fair.c's C twin, the Rust entry point, or 7.3's stock C
 * for the "stock_" cases of the pick and the eligibility test), out of line,
 * so that each side compiles to its own body and no side gets an inlining
 * advantage over the other. The case "empty" calls a function that does
 * nothing: the instruction counts of make bench subtract it. The
 * "dispatch_" cases run C and Rust again through the dispatch that fair.c
 * itself uses in this configuration (vruntime_eligible(), pick_eevdf(),
 * account_llc_enqueue()/_dequeue(), fraction_mm_sched()), the piece's
 * switch set to the side measured: the figures per call inside workloads,
 * which run behind that dispatch, include what it costs each side. The
 * case "control_tg_alloc_free" runs fair.c's C group allocation against a
 * copy of itself: what the place of the same code in the image gives.
 *
 * The table gives the median and the 10th-90th percentile spread of the time
 * per call in nanoseconds (ktime, so TCG wall time under QEMU), and the ratio
 * of the Rust median to the C median.
 */
#include <linux/debugfs.h>
#include <linux/prandom.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>

/* Timed batches of each case and side; the median is reported. */
#define BENCH_TIMED_RUNS	31
#define BENCH_BATCH	2000
#define BENCH_MAX_SE	1025	/* 1024 queued and curr */
#define BENCH_OUT_SIZE	8192
/* Every batch time of a run: cases x 2 sides x runs, up to 10 digits each. */
#define BENCH_RAW_SIZE	(128 * 1024)

/*
 * Batches sched_rust_bench_scale= times longer (1 to 100): make bench-native
 * times them with the host's clock, which UML reads in steps of 256 ns on the
 * project's machines, a step of 0.13 ns per call in a batch of 2000.
 */
static unsigned int rust_bench_scale = 1;
core_param(sched_rust_bench_scale, rust_bench_scale, uint, 0644);

static int rust_bench_batch_len(int batch)
{
	return batch * clamp(READ_ONCE(rust_bench_scale), 1U, 100U);
}

struct rust_bench {
	struct rq rq;
	struct sched_entity se[BENCH_MAX_SE];
	u64 ns[2][BENCH_TIMED_RUNS];
	struct rnd_state rnd;
	struct seq_buf raw;
};

static DEFINE_MUTEX(rust_bench_mutex);

/*
 * Markers around every batch that runs with interrupts off: the instruction
 * counting TCG plugin (evaluation/bench/icount.c, make bench) counts what a vCPU
 * executes between them. Different bodies keep them from being merged.
 */
static int rust_bench_marker;

static noinline __used void rust_bench_mark_begin(void)
{
	WRITE_ONCE(rust_bench_marker, 1);
}

static noinline __used void rust_bench_mark_end(void)
{
	WRITE_ONCE(rust_bench_marker, 2);
}

static char *rust_bench_out;
static char *rust_bench_raw_out;

enum rust_bench_kind {
	BENCH_EMPTY, BENCH_CALL, BENCH_FAST, BENCH_HEAP, BENCH_TG, BENCH_TG_CONTROL, BENCH_LLC,
	BENCH_DECAY, BENCH_DECAY_EPOCH,
};

/* The group allocation, and its control (C against a copy of C): they sleep. */
static bool rust_bench_is_tg(enum rust_bench_kind kind)
{
	return kind == BENCH_TG || kind == BENCH_TG_CONTROL;
}

/*
 * What cfs_rq->curr and cfs_rq->next are in a pick case, as the scheduler
 * leaves them: curr is out of the tree and on the runqueue (running), or off
 * it (going to sleep), with or without its protected slice; next is a
 * queued, eligible entity.
 */
enum rust_bench_curr {
	BENCH_NO_CURR,		/* curr = next = NULL */
	BENCH_CURR,		/* curr running, slice used up */
	BENCH_CURR_PROTECT,	/* curr running within its protected slice */
	BENCH_CURR_SLEEP,	/* curr dequeued (on_rq = 0) */
	BENCH_NEXT,		/* curr running, a next buddy set */
};

/* The static key of the piece a case measures. */
static struct static_key_true *rust_bench_key(enum rust_bench_kind kind)
{
	switch (kind) {
	case BENCH_TG:
	case BENCH_TG_CONTROL:
		return &sched_rust_tg_state_key;
	case BENCH_LLC:
	case BENCH_DECAY:
	case BENCH_DECAY_EPOCH:
		return &sched_rust_llc_key;
	default:
		return &sched_rust_pick_key;
	}
}

/* Route the piece of @kind to Rust or C; process context (it sleeps). */
static void rust_bench_switch(enum rust_bench_kind kind, bool rust)
{
	struct static_key_true *key = rust_bench_key(kind);

	if (rust)
		static_branch_enable(key);
	else
		static_branch_disable(key);
}

/* Group allocations sleep (the per-CPU allocator takes a mutex): fewer calls. */
#define BENCH_TG_BATCH	100

static u64 rust_bench_rnd64(struct rust_bench *b)
{
	return ((u64)prandom_u32_state(&b->rnd) << 32) | prandom_u32_state(&b->rnd);
}

/*
 * Fill the runqueue with @nr entities of random weight and key through the
 * real __enqueue_entity(); retry until the leftmost entity is eligible (fast
 * path) or not (heap search), as @kind asks. Then set curr and next as @curr
 * asks; curr is one more entity, out of the tree as a running one is.
 */
static bool rust_bench_prepare(struct rust_bench *b, int nr, enum rust_bench_kind kind,
			       enum rust_bench_curr curr)
{
	struct cfs_rq *cfs_rq = &b->rq.cfs;
	bool want_fast = kind != BENCH_HEAP;
	int tries, i;

	for (tries = 0; tries < 1000; tries++) {
		struct sched_entity *first, *cse;

		memset(&b->rq, 0, sizeof(b->rq));
		raw_spin_lock_init(&b->rq.__lock);
		init_cfs_rq(cfs_rq);
#ifdef CONFIG_FAIR_GROUP_SCHED
		cfs_rq->rq = &b->rq;
#endif
		for (i = 0; i <= nr; i++) {
			struct sched_entity *se = &b->se[i];
			u32 prio = prandom_u32_state(&b->rnd) % 40;
			s64 key = (s64)(rust_bench_rnd64(b) % (2 << 24)) - (1 << 24);
			u32 slice = prandom_u32_state(&b->rnd) % (3 << 20);

			memset(se, 0, sizeof(*se));
			update_load_set(&se->h_load, scale_load(sched_prio_to_weight[prio]));
			se->vruntime = cfs_rq->zero_vruntime + key;
			/*
			 * For the heap search, deadlines run against vruntimes, so
			 * the earliest deadline belongs to an ineligible entity.
			 */
			se->deadline = want_fast ? se->vruntime + slice :
				       cfs_rq->zero_vruntime - 4 * key + slice;
			se->vprot = se->vruntime;
			se->on_rq = 1;
			/* The last one is curr: not in the tree. */
			if (i < nr)
				__enqueue_entity(cfs_rq, se);
		}
		cfs_rq->h_nr_queued = nr + (curr != BENCH_NO_CURR);
		first = __pick_first_entity(cfs_rq);
		if (!first)
			return false;
		if (!!vruntime_eligible_c(cfs_rq, first->vruntime) != want_fast)
			continue;
		if (curr == BENCH_NO_CURR)
			return true;

		cse = &b->se[nr];
		cfs_rq->curr = cse;
		/* curr is eligible (or the pick would ignore it) but first or not. */
		if (!vruntime_eligible_c(cfs_rq, cse->vruntime))
			continue;
		switch (curr) {
		case BENCH_CURR_PROTECT:
			cse->vprot = cse->vruntime + (1 << 20);
			break;
		case BENCH_CURR_SLEEP:
			cse->on_rq = 0;
			break;
		case BENCH_NEXT:
			/* An eligible queued entity other than the leftmost. */
			for (i = nr - 1; i > 0; i--) {
				if (vruntime_eligible_c(cfs_rq, b->se[i].vruntime) &&
				    &b->se[i] != first) {
					cfs_rq->next = &b->se[i];
					break;
				}
			}
			if (!cfs_rq->next)
				continue;
			break;
		default:
			break;
		}
		return true;
	}
	return false;
}

static int rust_bench_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

#ifdef CONFIG_SCHED_CACHE
/*
 * account_llc_enqueue() + account_llc_dequeue() of a task queued on its
 * preferred LLC, on a fake runqueue with a bottom domain; and one occupancy
 * sample of the LLC scan (fraction_mm_sched(): decay and division), with no
 * epoch elapsed (llc_occupancy) or one (llc_decay: both runtimes decay).
 */
struct rust_bench_llc {
	struct rq rq;
	struct sched_cache_time t;
	unsigned int counts[8];
	struct sched_domain *sd;
	struct task_struct *p;
};

static void rust_bench_llc_free(struct rust_bench_llc *l)
{
	if (!l)
		return;
	kfree(l->sd);
	kfree(l->p);
	kfree(l);
}

static struct rust_bench_llc *rust_bench_llc_prepare(void)
{
	struct rust_bench_llc *l = kzalloc_obj(*l, GFP_KERNEL);

	if (!l)
		return NULL;
	l->sd = kzalloc_obj(*l->sd, GFP_KERNEL);
	l->p = kzalloc_obj(*l->p, GFP_KERNEL);
	if (!l->sd || !l->p) {
		rust_bench_llc_free(l);
		return NULL;
	}
	raw_spin_lock_init(&l->rq.__lock);
	raw_spin_lock_init(&l->rq.cpu_epoch_lock);
	INIT_LIST_HEAD(&l->rq.cfs_tasks);
	l->sd->llc_counts = l->counts;
	l->sd->llc_max = ARRAY_SIZE(l->counts);
	RCU_INIT_POINTER(l->rq.sd, l->sd);
	task_thread_info(l->p)->cpu = raw_smp_processor_id();
	l->p->preferred_llc = max(task_llc(l->p), 0);
	l->rq.cpu_epoch_next = jiffies;
	l->rq.cpu_runtime = 1 << 20;
	l->t.runtime = 1 << 19;
	return l;
}
#endif

/*
 * The functions a batch calls: one per side of each piece, all of one type.
 * @state is the case's state (struct rust_bench, struct rust_bench_llc or a
 * struct task_group), @arg the vruntime tested by the eligibility cases.
 */
typedef unsigned long (*rust_bench_fn)(void *state, u64 arg);

/*
 * Both arguments live into every side function, whatever it uses: each loop
 * passes both (no instruction here, they arrive in registers).
 */
static __always_inline void rust_bench_args(void *state, u64 arg)
{
	asm volatile("" : : "r" (state), "r" (arg));
}

/*
 * The side's result, used after the call as the scheduler uses it (no side
 * ends in a tail call) and unknown to the caller.
 */
static __always_inline unsigned long rust_bench_result(u64 arg)
{
	OPTIMIZER_HIDE_VAR(arg);
	return arg;
}

/*
 * "empty": the loop, the call and the return of a value, which every case's
 * count subtracts.
 */
static noinline unsigned long rust_bench_none(void *state, u64 arg)
{
	rust_bench_args(state, arg);
	return rust_bench_result(arg);
}

static inline struct cfs_rq *rust_bench_cfs_rq(void *state)
{
	return &((struct rust_bench *)state)->rq.cfs;
}

static noinline unsigned long rust_bench_eligible_c(void *state, u64 v)
{
	rust_bench_args(state, v);
	return rust_bench_result(vruntime_eligible_c(rust_bench_cfs_rq(state), v));
}

static noinline unsigned long rust_bench_eligible_rust(void *state, u64 v)
{
	rust_bench_args(state, v);
	return rust_bench_result(sched_rust_vruntime_eligible(rust_bench_cfs_rq(state), v));
}

static noinline unsigned long rust_bench_eligible_stock(void *state, u64 v)
{
	rust_bench_args(state, v);
	return rust_bench_result(vruntime_eligible_stock(rust_bench_cfs_rq(state), v));
}

static noinline unsigned long rust_bench_eligible_dispatch(void *state, u64 v)
{
	rust_bench_args(state, v);
	return rust_bench_result(vruntime_eligible(rust_bench_cfs_rq(state), v));
}

/*
 * The C side's implementation inlined into its batch function, as the Rust
 * entry point (always inline) is into its own and as a kernel without the
 * debug option inlines pick_eevdf() into pick_next_entity(): otherwise the C
 * twin, which has several callers, stays out of line and the C side pays a
 * call level (call, return, its frame: some 7 instructions) that the Rust
 * side does not. (GCC has no statement attribute to that effect: it leaves
 * the choice to its inliner.)
 */

static noinline unsigned long rust_bench_pick_c(void *state, u64 arg)
{
	struct sched_entity *se;

	rust_bench_args(state, arg);
#ifdef CONFIG_CC_IS_CLANG
	[[clang::always_inline]]
#endif
	se = pick_eevdf_c(rust_bench_cfs_rq(state), true);
	return rust_bench_result((unsigned long)se);
}

static noinline unsigned long rust_bench_pick_rust(void *state, u64 arg)
{
	struct sched_entity *se;

	rust_bench_args(state, arg);
	se = sched_rust_pick_eevdf(rust_bench_cfs_rq(state), true);
	return rust_bench_result((unsigned long)se);
}

static noinline unsigned long rust_bench_pick_stock(void *state, u64 arg)
{
	struct sched_entity *se;

	rust_bench_args(state, arg);
#ifdef CONFIG_CC_IS_CLANG
	[[clang::always_inline]]
#endif
	se = pick_eevdf_stock(rust_bench_cfs_rq(state), true);
	return rust_bench_result((unsigned long)se);
}

static noinline unsigned long rust_bench_pick_dispatch(void *state, u64 arg)
{
	rust_bench_args(state, arg);
	return rust_bench_result((unsigned long)pick_eevdf(rust_bench_cfs_rq(state), true));
}

#ifdef CONFIG_FAIR_GROUP_SCHED
/*
 * alloc_fair_sched_group() + free_fair_sched_group() below the root group,
 * fair.c's C, inlined into each function that times it.
 */
static __always_inline unsigned long rust_bench_tg_c_body(void *state, u64 arg)
{
	struct task_group *tg = state;

	rust_bench_args(state, arg);
	memset(tg, 0, sizeof(*tg));
#ifdef CONFIG_CC_IS_CLANG
	[[clang::always_inline]]
#endif
	alloc_fair_sched_group_c(tg, &root_task_group);
#ifdef CONFIG_CC_IS_CLANG
	[[clang::always_inline]]
#endif
	free_fair_sched_group_c(tg);
	return rust_bench_result(arg);
}

static noinline unsigned long rust_bench_tg_c(void *state, u64 arg)
{
	return rust_bench_tg_c_body(state, arg);
}

/*
 * The control of the group state's case: the same code as
 * rust_bench_tg_c(), compiled a second time at another address. C against
 * this copy measures what the two functions' places in the kernel image
 * (their alignment, the branch predictors' view of their call sites) make
 * of the time of the same code. Clang does not fold identical functions
 * (GCC's -fipa-icf would; the Rust support builds with clang only).
 */
static noinline unsigned long rust_bench_tg_c_copy(void *state, u64 arg)
{
	return rust_bench_tg_c_body(state, arg);
}

static noinline unsigned long rust_bench_tg_rust(void *state, u64 arg)
{
	struct task_group *tg = state;

	rust_bench_args(state, arg);
	memset(tg, 0, sizeof(*tg));
	sched_rust_alloc_fair_sched_group(tg, &root_task_group);
	sched_rust_free_fair_sched_group(tg);
	return rust_bench_result(arg);
}
#endif

#ifdef CONFIG_SCHED_CACHE
static noinline unsigned long rust_bench_llc_c(void *state, u64 arg)
{
	struct rust_bench_llc *l = state;

	rust_bench_args(state, arg);
	account_llc_enqueue_switch(&l->rq, l->p, false);
	account_llc_dequeue_switch(&l->rq, l->p, false);
	return rust_bench_result(arg);
}

static noinline unsigned long rust_bench_llc_rust(void *state, u64 arg)
{
	struct rust_bench_llc *l = state;

	rust_bench_args(state, arg);
	account_llc_enqueue_switch(&l->rq, l->p, true);
	account_llc_dequeue_switch(&l->rq, l->p, true);
	return rust_bench_result(arg);
}

static noinline unsigned long rust_bench_llc_dispatch(void *state, u64 arg)
{
	struct rust_bench_llc *l = state;

	rust_bench_args(state, arg);
	account_llc_enqueue(&l->rq, l->p);
	account_llc_dequeue(&l->rq, l->p);
	return rust_bench_result(arg);
}

/* Takes rq->cpu_epoch_lock, as task_cache_work() does. */
static noinline unsigned long rust_bench_occupancy_c(void *state, u64 arg)
{
	struct rust_bench_llc *l = state;

	rust_bench_args(state, arg);
	return rust_bench_result(fraction_mm_sched_switch(&l->rq, &l->t, false));
}

static noinline unsigned long rust_bench_occupancy_rust(void *state, u64 arg)
{
	struct rust_bench_llc *l = state;

	rust_bench_args(state, arg);
	return rust_bench_result(fraction_mm_sched_switch(&l->rq, &l->t, true));
}

static noinline unsigned long rust_bench_occupancy_dispatch(void *state, u64 arg)
{
	struct rust_bench_llc *l = state;

	rust_bench_args(state, arg);
	return rust_bench_result(fraction_mm_sched(&l->rq, &l->t));
}

/*
 * llc_decay: an epoch has elapsed at every call, so that the CPU's and the
 * process's runtimes decay (one store, the same for both sides).
 */
static noinline unsigned long rust_bench_decay_c(void *state, u64 arg)
{
	struct rust_bench_llc *l = state;

	rust_bench_args(state, arg);
	l->rq.cpu_epoch_next = jiffies - 1;
	return rust_bench_result(fraction_mm_sched_switch(&l->rq, &l->t, false));
}

static noinline unsigned long rust_bench_decay_rust(void *state, u64 arg)
{
	struct rust_bench_llc *l = state;

	rust_bench_args(state, arg);
	l->rq.cpu_epoch_next = jiffies - 1;
	return rust_bench_result(fraction_mm_sched_switch(&l->rq, &l->t, true));
}
#endif

/*
 * One batch: @n calls of @fn, between the plugin's markers with @marked
 * (not around the group allocation, which sleeps). Always inline into one
 * function per @fn below: each side's loop is the same code with a direct
 * call.
 */
static __always_inline u64 rust_bench_loop(void *state, u64 arg, int n, rust_bench_fn fn,
					   bool marked)
{
	unsigned long sink = 0;
	u64 t0, t1;
	int i;

	if (marked)
		rust_bench_mark_begin();
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		/* Reload the state every call, as the scheduler would. */
		barrier();
		sink += fn(state, arg);
	}
	t1 = ktime_get_ns();
	if (marked)
		rust_bench_mark_end();
	OPTIMIZER_HIDE_VAR(sink);
	return t1 - t0;
}

typedef u64 (*rust_bench_batch_fn)(void *state, u64 arg, int n);

/*
 * The side function's address is taken too: LLVM then keeps its signature as
 * written (no argument or return value dropped where a side does not use
 * it), and every loop makes the empty case's call.
 */
#define RUST_BENCH_BATCH(fn, marked)						\
static const rust_bench_fn fn##_addr __used = fn;				\
static noinline u64 fn##_batch(void *state, u64 arg, int n)			\
{										\
	return rust_bench_loop(state, arg, n, fn##_addr, marked);		\
}

RUST_BENCH_BATCH(rust_bench_none, true)
RUST_BENCH_BATCH(rust_bench_eligible_c, true)
RUST_BENCH_BATCH(rust_bench_eligible_rust, true)
RUST_BENCH_BATCH(rust_bench_eligible_stock, true)
RUST_BENCH_BATCH(rust_bench_eligible_dispatch, true)
RUST_BENCH_BATCH(rust_bench_pick_c, true)
RUST_BENCH_BATCH(rust_bench_pick_rust, true)
RUST_BENCH_BATCH(rust_bench_pick_stock, true)
RUST_BENCH_BATCH(rust_bench_pick_dispatch, true)
#ifdef CONFIG_FAIR_GROUP_SCHED
RUST_BENCH_BATCH(rust_bench_tg_c, false)
RUST_BENCH_BATCH(rust_bench_tg_rust, false)
RUST_BENCH_BATCH(rust_bench_tg_c_copy, false)
#endif
#ifdef CONFIG_SCHED_CACHE
RUST_BENCH_BATCH(rust_bench_llc_c, true)
RUST_BENCH_BATCH(rust_bench_llc_rust, true)
RUST_BENCH_BATCH(rust_bench_llc_dispatch, true)
RUST_BENCH_BATCH(rust_bench_occupancy_c, true)
RUST_BENCH_BATCH(rust_bench_occupancy_rust, true)
RUST_BENCH_BATCH(rust_bench_occupancy_dispatch, true)
RUST_BENCH_BATCH(rust_bench_decay_c, true)
RUST_BENCH_BATCH(rust_bench_decay_rust, true)
#endif

/* What a case compares: C against Rust, 7.3's C against fair.c's, or through the dispatch. */
enum rust_bench_mode { BENCH_DIRECT, BENCH_STOCK, BENCH_DISPATCH };

/* The batches of each kind: C, Rust, stock C, the dispatch (NULL: none). */
static const struct {
	rust_bench_batch_fn c, rust, stock, dispatch;
} rust_bench_batches[] = {
	[BENCH_EMPTY] = { rust_bench_none_batch, rust_bench_none_batch },
	[BENCH_CALL] = { rust_bench_eligible_c_batch, rust_bench_eligible_rust_batch,
			 rust_bench_eligible_stock_batch, rust_bench_eligible_dispatch_batch },
	[BENCH_FAST] = { rust_bench_pick_c_batch, rust_bench_pick_rust_batch,
			 rust_bench_pick_stock_batch, rust_bench_pick_dispatch_batch },
	[BENCH_HEAP] = { rust_bench_pick_c_batch, rust_bench_pick_rust_batch,
			 rust_bench_pick_stock_batch, rust_bench_pick_dispatch_batch },
#ifdef CONFIG_FAIR_GROUP_SCHED
	[BENCH_TG] = { rust_bench_tg_c_batch, rust_bench_tg_rust_batch },
	[BENCH_TG_CONTROL] = { rust_bench_tg_c_batch, rust_bench_tg_c_copy_batch },
#endif
#ifdef CONFIG_SCHED_CACHE
	[BENCH_LLC] = { rust_bench_llc_c_batch, rust_bench_llc_rust_batch, NULL,
			rust_bench_llc_dispatch_batch },
	[BENCH_DECAY] = { rust_bench_occupancy_c_batch, rust_bench_occupancy_rust_batch, NULL,
			  rust_bench_occupancy_dispatch_batch },
	[BENCH_DECAY_EPOCH] = { rust_bench_decay_c_batch, rust_bench_decay_rust_batch },
#endif
};

/*
 * One batch of @kind, side @idx of a case of @mode (0: C, or the stock C of
 * a "stock_" case; 1: Rust, or fair.c's C), under the locks the scheduler
 * holds for the piece: the runqueue lock for the pick, the eligibility test
 * and the LLC accounting (which the Rust side checks), RCU for the LLC
 * pieces (rq->sd), interrupts off but for the group allocation.
 */
static u64 rust_bench_batch(enum rust_bench_kind kind, enum rust_bench_mode mode, int idx,
			    void *state, u64 arg, int n)
{
	rust_bench_batch_fn fn;
	struct rq *rq = NULL;
	unsigned long flags;
	u64 ns;

	if (mode == BENCH_DISPATCH)
		fn = rust_bench_batches[kind].dispatch;
	else if (mode == BENCH_STOCK)
		fn = idx ? rust_bench_batches[kind].c : rust_bench_batches[kind].stock;
	else
		fn = idx ? rust_bench_batches[kind].rust : rust_bench_batches[kind].c;
	if (rust_bench_is_tg(kind))
		return fn(state, arg, n);
	if (kind == BENCH_LLC || kind == BENCH_DECAY || kind == BENCH_DECAY_EPOCH) {
#ifdef CONFIG_SCHED_CACHE
		if (kind == BENCH_LLC)
			rq = &((struct rust_bench_llc *)state)->rq;
#endif
	} else {
		rq = &((struct rust_bench *)state)->rq;
	}
	local_irq_save(flags);
	rcu_read_lock();
	if (rq)
		raw_spin_rq_lock(rq);
	ns = fn(state, arg, n);
	if (rq)
		raw_spin_rq_unlock(rq);
	rcu_read_unlock();
	local_irq_restore(flags);
	return ns;
}

/* Median and 10th/90th percentile in tenths of a nanosecond per call. */
static void rust_bench_stats(u64 *ns, int batch, u64 *med, u64 *lo, u64 *hi)
{
	sort(ns, BENCH_TIMED_RUNS, sizeof(*ns), rust_bench_cmp, NULL);
	*med = div_u64(ns[BENCH_TIMED_RUNS / 2] * 10, batch);
	*lo = div_u64(ns[BENCH_TIMED_RUNS / 10] * 10, batch);
	*hi = div_u64(ns[BENCH_TIMED_RUNS - 1 - BENCH_TIMED_RUNS / 10] * 10, batch);
}

/*
 * One case of @mode: C against Rust (BENCH_DIRECT, BENCH_DISPATCH), or 7.3's
 * stock C in the first column against fair.c's C in the second
 * (BENCH_STOCK). A "stock_" or "dispatch_" case of the pick or the
 * eligibility test runs on the state that the case before it prepared (the
 * same state as its C against Rust case, and no draw from the generator:
 * the other cases keep their states).
 */
static bool rust_bench_case_sides(struct rust_bench *b, struct seq_buf *s, const char *name,
				  enum rust_bench_kind kind, int nr, enum rust_bench_curr curr,
				  enum rust_bench_mode mode)
{
	int r, side;
	int batch = rust_bench_batch_len(rust_bench_is_tg(kind) ? BENCH_TG_BATCH : BENCH_BATCH);
	bool was_rust = static_key_enabled(rust_bench_key(kind));
	u64 med[2], lo[2], hi[2], ratio;
	void *state = b, *alloc = NULL;

	if (rust_bench_is_tg(kind)) {
		alloc = kzalloc_obj(struct task_group, GFP_KERNEL);
		if (!alloc)
			return false;
	} else if (kind == BENCH_LLC || kind == BENCH_DECAY || kind == BENCH_DECAY_EPOCH) {
#ifdef CONFIG_SCHED_CACHE
		alloc = rust_bench_llc_prepare();
#endif
		if (!alloc)
			return false;
	} else if (mode == BENCH_DIRECT && !rust_bench_prepare(b, nr, kind, curr)) {
		seq_buf_printf(s, "%-16s could not prepare the state\n", name);
		return false;
	}
	if (alloc)
		state = alloc;
	for (r = 0; r < BENCH_TIMED_RUNS; r++) {
		for (side = 0; side < 2; side++) {
			int idx = side ^ (r & 1);

			if (mode == BENCH_DISPATCH)
				rust_bench_switch(kind, idx);
			b->ns[idx][r] = rust_bench_batch(kind, mode, idx, state,
							 b->se[0].vruntime, batch);
		}
		cond_resched();
	}
	rust_bench_switch(kind, was_rust);
#ifdef CONFIG_SCHED_CACHE
	if (!rust_bench_is_tg(kind))
		rust_bench_llc_free(alloc);
#endif
	if (rust_bench_is_tg(kind))
		kfree(alloc);
	/* The batches as they ran, before the statistics sort them. */
	for (side = 0; side < 2; side++) {
		seq_buf_printf(&b->raw, "%s %d %d", name, side, batch);
		for (r = 0; r < BENCH_TIMED_RUNS; r++)
			seq_buf_printf(&b->raw, " %llu", b->ns[side][r]);
		seq_buf_putc(&b->raw, '\n');
	}
	for (side = 0; side < 2; side++)
		rust_bench_stats(b->ns[side], batch, &med[side], &lo[side], &hi[side]);
	ratio = div64_u64(med[1] * 1000, med[0] ?: 1);
	seq_buf_printf(s, "%-16s", name);
	for (side = 0; side < 2; side++)
		seq_buf_printf(s, " %5llu.%llu [%llu.%llu-%llu.%llu]",
			       med[side] / 10, med[side] % 10, lo[side] / 10, lo[side] % 10,
			       hi[side] / 10, hi[side] % 10);
	seq_buf_printf(s, "  %llu.%03llu\n", ratio / 1000, ratio % 1000);
	return true;
}

/*
 * A case, then on the same state, for the pick and the eligibility test,
 * 7.3's C against fair.c's, and with @dispatch, C against Rust through the
 * dispatch.
 */
static void rust_bench_case(struct rust_bench *b, struct seq_buf *s, const char *name,
			    enum rust_bench_kind kind, int nr, enum rust_bench_curr curr,
			    bool dispatch)
{
	char other[40];

	if (!rust_bench_case_sides(b, s, name, kind, nr, curr, BENCH_DIRECT))
		return;
	if (rust_bench_batches[kind].stock) {
		snprintf(other, sizeof(other), "stock_%s", name);
		rust_bench_case_sides(b, s, other, kind, nr, curr, BENCH_STOCK);
	}
	if (dispatch && rust_bench_batches[kind].dispatch) {
		snprintf(other, sizeof(other), "dispatch_%s", name);
		rust_bench_case_sides(b, s, other, kind, nr, curr, BENCH_DISPATCH);
	}
}

static int rust_bench_run(void)
{
	static const int fast_sizes[] = { 1, 2, 8, 64, 256, 1024 };
	static const int heap_sizes[] = { 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 };
	static const int curr_sizes[] = { 8, 64 };
	static const struct {
		const char *name;
		enum rust_bench_kind kind;
		enum rust_bench_curr curr;
	} curr_cases[] = {
		{ "pick_curr",		BENCH_FAST, BENCH_CURR },
		{ "pick_protect",	BENCH_FAST, BENCH_CURR_PROTECT },
		{ "pick_sleep",		BENCH_FAST, BENCH_CURR_SLEEP },
		{ "pick_next",		BENCH_FAST, BENCH_NEXT },
		{ "pick_heap_curr",	BENCH_HEAP, BENCH_CURR },
	};
	struct rust_bench *b;
	struct seq_buf s;
	char name[32];
	char *out, *raw;
	int i, j;

	b = vzalloc(sizeof(*b));
	out = kzalloc(BENCH_OUT_SIZE, GFP_KERNEL);
	raw = vzalloc(BENCH_RAW_SIZE);
	if (!b || !out || !raw) {
		vfree(b);
		kfree(out);
		vfree(raw);
		return -ENOMEM;
	}
	prandom_seed_state(&b->rnd, 20261122);
	seq_buf_init(&b->raw, raw, BENCH_RAW_SIZE);
	/* Side 0: C (7.3's C for a stock_ case); side 1: Rust (fair.c's C). */
	seq_buf_puts(&b->raw, "# case side calls_per_batch ns_of_each_batch\n");
	seq_buf_init(&s, out, BENCH_OUT_SIZE);
	seq_buf_printf(&s, "# %d timed runs x %d calls; ns per call: median [p10-p90]\n",
		       BENCH_TIMED_RUNS, rust_bench_batch_len(BENCH_BATCH));
	seq_buf_printf(&s, "%-16s %-22s %-22s %s\n", "case", "C", "Rust", "Rust/C");

	rust_bench_case(b, &s, "empty", BENCH_EMPTY, 8, BENCH_NO_CURR, false);
	rust_bench_case(b, &s, "eligible_call", BENCH_CALL, 8, BENCH_NO_CURR, true);
	for (i = 0; i < ARRAY_SIZE(fast_sizes); i++) {
		snprintf(name, sizeof(name), "pick_fast_%d", fast_sizes[i]);
		rust_bench_case(b, &s, name, BENCH_FAST, fast_sizes[i], BENCH_NO_CURR,
				fast_sizes[i] == 8);
	}
	for (i = 0; i < ARRAY_SIZE(heap_sizes); i++) {
		snprintf(name, sizeof(name), "pick_heap_%d", heap_sizes[i]);
		rust_bench_case(b, &s, name, BENCH_HEAP, heap_sizes[i], BENCH_NO_CURR,
				heap_sizes[i] == 8);
	}
	for (j = 0; j < ARRAY_SIZE(curr_cases); j++) {
		for (i = 0; i < ARRAY_SIZE(curr_sizes); i++) {
			snprintf(name, sizeof(name), "%s_%d", curr_cases[j].name, curr_sizes[i]);
			rust_bench_case(b, &s, name, curr_cases[j].kind, curr_sizes[i],
					curr_cases[j].curr, false);
		}
	}
	if (IS_ENABLED(CONFIG_FAIR_GROUP_SCHED)) {
		rust_bench_case(b, &s, "tg_alloc_free", BENCH_TG, 0, BENCH_NO_CURR, false);
		/* Not C against Rust: C against its copy (rust_bench_tg_c_copy()). */
		rust_bench_case(b, &s, "control_tg_alloc_free", BENCH_TG_CONTROL, 0,
				BENCH_NO_CURR, false);
	}
	if (IS_ENABLED(CONFIG_SCHED_CACHE)) {
		rust_bench_case(b, &s, "llc_enq_deq", BENCH_LLC, 0, BENCH_NO_CURR, true);
		rust_bench_case(b, &s, "llc_occupancy", BENCH_DECAY, 0, BENCH_NO_CURR, true);
		rust_bench_case(b, &s, "llc_decay", BENCH_DECAY_EPOCH, 0, BENCH_NO_CURR,
				false);
	}
	if (seq_buf_has_overflowed(&b->raw))
		seq_buf_printf(&s, "# bench_raw overflowed: BENCH_RAW_SIZE too small\n");
	vfree(b);

	kfree(rust_bench_out);
	rust_bench_out = out;
	vfree(rust_bench_raw_out);
	rust_bench_raw_out = raw;
	return 0;
}

static ssize_t rust_bench_read(struct file *file, char __user *ubuf, size_t cnt, loff_t *ppos)
{
	static const char none[] = "no results: echo run > bench\n";
	const char *out;

	guard(mutex)(&rust_bench_mutex);
	out = rust_bench_out ?: none;
	return simple_read_from_buffer(ubuf, cnt, ppos, out, strlen(out));
}

static ssize_t rust_bench_write(struct file *file, const char __user *ubuf, size_t cnt,
				loff_t *ppos)
{
	int err;

	guard(mutex)(&rust_bench_mutex);
	err = rust_bench_run();
	return err ?: cnt;
}

static const struct file_operations rust_bench_fops = {
	.read	= rust_bench_read,
	.write	= rust_bench_write,
	.llseek	= default_llseek,
};

/*
 * bench_raw: every batch's time in nanoseconds of the last run, as it ran
 * (make bench-native takes its statistics from these).
 */
static ssize_t rust_bench_raw_read(struct file *file, char __user *ubuf, size_t cnt,
				   loff_t *ppos)
{
	static const char none[] = "no results: echo run > bench\n";
	const char *out;

	guard(mutex)(&rust_bench_mutex);
	out = rust_bench_raw_out ?: none;
	return simple_read_from_buffer(ubuf, cnt, ppos, out, strlen(out));
}

static const struct file_operations rust_bench_raw_fops = {
	.read	= rust_bench_raw_read,
	.llseek	= default_llseek,
};

/*
 * pick_stock: 1 runs 7.3's stock pick and eligibility test on both positions
 * of the switch, for make bench's per-call run inside workloads (its third
 * side); 0 (the default) runs fair.c's C or the Rust one.
 */
static int sched_rust_pick_stock_get(void *data, u64 *val)
{
	*val = static_key_enabled(&sched_rust_pick_stock_key);
	return 0;
}

static int sched_rust_pick_stock_set(void *data, u64 val)
{
	if (val)
		static_branch_enable(&sched_rust_pick_stock_key);
	else
		static_branch_disable(&sched_rust_pick_stock_key);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(sched_rust_pick_stock_fops, sched_rust_pick_stock_get,
			 sched_rust_pick_stock_set, "%llu\n");

#ifdef CONFIG_FAIR_GROUP_SCHED
/*
 * tg_state_size: the per-CPU memory of one task group, for make
 * bench-scale: the size and alignment of struct cfs_tg_state, which C's
 * alloc_percpu() and Rust's PinnedPerCpu::new() both ask the percpu allocator
 * for, the possible CPUs it is allocated on, and their product.
 */
static int sched_rust_tg_state_size_show(struct seq_file *m, void *v)
{
	seq_printf(m, "size %zu align %zu possible_cpus %u bytes_per_group %zu\n",
		   sizeof(struct cfs_tg_state), __alignof__(struct cfs_tg_state),
		   num_possible_cpus(), sizeof(struct cfs_tg_state) * num_possible_cpus());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sched_rust_tg_state_size);
#endif

void __init sched_rust_bench_init_debugfs(struct dentry *dir)
{
	debugfs_create_file("bench", 0600, dir, NULL, &rust_bench_fops);
	debugfs_create_file("bench_raw", 0400, dir, NULL, &rust_bench_raw_fops);
	debugfs_create_file_unsafe("pick_stock", 0600, dir, NULL, &sched_rust_pick_stock_fops);
#ifdef CONFIG_FAIR_GROUP_SCHED
	debugfs_create_file("tg_state_size", 0444, dir, NULL, &sched_rust_tg_state_size_fops);
#endif
}
