// SPDX-License-Identifier: GPL-2.0

//! Task groups and their per-CPU fair-scheduler state.
//!
//! C header: [`kernel/sched/sched.h`](srctree/kernel/sched/sched.h)
//!
//! Every task group but the root owns one `struct cfs_tg_state` per CPU (its `cfs_rq`, its group
//! entity `se` and that entity's statistics), allocated as one per-CPU object whose `cfs_rq` is
//! first, so that `tg->cfs_rq`, the per-CPU pointer C code uses, is also the allocation. The
//! root group instead points at the runqueues' own `cfs_rq`s and has no entity.

use super::percpu::PerCpu;
use crate::{
    bindings,
    cpu::CpuId,
    prelude::*,
    types::Opaque, //
};
use core::marker::PhantomData;

// `tg->cfs_rq` doubles as the pointer to the whole state: `cfs_rq` must stay first.
crate::static_assert!(core::mem::offset_of!(bindings::cfs_tg_state, cfs_rq) == 0);

/// Returns the runqueue of `cpu`.
///
/// Equivalent to the kernel's `cpu_rq()`.
#[inline]
fn cpu_rq(cpu: CpuId) -> *mut bindings::rq {
    // SAFETY: `runqueues` is a per-CPU variable, so its address is a valid per-CPU pointer, and
    // every CPU below `nr_cpu_ids` has a runqueue.
    unsafe { bindings::per_cpu_ptr((&raw mut bindings::runqueues).cast(), cpu.as_u32()) }.cast()
}

/// Returns the `cfs_tg_state` whose `cfs_rq` is `cfs_rq`.
///
/// # Safety
///
/// `cfs_rq` must be the `cfs_rq` of a `cfs_tg_state`, i.e. not a runqueue's own.
#[inline]
unsafe fn state_of(cfs_rq: *mut bindings::cfs_rq) -> *mut bindings::cfs_tg_state {
    // CAST: `cfs_rq` is at offset 0 of `cfs_tg_state` (asserted above).
    cfs_rq.cast()
}

/// A task group (`struct task_group`).
///
/// # Invariants
///
/// The task group is valid and fully initialised for the lifetime of the reference: its
/// `cfs_rq` is a valid per-CPU pointer, to the runqueues' `cfs_rq`s for the root group and to an
/// initialised per-CPU `cfs_tg_state` for every other group.
#[repr(transparent)]
pub struct TaskGroup(Opaque<bindings::task_group>);

impl TaskGroup {
    /// Creates a reference from a raw pointer.
    ///
    /// # Safety
    ///
    /// `ptr` must point to a task group valid for `'a` that satisfies the type invariants.
    #[inline]
    pub unsafe fn from_raw<'a>(ptr: *mut bindings::task_group) -> &'a Self {
        // SAFETY: `Self` is `repr(transparent)` over the C type, and `ptr` is valid for `'a` by
        // the safety requirements of this function.
        unsafe { &*ptr.cast() }
    }

    /// Returns the raw pointer to the task group.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::task_group {
        self.0.get()
    }

    /// Returns whether this is the root task group.
    ///
    /// Equivalent to `is_root_task_group()`.
    #[inline]
    pub fn is_root(&self) -> bool {
        core::ptr::eq(self.as_raw(), &raw const bindings::root_task_group)
    }

    /// Returns the per-CPU `cfs_rq` pointer (`tg->cfs_rq`).
    #[inline]
    pub fn cfs_rq_percpu(&self) -> *mut bindings::cfs_rq {
        // SAFETY: By the type invariants, the task group is valid.
        unsafe { (*self.as_raw()).cfs_rq }
    }

    /// Returns the group's `cfs_rq` on `cpu`.
    ///
    /// Equivalent to `tg_cfs_rq()`.
    #[inline]
    pub fn cfs_rq(&self, cpu: CpuId) -> *mut bindings::cfs_rq {
        // SAFETY: By the type invariants, `tg->cfs_rq` is a valid per-CPU pointer (the caller of
        // `tg_cfs_rq()` in C makes the same assumption about a group being used).
        unsafe { bindings::per_cpu_ptr(self.cfs_rq_percpu().cast(), cpu.as_u32()) }.cast()
    }

    /// Returns the group's entity on `cpu`, as the parent of a child group's entity.
    #[inline]
    pub fn parent_entity(&self, cpu: CpuId) -> ParentEntity {
        // INVARIANT: By the type invariants, the entity of a non-root group is initialised and
        // lives as long as the group.
        ParentEntity(self.se(cpu))
    }

    /// Returns the group's scheduling entity on `cpu`, or null for the root group.
    ///
    /// Equivalent to `tg_se()`.
    #[inline]
    pub fn se(&self, cpu: CpuId) -> *mut bindings::sched_entity {
        if self.is_root() {
            return core::ptr::null_mut();
        }
        // SAFETY: A non-root group's `cfs_rq`s are those of `cfs_tg_state`s (type invariants).
        let state = unsafe { state_of(self.cfs_rq(cpu)) };
        // SAFETY: `state` points into a live per-CPU allocation; only its address is taken.
        unsafe { &raw mut (*state).se }
    }
}

