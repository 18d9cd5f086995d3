// SPDX-License-Identifier: GPL-2.0
//! Misuse: keeps the epoch clock after the `cpu_epoch_lock` token is dropped (lifetime hole).
// expect: E0505
// expect-message: cannot move out of `locked` because it is borrowed
use kernel::sched::{ffi, EpochLocked};

/// Reads the epoch clock after dropping the token.
pub fn f(rq: *mut ffi::rq) -> u64 {
    // SAFETY: The contract of the entry point, until the drop below.
    let locked = unsafe { EpochLocked::assume_held(rq) };
    let epoch = locked.epoch();
    drop(locked); //~ ERROR
    epoch.epoch() //~ REASON
}
