// SPDX-License-Identifier: GPL-2.0
//! Control of percpu_align_big.rs: the same type aligned to 4 KiB (`PAGE_SIZE`) compiles, fully.
// compile: full
// expect: ok
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// A type aligned to 4 KiB.
#[repr(C, align(4096))]
pub struct Aligned(u8);

// SAFETY: A byte and padding: all zeroes is a valid `Aligned`.
unsafe impl Zeroable for Aligned {}

/// Allocates an `Aligned` per CPU.
pub fn f() -> Result<PinnedPerCpu<Aligned>> {
    Ok(PinnedPerCpu::<Aligned>::new(GFP_KERNEL)?)
}
