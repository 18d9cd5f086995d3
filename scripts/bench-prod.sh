#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-prod: the production kernels head to head. Four kernels of one
# configuration (configs/base.config + <arch>.config + distro.config), each
# built as a user builds it:
#   stock  Debian's 7.3.4 source, nothing of the series, built with this
#          project's clang and configuration (not Debian's kernel: Debian
#          builds with GCC and its own configuration)
#   off    CONFIG_SCHED_RUST_CFS=n: 7.3.4 plus the series' C patches
#   prod   CONFIG_SCHED_RUST_CFS=y without the debug option: the Rust pieces,
#          inlined into fair.c (CONFIG_SCHED_RUST_CFS_INLINE: clang with a
#          rustc on clang's LLVM)
#   outline  prod with CONFIG_SCHED_RUST_CFS_INLINE off: fair.o calls the
#          Rust pieces across the language boundary, as every kernel built
#          with GCC or with a rustc on another LLVM does; built with clang,
#          so its C is not GCC's: for a GCC kernel it shows the cost of the
#          calls, not GCC's code around them
#   gcc-off, gcc-prod  off and prod built by Debian 12's GCC and binutils,
#          the Rust by the pinned rustc (bindgen on libclang): what a
#          distribution that builds with GCC gets; fair.o calls the Rust
#          pieces and the crate its C helpers out of line (x86_64 only)
# booted in alternation, BENCH_PROD_BOOTS boots each (5), the order of every
# set of six shuffled, each under the per-call plugin (evaluation/bench/percall.c,
# no cache model) with the same workloads (evaluation/bench/guest.sh, prodbench):
# instructions per call of the function each piece is inlined into (or
# called from, on outline and gcc-prod) in all six kernels (the production call sites, found in each kernel's
# disassembly: prod_percall_conf in scripts/bench-lib.sh), the field's tools
# timed, and the kernel's selftests (test_cpu, test_core, cpu-on-off-test).
# scripts/bench-prod-report.py prints the tables and writes
# $CACHE/bench-results-prod (BENCH_SAVE=1 copies them into
# evaluation/bench/results-prod/). Fails when a boot fails or a selftest case fails
# on every prod boot while passing on every off boot.
# The run records its provenance ($R/provenance.txt: commit, dirty flag,
# .config hashes, host, load) and every call's instruction count
# ($R/calls.tsv.gz); BENCH_SAVE=1 then writes evaluation/bench/results-prod/.
# Variables: BENCH_PROD_BOOTS (5), BENCH_PROD_ROUNDS (workload rounds per
# boot, 2), BENCH_PROD_SEED (the shuffle's seed; default from the clock),
# BENCH_PROD_KERNELS (the kernels, in this order: stock off prod outline
# gcc-off gcc-prod on x86_64, the first four on arm64).
# A shape variant among BENCH_PROD_KERNELS, off+<shape> (gcc-off+<shape>
# with gcc-off, x86_64), is the off kernel built with
# evaluation/bench/shapes/<shape>.patch applied to its fair.c (scripts/
# build.sh): booted, measured and routed as off is (the guest runs the
# same workloads; the side it prints is the kernel's name), and reported
# beside off, each figure also as the variant over off
# (BENCH_PROD_KERNELS="stock off prod off+one-entity-select"). A C shape
# of the Rust's code is kept only if it helps C's own production kernel.

. "$(dirname "$0")/common.sh"
. "$TOP/scripts/bench-lib.sh"

t0=$(date +%s)
boots=${BENCH_PROD_BOOTS:-5}
rounds=${BENCH_PROD_ROUNDS:-2}
seed=${BENCH_PROD_SEED:-$(date +%s)}
kernels="stock off prod outline gcc-off gcc-prod"
[ "$KARCH" = x86_64 ] || kernels="stock off prod outline"
kernels=$(xargs <<< "${BENCH_PROD_KERNELS:-$kernels}")
# has <kernel>: whether the run measures that kernel (by its whole name: a
# word match would take off+<shape> for off).
has() { case " $kernels " in *" $1 "*) true ;; *) false ;; esac; }
for k in stock off prod; do
	has "$k" || die "BENCH_PROD_KERNELS must have stock, off and prod: $kernels"
