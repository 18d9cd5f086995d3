// SPDX-License-Identifier: GPL-2.0

//! Dynamic per-CPU allocations.
//!
//! C header: [`include/linux/percpu.h`](srctree/include/linux/percpu.h)
//!
//! [`PerCpu<T>`] owns one zero-initialised `T` per possible CPU, allocated with the kernel's
//! per-CPU allocator (`alloc_percpu_gfp()`) and freed on drop (`free_percpu()`). Instances of
//! other CPUs are reached by [`CpuId`] (`per_cpu_ptr()`); the local CPU's only through a
//! [`PreemptGuard`], whose lifetime bounds the reference, so that the task cannot migrate while
//! it holds it.

use crate::{
    alloc::{AllocError, Flags},
    bindings,
    cpu::{nr_cpu_ids, CpuId},
    prelude::*,
    types::NotThreadSafe, //
};
use core::{marker::PhantomData, ptr::NonNull};

/// A guard that keeps preemption disabled on the local CPU.
///
/// While it exists, the running task stays on [`PreemptGuard::cpu`].
///
/// # Invariants
///
/// Preemption is disabled, by this guard's own `preempt_disable()`, for as long as it exists.
pub struct PreemptGuard(NotThreadSafe);

impl PreemptGuard {
    /// Disables preemption until the guard is dropped.
    ///
    /// Equivalent to the kernel's `preempt_disable()`.
    #[inline]
    pub fn new() -> Self {
        // SAFETY: `preempt_disable()` may be called in any context; `drop()` balances it.
        unsafe { bindings::preempt_disable() };
        // INVARIANT: Preemption was disabled just above.
        Self(NotThreadSafe)
    }

    /// Returns the CPU the task runs on, which cannot change while the guard exists.
    #[inline]
    pub fn cpu(&self) -> CpuId {
        // By the type invariants, the task cannot migrate, so the value is stable.
        CpuId::current()
    }
}

impl Default for PreemptGuard {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for PreemptGuard {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: By the type invariants, this guard disabled preemption, once.
        unsafe { bindings::preempt_enable() };
    }
}

/// Returns whether `cpu` is a possible CPU, i.e. has per-CPU areas.
///
/// Equivalent to the kernel's `cpu_possible()`.
#[inline]
pub fn cpu_possible(cpu: CpuId) -> bool {
    // SAFETY: `cpu_possible()` only reads `cpu_possible_mask`; `cpu` is below `nr_cpu_ids` by the
    // invariants of `CpuId`.
    unsafe { bindings::cpu_possible(cpu.as_u32()) }
}

/// Returns an iterator over the possible CPUs.
///
/// Equivalent to the kernel's `for_each_possible_cpu()`.
pub fn possible_cpus() -> impl Iterator<Item = CpuId> {
    (0..nr_cpu_ids())
        .filter_map(CpuId::from_u32)
        .filter(|&cpu| cpu_possible(cpu))
}

/// An owned dynamic per-CPU allocation: one `T` per possible CPU.
///
/// Equivalent to a pointer returned by `alloc_percpu_gfp()`, which [`PerCpu::drop`] frees with
/// `free_percpu()`. The allocator zero-fills, so `T` must be valid when all zeroes.
///
/// # Invariants
///
/// - `ptr` is a per-CPU pointer returned by the per-CPU allocator for the size and alignment of
///   `T`, owned by this object.
/// - For every possible CPU, the instance of that CPU is a valid `T`.
///
/// # Examples
///
/// ```
/// use kernel::prelude::*;
/// use kernel::sched::percpu::{possible_cpus, PerCpu, PreemptGuard};
///
/// let mut counters = PerCpu::<u64>::new(GFP_KERNEL)?;
///
/// // Zero-filled on every possible CPU.
/// assert!(counters.iter().all(|(_, &v)| v == 0));
///
/// // Write every CPU's instance: with `&mut`, nothing else can access them.
/// for cpu in possible_cpus() {
///     if let Some(v) = counters.get_mut(cpu) {
///         *v = u64::from(cpu.as_u32()) + 1;
///     }
/// }
///
/// // Read another CPU's instance by CPU number.
/// for (cpu, &v) in counters.iter() {
///     assert_eq!(v, u64::from(cpu.as_u32()) + 1);
/// }
///
/// // The local instance, only while preemption is off.
/// {
///     let guard = PreemptGuard::new();
///     let local = counters.get_local(&guard);
///     assert_eq!(*local, u64::from(guard.cpu().as_u32()) + 1);
/// }
///
/// // Hand the raw per-CPU pointer to C and take it back: it is freed once, on drop.
/// let raw = counters.into_raw();
/// // SAFETY: `raw` comes from `into_raw()` and is not used after this.
/// let counters = unsafe { PerCpu::<u64>::from_raw(raw) };
/// drop(counters);
/// # Ok::<(), Error>(())
/// ```
pub struct PerCpu<T: Zeroable> {
    ptr: NonNull<T>,
    _t: PhantomData<T>,
}

// SAFETY: A `PerCpu<T>` owns its instances like a `KBox<[T]>` would: moving it to another thread
// moves the `T`s, which is fine when `T: Send`.
unsafe impl<T: Zeroable + Send> Send for PerCpu<T> {}

// SAFETY: `&PerCpu<T>` gives out only `&T` (mutable access needs `&mut PerCpu<T>`), so sharing it
// between threads is fine when `T: Sync`.
unsafe impl<T: Zeroable + Sync> Sync for PerCpu<T> {}

