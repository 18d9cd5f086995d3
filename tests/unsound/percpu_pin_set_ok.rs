// SPDX-License-Identifier: GPL-2.0
//! Control without a misuse: replaces a pinned per-CPU instance in place with `Pin::set`, which
//! compiles and is sound (the old value is dropped where it is, nothing moves). It also shows
//! the limit of the slot/CPU rule (`PinnedPerCpu::get_pin_mut`): a value made for another CPU can be
//! written into `cpu`'s slot; only the initialiser guarantees which CPU a slot's value is for.
// expect: ok
use core::marker::PhantomPinned;
use kernel::cpu::CpuId;
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// A type that must not move, which records the CPU it was made for.
#[pin_data]
pub struct Pinned {
    cpu: u32,
    #[pin]
    _pin: PhantomPinned,
}

/// Writes a value made for `other` into `cpu`'s slot.
pub fn f(a: &mut PinnedPerCpu<Pinned>, cpu: CpuId, other: CpuId) -> Option<u32> {
    let mut slot = a.get_pin_mut(cpu)?;
    slot.set(Pinned {
        cpu: other.as_u32(),
        _pin: PhantomPinned,
    });
    Some(slot.cpu)
}
