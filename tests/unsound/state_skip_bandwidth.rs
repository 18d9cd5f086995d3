// SPDX-License-Identifier: GPL-2.0
//! Misuse: builds a group's per-CPU state with the group's own initialiser, outside
//! `group::alloc_state()`, which goes on to the shares and the bandwidth control (hole S2): the
//! initialiser is private to `kernel::sched::group`. What refuses the misuse here is its name;
//! the protection behind it is that no code outside the module can make one (private fields,
//! no constructor), which a public name would not change.
// expect: E0603
// expect-message: struct `CfsTgStateInit` is private
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;
use kernel::sched::group::CfsTgState;

/// The per-CPU part of `alloc_fair_sched_group()` alone.
pub fn f(
    init: kernel::sched::group::CfsTgStateInit<'_>, //~ ERROR
) -> Result<PinnedPerCpu<CfsTgState>> {
    PinnedPerCpu::try_init_per_cpu(init, GFP_KERNEL)
}
