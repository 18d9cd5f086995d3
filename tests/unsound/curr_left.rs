// SPDX-License-Identifier: GPL-2.0
//! Misuse: follows the tree links of the running entity, which `__dequeue_entity()` took out of
//! the tree without clearing them (hole S1).
// expect: E0599
// expect-message: no method named `left` found for reference
use kernel::sched::{ffi, RqLocked};

/// Reads the left child of `cfs_rq->curr`.
pub fn f(rq: *mut ffi::rq, cfs_rq: *mut ffi::cfs_rq) -> u64 {
    // SAFETY: The contract of the entry point; the misuse is what follows.
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: As above.
    let cfs = unsafe { locked.cfs_rq(cfs_rq) };
    cfs.curr() //~ REASON
        .and_then(|curr| curr.left()) //~ ERROR
        .map_or(0, |e| e.vruntime())
}
