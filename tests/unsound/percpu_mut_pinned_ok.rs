// SPDX-License-Identifier: GPL-2.0
//! Control of percpu_mut_pinned.rs: the same code on a type that may move (no `PhantomPinned`)
//! compiles: what refuses the misuse is that the instances are `!Unpin`.
// expect: ok
use kernel::cpu::CpuId;
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// A type that may move.
#[pin_data]
pub struct Pinned {
    v: u64,
}

/// Replaces a CPU's instance.
pub fn f(a: &mut PinnedPerCpu<Pinned>, cpu: CpuId) {
    if let Some(p) = a.get_mut(cpu) {
        p.v = 1;
    }
}
