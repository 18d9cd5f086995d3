// SPDX-License-Identifier: GPL-2.0
//! Misuse: makes a group's per-CPU state that is only zero-filled, without its list heads,
//! runqueue or entity links (hole S2).
// expect: E0599
// expect-message: the function or associated item `new` exists for struct `PinnedPerCpu<CfsTgState>`, but its trait bounds were not satisfied
// expect-note: `CfsTgState: Zeroable`
use kernel::percpu::pinned::PinnedPerCpu;
use kernel::prelude::*;
use kernel::sched::group::CfsTgState as T; //~ REASON

/// Allocates zero-filled states.
pub fn f() -> Result<PinnedPerCpu<T>> {
    Ok(PinnedPerCpu::<T>::new(GFP_KERNEL)?) //~ ERROR
}
