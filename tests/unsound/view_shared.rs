// SPDX-License-Identifier: GPL-2.0
//! Misuse: shares a view of a fair runqueue (a `&CfsRqView`) with another thread, which would
//! read the tree without the lock. Refused because the view is `Opaque`, whose `UnsafeCell` is
//! not `Sync`.
// expect: E0277
// expect-message: `UnsafeCell<MaybeUninit<sched::bindings::cfs_rq>>` cannot be shared between threads safely
// expect-note: within `CfsRqView`, the trait `Sync` is not implemented for `UnsafeCell<MaybeUninit<sched::bindings::cfs_rq>>`
use kernel::sched::{ffi, RqLocked};

fn share_with_another_cpu<T: Sync + ?Sized>(_t: &T) {}

/// Shares the view.
pub fn f(rq: *mut ffi::rq, cfs_rq: *mut ffi::cfs_rq) {
    // SAFETY: The contract of the entry point; the misuse is what follows.
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: As above.
    let cfs = unsafe { locked.cfs_rq(cfs_rq) };
    share_with_another_cpu(cfs); //~ ERROR
}
