#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-native: make bench's in-kernel microbenchmarks timed on the host
# CPU. A User-Mode Linux kernel (configs/native.config: x86_64 host, the
# debug and bench options, a static binary) boots with a host directory as
# its root file system (busybox and tests/bench/native/init); the guest runs
# the benchmarks NATIVE_REPS times (20) and prints every batch's time, and
# boots again for more reps until every Rust/C interval is narrower than
# +-1 % or NATIVE_MAX_REPS (1000) have run;
# tests/bench/native/run.sh boots it pinned to one host CPU and
# scripts/bench-native-report.py turns the batches into ratios with their
# 95 % intervals, beside make bench's instruction ratios.
#   scripts/bench-native.sh           build, run, report
#   scripts/bench-native.sh bundle    also write $CACHE/bench-native.tar.gz:
#                                     the kernel, the root and the runner
#   scripts/bench-native.sh readme    the last run's results and report into
#                                     tests/bench/results-native/
# Output: $CACHE/bench-native/ (the bundle's tree and the results file).
# Exit: 0, 1 the guest failed a step, 2 the harness or the environment.

. "$(dirname "$0")/common.sh"

[ "$(uname -m)" = x86_64 ] || die "bench-native needs an x86_64 host (UML runs on the host's architecture)"
stage -e setup "$TOP/scripts/setup.sh"
stage -e fetch "$TOP/scripts/fetch-kernel.sh"
stage overlay "$TOP/scripts/overlay.sh"

B=$CACHE/build-native
D=$CACHE/bench-native
# The UML kernel's tree: the work tree hard-linked (the same files, no
# copy), but for lib/Kconfig.debug, whose RUST_INLINE_HELPERS excludes UML.
# Without it every C helper the Rust calls (each atomic access among them)
# is an out-of-line call on UML where C inlines its own, and
# CONFIG_SCHED_RUST_CFS_INLINE, which depends on it, is off: the comparison
# would not be x86_64's. With it the UML kernel has x86_64's cross-language
# inlining. And arch/x86/um/Kconfig, whose X86_64 does not select
# ARCH_SUPPORTS_INT128 as arch/x86/Kconfig does (under the same condition):
# without it both sides' eligibility tests take their check_mul_overflow()
# path, a conditional branch or select per test that x86_64's 128-bit
# product does not have, and the times would not be x86_64's code's.
NW=$CACHE/src/native-work
native_tree() {
	rm -rf "$NW"
	cp -al "$WORK" "$NW"
	rm -f "$NW/lib/Kconfig.debug" "$NW/arch/x86/um/Kconfig"
	awk '/^config RUST_INLINE_HELPERS$/ { on = 1 } /^config / && !/RUST_INLINE_HELPERS/ { on = 0 }
		on && /^\tdepends on !UML$/ { next } { print }' "$WORK/lib/Kconfig.debug" > "$NW/lib/Kconfig.debug"
	awk '{ print } /^config X86_64$/ { print "\tselect ARCH_SUPPORTS_INT128 if CC_HAS_INT128" }' \
		"$WORK/arch/x86/um/Kconfig" > "$NW/arch/x86/um/Kconfig"
	touch -r "$WORK/lib/Kconfig.debug" "$NW/lib/Kconfig.debug"
	touch -r "$WORK/arch/x86/um/Kconfig" "$NW/arch/x86/um/Kconfig"
	! cmp -s "$WORK/lib/Kconfig.debug" "$NW/lib/Kconfig.debug" ||
		die "lib/Kconfig.debug: no 'depends on !UML' under RUST_INLINE_HELPERS to drop"
	! cmp -s "$WORK/arch/x86/um/Kconfig" "$NW/arch/x86/um/Kconfig" ||
		die "arch/x86/um/Kconfig: no 'config X86_64' to select ARCH_SUPPORTS_INT128 under"
}
mkdir -p "$B"
cc=/usr/lib/ccache/clang$LLVM_SUFFIX
[ -x "$cc" ] || cc=clang$LLVM_SUFFIX
# UML links with the host's ld; llvm-objcopy refuses the static binary's
# .rela.plt ("Link field value ... is not a symbol table"): binutils' objcopy.
# UML's include directories are in KBUILD_CFLAGS, which the Rust helpers'
# bitcode link compiles a .bc with: clang's -Werror on unused arguments
# would refuse it (KCFLAGS comes last and turns that warning off).
umake() {
	make -C "$NW" O="$B" ARCH=um LLVM=$LLVM_SUFFIX CC="$cc" HOSTCC="$cc" OBJCOPY=objcopy \
		KCFLAGS=-Wno-unused-command-line-argument "$@"
}

build() {
	if ! cmp -s "$TOP/configs/native.config" "$B/.config.done"; then
		umake x86_64_defconfig > /dev/null
		(cd "$NW" && ARCH=um ./scripts/kconfig/merge_config.sh -m -O "$B" "$B/.config" \
			"$TOP/configs/native.config" > /dev/null) 2> >(grep -v 'override: reassigning' >&2)
		umake olddefconfig > /dev/null
		local line missing=
		while IFS= read -r line; do
			case $line in
			CONFIG_*=n) grep -qx "# ${line%=n} is not set" "$B/.config" || missing="$missing $line" ;;
			CONFIG_*) grep -qx "$line" "$B/.config" || missing="$missing $line" ;;
			esac
		done < <(grep '^CONFIG_' "$TOP/configs/native.config")
		[ -z "$missing" ] || die "configs/native.config: did not survive olddefconfig:$missing"
		cp "$TOP/configs/native.config" "$B/.config.done"
	fi
	log "building the UML kernel in $B (log: $B/build.log)"
	umake -j"$(nproc)" linux > "$B/build.log" 2>&1 || { tail -n 30 "$B/build.log" >&2; die "the UML build failed"; }
	file -L "$B/linux" | grep -q 'statically linked' || die "$B/linux is not statically linked"
}

