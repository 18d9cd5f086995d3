// SPDX-License-Identifier: GPL-2.0
//! Misuse: follows the tree links of an entity given by C, which may be running (hole S1).
// expect: E0599
// expect-message: no method named `left` found for reference
use kernel::sched::{ffi, RqLocked};

/// Reads the left child of an entity of the runqueue.
pub fn f(rq: *mut ffi::rq, se: *mut ffi::sched_entity) -> u64 {
    // SAFETY: The contract of the entry point; the misuse is what follows.
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: As above.
    let se = unsafe { locked.entity(se) };
    se.left().map_or(0, |e| e.vruntime()) //~ ERROR
}
