// SPDX-License-Identifier: GPL-2.0
//! Misuse: sends the proof that this CPU holds a runqueue's `cpu_epoch_lock` to another thread.
//! Refused by the token's `NotThreadSafe` marker (`PhantomData<*mut ()>`) and nothing else: the
//! message names its `*mut ()`, and a second error (another field) would fail the check.
// expect: E0277
// expect-message: `*mut ()` cannot be sent between threads safely
// expect-note: within `EpochLocked<'_>`, the trait `Send` is not implemented for `*mut ()`
use kernel::sched::{ffi, EpochLocked};

fn send_to_another_cpu<T: Send>(_t: T) {}

/// Hands the token over.
pub fn f(rq: *mut ffi::rq) {
    // SAFETY: The contract of the entry point; the misuse is what follows.
    let locked = unsafe { EpochLocked::assume_held(rq) };
    send_to_another_cpu(locked);
}
