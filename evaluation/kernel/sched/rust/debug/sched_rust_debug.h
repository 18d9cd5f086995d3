/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CONFIG_SCHED_RUST_CFS_DEBUG: the C implementations of the pieces of
 * CONFIG_SCHED_RUST_CFS kept beside the Rust ones, and the instruments that
 * compare them (runtime switch, shadow check, route statistics, KUnit
 * parity suites, benchmarks). An evaluation aid, not for production kernels.
 */
#ifndef _KERNEL_SCHED_RUST_SCHED_RUST_DEBUG_H
#define _KERNEL_SCHED_RUST_SCHED_RUST_DEBUG_H

struct dentry;

/*
 * fair.c compiles its own implementation of a piece without
 * CONFIG_SCHED_RUST_CFS, as always, and with the debug option as well: then
 * under the name SCHED_C(f), that is f_c, beside the Rust one.
 */
#define SCHED_RUST_C_TWINS \
	(!IS_ENABLED(CONFIG_SCHED_RUST_CFS) || IS_ENABLED(CONFIG_SCHED_RUST_CFS_DEBUG))
#ifdef CONFIG_SCHED_RUST_CFS_DEBUG
#define SCHED_C(f) f##_c
/*
 * A C twin that its dispatch inlines as the dispatch inlines the Rust
 * function (fraction_mm_sched()); without the debug option, the stock
 * function as it is.
 */
#define SCHED_C_INLINE __always_inline
#else
#define SCHED_C(f) f
#define SCHED_C_INLINE
#endif

#ifdef CONFIG_SCHED_RUST_CFS_DEBUG

#include <linux/atomic.h>
#include <linux/jump_label.h>
#include <linux/percpu-defs.h>

/* The pieces, as bits of the mask sched_rust_parse() returns. */
enum sched_rust_piece {
	SCHED_RUST_TG_STATE,
	SCHED_RUST_PICK,
	SCHED_RUST_LLC,
};

/*
 * Runtime switch: which pieces run on Rust, one static key per piece (true:
 * Rust), so that the hot paths test a patched jump. Set with the boot
 * parameter sched_rust= and the debugfs files in
 * /sys/kernel/debug/sched/sched_rust/, or static_branch_enable()/_disable().
 */
int sched_rust_parse(const char *str);

DECLARE_STATIC_KEY_TRUE(sched_rust_tg_state_key);	/* the per-CPU cfs_tg_state */
DECLARE_STATIC_KEY_TRUE(sched_rust_pick_key);		/* the EEVDF pick */
DECLARE_STATIC_KEY_TRUE(sched_rust_llc_key);		/* the LLC occupancy accounting */
/* The C pick is 7.3's stock one (make bench's third side). */
DECLARE_STATIC_KEY_FALSE(sched_rust_pick_stock_key);
/* Route statistics or the shadow check are on (on from boot with the shadow). */
DECLARE_STATIC_KEY_MAYBE(CONFIG_SCHED_RUST_CFS_SHADOW, sched_rust_pick_debug_key);

/**
 * sched_rust_pick_debug_update() - follow sched_rust_pick_stats_on and
 * sched_rust_pick_shadow_on in sched_rust_pick_debug_key
 *
 * Context: process context; may sleep (static key update).
 */
void sched_rust_pick_debug_update(void);

extern bool sched_rust_pick_stats_on;
extern bool sched_rust_pick_shadow_on;

/* The route a pick_eevdf() call took, as in the branches of the C code. */
enum sched_rust_pick_route {
	SCHED_RUST_ROUTE_SINGLE,	/* h_nr_queued == 1 */
	SCHED_RUST_ROUTE_BUDDY,		/* the next buddy */
	SCHED_RUST_ROUTE_PROTECT,	/* curr, within its protected slice */
	SCHED_RUST_ROUTE_FAST,		/* the leftmost entity is eligible */
	SCHED_RUST_ROUTE_HEAP,		/* heap search */
	SCHED_RUST_NR_ROUTES,
};

/* Per-CPU pick statistics, indexed by [implementation: 0 = C, 1 = Rust]. */
struct sched_rust_pick_stats {
	unsigned long route[2][SCHED_RUST_NR_ROUTES];
};
DECLARE_PER_CPU(struct sched_rust_pick_stats, sched_rust_pick_stats);

/* Shadow-check counters: calls compared and divergences found. */
extern atomic_long_t sched_rust_shadow_checks;
extern atomic_long_t sched_rust_shadow_divergences;

