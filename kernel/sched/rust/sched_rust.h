/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rust implementation of parts of the fair scheduler (CONFIG_SCHED_RUST_CFS).
 *
 * Every C-callable Rust entry point is declared here, once. The header is
 * included at the end of kernel/sched/sched.h, which
 * rust/bindings/bindings_helper.h includes, so the Rust definitions
 * (`#[export]`) are checked against these prototypes at compile time and the
 * Rust side sees the scheduler's private structures.
 */
#ifndef _KERNEL_SCHED_RUST_SCHED_RUST_H
#define _KERNEL_SCHED_RUST_SCHED_RUST_H

#include <linux/compiler.h>
#include <linux/types.h>

struct cfs_rq;
struct dentry;
struct rq;
struct sched_cache_time;
struct sched_entity;
struct sched_statistics;
struct task_group;
struct task_struct;

/**
 * rust_sched_vruntime_eligible() - Rust twin of vruntime_eligible()
 * @cfs_rq: the runqueue, whose rq lock the caller holds
 * @vruntime: the virtual runtime to test
 *
 * Return: true if @vruntime is eligible (lag >= 0) on @cfs_rq.
 */
bool rust_sched_vruntime_eligible(struct cfs_rq *cfs_rq, u64 vruntime);

/**
 * rust_sched_pick_eevdf() - Rust twin of pick_eevdf()
 * @cfs_rq: the runqueue, whose rq lock the caller holds
 * @protect: honour the slice protection of curr and the next buddy
 * @pick_buddy: sched_feat(PICK_BUDDY)
 *
 * Return: the entity to run next, or NULL if none is eligible and there is
 * no current entity.
 */
struct sched_entity *rust_sched_pick_eevdf(struct cfs_rq *cfs_rq, bool protect,
					   bool pick_buddy);

/*
 * Piece 1: the per-CPU state of task groups (CONFIG_FAIR_GROUP_SCHED). The
 * Rust functions have the contracts of their C twins in fair.c.
 */
int rust_sched_alloc_fair_sched_group(struct task_group *tg, struct task_group *parent);
void rust_sched_free_fair_sched_group(struct task_group *tg);
void rust_sched_init_tg_cfs_entry(struct task_group *tg, struct cfs_rq *cfs_rq,
				  struct sched_entity *se, int cpu,
				  struct sched_entity *parent);
#ifdef CONFIG_SCHED_RUST_CFS_KUNIT_TEST
/* Rust twins of the C accessors, for the parity tests only. */
struct cfs_rq *rust_sched_tg_cfs_rq(struct task_group *tg, int cpu);
struct sched_entity *rust_sched_tg_se(struct task_group *tg, int cpu);
struct sched_entity *rust_sched_cfs_rq_se(struct cfs_rq *cfs_rq);
struct sched_statistics *rust_sched_group_se_stats(struct sched_entity *se);
#endif
/*
 * Piece 3: the LLC occupancy accounting (CONFIG_SCHED_CACHE), with the
 * contracts of their C twins; the caller holds the rq lock, or for
 * rust_sched_update_mm_sched() (__update_mm_sched()) and
 * rust_sched_fraction_mm_sched() (the update and the division of
 * fraction_mm_sched()) rq->cpu_epoch_lock. now is jiffies; period is
 * llc_epoch_period (0 counts as 1).
 */
void rust_sched_account_llc_enqueue(struct rq *rq, struct task_struct *p);
void rust_sched_account_llc_dequeue(struct rq *rq, struct task_struct *p);
void rust_sched_pref_llc_running(struct rq *rq, struct task_struct *p, bool inc);
void rust_sched_update_mm_sched(struct rq *rq, struct sched_cache_time *pcpu,
				unsigned long now, unsigned int period);
unsigned long rust_sched_fraction_mm_sched(struct rq *rq, struct sched_cache_time *pcpu,
					   unsigned long now, unsigned int period);

/**
 * struct sched_llc_scan - the preferred-LLC choice of task_cache_work()
 * @a_occ: summed occupancy of the LLC being scanned
 * @m_occ: highest occupancy of a CPU of that LLC
 * @m_cpu: that CPU, or -1
 * @m_a_cpu: the busiest CPU of the busiest LLC so far, or -1
 * @m_a_occ: the summed occupancy of that LLC
 * @curr_m_a_occ: the summed occupancy of the preferred LLC
 *
 * Starts as { .m_cpu = -1, .m_a_cpu = -1 }; the scan feeds it every CPU of an
 * LLC, then the end of that LLC, and finally asks whether to move the
 * preferred CPU to @m_a_cpu.
 */
struct sched_llc_scan {
	unsigned long a_occ;
	unsigned long m_occ;
	int m_cpu;
	int m_a_cpu;
	unsigned long m_a_occ;
	unsigned long curr_m_a_occ;
};

