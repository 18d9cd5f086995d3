/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rust implementation of parts of the fair scheduler (CONFIG_SCHED_RUST_CFS):
 * with the option, fair.c calls these functions in place of its own
 * implementations of the same code.
 *
 * Every C-callable Rust entry point is declared here, once. The header is
 * included at the end of kernel/sched/sched.h, for fair.c, and by
 * rust/bindings/bindings_helper.h, so the Rust definitions (`#[export]`) are
 * checked against these prototypes at compile time. It needs only the
 * structures' names: the global bindings see them opaque, and the
 * scheduler's private structures are bound for kernel::sched alone
 * (sched_bindings.h).
 */
#ifndef _KERNEL_SCHED_RUST_SCHED_RUST_H
#define _KERNEL_SCHED_RUST_SCHED_RUST_H

#include <linux/compiler.h>
#include <linux/types.h>

struct cfs_rq;
struct rq;
struct sched_cache_time;
struct sched_entity;
struct task_group;
struct task_struct;

/**
 * sched_rust_vruntime_eligible() - vruntime_eligible() of fair.c
 * @cfs_rq: the runqueue, whose rq lock the caller holds
 * @vruntime: the virtual runtime to test
 *
 * Return: true if @vruntime is eligible (lag >= 0) on @cfs_rq.
 */
bool sched_rust_vruntime_eligible(struct cfs_rq *cfs_rq, u64 vruntime);

/**
 * sched_rust_pick_eevdf() - pick_eevdf() of fair.c
 * @cfs_rq: the runqueue, whose rq lock the caller holds
 * @protect: honour the slice protection of curr and the next buddy
 *
 * Return: the entity to run next, or NULL if none is eligible and there is
 * no current entity.
 */
struct sched_entity *sched_rust_pick_eevdf(struct cfs_rq *cfs_rq, bool protect);

/*
 * sched_feat(PICK_BUDDY), from fair.c, for the Rust pick: __always_inline
 * there, so that the static branch lands where the Rust pick tests it, as
 * in C's pick.
 */
bool sched_rust_pick_buddy(void);

/*
 * The per-CPU state of task groups (CONFIG_FAIR_GROUP_SCHED), with the
 * contracts of alloc_fair_sched_group(), free_fair_sched_group() and
 * init_tg_cfs_entry().
 */
int sched_rust_alloc_fair_sched_group(struct task_group *tg, struct task_group *parent);
void sched_rust_free_fair_sched_group(struct task_group *tg);
void sched_rust_init_tg_cfs_entry(struct task_group *tg, struct cfs_rq *cfs_rq,
				  struct sched_entity *se, int cpu,
				  struct sched_entity *parent);
/*
 * The LLC occupancy accounting (CONFIG_SCHED_CACHE), with the contracts of
 * account_llc_enqueue(), account_llc_dequeue(), pref_llc_running_inc() and
 * _dec(); the caller holds the rq lock, or for
 * sched_rust_update_mm_sched() (__update_mm_sched()) and
 * sched_rust_fraction_mm_sched() (the update and the division of
 * fraction_mm_sched()) rq->cpu_epoch_lock. now is jiffies; period is
 * llc_epoch_period (0 counts as 1).
 */
void sched_rust_account_llc_enqueue(struct rq *rq, struct task_struct *p);
void sched_rust_account_llc_dequeue(struct rq *rq, struct task_struct *p);
void sched_rust_pref_llc_running(struct rq *rq, struct task_struct *p, bool inc);
void sched_rust_update_mm_sched(struct rq *rq, struct sched_cache_time *pcpu,
				unsigned long now, unsigned int period);
unsigned long sched_rust_fraction_mm_sched(struct rq *rq, struct sched_cache_time *pcpu,
					   unsigned long now, unsigned int period);

/* update_avg_scale(), @llc_size being per_cpu(sd_llc_size, this CPU). */
void sched_rust_update_avg_scale(u64 *avg, u64 sample, int llc_size);

/* lockdep checks of the Rust lock tokens (CONFIG_LOCKDEP only). */
void sched_rust_assert_rq_held(struct rq *rq);
void sched_rust_assert_epoch_held(struct rq *rq);

/*
 * Steps of init_tg_cfs_entry() and alloc_fair_sched_group(), from fair.c:
 * __always_inline there, so that the Rust side gets them inline as C does.
 */
void sched_rust_init_cfs_rq(struct cfs_rq *cfs_rq);
void sched_rust_init_cfs_rq_runtime(struct cfs_rq *cfs_rq);
void sched_rust_init_entity_runnable_average(struct sched_entity *se);
void sched_rust_init_tg_cfs_bandwidth(struct task_group *tg, struct task_group *parent);

#endif /* _KERNEL_SCHED_RUST_SCHED_RUST_H */
