// SPDX-License-Identifier: GPL-2.0
//! Misuse: initialises a group's state twice, the second over the first (hole S2):
//! `NewTaskGroup::init()` consumes the group under creation.
// expect: E0382
// expect-message: use of moved value: `tg`
use kernel::prelude::*;
use kernel::sched::group::NewTaskGroup;

/// Runs `alloc_fair_sched_group()` twice.
pub fn f(tg: NewTaskGroup<'_>) -> Result {
    tg.init(GFP_KERNEL)?;
    tg.init(GFP_KERNEL)
}
