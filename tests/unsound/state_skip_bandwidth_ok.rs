// SPDX-License-Identifier: GPL-2.0
//! Control of state_skip_bandwidth.rs: the same allocation with an initialiser of the caller's
//! compiles, only through an `unsafe impl` (percpu_init_safe_impl.rs): what refuses the
//! misuse is that the group's initialiser is private.
// expect: ok
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;
use kernel::sched::group::CfsTgState;

/// The per-CPU part of `alloc_fair_sched_group()` alone.
pub fn f(
    init: impl kernel::percpu::pinned::PinnedPerCpuInit<CfsTgState, Error>,
) -> Result<PinnedPerCpu<CfsTgState>> {
    PinnedPerCpu::try_init_per_cpu(init, GFP_KERNEL)
}
