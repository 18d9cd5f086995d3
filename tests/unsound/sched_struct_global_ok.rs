// SPDX-License-Identifier: GPL-2.0
//! Control of sched_struct_global.rs: a public structure of the same global bindings compiles:
//! what refuses the misuse is that the private `cfs_tg_state` is not among them.
// expect: ok
/// Takes a task.
pub fn f(_state: *mut kernel::bindings::task_struct) {}
