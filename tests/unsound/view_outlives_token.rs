// SPDX-License-Identifier: GPL-2.0
//! Misuse: keeps a runqueue view after the lock's token is gone (lifetime hole).
// expect: E0597
// expect-message: `locked` does not live long enough
use kernel::sched::{ffi, RqLocked};

/// Reads `curr` after the token's scope.
pub fn f(rq: *mut ffi::rq, cfs_rq: *mut ffi::cfs_rq) -> u64 {
    let x = {
        // SAFETY: The contract of the entry point, for this block only.
        let locked = unsafe { RqLocked::assume_held(rq) };
        // SAFETY: As above.
        unsafe { locked.cfs_rq(cfs_rq) } //~ ERROR
    };
    x.curr().map_or(0, |curr| curr.vruntime()) //~ REASON
}
