#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmarks (not tests): four boots of the bench kernel (the evaluation kernel
# configured like the production one, with the C twins and the switch), C and Rust compared
# in the same boot each time.
#  1. sched_rust.mode=bench: the in-kernel microbenchmarks (wall time, C and Rust
#     interleaved, kernel/sched/rust/debug/fair_bench.c), then the workloads (rt-tests
#     hackbench and cyclictest, perf bench sched messaging/pipe (perf built
#     statically from the tree), stress-ng --session/--switch, schedbench's
#     cgroup tree, wake and schbench-style schlat: what no tool here does),
#     BENCH_ROUNDS rounds per side (30), the side that runs first random.
#  2. sched_rust.mode=icount: the microbenchmarks under evaluation/bench/icount.c, which
#     counts the instructions of every batch (deterministic, where TCG wall
#     time is not). ICOUNT=0 skips it.
#  3. sched_rust.mode=percall: workloads under evaluation/bench/percall.c, which records
#     every call of each piece (instructions, cache lines, simulated L1D/L2
#     misses). PERCALL_ROUNDS rounds per side (2). PERCALL=0 skips it.
#  4. make bench-latency's workload, short: BENCH_LATENCY_PAIRS paired rounds (4,
#     no C/C pairs) on this kernel, scripts/latency-report.py's comparison
#     in latency.txt. BENCH_LATENCY_PAIRS=0 skips it.
# scripts/bench-report.py prints the tables and writes the plots, the
# results section and figures.tsv (every figure by key) into
# $CACHE/bench-results, beside the run's provenance.txt (commit, dirty flag,
# .config hash, host); BENCH_SAVE=1 copies them into the repository. The kernel measured is the bench one, configured like
# a distribution kernel (configs/distro.config); BENCH_CONFIG=size measures
# tinyconfig's -Os build of the same code instead (build directory build-size,
# results in $CACHE/bench-results-size).
# ARCH=arm64 measures the arm64 bench kernel (configs/distro-arm64.config) on
# QEMU's virt machine, without perf (built for the host here); boot 3's
# call-site discovery reads arm64's bl/blr and its exception vectors'
# handlers. Its results go to $CACHE/bench-results-arm64.

. "$(dirname "$0")/common.sh"
. "$TOP/scripts/bench-lib.sh"

case ${BENCH_CONFIG:-distro} in
distro)	flavour=bench ;;
size)	flavour=size ;;
*)	die "BENCH_CONFIG=${BENCH_CONFIG}: use distro (the default) or size" ;;
esac
t0=$(date +%s)
EXTRA_DEB_PKGS="gnuplot-nox" "$TOP/scripts/setup.sh"
"$TOP/scripts/run.sh" "build-$flavour"
B=$(bdir "$flavour")
con=$(bootdir "$flavour")/console.log
R=$CACHE/bench-results
[ "$flavour" = size ] && R=$CACHE/bench-results-size
if [ "$KARCH" != x86_64 ]; then
	[ "$flavour" = bench ] || die "ARCH=$KARCH make bench measures the bench kernel only"
	R=$CACHE/bench-results-$KARCH
	PERF=0
fi
rm -rf "$R"
mkdir -p "$R/raw"

percall_plugins

{
	echo "==== rust-sched-cfs benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC') ===="
	a=
	[ "$KARCH" = x86_64 ] || a="ARCH=$KARCH "
	v=
	for x in BENCH_CONFIG BENCH_ROUNDS BENCH_LATENCY_PAIRS ICOUNT PERCALL PERCALL_ROUNDS PERF SMP ACCEL; do
		[ -n "${!x:-}" ] && v="$v $x=${!x}"
	done
	echo "command: ${a}make bench$v (scripts/bench.sh)"
	echo "QEMU $($QEMU --version | head -n1 | sed 's/.*version \([^ ]*\).*/\1/'), accel ${ACCEL:-tcg,thread=single}, -smp ${SMP:-4,sockets=2,cores=2,threads=1}, host $(nproc) CPUs"
	# The flags that decide the figures, from the build.
	"$TOP/scripts/build-flags.sh" "$flavour"
} > "$R/header.txt"
. "$TOP/scripts/provenance.sh"
provenance_begin "$R/provenance.txt" "$(sed -n 's/^command: //p' "$R/header.txt")" \
	"$KARCH $flavour kernel (the evaluation kernel: the debug and bench options), under QEMU TCG" \
	"kernel/sched/rust rust/kernel patches Kconfig.snippet configs tests/boot tests/selftests/sched_rust evaluation/bench/guest.sh evaluation/bench/icount.c evaluation/bench/percall.c evaluation/bench/tb_insns.h scripts/bench.sh scripts/bench-report.py scripts/bench-lib.sh scripts/percall_data.py scripts/latency-report.py scripts/stats.py" \
	"$B/.config"
