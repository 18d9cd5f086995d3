// SPDX-License-Identifier: GPL-2.0
//! Misuse: keeps the LLC counters of a runqueue after the lock's token is gone (lifetime hole).
// expect: E0597
// expect-message: `locked` does not live long enough
use kernel::sched::{ffi, RqLocked};

/// Reads `nr_llc_running` after the token's scope.
pub fn f(rq: *mut ffi::rq) -> u32 {
    let llc = {
        // SAFETY: The contract of the entry point, for this block only.
        let locked = unsafe { RqLocked::assume_held(rq) };
        locked.llc() //~ ERROR
    };
    llc.nr_llc_running() //~ REASON
}
