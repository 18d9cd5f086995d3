// SPDX-License-Identifier: GPL-2.0
//! Control of state_unused.rs: the same group, built, compiles.
// expect: ok
use kernel::prelude::*;
use kernel::sched::{ffi, group::NewTaskGroup};

/// Calls `init()`.
///
/// # Safety
///
/// The contract of `NewTaskGroup::from_raw`.
#[deny(unused_must_use)]
pub unsafe fn f(tg: *mut ffi::task_group, parent: *mut ffi::task_group) -> Result {
    // SAFETY: The safety requirements of this function.
    unsafe { NewTaskGroup::from_raw(tg, parent) }.init(GFP_KERNEL)
}
