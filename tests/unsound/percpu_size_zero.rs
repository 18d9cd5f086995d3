// SPDX-License-Identifier: GPL-2.0
//! Misuse: a per-CPU allocation of a zero-sized type, which the per-CPU allocator refuses:
//! `PinnedPerCpu`'s layout check, a const assert evaluated when `PinnedPerCpu::<T>` is monomorphised, which
//! only a full compile does.
// compile: full
// expect: E0080
// expect-message: evaluation of `kernel::percpu::pinned::PinnedPerCpu::<()>::LAYOUT_OK` failed
// expect-note: per-CPU allocation size must be between 1 byte and PCPU_MIN_UNIT_SIZE
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// Allocates nothing per CPU.
pub fn f() -> Result<PinnedPerCpu<()>> { //~ REASON
    Ok(PinnedPerCpu::<()>::new(GFP_KERNEL)?) //~ ERROR
}
