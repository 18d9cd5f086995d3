// SPDX-License-Identifier: GPL-2.0

//! Scheduling entities.
//!
//! C header: [`include/linux/sched.h`](srctree/include/linux/sched.h)
//!
//! Two views of an entity, under its runqueue lock: [`SchedEntity`], any entity of the runqueue
//! (`cfs_rq->curr`, `cfs_rq->next`, a queued one), and [`TreeEntity`], an entity linked in the
//! runqueue's deadline-ordered tree, the only one whose tree links are followed. The running
//! entity is taken out of the tree by `__dequeue_entity()` (`rb_erase_augmented_cached()`, which
//! does not clear the node), so its `run_node` links are stale: only the tree itself hands out
//! [`TreeEntity`] references ([`CfsRqView::root`], [`CfsRqView::leftmost`], [`TreeEntity::left`],
//! [`TreeEntity::right`]).
//!
//! [`CfsRqView::root`]: super::CfsRqView::root
//! [`CfsRqView::leftmost`]: super::CfsRqView::leftmost

use super::bindings;
use crate::types::Opaque;
use core::ops::Deref;

/// A fair-class scheduling entity (`struct sched_entity`), seen under its runqueue lock.
///
/// Only the fields of the EEVDF pick are exposed, read-only. An entity that may be out of the
/// tree (`curr`, `next`) is seen through this type, which has no tree links; see [`TreeEntity`].
///
/// # Invariants
///
/// While a `&'a SchedEntity` exists, the entity is valid and the lock of the runqueue it belongs
/// to is held, so none of the fields read here change.
#[repr(transparent)]
pub struct SchedEntity(Opaque<bindings::sched_entity>);

/// An entity linked in its runqueue's deadline-ordered tree (`cfs_rq->tasks_timeline`), through
/// `se->run_node`, augmented with `se->min_vruntime`, the minimum `vruntime` of its subtree.
///
/// In the flattened hierarchy of this kernel, only task entities are in the tree.
///
/// # Invariants
///
/// While a `&'a TreeEntity` exists, the lock of its runqueue is held and the entity is in that
/// runqueue's tree, which is well formed: its children are in the same tree, under the same lock.
#[repr(transparent)]
pub struct TreeEntity(SchedEntity);

impl Deref for TreeEntity {
    type Target = SchedEntity;

    #[inline]
    fn deref(&self) -> &SchedEntity {
        &self.0
    }
}

impl TreeEntity {
    /// Returns the entity that embeds the tree node `node`, or [`None`] if `node` is null.
    ///
    /// Equivalent to the kernel's `__node_2_se()`, with a null check.
    ///
    /// # Safety
    ///
    /// `node` must be null or the `run_node` of a valid entity that is in the tree of a runqueue
    /// whose lock is held for `'a`; the tree must be well formed.
    #[inline]
    pub(super) unsafe fn from_run_node<'a>(node: *mut bindings::rb_node) -> Option<&'a Self> {
        if node.is_null() {
            return None;
        }
        // SAFETY: `node` is the `run_node` field of a `sched_entity`, by the safety requirements
        // of this function, so stepping back by its offset stays within that object.
        let se = unsafe { crate::container_of!(node, bindings::sched_entity, run_node) };
        // CAST: `Self` is `repr(transparent)` over `SchedEntity`, itself over
        // `Opaque<sched_entity>`, which has the layout of `sched_entity`.
        // INVARIANT: The entity is in the well-formed tree of a runqueue whose lock is held for
        // `'a`.
        // SAFETY: `se` is valid for `'a` by the safety requirements of this function.
        Some(unsafe { &*se.cast::<Self>() })
    }

    /// Returns the smallest `vruntime` in the subtree rooted at this entity (`se->min_vruntime`).
    #[inline]
    pub fn min_vruntime(&self) -> u64 {
        // SAFETY: `self` is a valid entity (type invariants); the augmented `min_vruntime` of an
        // entity in the tree is maintained by the tree callbacks of `__enqueue_entity()` and
        // `__dequeue_entity()` under the runqueue lock, which is held while `self` exists.
        unsafe { (*self.0.ptr()).min_vruntime }
    }

    /// Returns the left child of this entity in the runqueue's tree.
    #[inline]
    pub fn left(&self) -> Option<&Self> {
        // SAFETY: `self` is a valid entity (type invariants); the tree links change only under the
        // runqueue lock, which is held while `self` exists.
        let node = unsafe { (*self.0.ptr()).run_node.rb_left };
        // SAFETY: `self` is in a well-formed tree (type invariants), so its left link is null or
        // the node of an entity of the same tree, under the same lock, for as long as `self`.
        unsafe { Self::from_run_node(node) }
    }

