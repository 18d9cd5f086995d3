// SPDX-License-Identifier: GPL-2.0

//! The scheduler's private structures, for this module only.
//!
//! C header: [`kernel/sched/rust/sched_bindings.h`](srctree/kernel/sched/rust/sched_bindings.h)
//!
//! bindgen generates the items defined in the headers of `kernel/sched/` (`rust/Makefile`), not
//! recursively: the types they use from the rest of the kernel are the global bindings', which
//! this module re-exports, so that a `list_head` or a `sched_entity` is one type everywhere. The
//! global bindings see only `kernel/sched/rust/sched_rust.h`, the prototypes of the entry
//! points, where `struct rq`, `struct cfs_rq` and `struct task_group` are opaque: the
//! abstractions take those (`super::ffi`) from C and cast them to the types defined here.

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

// SAFETY: `__BindgenBitfieldUnit<Storage>` is a newtype around `Storage`, as in the global
// bindings.
unsafe impl<Storage> Zeroable for __BindgenBitfieldUnit<Storage> where Storage: Zeroable {}

include!(concat!(
    env!("OBJTREE"),
    "/rust/kernel/sched_bindings_generated.rs"
));
