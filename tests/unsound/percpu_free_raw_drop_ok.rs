// SPDX-License-Identifier: GPL-2.0
//! Control of percpu_free_raw_drop.rs: the same free of a type without drop glue compiles,
//! fully.
// compile: full
// expect: ok
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// Frees counters.
///
/// # Safety
///
/// The contract of `PinnedPerCpu::free_raw`.
pub unsafe fn f(ptr: *mut u64) {
    // SAFETY: The safety requirements of this function.
    unsafe { PinnedPerCpu::<u64>::free_raw(ptr) };
}
