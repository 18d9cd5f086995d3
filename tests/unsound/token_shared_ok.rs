// SPDX-License-Identifier: GPL-2.0
//! Control of token_shared.rs: sharing a value read under the token compiles.
// expect: ok
use kernel::sched::{ffi, RqLocked};

fn share_with_another_cpu<T: Sync + ?Sized>(_t: &T) {}

/// Shares a count.
pub fn f(rq: *mut ffi::rq) {
    // SAFETY: The contract of the entry point.
    let locked = unsafe { RqLocked::assume_held(rq) };
    share_with_another_cpu(&locked.llc().nr_llc_running());
}
