// SPDX-License-Identifier: GPL-2.0
//! Misuse: links a group's entity below a parent entity of the caller's choice, e.g. another
//! CPU's, by retargeting the entry C handed over (hole S3): the parent, from which the depth
//! follows, is fixed by the `unsafe` `TgEntryInit::from_raw`, and the field is private.
// expect: E0616
// expect-message: field `parent` of struct `TgEntryInit` is private
use kernel::sched::{ffi, group::TgEntryInit};

/// Links the entity being initialised below `other`.
pub fn f(mut entry: TgEntryInit<'_>, other: *mut ffi::sched_entity) { //~ REASON
    entry.parent = other.cast(); //~ ERROR
    entry.init_tg_cfs_entry();
}
