// SPDX-License-Identifier: GPL-2.0
//! Control of state_zeroed.rs: the same allocation of a `Zeroable` type compiles.
// expect: ok
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;
type T = u64;

/// Allocates zero-filled counters.
pub fn f() -> Result<PinnedPerCpu<T>> {
    Ok(PinnedPerCpu::<T>::new(GFP_KERNEL)?)
}
