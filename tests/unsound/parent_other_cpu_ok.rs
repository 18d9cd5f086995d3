// SPDX-License-Identifier: GPL-2.0
//! Control of parent_other_cpu.rs: the same entry, linked below the parent it was made with,
//! compiles: what refuses the misuse is the private `parent`.
// expect: ok
use kernel::sched::{ffi, group::TgEntryInit};

/// Links the entity being initialised below its own parent.
pub fn f(entry: TgEntryInit<'_>, _other: *mut ffi::sched_entity) {
    entry.init_tg_cfs_entry();
}