done
variants=
for k in $kernels; do
	case $k in
	stock|off|prod|outline|gcc-off|gcc-prod) ;;
	off+?*|gcc-off+?*)
		has "${k%%+*}" || die "BENCH_PROD_KERNELS: $k is measured beside ${k%%+*}, which it does not have: $kernels"
		[ -f "$TOP/evaluation/bench/shapes/$(shape_of "$k").patch" ] ||
			die "BENCH_PROD_KERNELS: $k: no evaluation/bench/shapes/$(shape_of "$k").patch"
		variants="$variants $k" ;;
	*)	die "BENCH_PROD_KERNELS: unknown kernel $k (stock off prod outline gcc-off gcc-prod, off+<shape>, gcc-off+<shape>)" ;;
	esac
done
[ "$(tr ' ' '\n' <<< "$kernels" | grep . | sort | uniq -d)" = "" ] || die "BENCH_PROD_KERNELS names a kernel twice: $kernels"
nk=$(wc -w <<< "$kernels")
EXTRA_DEB_PKGS="gnuplot-nox" "$TOP/scripts/setup.sh"
"$TOP/scripts/fetch-kernel.sh"
"$TOP/scripts/overlay.sh"
for k in $kernels; do
	"$TOP/scripts/build.sh" "$k"
done
for k in prod outline gcc-prod; do
	if has "$k"; then "$TOP/scripts/check-prod.sh" "$k"; fi
done

R=$CACHE/bench-results-prod
[ "$KARCH" = x86_64 ] || R=$CACHE/bench-results-prod-$KARCH
rm -rf "$R"
mkdir -p "$R"
percall_plugins
prod_percall_conf "$R" $kernels
. "$TOP/scripts/provenance.sh"
# The configuration fragments its kernels are built from (scripts/build.sh),
# and the shapes, when a variant is measured.
distro=distro
[ "$KARCH" = x86_64 ] || distro=distro-$KARCH
shapes=
[ -z "$variants" ] || shapes=" evaluation/bench/shapes"
# shellcheck disable=SC2046 # one .config per kernel
provenance_begin "$R/provenance.txt" "make bench-prod BENCH_PROD_BOOTS=$boots BENCH_PROD_ROUNDS=$rounds BENCH_PROD_SEED=$seed${BENCH_PROD_KERNELS:+ BENCH_PROD_KERNELS=\"$kernels\"}" \
	"$KARCH production kernels $kernels (stock, =n, =y, =y out of line, GCC's =n and =y${variants:+; =n with a C shape of evaluation/bench/shapes/:$variants}), configs/base.config + $KARCH.config + distro.config, under QEMU TCG with the per-call plugin" \
	"kernel/sched/rust rust/kernel patches Kconfig.snippet configs/base.config configs/$KARCH.config configs/$distro.config scripts/build.sh tests/boot/init evaluation/bench/guest.sh tests/selftests/sched_rust evaluation/bench/percall.c scripts/bench-prod.sh scripts/bench-prod-report.py scripts/bench-lib.sh scripts/mkinitramfs.sh scripts/boot.sh scripts/common.sh scripts/ksft-verdict.py scripts/ktap-cases.sh scripts/percall_data.py scripts/stats.py evaluation/bench/routes.txt scripts/routes.py scripts/check-lines.sh$shapes" \
	$(for k in $kernels; do echo "$(bdir "$k")/.config"; done)
if grep -q gcc- <<< "$kernels"; then
	echo "toolchain-gcc: $(gcc --version | head -n1); $(ld.bfd --version | head -n1)" >> "$R/provenance.txt"
fi
# shellcheck disable=SC2046 # one build directory per kernel
provenance_built "$R/provenance.txt" $(for k in $kernels; do bdir "$k"; done)

