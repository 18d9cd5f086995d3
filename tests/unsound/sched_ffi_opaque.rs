// SPDX-License-Identifier: GPL-2.0
//! Misuse: reads a field of a runqueue through the type C passes, bypassing the lock's token.
// expect: E0609
// expect-message: no field `curr` on type `kernel::bindings::cfs_rq`
use kernel::sched::ffi;

/// Reads `cfs_rq->curr`.
///
/// # Safety
///
/// `cfs_rq` must be valid.
pub unsafe fn f(cfs_rq: *mut ffi::cfs_rq) -> bool {
    // SAFETY: Valid by the safety requirements; the misuse is the field access.
    unsafe { (*cfs_rq).curr.is_null() } //~ ERROR
}
