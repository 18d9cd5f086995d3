// SPDX-License-Identifier: GPL-2.0

//! The LLC occupancy state of cache-aware scheduling (`CONFIG_SCHED_CACHE`).
//!
//! C header: [`kernel/sched/sched.h`](srctree/kernel/sched/sched.h)
//!
//! Counters live in three places: the runqueue (`nr_llc_running`, `nr_pref_llc_running`), the
//! bottom sched domain of its CPU (`llc_counts[]`, indexed by dense LLC id and reallocated zeroed
//! on every domain rebuild) and the task (`preferred_llc`, `pref_llc_queued`). All of them change
//! under the runqueue lock. The decayed runtimes (`rq->cpu_epoch*`, `cpu_runtime` and the
//! per-CPU `struct sched_cache_time` of each process) change under `rq->cpu_epoch_lock`.

use crate::bindings;
use core::marker::PhantomData;

/// The LLC counters of a runqueue and of its bottom sched domain, with the runqueue lock held.
///
/// # Invariants
///
/// `rq` is valid and its lock is held (interrupts off, which is also an RCU read-side critical
/// section for `rq->sd`) for `'a`.
pub struct RqLlc<'a> {
    rq: *mut bindings::rq,
    _lock: PhantomData<&'a mut bindings::rq>,
}

impl<'a> RqLlc<'a> {
    /// Wraps a runqueue whose lock the caller holds.
    ///
    /// # Safety
    ///
    /// `rq` must be valid, and its lock held for `'a` with interrupts disabled.
    #[inline]
    pub unsafe fn from_raw(rq: *mut bindings::rq) -> Self {
        // INVARIANT: Guaranteed by the safety requirements of this function.
        Self {
            rq,
            _lock: PhantomData,
        }
    }

    /// Returns `rq->nr_llc_running`, the queued tasks that have a preferred LLC.
    #[inline]
    pub fn nr_llc_running(&self) -> u32 {
        // SAFETY: By the type invariants, `rq` is valid and the field is protected by its lock.
        unsafe { (*self.rq).nr_llc_running }
    }

    /// Sets `rq->nr_llc_running`.
    #[inline]
    pub fn set_nr_llc_running(&mut self, v: u32) {
        // SAFETY: By the type invariants, `rq` is valid and the field is protected by its lock.
        unsafe { (*self.rq).nr_llc_running = v };
    }

    /// Returns `rq->nr_pref_llc_running`, the runnable tasks queued on their preferred LLC.
    #[inline]
    pub fn nr_pref_llc_running(&self) -> u32 {
        // SAFETY: By the type invariants, `rq` is valid and the field is protected by its lock.
        unsafe { (*self.rq).nr_pref_llc_running }
    }

    /// Sets `rq->nr_pref_llc_running`.
    #[inline]
    pub fn set_nr_pref_llc_running(&mut self, v: u32) {
        // SAFETY: By the type invariants, `rq` is valid and the field is protected by its lock.
        unsafe { (*self.rq).nr_pref_llc_running = v };
    }

    /// Returns the address of `llc_counts[llc]` of the bottom sched domain, if there is a domain
    /// and `llc` is below its `llc_max`.
    #[inline]
    fn llc_count_ptr(&self, llc: u32) -> Option<*mut u32> {
        // `rcu_dereference_all(rq->sd)`: a single read of the published pointer.
        // SAFETY: By the type invariants, `rq` is valid; the read is of an aligned pointer field.
        let sd = unsafe { core::ptr::read_volatile(&raw const (*self.rq).sd) };
        if sd.is_null() {
            return None;
        }
        // SAFETY: `sd` is a live domain within the RCU read-side section the rq lock implies.
        let (max, counts) = unsafe { ((*sd).llc_max, (*sd).llc_counts) };
        if llc >= max || counts.is_null() {
            return None;
        }
        // SAFETY: `llc_counts` has `llc_max` elements (`__counted_by_ptr(llc_max)`).
        Some(unsafe { counts.add(crate::num::casts::u32_as_usize(llc)) })
    }

    /// Returns `llc_counts[llc]` of the bottom sched domain, or `None` if there is no domain or
    /// `llc` is out of its range.
    #[inline]
    pub fn llc_count(&self, llc: u32) -> Option<u32> {
        // SAFETY: The element is valid (see `llc_count_ptr()`); writers hold this rq's lock.
        self.llc_count_ptr(llc).map(|p| unsafe { *p })
    }