/// Returns the group entity owning `cfs_rq`, or null for a runqueue's own `cfs_rq`.
///
/// Equivalent to `cfs_rq_se()`.
///
/// # Safety
///
/// `cfs_rq` must be valid, and its `tg` must satisfy the invariants of [`TaskGroup`].
#[inline]
pub unsafe fn cfs_rq_se(cfs_rq: *mut bindings::cfs_rq) -> *mut bindings::sched_entity {
    // SAFETY: `cfs_rq` is valid, and so is its group, by the safety requirements.
    let tg = unsafe { TaskGroup::from_raw((*cfs_rq).tg) };
    if tg.is_root() {
        return core::ptr::null_mut();
    }
    // SAFETY: The `cfs_rq` of a non-root group is that of a `cfs_tg_state`.
    unsafe { &raw mut (*state_of(cfs_rq)).se }
}

/// Returns the statistics of the group entity `se`.
///
/// Equivalent to `__schedstats_from_se()` for a group entity.
///
/// # Safety
///
/// `se` must be the `se` of a `cfs_tg_state`.
#[inline]
pub unsafe fn group_se_stats(se: *mut bindings::sched_entity) -> *mut bindings::sched_statistics {
    let offset = core::mem::offset_of!(bindings::cfs_tg_state, se);
    // SAFETY: `se` is the `se` field of a `cfs_tg_state` by the safety requirements, so stepping
    // back by its offset stays within that object.
    let state = unsafe { se.byte_sub(offset) }.cast::<bindings::cfs_tg_state>();
    // SAFETY: `state` is valid; only a field address is taken.
    unsafe { &raw mut (*state).stats }
}

/// The per-CPU state of a task group on one CPU (`struct cfs_tg_state`).
///
/// Allocated as a [`PerCpu<CfsTgState>`] and initialised in place, for every possible CPU,
/// before it is handed to a group with [`NewTaskGroup::install`].
#[repr(transparent)]
pub struct CfsTgState(Opaque<bindings::cfs_tg_state>);

// SAFETY: All-zero bytes are what C's `alloc_fair_sched_group()` starts from too: the per-CPU
// allocator zero-fills, and every field is plain data or a pointer that may be null.
unsafe impl Zeroable for CfsTgState {}

impl CfsTgState {
    /// Returns exclusive access to the `cfs_rq` and the entity of this state.
    #[inline]
    pub fn parts(&mut self) -> (CfsRqInit<'_>, GroupEntityInit<'_>) {
        let state = self.0.get();
        // INVARIANT: `&mut self` gives exclusive access to the state, hence to both of its
        // disjoint fields, for as long as the borrow.
        // SAFETY: Only field addresses of the valid state are taken.
        unsafe {
            (
                CfsRqInit(&raw mut (*state).cfs_rq, PhantomData),
                GroupEntityInit(&raw mut (*state).se, PhantomData),
            )
        }
    }
}

/// A group's parent entity on one CPU: null when the parent is the root group.
#[derive(Clone, Copy)]
pub struct ParentEntity(*mut bindings::sched_entity);

