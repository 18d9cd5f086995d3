// SPDX-License-Identifier: GPL-2.0
//! Misuse: sends a view of a fair runqueue (a `&CfsRqView`) to another thread: sending a
//! shared reference is sharing, refused as in view_shared.rs.
// expect: E0277
// expect-message: `UnsafeCell<MaybeUninit<sched::bindings::cfs_rq>>` cannot be shared between threads safely
// expect-note: within `CfsRqView`, the trait `Sync` is not implemented for `UnsafeCell<MaybeUninit<sched::bindings::cfs_rq>>`
use kernel::sched::{ffi, RqLocked};

fn send_to_another_cpu<T: Send>(_t: T) {}

/// Sends the view.
pub fn f(rq: *mut ffi::rq, cfs_rq: *mut ffi::cfs_rq) {
    // SAFETY: The contract of the entry point; the misuse is what follows.
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: As above.
    let cfs = unsafe { locked.cfs_rq(cfs_rq) };
    send_to_another_cpu(cfs); //~ ERROR
}
