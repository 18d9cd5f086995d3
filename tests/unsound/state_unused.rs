// SPDX-License-Identifier: GPL-2.0
//! Misuse: makes a group under creation and drops it without building its fair-scheduler part,
//! leaving C a group with no per-CPU state: `NewTaskGroup` is `#[must_use]`, a lint (denied
//! here) without an error code.
// expect: lint
// expect-message: unused `NewTaskGroup` that must be used
use kernel::sched::{ffi, group::NewTaskGroup};

/// Forgets to call `init()`.
///
/// # Safety
///
/// The contract of `NewTaskGroup::from_raw`.
#[deny(unused_must_use)]
pub unsafe fn f(tg: *mut ffi::task_group, parent: *mut ffi::task_group) {
    // SAFETY: The safety requirements of this function.
    unsafe { NewTaskGroup::from_raw(tg, parent) };
}
