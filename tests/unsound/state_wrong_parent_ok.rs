// SPDX-License-Identifier: GPL-2.0
//! Control of state_wrong_parent.rs: the same call with the contract taken on compiles.
// expect: ok
use kernel::prelude::*;
use kernel::sched::{ffi, group};

/// Links the group below `any`.
///
/// # Safety
///
/// `tg` must be under creation and `any` its parent (`group::alloc_state`).
pub unsafe fn f(tg: *mut ffi::task_group, any: *mut ffi::task_group) -> Result {
    // SAFETY: The safety requirements of this function.
    unsafe { group::alloc_state(tg, any, GFP_KERNEL) }
}
