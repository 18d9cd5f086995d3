// SPDX-License-Identifier: GPL-2.0
//! Misuse: takes a `&mut` to pinned per-CPU state, through which it could be moved.
// expect: E0599
// expect-message: the method `get_mut` exists for mutable reference `&mut PinnedPerCpu<Pinned>`, but its trait bounds were not satisfied
// expect-note: `Pinned: Unpin`
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

/// Replaces a CPU's instance.
pub fn f(a: &mut PinnedPerCpu<Pinned>, cpu: CpuId) {
    if let Some(p) = a.get_mut(cpu) { //~ ERROR
        p.v = 1;
    }
}
