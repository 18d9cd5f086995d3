// SPDX-License-Identifier: GPL-2.0
//! Misuse: sends the proof that this CPU holds a runqueue's `cpu_epoch_lock` to another thread.
//! Refused because the token is `!Send`: it holds the runqueue's raw address; a second error
//! would fail the check.
// expect: E0277
// expect-message: `*mut rq` cannot be sent between threads safely
// expect-note: within `EpochLocked`, the trait `Send` is not implemented for `*mut rq`
use kernel::sched::{ffi, EpochLocked};

fn send_to_another_cpu<T: Send>(_t: T) {}

/// Hands the token over.
pub fn f(rq: *mut ffi::rq) {
    // SAFETY: The contract of the entry point; the misuse is what follows.
    let locked = unsafe { EpochLocked::assume_held(rq) };
    send_to_another_cpu(locked); //~ ERROR
}
