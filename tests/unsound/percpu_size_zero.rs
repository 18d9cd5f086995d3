// SPDX-License-Identifier: GPL-2.0
//! Misuse: a per-CPU allocation of a zero-sized type, which the per-CPU allocator refuses:
//! `PerCpu`'s layout check, a const assert evaluated when `PerCpu::<T>` is monomorphised, which
//! only a full compile does.
// compile: full
// expect: E0080
// expect-message: evaluation of `kernel::percpu::PerCpu::<()>::LAYOUT_OK` failed
// expect-note: per-CPU allocation size must be between 1 byte and PCPU_MIN_UNIT_SIZE
use kernel::percpu::PerCpu;
use kernel::prelude::*;

/// Allocates nothing per CPU.
pub fn f() -> Result<PerCpu<()>> {
    Ok(PerCpu::<()>::new(GFP_KERNEL)?) //~ ERROR
}
