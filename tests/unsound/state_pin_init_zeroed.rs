// SPDX-License-Identifier: GPL-2.0
//! Misuse: initialises a group's per-CPU state with a generic zeroing initialiser (hole S2).
// expect: E0277
// expect-message: PinInit<
use kernel::percpu::PerCpu;
use kernel::prelude::*;
use kernel::sched::group::CfsTgState;

/// Builds zeroed states through pin-init.
pub fn f() -> Result<PerCpu<CfsTgState>> {
    PerCpu::<CfsTgState>::try_pin_init::<Error, CfsTgState>(|_cpu| pin_init::zeroed(), GFP_KERNEL)
}
