// SPDX-License-Identifier: GPL-2.0

//! Fair-scheduler internals, for the Rust implementation of parts of `kernel/sched/fair.c`.
//!
//! C header: [`kernel/sched/rust/sched_rust.h`](srctree/kernel/sched/rust/sched_rust.h)
//!
//! The private scheduler structures (`kernel/sched/sched.h`) are bound for this module alone
//! (`bindings`, private); every other Rust user sees only the prototypes of the entry points, where
//! they are opaque ([`ffi`]). The locks stay in C; [`RqLocked`] (and [`EpochLocked`] for
//! `rq->cpu_epoch_lock`) is the proof that the caller holds one, and every view of the state it
//! protects is borrowed from it: [`CfsRqView`], a read-only view of a `cfs_rq`, the entities
//! reachable from it ([`TreeEntity`] for those in its tree, whose links can be followed,
//! [`SchedEntity`] for `curr` and `next`, whose links cannot), and the LLC views of [`llc`].
//! [`group`] builds the per-CPU state of task groups on
//! [`PinnedPerCpu`](crate::percpu::pinned::PinnedPerCpu).
//!
//! What the types guarantee to safe code:
//!
//! - no view outlives its token (every view is borrowed from it), and no token or view crosses to
//!   another thread (`!Send`, `!Sync`: the tokens by their raw pointer, the views by
//!   [`Opaque`](crate::types::Opaque));
//! - no stale tree link is followed: only [`TreeEntity`], which only the tree's walk yields, has
//!   links;
//! - a group's per-CPU state exists only as [`group::alloc_state`] builds it: C's fixed sequence on
//!   every possible CPU's slot, for the CPU [`PinnedPerCpu`](crate::percpu::pinned::PinnedPerCpu)
//!   hands in for that slot, below the parent group's entity on the same CPU, installed only when
//!   complete, then the shares and the bandwidth control, once;
//! - on the Rust side, fields that other CPUs access without the lock are accessed atomically
//!   (relaxed, as `READ_ONCE()`; `rq->sd` as `rcu_dereference()`, its address dependency kept by
//!   the LKMM's `Relaxed`); the C accesses that can race with them are marked
//!   (`READ_ONCE()`/`WRITE_ONCE()`, see [`llc`]).
//!
//! On an `unsafe` contract, each stating what its caller guarantees: every conversion from what C
//! passes in: the `assume_held()` of the tokens (the lock is held); `RqLocked::cfs_rq`,
//! `RqLocked::entity`, `RqLocked::task` and `EpochLocked::cache_time` (the object belongs to the
//! locked runqueue); [`rq_of`]; `TaskGroup::from_raw`; `group::alloc_state` (the group is under
//! creation, below the parent named); `TgEntryInit::from_raw` (C's own `init_tg_cfs_entry()`
//! calls); `group::free_state` (the free path); the LLC scan state's `from_raw`.

mod bindings;
mod cfs_rq;
mod entity;
#[cfg(CONFIG_FAIR_GROUP_SCHED)]
pub mod group;
#[cfg(CONFIG_SCHED_CACHE)]
pub mod llc;
mod lock;

/// `NICE_0_LOAD`: the weight of a nice-0 task in `scale_load()` units, from the C definition.
pub const NICE_0_LOAD: u64 = crate::num::casts::u32_as_u64(bindings::NICE_0_LOAD);

/// Returns `sched_feat(PICK_BUDDY)`: whether the pick may take the next buddy.
#[inline(always)]
pub fn pick_buddy() -> bool {
    // SAFETY: `sched_rust_pick_buddy()` reads a static key, in any context.
    unsafe { bindings::sched_rust_pick_buddy() }
}

pub use cfs_rq::CfsRqView;
pub use entity::{
    SchedEntity,
    TreeEntity, //
};
#[cfg(CONFIG_SCHED_CACHE)]
pub use lock::EpochLocked;
pub use lock::{cpu_rq, rq_of, RqLocked};

/// Raw C types that appear in the signatures of the C-callable entry points, as the global
/// bindings know them: `rq`, `cfs_rq` and `task_group` are opaque there.
///
/// Entry points convert them to the safe types of this module on their first line.
pub mod ffi {
    pub use crate::bindings::{
        cfs_rq,
        rq,
        sched_cache_time,
        sched_entity,
        sched_statistics,
        task_group,
        task_struct, //
    };
}
