// SPDX-License-Identifier: GPL-2.0
//! Misuse: installs a per-CPU state that safe code allocated, zero-filled and not initialised,
//! into a new group by hand (hole S2): there is no installing API, and the raw store needs
//! `unsafe`.
// expect: E0133
// expect-message: dereference of raw pointer is unsafe
use kernel::percpu::PerCpu;
use kernel::sched::group::{CfsTgState, NewTaskGroup};

/// Stores `state`, whatever it holds, where C looks for the group's state.
pub fn f(tg: NewTaskGroup<'_>, state: PerCpu<CfsTgState>) {
    let slot = tg.as_raw().cast::<*mut CfsTgState>();
    *slot = state.into_raw().as_raw();
}
