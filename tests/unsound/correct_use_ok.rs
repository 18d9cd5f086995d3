// SPDX-License-Identifier: GPL-2.0
//! Control: correct use of the same APIs, which must compile.
// expect: ok
use core::marker::PhantomPinned;
use kernel::cpu::CpuId;
use kernel::percpu::pinned::{possible_cpus, PinnedPerCpu};
use kernel::prelude::*;
use kernel::sched::{
    ffi,
    group::{self, TaskGroup},
    RqLocked, TreeEntity,
};

/// The earliest deadline in the tree, found by walking it; and `curr`'s fields.
pub fn walk(rq: *mut ffi::rq, cfs_rq: *mut ffi::cfs_rq) -> (u64, u64) {
    // SAFETY: The contract of the entry point.
    let locked = unsafe { RqLocked::assume_held(rq) };
    // SAFETY: As above.
    let cfs = unsafe { locked.cfs_rq(cfs_rq) };
    let mut node: Option<&TreeEntity> = cfs.root();
    let mut last = 0;
    while let Some(se) = node {
        last = se.deadline().min(se.min_vruntime());
        node = se.left().or(se.right());
    }
    let llc = locked.llc().nr_llc_running();
    (
        last,
        cfs.curr().map_or(u64::from(llc), |curr| curr.vruntime()),
    )
}

/// A type that must not move.
#[pin_data]
pub struct Pinned {
    v: u64,
    #[pin]
    _pin: PhantomPinned,
}

/// Per-CPU allocations, used as intended.
pub fn percpu(cpu: CpuId) -> Result<u64> {
    let mut counters = PinnedPerCpu::<u64>::new(GFP_KERNEL)?;
    if let Some(v) = counters.get_mut(cpu) {
        *v += 1;
    }
    let pinned = PinnedPerCpu::<Pinned>::try_pin_init(
        |cpu| {
            kernel::try_pin_init!(Pinned {
                v: u64::from(cpu.as_u32()),
                _pin: PhantomPinned
            })
        },
        GFP_KERNEL,
    )?;
    let n = possible_cpus().count();
    Ok(counters.iter().map(|(_, &v)| v).sum::<u64>()
        + pinned.get(cpu).map_or(0, |p| p.v)
        + n as u64)
}

/// A new group's fair-scheduler part, built the only way there is, below its parent.
pub fn group(tg: *mut ffi::task_group, parent: *mut ffi::task_group) -> Result {
    // SAFETY: The contract of the entry point: `tg` is under creation below `parent`.
    unsafe { group::alloc_state(tg, parent, GFP_KERNEL) }
}

/// The group entity of a group on a CPU.
pub fn group_se(tg: &TaskGroup, cpu: CpuId) -> bool {
    tg.se(cpu).is_some()
}
