// SPDX-License-Identifier: GPL-2.0
//! Control of epoch_view_outlives_token.rs: the same read before the drop compiles.
// expect: ok
use kernel::sched::{ffi, EpochLocked};

/// Reads the epoch clock, then drops the token.
pub fn f(rq: *mut ffi::rq) -> u64 {
    // SAFETY: The contract of the entry point, until the drop below.
    let locked = unsafe { EpochLocked::assume_held(rq) };
    let epoch = locked.epoch();
    let v = epoch.epoch();
    drop(locked);
    v
}
