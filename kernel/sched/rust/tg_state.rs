// SPDX-License-Identifier: GPL-2.0

//! The per-CPU state of task groups: `alloc_fair_sched_group()`, `free_fair_sched_group()` and
//! `init_tg_cfs_entry()` of `kernel/sched/fair.c`.
//!
//! A group's state is allocated as one `PinnedPerCpu<CfsTgState>`, initialised for every possible
//! CPU by C's fixed sequence while still owned by Rust, and only then installed in `tg->cfs_rq`
//! ([`group::alloc_state`]): there is no partly initialised group, and an allocation that fails
//! leaves the group untouched. The layout is the C one, so every C accessor (`tg_cfs_rq()`,
//! `tg_se()`, `cfs_rq_se()`, `__schedstats_from_se()`) works on groups made here, and either side
//! can free a group the other allocated.

use kernel::cpu::CpuId;
use kernel::prelude::*;
use kernel::sched::{
    ffi,
    group::{
        self,
        TgEntryInit, //
    },
};

/// C entry point of `alloc_fair_sched_group()`: allocates and initialises the per-CPU state of
/// a new group below `parent`; returns 1 on success and 0 on failure, as C. On failure the
/// group is left untouched.
///
/// # Safety
///
/// `tg` must be a group under creation in `sched_create_group()`, not yet visible to anyone
/// else, and `parent` the valid, initialised group it is created below.
#[export]
#[cfg_attr(CONFIG_SCHED_RUST_CFS_INLINE, inline(always))]
pub unsafe extern "C" fn sched_rust_alloc_fair_sched_group(
    tg: *mut ffi::task_group,
    parent: *mut ffi::task_group,
) -> c_int {
    // SAFETY: `tg` is under creation, unpublished and ours for the call, and `parent` its
    // parent, valid and initialised (safety requirements).
    c_int::from(unsafe { group::alloc_state(tg, parent, GFP_KERNEL) }.is_ok())
}

/// C entry point of `free_fair_sched_group()`.
///
/// # Safety
///
/// `tg` must be a non-root group being freed by `sched_free_group()`, whose state was
/// allocated by C or Rust, or whose allocation failed.
#[export]
#[cfg_attr(CONFIG_SCHED_RUST_CFS_INLINE, inline(always))]
pub unsafe extern "C" fn sched_rust_free_fair_sched_group(tg: *mut ffi::task_group) {
    // SAFETY: `tg` is being freed and unreachable; its state, if any, was allocated for it by C
    // or Rust (safety requirements).
    unsafe { group::free_state(tg) };
}

/// C entry point of `init_tg_cfs_entry()`, which C calls for the root group in
/// `sched_init()`, before any allocator works: it does not allocate, print or panic.
///
/// # Safety
///
/// `tg` must be valid; `cfs_rq` and `se` (null for the root group) must be its valid state on
/// `cpu`, not accessed by anyone else during the call; `parent` must be null or the initialised
/// entity of `tg`'s parent on `cpu`; `cpu` must be a possible CPU.
#[export]
pub unsafe extern "C" fn sched_rust_init_tg_cfs_entry(
    tg: *mut ffi::task_group,
    cfs_rq: *mut ffi::cfs_rq,
    se: *mut ffi::sched_entity,
    cpu: c_int,
    parent: *mut ffi::sched_entity,
) {
    let Some(cpu) = CpuId::from_i32(cpu) else {
        return;
    };
    // SAFETY: `cfs_rq` and `se` are `tg`'s exclusive state on the possible CPU `cpu` for the
    // call, and `parent` null or the parent's initialised entity on `cpu` (safety requirements).
    let entry = unsafe { TgEntryInit::from_raw(tg, cfs_rq, se, cpu, parent) };

    entry.init_tg_cfs_entry();
}
