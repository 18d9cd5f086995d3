#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build a kernel from the overlaid tree, out of tree.
#   scripts/build.sh prod    the kernel users run (make): CONFIG_SCHED_RUST_CFS=y
#                 without its debug option, configured like a distribution
#                 kernel (configs/distro.config: -O2, ORC, stack protector,
#                 retpoline and return thunks, dynamic preemption, hotplug)
#   scripts/build.sh off     the production configuration with
#                 CONFIG_SCHED_RUST_CFS=n: 7.3.4 plus the series' C patches
#                 (make bench-prod's C kernel)
#   scripts/build.sh stock   the same configuration from the pristine 7.3.4
#                 tree, nothing of the series (make bench-prod's baseline)
#   scripts/build.sh outline the prod kernel with CONFIG_SCHED_RUST_CFS_INLINE
#                 off: fair.o calls the Rust pieces across the language
#                 boundary, their C helpers still inlined into the Rust
#                 (RUST_INLINE_HELPERS); a kernel built with GCC or with a
#                 rustc on another LLVM calls the helpers out of line too
#                 (make bench-prod's fourth kernel)
#   scripts/build.sh gcc-prod, gcc-off  prod and off built by Debian 12's GCC
#                 and binutils (KCC=gcc in kmake), the Rust by the pinned
#                 rustc, bindgen on libclang: a distribution's toolchain. No
#                 cross-language inlining (it needs clang): fair.o calls the
#                 Rust pieces, and the crate its C helpers, out of line
#                 (make bench-prod's GCC pair; x86_64)
#   scripts/build.sh off+<shape>, gcc-off+<shape>  off (gcc-off) built from
#                 $CACHE/src/off+<shape>: the work tree hard-linked, its
#                 kernel/sched/fair.c with evaluation/bench/shapes/<shape>.patch
#                 applied (shape_tree in scripts/common.sh; dies when the
#                 shape does not exist or does not apply): a C form of the
#                 Rust's code, make bench-prod's variant kernels
#                 (BENCH_PROD_KERNELS="stock off prod off+one-entity-select")
#   scripts/build.sh bench   the evaluation kernel of make bench: the same
#                 configuration plus the C twins, the runtime switch, the
#                 statistics, the benchmarks and the KUnit suites
#                 (configs/eval.config, configs/kunit.config)
#   scripts/build.sh size    the bench kernel without the distribution options:
#                 tinyconfig's -Os (make bench BENCH_CONFIG=size)
#   scripts/build.sh test    the evaluation kernel plus lockdep, UBSAN and Rust
#                 debug checks (make test)
#   scripts/build.sh test-kasan  the test kernel plus KASAN and kmemleak
#   scripts/build.sh prod-fault  the prod kernel plus fault injection and the
#                 hung-task detector (configs/fault.config): make stress
#                 FLAVOUR=prod
#   scripts/build.sh rustmin  the test configuration's Rust code and fair.c
#                 only (kernel/sched/rust/), for the kernel's minimum rustc
# ARCH=arm64 builds the prod, test or bench flavour for arm64 (QEMU virt).
# V=1 shows the kernel's verbose build output (otherwise in build.log).
# Output: $CACHE/build-<flavour>/arch/x86/boot/bzImage,
#         $CACHE/build-arm64-<flavour>/arch/arm64/boot/Image

. "$(dirname "$0")/common.sh"

flavour=${1:?usage: build.sh prod|prod-fault|off|stock|outline|gcc-prod|gcc-off|off+<shape>|gcc-off+<shape>|bench|size|test|test-kasan|rustmin}
case $flavour in gcc-*) export KCC=gcc ;; esac
# A shape variant (off+<shape>, gcc-off+<shape>) is its base flavour, off or
# gcc-off, in every respect but its tree.
shape=$(shape_of "$flavour")
base=$flavour
case $flavour in
off+?*|gcc-off+?*)	base=${flavour%%+*} ;;
*+*)	die "$flavour: a shape variant is off+<shape> or gcc-off+<shape>" ;;
esac
B=$(bdir "$flavour")
# configs/distro.config is x86_64's (retpolines, return thunks, ORC), arm64
# has configs/distro-arm64.config.
distro=distro
[ "$KARCH" = x86_64 ] || distro=distro-$KARCH
case $base in
prod|off|stock|outline|gcc-prod|gcc-off)	frags="base $KARCH $distro" ;;
prod-fault)	frags="base $KARCH $distro fault" ;;
bench)	frags="base $KARCH eval kunit $distro" ;;
size)	frags="base $KARCH eval kunit" ;;
test)	frags="base $KARCH eval kunit debug" ;;
test-kasan)	frags="base $KARCH eval kunit debug kasan" ;;
rustmin)	frags="base $KARCH eval kunit debug" ;;
*)	die "unknown flavour $flavour" ;;
esac
[ "$KARCH" = x86_64 ] || case $base in test|prod|prod-fault|off|stock|outline|bench|rustmin) ;; *)
	die "ARCH=$KARCH builds the prod, prod-fault, off, off+<shape>, stock, outline, test and bench flavours only, not $flavour" ;; esac
