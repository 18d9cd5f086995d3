// SPDX-License-Identifier: GPL-2.0

//! The per-CPU state of task groups: `alloc_fair_sched_group()`, `free_fair_sched_group()` and
//! `init_tg_cfs_entry()` of `kernel/sched/fair.c`.
//!
//! A group's state is allocated as one [`PerCpu<CfsTgState>`], initialised for every possible
//! CPU while still owned by Rust, and only then installed in `tg->cfs_rq`: there is no partly
//! initialised group, and an allocation that fails leaves the group untouched. The layout is
//! the C one, so every C accessor (`tg_cfs_rq()`, `tg_se()`, `cfs_rq_se()`,
//! `__schedstats_from_se()`) works on groups made here, and either side can free a group the
//! other allocated.

use kernel::cpu::CpuId;
use kernel::prelude::*;
use kernel::sched::{
    ffi,
    group::{
        self,
        CfsRqInit,
        CfsTgState,
        GroupEntityInit,
        NewTaskGroup,
        ParentEntity,
        TaskGroup, //
    },
    percpu::{
        possible_cpus,
        PerCpu, //
    },
    NICE_0_LOAD, //
};

/// Links a group's `cfs_rq` and entity on `cpu` into the hierarchy, below `parent`.
///
/// Equivalent to `init_tg_cfs_entry()`. `se` is `None` for the root group. It runs for the root
/// group in `sched_init()`, before any allocator works: it must not allocate, print or panic.
pub(crate) fn init_tg_cfs_entry(
    tg: *mut ffi::task_group,
    cfs_rq: &mut CfsRqInit<'_>,
    se: Option<&mut GroupEntityInit<'_>>,
    cpu: CpuId,
    parent: ParentEntity,
) {
    cfs_rq.set_group(tg, cpu);
    cfs_rq.init_runtime();

    let Some(se) = se else {
        return;
    };
    let (queue, depth) = match parent.my_q_and_depth() {
        None => (group::rq_cfs(cpu), 0),
        // C computes `parent->depth + 1` on an `int`.
        Some((my_q, depth)) => (my_q, depth.wrapping_add(1)),
    };
    // Group entities always have a weight.
    se.link(parent, queue, depth, cfs_rq, NICE_0_LOAD);
}

/// Allocates and initialises the per-CPU state of a new group below `parent`.
///
/// Equivalent to `alloc_fair_sched_group()`.
pub(crate) fn alloc_fair_sched_group(tg: &mut NewTaskGroup<'_>, parent: &TaskGroup) -> Result {
    let mut state = PerCpu::<CfsTgState>::new(GFP_KERNEL)?;

    tg.set_shares(NICE_0_LOAD);
    tg.init_bandwidth(parent);
    for cpu in possible_cpus() {
        let Some(cpu_state) = state.get_mut(cpu) else {
            continue;
        };
        let (mut cfs_rq, mut se) = cpu_state.parts();
        cfs_rq.init();
        init_tg_cfs_entry(
            tg.as_raw(),
            &mut cfs_rq,
            Some(&mut se),
            cpu,
            parent.parent_entity(cpu),
        );
        se.init_runnable_average();
    }
    tg.install(state);
    Ok(())
}

/// C entry point of [`alloc_fair_sched_group`]; returns 1 on success and 0 on failure, as C.
///
/// # Safety
///
/// `tg` must be a group under creation in `sched_create_group()`, not yet visible to anyone
/// else; `parent` must be a valid, initialised group.
#[export]
pub unsafe extern "C" fn rust_sched_alloc_fair_sched_group(
    tg: *mut ffi::task_group,
    parent: *mut ffi::task_group,
) -> c_int {
    // SAFETY: Guaranteed by the safety requirements of this function.
    let mut tg = unsafe { NewTaskGroup::from_raw(tg) };
    // SAFETY: Guaranteed by the safety requirements of this function.
    let parent = unsafe { TaskGroup::from_raw(parent) };

    c_int::from(alloc_fair_sched_group(&mut tg, parent).is_ok())
}

