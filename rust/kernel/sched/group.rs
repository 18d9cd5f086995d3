// SPDX-License-Identifier: GPL-2.0

//! Task groups and their per-CPU fair-scheduler state.
//!
//! C header: [`kernel/sched/sched.h`](srctree/kernel/sched/sched.h)
//!
//! Every task group but the root owns one `struct cfs_tg_state` per CPU (its `cfs_rq`, its group
//! entity `se` and that entity's statistics), allocated as one per-CPU object whose `cfs_rq` is
//! first, so that `tg->cfs_rq`, the per-CPU pointer C code uses, is also the allocation. The
//! root group instead points at the runqueues' own `cfs_rq`s and has no entity.
//!
//! A new group's state is built as a [`PerCpu<CfsTgState>`] by [`PerCpu::try_pin_init_zeroed`]:
//! every possible CPU's state is initialised in place, from the allocator's zero-filled memory as
//! in C, where it stays, because `init_cfs_rq_runtime()` makes list heads that point into it.
//! [`NewTaskGroup::install`] takes only that type, so a group never gets a partly initialised
//! state.

use super::{
    cpu_rq,
    percpu::{cpu_possible, zeroed_pin_init_from_closure, PerCpu, PerCpuPtr, ZeroedPinInit},
};
use crate::{
    bindings,
    cpu::CpuId,
    prelude::*,
    types::Opaque, //
};
use core::marker::PhantomData;

// `tg->cfs_rq` doubles as the pointer to the whole state: `cfs_rq` must stay first.
crate::static_assert!(core::mem::offset_of!(bindings::cfs_tg_state, cfs_rq) == 0);

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
/// `cfs_rq` is a valid per-CPU address, of the runqueues' `cfs_rq`s for the root group and of
/// an initialised per-CPU `cfs_tg_state` for every other group.
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
        core::ptr::from_ref(self).cast_mut().cast()
    }

    /// Returns whether this is the root task group.
    ///
    /// Equivalent to `is_root_task_group()`.
    #[inline]
    pub fn is_root(&self) -> bool {
        core::ptr::eq(self.as_raw(), &raw const bindings::root_task_group)
    }

    /// Returns the group's `cfs_rq` on `cpu` (`tg_cfs_rq()`), or `None` if `cpu` is not a
    /// possible CPU.
    #[inline]
    pub fn cfs_rq(&self, cpu: CpuId) -> Option<*mut bindings::cfs_rq> {
        // SAFETY: The group is valid (type invariants); `tg->cfs_rq` is set before the group is
        // published and not changed until it is freed.
        let percpu = unsafe { (*self.as_raw()).cfs_rq };
        cpu_possible(cpu).then(|| {
            // SAFETY: `tg->cfs_rq` is a valid per-CPU address (type invariants) and `cpu` is
            // possible, so this is the address of its instance on `cpu`.
            unsafe { bindings::per_cpu_ptr(percpu.cast(), cpu.as_u32()) }.cast()
        })
    }

    /// Returns the group's scheduling entity on `cpu` (`tg_se()`): `None` for the root group
    /// or a CPU that is not possible.
    #[inline]
    pub fn se(&self, cpu: CpuId) -> Option<*mut bindings::sched_entity> {
        if self.is_root() {
            return None;
        }
        // SAFETY: A non-root group's `cfs_rq`s are those of `cfs_tg_state`s (type invariants).
        let state = unsafe { state_of(self.cfs_rq(cpu)?) };
        // SAFETY: `state` is the live state on a possible CPU; only a field address is taken.
        Some(unsafe { &raw mut (*state).se })
    }

    /// Returns the group's entity on `cpu`, as the parent of a child group's entity.
    #[inline]
    pub fn parent_entity(&self, cpu: CpuId) -> ParentEntity<'_> {
        // INVARIANT: By the type invariants, the entity of a non-root group is initialised and
        // lives as long as the group, which outlives the borrow of `self`.
        ParentEntity {
            se: self.se(cpu).unwrap_or(core::ptr::null_mut()),
            _group: PhantomData,
        }
    }
}