{
	echo "==== rust-sched-cfs production kernels, $(date -u '+%Y-%m-%d %H:%M UTC') ===="
	a=
	[ "$KARCH" = x86_64 ] || a="ARCH=$KARCH "
	v=
	for x in BENCH_PROD_BOOTS BENCH_PROD_ROUNDS SMP ACCEL; do
		[ -n "${!x:-}" ] && v="$v $x=${!x}"
	done
	echo "command: ${a}make bench-prod$v (scripts/bench-prod.sh), shuffle seed $seed"
	echo "QEMU $($QEMU --version | head -n1 | sed 's/.*version \([^ ]*\).*/\1/'), accel ${ACCEL:-tcg,thread=single}, -smp ${SMP:-4,sockets=2,cores=2,threads=1}, host $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
	for k in $kernels; do
		B=$(bdir "$k")
		s=
		[ -z "$(shape_of "$k")" ] || s=", fair.c with evaluation/bench/shapes/$(shape_of "$k").patch ($(sha256sum "$TOP/evaluation/bench/shapes/$(shape_of "$k").patch" | cut -c1-16))"
		echo "$k: $(cat "$B/include/config/kernel.release"), CONFIG_SCHED_RUST_CFS=$(sed -n 's/^CONFIG_SCHED_RUST_CFS=//p' "$B/.config"), CONFIG_SCHED_RUST_CFS_DEBUG=$(sed -n 's/^CONFIG_SCHED_RUST_CFS_DEBUG=//p' "$B/.config"), CONFIG_SCHED_RUST_CFS_INLINE=$(sed -n 's/^CONFIG_SCHED_RUST_CFS_INLINE=//p' "$B/.config"), $(grep -c '^CONFIG_.*=y' "$B/.config") options =y$s"
	done
	"$TOP/scripts/build-flags.sh" prod
	# outline's own flags: its fair.o is compiled by Kbuild's rule, not the inline one.
	if has outline; then
		"$TOP/scripts/build-flags.sh" outline | sed 's/^/outline /'
	fi
	if has gcc-prod; then
		"$TOP/scripts/build-flags.sh" gcc-prod | sed 's/^/gcc-prod /'
	fi
} > "$R/header.txt"

# The boots: sets of one boot per kernel, each set in a shuffled order.
n=0 i=0 failed=()
while read -r order; do
	i=$((i + 1))
	for k in $order; do
		n=$((n + 1))
		name=prodbench-$k-$i
		out=$(bootdir "$name")
		rm -rf "$out"
		mkdir -p "$out/raw"
		log "boot $n/$((boots * nk)): $k (set $i: $order)"
		rc=0
		BOOT_NAME=$name BOOT_TIMEOUT=${BENCH_TIMEOUT:-3600} \
			QEMU_EXTRA="-plugin $q/libpercall.so,conf=$R/percall-$k.conf,raw=$out/raw -d plugin -D $out/percall.log" \
			"$TOP/scripts/boot.sh" "$k" sched_rust.mode=prodbench sched_rust.side="$k" sched_rust.rounds="$rounds" \
			> "$out/boot.log" 2>&1 || rc=$?
		echo "$name $k $i $rc" >> "$R/boots.txt"
		mkdir -p "$R/$name"
		cp -r "$out/console.log" "$out/percall.log" "$out/raw" "$R/$name/" 2>/dev/null || true
		if [ $rc != 0 ]; then
			failed+=("$name (exit $rc: $(grep -A3 '^result:' "$out/boot.log" | tr '\n' ' ' | cut -c1-300))")
			log "  $name failed: $(grep -A3 '^result:' "$out/boot.log" | tr '\n' ' ' | cut -c1-300)"
		fi
	done
done < <(shuffled_sets "$seed" "$boots" $kernels)
echo "duration: $(( $(date +%s) - t0 )) s for the builds and the $((boots * nk)) boots; host load at the end $(cut -d' ' -f1-3 /proc/loadavg) (the wall-time figures move with it, the instruction counts do not)" >> "$R/header.txt"

provenance_end "$R/provenance.txt"
cat "$R/header.txt"
echo
report_rc=0
/usr/bin/python3 "$TOP/scripts/bench-prod-report.py" "$R" > "$R/report.txt" || report_rc=$?
cat "$R/report.txt"
echo "(results, plots and consoles: $R; BENCH_SAVE=1 writes them to evaluation/bench/results-prod/)"
[ ${#failed[@]} = 0 ] || fail "boots failed: ${failed[*]}"
[ $report_rc = 0 ] || fail "bench-prod-report found a problem (above)"
if [ -n "${BENCH_SAVE:-}" ]; then
	BENCH_README=prod "$TOP/scripts/bench-readme.sh"
fi
