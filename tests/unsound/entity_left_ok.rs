// SPDX-License-Identifier: GPL-2.0
//! Control of entity_left.rs: the same entity, read without following its links, compiles:
//! what refuses the misuse is that an entity given by C has no tree links.
// expect: ok
use kernel::sched::{ffi, RqLocked};

/// Reads the entity's own vruntime.
pub fn f(rq: *mut ffi::rq, se: *mut ffi::sched_entity) -> u64 {
    // SAFETY: The contract of the entry point.
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: As above.
    let se = unsafe { locked.entity(se) };
    se.vruntime()
}
