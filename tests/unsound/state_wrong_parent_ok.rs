// SPDX-License-Identifier: GPL-2.0
//! Control of state_wrong_parent.rs: the same call with the contract taken on compiles.
// expect: ok
use kernel::prelude::*;
use kernel::sched::{ffi, group::NewTaskGroup};

/// Links the group below `any`.
///
/// # Safety
///
/// `any` must be the parent of `tg`, under creation (`NewTaskGroup::from_raw`).
pub unsafe fn f(tg: *mut ffi::task_group, any: *mut ffi::task_group) -> Result {
    // SAFETY: The safety requirements of this function.
    unsafe { NewTaskGroup::from_raw(tg, any) }.init(GFP_KERNEL)
}
