// SPDX-License-Identifier: GPL-2.0
//! Misuse: runs `init_tg_cfs_entry()` twice on the state C handed over, relinking an entity
//! that may already be in use: it consumes the entry.
// expect: E0382
// expect-message: use of moved value: `entry`
use kernel::sched::group::TgEntryInit;

/// Initialises the entry twice.
pub fn f(entry: TgEntryInit<'_>) {
    entry.init_tg_cfs_entry();
    entry.init_tg_cfs_entry(); //~ ERROR
}
