// SPDX-License-Identifier: GPL-2.0
//! Misuse: shares the proof of a lock held by this CPU with another thread (a `&RqLocked`),
//! through which that thread would read the runqueue without the lock. Refused because the
//! token is `!Sync`: it holds the runqueue's raw address.
// expect: E0277
// expect-message: `*mut rq` cannot be shared between threads safely
// expect-note: within `RqLocked`, the trait `Sync` is not implemented for `*mut rq`
use kernel::sched::{ffi, RqLocked};

fn share_with_another_cpu<T: Sync + ?Sized>(_t: &T) {}

/// Shares the token.
pub fn f(rq: *mut ffi::rq) {
    // SAFETY: The contract of the entry point; the misuse is what follows.
    let locked = unsafe { RqLocked::assume_held(rq) };
    share_with_another_cpu(&locked); //~ ERROR
}
