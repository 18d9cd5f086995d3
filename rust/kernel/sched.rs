// SPDX-License-Identifier: GPL-2.0

//! Fair-scheduler internals, for the Rust implementation of parts of `kernel/sched/fair.c`.
//!
//! C header: [`kernel/sched/rust/sched_rust.h`](srctree/kernel/sched/rust/sched_rust.h)
//!
//! bindgen sees `kernel/sched/sched.h` (when `CONFIG_SCHED_RUST_CFS` is set), so the private
//! scheduler structures are available as raw bindings. The locks stay in C; [`RqLocked`] (and
//! [`EpochLocked`] for `rq->cpu_epoch_lock`) is the proof that the caller holds one, and every
//! view of the state it protects is derived from it: [`CfsRqView`], a read-only view of a
//! `cfs_rq`, the [`SchedEntity`] references reachable from it, and the LLC views of [`llc`].
//!
//! [`percpu`] provides owned dynamic per-CPU allocations ([`percpu::PerCpu`]), on which
//! [`group`] builds the per-CPU state of task groups.

mod cfs_rq;
mod entity;
#[cfg(CONFIG_FAIR_GROUP_SCHED)]
pub mod group;
#[cfg(CONFIG_SCHED_CACHE)]
pub mod llc;
mod lock;
pub mod percpu;

/// `NICE_0_LOAD`: the weight of a nice-0 task in `scale_load()` units (64-bit, which
/// `CONFIG_SCHED_RUST_CFS` requires).
pub const NICE_0_LOAD: u64 = 1 << 20;

pub use cfs_rq::CfsRqView;
pub use entity::SchedEntity;
#[cfg(CONFIG_SCHED_CACHE)]
pub use lock::EpochLocked;
pub use lock::{cpu_rq, rq_of, RqLocked};

/// Raw C types that appear in the signatures of the C-callable entry points.
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
