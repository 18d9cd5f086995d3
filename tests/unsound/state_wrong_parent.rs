// SPDX-License-Identifier: GPL-2.0
//! Misuse: builds a new group's state below a group of the caller's choice, which need not be
//! its parent nor outlive it (hole S3): naming the group under creation and its parent is the
//! `unsafe` contract of `group::alloc_state()`.
// expect: E0133
// expect-message: call to unsafe function `alloc_state` is unsafe and requires unsafe block
use kernel::prelude::*;
use kernel::sched::{ffi, group};

/// Links the group below `any`.
pub fn f(tg: *mut ffi::task_group, any: *mut ffi::task_group) -> Result { //~ REASON
    group::alloc_state(tg, any, GFP_KERNEL) //~ ERROR
}
