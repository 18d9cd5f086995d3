// SPDX-License-Identifier: GPL-2.0
//! Misuse: a per-CPU allocation larger than `PCPU_MIN_UNIT_SIZE`, which the per-CPU allocator
//! refuses (the same layout check, post-monomorphisation).
// compile: full
// expect: E0080
// expect-message: evaluation of `kernel::percpu::pinned::PinnedPerCpu::<[u8; 1048576]>::LAYOUT_OK` failed
// expect-note: per-CPU allocation size must be between 1 byte and PCPU_MIN_UNIT_SIZE
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// Allocates 1 MiB per CPU.
pub fn f() -> Result<PinnedPerCpu<[u8; 1 << 20]>> { //~ REASON
    Ok(PinnedPerCpu::<[u8; 1 << 20]>::new(GFP_KERNEL)?) //~ ERROR
}
