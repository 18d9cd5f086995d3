// SPDX-License-Identifier: GPL-2.0

//! Owned dynamic per-CPU allocations of pinned instances.
//!
//! C header: [`include/linux/percpu.h`](srctree/include/linux/percpu.h)
//!
//! [`PinnedPerCpu<T>`] owns one `T` per possible CPU, allocated with the kernel's per-CPU allocator
//! (`alloc_percpu_gfp()`) and freed on drop (`free_percpu()`). The instances never move. They are
//! initialised in place: zero-filled ([`PinnedPerCpu::new`], for [`Zeroable`] types), by a
//! [`PinInit`] per CPU ([`PinnedPerCpu::try_pin_init`]), or by a [`PinnedPerCpuInit`], an
//! initialiser told which CPU each slot belongs to and allowed to rely on the allocator's
//! zero-filled memory ([`PinnedPerCpu::try_init_per_cpu`]). Instances are reached by [`CpuId`]
//! (`per_cpu_ptr()`), for possible CPUs only. The `__percpu` address itself is a
//! [`PinnedPerCpuPtr`], which Rust cannot dereference. It works through the generic per-CPU C
//! helpers, with no architecture-specific code.

use crate::{
    alloc::{AllocError, Flags},
    bindings,
    cpu::CpuId,
    prelude::*, //
};
use core::{marker::PhantomData, pin::Pin, ptr::NonNull};

/// Returns whether `cpu` is a possible CPU, i.e. has per-CPU areas.
///
/// Equivalent to the kernel's `cpu_possible()`.
#[inline]
pub fn cpu_possible(cpu: CpuId) -> bool {
    // SAFETY: `cpu_possible()` only reads `cpu_possible_mask`; `cpu` is below `nr_cpu_ids` by the
    // invariants of `CpuId`.
    unsafe { bindings::cpu_possible(cpu.as_u32()) }
}

/// Returns an iterator over the possible CPUs, in increasing order.
///
/// Equivalent to the kernel's `for_each_possible_cpu()`: each step finds the next set bit of
/// `cpu_possible_mask` (`cpumask_next()`), as C's loop does.
#[inline]
pub fn possible_cpus() -> impl Iterator<Item = CpuId> {
    let mut prev: i32 = -1;
    core::iter::from_fn(move || {
        // SAFETY:
        // - `__cpu_possible_mask` is a static that lives for the kernel's lifetime, and
        //   `cpumask_next()` only reads it.
        // - `cpumask_next()` takes -1 or a CPU below `nr_cpu_ids`: `prev` is -1 or the last
        //   `CpuId` returned.
        let n = unsafe { bindings::cpumask_next(prev, &raw const bindings::__cpu_possible_mask) };
        // Past the last possible CPU, `cpumask_next()` returns `nr_cpu_ids` or more.
        let cpu = CpuId::from_u32(n)?;
        prev = i32::from(cpu);
        Some(cpu)
    })
}

/// A non-null address meant as the `__percpu` address of a per-CPU allocation of `T`s: what C
/// stores in a field typed `T __percpu *`.
///
/// It is a value only, not a promise: [`PinnedPerCpuPtr::from_raw`] accepts any non-null pointer.
/// It is not the address of a `T` (only `per_cpu_ptr()` turns it into one), so it has no
/// dereferenceable form in Rust: it can be handed to C ([`PinnedPerCpuPtr::as_raw`]) and back to
/// [`PinnedPerCpu::from_raw`], whose `unsafe` contract is where the caller vouches for what it
/// points to.
///
/// # Invariants
///
/// The address is not null; nothing else is promised.
#[repr(transparent)]
pub struct PinnedPerCpuPtr<T>(NonNull<T>);

impl<T> PinnedPerCpuPtr<T> {
    /// Wraps a `__percpu` address that C hands over, or returns `None` for null.
    ///
    /// Safe: the result can only be turned back into a [`PinnedPerCpu`] by the unsafe
    /// [`PinnedPerCpu::from_raw`], whose contract covers what the address points to.
    #[inline]
    pub fn from_raw(ptr: *mut T) -> Option<Self> {
        // INVARIANT: `NonNull::new()` returns `Some` for a non-null pointer only.
        NonNull::new(ptr).map(Self)
    }

    /// Returns the address, for a C field or parameter typed `T __percpu *`.
    #[inline]
    pub fn as_raw(&self) -> *mut T {
        self.0.as_ptr()
    }

    /// Returns the same address as a `__percpu` address of `U`s, e.g. of the first field of `T`.
    #[inline]
    pub fn cast<U>(self) -> PinnedPerCpuPtr<U> {
        PinnedPerCpuPtr(self.0.cast())
    }
}

