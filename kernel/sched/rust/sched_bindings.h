/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's private structures, bound by bindgen for the kernel::sched
 * Rust abstractions alone, not for every Rust user: rust/Makefile generates
 * only the types, variables and constants defined in the headers of
 * kernel/sched/ and, of their functions, task_llc() alone (the types they
 * use from elsewhere stay the global bindings'), and
 * rust/bindings/bindings_helper.h includes only kernel/sched/rust/sched_rust.h,
 * the prototypes of the entry points. sched.h is included whole because its
 * structures are what the abstractions read; the generated file is filtered
 * by that path, not by this header.
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
