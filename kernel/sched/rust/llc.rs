// SPDX-License-Identifier: GPL-2.0

//! LLC occupancy accounting of cache-aware scheduling: `account_llc_enqueue()`,
//! `account_llc_dequeue()`, `pref_llc_running_inc()`/`_dec()`, `__update_mm_sched()`,
//! `fraction_mm_sched()` and `update_avg_scale()` of `kernel/sched/fair.c`.
//!
//! The locks stay in C: the runqueue lock for the counters, `rq->cpu_epoch_lock` for the
//! decayed runtimes. C takes them and calls in; each entry point turns that into a proof token
//! ([`RqLocked`], [`EpochLocked`]) and derives its views ([`RqLlc`], [`TaskLlc`], [`RqEpoch`],
//! [`CacheTime`]) from it. The average ([`RunningAvg`]) belongs to the one scanning task.
//!
//! Counters that C decrements blindly are decremented here the same way, so that every sequence
//! of calls C can make gives C's results, unpaired ones included: an unpaired decrement wraps, as
//! in C.

use kernel::prelude::*;
use kernel::sched::{
    ffi,
    llc::{
        CacheTime,
        RqEpoch,
        RqLlc,
        RunningAvg,
        TaskLlc, //
    },
    EpochLocked,
    RqLocked,
    NICE_0_LOAD, //
};

/// Whether `p` counts in `nr_pref_llc_running`: queued on its preferred LLC and not delayed.
///
/// Equivalent to `task_pref_llc_runnable()`.
#[inline]
fn task_pref_llc_runnable(p: &TaskLlc) -> bool {
    p.pref_llc_queued() && !p.sched_delayed()
}

/// Equivalent to `pref_llc_running_inc()`.
#[inline]
pub(crate) fn pref_llc_running_inc(rq: &RqLlc, p: &TaskLlc) {
    if task_pref_llc_runnable(p) {
        rq.set_nr_pref_llc_running(rq.nr_pref_llc_running().wrapping_add(1));
    }
}

/// Equivalent to `pref_llc_running_dec()`.
#[inline]
pub(crate) fn pref_llc_running_dec(rq: &RqLlc, p: &TaskLlc) {
    if task_pref_llc_runnable(p) {
        // C decrements blindly: an unpaired decrement wraps there, and here.
        rq.set_nr_pref_llc_running(rq.nr_pref_llc_running().wrapping_sub(1));
    }
}

/// Accounts a task being queued on `rq`.
///
/// Equivalent to `account_llc_enqueue()`.
#[inline]
pub(crate) fn account_llc_enqueue(rq: &RqLlc, p: &TaskLlc) {
    let pref = p.preferred_llc();
    let Ok(pref_llc) = u32::try_from(pref) else {
        return;
    };

    rq.set_nr_llc_running(rq.nr_llc_running().wrapping_add(1));
    // Remembered: `task_llc()` may change under hotplug before the dequeue.
    p.set_pref_llc_queued(pref == p.task_llc());
    // Skipped while delayed; `clear_delayed()` adds it back on wake-up.
    pref_llc_running_inc(rq, p);
    rq.llc_count_inc(pref_llc);
}

/// Accounts a task leaving `rq`.
///
/// Equivalent to `account_llc_dequeue()`.
#[inline]
pub(crate) fn account_llc_dequeue(rq: &RqLlc, p: &TaskLlc) {
    let Ok(pref_llc) = u32::try_from(p.preferred_llc()) else {
        return;
    };

    // C decrements blindly: an unpaired decrement wraps there, and here.
    rq.set_nr_llc_running(rq.nr_llc_running().wrapping_sub(1));
    if p.pref_llc_queued() {
        // Skipped if still delayed (`set_delayed()` already took it out); clearing the flag
        // keeps `clear_delayed()` from adding it back.
        pref_llc_running_dec(rq, p);
        p.set_pref_llc_queued(false);
    }
    // A domain rebuild reallocates the counts zeroed, so they can be short: saturates, as C.
    rq.llc_count_dec(pref_llc);
}

