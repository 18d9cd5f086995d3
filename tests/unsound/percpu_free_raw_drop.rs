// SPDX-License-Identifier: GPL-2.0
//! Misuse: frees, as C's `free_percpu()` does, per-CPU instances that need a drop, which would
//! be skipped (leaking what they own, or breaking the drop guarantee of a pinned value):
//! `free_raw()`'s `!needs_drop` assert, evaluated post-monomorphisation.
// compile: full
// expect: E0080
// expect-message: evaluation of `kernel::percpu::pinned::PinnedPerCpu::<kernel::alloc::Box<u64, kernel::alloc::allocator::Kmalloc>>::free_raw::{constant#0}` failed
// expect-note: assertion failed: !core::mem::needs_drop::<T>()
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;

/// Frees boxes without dropping them.
///
/// # Safety
///
/// The contract of `PinnedPerCpu::free_raw`.
pub unsafe fn f(ptr: *mut KBox<u64>) { //~ REASON
    // SAFETY: The safety requirements of this function.
    unsafe { PinnedPerCpu::<KBox<u64>>::free_raw(ptr) }; //~ ERROR
}
