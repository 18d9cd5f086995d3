#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The two top-level jobs, each a sequence of timed stages:
#   run.sh main   set up, fetch, overlay, build the main kernel, boot it
#   run.sh test   set up, fetch, overlay, build the debug test kernel, boot it:
#                 KUnit suites at boot + the cgroup workload, checked
#   run.sh test-kasan  the same with KASAN and kmemleak added

. "$(dirname "$0")/common.sh"

job=${1:?usage: run.sh main|test|test-kasan|build-main|check-inline}
S=$TOP/scripts

versions() {
	log "toolchain: $(rustc --version), $(bindgen --version 2>/dev/null), $(clang$LLVM_SUFFIX --version | head -n1), $(qemu-system-x86_64 --version | head -n1)"
}

stage "set up toolchain" "$S/setup.sh"
versions
stage "kernel source" "$S/fetch-kernel.sh"
log "kernel source: $(make -s -C "$PRISTINE" kernelversion) ($(cat "$PRISTINE/.debian-version" 2>/dev/null || echo "KSRC=$KSRC"))"
stage "overlay" "$S/overlay.sh"
# Prints the toolchain's own message verbatim when Rust is not available.
stage "rustavailable" bash -c ". '$S/common.sh'; kmake -s rustavailable"
case $job in
build-main)
	stage "build main kernel" "$S/build.sh" main
	;;
main)
	stage "build main kernel" "$S/build.sh" main
	stage "check inlining" "$S/check-inline.sh" main
	stage "boot main kernel" "$S/boot.sh" main
	;;
check-inline)
	stage "build main kernel" "$S/build.sh" main
	stage "check inlining" "$S/check-inline.sh" main
	;;
test)
	stage "build test kernel" "$S/build.sh" test
	stage "check inlining" "$S/check-inline.sh" test
	stage "boot test kernel" "$S/boot.sh" test
	;;
test-kasan)
	stage "build test kernel with KASAN and kmemleak" "$S/build.sh" test-kasan
	stage "boot test kernel with KASAN and kmemleak" "$S/boot.sh" test-kasan
	;;
*)
	die "unknown job $job"
	;;
esac
log "total $(( $(date +%s) - _t0 ))s"
