/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rust implementation of parts of the fair scheduler (CONFIG_SCHED_RUST_CFS).
 *
 * Every C-callable Rust entry point is declared here, once. The header is
 * included by kernel/sched/sched.h and by rust/bindings/bindings_helper.h, so
 * the Rust definitions (`#[export]`) are checked against these prototypes at
 * compile time. It uses only public types: struct cfs_rq and struct rq are
 * private to kernel/sched and invisible to bindgen, so fair.c passes the few
 * words the Rust side needs in a view structure instead.
 */
#ifndef _KERNEL_SCHED_RUST_SCHED_RUST_H
#define _KERNEL_SCHED_RUST_SCHED_RUST_H

#include <linux/jump_label.h>
#include <linux/rbtree_types.h>
#include <linux/types.h>

struct dentry;
struct sched_entity;

/**
 * struct rust_sched_cfs_view - the part of a cfs_rq that the EEVDF pick reads
 * @root: root of the deadline-ordered tree (cfs_rq->tasks_timeline)
 * @leftmost: leftmost node of that tree, or NULL if it is empty
 * @curr: cfs_rq->curr (not in the tree), or NULL
 * @next: cfs_rq->next (the next buddy, in the tree), or NULL
 * @sum_w_vruntime: cfs_rq->sum_w_vruntime
 * @sum_weight: cfs_rq->sum_weight
 * @zero_vruntime: cfs_rq->zero_vruntime
 * @sum_shift: cfs_rq->sum_shift
 * @h_nr_queued: cfs_rq->h_nr_queued
 *
 * Filled by fair.c under the rq lock; valid while that lock is held.
 */
struct rust_sched_cfs_view {
	struct rb_node *root;
	struct rb_node *leftmost;
	struct sched_entity *curr;
	struct sched_entity *next;
	s64 sum_w_vruntime;
	u64 sum_weight;
	u64 zero_vruntime;
	unsigned int sum_shift;
	unsigned int h_nr_queued;
};

/**
 * rust_sched_vruntime_eligible() - Rust twin of vruntime_eligible()
 * @view: the cfs_rq, as filled by fair.c under the rq lock
 * @vruntime: the virtual runtime to test
 *
 * Return: true if @vruntime is eligible (lag >= 0) on @view.
 */
bool rust_sched_vruntime_eligible(const struct rust_sched_cfs_view *view, u64 vruntime);

/**
 * rust_sched_pick_eevdf() - Rust twin of pick_eevdf()
 * @view: the cfs_rq, as filled by fair.c under the rq lock
 * @protect: honour the slice protection of curr and the next buddy
 * @pick_buddy: sched_feat(PICK_BUDDY)
 *
 * Return: the entity to run next, or NULL if none is eligible and there is
 * no current entity.
 */
struct sched_entity *rust_sched_pick_eevdf(const struct rust_sched_cfs_view *view,
					   bool protect, bool pick_buddy);

#ifdef CONFIG_SCHED_RUST_CFS

#include <linux/atomic.h>
#include <linux/percpu-defs.h>

/*
 * Runtime switch: one static key per piece, true when the Rust implementation
 * is selected. Set with the boot parameter sched_rust_cfs= and the debugfs
 * files in /sys/kernel/debug/sched/rust_cfs/.
 */
DECLARE_STATIC_KEY_TRUE(sched_rust_pick_key);

/*
 * Debug instrumentation of the pick, off by default and free when off: the
 * key is true when route statistics or the shadow check are enabled.
 */
DECLARE_STATIC_KEY_FALSE(sched_rust_pick_debug_key);
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

/**
 * rust_sched_init_debugfs() - create /sys/kernel/debug/sched/rust_cfs/
 * @parent: the sched debugfs directory
 */
void rust_sched_init_debugfs(struct dentry *parent);

#else /* !CONFIG_SCHED_RUST_CFS: */

static inline void rust_sched_init_debugfs(struct dentry *parent) { }

#endif /* !CONFIG_SCHED_RUST_CFS */

#endif /* _KERNEL_SCHED_RUST_SCHED_RUST_H */