/// Returns the group entity owning `cfs_rq` (`cfs_rq_se()`), or null for a runqueue's own.
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

/// Returns the statistics of the group entity `se` (`__schedstats_from_se()`).
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

/// A group's parent entity on one CPU, for `'a`: none when the parent is the root group.
///
/// # Invariants
///
/// `se` is null (the parent is the root group) or the initialised entity of a non-root group,
/// valid for `'a`.
#[derive(Clone, Copy)]
pub struct ParentEntity<'a> {
    se: *mut bindings::sched_entity,
    _group: PhantomData<&'a TaskGroup>,
}

impl ParentEntity<'_> {
    /// Wraps a raw parent entity pointer, as C passes it.
    ///
    /// # Safety
    ///
    /// `se` must be null or the initialised entity of a non-root group, valid for `'a`.
    #[inline]
    pub unsafe fn from_raw<'a>(se: *mut bindings::sched_entity) -> ParentEntity<'a> {
        // INVARIANT: Guaranteed by the safety requirements of this function.
        ParentEntity {
            se,
            _group: PhantomData,
        }
    }

    /// Returns the parent's own `cfs_rq` (`parent->my_q`) and depth, or `None` for the root.
    #[inline]
    fn my_q_and_depth(self) -> Option<(*mut bindings::cfs_rq, i32)> {
        if self.se.is_null() {
            return None;
        }
        // SAFETY: A non-null parent is a valid initialised entity (type invariants), whose
        // `my_q` and `depth` are set when it is initialised and not changed after.
        Some(unsafe { ((*self.se).my_q, (*self.se).depth) })
    }

    /// Returns the parent's depth, or `None` when the parent is the root group.
    #[inline]
    pub fn depth(self) -> Option<i32> {
        self.my_q_and_depth().map(|(_, depth)| depth)
    }
}

/// The per-CPU state of a task group on one CPU (`struct cfs_tg_state`).
///
/// Built in place by [`CfsTgState::new`] for every possible CPU of a [`PerCpu`], then handed to
/// a group with [`NewTaskGroup::install`]. It is `!Unpin` (through [`Opaque`]): its bandwidth
/// list heads point into it, so it never moves.
#[repr(transparent)]
pub struct CfsTgState(Opaque<bindings::cfs_tg_state>);

impl CfsTgState {
    /// Returns an initialiser of the state of group `tg` on `cpu` for
    /// [`PerCpu::try_pin_init_zeroed`]: the slot starts zero-filled, as the per-CPU allocator
    /// returns it (and as C's `alloc_fair_sched_group()` relies on), then `init` runs on its
    /// `cfs_rq` and entity. Nothing zeroes the slot a second time.
    ///
    /// Equivalent to the body of the per-CPU loop of `alloc_fair_sched_group()`, `init` being
    /// `init_cfs_rq()`, `init_tg_cfs_entry()` and `init_entity_runnable_average()`.
    #[inline]
    pub fn new<'a>(
        tg: &'a NewTaskGroup<'_>,
        cpu: CpuId,
        init: impl FnOnce(&mut TgEntryInit<'_>) + 'a,
    ) -> ZeroedPinInit<Self, Error, impl FnOnce(*mut Self) -> Result + 'a> {
        let tg = tg.as_raw();
        let init_slot = move |slot: *mut Self| {
            let state = slot.cast::<bindings::cfs_tg_state>();
            // INVARIANT: The `cfs_rq` and entity of the slot, which nothing else can reach until
            // the initialiser returns; `cpu` is the slot's CPU.
            let mut entry = TgEntryInit {
                tg,
                // SAFETY: Only field addresses of the valid slot are taken.
                cfs_rq: unsafe { &raw mut (*state).cfs_rq },
                // SAFETY: As above.
                se: unsafe { &raw mut (*state).se },
                cpu,
                _p: PhantomData,
            };
            init(&mut entry);
            Ok(())
        };
        // SAFETY: A zero-filled `cfs_tg_state` with its `cfs_rq` and entity initialised by
        // `init` is a valid one (C's `alloc_fair_sched_group()` builds it so from the same
        // zero-filled memory); `init_slot` never moves it and cannot fail.
        unsafe { zeroed_pin_init_from_closure(init_slot) }
    }
}

