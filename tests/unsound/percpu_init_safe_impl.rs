// SPDX-License-Identifier: GPL-2.0
//! Misuse: a per-CPU initialiser written in safe code, which could initialise a slot for
//! another CPU than its own or leave it invalid (hole S3).
// expect: E0200
// expect-message: requires an `unsafe impl` declaration
use kernel::cpu::CpuId;
use kernel::percpu::pinned::PinnedPerCpuInit;
use kernel::prelude::*;
use kernel::sched::group::CfsTgState;

/// An initialiser that ignores the CPU it is given.
pub struct OtherCpu;

impl PinnedPerCpuInit<CfsTgState, Error> for OtherCpu { //~ ERROR
    unsafe fn init_cpu(&mut self, _cpu: CpuId, _slot: *mut CfsTgState) -> Result {
        Ok(())
    }
}