/// An initialiser of the instances of a [`PinnedPerCpu<T>`], told which CPU each one belongs to.
///
/// [`PinnedPerCpu::try_init_per_cpu`] calls [`PinnedPerCpuInit::init_cpu`] once per possible CPU,
/// with the address of that CPU's instance, as the per-CPU allocator returned it: zero-filled. The
/// CPU comes from [`PinnedPerCpu`], so an initialiser that records the CPU in the instance (as the
/// state of a task group records its runqueue) cannot be given another CPU's slot.
///
/// A closure returning a [`PinInit`] per CPU is one ([`PinnedPerCpu::try_pin_init`]); a type whose
/// in-place initialisation is a fixed C sequence that relies on the zero-filled start (as C's
/// `alloc_percpu()` callers do) implements it itself. A [`PinInit`] cannot rely on it: it must
/// write every byte of a slot it knows nothing about, so a large, mostly zero C structure is zeroed
/// twice.
///
/// # Safety
///
/// Implementers guarantee that [`PinnedPerCpuInit::init_cpu`], given a slot that satisfies its
/// safety requirements, either returns `Ok` with a valid `T` in the slot, or returns `Err` with
/// nothing in the slot that needs dropping and the slot free to be deallocated; and that it keeps
/// no access to the slot once it returns, other than what the `T` it built provides for (as a
/// pinned value may, e.g. a list head that points to itself).
pub unsafe trait PinnedPerCpuInit<T, E> {
    /// Initialises `slot`, the instance of `cpu`.
    ///
    /// # Safety
    ///
    /// - `slot` is the instance of the possible CPU `cpu` in a live per-CPU allocation for `T`:
    ///   valid for reads and writes, aligned, and with all its bytes zero.
    /// - The instance is not moved until it is dropped.
    /// - If it returns `Err`, the caller does not touch `slot` again: it only frees the
    ///   allocation, without dropping the slot.
    unsafe fn init_cpu(&mut self, cpu: CpuId, slot: *mut T) -> Result<(), E>;
}

/// The [`PinnedPerCpuInit`] of a closure that returns a [`PinInit`] for each CPU.
struct PinInitPerCpu<F>(F);

// SAFETY: `init_cpu` returns the `PinInit`'s result, so by that trait's requirements:
// - On `Ok`, the slot is initialised; on `Err`, it needs no drop and may be freed.
// - The `PinInit` is consumed by the call: it keeps no access to the slot.
unsafe impl<T, E, I, F> PinnedPerCpuInit<T, E> for PinInitPerCpu<F>
where
    I: PinInit<T, E>,
    F: FnMut(CpuId) -> I,
{
    #[inline]
    unsafe fn init_cpu(&mut self, cpu: CpuId, slot: *mut T) -> Result<(), E> {
        // SAFETY: By the safety requirements of `init_cpu`:
        // - `slot` is valid for writes, aligned, and holds no value yet (zero bytes).
        // - It is not moved until it is dropped.
        // - On `Err`, the caller does not touch it again, only deallocates it.
        unsafe { pin_init::raw_try_init(slot, (self.0)(cpu)) }
    }
}

/// An owned dynamic per-CPU allocation: one `T` per possible CPU.
///
/// Equivalent to a pointer returned by `alloc_percpu_gfp()`, which [`PinnedPerCpu::drop`] frees
/// with `free_percpu()`.
///
/// # Invariants
///
/// - `ptr` is a per-CPU address returned by the per-CPU allocator for the size and alignment of
///   `T`, owned by this object.
/// - For every possible CPU, the instance of that CPU is a valid `T`, and it is pinned: it is not
///   moved before it is dropped, here.
/// - Nothing accesses the instances but through this object, other than what `T` itself provides
///   for (as for the contents of a `KBox<T>`): the address is not handed out while this object owns
///   it.
///
/// # Examples
///
/// ```
/// use kernel::percpu::pinned::{possible_cpus, PinnedPerCpu, PinnedPerCpuPtr};
/// use kernel::prelude::*;
///
/// let mut counters = PinnedPerCpu::<u64>::new(GFP_KERNEL)?;
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
/// // Initialise every instance in place instead, e.g. for a type that points into itself.
/// #[pin_data]
/// struct Square {
///     n: u64,
/// }
/// let squares = PinnedPerCpu::<Square>::try_pin_init(
///     |cpu| {
///         let n = u64::from(cpu.as_u32());
///         kernel::try_pin_init!(Square { n: n * n })
///     },
///     GFP_KERNEL,
/// )?;
/// assert!(squares.iter().all(|(cpu, s)| s.n == u64::from(cpu.as_u32()).pow(2)));
///
/// // Hand the `__percpu` address to C and take it back: it is freed once, on drop.
/// let raw: *mut u64 = counters.into_raw().as_raw();
/// let ptr = PinnedPerCpuPtr::from_raw(raw).ok_or(EINVAL)?;
/// // SAFETY: `raw` comes from `into_raw()`, and nothing else has it: nothing but the new
/// // owner accesses the instances or frees them.
/// let counters = unsafe { PinnedPerCpu::<u64>::from_raw(ptr) };
/// drop(counters);
///
/// // Or free it as C's `free_percpu()` does (a type without drop glue; null is ignored).
/// let raw: *mut u64 = PinnedPerCpu::<u64>::new(GFP_KERNEL)?.into_raw().as_raw();
/// // SAFETY: `raw` comes from `into_raw()` and is not used after this.
/// unsafe { PinnedPerCpu::<u64>::free_raw(raw) };
/// // SAFETY: Null is ignored.
/// unsafe { PinnedPerCpu::<u64>::free_raw(core::ptr::null_mut()) };
/// # Ok::<(), Error>(())
/// ```
pub struct PinnedPerCpu<T> {
    ptr: NonNull<T>,
    _t: PhantomData<T>,
}

