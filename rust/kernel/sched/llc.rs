// SPDX-License-Identifier: GPL-2.0

//! The LLC occupancy state of cache-aware scheduling (`CONFIG_SCHED_CACHE`).
//!
//! C header: [`kernel/sched/sched.h`](srctree/kernel/sched/sched.h)
//!
//! Counters live in three places: the runqueue (`nr_llc_running`, `nr_pref_llc_running`), the
//! bottom sched domain of its CPU (`llc_counts[]`, indexed by dense LLC id and reallocated zeroed
//! on every domain rebuild) and the task (`preferred_llc`, `pref_llc_queued`). The counters
//! change under the runqueue lock: their views, [`RqLlc`] and [`TaskLlc`], come from its proof
//! token, [`RqLocked`]. The decayed runtimes (`rq->cpu_epoch*`, `cpu_runtime` and the per-CPU
//! `struct sched_cache_time` of each process) change under `rq->cpu_epoch_lock`: [`RqEpoch`]
//! and [`CacheTime`] come from [`EpochLocked`].
//!
//! Some of these fields are read without the lock that serialises their writers: load
//! balancing reads a remote domain's `llc_counts[]` (`update_sg_lb_stats()`,
//! `sched_balance_find_src_rq()`) and a remote runqueue's `nr_pref_llc_running`
//! (`alb_break_llc()`); `task_tick_cache()` reads `cpu_epoch` under the runqueue lock only;
//! domain rebuilds publish `rq->sd`. `nr_llc_running` has no lockless reader in the series; it is
//! accessed as its sibling counters are.
//! Those fields are accessed here with the kernel's atomics ([`Atomic::from_ptr`], relaxed: C's
//! `READ_ONCE()`/`WRITE_ONCE()`; `rq->sd` too, the reads of the domain it points to ordered
//! after its publication by their address dependency, which the LKMM's `Relaxed` keeps, as
//! `rcu_dereference()` in C). Each is a field of a C struct without `__packed`, of a type
//! (`u32`, `unsigned long`, `u64` or a pointer) that the option's 64-bit architectures align
//! to its size, so naturally aligned, as `from_ptr` requires.
//!
//! What this guarantees: the Rust accesses are marked, and the only writers, which hold the
//! lock, are serialised, so no two Rust accesses race. The C accesses that can run concurrently
//! with them are marked too (`READ_ONCE()`/`WRITE_ONCE()`, the series' patch "sched/fair: Mark
//! the cache-aware fields that other CPUs read locklessly"), so no access to these fields is a
//! data race under the LKMM and `from_ptr`'s requirements hold. The plain C accesses that remain
//! (`nr_llc_running`'s writers, the reads of a counter by the holder of the lock that serialises
//! its writers) cannot run concurrently with a Rust store.

use super::{bindings, EpochLocked, RqLocked};
use crate::{
    sync::atomic::{Atomic, Relaxed},
    types::Opaque, //
};
use core::marker::PhantomData;

impl RqLocked {
    /// Returns the LLC counters of this runqueue and of its bottom sched domain.
    #[inline]
    pub fn llc(&self) -> &RqLlc {
        // CAST: `RqLlc` is `repr(transparent)` over `Opaque<rq>`, which has its layout.
        // INVARIANT: The lock is held while the view exists (it borrows `self`).
        // SAFETY: The runqueue is valid and locked while `self` lives (invariants of
        // `RqLocked`), so for the borrow of `self`.
        unsafe { &*self.rq().cast::<RqLlc>() }
    }

    /// Returns the LLC state of task `p`, which is being queued on, queued on, or being
    /// dequeued from this runqueue.
    ///
    /// # Safety
    ///
    /// `p` must be a valid task whose runqueue is this one.
    #[inline]
    pub unsafe fn task(&self, p: *mut bindings::task_struct) -> &TaskLlc {
        // CAST: `TaskLlc` is `repr(transparent)` over `Opaque<task_struct>`.
        // INVARIANT: `p` is valid and its runqueue's lock is held for the borrow of `self`.
        // SAFETY: `p` is valid, and on this runqueue, whose lock is held while `self` lives
        // (safety requirements and invariants of `RqLocked`), so for the borrow of `self`.
        unsafe { &*p.cast::<TaskLlc>() }
    }
}

