// SPDX-License-Identifier: GPL-2.0
//! Misuse: installs a per-CPU state that was not built by `NewTaskGroup::init()` into a new
//! group by hand (hole S2): even in an `unsafe` block, the group that Rust outside
//! `kernel::sched` sees is opaque, without the `cfs_rq` field to store it in.
// expect: E0609
// expect-message: no field `cfs_rq` on type `kernel::bindings::task_group`
use kernel::percpu::PerCpu;
use kernel::sched::group::{CfsTgState, NewTaskGroup};

/// Stores `state`, whatever it holds, where C looks for the group's state.
pub fn f(tg: NewTaskGroup<'_>, state: PerCpu<CfsTgState>) {
    // SAFETY: None: the misuse.
    unsafe { (*tg.as_raw()).cfs_rq = state.into_raw().as_raw().cast() };
}
