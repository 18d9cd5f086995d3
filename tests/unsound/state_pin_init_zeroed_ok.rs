// SPDX-License-Identifier: GPL-2.0
//! Control of state_pin_init_zeroed.rs: the same code on a `Zeroable` type compiles.
// expect: ok
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;
type T = u64;

/// Builds zeroed counters through pin-init.
pub fn f() -> Result<PinnedPerCpu<T>> {
    PinnedPerCpu::<T>::try_pin_init(|_cpu| Ok::<_, Error>(pin_init::zeroed()), GFP_KERNEL)
}