# The stock kernel is built from the pristine tree, which has no
# CONFIG_SCHED_RUST_CFS at all; a shape variant from its own tree, made
# again from the work tree now.
if [ -n "$shape" ]; then
	shape_tree "$shape"
	log "$flavour: the $base kernel from $(flavour_tree "$flavour") (evaluation/bench/shapes/$shape.patch applied)"
fi
WORK=$(flavour_tree "$flavour")
mkdir -p "$B"

want=$B/.config.want
for f in $frags; do
	cat "$TOP/configs/$f.config"
done > "$want"
case $base in
off|gcc-off)	echo CONFIG_SCHED_RUST_CFS=n ;;
outline)	echo CONFIG_SCHED_RUST_CFS_INLINE=n ;;
stock)	sed -i '/^CONFIG_SCHED_RUST_CFS/d' "$want" ;;
esac >> "$want"
[ -n "${KCONFIG_EXTRA:-}" ] && printf '%s\n' $KCONFIG_EXTRA >> "$want"

# Reconfigure only when the requested fragment changed: a new .config makes
# make rebuild everything that depends on a changed symbol.
if ! cmp -s "$want" "$B/.config.done" 2>/dev/null || [ ! -f "$B/.config" ]; then
	log "configuring $flavour: tinyconfig + $frags"
	kmake O="$B" tinyconfig >/dev/null
	# A later fragment overriding an earlier one (distro's NR_CPUS over
	# base's) is intended: merge_config's warning about it is left out.
	(cd "$WORK" && ./scripts/kconfig/merge_config.sh -m -O "$B" "$B/.config" "$want" >/dev/null) \
		2> >(grep -v 'override: reassigning to symbol' >&2)
	kmake O="$B" olddefconfig >/dev/null
	missing=
	while IFS= read -r line; do
		# Needs a rustc whose LLVM is clang's: without it the build falls
		# back to calls across the language boundary (said below).
		[ "$line" = CONFIG_RUST_INLINE_HELPERS=y ] &&
			! grep -q '^CONFIG_RUSTC_CLANG_LLVM_COMPATIBLE=y' "$B/.config" && continue
		case $line in
		CONFIG_*=n) grep -qx "# ${line%=n} is not set" "$B/.config" || missing="$missing $line" ;;
		CONFIG_*) grep -qx "$line" "$B/.config" || missing="$missing $line" ;;
		esac
	# A later fragment's value of a symbol overrides an earlier one's, as
	# in merge_config.sh: only the last line of each symbol is checked.
	done < <(awk '/^CONFIG_/ { s = $0; sub(/=.*/, "", s); last[s] = $0; if (!(s in seen)) { seen[s] = 1; order[++n] = s } }
		END { for (i = 1; i <= n; i++) print last[order[i]] }' "$want")
	if [ -n "$missing" ]; then
		kmake O="$B" rustavailable || true
		fail "requested config options did not survive olddefconfig:$missing"
	fi
	# The kernel users run has none of the evaluation aids: a symbol
	# that a default or a select turned on would make "make" boot and
	# measure something else.
	if case $base in prod|off|outline|gcc-prod|gcc-off) true ;; *) false ;; esac; then
		on=$(grep -oE '^CONFIG_(SCHED_RUST_CFS_[A-Z_]+|KUNIT)=y' "$B/.config" |
			grep -v '^CONFIG_SCHED_RUST_CFS_INLINE=y' || true)
		[ -z "$on" ] || fail "$flavour: evaluation options on in the production configuration: $(echo $on)"
	fi
	cp "$want" "$B/.config.done"
fi

if grep -q '^CONFIG_SCHED_RUST_CFS_INLINE=y' "$B/.config"; then
	log "cross-language inlining on: fair.c and the Rust crate are compiled as one LLVM module (rustc LLVM $(sed -n 's/^CONFIG_RUSTC_LLVM_VERSION=//p' "$B/.config") = clang $(sed -n 's/^CONFIG_CLANG_VERSION=//p' "$B/.config"))"