// SAFETY: A `PinnedPerCpu<T>` owns its instances like a `KBox<[T]>` would: moving it to another
// thread moves the `T`s, which is fine when `T: Send`.
unsafe impl<T: Send> Send for PinnedPerCpu<T> {}

// SAFETY: `&PinnedPerCpu<T>` gives out only `&T` (mutable access needs `&mut PinnedPerCpu<T>`), so
// sharing it between threads is fine when `T: Sync`.
unsafe impl<T: Sync> Sync for PinnedPerCpu<T> {}

impl<T: Zeroable> PinnedPerCpu<T> {
    /// Allocates one zero-initialised `T` per possible CPU.
    ///
    /// Equivalent to `alloc_percpu_gfp(T, flags)`.
    pub fn new(flags: Flags) -> Result<Self, AllocError> {
        // INVARIANT: The allocator returned a zero-filled instance of the size and alignment of
        // `T` for every possible CPU, valid since `T: Zeroable`, at an address nothing else has.
        Ok(Self {
            ptr: Self::alloc(flags)?,
            _t: PhantomData,
        })
    }
}

impl<T: Unpin> PinnedPerCpu<T> {
    /// Returns `cpu`'s instance mutably, or `None` if `cpu` is not a possible CPU.
    ///
    /// Only for `Unpin` types: a `&mut T` could move the instance (`mem::swap`).
    #[inline]
    pub fn get_mut(&mut self, cpu: CpuId) -> Option<&mut T> {
        // SAFETY:
        // - The instance is a valid `T` that nothing reaches but through `self` (type invariants).
        // - `&mut self` excludes every other borrow of `self` for the lifetime of the result, so
        //   this is the only access to the instance, whatever interior mutability `T` has.
        // - `T: Unpin`, so moving it out is allowed.
        self.cpu_ptr(cpu).map(|p| unsafe { &mut *p })
    }
}

impl<T> PinnedPerCpu<T> {
    // The per-CPU allocator refuses a size of zero or above `PCPU_MIN_UNIT_SIZE` (32 KiB rounded
    // up to a page), and an alignment above `PAGE_SIZE`.
    const LAYOUT_OK: () = {
        assert!(
            size_of::<T>() > 0 && size_of::<T>() <= bindings::PCPU_MIN_UNIT_SIZE,
            "per-CPU allocation size must be between 1 byte and PCPU_MIN_UNIT_SIZE"
        );
        assert!(
            align_of::<T>() <= crate::page::PAGE_SIZE,
            "per-CPU allocation alignment must be at most PAGE_SIZE"
        );
    };

    /// Allocates zero-filled memory for one `T` per possible CPU.
    #[inline]
    fn alloc(flags: Flags) -> Result<NonNull<T>, AllocError> {
        let () = Self::LAYOUT_OK;

        // SAFETY: The size and alignment are valid for the per-CPU allocator (`LAYOUT_OK`).
        let ptr = unsafe {
            bindings::__alloc_percpu_gfp(size_of::<T>(), align_of::<T>(), flags.as_raw())
        };
        NonNull::new(ptr.cast()).ok_or(AllocError)
    }

