// SPDX-License-Identifier: GPL-2.0

//! The scheduler's private structures, for this module only.
//!
//! C header: [`kernel/sched/rust/sched_bindings.h`](srctree/kernel/sched/rust/sched_bindings.h)
//!
//! bindgen generates what this module uses alone (`rust/Makefile`): `struct rq`, `cfs_rq`,
//! `cfs_tg_state` and `task_group`, the private structures they embed as opaque ones (size and
//! alignment only), `runqueues`, `root_task_group`, `NICE_0_LOAD` and `task_llc()`, not
//! recursively: the types they use from the rest of the kernel are the global bindings', which
//! this module re-exports, so that a `list_head` or a `sched_entity` is one type everywhere.
//! The fields the abstractions use are listed at the end of this file with their types, checked
//! when the kernel is built. The global bindings see only `kernel/sched/rust/sched_rust.h`, the
//! prototypes of the entry points, where `struct rq`, `struct cfs_rq` and `struct task_group`
//! are opaque: the abstractions take those (`super::ffi`) from C and cast them to the types
//! defined here.

#![allow(
    clippy::all,
    clippy::as_ptr_cast_mut,
    clippy::as_underscore,
    clippy::cast_lossless,
    clippy::ptr_as_ptr,
    clippy::ptr_cast_constness,
    clippy::ref_as_ptr,
    clippy::undocumented_unsafe_blocks,
    dead_code,
    improper_ctypes,
    missing_docs,
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    unreachable_pub,
    unsafe_op_in_unsafe_fn,
    unused_imports
)]
#![cfg_attr(not(CONFIG_RUSTC_HAS_UNNECESSARY_TRANSMUTES), allow(unknown_lints))]
#![allow(unnecessary_transmutes)]

pub(crate) use crate::bindings::*;
use pin_init::{MaybeZeroable, Zeroable};

// The generated module defines its own `__BindgenBitfieldUnit` in every configuration
// (`struct sched_rust_bindgen_bitfield` in `sched_bindings.h`), so this impl is never one of a
// foreign type.
//
// SAFETY: `__BindgenBitfieldUnit<Storage>` is a newtype around `Storage`, as in the global
// bindings.
unsafe impl<Storage> Zeroable for __BindgenBitfieldUnit<Storage> where Storage: Zeroable {}

include!(concat!(
    env!("OBJTREE"),
    "/rust/kernel/sched_bindings_generated.rs"
));

// The fields of the scheduler's private structures that `kernel::sched` uses, each with the type
// it is used at: a field renamed, removed or retyped in `kernel/sched/sched.h` fails the build on
// the line that names it, and a change to any other field does not.
const _: () = {
    use crate::ffi::{c_uint, c_ulong};

    fn rq_fields(v: &rq) {
        let _: &cfs_rq = &v.cfs;
        let _: &*mut sched_domain = &v.sd;
        #[cfg(CONFIG_SCHED_CACHE)]
        let _: &c_uint = &v.nr_llc_running;
        #[cfg(CONFIG_SCHED_CACHE)]
        let _: &c_uint = &v.nr_pref_llc_running;
        #[cfg(CONFIG_SCHED_CACHE)]
        let _: &u64_ = &v.cpu_runtime;
        #[cfg(CONFIG_SCHED_CACHE)]
        let _: &c_ulong = &v.cpu_epoch;
        #[cfg(CONFIG_SCHED_CACHE)]
        let _: &c_ulong = &v.cpu_epoch_next;
    }

    fn cfs_rq_fields(v: &cfs_rq) {
        let _: &rb_root_cached = &v.tasks_timeline;
        let _: &*mut sched_entity = &v.curr;
        let _: &*mut sched_entity = &v.next;
        let _: &s64 = &v.sum_w_vruntime;
        let _: &u64_ = &v.sum_weight;
        let _: &u64_ = &v.zero_vruntime;
        let _: &c_uint = &v.sum_shift;
        let _: &c_uint = &v.h_nr_queued;
        #[cfg(CONFIG_FAIR_GROUP_SCHED)]
        let _: &*mut task_group = &v.tg;
        #[cfg(CONFIG_FAIR_GROUP_SCHED)]
        let _: &*mut rq = &v.rq;
    }

    #[cfg(CONFIG_FAIR_GROUP_SCHED)]
    fn task_group_fields(v: &task_group) {
        let _: &*mut cfs_rq = &v.cfs_rq;
        let _: &c_ulong = &v.shares;
    }

    #[cfg(CONFIG_FAIR_GROUP_SCHED)]
    fn cfs_tg_state_fields(v: &cfs_tg_state) {
        let _: &cfs_rq = &v.cfs_rq;
        let _: &sched_entity = &v.se;
        let _: &sched_statistics = &v.stats;
    }
};
