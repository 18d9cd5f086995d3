// SPDX-License-Identifier: GPL-2.0

//! The EEVDF pick: `pick_eevdf()` and `vruntime_eligible()` of `kernel/sched/fair.c`.
//!
//! An entity is eligible when it has received no more service than it is owed, that is when
//! its lag is not negative. With `key = vruntime - zero_vruntime` and weights `w_i`, that is
//!
//! ```text
//!     \Sum key_i * w_i  >=  key * \Sum w_i
//! ```
//!
//! The left side and `\Sum w_i` include the current entity, which is not in the tree. They are
//! the same for every candidate of one pick, so [`Eligibility`] computes them once, as
//! `fair.c`'s `cfs_rq_eligibility()` does (Linux 7.3's C recomputed them for every entity it
//! tested).
//!
//! All arithmetic wraps exactly as the C code does (the kernel is built with
//! `-fno-strict-overflow`), with explicit `wrapping_*` operations: kernel Rust is built with
//! overflow checks, and a panic here, under the runqueue lock, would be a `BUG()`.

use kernel::prelude::*;
use kernel::sched::{
    ffi,
    rq_of,
    CfsRqView,
    RqLocked,
    SchedEntity,
    TreeEntity, //
};

/// Scales a weight down by `sum_shift`, never below 2.
///
/// Equivalent to `avg_vruntime_weight()`.
#[inline]
pub(crate) fn avg_vruntime_weight(sum_shift: u32, weight: u64) -> u64 {
    if sum_shift == 0 {
        return weight;
    }
    // `sum_shift` is at most 10 (fair.c BUG()s beyond that); `wrapping_shr` only keeps an
    // impossible shift count from panicking.
    core::cmp::max(2, weight.wrapping_shr(sum_shift))
}

/// Returns `(s64)(a - b)`, the signed distance between two wrapping virtual times.
///
/// Equivalent to `vruntime_op(a, "-", b)`.
#[inline]
pub(crate) fn vruntime_sub(a: u64, b: u64) -> i64 {
    // Reinterpreting the wrapped difference as signed is the point of this function.
    a.wrapping_sub(b) as i64
}

/// Returns whether entity `a` has an earlier deadline than entity `b`.
///
/// Equivalent to `entity_before()`.
#[inline]
pub(crate) fn entity_before(a: &SchedEntity, b: &SchedEntity) -> bool {
    vruntime_sub(a.deadline(), b.deadline()) < 0
}

/// Returns whether `se` is still within the protected part of its slice.
///
/// Equivalent to `protect_slice()`.
#[inline]
pub(crate) fn protect_slice(se: &SchedEntity) -> bool {
    vruntime_sub(se.vruntime(), se.vprot()) < 0
}

/// The terms of the eligibility test that do not depend on the candidate.
pub(crate) struct Eligibility {
    /// `sum_w_vruntime`, plus the current entity's weighted key.
    avg: i64,
    /// `sum_weight`, plus the current entity's weight (C: `long load`).
    load: i64,
    /// `zero_vruntime`, the origin of the keys.
    zero_vruntime: u64,
}

impl Eligibility {
    /// Computes the terms from the runqueue sums and the current entity.
    ///
    /// `curr` is `(vruntime, h_load.weight)` of the current entity if it is on the runqueue.
    #[inline]
    pub(crate) fn new(
        sum_w_vruntime: i64,
        sum_weight: u64,
        zero_vruntime: u64,
        sum_shift: u32,
        curr: Option<(u64, u64)>,
    ) -> Self {
        let mut avg = sum_w_vruntime;
        // C assigns the `u64` sum to a `long`: the same bits, reinterpreted.
        let mut load = sum_weight as i64;

        if let Some((vruntime, weight)) = curr {
            // C multiplies the `s64` key by an `unsigned long` weight in 64-bit unsigned
            // arithmetic; a wrapping signed multiply yields the same bits.
            let weight = avg_vruntime_weight(sum_shift, weight) as i64;
            let key = vruntime_sub(vruntime, zero_vruntime);
            avg = avg.wrapping_add(key.wrapping_mul(weight));
            load = load.wrapping_add(weight);
        }

        Self {
            avg,
            load,
            zero_vruntime,
        }
    }

    /// Computes the terms for the runqueue `cfs`.
    #[inline]
    pub(crate) fn of(cfs: &CfsRqView) -> Self {
        // The runqueue's terms first, then curr's, in C's order: the loads do not depend on
        // whether curr runs, and are made once, above the branch.
        let sum_w_vruntime = cfs.sum_w_vruntime();
        let sum_weight = cfs.sum_weight();
        let zero_vruntime = cfs.zero_vruntime();
        let curr = cfs
            .curr()
            .filter(|curr| curr.on_rq())
            .map(|curr| (curr.vruntime(), curr.h_weight()));

        Self::new(
            sum_w_vruntime,
            sum_weight,
            zero_vruntime,
            cfs.sum_shift(),
            curr,
        )
    }

