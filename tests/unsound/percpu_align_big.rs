// SPDX-License-Identifier: GPL-2.0
//! Misuse: a per-CPU allocation aligned beyond `PAGE_SIZE`, which the per-CPU allocator
//! refuses (the same layout check, post-monomorphisation).
// compile: full
// expect: E0080
// expect-message: evaluation of `kernel::percpu::pinned::PinnedPerCpu::<Aligned>::LAYOUT_OK` failed
// expect-note: per-CPU allocation alignment must be at most PAGE_SIZE
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// A type aligned to 8 KiB.
#[repr(C, align(8192))] //~ ERROR
pub struct Aligned(u8);

// SAFETY: A byte and padding: all zeroes is a valid `Aligned`.
unsafe impl Zeroable for Aligned {}

/// Allocates an `Aligned` per CPU.
pub fn f() -> Result<PinnedPerCpu<Aligned>> {
    Ok(PinnedPerCpu::<Aligned>::new(GFP_KERNEL)?)
}