    /// Returns the address of `cpu`'s instance in the per-CPU allocation `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` must be a live per-CPU allocation for `T`s and `cpu` a possible CPU.
    #[inline]
    unsafe fn slot(ptr: NonNull<T>, cpu: CpuId) -> *mut T {
        // SAFETY: `ptr` is a live per-CPU address and `cpu` possible (safety requirements), so
        // `cpu` has an instance there; only its address is computed.
        unsafe { bindings::per_cpu_ptr(ptr.as_ptr().cast(), cpu.as_u32()) }.cast()
    }

    /// Allocates one `T` per possible CPU and initialises each in place with `init(cpu)`.
    ///
    /// If an initialiser fails, the instances already initialised are dropped, the allocation is
    /// freed and the error returned. The argument order is that of the kernel's `KBox::pin_init`.
    pub fn try_pin_init<E, I>(init: impl FnMut(CpuId) -> I, flags: Flags) -> Result<Self, E>
    where
        I: PinInit<T, E>,
        E: From<AllocError>,
    {
        Self::try_init_per_cpu(PinInitPerCpu(init), flags)
    }

    /// Allocates one `T` per possible CPU and initialises each in place with `init`, which is
    /// given the CPU of each slot and may rely on its zero-filled start.
    ///
    /// Failure is handled as by [`PinnedPerCpu::try_pin_init`].
    #[inline]
    pub fn try_init_per_cpu<E>(
        mut init: impl PinnedPerCpuInit<T, E>,
        flags: Flags,
    ) -> Result<Self, E>
    where
        E: From<AllocError>,
    {
        let ptr = Self::alloc(flags)?;
        for cpu in possible_cpus() {
            // SAFETY: `ptr` is a live per-CPU allocation for `T`s and `cpu` possible.
            let slot = unsafe { Self::slot(ptr, cpu) };
            // SAFETY:
            // - `slot` is `cpu`'s instance, zero-filled by `alloc()` and not yet written.
            // - It stays pinned: its memory is freed only after its drop (`Drop`, the rule of
            //   `into_raw()`) or, below, after a failure.
            // - A slot whose `init_cpu` failed is not touched again, only freed.
            if let Err(e) = unsafe { init.init_cpu(cpu, slot) } {
                let failed = cpu;
                for cpu in possible_cpus().take_while(|&cpu| cpu != failed) {
                    // SAFETY: The possible CPUs before the one that failed were initialised above
                    // (contract of `PinnedPerCpuInit`); each is dropped once, in place, before the
                    // memory is freed.
                    unsafe { core::ptr::drop_in_place(Self::slot(ptr, cpu)) };
                }
                // SAFETY:
                // - `ptr` came from the per-CPU allocator and was never handed out.
                // - The slots initialised are dropped above; the failed one needs no drop and may
                //   be deallocated, and `init` kept no access to any (contract of
                //   `PinnedPerCpuInit`).
                unsafe { bindings::free_percpu(ptr.as_ptr().cast()) };
                return Err(e);
            }
        }
        // INVARIANT: Every possible CPU's slot holds a valid `T`: `init_cpu` returned `Ok` for each
        // (contract of `PinnedPerCpuInit`), and nothing moves them. Nothing else has the address:
        // `init` kept no access to the slots but what the `T`s provide for (same).
        Ok(Self {
            ptr,
            _t: PhantomData,
        })
    }

    /// Takes ownership of a per-CPU allocation, typically one given back by C.
    ///
    /// # Safety
    ///
    /// - `ptr` must be a per-CPU allocation for the size and alignment of `T` whose instance is a
    ///   valid, pinned `T` on every possible CPU: one given up by [`PinnedPerCpu::into_raw`], or
    ///   one that C allocated (`alloc_percpu()`) and initialised for the same layout.
    /// - While the returned object lives, nothing else may access the instances (read or write
    ///   them, other than what `T` itself provides for, as for the contents of a `KBox<T>`):
    ///   [`PinnedPerCpu::get`] hands out `&T` and [`PinnedPerCpu::get_mut`] and
    ///   [`PinnedPerCpu::get_pin_mut`] hand out `&mut T` on that assumption. Owning is not enough:
    ///   C code that still reads the memory (through a copy of the pointer) breaks it.
    /// - Nothing else may free it: ownership must not be taken more than once.
    pub unsafe fn from_raw(ptr: PinnedPerCpuPtr<T>) -> Self {
        // INVARIANT: Guaranteed by the safety requirements of this function.
        Self {
            ptr: ptr.0,
            _t: PhantomData,
        }
    }

