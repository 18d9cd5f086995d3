// SPDX-License-Identifier: GPL-2.0

//! Task groups and their per-CPU fair-scheduler state.
//!
//! C header: [`kernel/sched/sched.h`](srctree/kernel/sched/sched.h)
//!
//! Every task group but the root owns one `struct cfs_tg_state` per CPU (its `cfs_rq`, its group
//! entity `se` and that entity's statistics), allocated as one per-CPU object whose `cfs_rq` is
//! first, so that `tg->cfs_rq`, the per-CPU pointer C code uses, is also the allocation. The root
//! group instead points at the runqueues' own `cfs_rq`s and has no entity.
//!
//! What is sound by type here: a new group's fair-scheduler part is built by one call,
//! [`alloc_state`], which does all of `alloc_fair_sched_group()`: it allocates a
//! [`PinnedPerCpu<CfsTgState>`], runs C's fixed initialisation sequence on every possible CPU's
//! slot in place (from the allocator's zero-filled memory, as in C) for the CPU that
//! [`PinnedPerCpu`] hands in for that slot, with the parent entity and depth taken from the parent
//! group's slot of the same CPU, installs it in `tg->cfs_rq` only once every CPU is initialised,
//! then sets the shares and the bandwidth control. No safe code chooses the CPU, the parent, the
//! depth, the shares or the steps, and no safe code can install a state that was not built so. What
//! rests on an `unsafe` contract: the raw pointers C passes in ([`TaskGroup::from_raw`];
//! [`alloc_state`], whose caller names the group under creation and its parent;
//! [`TgEntryInit::from_raw`] for C's `init_tg_cfs_entry()` calls; [`free_state`] for the free
//! path).

