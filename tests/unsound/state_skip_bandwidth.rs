// SPDX-License-Identifier: GPL-2.0
//! Misuse: builds a group's per-CPU state but not its shares and bandwidth control, leaving C a
//! group whose bandwidth timers were never set up (hole S2): there is no partial step.
// expect: E0599
// expect-message: no method named `init_state` found
use kernel::prelude::*;
use kernel::sched::group::{NewTaskGroup, TaskGroup};

/// The per-CPU part of `alloc_fair_sched_group()` alone.
pub fn f(mut tg: NewTaskGroup<'_>, parent: &TaskGroup) -> Result {
    tg.init_state(parent, GFP_KERNEL)
}