    /// Replaces `llc_counts[llc]` of the bottom sched domain by `f` of it; does nothing if there
    /// is no domain or `llc` is out of its range.
    #[inline]
    pub fn update_llc_count(&mut self, llc: u32, f: impl FnOnce(u32) -> u32) {
        if let Some(p) = self.llc_count_ptr(llc) {
            // SAFETY: The element is valid, and only this rq's lock holder writes it.
            unsafe { *p = f(*p) };
        }
    }
}

/// A task's LLC preference, with the lock of the runqueue it is (being) queued on held.
///
/// # Invariants
///
/// `p` is valid and the lock of its runqueue is held for `'a`.
pub struct TaskLlc<'a> {
    p: *mut bindings::task_struct,
    _lock: PhantomData<&'a mut bindings::task_struct>,
}

impl<'a> TaskLlc<'a> {
    /// Wraps a task whose runqueue lock the caller holds.
    ///
    /// # Safety
    ///
    /// `p` must be valid, and the lock of its runqueue held for `'a`.
    #[inline]
    pub unsafe fn from_raw(p: *mut bindings::task_struct) -> Self {
        // INVARIANT: Guaranteed by the safety requirements of this function.
        Self {
            p,
            _lock: PhantomData,
        }
    }

    /// Returns `p->preferred_llc`: a dense LLC id, or negative for none.
    #[inline]
    pub fn preferred_llc(&self) -> i32 {
        // SAFETY: By the type invariants, `p` is valid. Written with `WRITE_ONCE()` under the rq
        // lock, which is held.
        unsafe { core::ptr::read_volatile(&raw const (*self.p).preferred_llc) }
    }

    /// Returns the LLC id of the CPU the task is on (`task_llc()`).
    #[inline]
    pub fn task_llc(&self) -> i32 {
        // SAFETY: By the type invariants, `p` is valid.
        unsafe { bindings::task_llc(self.p) }
    }

    /// Returns `p->pref_llc_queued`: whether it was queued on its preferred LLC.
    #[inline]
    pub fn pref_llc_queued(&self) -> bool {
        // SAFETY: By the type invariants, `p` is valid and the field is protected by the lock.
        unsafe { (*self.p).pref_llc_queued != 0 }
    }

    /// Sets `p->pref_llc_queued`.
    #[inline]
    pub fn set_pref_llc_queued(&mut self, queued: bool) {
        // SAFETY: By the type invariants, `p` is valid and the field is protected by the lock.
        unsafe { (*self.p).pref_llc_queued = i32::from(queued) };
    }

    /// Returns whether the task is delayed for dequeue (`p->se.sched_delayed`).
    #[inline]
    pub fn sched_delayed(&self) -> bool {
        // SAFETY: By the type invariants, `p` is valid and the field is protected by the lock.
        unsafe { (*self.p).se.sched_delayed != 0 }
    }
}

/// The epoch clock of a runqueue, with `rq->cpu_epoch_lock` held.
///
/// # Invariants
///
/// `rq` is valid and its `cpu_epoch_lock` is held for `'a`.
pub struct RqEpoch<'a> {
    rq: *mut bindings::rq,
    _lock: PhantomData<&'a mut bindings::rq>,
}

impl<'a> RqEpoch<'a> {
    /// Wraps a runqueue whose `cpu_epoch_lock` the caller holds.
    ///
    /// # Safety
    ///
    /// `rq` must be valid, and its `cpu_epoch_lock` held for `'a`.
    #[inline]
    pub unsafe fn from_raw(rq: *mut bindings::rq) -> Self {
        // INVARIANT: Guaranteed by the safety requirements of this function.
        Self {
            rq,
            _lock: PhantomData,
        }
    }

    /// Returns `(cpu_epoch, cpu_epoch_next, cpu_runtime)`.
    #[inline]
    pub fn get(&self) -> (u64, u64, u64) {
        // SAFETY: By the type invariants, `rq` is valid and the fields are protected by the lock.
        unsafe {
            (
                crate::num::casts::usize_as_u64((*self.rq).cpu_epoch),
                crate::num::casts::usize_as_u64((*self.rq).cpu_epoch_next),
                (*self.rq).cpu_runtime,
            )
        }
    }

