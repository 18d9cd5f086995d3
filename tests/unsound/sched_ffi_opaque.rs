// SPDX-License-Identifier: GPL-2.0
//! Misuse: reads a field of a runqueue through the type C passes, past the lock's token and
//! its view.
// expect: E0609
// expect-message: no field `curr` on type `kernel::bindings::cfs_rq`
use kernel::sched::{ffi, RqLocked};

/// Reads `cfs_rq->curr`.
///
/// # Safety
///
/// `cfs_rq` must be valid, and its runqueue's lock held.
pub unsafe fn f(cfs_rq: *mut ffi::cfs_rq) -> bool {
    // SAFETY: Valid, with the lock held, by the safety requirements.
    let locked = unsafe { RqLocked::assume_held(kernel::sched::rq_of(cfs_rq)) };
    // SAFETY: As above; the misuse is the field access.
    unsafe { (*cfs_rq).curr.is_null() } //~ ERROR
}
