// SPDX-License-Identifier: GPL-2.0
//! Control of epoch_token_sent.rs: the same hand-over of a value read under the token compiles.
// expect: ok
use kernel::sched::{ffi, EpochLocked};

fn send_to_another_cpu<T: Send>(_t: T) {}

/// Hands the epoch over.
pub fn f(rq: *mut ffi::rq) {
    // SAFETY: The contract of the entry point.
    let locked = unsafe { EpochLocked::assume_held(rq) };
    send_to_another_cpu(locked.epoch().epoch());
}
