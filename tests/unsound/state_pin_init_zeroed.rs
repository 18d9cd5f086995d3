// SPDX-License-Identifier: GPL-2.0
//! Misuse: initialises a group's per-CPU state with a generic zeroing initialiser (hole S2):
//! `CfsTgState` is not `Zeroable`.
// expect: E0277
// expect-message: the trait bound `CfsTgState: Zeroable` is not satisfied
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;
use kernel::sched::group::CfsTgState as T; //~ REASON

/// Builds zeroed states through pin-init.
pub fn f() -> Result<PinnedPerCpu<T>> {
    PinnedPerCpu::<T>::try_pin_init(|_cpu| Ok::<_, Error>(pin_init::zeroed()), GFP_KERNEL) //~ ERROR
}
