// SPDX-License-Identifier: GPL-2.0
//! Control of entry_init_twice.rs: once compiles.
// expect: ok
use kernel::sched::group::TgEntryInit;

/// Initialises the entry once.
pub fn f(entry: TgEntryInit<'_>) {
    entry.init_tg_cfs_entry();
}