use super::{bindings, cpu_rq, ffi, NICE_0_LOAD};
use crate::{
    alloc::Flags,
    cpu::CpuId,
    percpu::pinned::{cpu_possible, PinnedPerCpu, PinnedPerCpuInit},
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
/// - The task group is valid and fully initialised for the lifetime of the reference: its
///   `cfs_rq` is a valid per-CPU address, of the runqueues' `cfs_rq`s for the root group and of
///   an initialised per-CPU `cfs_tg_state` for every other group.
/// - A group outlives the groups below it: the cgroup core keeps a css's parent until the css
///   itself is released, and `sched_free_group()` of a child runs before its parent's. So the
///   entities of a group may be stored as the `parent` of its children's entities.
#[repr(transparent)]
pub struct TaskGroup(Opaque<bindings::task_group>);

impl TaskGroup {
    /// Creates a reference from a raw pointer.
    ///
    /// # Safety
    ///
    /// `ptr` must point to a task group valid for `'a` that satisfies the type invariants.
    #[inline]
    pub unsafe fn from_raw<'a>(ptr: *mut ffi::task_group) -> &'a Self {
        // CAST: `Self` is `repr(transparent)` over `Opaque<task_group>`, which has its layout.
        // INVARIANT: The group is initialised, by the safety requirements of this function.
        // SAFETY: `ptr` is valid for `'a` by the safety requirements of this function.
        unsafe { &*ptr.cast() }
    }

    /// Returns the raw pointer to the task group, as C knows it.
    #[inline]
    pub fn as_raw(&self) -> *mut ffi::task_group {
        self.0.get().cast()
    }

    /// Returns whether this is the root task group.
    ///
    /// Equivalent to `is_root_task_group()`.
    #[inline]
    pub fn is_root(&self) -> bool {
        core::ptr::eq(self.0.get(), &raw const bindings::root_task_group)
    }

    /// Returns the group's `cfs_rq` on `cpu` (`tg_cfs_rq()`), or `None` if `cpu` is not a
    /// possible CPU.
    #[inline]
    pub fn cfs_rq(&self, cpu: CpuId) -> Option<*mut ffi::cfs_rq> {
        // SAFETY: The group is valid (type invariants); `tg->cfs_rq` is set before the group is
        // published and not changed until it is freed.
        let percpu = unsafe { (*self.0.get()).cfs_rq };
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
        if !cpu_possible(cpu) {
            return None;
        }
        // SAFETY: `cpu` is possible (just checked).
        unsafe { self.se_possible(cpu) }
    }

    /// [`TaskGroup::se`] on a CPU known to be possible, which it does not check again: `None`
    /// for the root group only.
    ///
    /// # Safety
    ///
    /// `cpu` must be a possible CPU.
    #[inline]
    unsafe fn se_possible(&self, cpu: CpuId) -> Option<*mut bindings::sched_entity> {
        if self.is_root() {
            return None;
        }
        // SAFETY: The group is valid (type invariants); `tg->cfs_rq` is set before the group is
        // published and not changed until it is freed.
        let percpu = unsafe { (*self.0.get()).cfs_rq };
        // SAFETY: `tg->cfs_rq` is a valid per-CPU address (type invariants) and `cpu` is possible
        // (safety requirements), so this is the address of its instance on `cpu`.
        let cfs_rq = unsafe { bindings::per_cpu_ptr(percpu.cast(), cpu.as_u32()) };
        // SAFETY: A non-root group's `cfs_rq`s are those of `cfs_tg_state`s (type invariants).
        let state = unsafe { state_of(cfs_rq.cast()) };
        // SAFETY: `state` is the live state on a possible CPU; only a field address is taken.
        Some(unsafe { &raw mut (*state).se })
    }
}

/// Returns the group entity owning `cfs_rq` (`cfs_rq_se()`), or null for a runqueue's own.
///
/// # Safety
///
/// `cfs_rq` must be valid, and its `tg` must satisfy the invariants of [`TaskGroup`].
#[inline]
pub unsafe fn cfs_rq_se(cfs_rq: *mut ffi::cfs_rq) -> *mut bindings::sched_entity {
    // CAST: `ffi::cfs_rq` is the opaque declaration of the `struct cfs_rq` bound here.
    let cfs_rq = cfs_rq.cast::<bindings::cfs_rq>();
    // SAFETY: `cfs_rq` is valid, and so is its group, by the safety requirements.
    let tg = unsafe { TaskGroup::from_raw((*cfs_rq).tg.cast()) };
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

/// The per-CPU state of a task group on one CPU (`struct cfs_tg_state`).
///
/// Built in place on every possible CPU by [`alloc_state`] (or, in a debug kernel, by
/// C's `alloc_fair_sched_group()`), never by other safe code. It is
/// `!Unpin` (through [`Opaque`]): its bandwidth list heads point into it, so it never moves.
///
/// # Invariants
///
/// The state is that of one group on the CPU of its per-CPU slot, initialised as
/// `alloc_fair_sched_group()` initialises it: `init_cfs_rq()`, then `init_tg_cfs_entry()` with
/// the entity of the parent group on the same CPU (or none below the root group), then
/// `init_entity_runnable_average()`, from zero-filled memory.
#[repr(transparent)]
pub struct CfsTgState(Opaque<bindings::cfs_tg_state>);

/// The initialiser of the [`CfsTgState`] of a new group on every possible CPU: C's per-CPU loop
/// of `alloc_fair_sched_group()`, for [`PinnedPerCpu::try_init_per_cpu`].
///
/// # Invariants
///
/// `tg` is a valid group under creation that nothing else accesses during `'a`, and `parent` its
/// parent.
struct CfsTgStateInit<'a> {
    tg: *mut bindings::task_group,
    parent: &'a TaskGroup,
}

// SAFETY:
// - `init_cpu` leaves a valid `cfs_tg_state`: it runs `alloc_fair_sched_group()`'s sequence on
//   the zero-filled slot, as C does.
// - It never fails.
// - It keeps no access to the slot: only the state's own fields (`se.my_q`, list heads) point
//   into it afterwards.
unsafe impl PinnedPerCpuInit<CfsTgState, Error> for CfsTgStateInit<'_> {
    #[inline]
    unsafe fn init_cpu(&mut self, cpu: CpuId, slot: *mut CfsTgState) -> Result {
        let state = slot.cast::<bindings::cfs_tg_state>();
        // The parent group's entity on this CPU: none for a child of the root group.
        // SAFETY: `cpu` is possible (safety requirements).
        let parent = unsafe { self.parent.se_possible(cpu) }.unwrap_or(core::ptr::null_mut());
        // INVARIANT:
        // - The `cfs_rq` and entity are those of `tg`'s slot on `cpu`, a possible CPU (safety
        //   requirements), which nothing else can reach until the group is installed.
        // - The parent entity is the parent group's on the same CPU, initialised and outliving
        //   the group (invariants of `TaskGroup`).
        let mut entry = TgEntryInit {
            tg: self.tg,
            // SAFETY: `slot` is valid (safety requirements); only a field address is taken.
            cfs_rq: unsafe { &raw mut (*state).cfs_rq },
            // SAFETY: As above.
            se: unsafe { &raw mut (*state).se },
            cpu,
            parent,
            _p: PhantomData,
        };
        entry.init_cfs_rq();
        entry.link_tg_cfs_entry();
        entry.init_runnable_average();
        Ok(())
    }
}

