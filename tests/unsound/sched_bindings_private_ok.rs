// SPDX-License-Identifier: GPL-2.0
//! Control of sched_bindings_private.rs: the opaque type of the same structure compiles.
// expect: ok
/// Takes a runqueue, opaque.
pub fn f(_rq: *mut kernel::sched::ffi::rq) {}
