// SPDX-License-Identifier: GPL-2.0
//! Control of percpu_size_big.rs: the same allocation of 4 KiB per CPU compiles, fully.
// compile: full
// expect: ok
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// Allocates 4 KiB per CPU.
pub fn f() -> Result<PinnedPerCpu<[u8; 1 << 12]>> {
    Ok(PinnedPerCpu::<[u8; 1 << 12]>::new(GFP_KERNEL)?)
}