/// Returns the field `load()` reads shifted right by `n`, or 0 for `n >= 64` without reading it.
///
/// Equivalent to `__shr_u64()`, which reads the field only below 64.
#[inline(always)]
pub(crate) fn shr_field(load: impl FnOnce() -> u64, n: u64) -> u64 {
    if n >= 64 {
        0
    } else {
        load() >> n
    }
}

/// The fields [`update_mm_sched`] reads and writes, one at a time: a caller on the live state
/// loads a field only when the algorithm needs it and stores only what changed, as C does.
pub(crate) trait DecayState {
    /// `rq->cpu_epoch`.
    fn epoch(&self) -> u64;
    /// Sets `rq->cpu_epoch`.
    fn set_epoch(&mut self, v: u64);
    /// `rq->cpu_epoch_next`, in jiffies.
    fn epoch_next(&self) -> u64;
    /// Sets `rq->cpu_epoch_next`.
    fn set_epoch_next(&mut self, v: u64);
    /// `rq->cpu_runtime`.
    fn cpu_runtime(&self) -> u64;
    /// Sets `rq->cpu_runtime`.
    fn set_cpu_runtime(&mut self, v: u64);
    /// `pcpu_sched->runtime`.
    fn runtime(&self) -> u64;
    /// Sets `pcpu_sched->runtime`.
    fn set_runtime(&mut self, v: u64);
    /// `pcpu_sched->epoch`.
    fn pcpu_epoch(&self) -> u64;
    /// Sets `pcpu_sched->epoch`.
    fn set_pcpu_epoch(&mut self, v: u64);
}

/// The live decay state: a runqueue's epoch clock and a process's runtime on its CPU, under
/// `cpu_epoch_lock`.
struct Live<'a> {
    rq: &'a RqEpoch,
    t: &'a CacheTime,
}

impl DecayState for Live<'_> {
    #[inline(always)]
    fn epoch(&self) -> u64 {
        self.rq.epoch()
    }
    #[inline(always)]
    fn set_epoch(&mut self, v: u64) {
        self.rq.set_epoch(v);
    }
    #[inline(always)]
    fn epoch_next(&self) -> u64 {
        self.rq.epoch_next()
    }
    #[inline(always)]
    fn set_epoch_next(&mut self, v: u64) {
        self.rq.set_epoch_next(v);
    }
    #[inline(always)]
    fn cpu_runtime(&self) -> u64 {
        self.rq.cpu_runtime()
    }
    #[inline(always)]
    fn set_cpu_runtime(&mut self, v: u64) {
        self.rq.set_cpu_runtime(v);
    }
    #[inline(always)]
    fn runtime(&self) -> u64 {
        self.t.runtime()
    }
    #[inline(always)]
    fn set_runtime(&mut self, v: u64) {
        self.t.set_runtime(v);
    }
    #[inline(always)]
    fn pcpu_epoch(&self) -> u64 {
        self.t.epoch()
    }
    #[inline(always)]
    fn set_pcpu_epoch(&mut self, v: u64) {
        self.t.set_epoch(v);
    }
}

/// Advances the epoch clock to `now` (jiffies) and halves both runtimes once per elapsed epoch
/// of `period` jiffies (0 counts as 1).
///
/// Equivalent to `__update_mm_sched()`, with `jiffies` and `llc_epoch_period` passed in: it
/// reads each field when C does and stores what changed. Returns whether anything changed (the
/// CPU's epoch clock and runtime, or the process's epoch and runtime on that CPU), which only
/// the tests ask.
#[inline(always)]
pub(crate) fn update_mm_sched<D: DecayState>(d: &mut D, now: u64, period: u32) -> bool {
    update_mm_sched_runtime(d, now, period).0
}