    /// Sets `(cpu_epoch, cpu_epoch_next, cpu_runtime)`.
    #[inline]
    pub fn set(&mut self, epoch: u64, epoch_next: u64, runtime: u64) {
        // SAFETY: By the type invariants, `rq` is valid and the fields are protected by the lock.
        unsafe {
            (*self.rq).cpu_epoch = crate::num::casts::arch::u64_as_usize(epoch);
            (*self.rq).cpu_epoch_next = crate::num::casts::arch::u64_as_usize(epoch_next);
            (*self.rq).cpu_runtime = runtime;
        }
    }
}

/// A process's decayed runtime on one CPU (`struct sched_cache_time`), with that CPU's
/// `rq->cpu_epoch_lock` held.
///
/// # Invariants
///
/// `t` is valid and the `cpu_epoch_lock` of its CPU's runqueue is held for `'a`.
pub struct CacheTime<'a> {
    t: *mut bindings::sched_cache_time,
    _lock: PhantomData<&'a mut bindings::sched_cache_time>,
}

impl<'a> CacheTime<'a> {
    /// Wraps a per-CPU runtime whose CPU's `cpu_epoch_lock` the caller holds.
    ///
    /// # Safety
    ///
    /// `t` must be valid, and its CPU's `cpu_epoch_lock` held for `'a`.
    #[inline]
    pub unsafe fn from_raw(t: *mut bindings::sched_cache_time) -> Self {
        // INVARIANT: Guaranteed by the safety requirements of this function.
        Self {
            t,
            _lock: PhantomData,
        }
    }

    /// Returns `(runtime, epoch)`.
    #[inline]
    pub fn get(&self) -> (u64, u64) {
        // SAFETY: By the type invariants, `t` is valid and protected by the lock.
        unsafe {
            (
                (*self.t).runtime,
                crate::num::casts::usize_as_u64((*self.t).epoch),
            )
        }
    }

    /// Sets `(runtime, epoch)`.
    #[inline]
    pub fn set(&mut self, runtime: u64, epoch: u64) {
        // SAFETY: By the type invariants, `t` is valid and protected by the lock.
        unsafe {
            (*self.t).runtime = runtime;
            (*self.t).epoch = crate::num::casts::arch::u64_as_usize(epoch);
        }
    }
}

/// The state of one preferred-LLC scan of `task_cache_work()` (`struct sched_llc_scan`).
///
/// Plain data on the scanning task's stack: only that task reads or writes it.
pub use bindings::sched_llc_scan as LlcScan;

/// Borrows the scan state that C passes in.
///
/// # Safety
///
/// `s` must be valid for reads and writes, and nothing else may access it during `'a`.
#[inline]
pub unsafe fn llc_scan_mut<'a>(s: *mut LlcScan) -> &'a mut LlcScan {
    // SAFETY: Guaranteed by the safety requirements of this function.
    unsafe { &mut *s }
}

/// Borrows the scan state that C passes in, read-only.
///
/// # Safety
///
/// `s` must be valid for reads, and nothing may write it during `'a`.
#[inline]
pub unsafe fn llc_scan_ref<'a>(s: *const LlcScan) -> &'a LlcScan {
    // SAFETY: Guaranteed by the safety requirements of this function.
    unsafe { &*s }
}

/// The moving average of the number of CPUs running a process's threads
/// (`sched_cache_group::nr_running_avg`).
///
/// # Invariants
///
/// `avg` is valid for `'a`, and only the holder writes it (the one scanner that won
/// `grp->next_scan`); others may read it concurrently, as C's `READ_ONCE()` does.
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
        // SAFETY: By the type invariants, `avg` is valid; concurrent accesses are reads.
        unsafe { core::ptr::read_volatile(self.avg) }
    }

    /// Sets the average.
    #[inline]
    pub fn set(&mut self, v: u64) {
        // SAFETY: By the type invariants, `avg` is valid and we are its only writer; the
        // volatile write is the `WRITE_ONCE()` concurrent readers expect.
        unsafe { core::ptr::write_volatile(self.avg, v) };
    }
}
