// SPDX-License-Identifier: GPL-2.0
//! Control of entry_from_raw_safe.rs: the same call, with the contract taken on in an `unsafe`
//! block, compiles: what refuses the misuse is that `TgEntryInit::from_raw` is `unsafe`.
// expect: ok
use kernel::cpu::CpuId;
use kernel::sched::{ffi, group::TgEntryInit};

/// Initialises `cfs_rq`/`se` for `cpu` below `parent`.
///
/// # Safety
///
/// The contract of `TgEntryInit::from_raw`.
pub unsafe fn f(
    tg: *mut ffi::task_group,
    cfs_rq: *mut ffi::cfs_rq,
    se: *mut ffi::sched_entity,
    cpu: CpuId,
    parent: *mut ffi::sched_entity,
) {
    // SAFETY: The safety requirements of this function.
    let entry = unsafe { TgEntryInit::from_raw(tg, cfs_rq, se, cpu, parent) };
    entry.init_tg_cfs_entry();
}