    /// Frees a per-CPU allocation given as a raw `__percpu` address, as C's `free_percpu()` does:
    /// nothing for null. Only for types without drop glue (checked at build time), whose instances
    /// need nothing but their memory given back; it is what [`PinnedPerCpu::from_raw`] and a drop
    /// would do, without the check for null that a [`PinnedPerCpuPtr`] needs.
    ///
    /// # Safety
    ///
    /// `ptr` must be null or an allocation that [`PinnedPerCpu::from_raw`] could take over, and
    /// nothing may use it afterwards.
    #[inline]
    pub unsafe fn free_raw(ptr: *mut T) {
        const { assert!(!core::mem::needs_drop::<T>()) };
        // SAFETY:
        // - `ptr` is null or an allocation that nobody else owns or uses (safety requirements).
        // - `T` has no drop glue (asserted above): freeing the memory is all a drop would do.
        unsafe { bindings::free_percpu(ptr.cast()) };
    }

    /// Gives up ownership and returns the `__percpu` address, e.g. to store it in a C structure.
    ///
    /// The instances stay pinned, so the memory must be given back only after they are dropped:
    /// with [`PinnedPerCpu::from_raw`] and a drop, or, if `T` needs no drop, with
    /// [`PinnedPerCpu::free_raw`] or C's `free_percpu()`. C code that takes the address over frees
    /// it only so.
    pub fn into_raw(self) -> PinnedPerCpuPtr<T> {
        let ptr = self.ptr;
        core::mem::forget(self);
        PinnedPerCpuPtr(ptr)
    }

    /// Returns the address of `cpu`'s instance, or `None` if `cpu` is not possible.
    #[inline]
    fn cpu_ptr(&self, cpu: CpuId) -> Option<*mut T> {
        // SAFETY: By the type invariants, `ptr` is a live per-CPU allocation, and `cpu` was just
        // checked to be possible.
        cpu_possible(cpu).then(|| unsafe { Self::slot(self.ptr, cpu) })
    }

    /// Returns `cpu`'s instance, or `None` if `cpu` is not a possible CPU.
    #[inline]
    pub fn get(&self, cpu: CpuId) -> Option<&T> {
        // SAFETY:
        // - The instance is a valid `T` that nothing reaches but through `self` (type invariants).
        // - A `&mut T` needs `&mut self`, so none exists while `&self` is borrowed, and a `&T` for
        //   that borrow aliases no mutable reference. A `T` with interior mutability is changed
        //   through it only as its `&T` API allows.
        self.cpu_ptr(cpu).map(|p| unsafe { &*p })
    }

    /// Returns `cpu`'s instance, pinned and mutable, or `None` if `cpu` is not a possible CPU.
    ///
    /// The instance stays in its slot, but its value can be replaced ([`Pin::set`] drops the old
    /// value in place and writes a new one): a value built for one CPU, by an initialiser that
    /// recorded the CPU, can then be written into another CPU's slot. That is sound (nothing
    /// moves), but which CPU's value a slot holds is the initialiser's guarantee only until such
    /// a write: code that relies on it must not `set` a slot with another CPU's value.
    #[inline]
    pub fn get_pin_mut(&mut self, cpu: CpuId) -> Option<Pin<&mut T>> {
        let p = self.cpu_ptr(cpu)?;
        // SAFETY:
        // - The instance is a valid, pinned `T` reached only through `self` (type invariants).
        // - `&mut self` makes this the only access for the result's lifetime.
        // - `Pin` keeps it from being moved.
        Some(unsafe { Pin::new_unchecked(&mut *p) })
    }

    /// Returns an iterator over the possible CPUs and their instances.
    pub fn iter(&self) -> impl Iterator<Item = (CpuId, &T)> {
        possible_cpus().filter_map(move |cpu| self.get(cpu).map(|v| (cpu, v)))
    }
}

impl<T> Drop for PinnedPerCpu<T> {
    fn drop(&mut self) {
        if core::mem::needs_drop::<T>() {
            for cpu in possible_cpus() {
                // SAFETY: `ptr` is a live per-CPU allocation (type invariants), `cpu` possible.
                let p = unsafe { Self::slot(self.ptr, cpu) };
                // SAFETY: The instance is a valid `T` by the type invariants, dropped once, here,
                // in place, before the memory is freed.
                unsafe { core::ptr::drop_in_place(p) };
            }
        }
        // SAFETY:
        // - `ptr` is a per-CPU allocation that this object owns (type invariants).
        // - Every instance is dropped just above (or needs no drop).
        // - `into_raw()`, the only other way out, does not run this drop, so the memory is freed
        //   once.
        unsafe { bindings::free_percpu(self.ptr.as_ptr().cast()) };
    }
}
