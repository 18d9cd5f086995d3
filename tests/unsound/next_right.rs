// SPDX-License-Identifier: GPL-2.0
//! Misuse: follows the tree links of the next buddy, an entity not known to be in the tree
//! (hole S1).
// expect: E0599
// expect-message: no method named `right` found for reference
use kernel::sched::{ffi, RqLocked};

/// Reads the right child of `cfs_rq->next`.
pub fn f(rq: *mut ffi::rq, cfs_rq: *mut ffi::cfs_rq) -> u64 {
    // SAFETY: The contract of the entry point; the misuse is what follows.
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: As above.
    let cfs = unsafe { locked.cfs_rq(cfs_rq) };
    cfs.next() //~ REASON
        .and_then(|next| next.right()) //~ ERROR
        .map_or(0, |e| e.vruntime())
}