/// A group's `cfs_rq` and entity on one CPU, being initialised in place: what
/// `init_tg_cfs_entry()` receives.
///
/// # Invariants
///
/// During `'a`: `tg` is a valid group whose state on `cpu` this is; `cfs_rq` is valid and
/// accessed by nothing else; `se` is null (the root group) or valid and accessed by nothing
/// else; `cpu` is a possible CPU; `parent` is null (a child of the root group, or the root group
/// itself) or the initialised entity of the parent group on `cpu`, which outlives the group.
pub struct TgEntryInit<'a> {
    tg: *mut bindings::task_group,
    cfs_rq: *mut bindings::cfs_rq,
    se: *mut bindings::sched_entity,
    cpu: CpuId,
    parent: *mut bindings::sched_entity,
    _p: PhantomData<&'a mut bindings::cfs_rq>,
}

impl TgEntryInit<'_> {
    /// Wraps what C passes to `init_tg_cfs_entry()`.
    ///
    /// # Safety
    ///
    /// For `'a`: `tg` must be a valid group, `cfs_rq` its valid `cfs_rq` on `cpu` and `se`
    /// null (the root group) or its valid entity on `cpu`, neither accessed by anyone else;
    /// `cpu` must be possible; `parent` must be null or the initialised entity of `tg`'s parent
    /// on `cpu`.
    #[inline]
    pub unsafe fn from_raw<'a>(
        tg: *mut ffi::task_group,
        cfs_rq: *mut ffi::cfs_rq,
        se: *mut bindings::sched_entity,
        cpu: CpuId,
        parent: *mut bindings::sched_entity,
    ) -> TgEntryInit<'a> {
        // INVARIANT: Guaranteed by the safety requirements of this function; a group's parent
        // outlives it (invariants of `TaskGroup`).
        TgEntryInit {
            // CAST: The `ffi` types are the opaque declarations of the structures bound here.
            tg: tg.cast(),
            cfs_rq: cfs_rq.cast(),
            se,
            cpu,
            parent,
            _p: PhantomData,
        }
    }

    /// Links the `cfs_rq` and the entity into the hierarchy, below the parent entity.
    ///
    /// Equivalent to `init_tg_cfs_entry()`: the `cfs_rq`'s group and runqueue, its bandwidth
    /// state, and for a group with an entity, the entity queued on the parent's `my_q` (or on
    /// this CPU's runqueue for a top-level group) one level below it, owning this `cfs_rq`, with
    /// weight `NICE_0_LOAD`. It runs for the root group (no entity) in `sched_init()`, before
    /// any allocator works: it does not allocate, print or panic. It consumes the entry, so it
    /// runs once on the state C handed over.
    #[inline]
    pub fn init_tg_cfs_entry(mut self) {
        self.link_tg_cfs_entry();
    }

    /// The body of [`TgEntryInit::init_tg_cfs_entry`], for [`CfsTgStateInit`], which runs the
    /// rest of C's sequence on the same entry after it (once per slot).
    #[inline]
    fn link_tg_cfs_entry(&mut self) {
        self.set_group();
        self.init_runtime();
        if self.se.is_null() {
            return;
        }
        self.link();
    }

    /// Initialises the runqueue state (`init_cfs_rq()`): empty tree, `zero_vruntime`, lock.
    #[inline]
    fn init_cfs_rq(&mut self) {
        // SAFETY: `cfs_rq` is valid and exclusively ours (type invariants).
        unsafe { bindings::sched_rust_init_cfs_rq(self.cfs_rq.cast()) };
    }

    /// Sets the owning group and the runqueue of this CPU (`cfs_rq->tg`, `cfs_rq->rq`).
    #[inline]
    fn set_group(&mut self) {
        // SAFETY: `cfs_rq` is valid and exclusively ours, and `cpu` possible, so `cpu_rq()` is its
        // runqueue (type invariants).
        unsafe {
            (*self.cfs_rq).tg = self.tg;
            (*self.cfs_rq).rq = cpu_rq(self.cpu).cast();
        }
    }

    /// Initialises the bandwidth-control state (`init_cfs_rq_runtime()`), whose list heads
    /// point into the `cfs_rq`, which stays where it is (type invariants).
    #[inline]
    fn init_runtime(&mut self) {
        // SAFETY: `cfs_rq` is valid and exclusively ours (type invariants).
        unsafe { bindings::sched_rust_init_cfs_rq_runtime(self.cfs_rq.cast()) };
    }

    /// Links the entity below the parent entity: `se->cfs_rq`, `depth`, `my_q`, `load`, `parent`.
    #[inline]
    fn link(&mut self) {
        let (queue, depth) = if self.parent.is_null() {
            let rq = cpu_rq(self.cpu).cast::<bindings::rq>();
            // SAFETY: `cpu` is possible (type invariants), so `rq` is a valid runqueue; only a
            // field address is taken.
            (unsafe { &raw mut (*rq).cfs }, 0)
        } else {
            // SAFETY: A non-null parent is an initialised entity (type invariants), whose `my_q`
            // and `depth` are set when it is initialised and not changed after.
            let (my_q, depth) = unsafe { ((*self.parent).my_q, (*self.parent).depth) };
            // C computes `parent->depth + 1` on an `int`.
            // CAST: `sched_entity` (a public structure) points to the opaque `cfs_rq`.
            (my_q.cast::<bindings::cfs_rq>(), depth.wrapping_add(1))
        };
        let se = self.se;
        // SAFETY:
        // - `se` is valid and exclusively ours (type invariants; `link_tg_cfs_entry()` checked
        //   that it is not null).
        // - The parent entity outlives it (type invariants), so storing it as `se->parent` leaves
        //   no dangling pointer.
        unsafe {
            // CAST: `sched_entity` (a public structure) points to the opaque `cfs_rq`.
            (*se).cfs_rq = queue.cast();
            (*se).depth = depth;
            (*se).my_q = self.cfs_rq.cast();
            // `update_load_set()`: group entities always have a weight, and an inverse to be
            // computed on first use.
            (*se).load.weight = crate::num::casts::arch::u64_as_usize(NICE_0_LOAD);
            (*se).load.inv_weight = 0;
            (*se).parent = self.parent;
        }
    }

    /// Resets the entity's load-tracking averages (`init_entity_runnable_average()`); nothing
    /// for the root group.
    #[inline]
    fn init_runnable_average(&mut self) {
        if !self.se.is_null() {
            // SAFETY: `se` is valid and exclusively ours (type invariants).
            unsafe { bindings::sched_rust_init_entity_runnable_average(self.se.cast()) };
        }
    }
}

