// SPDX-License-Identifier: GPL-2.0
//! Control of llc_view_outlives_token.rs: the same read inside the token's scope compiles.
// expect: ok
use kernel::sched::{ffi, RqLocked};

/// Reads `nr_llc_running` in the token's scope.
pub fn f(rq: *mut ffi::rq) -> u32 {
    let llc = {
        // SAFETY: The contract of the entry point, for this block only.
        let locked = unsafe { RqLocked::assume_held(rq) };
        locked.llc().nr_llc_running()
    };
    llc
}