    /// Returns whether virtual runtime `vruntime` is eligible.
    ///
    /// Equivalent to `vruntime_eligible()`.
    #[inline]
    pub(crate) fn eligible(&self, vruntime: u64) -> bool {
        let key = vruntime_sub(vruntime, self.zero_vruntime);

        #[cfg(CONFIG_ARCH_SUPPORTS_INT128)]
        {
            // The product of two sign-extended 64-bit values cannot overflow 128 bits; the
            // wrapping form avoids the overflow-checked i128 multiply, whose libcall is a
            // panicking stub in the kernel.
            i128::from(self.avg) >= i128::from(key).wrapping_mul(i128::from(self.load))
        }

        #[cfg(not(CONFIG_ARCH_SUPPORTS_INT128))]
        {
            // On overflow, the sign of `key` gives the answer: a large positive key is never
            // eligible, a large negative one always is.
            match key.checked_mul(self.load) {
                Some(rhs) => self.avg >= rhs,
                None => key <= 0,
            }
        }
    }
}

/// Picks the eligible entity with the earliest virtual deadline.
///
/// Equivalent to `pick_eevdf()`.
#[inline]
pub(crate) fn pick_eevdf<'a>(cfs: &'a CfsRqView, protect: bool) -> Option<&'a SchedEntity> {
    let curr = cfs.curr();

    // With a single queued entity, eligibility does not matter. The leftmost entity is read
    // whether or not `curr` runs.
    if cfs.h_nr_queued() == 1 {
        let first = cfs.leftmost().map(|se| &**se);
        return match curr {
            Some(curr) if curr.on_rq() => Some(curr),
            _ => first,
        };
    }

    pick_eevdf_many(cfs, protect, curr)
}

/// The part of [`pick_eevdf`] for more than one queued entity, from `curr` as [`pick_eevdf`]
/// read it.
#[inline]
fn pick_eevdf_many<'a>(
    cfs: &'a CfsRqView,
    protect: bool,
    curr: Option<&'a SchedEntity>,
) -> Option<&'a SchedEntity> {
    let elig = Eligibility::of(cfs);

    // Picking the next buddy affects latency, not fairness. `sched_feat(PICK_BUDDY)` is tested
    // here, where C tests it.
    if kernel::sched::pick_buddy() && protect {
        if let Some(next) = cfs.next().filter(|next| elig.eligible(next.vruntime())) {
            // `->next` will never be delayed.
            kernel::warn_on_once!(next.sched_delayed());
            return Some(next);
        }
    }

    let curr = curr.filter(|curr| curr.on_rq() && elig.eligible(curr.vruntime()));
    if let Some(curr) = curr {
        if protect && protect_slice(curr) {
            return Some(curr);
        }
    }

    // The leftmost entity, if eligible (the O(1) fast path), else the heap search. Read here,
    // where it is tested, as C reads it: not held across the tests above.
    let best: Option<&SchedEntity> = match cfs.leftmost() {
        Some(first) if elig.eligible(first.vruntime()) => Some(first),
        _ => heap_search(cfs, &elig).map(|se| &**se),
    };

    match (best, curr) {
        (Some(best), Some(curr)) if !entity_before(curr, best) => Some(best),
        (Some(best), None) => Some(best),
        (_, curr) => curr,
    }
}

/// Finds the eligible entity with the earliest deadline using the `min_vruntime` augmentation.
#[inline]
fn heap_search<'a>(cfs: &'a CfsRqView, elig: &Eligibility) -> Option<&'a TreeEntity> {
    let mut node = cfs.root();

    while let Some(se) = node {
        // Eligible entities in the left subtree have earlier deadlines.
        if let Some(left) = se.left() {
            if elig.eligible(left.min_vruntime()) {
                node = Some(left);
                continue;
            }
        }

        // The left subtree has no eligible entity: this one is the earliest candidate.
        if elig.eligible(se.vruntime()) {
            return Some(se);
        }

        node = se.right();
    }

    None
}

/// C entry point of [`Eligibility::eligible`], for `entity_eligible()` outside the pick.
///
/// # Safety
///
/// `cfs_rq` must be valid, and its runqueue lock held for the duration of the call.
#[export]
#[cfg_attr(CONFIG_SCHED_RUST_CFS_INLINE, inline(always))]
pub unsafe extern "C" fn sched_rust_vruntime_eligible(
    cfs_rq: *mut ffi::cfs_rq,
    vruntime: u64,
) -> bool {
    // SAFETY: `cfs_rq` is valid (safety requirements).
    let rq = unsafe { rq_of(cfs_rq) };
    // SAFETY: The caller holds the lock of `cfs_rq`'s runqueue for the call (safety
    // requirements).
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: `cfs_rq` is a fair runqueue of `rq`, by `rq_of()`.
    let cfs = unsafe { locked.cfs_rq(cfs_rq) };

    Eligibility::of(cfs).eligible(vruntime)
}

/// C entry point of [`pick_eevdf`].
///
/// # Safety
///
/// `cfs_rq` must be valid, and its runqueue lock held for the duration of the call.
#[export]
#[cfg_attr(CONFIG_SCHED_RUST_CFS_INLINE, inline(always))]
pub unsafe extern "C" fn sched_rust_pick_eevdf(
    cfs_rq: *mut ffi::cfs_rq,
    protect: bool,
) -> *mut ffi::sched_entity {
    // SAFETY: `cfs_rq` is valid (safety requirements).
    let rq = unsafe { rq_of(cfs_rq) };
    // SAFETY: The caller holds the lock of `cfs_rq`'s runqueue for the call (safety
    // requirements).
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: `cfs_rq` is a fair runqueue of `rq`, by `rq_of()`.
    let cfs = unsafe { locked.cfs_rq(cfs_rq) };

    pick_eevdf(cfs, protect).map_or(core::ptr::null_mut(), SchedEntity::as_raw)
}
