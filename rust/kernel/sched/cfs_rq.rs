// SPDX-License-Identifier: GPL-2.0

//! Fair runqueues, as the EEVDF pick sees them.
//!
//! C header: [`kernel/sched/sched.h`](srctree/kernel/sched/sched.h)

use super::{
    bindings,
    SchedEntity,
    TreeEntity, //
};
use crate::types::Opaque;

/// A fair runqueue (`struct cfs_rq`) whose runqueue lock is held.
///
/// Only the fields the EEVDF pick reads are exposed, read-only: the deadline-ordered tree, the
/// current entity, the next buddy and the sums of the eligibility test. A `&CfsRqView` is
/// borrowed from the lock's proof token, [`RqLocked::cfs_rq`], and lives no longer than it.
///
/// # Invariants
///
/// While a `&'a CfsRqView` exists, the lock of its runqueue is held, so the fields read here do
/// not change, and the entities they lead to (the tree, `curr`, `next`) are valid and the tree
/// is well formed.
///
/// The view is [`Opaque`]: it makes no claim that the rest of the `cfs_rq` is unchanging (parts
/// of it are updated by other CPUs without the runqueue lock, e.g. the load averages removed
/// on migration); it reads single fields. It is not [`Sync`] (through [`Opaque`]): a
/// `&CfsRqView` is only used on the CPU that holds the lock, and cannot be shared with, or sent
/// to, another thread.
///
/// [`RqLocked::cfs_rq`]: super::RqLocked::cfs_rq
#[repr(transparent)]
pub struct CfsRqView(Opaque<bindings::cfs_rq>);

impl CfsRqView {
    /// Creates a view of a runqueue.
    ///
    /// # Safety
    ///
    /// `ptr` must point to a valid `cfs_rq` whose runqueue lock is held for `'a`.
    #[inline]
    pub(super) unsafe fn from_raw<'a>(ptr: *mut bindings::cfs_rq) -> &'a Self {
        // CAST: `Self` is `repr(transparent)` over `Opaque<cfs_rq>`, which has its layout.
        // INVARIANT: The caller holds the runqueue lock for `'a`.
        // SAFETY: `ptr` is valid for `'a` by the safety requirements of this function.
        unsafe { &*ptr.cast::<Self>() }
    }

    #[inline]
    fn ptr(&self) -> *const bindings::cfs_rq {
        self.0.get()
    }

    /// Returns the root of the deadline-ordered tree.
    #[inline]
    pub fn root(&self) -> Option<&TreeEntity> {
        // SAFETY: `self` is a valid `cfs_rq`; the tree is changed only by `__enqueue_entity()` and
        // `__dequeue_entity()`, under the runqueue lock, which is held while `self` exists (type
        // invariants).
        let node = unsafe { (*self.ptr()).tasks_timeline.rb_root.rb_node };
        // SAFETY: The nodes of the tree are the `run_node`s of entities in this runqueue's tree,
        // valid and well linked while its lock is held, as it is while `self` exists.
        unsafe { TreeEntity::from_run_node(node) }
    }

    /// Returns the entity with the earliest deadline (`__pick_first_entity()`).
    #[inline]
    pub fn leftmost(&self) -> Option<&TreeEntity> {
        // SAFETY: `self` is a valid `cfs_rq`; the cached leftmost node changes with the tree, only
        // under the runqueue lock, held while `self` exists (type invariants).
        let node = unsafe { (*self.ptr()).tasks_timeline.rb_leftmost };
        // SAFETY: The nodes of the tree are the `run_node`s of entities in this runqueue's tree,
        // valid and well linked while its lock is held, as it is while `self` exists.
        unsafe { TreeEntity::from_run_node(node) }
    }

    /// Returns the current entity (`cfs_rq->curr`), which is not in the tree: a [`SchedEntity`],
    /// whose stale tree links cannot be followed.
    #[inline]
    pub fn curr(&self) -> Option<&SchedEntity> {
        // SAFETY: `self` is a valid `cfs_rq`; `curr` is set by `set_next_entity()` and cleared by
        // `put_prev_entity()`, under the runqueue lock, held while `self` exists (type invariants).
        let curr = unsafe { (*self.ptr()).curr };
        if curr.is_null() {
            return None;
        }
        // SAFETY: `curr` is an entity running on this runqueue, valid under its lock, which is
        // held while `self` exists.
        Some(unsafe { SchedEntity::from_raw(curr) })
    }

    /// Returns the next buddy (`cfs_rq->next`), as a [`SchedEntity`]: the pick reads only its
    /// fields, not its tree links.
    #[inline]
    pub fn next(&self) -> Option<&SchedEntity> {
        // SAFETY: `self` is a valid `cfs_rq`; `next` is set by `set_next_buddy()` and cleared by
        // `clear_buddies()`, under the runqueue lock, held while `self` exists (type invariants).
        let next = unsafe { (*self.ptr()).next };
        if next.is_null() {
            return None;
        }
        // SAFETY: `next` is an entity of this runqueue (`clear_buddies()` clears it before the
        // entity leaves), valid under its lock, which is held while `self` exists.
        Some(unsafe { SchedEntity::from_raw(next) })
    }

    /// Returns `cfs_rq->sum_w_vruntime`, the weighted sum of the keys of the queued entities.
    #[inline]
    pub fn sum_w_vruntime(&self) -> i64 {
        // SAFETY: `self` is a valid `cfs_rq`; the sums are updated by
        // `sum_w_vruntime_add()`/`_sub()` and `update_zero_vruntime()` under the runqueue lock,
        // held while `self` exists (type invariants).
        unsafe { (*self.ptr()).sum_w_vruntime }
    }

    /// Returns `cfs_rq->sum_weight`, the sum of the (scaled) weights of the queued entities.
    #[inline]
    pub fn sum_weight(&self) -> u64 {
        // SAFETY: `self` is a valid `cfs_rq`; the sums are updated by
        // `sum_w_vruntime_add()`/`_sub()` and `update_zero_vruntime()` under the runqueue lock,
        // held while `self` exists (type invariants).
        unsafe { (*self.ptr()).sum_weight }
    }

    /// Returns `cfs_rq->zero_vruntime`, the origin of the entity keys.
    #[inline]
    pub fn zero_vruntime(&self) -> u64 {
        // SAFETY: `self` is a valid `cfs_rq`; `zero_vruntime` moves only in
        // `update_zero_vruntime()`, under the runqueue lock, held while `self` exists (type
        // invariants).
        unsafe { (*self.ptr()).zero_vruntime }
    }

    /// Returns `cfs_rq->sum_shift`, the weight scaling applied after an overflow recovery.
    #[inline]
    pub fn sum_shift(&self) -> u32 {
        // SAFETY: `self` is a valid `cfs_rq`; `sum_shift` changes only with the sums, under the
        // runqueue lock, held while `self` exists (type invariants).
        unsafe { (*self.ptr()).sum_shift }
    }

    /// Returns `cfs_rq->h_nr_queued`, the number of queued tasks including `curr`.
    #[inline]
    pub fn h_nr_queued(&self) -> u32 {
        // SAFETY: `self` is a valid `cfs_rq`; `h_nr_queued` changes only in enqueue and dequeue,
        // under the runqueue lock, held while `self` exists (type invariants).
        unsafe { (*self.ptr()).h_nr_queued }
    }
}
