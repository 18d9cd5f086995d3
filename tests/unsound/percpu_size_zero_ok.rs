// SPDX-License-Identifier: GPL-2.0
//! Control of percpu_size_zero.rs: the same allocation of a one-byte type compiles, fully.
// compile: full
// expect: ok
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// Allocates a byte per CPU.
pub fn f() -> Result<PinnedPerCpu<u8>> {
    Ok(PinnedPerCpu::<u8>::new(GFP_KERNEL)?)
}
