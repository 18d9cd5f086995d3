// SPDX-License-Identifier: GPL-2.0
//! Control of state_init_twice.rs: once compiles.
// expect: ok
use kernel::prelude::*;
use kernel::sched::group::NewTaskGroup;

/// Runs `alloc_fair_sched_group()` once.
pub fn f(tg: NewTaskGroup<'_>) -> Result {
    tg.init(GFP_KERNEL)
}
