// SPDX-License-Identifier: GPL-2.0
//! Control of token_sent.rs: the same hand-over of a value read under the token compiles.
// expect: ok
use kernel::sched::{ffi, RqLocked};

fn send_to_another_cpu<T: Send>(_t: T) {}

/// Hands a count over.
pub fn f(rq: *mut ffi::rq) {
    // SAFETY: The contract of the entry point.
    let locked = unsafe { RqLocked::assume_held(rq) };
    send_to_another_cpu(locked.llc().nr_llc_running());
}