/// The LLC counters of a runqueue and of its bottom sched domain, with the runqueue lock held.
///
/// Obtained from [`RqLocked::llc`].
///
/// The runqueue lock is a raw spinlock: while it is held, preemption is disabled, which makes an
/// RCU read-side critical section (RCU-sched and RCU are one flavour) in which `rq->sd` stays
/// valid. That follows from the rule of [`RqLocked::assume_held`] (atomic context while the token
/// lives), not from this type.
///
/// # Invariants
///
/// While a `&RqLlc` exists, the runqueue is valid and its lock is held.
#[repr(transparent)]
pub struct RqLlc(Opaque<bindings::rq>);

impl RqLlc {
    #[inline]
    fn rq(&self) -> *mut bindings::rq {
        self.0.get()
    }

    /// Returns `rq->nr_llc_running`, the number of queued tasks with a preferred LLC.
    #[inline]
    pub fn nr_llc_running(&self) -> u32 {
        // SAFETY:
        // - The runqueue is valid (type invariants) and the field an aligned `u32`.
        // - Its writers hold the runqueue lock, held here (type invariants): no store races.
        unsafe { Atomic::from_ptr(&raw mut (*self.rq()).nr_llc_running).load(Relaxed) }
    }

    /// Sets `rq->nr_llc_running`.
    #[inline]
    pub fn set_nr_llc_running(&self, v: u32) {
        // SAFETY: As in `nr_llc_running()`; the lock, held (type invariants), makes this the
        // only writer.
        unsafe { Atomic::from_ptr(&raw mut (*self.rq()).nr_llc_running).store(v, Relaxed) };
    }

    /// Returns `rq->nr_pref_llc_running`, the number of queued, non-delayed tasks on their
    /// preferred LLC.
    #[inline]
    pub fn nr_pref_llc_running(&self) -> u32 {
        // SAFETY:
        // - The runqueue is valid (type invariants) and the field an aligned `u32`.
        // - Load balancing (`alb_break_llc()`) reads the counter of a remote runqueue without its
        //   lock, with `READ_ONCE()`, so every Rust access is atomic.
        unsafe { Atomic::from_ptr(&raw mut (*self.rq()).nr_pref_llc_running).load(Relaxed) }
    }

    /// Sets `rq->nr_pref_llc_running`.
    #[inline]
    pub fn set_nr_pref_llc_running(&self, v: u32) {
        // SAFETY: As in `nr_pref_llc_running()`; the lock, held (type invariants), makes this
        // the only writer.
        unsafe { Atomic::from_ptr(&raw mut (*self.rq()).nr_pref_llc_running).store(v, Relaxed) };
    }

    /// Returns the count of LLC `llc` in the bottom domain (`rq->sd->llc_counts[llc]`), or
    /// `None` if the runqueue has no domain (`rq->sd == NULL`) or `llc` is out of range.
    #[inline]
    fn llc_count(&self, llc: u32) -> Option<*mut u32> {
        // `rcu_dereference_all(rq->sd)`: a single relaxed read of the published pointer. The
        // reads through it are ordered after the publisher's writes by their address
        // dependency, as in C: the kernel's atomics follow the LKMM, whose `Relaxed` keeps the
        // dependency orderings (`kernel::sync::atomic::ordering`), so no acquire is needed.
        // SAFETY:
        // - The runqueue is valid (type invariants).
        // - `rq->sd` is published with `rcu_assign_pointer()` by domain rebuilds, which do not
        //   take this lock, so it is read atomically.
        // - `rq->sd` is a pointer field of a struct without `__packed`: naturally aligned.
        let sd = unsafe { Atomic::from_ptr(&raw mut (*self.rq()).sd).load(Relaxed) };
        if sd.is_null() {
            return None;
        }
        // `sd` was published with `rcu_assign_pointer()` and is freed only after a grace period;
        // the held runqueue lock disables preemption, an RCU read-side critical section that
        // lasts while `self` exists (type invariants): `sd` is valid for the reads below.
        // SAFETY: `sd` is valid (above); `llc_max` is set before the domain is published.
        let max = unsafe { (*sd).llc_max };
        // SAFETY: `sd` is valid (above); `llc_counts` is set with `llc_max`, before publication.
        let counts = unsafe { (*sd).llc_counts };
        // No separate NULL test: the domain code sets and clears `llc_counts` and `llc_max`
        // together (`build_sched_domains()`, `cpu_attach_domain()`), so a domain without
        // counts has `llc_max == 0` and fails this bound.
        if llc >= max {
            return None;
        }
        // SAFETY: `llc_counts` has `llc_max` elements (`__counted_by_ptr(llc_max)`), so it is
        // not NULL when `llc_max` is not 0, and `llc` is below it.
        Some(unsafe { counts.add(crate::num::casts::u32_as_usize(llc)) })
    }

