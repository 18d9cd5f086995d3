// SPDX-License-Identifier: GPL-2.0
//! Control of view_sent.rs: sending a value read through the view compiles.
// expect: ok
use kernel::sched::{ffi, RqLocked};

fn send_to_another_cpu<T: Send>(_t: T) {}

/// Sends a count.
pub fn f(rq: *mut ffi::rq, cfs_rq: *mut ffi::cfs_rq) {
    // SAFETY: The contract of the entry point.
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: As above.
    let cfs = unsafe { locked.cfs_rq(cfs_rq) };
    send_to_another_cpu(cfs.h_nr_queued());
}