/*
 * Shadow check of the group state: new groups whose state both sides made
 * again and compared, per [side selected: 0 = C, 1 = Rust]; states made
 * again that differed; allocations made again that failed (nothing
 * compared).
 */
extern atomic_long_t sched_rust_tg_shadow[2];
extern atomic_long_t sched_rust_tg_shadow_divergences;
extern atomic_long_t sched_rust_tg_shadow_skipped;

/* Shadow check of the LLC counters at dequeue: checks made and violations found. */
extern atomic_long_t sched_rust_llc_checks;
extern atomic_long_t sched_rust_llc_violations;

/* The LLC functions that the LLC shadow check recomputes on both sides. */
enum sched_rust_llc_op {
	SCHED_RUST_LLC_ENQUEUE,		/* account_llc_enqueue() */
	SCHED_RUST_LLC_DEQUEUE,		/* account_llc_dequeue() */
	SCHED_RUST_LLC_PREF,		/* pref_llc_running_inc()/_dec() */
	SCHED_RUST_LLC_EPOCH,		/* __update_mm_sched(), fraction_mm_sched() */
	SCHED_RUST_LLC_AVG,		/* update_avg_scale() */
	SCHED_RUST_LLC_NR_OPS,
};

/*
 * LLC shadow check: comparisons made per [side selected: 0 = C, 1 = Rust]
 * and function, divergences found, and comparisons skipped because jiffies
 * or llc_epoch_period changed between the two recomputations.
 */
extern atomic_long_t sched_rust_llc_shadow[2][SCHED_RUST_LLC_NR_OPS];
extern atomic_long_t sched_rust_llc_shadow_divergences;
extern atomic_long_t sched_rust_llc_shadow_skipped;

/*
 * task_cache_work()'s preferred-LLC choice against its specification
 * (CONFIG_SCHED_CACHE, CONFIG_SCHED_RUST_CFS_SHADOW): scans checked, scans
 * whose sums move the preferred CPU, differences found, scans not checked
 * (no memory for the record, the group's preferred CPU changed or the sched
 * domains rebuilt during the scan, an LLC split between two domains, or the
 * preferred CPU reset to -1 concurrently after it), scans whose preferred
 * CPU left in the group was compared.
 */
enum sched_rust_llc_choice_count {
	SCHED_RUST_CHOICE_CHECKS,
	SCHED_RUST_CHOICE_MOVES,
	SCHED_RUST_CHOICE_DIVERGED,
	SCHED_RUST_CHOICE_SKIPPED,
	SCHED_RUST_CHOICE_LEFT,
	SCHED_RUST_CHOICE_NR,
};

extern atomic_long_t sched_rust_llc_choice[SCHED_RUST_CHOICE_NR];

#ifdef CONFIG_SCHED_RUST_CFS_KUNIT_TEST
#include <kunit/test-bug.h>

/*
 * Dispatches per piece and implementation ([piece][0: C, 1: Rust]) made by a
 * KUnit test thread: the switch test flips each piece's key and checks that
 * only the selected implementation's count grows. Outside a test this is a
 * patched-out jump (kunit_running), the same on both sides of a dispatch;
 * the LLC functions count only with the debug key on (their checked path),
 * as the switch test sets it.
 */
extern atomic_long_t sched_rust_test_calls[3][2];

static __always_inline void sched_rust_test_call(enum sched_rust_piece piece, bool rust)
{
	if (kunit_get_current_test())
		atomic_long_inc(&sched_rust_test_calls[piece][rust]);
}
#else
static __always_inline void sched_rust_test_call(enum sched_rust_piece piece, bool rust) { }
#endif

/**
 * sched_rust_init_debugfs() - create /sys/kernel/debug/sched/sched_rust/
 * @parent: the sched debugfs directory
 */
void sched_rust_init_debugfs(struct dentry *parent);

/* CONFIG_SCHED_RUST_CFS_BENCH: the bench file, defined in fair_bench.c. */
void sched_rust_bench_init_debugfs(struct dentry *dir);

#else /* !CONFIG_SCHED_RUST_CFS_DEBUG: */

static inline void sched_rust_init_debugfs(struct dentry *parent) { }

#endif /* !CONFIG_SCHED_RUST_CFS_DEBUG */

#endif /* _KERNEL_SCHED_RUST_SCHED_RUST_DEBUG_H */
