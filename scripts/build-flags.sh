#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The flags that decide a built kernel's code for the pieces, read from the
# build itself (the saved compiler commands of kernel/sched/rust/ and the
# .config), never typed in: C optimisation level and mitigations of fair.c,
# Rust opt-level, code-generation flags and target features of the crate,
# compiler versions, and the distribution-kernel options.
#   scripts/build-flags.sh [flavour]      (default: bench)

. "$(dirname "$0")/common.sh"

flavour=${1:-bench}
B=$(bdir "$flavour")
[ -f "$B/.config" ] || die "no $B/.config: build the $flavour kernel first"
ccmd=$B/kernel/sched/.fair.bc.cmd
[ -f "$ccmd" ] || ccmd=$B/kernel/sched/.fair.o.cmd
rcmd=$B/kernel/sched/rust/.sched_rust.o.cmd
[ -f "$ccmd" ] && [ -f "$rcmd" ] || die "no saved command for fair.c or the sched_rust crate in $B"

conf() { sed -n "s/^CONFIG_$1=//p" "$B/.config" | tr -d '"'; }
on() { grep -q "^CONFIG_$1=y" "$B/.config" && echo on || echo off; }
# Words of a saved command matching a pattern, in order, once each. The
# Rust command ends where Kbuild's clang step for the crate's object begins.
words() { tr ' ' '\n' < "$1" | grep -E "$2" | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//'; }
rust_words() { sed 's/;llvm-link.*//' "$rcmd" | tr ' ' '\n' | grep -E "$1" | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//'; }

opt=$(words "$ccmd" '^-O[0-3sz]$' | awk '{ print $NF }')
c_mitig=$(words "$ccmd" '^-m(function-return|retpoline|indirect-branch|harden-sls|branch-protection|sign-return-address)|^-f(no-)?stack-protector|^-fpatchable-function-entry|^-fcf-protection')
r_opt=$(rust_words '^-Copt-level=' | awk '{ print $NF }')
r_mitig=$(rust_words '^-Zfunction-return|^-Zpatchable-function-entry|^-Zcf-protection|^-Zbranch-protection|^-Coverflow-checks|^-Cdebug-assertions')
if [ "$KARCH" = x86_64 ]; then
	features=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("features", ""))' \
		"$B/scripts/target.json" 2>/dev/null || echo "?")
else
	# arm64 uses rustc's built-in target, with its features on the command line.
	features="$(rust_words '^--target=' | sed 's/--target=//' || true) $(rust_words '^-Ctarget-feature=' | sed 's/-Ctarget-feature=//g' || true)"
fi

echo "flavour:  $flavour ($(conf CC_VERSION_TEXT); $(conf RUSTC_VERSION_TEXT))"
echo "C:        fair.c at ${opt:-?}; ${c_mitig:-no mitigation flags}"
echo "Rust:     sched_rust at ${r_opt:-?}; ${r_mitig:-no mitigation flags}; target features $features"
if [ "$KARCH" = arm64 ]; then
	echo "config:   arm64, optimise $( [ "$(on CC_OPTIMIZE_FOR_PERFORMANCE)" = on ] && echo performance || echo size)," \
		"stack protector strong $(on STACKPROTECTOR_STRONG), pointer authentication $(on ARM64_PTR_AUTH_KERNEL)," \
		"BTI $(on ARM64_BTI_KERNEL), preempt dynamic $(on PREEMPT_DYNAMIC), HZ $(conf HZ)," \
		"Rust overflow checks $(on RUST_OVERFLOW_CHECKS), cross-language inlining $(on SCHED_RUST_CFS_INLINE)"
	exit 0
fi
echo "config:   optimise $( [ "$(on CC_OPTIMIZE_FOR_PERFORMANCE)" = on ] && echo performance || echo size)," \
	"unwinder $( [ "$(on UNWINDER_ORC)" = on ] && echo ORC || { [ "$(on UNWINDER_FRAME_POINTER)" = on ] && echo frame-pointer || echo guess; })," \
	"stack protector strong $(on STACKPROTECTOR_STRONG), retpoline $(on MITIGATION_RETPOLINE)," \
	"return thunk $(on MITIGATION_RETHUNK), call depth tracking $(on MITIGATION_CALL_DEPTH_TRACKING)," \
	"SLS $(on MITIGATION_SLS), IBT $(on X86_KERNEL_IBT), preempt dynamic $(on PREEMPT_DYNAMIC), HZ $(conf HZ)," \
	"Rust overflow checks $(on RUST_OVERFLOW_CHECKS), cross-language inlining $(on SCHED_RUST_CFS_INLINE)"
