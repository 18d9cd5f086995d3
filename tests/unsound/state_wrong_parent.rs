// SPDX-License-Identifier: GPL-2.0
//! Misuse: builds a new group's state below a group of the caller's choice, which need not be
//! its parent nor outlive it (hole S3): naming the parent is the `unsafe` contract of
//! `NewTaskGroup::from_raw()`.
// expect: E0133
// expect-message: call to unsafe function `NewTaskGroup::<'a>::from_raw` is unsafe and requires unsafe block
use kernel::prelude::*;
use kernel::sched::{ffi, group::NewTaskGroup};

/// Links the group below `any`.
pub fn f(tg: *mut ffi::task_group, any: *mut ffi::task_group) -> Result {
    NewTaskGroup::from_raw(tg, any).init(GFP_KERNEL)
}
