// SPDX-License-Identifier: GPL-2.0
//! Control of view_outlives_token.rs: the same read inside the token's scope compiles.
// expect: ok
use kernel::sched::{ffi, RqLocked};

/// Reads `curr` in the token's scope.
pub fn f(rq: *mut ffi::rq, cfs_rq: *mut ffi::cfs_rq) -> u64 {
    let x = {
        // SAFETY: The contract of the entry point, for this block only.
        let locked = unsafe { RqLocked::assume_held(rq) };
        // SAFETY: As above.
        unsafe { locked.cfs_rq(cfs_rq) }.curr().map_or(0, |curr| curr.vruntime())
    };
    x
}