    /// Adds one to the count of LLC `llc` (`sd->llc_counts[llc]++`); nothing if there is no
    /// such count.
    ///
    /// An unpaired increment wraps, as C's does.
    #[inline]
    pub fn llc_count_inc(&self, llc: u32) {
        let Some(c) = self.llc_count(llc) else {
            return;
        };
        // Load balancing (`update_sg_lb_stats()`, `sched_balance_find_src_rq()`) reads the
        // counts of remote domains without this lock, so every Rust access is atomic. Only the
        // holder of this runqueue's lock writes its domain's counts: no read-modify-write. Only
        // the arithmetic runs between the load and the store: nothing that could sleep (and end
        // the RCU read-side section `c` depends on) or write the count in between.
        // SAFETY: `c` is an aligned `u32` count of the domain, valid while `self` exists
        // (`llc_count()`); the C readers use `READ_ONCE()`.
        let n = unsafe { Atomic::from_ptr(c).load(Relaxed) };
        // SAFETY: As just above; this CPU holds the lock that serialises the writers.
        unsafe { Atomic::from_ptr(c).store(n.wrapping_add(1), Relaxed) };
    }

    /// Takes one from the count of LLC `llc`, unless it is 0 (`if (sd->llc_counts[llc])
    /// sd->llc_counts[llc]--`); nothing if there is no such count.
    ///
    /// A domain rebuild reallocates the counts zeroed, so a task queued before it can find its
    /// count at 0: it stays there, as in C.
    #[inline]
    pub fn llc_count_dec(&self, llc: u32) {
        let Some(c) = self.llc_count(llc) else {
            return;
        };
        // As in `llc_count_inc()`: atomic for the lockless readers, one writer (this lock's
        // holder), nothing but the arithmetic between the load and the store.
        // SAFETY: `c` is an aligned `u32` count of the domain, valid while `self` exists
        // (`llc_count()`); the C readers use `READ_ONCE()`.
        let n = unsafe { Atomic::from_ptr(c).load(Relaxed) };
        // SAFETY: As just above; this CPU holds the lock that serialises the writers.
        unsafe { Atomic::from_ptr(c).store(n.saturating_sub(1), Relaxed) };
    }
}

/// The LLC state of a task on a runqueue whose lock is held.
///
/// Obtained from [`RqLocked::task`].
///
/// # Invariants
///
/// While a `&TaskLlc` exists, the task is valid and the lock of its runqueue is held.
#[repr(transparent)]
pub struct TaskLlc(Opaque<bindings::task_struct>);

impl TaskLlc {
    #[inline]
    fn p(&self) -> *mut bindings::task_struct {
        self.0.get()
    }

    /// Returns the task's preferred LLC (`p->preferred_llc`), or a negative value for none.
    #[inline]
    pub fn preferred_llc(&self) -> i32 {
        // A plain read, as in C's `account_llc_enqueue()`/`_dequeue()`, so that the load of `rq`
        // is not kept above their "no preferred LLC" return.
        // SAFETY:
        // - The task is valid (type invariants).
        // - Every write holds its runqueue's lock (`account_mm_sched()`; `init_sched_mm()` runs
        //   before the task is on a runqueue), which is held (type invariants), so the read races
        //   only with reads.
        unsafe { (*self.p()).preferred_llc }
    }

    /// Returns the LLC of the CPU the task is on (`task_llc()`).
    #[inline]
    pub fn task_llc(&self) -> i32 {
        // SAFETY: The task is valid (type invariants); `task_llc()` only reads its CPU's LLC id.
        unsafe { bindings::task_llc(self.p()) }
    }

    /// Returns whether the task was queued on its preferred LLC (`p->pref_llc_queued`).
    #[inline]
    pub fn pref_llc_queued(&self) -> bool {
        // SAFETY:
        // - The task is valid (type invariants).
        // - No write races with this read: the runqueue lock is held (type invariants), every
        //   access to the field of a queueable task holds it, and `sched_fork()` clears it before
        //   the task can be queued.
        unsafe { (*self.p()).pref_llc_queued != 0 }
    }

    /// Sets `p->pref_llc_queued`.
    #[inline]
    pub fn set_pref_llc_queued(&self, queued: bool) {
        // SAFETY: As in `pref_llc_queued()`: every access to the field of a task that can be
        // queued holds its runqueue's lock, which is held (type invariants), so nothing
        // accesses it concurrently.
        unsafe { (*self.p()).pref_llc_queued = i32::from(queued) };
    }

