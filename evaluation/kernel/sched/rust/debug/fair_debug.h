/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CONFIG_SCHED_RUST_CFS_DEBUG: what kernel/sched/fair.c calls before the
 * files included at its end define it (rust/debug/fair_debug.c and the shadow and
 * statistics files). Included by fair.c only.
 */
#ifndef _KERNEL_SCHED_RUST_FAIR_DEBUG_H
#define _KERNEL_SCHED_RUST_FAIR_DEBUG_H

/* The C implementations that are not static in fair.c. */
void free_fair_sched_group_c(struct task_group *tg);
int alloc_fair_sched_group_c(struct task_group *tg, struct task_group *parent);
void init_tg_cfs_entry_c(struct task_group *tg, struct cfs_rq *cfs_rq,
			 struct sched_entity *se, int cpu,
			 struct sched_entity *parent);

/* Each piece's entry points through the switch (rust/debug/fair_debug.c). */
static inline int vruntime_eligible_debug(struct cfs_rq *cfs_rq, u64 vruntime);
static noinline struct sched_entity *pick_eevdf_debug(struct cfs_rq *cfs_rq, bool protect);
#ifdef CONFIG_FAIR_GROUP_SCHED
static void free_fair_sched_group_debug(struct task_group *tg);
static int alloc_fair_sched_group_debug(struct task_group *tg, struct task_group *parent);
static void init_tg_cfs_entry_debug(struct task_group *tg, struct cfs_rq *cfs_rq,
				    struct sched_entity *se, int cpu,
				    struct sched_entity *parent);
#endif
#ifdef CONFIG_SCHED_CACHE
static inline void pref_llc_running_debug(struct rq *rq, struct task_struct *p, bool inc);
static noinline void account_llc_enqueue_debug(struct rq *rq, struct task_struct *p);
static noinline void account_llc_dequeue_debug(struct rq *rq, struct task_struct *p);
static inline void __update_mm_sched_debug(struct rq *rq, struct sched_cache_time *pcpu_sched);
static unsigned long fraction_mm_sched_debug(struct rq *rq, struct sched_cache_time *pcpu_sched);
static inline void update_avg_scale_debug(u64 *avg, u64 sample);
#endif

/* The instruments (rust/debug/fair_shadow.c, rust/debug/fair_stats.c). */
#ifdef CONFIG_SCHED_RUST_CFS_SHADOW
static noinline void
vruntime_eligible_shadow(struct cfs_rq *cfs_rq, u64 vruntime, bool rust, int ret);
static noinline void
pick_eevdf_shadow(struct cfs_rq *cfs_rq, bool protect, bool rust, struct sched_entity *se);
#ifdef CONFIG_FAIR_GROUP_SCHED
static noinline void
alloc_fair_sched_group_shadow(struct task_group *tg, struct task_group *parent, bool rust);
#endif
#ifdef CONFIG_SCHED_CACHE
static void account_llc_check(struct rq *rq, struct task_struct *leaving);
static void llc_shadow_counts(struct rq *rq, struct task_struct *p,
			      enum sched_rust_llc_op op, bool inc, bool rust);
static void llc_shadow_epoch(struct rq *rq, struct sched_cache_time *pcpu_sched, bool rust);
static void llc_shadow_avg(u64 *avg, u64 sample, bool rust);
struct llc_choice;
static struct llc_choice *llc_choice_begin(struct sched_cache_group *grp, unsigned long now);
static noinline void llc_choice_record(struct llc_choice *c, int cpu, unsigned long occ);
static noinline void llc_choice_scan(struct llc_choice *c, const struct cpumask *cpus);
static noinline void llc_choice_left(struct llc_choice *c, struct sched_cache_group *grp);
static noinline void llc_choice_check(struct llc_choice *c, struct sched_cache_group *grp,
				      int m_a_cpu, unsigned long m_a_occ,
				      unsigned long curr_m_a_occ);
static void llc_choice_ending(struct sched_cache_group *grp);
static void llc_choice_written(struct sched_cache_group *grp);
#endif
#else
static inline void
vruntime_eligible_shadow(struct cfs_rq *cfs_rq, u64 vruntime, bool rust, int ret) { }
static inline void
pick_eevdf_shadow(struct cfs_rq *cfs_rq, bool protect, bool rust, struct sched_entity *se) { }
static inline void
alloc_fair_sched_group_shadow(struct task_group *tg, struct task_group *parent, bool rust) { }
static inline void account_llc_check(struct rq *rq, struct task_struct *leaving) { }
#ifdef CONFIG_SCHED_CACHE
static inline void llc_shadow_counts(struct rq *rq, struct task_struct *p,
				     enum sched_rust_llc_op op, bool inc, bool rust) { }
static inline void
llc_shadow_epoch(struct rq *rq, struct sched_cache_time *pcpu_sched, bool rust) { }
static inline void llc_shadow_avg(u64 *avg, u64 sample, bool rust) { }
struct llc_choice;
static inline struct llc_choice *llc_choice_begin(struct sched_cache_group *grp,
						  unsigned long now)
{
	return NULL;
}

static inline void llc_choice_record(struct llc_choice *c, int cpu, unsigned long occ) { }
static inline void llc_choice_scan(struct llc_choice *c, const struct cpumask *cpus) { }
static inline void llc_choice_left(struct llc_choice *c, struct sched_cache_group *grp) { }
static inline void llc_choice_check(struct llc_choice *c, struct sched_cache_group *grp,
				    int m_a_cpu, unsigned long m_a_occ,
				    unsigned long curr_m_a_occ) { }
static inline void llc_choice_ending(struct sched_cache_group *grp) { }
static inline void llc_choice_written(struct sched_cache_group *grp) { }
#endif
#endif
#ifdef CONFIG_SCHED_CACHE
/*
 * task_cache_work()'s scan, checked against the specification of the
 * preferred-LLC choice (rust/debug/fair_shadow.c) when the shadow check is
 * on: @c is NULL otherwise, and the scan makes no call.
 */
static inline void llc_choice_occ(struct llc_choice *c, int cpu, unsigned long occ)
{
	if (unlikely(c))
		llc_choice_record(c, cpu, occ);
}

static inline void llc_choice_cpus(struct llc_choice *c, const struct cpumask *cpus)
{
	if (unlikely(c))
		llc_choice_scan(c, cpus);
}

static inline void llc_choice_end(struct llc_choice *c, struct sched_cache_group *grp,
				  int m_a_cpu, unsigned long m_a_occ, unsigned long curr_m_a_occ)
{
	if (unlikely(c))
		llc_choice_check(c, grp, m_a_cpu, m_a_occ, curr_m_a_occ);
	/* every scan, checked or not: it may write the group's preferred CPU next */
	llc_choice_ending(grp);
}

static inline void llc_choice_after(struct llc_choice *c, struct sched_cache_group *grp)
{
	if (unlikely(c))
		llc_choice_left(c, grp);
	llc_choice_written(grp);
}
#endif
#ifdef CONFIG_SCHED_RUST_CFS_STATS
static noinline void pick_eevdf_stats(struct cfs_rq *cfs_rq, bool protect, bool rust);
#else
static inline void pick_eevdf_stats(struct cfs_rq *cfs_rq, bool protect, bool rust) { }
#endif

#endif /* _KERNEL_SCHED_RUST_FAIR_DEBUG_H */
