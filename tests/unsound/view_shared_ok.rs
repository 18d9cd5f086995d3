// SPDX-License-Identifier: GPL-2.0
//! Control of view_shared.rs: sharing a value read through the view compiles.
// expect: ok
use kernel::sched::{ffi, RqLocked};

fn share_with_another_cpu<T: Sync + ?Sized>(_t: &T) {}

/// Shares a count.
pub fn f(rq: *mut ffi::rq, cfs_rq: *mut ffi::cfs_rq) {
    // SAFETY: The contract of the entry point.
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: As above.
    let cfs = unsafe { locked.cfs_rq(cfs_rq) };
    share_with_another_cpu(&cfs.h_nr_queued());
}
