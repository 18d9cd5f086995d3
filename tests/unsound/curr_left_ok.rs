// SPDX-License-Identifier: GPL-2.0
//! Control of curr_left.rs: the same walk from an entity of the tree, whose links are live,
//! compiles: what refuses the misuse is that `curr` has no tree links.
// expect: ok
use kernel::sched::{ffi, RqLocked};

/// Reads the left child of the leftmost entity of the tree.
pub fn f(rq: *mut ffi::rq, cfs_rq: *mut ffi::cfs_rq) -> u64 {
    // SAFETY: The contract of the entry point.
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: As above.
    let cfs = unsafe { locked.cfs_rq(cfs_rq) };
    cfs.leftmost()
        .and_then(|first| first.left())
        .map_or(0, |e| e.vruntime())
}
