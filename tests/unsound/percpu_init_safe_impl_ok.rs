// SPDX-License-Identifier: GPL-2.0
//! Control of percpu_init_safe_impl.rs: the same initialiser as an `unsafe impl` compiles: what
//! refuses the misuse is that `PinnedPerCpuInit` is an `unsafe trait`. (Compiled only, never run: its
//! claim is false, which is what the `unsafe` puts on its writer.)
// expect: ok
use kernel::cpu::CpuId;
use kernel::percpu::pinned::PinnedPerCpuInit;
use kernel::prelude::*;
use kernel::sched::group::CfsTgState;

/// An initialiser that ignores the CPU it is given.
pub struct OtherCpu;

// SAFETY: None: a control of the compiler, see above.
unsafe impl PinnedPerCpuInit<CfsTgState, Error> for OtherCpu {
    unsafe fn init_cpu(&mut self, _cpu: CpuId, _slot: *mut CfsTgState) -> Result {
        Ok(())
    }
}
