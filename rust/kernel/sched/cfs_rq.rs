// SPDX-License-Identifier: GPL-2.0

//! Fair runqueues, as the EEVDF pick sees them.
//!
//! C header: [`kernel/sched/sched.h`](srctree/kernel/sched/sched.h)

use super::SchedEntity;
use crate::bindings;
use core::marker::PhantomData;

/// A fair runqueue (`struct cfs_rq`) whose runqueue lock is held.
///
/// Only the fields the EEVDF pick reads are exposed, read-only: the deadline-ordered tree, the
/// current entity, the next buddy and the sums of the eligibility test.
///
/// # Invariants
///
/// - `ptr` points to a valid `cfs_rq` for `'a`;
/// - the lock of its runqueue is held for `'a`, so the fields read here do not change, and the
///   entities they lead to (the tree, `curr`, `next`) are valid and the tree is well formed.
///
/// The view never creates a Rust reference to the whole `cfs_rq`, parts of which other CPUs may
/// update without the runqueue lock; it reads single fields through the raw pointer. Being
/// read-only, it can be copied freely within `'a`.
#[derive(Clone, Copy)]
pub struct CfsRqView<'a> {
    ptr: *const bindings::cfs_rq,
    _lock: PhantomData<&'a bindings::cfs_rq>,
}

impl<'a> CfsRqView<'a> {
    /// Creates a view of a runqueue.
    ///
    /// # Safety
    ///
    /// `ptr` must point to a valid `cfs_rq` whose runqueue lock is held for `'a`.
    #[inline]
    pub unsafe fn from_raw(ptr: *const bindings::cfs_rq) -> Self {
        // INVARIANT: Guaranteed by the safety requirements of this function.
        Self {
            ptr,
            _lock: PhantomData,
        }
    }

    /// Returns the root of the deadline-ordered tree.
    #[inline]
    pub fn root(&self) -> Option<&'a SchedEntity> {
        // SAFETY: By the type invariants, `ptr` is valid and the field is stable.
        let node = unsafe { (*self.ptr).tasks_timeline.rb_root.rb_node };
        // SAFETY: By the type invariants, the tree is valid and locked for `'a`.
        unsafe { SchedEntity::from_run_node(node) }
    }

    /// Returns the entity with the earliest deadline (`__pick_first_entity()`).
    #[inline]
    pub fn leftmost(&self) -> Option<&'a SchedEntity> {
        // SAFETY: By the type invariants, `ptr` is valid and the field is stable.
        let node = unsafe { (*self.ptr).tasks_timeline.rb_leftmost };
        // SAFETY: By the type invariants, the tree is valid and locked for `'a`.
        unsafe { SchedEntity::from_run_node(node) }
    }

    /// Returns the current entity (`cfs_rq->curr`), which is not in the tree.
    #[inline]
    pub fn curr(&self) -> Option<&'a SchedEntity> {
        // SAFETY: By the type invariants, `ptr` is valid and the field is stable.
        let curr = unsafe { (*self.ptr).curr };
        if curr.is_null() {
            return None;
        }
        // SAFETY: By the type invariants, `curr` is valid and locked for `'a`.
        Some(unsafe { SchedEntity::from_raw(curr) })
    }

    /// Returns the next buddy (`cfs_rq->next`), which is in the tree.
    #[inline]
    pub fn next(&self) -> Option<&'a SchedEntity> {
        // SAFETY: By the type invariants, `ptr` is valid and the field is stable.
        let next = unsafe { (*self.ptr).next };
        if next.is_null() {
            return None;
        }
        // SAFETY: By the type invariants, `next` is valid and locked for `'a`.
        Some(unsafe { SchedEntity::from_raw(next) })
    }

    /// Returns `cfs_rq->sum_w_vruntime`, the weighted sum of the keys of the queued entities.
    #[inline]
    pub fn sum_w_vruntime(&self) -> i64 {
        // SAFETY: By the type invariants, `ptr` is valid and the field is stable.
        unsafe { (*self.ptr).sum_w_vruntime }
    }

    /// Returns `cfs_rq->sum_weight`, the sum of the (scaled) weights of the queued entities.
    #[inline]
    pub fn sum_weight(&self) -> u64 {
        // SAFETY: By the type invariants, `ptr` is valid and the field is stable.
        unsafe { (*self.ptr).sum_weight }
    }

    /// Returns `cfs_rq->zero_vruntime`, the origin of the entity keys.
    #[inline]
    pub fn zero_vruntime(&self) -> u64 {
        // SAFETY: By the type invariants, `ptr` is valid and the field is stable.
        unsafe { (*self.ptr).zero_vruntime }
    }

    /// Returns `cfs_rq->sum_shift`, the weight scaling applied after an overflow recovery.
    #[inline]
    pub fn sum_shift(&self) -> u32 {
        // SAFETY: By the type invariants, `ptr` is valid and the field is stable.
        unsafe { (*self.ptr).sum_shift }
    }

    /// Returns `cfs_rq->h_nr_queued`, the number of queued tasks including `curr`.
    #[inline]
    pub fn h_nr_queued(&self) -> u32 {
        // SAFETY: By the type invariants, `ptr` is valid and the field is stable.
        unsafe { (*self.ptr).h_nr_queued }
    }
}
