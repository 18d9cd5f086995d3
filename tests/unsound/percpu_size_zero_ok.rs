// SPDX-License-Identifier: GPL-2.0
//! Control of percpu_size_zero.rs: the same allocation of a one-byte type compiles, fully.
// compile: full
// expect: ok
use kernel::percpu::PerCpu;
use kernel::prelude::*;

/// Allocates a byte per CPU.
pub fn f() -> Result<PerCpu<u8>> {
    Ok(PerCpu::<u8>::new(GFP_KERNEL)?)
}