    /// Returns the right child of this entity in the runqueue's tree.
    #[inline]
    pub fn right(&self) -> Option<&Self> {
        // SAFETY: `self` is a valid entity (type invariants); the tree links change only under the
        // runqueue lock, which is held while `self` exists.
        let node = unsafe { (*self.0.ptr()).run_node.rb_right };
        // SAFETY: `self` is in a well-formed tree (type invariants), so its right link is null or
        // the node of an entity of the same tree, under the same lock, for as long as `self`.
        unsafe { Self::from_run_node(node) }
    }
}

impl SchedEntity {
    /// Creates a reference to a scheduling entity from a raw pointer.
    ///
    /// # Safety
    ///
    /// `ptr` must point to a valid `struct sched_entity`, and the lock of its runqueue must be
    /// held for `'a`.
    #[inline]
    pub(super) unsafe fn from_raw<'a>(ptr: *const bindings::sched_entity) -> &'a Self {
        // CAST: `Self` is `repr(transparent)` over `Opaque<sched_entity>`, which has the layout
        // of `sched_entity`.
        let ptr = ptr.cast::<Self>();
        // INVARIANT: The caller holds the runqueue lock for `'a`.
        // SAFETY: `ptr` is valid for `'a` by the safety requirements of this function.
        unsafe { &*ptr }
    }

    /// Returns the raw pointer to the C `struct sched_entity`.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::sched_entity {
        core::ptr::from_ref(self).cast_mut().cast()
    }

    /// Returns a raw pointer for reading single fields.
    ///
    /// No reference to the whole entity is made: other CPUs may update parts of it (e.g. its load
    /// average) without the runqueue lock; the fields read here are stable under that lock.
    #[inline]
    fn ptr(&self) -> *const bindings::sched_entity {
        self.0.get()
    }

    /// Returns the virtual runtime (`se->vruntime`).
    #[inline]
    pub fn vruntime(&self) -> u64 {
        // SAFETY: `self` is a valid entity (type invariants); `vruntime` advances in
        // `update_curr()` and is placed by `place_entity()`, both under the runqueue lock, which is
        // held while `self` exists.
        unsafe { (*self.ptr()).vruntime }
    }

    /// Returns the virtual deadline (`se->deadline`), the key of the tree.
    #[inline]
    pub fn deadline(&self) -> u64 {
        // SAFETY: `self` is a valid entity (type invariants); `deadline` is set by
        // `update_deadline()` and `place_entity()` under the runqueue lock, which is held while
        // `self` exists.
        unsafe { (*self.ptr()).deadline }
    }

    /// Returns the end of the protected part of the slice (`se->vprot`).
    #[inline]
    pub fn vprot(&self) -> u64 {
        // SAFETY: `self` is a valid entity (type invariants); `vprot` is set by
        // `set_protect_slice()`/`update_protect_slice()` under the runqueue lock, which is held
        // while `self` exists.
        unsafe { (*self.ptr()).vprot }
    }

    /// Returns whether the entity is on its runqueue (`se->on_rq`).
    #[inline]
    pub fn on_rq(&self) -> bool {
        // SAFETY: `self` is a valid entity (type invariants); `on_rq` changes only in enqueue and
        // dequeue, under the runqueue lock, which is held while `self` exists.
        unsafe { (*self.ptr()).on_rq != 0 }
    }

    /// Returns whether the entity is queued but delayed for dequeue (`se->sched_delayed`).
    #[inline]
    pub fn sched_delayed(&self) -> bool {
        // SAFETY: `self` is a valid entity (type invariants); `sched_delayed` changes only in
        // `set_delayed()`/`clear_delayed()`, under the runqueue lock, which is held while `self`
        // exists.
        unsafe { (*self.ptr()).sched_delayed != 0 }
    }

    /// Returns the hierarchical weight (`se->h_load.weight`) the EEVDF arithmetic uses.
    #[inline]
    pub fn h_weight(&self) -> u64 {
        // SAFETY: `self` is a valid entity (type invariants); `h_load` is updated by
        // `reweight_entity()` and the hierarchy updates under the runqueue lock, which is held
        // while `self` exists.
        crate::num::casts::usize_as_u64(unsafe { (*self.ptr()).h_load.weight })
    }
}