    /// Returns whether the task's entity is delayed (`p->se.sched_delayed`).
    #[inline]
    pub fn sched_delayed(&self) -> bool {
        // SAFETY: The task is valid; `set_delayed()`/`clear_delayed()` change the flag only
        // under the runqueue lock, which is held (type invariants).
        unsafe { (*self.p()).se.sched_delayed != 0 }
    }
}

impl EpochLocked {
    /// Returns the epoch clock of this runqueue.
    #[inline]
    pub fn epoch(&self) -> &RqEpoch {
        // CAST: `RqEpoch` is `repr(transparent)` over `Opaque<rq>`.
        // INVARIANT: The runqueue is valid and its `cpu_epoch_lock` held for the borrow of `self`.
        // SAFETY: The runqueue is valid and its `cpu_epoch_lock` held while `self` lives
        // (invariants of `EpochLocked`), so for the borrow of `self`.
        unsafe { &*self.rq().cast::<RqEpoch>() }
    }

    /// Returns the runtime of a process on this runqueue's CPU.
    ///
    /// # Safety
    ///
    /// `t` must be valid while `self` lives: the `sched_cache_time` of a process on this
    /// runqueue's CPU (`per_cpu_ptr(mm->sc_stat.pcpu_sched, cpu_of(rq))`).
    #[inline]
    pub unsafe fn cache_time(&self, t: *mut bindings::sched_cache_time) -> &CacheTime {
        // CAST: `CacheTime` is `repr(transparent)` over `Opaque<sched_cache_time>`.
        // INVARIANT: `t` is valid and its CPU's `cpu_epoch_lock` held while the view exists.
        // SAFETY: `t` is valid while `self` lives and belongs to this CPU, whose
        // `cpu_epoch_lock` serialises its writers and is held while `self` lives (safety
        // requirements, type invariants), so for the borrow of `self`.
        unsafe { &*t.cast::<CacheTime>() }
    }
}

/// The epoch clock of a runqueue (`cpu_epoch`, `cpu_epoch_next`, `cpu_runtime`), with
/// `rq->cpu_epoch_lock` held.
///
/// Obtained from [`EpochLocked::epoch`].
///
/// # Invariants
///
/// While a `&RqEpoch` exists, the runqueue is valid and its `cpu_epoch_lock` is held.
#[repr(transparent)]
pub struct RqEpoch(Opaque<bindings::rq>);

impl RqEpoch {
    // Writers hold `cpu_epoch_lock`, which is held (type invariants). `task_tick_cache()` (under
    // the runqueue lock only) and `mm_init_sched()` read `cpu_epoch` without it, so it is
    // accessed atomically; the other two fields are only accessed under the lock, so plain
    // accesses are race-free. Each accessor reads or writes one field.

    /// Returns `rq->cpu_epoch`.
    #[inline]
    pub fn epoch(&self) -> u64 {
        // SAFETY: The runqueue is valid (type invariants); `cpu_epoch`, an `unsigned long`, is
        // naturally aligned; other CPUs read it without `cpu_epoch_lock`, so it is accessed
        // atomically.
        let v = unsafe { Atomic::from_ptr(&raw mut (*self.0.get()).cpu_epoch).load(Relaxed) };
        crate::num::casts::usize_as_u64(v)
    }

    /// Sets `rq->cpu_epoch`.
    #[inline]
    pub fn set_epoch(&self, v: u64) {
        let v = crate::num::casts::arch::u64_as_usize(v);
        // SAFETY:
        // - The runqueue is valid (type invariants).
        // - Its `cpu_epoch_lock`, which every writer of `cpu_epoch` takes, is held (type
        //   invariants), and the store is atomic for the lockless readers.
        unsafe { Atomic::from_ptr(&raw mut (*self.0.get()).cpu_epoch).store(v, Relaxed) };
    }

    /// Returns `rq->cpu_epoch_next`, in jiffies.
    #[inline]
    pub fn epoch_next(&self) -> u64 {
        // SAFETY: The runqueue is valid (type invariants); `cpu_epoch_next` is read and written
        // under `cpu_epoch_lock` only, which is held, so nothing writes it concurrently.
        let v = unsafe { (*self.0.get()).cpu_epoch_next };
        crate::num::casts::usize_as_u64(v)
    }

    /// Sets `rq->cpu_epoch_next`.
    #[inline]
    pub fn set_epoch_next(&self, v: u64) {
        let v = crate::num::casts::arch::u64_as_usize(v);
        // SAFETY: The runqueue is valid and `cpu_epoch_lock`, which serialises every access to
        // `cpu_epoch_next`, is held (type invariants), so nothing accesses it concurrently.
        unsafe { (*self.0.get()).cpu_epoch_next = v };
    }