/// C entry point of `free_fair_sched_group()`.
///
/// # Safety
///
/// `tg` must be a non-root group being freed by `sched_free_group()`, whose state was
/// allocated by C or Rust, or whose allocation failed.
#[export]
pub unsafe extern "C" fn rust_sched_free_fair_sched_group(tg: *mut ffi::task_group) {
    // SAFETY: Guaranteed by the safety requirements of this function.
    drop(unsafe { group::take_state(tg) });
}

/// C entry point of [`init_tg_cfs_entry`].
///
/// # Safety
///
/// `tg` must be valid; `cfs_rq` and `se` (null for the root group) must be valid and not
/// accessed by anyone else during the call; `parent` must be null or a valid initialised group
/// entity; `cpu` must be a possible CPU.
#[export]
pub unsafe extern "C" fn rust_sched_init_tg_cfs_entry(
    tg: *mut ffi::task_group,
    cfs_rq: *mut ffi::cfs_rq,
    se: *mut ffi::sched_entity,
    cpu: c_int,
    parent: *mut ffi::sched_entity,
) {
    let Some(cpu) = CpuId::from_i32(cpu) else {
        return;
    };
    // SAFETY: Guaranteed by the safety requirements of this function.
    let mut cfs_rq = unsafe { CfsRqInit::from_raw(cfs_rq) };
    // SAFETY: Guaranteed by the safety requirements of this function.
    let mut se = (!se.is_null()).then(|| unsafe { GroupEntityInit::from_raw(se) });
    // SAFETY: Guaranteed by the safety requirements of this function.
    let parent = unsafe { ParentEntity::from_raw(parent) };

    init_tg_cfs_entry(tg, &mut cfs_rq, se.as_mut(), cpu, parent);
}

/// Rust twin of `tg_cfs_rq()`, for the parity tests.
///
/// # Safety
///
/// `tg` must be a valid, initialised group and `cpu` a possible CPU.
#[export]
pub unsafe extern "C" fn rust_sched_tg_cfs_rq(
    tg: *mut ffi::task_group,
    cpu: c_int,
) -> *mut ffi::cfs_rq {
    // SAFETY: Guaranteed by the safety requirements of this function.
    let tg = unsafe { TaskGroup::from_raw(tg) };
    CpuId::from_i32(cpu).map_or(core::ptr::null_mut(), |cpu| tg.cfs_rq(cpu))
}

/// Rust twin of `tg_se()`, for the parity tests.
///
/// # Safety
///
/// `tg` must be a valid, initialised group and `cpu` a possible CPU.
#[export]
pub unsafe extern "C" fn rust_sched_tg_se(
    tg: *mut ffi::task_group,
    cpu: c_int,
) -> *mut ffi::sched_entity {
    // SAFETY: Guaranteed by the safety requirements of this function.
    let tg = unsafe { TaskGroup::from_raw(tg) };
    CpuId::from_i32(cpu).map_or(core::ptr::null_mut(), |cpu| tg.se(cpu))
}

/// Rust twin of `cfs_rq_se()`, for the parity tests.
///
/// # Safety
///
/// `cfs_rq` must be valid and belong to a valid, initialised group.
#[export]
pub unsafe extern "C" fn rust_sched_cfs_rq_se(cfs_rq: *mut ffi::cfs_rq) -> *mut ffi::sched_entity {
    // SAFETY: Guaranteed by the safety requirements of this function.
    unsafe { group::cfs_rq_se(cfs_rq) }
}

/// Rust twin of `__schedstats_from_se()` for group entities, for the parity tests.
///
/// # Safety
///
/// `se` must be the entity of a group's per-CPU state.
#[export]
pub unsafe extern "C" fn rust_sched_group_se_stats(
    se: *mut ffi::sched_entity,
) -> *mut ffi::sched_statistics {
    // SAFETY: Guaranteed by the safety requirements of this function.
    unsafe { group::group_se_stats(se) }
}
