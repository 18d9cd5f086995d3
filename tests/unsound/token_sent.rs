// SPDX-License-Identifier: GPL-2.0
//! Misuse: sends the proof of a lock held by this CPU to another thread. Refused by the token's
//! `NotThreadSafe` marker (`PhantomData<*mut ()>`) and nothing else: the message names its
//! `*mut ()`, and a second error (another field) would fail the check.
// expect: E0277
// expect-message: `*mut ()` cannot be sent between threads safely
// expect-note: within `RqLocked<'_>`, the trait `Send` is not implemented for `*mut ()`
use kernel::sched::{ffi, RqLocked};

fn send_to_another_cpu<T: Send>(_t: T) {}

/// Hands the token over.
pub fn f(rq: *mut ffi::rq) {
    // SAFETY: The contract of the entry point; the misuse is what follows.
    let locked = unsafe { RqLocked::assume_held(rq) };
    send_to_another_cpu(locked);
}
