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

/// Warns once per call site if `cond` is true, and evaluates to `cond`: C's `WARN_ON_ONCE()`.
///
/// For the invariant checks the scheduler makes with `WARN_ON_ONCE()` on its hot paths: where the
/// architecture has bug-table warnings (`__WARN_FLAGS`), the warning is one trapping instruction
/// and a `BUGFLAG_ONCE` entry, as in C, so no call is added and a leaf function stays a leaf;
/// [`warn_on!`](crate::warn_on) would warn on every occurrence.
#[macro_export]
macro_rules! sched_warn_on_once {
    ($cond:expr) => {{
        let cond: bool = $cond;

        if cond {
            $crate::warn_flags!(
                ::core::file!(),
                $crate::bindings::BUGFLAG_ONCE
                    | $crate::bug::bugflag_taint($crate::bindings::TAINT_WARN)
            );
        }
        cond
    }};
}

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
