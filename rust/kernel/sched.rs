// SPDX-License-Identifier: GPL-2.0

//! Fair-scheduler internals, for the Rust implementation of parts of `kernel/sched/fair.c`.
//!
//! C header: [`kernel/sched/rust/sched_rust.h`](srctree/kernel/sched/rust/sched_rust.h)
//!
//! The private scheduler structures (`kernel/sched/sched.h`) are bound for this module alone
//! (`bindings`, private); every other Rust user sees only the prototypes of the entry points,
//! where they are opaque ([`ffi`]). The locks stay in C; [`RqLocked`] (and
//! [`EpochLocked`] for `rq->cpu_epoch_lock`) is the proof that the caller holds one, and every
//! view of the state it protects is borrowed from it: [`CfsRqView`], a read-only view of a
//! `cfs_rq`, the entities reachable from it ([`TreeEntity`] for those in its tree, whose links
//! can be followed, [`SchedEntity`] for `curr` and `next`, whose links cannot), and the LLC
//! views of [`llc`]. [`group`] builds the per-CPU state of task groups on
//! [`PerCpu`](crate::percpu::PerCpu).
//!
//! # Soundness
//!
//! Sound by type, for safe code: no view outlives its token (they are borrowed from it), no token
//! crosses to another thread (`!Send`), no stale tree link is followed (only [`TreeEntity`] has
//! links), a group's per-CPU state is initialised by a fixed sequence on the CPU of its slot
//! before it is installed ([`group::NewTaskGroup::init_state`]), and fields that other CPUs
//! access without the lock are accessed atomically. On an `unsafe` contract: every conversion
//! from what C passes in (the `assume_held()` of the tokens, `from_raw()`, `RqLocked::cfs_rq`,
//! `RqLocked::entity`, `RqLocked::task`, `EpochLocked::cache_time`, [`rq_of`],
//! `group::take_state`, the LLC scan state) states what the caller guarantees.
//! `make check-unsound` compiles misuse snippets that must each be refused by the compiler.

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
