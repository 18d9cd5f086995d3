// SPDX-License-Identifier: GPL-2.0

//! Dynamic per-CPU allocations.
//!
//! C header: [`include/linux/percpu.h`](srctree/include/linux/percpu.h)
//!
//! [`PerCpu<T>`] owns one `T` per possible CPU, allocated with the kernel's per-CPU allocator
//! (`alloc_percpu_gfp()`) and freed on drop (`free_percpu()`). The instances never move: they
//! are initialised in place, zero-filled ([`PerCpu::new`], for [`Zeroable`] types), by a
//! [`PinInit`] per CPU ([`PerCpu::try_pin_init`], for types that point into themselves), or by
//! an initialiser that starts from the allocator's zero-filled memory and writes only what is
//! not zero ([`PerCpu::try_pin_init_zeroed`], for large, mostly zero C structures), and
//! reached by [`CpuId`] (`per_cpu_ptr()`). The `__percpu` address itself is a [`PerCpuPtr`],
//! which Rust cannot dereference. It works through the generic per-CPU C helpers, with no
//! architecture-specific code.

use crate::{
    alloc::{AllocError, Flags},
    bindings,
    cpu::{nr_cpu_ids, CpuId},
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

/// Returns an iterator over the possible CPUs.
///
/// Equivalent to the kernel's `for_each_possible_cpu()`.
pub fn possible_cpus() -> impl Iterator<Item = CpuId> {
    (0..nr_cpu_ids())
        .filter_map(CpuId::from_u32)
        .filter(|&cpu| cpu_possible(cpu))
}

/// The `__percpu` address of a per-CPU allocation of `T`s: what C stores in a field typed
/// `T __percpu *`.
///
/// It is not the address of a `T` (only `per_cpu_ptr()` turns it into one), so it has no
/// dereferenceable form in Rust: it can be handed to C ([`PerCpuPtr::as_raw`]) and back to
/// [`PerCpu::from_raw`].
#[repr(transparent)]
pub struct PerCpuPtr<T>(NonNull<T>);

impl<T> PerCpuPtr<T> {
    /// Wraps a `__percpu` address that C hands over, or returns `None` for null.
    ///
    /// Safe: the result can only be turned back into a [`PerCpu`] by the unsafe
    /// [`PerCpu::from_raw`], whose contract covers what the address points to.
    #[inline]
    pub fn from_raw(ptr: *mut T) -> Option<Self> {
        NonNull::new(ptr).map(Self)
    }

    /// Returns the address, for a C field or parameter typed `T __percpu *`.
    #[inline]
    pub fn as_raw(&self) -> *mut T {
        self.0.as_ptr()
    }

    /// Returns the same address as a `__percpu` address of `U`s, e.g. of the first field of `T`.
    #[inline]
    pub fn cast<U>(self) -> PerCpuPtr<U> {
        PerCpuPtr(self.0.cast())
    }
}

/// An owned dynamic per-CPU allocation: one `T` per possible CPU.
///
/// Equivalent to a pointer returned by `alloc_percpu_gfp()`, which [`PerCpu::drop`] frees with
/// `free_percpu()`.
///
/// # Invariants
///
/// - `ptr` is a per-CPU address returned by the per-CPU allocator for the size and alignment of
///   `T`, owned by this object.
/// - For every possible CPU, the instance of that CPU is a valid `T`, and it is pinned: it is
///   not moved before it is dropped, here.
///
/// # Examples
///
/// ```
/// use kernel::prelude::*;
/// use kernel::sched::percpu::{possible_cpus, PerCpu, PerCpuPtr};
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
/// // Initialise every instance in place instead, e.g. for a type that points into itself.
/// #[pin_data]
/// struct Square {
///     n: u64,
/// }
/// let squares = PerCpu::<Square>::try_pin_init(GFP_KERNEL, |cpu| {
///     let n = u64::from(cpu.as_u32());
///     kernel::try_pin_init!(Square { n: n * n })
/// })?;
/// assert!(squares.iter().all(|(cpu, s)| s.n == u64::from(cpu.as_u32()).pow(2)));
///
/// // Or start from the allocator's zero-filled memory and write only what is not zero.
/// use kernel::sched::percpu::zeroed_pin_init_from_closure;
/// let tables = PerCpu::<[u64; 64]>::try_pin_init_zeroed(GFP_KERNEL, |cpu| {
///     // SAFETY: Writing one element of the zero-filled array leaves a valid array, and the
///     // closure does not fail.
///     unsafe {
///         zeroed_pin_init_from_closure(move |slot: *mut [u64; 64]| {
///             (*slot)[0] = u64::from(cpu.as_u32()) + 1;
///             Ok::<(), Error>(())
///         })
///     }
/// })?;
/// assert!(tables
///     .iter()
///     .all(|(cpu, t)| t[0] == u64::from(cpu.as_u32()) + 1 && t[1..].iter().all(|&v| v == 0)));
///
/// // Hand the `__percpu` address to C and take it back: it is freed once, on drop.
/// let raw: *mut u64 = counters.into_raw().as_raw();
/// // SAFETY: `raw` comes from `into_raw()` and is not used after this.
/// let counters = unsafe { PerCpu::<u64>::from_raw(PerCpuPtr::from_raw(raw).unwrap()) };
/// drop(counters);
/// # Ok::<(), Error>(())
/// ```
pub struct PerCpu<T> {
    ptr: NonNull<T>,
    _t: PhantomData<T>,
}

// SAFETY: A `PerCpu<T>` owns its instances like a `KBox<[T]>` would: moving it to another thread
// moves the `T`s, which is fine when `T: Send`.
unsafe impl<T: Send> Send for PerCpu<T> {}

// SAFETY: `&PerCpu<T>` gives out only `&T` (mutable access needs `&mut PerCpu<T>`), so sharing it
// between threads is fine when `T: Sync`.
unsafe impl<T: Sync> Sync for PerCpu<T> {}

/// An in-place initialiser of a `T` that relies on starting from zero-filled memory: what
/// [`PerCpu::try_pin_init_zeroed`] runs on each CPU's slot, as the per-CPU allocator returns it.
///
/// Nothing else accepts one, so the zero-filled start is guaranteed by type. Made with
/// [`zeroed_pin_init_from_closure`].
pub struct ZeroedPinInit<T, E, F: FnOnce(*mut T) -> Result<(), E>> {
    f: F,
    _p: PhantomData<SlotInit<T, E>>,
}

/// The signature of the closure of a [`ZeroedPinInit`].
type SlotInit<T, E> = fn(*mut T) -> Result<(), E>;

/// Makes a [`ZeroedPinInit`] of `f`, which receives the slot.
///
/// # Safety
///
/// Given a valid, aligned slot for a `T` whose bytes are all zero and which is never moved, `f`
/// must either leave a valid `T` in it and return `Ok`, or return `Err` with nothing in the slot
/// that needs dropping.
pub unsafe fn zeroed_pin_init_from_closure<T, E, F>(f: F) -> ZeroedPinInit<T, E, F>
where
    F: FnOnce(*mut T) -> Result<(), E>,
{
    ZeroedPinInit { f, _p: PhantomData }
}

impl<T: Zeroable> PerCpu<T> {
    /// Allocates one zero-initialised `T` per possible CPU.
    ///
    /// Equivalent to `alloc_percpu_gfp(T, flags)`.
    pub fn new(flags: Flags) -> Result<Self, AllocError> {
        // INVARIANT: The allocator returned a zero-filled instance of the size and alignment of
        // `T` for every possible CPU, valid since `T: Zeroable`.
        Ok(Self {
            ptr: Self::alloc(flags)?,
            _t: PhantomData,
        })
    }
}

impl<T: Unpin> PerCpu<T> {
    /// Returns `cpu`'s instance mutably, or `None` if `cpu` is not a possible CPU.
    ///
    /// Only for `Unpin` types: a `&mut T` could move the instance (`mem::swap`).
    #[inline]
    pub fn get_mut(&mut self, cpu: CpuId) -> Option<&mut T> {
        // SAFETY: By the type invariants the instance is a valid `T`, and `&mut self` makes this
        // the only access to it; `T: Unpin`, so moving it out is allowed.
        self.cpu_ptr(cpu).map(|p| unsafe { &mut *p })
    }
}

impl<T> PerCpu<T> {
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

    /// Allocates zero-filled memory for one `T` per possible CPU.
    fn alloc(flags: Flags) -> Result<NonNull<T>, AllocError> {
        let () = Self::LAYOUT_OK;

        // SAFETY: The size and alignment are valid for the per-CPU allocator (`LAYOUT_OK`).
        let ptr = unsafe {
            bindings::__alloc_percpu_gfp(size_of::<T>(), align_of::<T>(), flags.as_raw())
        };
        NonNull::new(ptr.cast()).ok_or(AllocError)
    }

    /// Allocates one `T` per possible CPU and initialises each in place with `init(cpu)`.
    ///
    /// The slots are zero-filled before initialisation. If an initialiser fails, the instances
    /// already initialised are dropped, the allocation is freed and the error returned.
    pub fn try_pin_init<E, I>(flags: Flags, mut init: impl FnMut(CpuId) -> I) -> Result<Self, E>
    where
        I: pin_init::PinInit<T, E>,
        E: From<AllocError>,
    {
        // SAFETY: A `PinInit` initialises the slot in place and leaves nothing to drop when it
        // fails (its contract); the slot is valid, aligned and never moved (`init_each`).
        unsafe { Self::init_each(flags, |slot, cpu| pin_init::raw_try_init(slot, init(cpu))) }
    }

    /// Allocates one `T` per possible CPU and initialises each in place with `init(cpu)`, an
    /// initialiser that starts from the zero-filled memory the per-CPU allocator returns.
    ///
    /// For types mostly zero when initialised: such an initialiser writes only the fields that
    /// are not zero, where a [`PinInit`] has to write every byte of memory it knows nothing
    /// about. Failure is handled as by [`PerCpu::try_pin_init`].
    pub fn try_pin_init_zeroed<E, F>(
        flags: Flags,
        mut init: impl FnMut(CpuId) -> ZeroedPinInit<T, E, F>,
    ) -> Result<Self, E>
    where
        F: FnOnce(*mut T) -> Result<(), E>,
        E: From<AllocError>,
    {
        // SAFETY: The slot is zero-filled, valid, aligned and never moved (`init_each`), which
        // is what a `ZeroedPinInit` needs to initialise it, or to leave nothing to drop when it
        // fails (its contract).
        unsafe { Self::init_each(flags, |slot, cpu| (init(cpu).f)(slot)) }
    }

    /// Allocates zero-filled memory for one `T` per possible CPU and runs `init(slot, cpu)` on
    /// each CPU's slot, a valid, aligned slot for a `T` that is never moved. If `init` fails,
    /// the slots already initialised are dropped, the memory freed and the error returned.
    ///
    /// # Safety
    ///
    /// When `init` returns `Ok`, the slot must hold a valid `T`; when it returns `Err`, nothing
    /// in the slot may need dropping.
    unsafe fn init_each<E>(
        flags: Flags,
        mut init: impl FnMut(*mut T, CpuId) -> Result<(), E>,
    ) -> Result<Self, E>
    where
        E: From<AllocError>,
    {
        let ptr = Self::alloc(flags)?;
        let cpus = possible_cpus();
        for (done, cpu) in cpus.enumerate() {
            // SAFETY: `cpu` is possible and `ptr` a live per-CPU allocation for `T`s, so this is
            // the address of `cpu`'s slot.
            let slot = unsafe { bindings::per_cpu_ptr(ptr.as_ptr().cast(), cpu.as_u32()) }.cast();
            // The slot is zero-filled (`alloc`), valid for writes, aligned, and never moved: it
            // is freed only by the drop of the `PerCpu` built below, or here on failure.
            if let Err(e) = init(slot, cpu) {
                for cpu in possible_cpus().take(done) {
                    // SAFETY: The first `done` possible CPUs were initialised above; each is
                    // dropped once, before the memory is freed.
                    unsafe {
                        core::ptr::drop_in_place::<T>(
                            bindings::per_cpu_ptr(ptr.as_ptr().cast(), cpu.as_u32()).cast(),
                        )
                    };
                }
                // SAFETY: `ptr` came from the per-CPU allocator, and nothing refers to it now.
                unsafe { bindings::free_percpu(ptr.as_ptr().cast()) };
                return Err(e);
            }
        }
        // INVARIANT: Every possible CPU's slot holds a valid `T`: `init` returned `Ok` for each
        // (safety requirements).
        Ok(Self {
            ptr,
            _t: PhantomData,
        })
    }

    /// Takes ownership of a per-CPU allocation, typically one given back by C.
    ///
    /// # Safety
    ///
    /// `ptr` must be a per-CPU allocation for the size and alignment of `T` whose instance is
    /// a valid, pinned `T` on every possible CPU, and nothing else may own it: one given up by
    /// [`PerCpu::into_raw`], or one that C allocated (`alloc_percpu()`) and initialised for the
    /// same layout. Ownership must not be taken more than once.
    pub unsafe fn from_raw(ptr: PerCpuPtr<T>) -> Self {
        // INVARIANT: Guaranteed by the safety requirements of this function.
        Self {
            ptr: ptr.0,
            _t: PhantomData,
        }
    }

    /// Gives up ownership and returns the `__percpu` address, e.g. to store it in a C structure.
    ///
    /// It can be freed with [`PerCpu::from_raw`] and a drop, or, if `T` needs no drop, with
    /// `free_percpu()`.
    pub fn into_raw(self) -> PerCpuPtr<T> {
        let ptr = self.ptr;
        core::mem::forget(self);
        PerCpuPtr(ptr)
    }

    /// Returns the address of `cpu`'s instance, or `None` if `cpu` is not possible.
    #[inline]
    fn cpu_ptr(&self, cpu: CpuId) -> Option<*mut T> {
        cpu_possible(cpu).then(|| {
            // SAFETY: By the type invariants, `ptr` is a live per-CPU allocation, and `cpu` was
            // just checked to be possible, so it has an instance.
            unsafe { bindings::per_cpu_ptr(self.ptr.as_ptr().cast(), cpu.as_u32()) }.cast()
        })
    }

    /// Returns `cpu`'s instance, or `None` if `cpu` is not a possible CPU.
    #[inline]
    pub fn get(&self, cpu: CpuId) -> Option<&T> {
        // SAFETY: By the type invariants the instance is a valid `T`; it can be mutated only
        // through `&mut self`, so a shared reference for the lifetime of `&self` is sound.
        self.cpu_ptr(cpu).map(|p| unsafe { &*p })
    }

    /// Returns `cpu`'s instance, pinned and mutable, or `None` if `cpu` is not a possible CPU.
    #[inline]
    pub fn get_pin_mut(&mut self, cpu: CpuId) -> Option<Pin<&mut T>> {
        let p = self.cpu_ptr(cpu)?;
        // SAFETY: By the type invariants the instance is a valid, pinned `T`, and `&mut self`
        // makes this the only access to it; `Pin` keeps it from being moved.
        Some(unsafe { Pin::new_unchecked(&mut *p) })
    }

    /// Returns an iterator over the possible CPUs and their instances.
    pub fn iter(&self) -> impl Iterator<Item = (CpuId, &T)> {
        possible_cpus().filter_map(move |cpu| self.get(cpu).map(|v| (cpu, v)))
    }
}

impl<T> Drop for PerCpu<T> {
    fn drop(&mut self) {
        if core::mem::needs_drop::<T>() {
            for cpu in possible_cpus() {
                if let Some(p) = self.cpu_ptr(cpu) {
                    // SAFETY: The instance is a valid `T` by the type invariants, dropped once,
                    // here, in place, before the memory is freed.
                    unsafe { core::ptr::drop_in_place(p) };
                }
            }
        }
        // SAFETY: By the type invariants, `ptr` is an owned per-CPU allocation, freed only here.
        unsafe { bindings::free_percpu(self.ptr.as_ptr().cast()) };
    }
}
