// SPDX-License-Identifier: GPL-2.0
//! Control of state_uninit_installed.rs: the same store through a cast to a layout of the
//! caller's compiles: what refuses the misuse is the opacity of the group, and past it only an
//! `unsafe` cast of a C object, the caller's claim, remains.
// expect: ok
use kernel::percpu::PerCpu;
use kernel::sched::group::{CfsTgState, NewTaskGroup};

/// Stores `state`, whatever it holds, where C looks for the group's state.
pub fn f(tg: NewTaskGroup<'_>, state: PerCpu<CfsTgState>) {
    // SAFETY: None: a control of the compiler, never run.
    unsafe { *tg.as_raw().cast::<*mut CfsTgState>() = state.into_raw().as_raw().cast() };
}