/// A group's `cfs_rq` and entity on one CPU, being initialised in place: what
/// `init_tg_cfs_entry()` receives.
///
/// # Invariants
///
/// During `'a`: `tg` is a valid group whose state on `cpu` this is; `cfs_rq` is valid and
/// accessed by nothing else; `se` is null (the root group) or valid and accessed by nothing
/// else; `cpu` is a possible CPU.
pub struct TgEntryInit<'a> {
    tg: *mut bindings::task_group,
    cfs_rq: *mut bindings::cfs_rq,
    se: *mut bindings::sched_entity,
    cpu: CpuId,
    _p: PhantomData<&'a mut bindings::cfs_rq>,
}

impl TgEntryInit<'_> {
    /// Wraps what C passes to `init_tg_cfs_entry()`.
    ///
    /// # Safety
    ///
    /// For `'a`: `tg` must be a valid group, `cfs_rq` its valid `cfs_rq` on `cpu` and `se`
    /// null (the root group) or its valid entity on `cpu`, neither accessed by anyone else;
    /// `cpu` must be possible.
    #[inline]
    pub unsafe fn from_raw<'a>(
        tg: *mut bindings::task_group,
        cfs_rq: *mut bindings::cfs_rq,
        se: *mut bindings::sched_entity,
        cpu: CpuId,
    ) -> TgEntryInit<'a> {
        // INVARIANT: Guaranteed by the safety requirements of this function.
        TgEntryInit {
            tg,
            cfs_rq,
            se,
            cpu,
            _p: PhantomData,
        }
    }

    /// Returns the CPU of this state.
    #[inline]
    pub fn cpu(&self) -> CpuId {
        self.cpu
    }

    /// Returns whether the group has an entity on this CPU (it is not the root group).
    #[inline]
    pub fn has_entity(&self) -> bool {
        !self.se.is_null()
    }

    /// Initialises the runqueue state (`init_cfs_rq()`): empty tree, `zero_vruntime`, lock.
    #[inline]
    pub fn init_cfs_rq(&mut self) {
        // SAFETY: `cfs_rq` is valid and exclusively ours (type invariants).
        unsafe { bindings::init_cfs_rq(self.cfs_rq) };
    }

    /// Sets the owning group and the runqueue of this CPU (`cfs_rq->tg`, `cfs_rq->rq`).
    #[inline]
    pub fn set_group(&mut self) {
        // SAFETY: `cfs_rq` is valid and exclusively ours (type invariants).
        unsafe {
            (*self.cfs_rq).tg = self.tg;
            (*self.cfs_rq).rq = cpu_rq(self.cpu);
        }
    }

    /// Initialises the bandwidth-control state (`init_cfs_rq_runtime()`), whose list heads
    /// point into the `cfs_rq`, which stays where it is (type invariants).
    #[inline]
    pub fn init_runtime(&mut self) {
        // SAFETY: `cfs_rq` is valid and exclusively ours (type invariants).
        unsafe { bindings::sched_init_cfs_rq_runtime(self.cfs_rq) };
    }

    /// Links the entity below `parent`, at `depth`, with weight `weight`: queued on the
    /// parent's `my_q`, or on this CPU's runqueue for a top-level group, and owning this
    /// `cfs_rq` (`se->cfs_rq`, `depth`, `my_q`, `load`, `parent`). Nothing for the root group.
    #[inline]
    pub fn link(&mut self, parent: ParentEntity<'_>, depth: i32, weight: u64) {
        if self.se.is_null() {
            return;
        }
        let queue = match parent.my_q_and_depth() {
            Some((my_q, _)) => my_q,
            // SAFETY: `cpu_rq()` is a valid runqueue; only a field address is taken.
            None => unsafe { &raw mut (*cpu_rq(self.cpu)).cfs },
        };
        let se = self.se;
        // SAFETY: `se` is valid and exclusively ours (type invariants).
        unsafe {
            (*se).cfs_rq = queue;
            (*se).depth = depth;
            (*se).my_q = self.cfs_rq;
            // `update_load_set()`: the weight, and an inverse to be computed on first use.
            (*se).load.weight = crate::num::casts::arch::u64_as_usize(weight);
            (*se).load.inv_weight = 0;
            (*se).parent = parent.se;
        }
    }

    /// Resets the entity's load-tracking averages (`init_entity_runnable_average()`); nothing
    /// for the root group.
    #[inline]
    pub fn init_runnable_average(&mut self) {
        if !self.se.is_null() {
            // SAFETY: `se` is valid and exclusively ours (type invariants).
            unsafe { bindings::init_entity_runnable_average(self.se) };
        }
    }
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
        // SAFETY: The group is valid and unpublished, so this is the only access (type
        // invariants).
        unsafe { (*self.0).shares = crate::num::casts::arch::u64_as_usize(shares) };
    }

    /// Initialises the group's bandwidth control from its parent's (`init_cfs_bandwidth()`).
    #[inline]
    pub fn init_bandwidth(&mut self, parent: &TaskGroup) {
        // SAFETY: By the type invariants, the access to the group is exclusive; the parent is
        // valid (invariants of `TaskGroup`).
        unsafe { bindings::sched_tg_init_cfs_bandwidth(self.0, parent.as_raw()) };
    }

    /// Hands the per-CPU state to the group: `tg->cfs_rq` then owns it, and
    /// `free_fair_sched_group()` frees it.
    ///
    /// A `PerCpu<CfsTgState>` exists only initialised on every possible CPU
    /// ([`PerCpu::try_pin_init_zeroed`] with [`CfsTgState::new`]).
    #[inline]
    pub fn install(&mut self, state: PerCpu<CfsTgState>) {
        // CAST: `cfs_rq` is at offset 0 of `cfs_tg_state`, so the per-CPU address of the state
        // is also that of its `cfs_rq`.
        let cfs_rq = state.into_raw().cast::<bindings::cfs_rq>();
        // SAFETY: The group is valid and unpublished, so this is the only access (type
        // invariants); publishing it later orders this store before any reader.
        unsafe { (*self.0).cfs_rq = cfs_rq.as_raw() };
    }
}

/// Takes the per-CPU state back from a group being freed, leaving `tg->cfs_rq` null.
///
/// Returns `None` if the group has none (its allocation failed).
///
/// # Safety
///
/// `tg` must be a non-root group being freed (`sched_free_group()`): nothing can reach it any
/// more, and its `cfs_rq` is null or the state allocated for it, by Rust ([`NewTaskGroup::
/// install`]) or by C's `alloc_fair_sched_group()`, both initialising every possible CPU.
pub unsafe fn take_state(tg: *mut bindings::task_group) -> Option<PerCpu<CfsTgState>> {
    // SAFETY: `tg` is valid and exclusively ours by the safety requirements.
    let cfs_rq = unsafe { core::mem::replace(&mut (*tg).cfs_rq, core::ptr::null_mut()) };
    let state = PerCpuPtr::from_raw(cfs_rq.cast::<CfsTgState>())?;
    // SAFETY: The allocation is a per-CPU `cfs_tg_state` initialised on every possible CPU
    // (same size and alignment whether C or Rust made it), and it is taken over once, here.
    Some(unsafe { PerCpu::from_raw(state) })
}
