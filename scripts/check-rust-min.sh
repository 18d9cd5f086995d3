#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the project's Rust code (and fair.c, with which it is compiled as one
# module) with the kernel's minimum rustc, from scripts/min-tool-version.sh
# (1.85.0 for 7.3), in its own build directory: kernel code must build with
# the minimum toolchain, not only with the pinned one.

. "$(dirname "$0")/common.sh"

"$TOP/scripts/fetch-kernel.sh"
"$TOP/scripts/overlay.sh"
min=$(cd "$WORK" && SRCARCH=x86 ./scripts/min-tool-version.sh rustc)
[ -n "$min" ] || die "no minimum rustc in $WORK/scripts/min-tool-version.sh"
export RUST_TOOLCHAIN=$min RUSTUP_TOOLCHAIN=$min
"$TOP/scripts/setup.sh"
log "building kernel/sched/rust/ and kernel/sched/fair.o with the minimum rustc: $(rustc --version)"
"$TOP/scripts/build.sh" rustmin
log "check-rust-min: PASS (rustc $min)"
