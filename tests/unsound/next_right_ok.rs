// SPDX-License-Identifier: GPL-2.0
//! Control of next_right.rs: the same walk from an entity of the tree compiles: what refuses
//! the misuse is that `next` has no tree links.
// expect: ok
use kernel::sched::{ffi, RqLocked};

/// Reads the right child of the tree's root.
pub fn f(rq: *mut ffi::rq, cfs_rq: *mut ffi::cfs_rq) -> u64 {
    // SAFETY: The contract of the entry point.
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: As above.
    let cfs = unsafe { locked.cfs_rq(cfs_rq) };
    cfs.root()
        .and_then(|root| root.right())
        .map_or(0, |e| e.vruntime())
}