provenance_built "$R/provenance.txt" "$B"

# perf, built statically from the kernel tree's tools/perf for the guest's
# perf bench sched (PERF=0 leaves it out).
perf=
if [ "${PERF:-1}" != 0 ]; then
	perf=$CACHE/perf/perf
	if [ ! -x "$perf" ]; then
		log "building perf statically from tools/perf (log: $CACHE/perf/build.log)"
		mkdir -p "$CACHE/perf"
		make -s -C "$PRISTINE/tools/perf" -f Makefile.perf O="$CACHE/perf" LDFLAGS=-static \
			NO_RUST=1 NO_LIBELF=1 NO_LIBTRACEEVENT=1 NO_JVMTI=1 NO_LIBPERL=1 NO_LIBPYTHON=1 \
			NO_SLANG=1 NO_GTK2=1 NO_LIBUNWIND=1 NO_LIBDW=1 NO_LIBBPF=1 NO_BPF_SKEL=1 \
			NO_LIBCAP=1 NO_LIBNUMA=1 NO_LIBCRYPTO=1 NO_LIBZSTD=1 NO_LZMA=1 NO_ZLIB=1 \
			NO_LIBBABELTRACE=1 NO_DEMANGLE=1 NO_LIBPFM4=1 NO_SDT=1 NO_AUXTRACE=1 \
			NO_CAPSTONE=1 NO_LIBLLVM=1 NO_LIBDEBUGINFOD=1 NO_SHELLCHECK=1 NO_LIBAIO=1 \
			WERROR=0 -j"$(nproc)" "$perf" > "$CACHE/perf/build.log" 2>&1 ||
			die "perf did not build statically (log: $CACHE/perf/build.log; PERF=0 leaves it out)"
	fi
fi

# 1. Microbenchmarks (wall) and workloads.
rounds=${BENCH_ROUNDS:-30}
nboots=$(( 1 + (${ICOUNT:-1} != 0) + (${PERCALL:-1} != 0) + (${BENCH_LATENCY_PAIRS:-4} != 0) ))
log "boot 1/$nboots: microbenchmarks and workloads, $rounds rounds per side"
INITRAMFS_PERF=$perf BOOT_TIMEOUT=${BENCH_TIMEOUT:-7200} "$TOP/scripts/boot.sh" "$flavour" sched_rust.mode=bench \
	sched_rust.rounds="$rounds" >/dev/null || true
cp "$con" "$R/bench-console.log"
grep -q '^sched_rust: DONE' "$con" || fail "the benchmark boot did not finish; console: $R/bench-console.log"
grep -q '^sched_rust: bench_shadow off' "$con" || ! grep -q '^CONFIG_SCHED_RUST_CFS_SHADOW=y' "$B/.config" ||
	fail "the shadow check was not switched off for the benchmarks; console: $R/bench-console.log"
echo "guest:    $(sed -n 's/^sched_rust: vulnerability //p' "$con" | tr '\n' ';' | sed 's/;$//; s/;/; /g')" >> "$R/header.txt"
echo "kernel:   $(sed -n 's/^sched_rust: kernel //p' "$con")" >> "$R/header.txt"

