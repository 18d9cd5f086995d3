// SPDX-License-Identifier: GPL-2.0
//! Misuse: links a group's entity below a parent entity and depth of the caller's choice, e.g.
//! another CPU's (hole S3).
// expect: E0624
// expect-message: method `link` is private
use kernel::sched::group::TgEntryInit;

/// Links the entity being initialised, by hand.
pub fn f(entry: &mut TgEntryInit<'_>) {
    entry.link();
}
