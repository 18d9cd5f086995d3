// SPDX-License-Identifier: GPL-2.0

//! Per-CPU data.
//!
//! C header: [`include/linux/percpu.h`](srctree/include/linux/percpu.h)
//!
//! [`pinned`]: owned dynamic per-CPU allocations whose instances never move, initialised in
//! place per CPU.

pub mod pinned;
