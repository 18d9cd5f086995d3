// SPDX-License-Identifier: GPL-2.0
//! Misuse: reaches the scheduler's private structures through the global bindings, which every
//! Rust user sees (they have only the entry points' prototypes).
// expect: E0412
// expect-message: cannot find type `cfs_tg_state` in crate `kernel::bindings`
/// Takes a group's per-CPU state.
pub fn f(_state: *mut kernel::bindings::cfs_tg_state) {} //~ ERROR
