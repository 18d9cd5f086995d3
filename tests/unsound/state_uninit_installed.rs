// SPDX-License-Identifier: GPL-2.0
//! Misuse: installs a per-CPU state that safe code built, uninitialised, into a new group
//! (hole S2).
// expect: E0599
use kernel::percpu::PerCpu;
use kernel::sched::group::{CfsTgState, NewTaskGroup};

/// Installs `state`, whatever it holds.
pub fn f(tg: &mut NewTaskGroup<'_>, state: PerCpu<CfsTgState>) {
    tg.install(state);
}
