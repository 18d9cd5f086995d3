// SPDX-License-Identifier: GPL-2.0
//! Control of sched_ffi_opaque.rs: the same read through the lock's view compiles: what refuses
//! the misuse is that the type C passes has no fields.
// expect: ok
use kernel::sched::{ffi, RqLocked};

/// Reads `cfs_rq->curr`.
///
/// # Safety
///
/// `cfs_rq` must be valid, and its runqueue's lock held.
pub unsafe fn f(cfs_rq: *mut ffi::cfs_rq) -> bool {
    // SAFETY: Valid, with the lock held, by the safety requirements.
    let locked = unsafe { RqLocked::assume_held(kernel::sched::rq_of(cfs_rq)) };
    // SAFETY: As above.
    unsafe { locked.cfs_rq(cfs_rq) }.curr().is_none()
}
