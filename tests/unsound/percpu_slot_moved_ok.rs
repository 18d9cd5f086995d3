// SPDX-License-Identifier: GPL-2.0
//! Control of percpu_slot_moved.rs: the same swap on a type that may move compiles: what
//! refuses the misuse is that the instances are `!Unpin`.
// expect: ok
use kernel::cpu::CpuId;
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// A type that may move.
#[pin_data]
pub struct Pinned {
    v: u64,
}

/// Swaps one CPU's instances of two allocations.
pub fn f(a: &mut PinnedPerCpu<Pinned>, b: &mut PinnedPerCpu<Pinned>, cpu: CpuId) -> Option<u64> {
    let mut x = a.get_pin_mut(cpu)?;
    let mut y = b.get_pin_mut(cpu)?;
    core::mem::swap(&mut *x, &mut *y);
    Some(x.v)
}