# 2. Instructions per microbenchmark call.
if [ "${ICOUNT:-1}" != 0 ]; then
	begin=$(awk '$3 == "rust_bench_mark_begin" { print "0x" $1 }' "$B/System.map")
	end=$(awk '$3 == "rust_bench_mark_end" { print "0x" $1 }' "$B/System.map")
	[ -n "$begin" ] && [ -n "$end" ] || die "no benchmark markers in $B/System.map"
	log "boot 2/$nboots: microbenchmarks under the instruction-counting plugin"
	QEMU_EXTRA="-plugin $q/libicount.so,begin=$begin,end=$end -d plugin -D $R/icount.log" \
		"$TOP/scripts/boot.sh" "$flavour" sched_rust.mode=icount >/dev/null || true
	cp "$con" "$R/icount-console.log"
fi

# 3. Per call inside workloads (the call sites: percall_conf in
# scripts/bench-lib.sh).
if [ "${PERCALL:-1}" != 0 ]; then
	percall_conf "$B" "$R/percall.conf"
	log "boot $(( 1 + (${ICOUNT:-1} != 0) + 1 ))/$nboots: workloads under the per-call plugin (cache model on)"
	BOOT_TIMEOUT=${BENCH_TIMEOUT:-7200} \
		QEMU_EXTRA="-plugin $q/libpercall.so,conf=$R/percall.conf,cache=on,raw=$R/raw -d plugin -D $R/percall.log" \
		"$TOP/scripts/boot.sh" "$flavour" sched_rust.mode=percall sched_rust.rounds="${PERCALL_ROUNDS:-2}" >/dev/null || true
	cp "$con" "$R/percall-console.log"
fi

# 4. The latency comparison of make bench-latency, short (its verdict is the
# report's: a failure when Rust waits significantly longer).
lat_rc=0
if [ "${BENCH_LATENCY_PAIRS:-4}" != 0 ]; then
	log "boot $nboots/$nboots: make bench-latency's workload, ${BENCH_LATENCY_PAIRS:-4} pairs"
	LATENCY_FLAVOUR=$flavour LATENCY_PAIRS=${BENCH_LATENCY_PAIRS:-4} LATENCY_CC_PAIRS=0 \
		BOOT_NAME=latency-$flavour "$TOP/scripts/latency.sh" > "$R/latency-run.log" 2>&1 || lat_rc=$?
	cp "$(bootdir "latency-$flavour")/console.log" "$R/latency-console.log" 2>/dev/null || true
	cp "$(bootdir "latency-$flavour")/latency.txt" "$R/latency.txt" 2>/dev/null ||
		tail -n 30 "$R/latency-run.log" > "$R/latency.txt"
fi

echo "duration: $(( $(date +%s) - t0 )) s for the $nboots boots and their build check" >> "$R/header.txt"
provenance_end "$R/provenance.txt"
cat "$R/header.txt"
echo
echo "In-kernel microbenchmarks (ns per call, TCG wall time; stock_* rows: 7.3's stock C in the C column, fair.c's C in the Rust one; dispatch_* rows: C and Rust through the debug option's dispatch; control_* rows: fair.c's C against a copy of itself at another address; TCG's wall time moves with where the code lies, not only with its instructions: llc_occupancy, the same instructions but one, measured Rust/C 1.03 in one build and 1.73 in the next; the instruction counts below are the figure):"
sed -n 's/^sched_rust: bench //p' "$R/bench-console.log"
echo
/usr/bin/python3 "$TOP/scripts/bench-report.py" "$R" > "$R/report.txt" ||
	fail "bench-report: see above; consoles and plugin logs in $R"
cat "$R/report.txt"
echo
if [ -f "$R/latency.txt" ] && [ "${BENCH_LATENCY_PAIRS:-4}" != 0 ]; then
	echo "Latency (make bench-latency's workload, ${BENCH_LATENCY_PAIRS:-4} pairs; make bench-latency runs 20 and C/C pairs):"
	cat "$R/latency.txt"
	echo
fi
echo "(results, plots and consoles: $R; BENCH_SAVE=1 writes them to evaluation/bench/results/)"
[ "$lat_rc" = 0 ] || fail "latency: the short comparison failed (exit $lat_rc): $R/latency-run.log"
if [ -n "${BENCH_SAVE:-}" ]; then
	"$TOP/scripts/bench-readme.sh"
fi
