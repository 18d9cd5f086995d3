// SPDX-License-Identifier: GPL-2.0

//! Proof tokens for the scheduler's locks.
//!
//! C header: [`kernel/sched/sched.h`](srctree/kernel/sched/sched.h)
//!
//! The locks stay in C: C takes them and calls into Rust. A Rust entry point turns "the caller
//! holds the lock" into a token with one `unsafe` call ([`RqLocked::assume_held`],
//! [`EpochLocked::assume_held`]), which lockdep checks where it is configured, and derives every
//! view of the protected state from that token, so that no view outlives the lock. This is the
//! pattern of [`LocalInterruptDisabled::assume_disabled`] for a lock held by the caller.
//!
//! [`LocalInterruptDisabled::assume_disabled`]:
//!     crate::interrupt::LocalInterruptDisabled::assume_disabled

use super::{bindings, ffi, CfsRqView, SchedEntity};
use crate::cpu::CpuId;

/// Proof that the current CPU holds the lock of a runqueue (`rq_lockp(rq)`).
///
/// The runqueue's fair runqueues ([`RqLocked::cfs_rq`]), their entities, and the LLC state of
/// the runqueue and its tasks (`RqLocked::llc`, `RqLocked::task`) are views borrowed from it, as
/// the data of a [`Guard`] is borrowed from the guard: no view outlives the token. The token is
/// neither [`Send`] nor [`Sync`], as the raw pointer it holds makes it: the lock is held by
/// this CPU, in this context, and neither the token nor a reference to it may reach another
/// thread. The lock is a raw spinlock: the code that holds the token runs in atomic context and
/// must not sleep while the token lives.
///
/// [`Guard`]: crate::sync::lock::Guard
///
/// # Invariants
///
/// `rq` points to a valid runqueue whose lock the current CPU holds while the token lives.
///
/// # Examples
///
/// The scheduler calls into Rust with the lock held, and the entry point makes the token from the
/// pointers C passes, with the views borrowed from it:
///
/// ```
/// use kernel::sched::{ffi, rq_of, RqLocked};
///
/// /// Returns whether the earliest deadline of `cfs_rq` is before that of its `curr`.
/// ///
/// /// # Safety
/// ///
/// /// `cfs_rq` must be valid, and its runqueue's lock held for the call.
/// unsafe extern "C" fn leftmost_first(cfs_rq: *mut ffi::cfs_rq) -> bool {
///     // SAFETY: `cfs_rq` is valid (safety requirements).
///     let rq = unsafe { rq_of(cfs_rq) };
///     // SAFETY: The caller holds the lock of `rq` for the call (safety requirements).
///     let locked = unsafe { RqLocked::assume_held(rq) };
///     // SAFETY: `cfs_rq` is a fair runqueue of `rq`, by `rq_of()`.
///     let cfs = unsafe { locked.cfs_rq(cfs_rq) };
///     match (cfs.leftmost(), cfs.curr()) {
///         (Some(first), Some(curr)) => first.deadline() < curr.deadline(),
///         (first, _) => first.is_some(),
///     }
/// }
/// # let _ = leftmost_first;
/// ```
pub struct RqLocked {
    rq: *mut bindings::rq,
}

impl RqLocked {
    /// Creates the token for the lock of `rq`, which the caller holds; lockdep checks it
    /// (`lockdep_assert_rq_held()`) when configured.
    ///
    /// # Safety
    ///
    /// `rq` must be a valid runqueue whose lock the caller holds until the token is dropped,
    /// without sleeping meanwhile.
    #[inline]
    pub unsafe fn assume_held(rq: *mut ffi::rq) -> Self {
        #[cfg(CONFIG_LOCKDEP)]
        // SAFETY: `rq` is a valid runqueue by the safety requirements; the check only reads it.
        unsafe {
            bindings::sched_rust_assert_rq_held(rq)
        };
        // INVARIANT: Guaranteed by the safety requirements of this function.
        Self {
            // CAST: `ffi::rq` is the opaque declaration of the `struct rq` bound here.
            rq: rq.cast(),
        }
    }

    /// Returns the raw runqueue, as C knows it.
    #[inline]
    pub fn as_raw(&self) -> *mut ffi::rq {
        self.rq.cast()
    }

    /// Returns the raw runqueue, with its fields.
    #[inline]
    pub(super) fn rq(&self) -> *mut bindings::rq {
        self.rq
    }

    /// Returns the view of `cfs_rq`, a fair runqueue of this runqueue, borrowed from the token.
    ///
    /// # Safety
    ///
    /// `cfs_rq` must be a valid fair runqueue of this runqueue (`rq_of(cfs_rq)` is it): its own
    /// `cfs` or a group's on this CPU.
    #[inline]
    pub unsafe fn cfs_rq(&self, cfs_rq: *mut ffi::cfs_rq) -> &CfsRqView {
        // CAST: `ffi::cfs_rq` is the opaque declaration of the `struct cfs_rq` bound here.
        // SAFETY: `cfs_rq` is a valid fair runqueue of this runqueue (safety requirements), whose
        // lock is held while `self` lives (type invariants), so for the borrow of `self` that the
        // view is tied to.
        unsafe { CfsRqView::from_raw(cfs_rq.cast()) }
    }