tree() {
	rm -rf "$D/root"
	mkdir -p "$D/root/bin" "$D/root/proc" "$D/root/sys" "$D/root/dev" "$D/root/tmp"
	command -v busybox > /dev/null || die "no busybox (Debian: busybox-static)"
	cp "$(command -v busybox)" "$D/root/bin/busybox"
	file -L "$D/root/bin/busybox" | grep -q 'statically linked' || die "busybox is not static (Debian: busybox-static)"
	# The guest's tools, and the runner's on a host that lacks them.
	for t in sh mount grep sed cat uname poweroff awk mktemp date cut tail head rm; do
		ln -s busybox "$D/root/bin/$t"
	done
	install -m 755 "$TOP/tests/bench/native/init" "$D/root/init"
	install -m 755 "$TOP/tests/bench/native/run.sh" "$D/run.sh"
	cp "$B/linux" "$D/linux"
}

res=$D/results.txt
report() {
	/usr/bin/python3 "$TOP/scripts/bench-native-report.py" "$res" \
		"$TOP/tests/bench/results/report.txt" > "$D/report.txt" || return
	cat "$D/report.txt"
}
if [ "${1:-}" = readme ]; then
	[ -f "$res" ] || die "no results in $res: run make bench-native first"
	R=$TOP/tests/bench/results-native
	mkdir -p "$R"
	rm -f "$R/results.txt"
	/usr/bin/python3 "$TOP/scripts/bench-native-report.py" --reduce "$res" "$R/results.txt.gz"
	report > /dev/null || fail "the report failed on $res"
	cp "$D/report.txt" "$R/report.txt"
	# The kept medians give the same table.
	/usr/bin/python3 "$TOP/scripts/bench-native-report.py" "$R/results.txt.gz" \
		"$TOP/tests/bench/results/report.txt" | cmp -s - "$R/report.txt" ||
		fail "$R/results.txt.gz does not give the report's figures"
	{
		echo "# make bench-native: time per call on a real CPU"
		echo
		echo "Command: \`make bench-native\` ($(awk '$2 == "raw" { r[$3] = 1 } END { print length(r) }' "$res") reps),"
		echo "then \`make bench-readme-native\`. Each rep's median batch per case and side (the report's"
		echo "input; the cache keeps every batch): [results.txt.gz](results.txt.gz)."
		echo "The instruction ratios (icount) are make bench's, from"
		echo "[../results/report.txt](../results/report.txt): x86_64's bench kernel under QEMU. Both"
		echo "kernels' eligibility tests take the 128-bit product (bench-native selects"
		echo "ARCH_SUPPORTS_INT128 for UML's x86_64, as arch/x86 does)."
		echo
		echo "Each case calls one function out of line in a loop, the same loop for both sides, on the"
		echo "same prepared state (kernel/sched/rust/debug/fair_bench.c); ns C and ns Rust are the medians"
		echo "over the reps of the time per call minus the empty loop's; ratio is Rust/C (stock_ rows:"
		echo "fair.c's C over 7.3.4's stock C; dispatch_ rows: through the debug option's switch;"
		echo "control_ rows: a copy of fair.c's C, the same source at another address, over fair.c's C), the"
		echo "geometric mean of the reps' ratios with its 95 % t interval; the last column is the TOST"
		echo "verdict against a 2 % margin. The guest has one CPU (UML's SMP needs its seccomp mode; see"
		echo "tests/bench/native/run.sh) and inlines the Rust's C helpers as x86_64 does."
		echo
		echo '```'
		cat "$D/report.txt"
		echo '```'
	} > "$R/README.md"
	log "wrote $R"
	exit 0
fi
stage "UML tree" native_tree
stage build build
stage tree tree
rm -f "$res"
stage run env RESULTS="$res" "$D/run.sh" "${NATIVE_REPS:-20}"
# More reps, in further boots, until every Rust/C case's 95 % interval is
# narrower than +-1 % or NATIVE_MAX_REPS (1000) reps have run.
more() {
	local have need n
	have=${NATIVE_REPS:-20}
	while :; do
		need=$(/usr/bin/python3 "$TOP/scripts/bench-native-report.py" --need "$res") || return 2
		[ "$need" -le "$have" ] && break
		[ "$have" -ge "${NATIVE_MAX_REPS:-1000}" ] && { log "stopping at $have reps (NATIVE_MAX_REPS): the widest case needs $need"; break; }
		n=$(( need - have ))
		[ $(( have + n )) -le "${NATIVE_MAX_REPS:-1000}" ] || n=$(( ${NATIVE_MAX_REPS:-1000} - have ))
		log "$have reps: the widest Rust/C interval needs $need: $n more"
		RESULTS="$res" APPEND=1 REP_BASE=$have "$D/run.sh" "$n" > /dev/null || return
		have=$(( have + n ))
	done
}
stage "more reps" more
stage report report
if [ "${1:-}" = bundle ]; then
	rm -f "$D/results-"*.txt
	tar -C "$CACHE" -czf "$CACHE/bench-native.tar.gz" \
		bench-native/linux bench-native/root bench-native/run.sh
	log "bundle: $CACHE/bench-native.tar.gz ($(du -h "$CACHE/bench-native.tar.gz" | cut -f1)): tar xzf it anywhere, run bench-native/run.sh"
fi
