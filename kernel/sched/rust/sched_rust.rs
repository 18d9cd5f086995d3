// SPDX-License-Identifier: GPL-2.0

//! Rust implementation of parts of the fair scheduler (`CONFIG_SCHED_RUST_CFS`).
//!
//! C header: [`kernel/sched/rust/sched_rust.h`](srctree/kernel/sched/rust/sched_rust.h)
//!
//! Each piece replaces the implementation of `kernel/sched/fair.c` where the option is set, and
//! fair.c keeps maintaining the state the pieces read. Pieces:
//!
//! - [`eevdf`]: the EEVDF deadline-ordered pick, `pick_eevdf()`, and the eligibility test.
//! - `llc`: the LLC occupancy accounting of cache-aware scheduling (with
//!   `CONFIG_SCHED_CACHE`).
//! - `tg_state`: the per-CPU state of task groups, `alloc_fair_sched_group()` and its
//!   helpers (with `CONFIG_FAIR_GROUP_SCHED`).

pub mod eevdf;
#[cfg(CONFIG_SCHED_CACHE)]
pub mod llc;
#[cfg(CONFIG_FAIR_GROUP_SCHED)]
pub mod tg_state;

/// Prefix of the `pr_*!` messages of this crate (a module would get it from `module!`).
#[cfg(CONFIG_SCHED_CACHE)]
const __LOG_PREFIX: &[u8] = b"sched_rust\0";