impl ParentEntity {
    /// Wraps a raw parent entity pointer, as C passes it.
    ///
    /// # Safety
    ///
    /// `se` must be null or a valid, initialised group entity that outlives the use.
    #[inline]
    pub unsafe fn from_raw(se: *mut bindings::sched_entity) -> Self {
        Self(se)
    }

    /// Returns the raw pointer (null for the root group).
    #[inline]
    pub fn as_raw(self) -> *mut bindings::sched_entity {
        self.0
    }

    /// Returns the parent's own `cfs_rq` (`parent->my_q`) and depth, or `None` for the root.
    #[inline]
    pub fn my_q_and_depth(self) -> Option<(*mut bindings::cfs_rq, i32)> {
        if self.0.is_null() {
            return None;
        }
        // SAFETY: A non-null parent is a valid initialised entity (type invariants).
        Some(unsafe { ((*self.0).my_q, (*self.0).depth) })
    }
}

/// Exclusive access to a `cfs_rq` being initialised.
///
/// # Invariants
///
/// The pointer is valid and nothing else accesses the `cfs_rq` during `'a`.
pub struct CfsRqInit<'a>(*mut bindings::cfs_rq, PhantomData<&'a mut ()>);

impl CfsRqInit<'_> {
    /// Wraps a `cfs_rq` being initialised.
    ///
    /// # Safety
    ///
    /// `cfs_rq` must be valid and accessed by nobody else for `'a`.
    #[inline]
    pub unsafe fn from_raw<'a>(cfs_rq: *mut bindings::cfs_rq) -> CfsRqInit<'a> {
        // INVARIANT: Guaranteed by the safety requirements.
        CfsRqInit(cfs_rq, PhantomData)
    }

    /// Returns the raw pointer.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::cfs_rq {
        self.0
    }

    /// Initialises the runqueue state (`init_cfs_rq()`): empty tree, `zero_vruntime`, lock.
    #[inline]
    pub fn init(&mut self) {
        // SAFETY: By the type invariants, the access is exclusive.
        unsafe { bindings::init_cfs_rq(self.0) };
    }

    /// Sets the owning group and the runqueue of `cpu` (`cfs_rq->tg`, `cfs_rq->rq`).
    #[inline]
    pub fn set_group(&mut self, tg: *mut bindings::task_group, cpu: CpuId) {
        // SAFETY: By the type invariants, the access is exclusive.
        unsafe {
            (*self.0).tg = tg;
            (*self.0).rq = cpu_rq(cpu);
        }
    }

    /// Initialises the bandwidth-control state (`init_cfs_rq_runtime()`).
    #[inline]
    pub fn init_runtime(&mut self) {
        // SAFETY: By the type invariants, the access is exclusive.
        unsafe { bindings::sched_init_cfs_rq_runtime(self.0) };
    }
}

/// Exclusive access to a group scheduling entity being initialised.
///
/// # Invariants
///
/// The pointer is valid and nothing else accesses the entity during `'a`.
pub struct GroupEntityInit<'a>(*mut bindings::sched_entity, PhantomData<&'a mut ()>);

impl GroupEntityInit<'_> {
    /// Wraps an entity being initialised.
    ///
    /// # Safety
    ///
    /// `se` must be valid and accessed by nobody else for `'a`.
    #[inline]
    pub unsafe fn from_raw<'a>(se: *mut bindings::sched_entity) -> GroupEntityInit<'a> {
        // INVARIANT: Guaranteed by the safety requirements.
        GroupEntityInit(se, PhantomData)
    }

    /// Resets the entity's load-tracking averages (`init_entity_runnable_average()`).
    #[inline]
    pub fn init_runnable_average(&mut self) {
        // SAFETY: By the type invariants, the access is exclusive.
        unsafe { bindings::init_entity_runnable_average(self.0) };
    }

    /// Links the entity below `parent` (null: the root), queued on `cfs_rq` at `depth`, owning
    /// `my_q`, with weight `weight` (`se->cfs_rq`, `depth`, `my_q`, `load`, `parent`).
    #[inline]
    pub fn link(
        &mut self,
        parent: ParentEntity,
        cfs_rq: *mut bindings::cfs_rq,
        depth: i32,
        my_q: &CfsRqInit<'_>,
        weight: u64,
    ) {
        let se = self.0;
        // SAFETY: By the type invariants, the access is exclusive.
        unsafe {
            (*se).cfs_rq = cfs_rq;
            (*se).depth = depth;
            (*se).my_q = my_q.as_raw();
            // `update_load_set()`: the weight, and an inverse to be computed on first use.
            (*se).load.weight = crate::num::casts::arch::u64_as_usize(weight);
            (*se).load.inv_weight = 0;
            (*se).parent = parent.as_raw();
        }
    }
}