    /// Returns `rq->cpu_runtime`.
    #[inline]
    pub fn cpu_runtime(&self) -> u64 {
        // SAFETY: The runqueue is valid (type invariants); `cpu_runtime` is read and written
        // under `cpu_epoch_lock` only, which is held, so nothing writes it concurrently.
        unsafe { (*self.0.get()).cpu_runtime }
    }

    /// Sets `rq->cpu_runtime`.
    #[inline]
    pub fn set_cpu_runtime(&self, v: u64) {
        // SAFETY: The runqueue is valid and `cpu_epoch_lock`, which serialises every access to
        // `cpu_runtime`, is held (type invariants), so nothing accesses it concurrently.
        unsafe { (*self.0.get()).cpu_runtime = v };
    }
}

/// A process's decayed runtime on one CPU (`struct sched_cache_time`), with that CPU's
/// `rq->cpu_epoch_lock` held.
///
/// Obtained from [`EpochLocked::cache_time`].
///
/// # Invariants
///
/// While a `&CacheTime` exists, it is valid and the `cpu_epoch_lock` of its CPU is held.
#[repr(transparent)]
pub struct CacheTime(Opaque<bindings::sched_cache_time>);

impl CacheTime {
    // Accessed only under the held `cpu_epoch_lock` (`fraction_mm_sched()`, `account_mm_sched()`;
    // `mm_init_sched()` writes it before the process is visible): plain accesses are race-free.

    /// Returns the process's decayed runtime on this CPU (`runtime`).
    #[inline]
    pub fn runtime(&self) -> u64 {
        // SAFETY: The structure is valid and `cpu_epoch_lock`, which serialises every access to
        // it, is held (type invariants), so nothing writes it concurrently.
        unsafe { (*self.0.get()).runtime }
    }

    /// Sets `runtime`.
    #[inline]
    pub fn set_runtime(&self, v: u64) {
        // SAFETY: The structure is valid and `cpu_epoch_lock`, which serialises every access to
        // it, is held (type invariants), so nothing accesses it concurrently.
        unsafe { (*self.0.get()).runtime = v };
    }

    /// Returns the CPU epoch the runtime was last decayed to (`epoch`).
    #[inline]
    pub fn epoch(&self) -> u64 {
        // SAFETY: The structure is valid and `cpu_epoch_lock`, which serialises every access to
        // it, is held (type invariants), so nothing writes it concurrently.
        let v = unsafe { (*self.0.get()).epoch };
        crate::num::casts::usize_as_u64(v)
    }

    /// Sets `epoch`.
    #[inline]
    pub fn set_epoch(&self, v: u64) {
        let v = crate::num::casts::arch::u64_as_usize(v);
        // SAFETY: The structure is valid and `cpu_epoch_lock`, which serialises every access to
        // it, is held (type invariants), so nothing accesses it concurrently.
        unsafe { (*self.0.get()).epoch = v };
    }
}

/// The moving average of the number of CPUs running a process's threads
/// (`sched_cache_group::nr_running_avg`).
///
/// # Invariants
///
/// `avg` is valid for `'a`, and only the holder writes it (the one scanner that won
/// `grp->next_scan`); others read it concurrently with `READ_ONCE()`, so every access here is
/// atomic.
pub struct RunningAvg<'a> {
    avg: *mut u64,
    _writer: PhantomData<&'a mut u64>,
}

impl<'a> RunningAvg<'a> {
    /// Wraps the average of a group whose scan the caller is running.
    ///
    /// # Safety
    ///
    /// `avg` must be valid for `'a`, and the caller its only writer during `'a`.
    #[inline]
    pub unsafe fn from_raw(avg: *mut u64) -> Self {
        // INVARIANT: Guaranteed by the safety requirements of this function.
        Self {
            avg,
            _writer: PhantomData,
        }
    }

    /// Returns the average.
    #[inline]
    pub fn get(&self) -> u64 {
        // SAFETY: `avg` is valid (type invariants) and points to a `u64` field, 8-byte aligned on
        // the option's 64-bit architectures; other CPUs read it concurrently with `READ_ONCE()`,
        // so every Rust access is atomic.
        unsafe { Atomic::from_ptr(self.avg).load(Relaxed) }
    }

    /// Sets the average: a `WRITE_ONCE()` for the concurrent readers.
    #[inline]
    pub fn set(&mut self, v: u64) {
        // SAFETY: As in `get()`; this is the only writer (type invariants).
        unsafe { Atomic::from_ptr(self.avg).store(v, Relaxed) };
    }
}