/// Builds the fair-scheduler part of a group under creation below `parent`: allocates its per-CPU
/// state, initialises it on every possible CPU and installs it (`tg->cfs_rq` then owns it, and
/// `free_fair_sched_group()` frees it), then sets its shares to `NICE_0_LOAD` and its bandwidth
/// control from its parent's.
///
/// Equivalent to `alloc_fair_sched_group()`: one call creates and initialises, so there is no
/// group whose state is uninitialised, installed twice or forgotten. On failure the group is left
/// untouched, as C leaves it when the allocation fails. Fails with `EEXIST` if the group has a
/// state.
///
/// # Safety
///
/// - `tg` must be a valid group under creation in `sched_create_group()`, not yet published (no
///   other CPU can reach it) during the call.
/// - `parent` must be the group `tg` is created below, valid and initialised.
#[inline]
pub unsafe fn alloc_state(
    tg: *mut ffi::task_group,
    parent: *mut ffi::task_group,
    flags: Flags,
) -> Result {
    // CAST: `ffi::task_group` is the opaque declaration of the `struct task_group` bound here.
    let tg = tg.cast::<bindings::task_group>();
    // SAFETY: `parent` is a valid, initialised group (safety requirements), the parent of `tg`,
    // which outlives the call.
    let parent = unsafe { TaskGroup::from_raw(parent) };
    // SAFETY: The group is valid and unpublished, so this is the only access (safety
    // requirements).
    if !unsafe { (*tg).cfs_rq }.is_null() {
        return Err(EEXIST);
    }
    // INVARIANT: `tg` is valid and ours for the call, `parent` its parent (safety requirements).
    let init = CfsTgStateInit { tg, parent };
    let state = PinnedPerCpu::try_init_per_cpu(init, flags)?;
    // CAST: `cfs_rq` is at offset 0 of `cfs_tg_state`, so the per-CPU address of the state is
    // also that of its `cfs_rq`.
    let cfs_rq = state.into_raw().cast::<bindings::cfs_rq>();
    // SAFETY: The group is valid and unpublished, so these are the only accesses (safety
    // requirements); publishing it later orders the stores before any reader.
    unsafe {
        (*tg).cfs_rq = cfs_rq.as_raw();
        (*tg).shares = crate::num::casts::arch::u64_as_usize(NICE_0_LOAD);
    }
    // SAFETY:
    // - The group is unpublished, so its bandwidth state is ours to initialise.
    // - Its parent is a valid, initialised group, whose bandwidth state `init_cfs_bandwidth()`
    //   only reads (safety requirements).
    unsafe { bindings::sched_rust_init_tg_cfs_bandwidth(tg.cast(), parent.as_raw()) };
    Ok(())
}

/// Frees the per-CPU state of a group being freed, as C's `free_percpu(tg->cfs_rq)`: nothing
/// for a group whose allocation failed.
///
/// # Safety
///
/// `tg` must be a non-root group being freed (`sched_free_group()`): nothing can reach it any
/// more, and its `cfs_rq` is null or the state allocated for it, by Rust
/// ([`alloc_state`]) or by C's `alloc_fair_sched_group()`, both initialising every
/// possible CPU.
#[inline]
pub unsafe fn free_state(tg: *mut ffi::task_group) {
    // CAST: `ffi::task_group` is the opaque declaration of the `struct task_group` bound here.
    let tg = tg.cast::<bindings::task_group>();
    // SAFETY: `tg` is valid and exclusively ours by the safety requirements.
    let cfs_rq = unsafe { (*tg).cfs_rq };
    // SAFETY:
    // - `cfs_rq` is null or the group's per-CPU `cfs_tg_state` (at offset 0 of it), initialised
    //   on every possible CPU (same size and alignment whether C or Rust made it).
    // - The group is unreachable, so nothing uses it afterwards (safety requirements).
    unsafe { PinnedPerCpu::<CfsTgState>::free_raw(cfs_rq.cast()) };
}
