/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's private structures, bound by bindgen for the kernel::sched
 * Rust abstractions alone, not for every Rust user: rust/Makefile generates
 * only what they use (struct rq, cfs_rq, cfs_tg_state and task_group, the
 * private structures these embed as opaque ones, runqueues, root_task_group,
 * NICE_0_LOAD and task_llc()), and rust/bindings/bindings_helper.h includes
 * only kernel/sched/rust/sched_rust.h, the prototypes of the entry points.
 */
#ifndef _KERNEL_SCHED_RUST_SCHED_BINDINGS_H
#define _KERNEL_SCHED_RUST_SCHED_BINDINGS_H

#include "../sched.h"

/*
 * A structure with a bitfield, so that the generated module always has its
 * own __BindgenBitfieldUnit: without CONFIG_CFS_BANDWIDTH no structure of
 * sched.h has one, and the type would then be the global bindings' (rust/
 * Makefile allowlists this structure by name).
 */
struct sched_rust_bindgen_bitfield {
	unsigned int unused:1;
};

#endif /* _KERNEL_SCHED_RUST_SCHED_BINDINGS_H */
