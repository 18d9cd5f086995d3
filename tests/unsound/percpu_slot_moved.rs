// SPDX-License-Identifier: GPL-2.0
//! Misuse: moves a pinned per-CPU instance out of its slot: swaps one CPU's instances of two
//! allocations.
// expect: E0596
// expect-message: cannot borrow data in dereference of `Pin<&mut Pinned>` as mutable
use core::marker::PhantomPinned; //~ REASON
use kernel::cpu::CpuId;
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// A type that must not move.
#[pin_data]
pub struct Pinned {
    v: u64,
    #[pin] //~ REASON
    _pin: PhantomPinned, //~ REASON
}

/// Swaps one CPU's instances of two allocations.
pub fn f(a: &mut PinnedPerCpu<Pinned>, b: &mut PinnedPerCpu<Pinned>, cpu: CpuId) -> Option<u64> {
    let mut x = a.get_pin_mut(cpu)?;
    let mut y = b.get_pin_mut(cpu)?;
    core::mem::swap(&mut *x, &mut *y); //~ ERROR
    Some(x.v)
}
