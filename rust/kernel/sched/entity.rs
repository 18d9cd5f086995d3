// SPDX-License-Identifier: GPL-2.0

//! Scheduling entities.
//!
//! C header: [`include/linux/sched.h`](srctree/include/linux/sched.h)

use crate::{
    bindings,
    types::Opaque, //
};

/// A fair-class scheduling entity (`struct sched_entity`), seen under its runqueue lock.
///
/// In the flattened hierarchy of this kernel, only task entities are queued in the runqueue's
/// deadline-ordered tree (`cfs_rq->tasks_timeline`), linked through `se->run_node` and augmented
/// with `se->min_vruntime`, the minimum `vruntime` of the subtree.
///
/// # Invariants
///
/// While a `&'a SchedEntity` exists, the lock of the runqueue the entity belongs to is held, so
/// the entity is valid and none of the fields read here change. If the entity is in a
/// runqueue's tree, so are its children, and the same holds for them.
#[repr(transparent)]
pub struct SchedEntity(Opaque<bindings::sched_entity>);

impl SchedEntity {
    /// Creates a reference to a scheduling entity from a raw pointer.
    ///
    /// # Safety
    ///
    /// `ptr` must point to a valid `struct sched_entity`, and the lock of its runqueue must be
    /// held for `'a`. If the entity is in a runqueue's tree, the tree must be well formed.
    #[inline]
    pub(super) unsafe fn from_raw<'a>(ptr: *const bindings::sched_entity) -> &'a Self {
        // CAST: `Self` is `repr(transparent)` over `Opaque<sched_entity>`, which has the layout
        // of `sched_entity`.
        let ptr = ptr.cast::<Self>();
        // SAFETY: `ptr` is valid for `'a` by the safety requirements of this function.
        // INVARIANT: The caller holds the runqueue lock for `'a`.
        unsafe { &*ptr }
    }

    /// Returns the entity that embeds the tree node `node`, or [`None`] if `node` is null.
    ///
    /// Equivalent to the kernel's `__node_2_se()`, with a null check.
    ///
    /// # Safety
    ///
    /// `node` must be null or the `run_node` of an entity that satisfies the safety
    /// requirements of [`SchedEntity::from_raw`] for `'a`.
    #[inline]
    pub(super) unsafe fn from_run_node<'a>(node: *mut bindings::rb_node) -> Option<&'a Self> {
        if node.is_null() {
            return None;
        }
        // SAFETY: `node` is the `run_node` field of a `sched_entity`, by the safety requirements
        // of this function, so stepping back by its offset stays within that object.
        let se = unsafe { crate::container_of!(node, bindings::sched_entity, run_node) };
        // SAFETY: `se` satisfies the requirements of `from_raw` by those of this function.
        Some(unsafe { Self::from_raw(se) })
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
        core::ptr::from_ref(self).cast_mut().cast()
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

    /// Returns the smallest `vruntime` in the subtree rooted at this entity (`se->min_vruntime`).
    #[inline]
    pub fn min_vruntime(&self) -> u64 {
        // SAFETY: `self` is a valid entity (type invariants); the augmented `min_vruntime` is
        // maintained by the tree callbacks of `__enqueue_entity()`/`__dequeue_entity()` under the
        // runqueue lock, which is held while `self` exists.
        unsafe { (*self.ptr()).min_vruntime }
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

    /// Returns the left child of this entity in the runqueue's tree.
    #[inline]
    pub fn left(&self) -> Option<&Self> {
        // SAFETY: `self` is a valid entity (type invariants); the tree links change only under the
        // runqueue lock, which is held while `self` exists.
        let node = unsafe { (*self.ptr()).run_node.rb_left };
        // SAFETY: By the type invariants, the children of a queued entity are valid entities of
        // the same tree, under the same lock, for as long as `self`.
        unsafe { Self::from_run_node(node) }
    }

    /// Returns the right child of this entity in the runqueue's tree.
    #[inline]
    pub fn right(&self) -> Option<&Self> {
        // SAFETY: `self` is a valid entity (type invariants); the tree links change only under the
        // runqueue lock, which is held while `self` exists.
        let node = unsafe { (*self.ptr()).run_node.rb_right };
        // SAFETY: As for `left()`.
        unsafe { Self::from_run_node(node) }
    }
}
