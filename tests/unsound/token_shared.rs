// SPDX-License-Identifier: GPL-2.0
//! Misuse: shares the proof of a lock held by this CPU with another thread (a `&RqLocked`),
//! through which that thread would read the runqueue without the lock. Refused by the token's
//! `NotThreadSafe` marker alone.
// expect: E0277
// expect-message: `*mut ()` cannot be shared between threads safely
// expect-note: within `RqLocked<'_>`, the trait `Sync` is not implemented for `*mut ()`
use kernel::sched::{ffi, RqLocked};

fn share_with_another_cpu<T: Sync + ?Sized>(_t: &T) {}

/// Shares the token.
pub fn f(rq: *mut ffi::rq) {
    // SAFETY: The contract of the entry point; the misuse is what follows.
    let locked = unsafe { RqLocked::assume_held(rq) };
    share_with_another_cpu(&locked);
}