impl<T: Zeroable> PerCpu<T> {
    // The per-CPU allocator refuses a size of zero or above `PCPU_MIN_UNIT_SIZE` (32 KiB), and an
    // alignment above `PAGE_SIZE`.
    const LAYOUT_OK: () = {
        assert!(
            size_of::<T>() > 0 && size_of::<T>() <= 32 << 10,
            "per-CPU allocation size must be between 1 and 32 KiB"
        );
        assert!(
            align_of::<T>() <= crate::page::PAGE_SIZE,
            "per-CPU allocation alignment must be at most PAGE_SIZE"
        );
    };

    /// Allocates one zero-initialised `T` per possible CPU.
    ///
    /// Equivalent to `alloc_percpu_gfp(T, flags)`.
    pub fn new(flags: Flags) -> Result<Self, AllocError> {
        let () = Self::LAYOUT_OK;

        // SAFETY: The size and alignment are valid for the per-CPU allocator (`LAYOUT_OK`).
        let ptr = unsafe {
            bindings::__alloc_percpu_gfp(size_of::<T>(), align_of::<T>(), flags.as_raw())
        };
        // INVARIANT: The allocator returned a zero-filled instance of the size and alignment of
        // `T` for every possible CPU, valid since `T: Zeroable`.
        Ok(Self {
            ptr: NonNull::new(ptr.cast()).ok_or(AllocError)?,
            _t: PhantomData,
        })
    }

    /// Takes ownership of a per-CPU allocation, typically one given back by C.
    ///
    /// # Safety
    ///
    /// `ptr` must come from [`PerCpu::<T>::into_raw`], and ownership must not be taken more
    /// than once.
    pub unsafe fn from_raw(ptr: *mut T) -> Self {
        // INVARIANT: `into_raw()` gave up ownership of an allocation that satisfied them.
        Self {
            // SAFETY: `into_raw()` returns a non-null pointer.
            ptr: unsafe { NonNull::new_unchecked(ptr) },
            _t: PhantomData,
        }
    }

    /// Gives up ownership and returns the per-CPU pointer, e.g. to store it in a C structure.
    ///
    /// It can be freed with [`PerCpu::from_raw`] and a drop, or, if `T` needs no drop, with
    /// `free_percpu()`.
    pub fn into_raw(self) -> *mut T {
        let ptr = self.ptr.as_ptr();
        core::mem::forget(self);
        ptr
    }

    /// Returns the per-CPU pointer, still owned by `self`.
    #[inline]
    pub fn as_raw(&self) -> *mut T {
        self.ptr.as_ptr()
    }

    /// Returns the address of `cpu`'s instance.
    ///
    /// Equivalent to the kernel's `per_cpu_ptr()`.
    ///
    /// # Safety
    ///
    /// `cpu` must be a possible CPU.
    #[inline]
    unsafe fn cpu_ptr_unchecked(&self, cpu: CpuId) -> *mut T {
        // SAFETY: By the type invariants, `ptr` is a live per-CPU allocation, and `cpu` is a
        // possible CPU by the safety requirements of this function, so it has an instance.
        unsafe { bindings::per_cpu_ptr(self.ptr.as_ptr().cast(), cpu.as_u32()) }.cast()
    }

    /// Returns the address of `cpu`'s instance, or `None` if `cpu` is not possible.
    #[inline]
    fn cpu_ptr(&self, cpu: CpuId) -> Option<*mut T> {
        // SAFETY: `cpu` was just checked to be possible.
        cpu_possible(cpu).then(|| unsafe { self.cpu_ptr_unchecked(cpu) })
    }

    /// Returns `cpu`'s instance, or `None` if `cpu` is not a possible CPU.
    #[inline]
    pub fn get(&self, cpu: CpuId) -> Option<&T> {
        // SAFETY: By the type invariants the instance is a valid `T`; it can be mutated only
        // through `&mut self`, so a shared reference for the lifetime of `&self` is sound.
        self.cpu_ptr(cpu).map(|p| unsafe { &*p })
    }

    /// Returns `cpu`'s instance mutably, or `None` if `cpu` is not a possible CPU.
    #[inline]
    pub fn get_mut(&mut self, cpu: CpuId) -> Option<&mut T> {
        // SAFETY: By the type invariants the instance is a valid `T`, and `&mut self` makes this
        // the only access to it.
        self.cpu_ptr(cpu).map(|p| unsafe { &mut *p })
    }

    /// Returns the local CPU's instance, for as long as preemption stays disabled.
    ///
    /// Equivalent to the kernel's `this_cpu_ptr()`.
    #[inline]
    pub fn get_local<'a>(&'a self, guard: &'a PreemptGuard) -> &'a T {
        // SAFETY: The running CPU is always a possible CPU.
        let ptr = unsafe { self.cpu_ptr_unchecked(guard.cpu()) };
        // SAFETY: The instance is a valid `T` by the type invariants, mutated only through
        // `&mut self`.
        unsafe { &*ptr }
    }

    /// Returns an iterator over the possible CPUs and their instances.
    pub fn iter(&self) -> impl Iterator<Item = (CpuId, &T)> {
        possible_cpus().filter_map(move |cpu| self.get(cpu).map(|v| (cpu, v)))
    }
}

impl<T: Zeroable> Drop for PerCpu<T> {
    fn drop(&mut self) {
        if core::mem::needs_drop::<T>() {
            for cpu in possible_cpus() {
                // SAFETY: `cpu` is possible, and its instance is a valid `T` by the type
                // invariants, dropped once, here, before the memory is freed.
                unsafe { core::ptr::drop_in_place(self.cpu_ptr_unchecked(cpu)) };
            }
        }
        // SAFETY: By the type invariants, `ptr` is an owned per-CPU allocation, freed only here.
        unsafe { bindings::free_percpu(self.ptr.as_ptr().cast()) };
    }
}