/// Returns the runqueue's own `cfs_rq` on `cpu` (`&cpu_rq(cpu)->cfs`).
#[inline]
pub fn rq_cfs(cpu: CpuId) -> *mut bindings::cfs_rq {
    // SAFETY: `cpu_rq()` returns a valid runqueue; only a field address is taken.
    unsafe { &raw mut (*cpu_rq(cpu)).cfs }
}

/// A task group being created by `sched_create_group()`, not yet visible to anyone else.
///
/// # Invariants
///
/// The group is valid and nothing else accesses it during `'a`.
pub struct NewTaskGroup<'a>(*mut bindings::task_group, PhantomData<&'a mut ()>);

impl NewTaskGroup<'_> {
    /// Wraps a task group under creation.
    ///
    /// # Safety
    ///
    /// `tg` must be valid and not yet published (no other CPU can reach it) for `'a`.
    #[inline]
    pub unsafe fn from_raw<'a>(tg: *mut bindings::task_group) -> NewTaskGroup<'a> {
        // INVARIANT: Guaranteed by the safety requirements.
        NewTaskGroup(tg, PhantomData)
    }

    /// Returns the raw pointer to the group.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::task_group {
        self.0
    }

    /// Sets the group's shares (`tg->shares`).
    #[inline]
    pub fn set_shares(&mut self, shares: u64) {
        // SAFETY: By the type invariants, the access is exclusive.
        unsafe { (*self.0).shares = crate::num::casts::arch::u64_as_usize(shares) };
    }

    /// Initialises the group's bandwidth control from its parent's (`init_cfs_bandwidth()`).
    #[inline]
    pub fn init_bandwidth(&mut self, parent: &TaskGroup) {
        // SAFETY: By the type invariants, the access to the group is exclusive; the parent is
        // valid.
        unsafe { bindings::sched_tg_init_cfs_bandwidth(self.0, parent.as_raw()) };
    }

    /// Hands the per-CPU state to the group: `tg->cfs_rq` then owns it.
    ///
    /// It is freed by `free_fair_sched_group()`.
    #[inline]
    pub fn install(&mut self, state: PerCpu<CfsTgState>) {
        // CAST: `cfs_rq` is at offset 0 of `cfs_tg_state`, so the per-CPU pointer to the state is
        // also the per-CPU pointer to its `cfs_rq`.
        let cfs_rq = state.into_raw().cast::<bindings::cfs_rq>();
        // SAFETY: By the type invariants, the access is exclusive.
        unsafe { (*self.0).cfs_rq = cfs_rq };
    }
}

/// Takes the per-CPU state back from a group being freed, leaving `tg->cfs_rq` null.
///
/// Returns `None` if the group has none (its allocation failed).
///
/// # Safety
///
/// `tg` must be a non-root group being freed (`sched_free_group()`): nothing can reach it any
/// more, and its `cfs_rq` is null or was allocated for a `cfs_tg_state`, by C or Rust.
pub unsafe fn take_state(tg: *mut bindings::task_group) -> Option<PerCpu<CfsTgState>> {
    // SAFETY: `tg` is valid and exclusively ours by the safety requirements.
    let cfs_rq = unsafe { core::mem::replace(&mut (*tg).cfs_rq, core::ptr::null_mut()) };
    if cfs_rq.is_null() {
        return None;
    }
    // SAFETY: The allocation is that of a `cfs_tg_state` (same size and alignment whether C or
    // Rust made it), and it is taken over once, here.
    Some(unsafe { PerCpu::from_raw(cfs_rq.cast::<CfsTgState>()) })
}
