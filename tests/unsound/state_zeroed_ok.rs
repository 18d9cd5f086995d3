// SPDX-License-Identifier: GPL-2.0
//! Control of state_zeroed.rs: the same allocation of a `Zeroable` type compiles.
// expect: ok
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// Allocates zero-filled counters.
pub fn f() -> Result<PinnedPerCpu<u64>> {
    Ok(PinnedPerCpu::<u64>::new(GFP_KERNEL)?)
}
