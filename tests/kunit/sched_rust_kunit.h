/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test-only Rust entry points of CONFIG_SCHED_RUST_CFS_KUNIT_TEST
 * (kernel/sched/rust/kunit.rs): the group state's accessors tg_cfs_rq(),
 * tg_se(), cfs_rq_se() and __schedstats_from_se() the Rust way, which the
 * parity suite (kernel/sched/tests/sched_rust_kunit.c) compares with C's.
 * Included by rust/bindings/bindings_helper.h, so that `#[export]` checks the
 * definitions against these prototypes, and by the suite.
 */
#ifndef _KERNEL_SCHED_RUST_SCHED_RUST_KUNIT_H
#define _KERNEL_SCHED_RUST_SCHED_RUST_KUNIT_H

struct cfs_rq;
struct sched_entity;
struct sched_statistics;
struct task_group;

struct cfs_rq *sched_rust_tg_cfs_rq(struct task_group *tg, int cpu);
struct sched_entity *sched_rust_tg_se(struct task_group *tg, int cpu);
struct sched_entity *sched_rust_cfs_rq_se(struct cfs_rq *cfs_rq);
struct sched_statistics *sched_rust_group_se_stats(struct sched_entity *se);

#endif /* _KERNEL_SCHED_RUST_SCHED_RUST_KUNIT_H */