/// [`update_mm_sched`], also returning the process's runtime after it: the value it stored, or
/// the field, read where the update left it unchanged. The occupancy fraction divides it, as C
/// reads `pcpu_sched->runtime` after the update.
#[inline(always)]
fn update_mm_sched_runtime<D: DecayState>(d: &mut D, now: u64, period: u32) -> (bool, u64) {
    let period = core::cmp::max(period, 1);
    let epoch_next = d.epoch_next();
    // C: `long delta = now - rq->cpu_epoch_next`.
    let delta = now.wrapping_sub(epoch_next) as i64;
    let cpu = delta > 0;
    let epoch = if cpu {
        // C: `(delta + period - 1) / period` in `long` arithmetic (wrapping, then signed
        // division by a positive divisor, so no overflow).
        let n = (delta.wrapping_add(i64::from(period - 1)) / i64::from(period)) as u64;
        let epoch = d.epoch().wrapping_add(n);
        d.set_epoch(epoch);
        d.set_epoch_next(epoch_next.wrapping_add(n.wrapping_mul(u64::from(period))));
        let v = shr_field(|| d.cpu_runtime(), n);
        d.set_cpu_runtime(v);
        epoch
    } else {
        d.epoch()
    };
    // The process's epoch on this CPU caught up with the CPU's, its runtime halved once per
    // epoch missed.
    let pcpu_epoch = d.pcpu_epoch();
    let n = epoch.wrapping_sub(pcpu_epoch);
    let task = n != 0;
    let runtime = if task {
        d.set_pcpu_epoch(pcpu_epoch.wrapping_add(n));
        let v = shr_field(|| d.runtime(), n);
        d.set_runtime(v);
        v
    } else {
        d.runtime()
    };
    (cpu || task, runtime)
}

/// Returns the process's share `runtime / (cpu_runtime + 1)` of this CPU's decayed runtime, in
/// `NICE_0_LOAD` units.
///
/// Equivalent to the division of `fraction_mm_sched()`.
#[inline]
pub(crate) fn fraction(runtime: u64, cpu_runtime: u64) -> u64 {
    // C divides by `cpu_runtime + 1`, which only a wrapped `cpu_runtime` makes 0 (C would trap).
    NICE_0_LOAD
        .wrapping_mul(runtime)
        .checked_div(cpu_runtime.wrapping_add(1))
        .unwrap_or(0)
}

/// C entry point of [`account_llc_enqueue`].
///
/// # Safety
///
/// `rq` and `p` must be valid, and the lock of `rq`, on which `p` is being queued, held with
/// interrupts disabled.
#[export]
#[cfg_attr(CONFIG_SCHED_RUST_CFS_INLINE, inline(always))]
pub unsafe extern "C" fn sched_rust_account_llc_enqueue(
    rq: *mut ffi::rq,
    p: *mut ffi::task_struct,
) {
    // SAFETY: The caller holds the lock of `rq` (safety requirements).
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: `p` is being queued on `rq` (safety requirements).
    let p = unsafe { locked.task(p) };
    account_llc_enqueue(locked.llc(), p);
}

/// C entry point of [`account_llc_dequeue`].
///
/// # Safety
///
/// As for [`sched_rust_account_llc_enqueue`], `p` being dequeued from `rq`.
#[export]
#[cfg_attr(CONFIG_SCHED_RUST_CFS_INLINE, inline(always))]
pub unsafe extern "C" fn sched_rust_account_llc_dequeue(
    rq: *mut ffi::rq,
    p: *mut ffi::task_struct,
) {
    // SAFETY: The caller holds the lock of `rq` (safety requirements).
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: `p` is being dequeued from `rq` (safety requirements).
    let p = unsafe { locked.task(p) };
    account_llc_dequeue(locked.llc(), p);
}

/// C entry point of [`pref_llc_running_inc`] (`inc`) and [`pref_llc_running_dec`] (`!inc`).
///
/// # Safety
///
/// As for [`sched_rust_account_llc_enqueue`], `p` being queued on `rq`.
#[export]
#[cfg_attr(CONFIG_SCHED_RUST_CFS_INLINE, inline(always))]
pub unsafe extern "C" fn sched_rust_pref_llc_running(
    rq: *mut ffi::rq,
    p: *mut ffi::task_struct,
    inc: bool,
) {
    // SAFETY: The caller holds the lock of `rq` (safety requirements).
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: `p` is queued on `rq` (safety requirements).
    let p = unsafe { locked.task(p) };
    if inc {
        pref_llc_running_inc(locked.llc(), p);
    } else {
        pref_llc_running_dec(locked.llc(), p);
    }
}

