// SPDX-License-Identifier: GPL-2.0

//! Views of fair runqueues.
//!
//! C header: [`kernel/sched/rust/sched_rust.h`](srctree/kernel/sched/rust/sched_rust.h)

use super::SchedEntity;
use crate::bindings;
use core::marker::PhantomData;

/// The part of a fair runqueue (`struct cfs_rq`) that the EEVDF pick reads, under its lock.
///
/// `struct cfs_rq` is private to `kernel/sched/`; the scheduler fills a
/// `struct rust_sched_cfs_view` with its fields while holding the runqueue lock and passes a
/// pointer to it.
///
/// # Invariants
///
/// - `raw` is a valid view for `'a`;
/// - the lock of the runqueue it describes is held for `'a`, so every entity it points to (the
///   tree, `curr`, `next`) is valid and stable for `'a`, and the tree is well formed.
pub struct CfsRqView<'a> {
    raw: &'a bindings::rust_sched_cfs_view,
    // A view is only valid on the CPU that holds the lock: it must not be sent elsewhere.
    _not_send: PhantomData<*const ()>,
}

impl<'a> CfsRqView<'a> {
    /// Creates a view from the pointer C passes to an entry point.
    ///
    /// # Safety
    ///
    /// - `ptr` must point to a `struct rust_sched_cfs_view` that is valid for `'a`;
    /// - the runqueue lock of the `cfs_rq` it was filled from must be held for `'a`, and the view
    ///   must have been filled under that lock.
    #[inline]
    pub unsafe fn from_raw(ptr: *const bindings::rust_sched_cfs_view) -> Self {
        // INVARIANT: Guaranteed by the safety requirements of this function.
        Self {
            // SAFETY: `ptr` is valid for `'a` by the safety requirements of this function.
            raw: unsafe { &*ptr },
            _not_send: PhantomData,
        }
    }

    /// Returns the root of the deadline-ordered tree.
    #[inline]
    pub fn root(&self) -> Option<&'a SchedEntity> {
        // SAFETY: By the type invariants, the tree is valid and locked for `'a`.
        unsafe { SchedEntity::from_run_node(self.raw.root) }
    }

    /// Returns the entity with the earliest deadline (`__pick_first_entity()`).
    #[inline]
    pub fn leftmost(&self) -> Option<&'a SchedEntity> {
        // SAFETY: By the type invariants, the tree is valid and locked for `'a`.
        unsafe { SchedEntity::from_run_node(self.raw.leftmost) }
    }

    /// Returns the current entity (`cfs_rq->curr`), which is not in the tree.
    #[inline]
    pub fn curr(&self) -> Option<&'a SchedEntity> {
        let curr = self.raw.curr;
        if curr.is_null() {
            return None;
        }
        // SAFETY: By the type invariants, `curr` is valid and locked for `'a`.
        Some(unsafe { SchedEntity::from_raw(curr) })
    }

    /// Returns the next buddy (`cfs_rq->next`), which is in the tree.
    #[inline]
    pub fn next(&self) -> Option<&'a SchedEntity> {
        let next = self.raw.next;
        if next.is_null() {
            return None;
        }
        // SAFETY: By the type invariants, `next` is valid and locked for `'a`.
        Some(unsafe { SchedEntity::from_raw(next) })
    }

    /// Returns `cfs_rq->sum_w_vruntime`, the weighted sum of the keys of the queued entities.
    #[inline]
    pub fn sum_w_vruntime(&self) -> i64 {
        self.raw.sum_w_vruntime
    }

    /// Returns `cfs_rq->sum_weight`, the sum of the (scaled) weights of the queued entities.
    #[inline]
    pub fn sum_weight(&self) -> u64 {
        self.raw.sum_weight
    }

    /// Returns `cfs_rq->zero_vruntime`, the origin of the entity keys.
    #[inline]
    pub fn zero_vruntime(&self) -> u64 {
        self.raw.zero_vruntime
    }

    /// Returns `cfs_rq->sum_shift`, the weight scaling applied after an overflow recovery.
    #[inline]
    pub fn sum_shift(&self) -> u32 {
        self.raw.sum_shift
    }

    /// Returns `cfs_rq->h_nr_queued`, the number of queued tasks including `curr`.
    #[inline]
    pub fn h_nr_queued(&self) -> u32 {
        self.raw.h_nr_queued
    }
}