/* The steps of the scan, with the contracts of llc_scan_*_c() in fair.c. */
void rust_sched_llc_scan_cpu(struct sched_llc_scan *s, int cpu, unsigned long occ);
void rust_sched_llc_scan_llc_done(struct sched_llc_scan *s, bool pref_llc);
bool rust_sched_llc_scan_move(const struct sched_llc_scan *s);
/* Rust twin of update_avg_scale(), @llc_size being per_cpu(sd_llc_size, this CPU). */
void rust_sched_update_avg_scale(u64 *avg, u64 sample, int llc_size);

/* lockdep checks of the Rust lock tokens (CONFIG_LOCKDEP only). */
void sched_rust_assert_rq_held(struct rq *rq);
void sched_rust_assert_epoch_held(struct rq *rq);

/* C helpers of fair.c that the Rust side calls (static there). */
void sched_init_cfs_rq_runtime(struct cfs_rq *cfs_rq);
void sched_tg_init_cfs_bandwidth(struct task_group *tg, struct task_group *parent);

/*
 * The pieces, as bits of the mask sched_rust_cfs_parse() returns; defined
 * without the option too, for the dispatch's no-op test counter.
 */
enum sched_rust_piece {
	SCHED_RUST_TG_STATE,
	SCHED_RUST_PICK,
	SCHED_RUST_LLC,
};

#ifdef CONFIG_SCHED_RUST_CFS

#include <linux/atomic.h>
#include <linux/jump_label.h>
#include <linux/percpu-defs.h>

/*
 * Runtime switch: which pieces run on Rust, one static key per piece (true:
 * Rust), so that the hot paths test a patched jump. Set with the boot
 * parameter sched_rust_cfs= and the debugfs files in
 * /sys/kernel/debug/sched/rust_cfs/, or static_branch_enable()/_disable().
 *
 * Under QEMU's multi-threaded TCG, a CPU has been seen to execute a stale
 * int3 after another CPU flipped a static key; the project's scripts run
 * QEMU single-threaded (-accel tcg,thread=single).
 */
int sched_rust_cfs_parse(const char *str);

DECLARE_STATIC_KEY_TRUE(sched_rust_tg_state_key);	/* the per-CPU cfs_tg_state */
DECLARE_STATIC_KEY_TRUE(sched_rust_pick_key);		/* the EEVDF pick */
DECLARE_STATIC_KEY_TRUE(sched_rust_llc_key);		/* the LLC occupancy accounting */
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
enum rust_sched_pick_route {
	RUST_SCHED_PICK_SINGLE,		/* h_nr_queued == 1 */
	RUST_SCHED_PICK_BUDDY,		/* the next buddy */
	RUST_SCHED_PICK_PROTECT,	/* curr, within its protected slice */
	RUST_SCHED_PICK_FAST,		/* the leftmost entity is eligible */
	RUST_SCHED_PICK_HEAP,		/* heap search */
	RUST_SCHED_PICK_NR_ROUTES,
};

/* Per-CPU pick statistics, indexed by [implementation: 0 = C, 1 = Rust]. */
struct rust_sched_pick_stats {
	unsigned long route[2][RUST_SCHED_PICK_NR_ROUTES];
};
DECLARE_PER_CPU(struct rust_sched_pick_stats, rust_sched_pick_stats);

/* Shadow-check counters: calls compared and divergences found. */
extern atomic_long_t rust_sched_shadow_checks;
extern atomic_long_t rust_sched_shadow_divergences;

/* Shadow check of the LLC counters at dequeue: checks made and violations found. */
extern atomic_long_t rust_sched_llc_checks;
extern atomic_long_t rust_sched_llc_violations;

#ifdef CONFIG_SCHED_RUST_CFS_KUNIT_TEST
#include <kunit/test-bug.h>

/*
 * Dispatches per piece and implementation ([piece][0: C, 1: Rust]) made by a
 * KUnit test thread: the switch test flips each piece's key and checks that
 * only the selected implementation's count grows. Outside a test this is a
 * patched-out jump (kunit_running), the same on both sides of a dispatch.
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
 * rust_sched_init_debugfs() - create /sys/kernel/debug/sched/rust_cfs/
 * @parent: the sched debugfs directory
 */
void rust_sched_init_debugfs(struct dentry *parent);

/* CONFIG_SCHED_RUST_CFS_BENCH: the bench file, defined in fair_bench.c. */
void rust_sched_bench_init_debugfs(struct dentry *dir);

#else /* !CONFIG_SCHED_RUST_CFS: */

static inline void rust_sched_init_debugfs(struct dentry *parent) { }
static __always_inline void sched_rust_test_call(enum sched_rust_piece piece, bool rust) { }

#endif /* !CONFIG_SCHED_RUST_CFS */

#endif /* _KERNEL_SCHED_RUST_SCHED_RUST_H */
