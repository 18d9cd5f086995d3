// SPDX-License-Identifier: GPL-2.0
//! Control of percpu_free_raw_drop.rs: the same free of a type without drop glue compiles,
//! fully.
// compile: full
// expect: ok
use kernel::percpu::PerCpu;
use kernel::prelude::*;

/// Frees counters.
///
/// # Safety
///
/// The contract of `PerCpu::free_raw`.
pub unsafe fn f(ptr: *mut u64) {
    // SAFETY: The safety requirements of this function.
    unsafe { PerCpu::<u64>::free_raw(ptr) };
}
