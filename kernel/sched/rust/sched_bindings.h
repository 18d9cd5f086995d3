/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's private structures, bound by bindgen for the kernel::sched
 * Rust abstractions alone (rust/Makefile: the items of the headers of
 * kernel/sched/), not for every Rust user: rust/bindings/bindings_helper.h
 * includes only rust/sched_rust.h, the prototypes of the entry points.
 */
#ifndef _KERNEL_SCHED_RUST_SCHED_BINDINGS_H
#define _KERNEL_SCHED_RUST_SCHED_BINDINGS_H

#include "../sched.h"

#endif /* _KERNEL_SCHED_RUST_SCHED_BINDINGS_H */