    /// Returns the entity `se`, queued on or running on a fair runqueue of this runqueue, borrowed
    /// from the token. It has no tree links: see [`CfsRqView::root`] for the tree.
    ///
    /// # Safety
    ///
    /// `se` must be a valid entity of a fair runqueue of this runqueue.
    #[inline]
    pub unsafe fn entity(&self, se: *mut bindings::sched_entity) -> &SchedEntity {
        // SAFETY: `se` is valid and protected by this runqueue's lock, held while `self` lives
        // (type invariants and safety requirements), so for the borrow of `self`.
        unsafe { SchedEntity::from_raw(se) }
    }
}

/// Returns the address of the runqueue of `cpu`.
///
/// Equivalent to the kernel's `cpu_rq()`. Only possible CPUs have a runqueue: the address of
/// another CPU's is not to be dereferenced.
#[inline]
pub fn cpu_rq(cpu: CpuId) -> *mut ffi::rq {
    // SAFETY:
    // - `runqueues` is a per-CPU variable, so its address is a valid per-CPU address.
    // - `cpu` is below `nr_cpu_ids` (invariants of `CpuId`).
    // Only an address is computed, not dereferenced: it is a runqueue only for a possible CPU,
    // which callers that use it ensure.
    unsafe { bindings::per_cpu_ptr((&raw mut bindings::runqueues).cast(), cpu.as_u32()) }.cast()
}

/// Returns the runqueue of the fair runqueue `cfs_rq`.
///
/// Equivalent to `rq_of()`.
///
/// # Safety
///
/// `cfs_rq` must be a valid fair runqueue.
#[inline]
pub unsafe fn rq_of(cfs_rq: *mut ffi::cfs_rq) -> *mut ffi::rq {
    // CAST: `ffi::cfs_rq` is the opaque declaration of the `struct cfs_rq` bound here.
    let cfs_rq = cfs_rq.cast::<bindings::cfs_rq>();
    #[cfg(CONFIG_FAIR_GROUP_SCHED)]
    {
        // SAFETY: `cfs_rq` is valid, and `cfs_rq->rq` is set once, when it is initialised.
        unsafe { (*cfs_rq).rq }.cast()
    }
    #[cfg(not(CONFIG_FAIR_GROUP_SCHED))]
    {
        // SAFETY: Without group scheduling, the only fair runqueue is the `cfs` of a runqueue.
        unsafe { crate::container_of!(cfs_rq, bindings::rq, cfs) }.cast()
    }
}

/// Proof that the current CPU holds `rq->cpu_epoch_lock` of a runqueue.
///
/// The runqueue's epoch clock (`RqEpoch`) and the processes' runtimes on its CPU
/// (`CacheTime`) are views borrowed from it. Like [`RqLocked`], it is neither [`Send`] nor
/// [`Sync`], and the code that holds it runs in atomic context: it must not sleep while the
/// token lives.
///
/// # Invariants
///
/// `rq` points to a valid runqueue whose `cpu_epoch_lock` the current CPU holds while the token
/// lives.
///
/// # Examples
///
/// ```
/// use kernel::sched::{ffi, EpochLocked};
///
/// /// Returns the epoch of `rq`'s clock.
/// ///
/// /// # Safety
/// ///
/// /// `rq` must be valid, and its `cpu_epoch_lock` held for the call.
/// unsafe extern "C" fn epoch_of(rq: *mut ffi::rq) -> u64 {
///     // SAFETY: The caller holds `rq->cpu_epoch_lock` for the call (safety requirements).
///     let locked = unsafe { EpochLocked::assume_held(rq) };
///     let clock = locked.epoch();
///     // Under the lock, the clock does not move between two reads.
///     assert_eq!(clock.epoch(), clock.epoch());
///     clock.epoch()
/// }
/// # let _ = epoch_of;
/// ```
#[cfg(CONFIG_SCHED_CACHE)]
pub struct EpochLocked {
    rq: *mut bindings::rq,
}

#[cfg(CONFIG_SCHED_CACHE)]
impl EpochLocked {
    /// Creates the token for `rq->cpu_epoch_lock`, which the caller holds; lockdep checks it
    /// when configured.
    ///
    /// # Safety
    ///
    /// `rq` must be a valid runqueue whose `cpu_epoch_lock` the caller holds until the token is
    /// dropped, without sleeping meanwhile.
    #[inline]
    pub unsafe fn assume_held(rq: *mut ffi::rq) -> Self {
        #[cfg(CONFIG_LOCKDEP)]
        // SAFETY: `rq` is a valid runqueue by the safety requirements; the check only reads it.
        unsafe {
            bindings::sched_rust_assert_epoch_held(rq)
        };
        // INVARIANT: Guaranteed by the safety requirements of this function.
        Self {
            // CAST: `ffi::rq` is the opaque declaration of the `struct rq` bound here.
            rq: rq.cast(),
        }
    }

    /// Returns the raw runqueue, with its fields.
    #[inline]
    pub(super) fn rq(&self) -> *mut bindings::rq {
        self.rq
    }
}
