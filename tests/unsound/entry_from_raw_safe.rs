// SPDX-License-Identifier: GPL-2.0
//! Misuse: builds a group's per-CPU entry for a CPU and parent of the caller's choice without
//! taking on the contract (hole S3).
// expect: E0133
// expect-message: call to unsafe function `TgEntryInit::<'_>::from_raw` is unsafe and requires unsafe block
use kernel::cpu::CpuId;
use kernel::sched::{ffi, group::TgEntryInit};

/// Initialises `cfs_rq`/`se` for `cpu` below `parent`.
pub fn f( //~ REASON
    tg: *mut ffi::task_group,
    cfs_rq: *mut ffi::cfs_rq,
    se: *mut ffi::sched_entity,
    cpu: CpuId,
    parent: *mut ffi::sched_entity,
) {
    let entry = TgEntryInit::from_raw(tg, cfs_rq, se, cpu, parent); //~ ERROR
    entry.init_tg_cfs_entry();
}