elif grep -q '^CONFIG_SCHED_RUST_CFS=y' "$B/.config"; then
	why="switched off in the configuration"
	if grep -q '^CONFIG_CC_IS_GCC=y' "$B/.config"; then
		why="a GCC build: it needs clang"
	elif ! grep -q '^CONFIG_RUSTC_CLANG_LLVM_COMPATIBLE=y' "$B/.config"; then
		why="rustc's LLVM ($(sed -n 's/^CONFIG_RUSTC_LLVM_VERSION=//p' "$B/.config")) is not clang's ($(sed -n 's/^CONFIG_CLANG_VERSION=//p' "$B/.config")); use the pinned rustc"
	fi
	log "WARNING: cross-language inlining off (CONFIG_SCHED_RUST_CFS_INLINE unset: $why): fair.c calls the Rust pieces across the language boundary"
fi
log "building $flavour kernel in $B (log: $B/build.log)"
rc=0
(
	# A line every 30 s so that a long build is never silent.
	while sleep 30; do
		log "  ... $(grep -c '^  [A-Z]' "$B/build.log" 2>/dev/null) steps, last: $(tail -n1 "$B/build.log" 2>/dev/null | cut -c1-80)"
	done
) 9>&- &
ticker=$!
targets=$(basename "$KIMAGE")
[ "$flavour" = rustmin ] && targets="kernel/sched/rust/ kernel/sched/fair.o"
# The production flavours (those make bench-prod measures) get line tables
# for fair.o and the sched_rust crate only, so that scripts/routes.py can
# name the instructions of each route in the kernel measured: debug
# information does not change the code (clang's -gline-tables-only, GCC's
# -g1, rustc's line-tables-only; scripts/check-lines.sh compares the
# executable sections with a build without them). x86_64 only: arm64's
# kernel/sched/rust/Makefile sets RUSTFLAGS_sched_rust.o itself.
lines=()
case $base in prod|off|stock|outline|gcc-prod|gcc-off)
	if [ "$KARCH" = x86_64 ]; then
		g=-gline-tables-only
		[ "${KCC:-clang}" = gcc ] && g=-g1
		lines=("CFLAGS_fair.o=$g" "RUSTFLAGS_sched_rust.o=-Cdebuginfo=line-tables-only")
	fi ;;
esac
if [ "${V:-0}" != 0 ]; then
	# V=1: the kernel's verbose build on the terminal as well as in the log.
	kill $ticker 2>/dev/null
	kmake O="$B" -j"$(nproc)" V="$V" "${lines[@]}" $targets 2>&1 | tee "$B/build.log" >&2 || rc=$?
else
	kmake O="$B" -j"$(nproc)" "${lines[@]}" $targets > "$B/build.log" 2>&1 || rc=$?
fi
kill $ticker 2>/dev/null
wait $ticker 2>/dev/null || true
if [ $rc != 0 ]; then
	grep -E 'error|Error|warning:' "$B/build.log" | head -n 40 >&2
	tail -n 20 "$B/build.log" >&2
	fail "kernel build failed (full log: $B/build.log)"
fi
# Warnings in this project's files fail the build. An out-of-tree build
# prints source paths with the absolute srctree ($WORK/...), clang puts the
# path on the warning line, rustc on the " --> " line after it.
ours='(^|[ /])(kernel/sched/(rust|tests)/|rust/kernel/sched/|kernel/sched/fair\.c)'
if grep -E "$ours" "$B/build.log" | grep -E 'warning:| --> ' >/dev/null; then
	grep -B6 -A8 -E 'warning:' "$B/build.log" | head -n 80 >&2
	fail "warnings in the project's files (full log: $B/build.log)"
fi
# objtool also checks vmlinux.o (IBT, noinstr), where a warning names a
# function, not a file: a warning about a function of the project's objects
# fails too (the merged fair.o holds fair.c's functions and the Rust ones).
if [ "$flavour" != rustmin ] && grep -q 'warning: objtool:' "$B/build.log"; then
	mine=$(for o in kernel/sched/rust/debug/switch.o kernel/sched/fair.o; do
		[ -f "$B/$o" ] && llvm-nm$LLVM_SUFFIX --defined-only "$B/$o" | awk '$2 ~ /^[tT]$/ { print $3 }'
	done | sort -u)
	bad=$(grep 'warning: objtool:' "$B/build.log" |
		sed -n 's/.*warning: objtool: \([A-Za-z0-9_.]*\)[+(].*/\1 &/p' |
		while read -r f line; do grep -qx "$f" <<< "$mine" && echo "$line"; done)
	if [ -n "$bad" ]; then
		echo "$bad" >&2
		fail "objtool warnings in functions of fair.c or the Rust pieces (full log: $B/build.log)"
	fi
	log "objtool warnings outside this project's code: $(grep -c 'warning: objtool:' "$B/build.log")"
fi
log "built $targets of $(cat "$B/include/config/kernel.release") with $(rustc --version)"