/// C entry point of [`update_mm_sched`], for `__update_mm_sched()`.
///
/// # Safety
///
/// `rq` and `pcpu` (the process's runtime on `rq`'s CPU) must be valid, and
/// `rq->cpu_epoch_lock` held.
#[export]
#[cfg_attr(CONFIG_SCHED_RUST_CFS_INLINE, inline(always))]
pub unsafe extern "C" fn sched_rust_update_mm_sched(
    rq: *mut ffi::rq,
    pcpu: *mut ffi::sched_cache_time,
    now: c_ulong,
    period: c_uint,
) {
    // SAFETY: The caller holds `rq->cpu_epoch_lock` (safety requirements).
    let locked = unsafe { EpochLocked::assume_held(rq) };
    // SAFETY: `pcpu` is the runtime of a process on `rq`'s CPU (safety requirements).
    let t = unsafe { locked.cache_time(pcpu) };

    let mut d = Live {
        rq: locked.epoch(),
        t,
    };
    update_mm_sched(&mut d, kernel::num::casts::usize_as_u64(now), period);
}

/// C entry point of [`update_mm_sched`] followed by [`fraction`], for `fraction_mm_sched()`.
///
/// # Safety
///
/// As for [`sched_rust_update_mm_sched`].
#[export]
#[cfg_attr(CONFIG_SCHED_RUST_CFS_INLINE, inline(always))]
pub unsafe extern "C" fn sched_rust_fraction_mm_sched(
    rq: *mut ffi::rq,
    pcpu: *mut ffi::sched_cache_time,
    now: c_ulong,
    period: c_uint,
) -> c_ulong {
    // SAFETY: The caller holds `rq->cpu_epoch_lock` (safety requirements).
    let locked = unsafe { EpochLocked::assume_held(rq) };
    // SAFETY: `pcpu` is the runtime of a process on `rq`'s CPU (safety requirements).
    let t = unsafe { locked.cache_time(pcpu) };

    let mut d = Live {
        rq: locked.epoch(),
        t,
    };
    let (_, runtime) =
        update_mm_sched_runtime(&mut d, kernel::num::casts::usize_as_u64(now), period);
    // The CPU's runtime read again, as C does.
    kernel::num::casts::arch::u64_as_usize(fraction(runtime, d.cpu_runtime()))
}

/// Returns the moving average `avg` updated with `sample`, in steps of 1/2 to 1/8 of the
/// difference depending on `llc_size`, the number of CPUs of the LLC.
///
/// Equivalent to `update_avg_scale()`.
#[inline]
pub(crate) fn update_avg_scale(avg: u64, sample: u64, llc_size: i32) -> u64 {
    // C: `s64 diff = sample - *avg`.
    let diff = sample.wrapping_sub(avg) as i64;
    // C: `clamp_t(u32, factor >> 2, 2, 8)`, which converts to `u32` before clamping.
    let divisor = ((llc_size >> 2) as u32).clamp(2, 8);
    // `div64_s64()` truncates towards zero, as `/` does; the divisor is 2 to 8, so the
    // division neither traps nor overflows and the fallback is never taken.
    let step = diff.checked_div(i64::from(divisor)).unwrap_or(0);
    avg.wrapping_add_signed(step)
}

/// C entry point of [`update_avg_scale`].
///
/// # Safety
///
/// `avg` must be valid, and the caller its only writer (the group's scanner).
#[export]
#[cfg_attr(CONFIG_SCHED_RUST_CFS_INLINE, inline(always))]
pub unsafe extern "C" fn sched_rust_update_avg_scale(avg: *mut u64, sample: u64, llc_size: c_int) {
    // SAFETY: `avg` is the group's `nr_running_avg`, and the caller, the scanner that won
    // `grp->next_scan`, is its only writer (safety requirements).
    let mut avg = unsafe { RunningAvg::from_raw(avg) };
    avg.set(update_avg_scale(avg.get(), sample, llc_size));
}
