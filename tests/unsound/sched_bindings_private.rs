// SPDX-License-Identifier: GPL-2.0
//! Misuse: names the bindings of the scheduler's private structures, which only the
//! `kernel::sched` abstractions may use.
// expect: E0603
// expect-message: module `bindings` is private
/// Takes a runqueue with its fields.
pub fn f(_rq: *mut kernel::sched::bindings::rq) {} //~ ERROR
