#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmarks (not tests): four boots of the main kernel, C and Rust compared
# in the same boot each time.
#  1. rsc.mode=bench: the in-kernel microbenchmarks (wall time, C and Rust
#     interleaved, kernel/sched/rust/fair_bench.c), then the workloads (rt-tests
#     hackbench and cyclictest, perf bench sched messaging/pipe (perf built
#     statically from the tree), stress-ng --session/--switch, schedbench's
#     cgroup tree, pipe, wake, hackbench and schbench-style schlat),
#     BENCH_ROUNDS rounds per side (30), the side that runs first random.
#  2. rsc.mode=icount: the microbenchmarks under tests/bench/icount.c, which
#     counts the instructions of every batch (deterministic, where TCG wall
#     time is not). ICOUNT=0 skips it.
#  3. rsc.mode=percall: workloads under tests/bench/percall.c, which records
#     every call of each piece (instructions, cache lines, simulated L1D/L2
#     misses). PERCALL_ROUNDS rounds per side (2). PERCALL=0 skips it.
#  4. make latency's workload, short: BENCH_LATENCY_PAIRS paired rounds (4,
#     no C/C pairs) on this kernel, scripts/latency-report.py's comparison
#     in latency.txt. BENCH_LATENCY_PAIRS=0 skips it.
# scripts/bench-report.py prints the tables and writes the plots and the
# results section into $CACHE/bench-results (make bench-readme copies them
# into the repository). The kernel measured is the main one, configured like
# a distribution kernel (configs/distro.config); BENCH_CONFIG=size measures
# tinyconfig's -Os build of the same code instead (build directory build-size).
# ARCH=arm64 measures the arm64 main kernel (configs/distro-arm64.config) on
# QEMU's virt machine: boots 1 and 2, without perf (built for the host
# here) and without boot 3, whose call-site discovery reads x86_64 call
# instructions and interrupt entry points; its results go to
# $CACHE/bench-results-arm64.

. "$(dirname "$0")/common.sh"

case ${BENCH_CONFIG:-distro} in
distro)	flavour=main ;;
size)	flavour=size ;;
*)	die "BENCH_CONFIG=${BENCH_CONFIG}: use distro (the default) or size" ;;
esac
t0=$(date +%s)
EXTRA_DEB_PKGS="gnuplot-nox" "$TOP/scripts/setup.sh"
"$TOP/scripts/run.sh" "build-$flavour"
B=$(bdir "$flavour")
con=$(bootdir "$flavour")/console.log
R=$CACHE/bench-results
if [ "$KARCH" != x86_64 ]; then
	[ "$flavour" = main ] || die "ARCH=$KARCH make bench measures the main kernel only"
	R=$CACHE/bench-results-$KARCH
	PERF=0 PERCALL=0
fi
rm -rf "$R"
mkdir -p "$R/raw"

# The plugins build against the plugin API header of Debian's qemu source
# package (bookworm), fetched through a private apt configuration like the
# kernel source.
q=$CACHE/qemu-plugin
if [ ! -f "$q/include/qemu-plugin.h" ]; then
	mkdir -p "$q/lists/partial" "$q/include"
	printf 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main\n' \
		> "$q/sources.list"
	o=(-o Dir::Etc::SourceList="$q/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o Dir::State::Lists="$q/lists" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	log "fetching Debian's qemu source for the TCG plugin API header"
	apt-get "${o[@]}" update -qq
	(cd "$q" && apt-get "${o[@]}" source --download-only -qq qemu)
	tar -C "$q" -xJf "$q"/qemu_*.orig.tar.xz --wildcards '*/include/qemu/qemu-plugin.h'
	cp "$q"/qemu-*/include/qemu/qemu-plugin.h "$q/include/"
fi
for p in icount percall; do
	[ "$q/lib$p.so" -nt "$TOP/tests/bench/$p.c" ] ||
		gcc -shared -fPIC -O2 -Wall -Werror -I"$q/include" -o "$q/lib$p.so" "$TOP/tests/bench/$p.c" ||
		die "cannot build the QEMU plugin tests/bench/$p.c"
done

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
INITRAMFS_PERF=$perf BOOT_TIMEOUT=${BENCH_TIMEOUT:-7200} "$TOP/scripts/boot.sh" "$flavour" rsc.mode=bench \
	rsc.rounds="$rounds" >/dev/null || true
cp "$con" "$R/bench-console.log"
grep -q '^RSC: DONE' "$con" || fail "the benchmark boot did not finish; console: $R/bench-console.log"
grep -q '^RSC: bench_shadow off' "$con" || ! grep -q '^CONFIG_SCHED_RUST_CFS_SHADOW=y' "$B/.config" ||
	fail "the shadow check was not switched off for the benchmarks; console: $R/bench-console.log"
echo "guest:    $(sed -n 's/^RSC: vulnerability //p' "$con" | tr '\n' ';' | sed 's/;$//; s/;/; /g')" >> "$R/header.txt"
echo "kernel:   $(sed -n 's/^RSC: kernel //p' "$con")" >> "$R/header.txt"

# 2. Instructions per microbenchmark call.
if [ "${ICOUNT:-1}" != 0 ]; then
	begin=$(awk '$3 == "rust_bench_mark_begin" { print "0x" $1 }' "$B/System.map")
	end=$(awk '$3 == "rust_bench_mark_end" { print "0x" $1 }' "$B/System.map")
	[ -n "$begin" ] && [ -n "$end" ] || die "no benchmark markers in $B/System.map"
	log "boot 2/$nboots: microbenchmarks under the instruction-counting plugin"
	QEMU_EXTRA="-plugin $q/libicount.so,begin=$begin,end=$end -d plugin -D $R/icount.log" \
		"$TOP/scripts/boot.sh" "$flavour" rsc.mode=icount >/dev/null || true
	cp "$con" "$R/icount-console.log"
fi

# 3. Per call inside workloads. The call sites of the pieces' C entry points
# (each dispatches to C or to the Rust code inlined into it), from the
# disassembly: "call <insn> <return address> <piece>". task_cache_work() is
# reached through task_work_run()'s indirect call. The segment mark is the
# write to pick_stats the guest does before every run. A call during which
# the vCPU entered an interrupt, an exception or a context switch is left
# out (counted as disturbed).
if [ "${PERCALL:-1}" != 0 ]; then
	dis=$B/vmlinux.dis
	[ "$dis" -nt "$B/vmlinux" ] || llvm-objdump$LLVM_SUFFIX -d --no-show-raw-insn "$B/vmlinux" > "$dis"
	pieces="pick:pick_eevdf_debug llc_enqueue:account_llc_enqueue_debug llc_dequeue:account_llc_dequeue_debug
		occupancy:fraction_mm_sched cache_work:task_cache_work tg_alloc:alloc_fair_sched_group
		tg_free:free_fair_sched_group"
	i=0
	for p in $pieces; do
		[ "${p#*:}" = task_cache_work ] && cw=$i
		i=$((i + 1))
	done
	{
		i=0
		for p in $pieces; do
			echo "fn $i ${p%%:*}"
			i=$((i + 1))
		done
		awk -v pieces="$pieces" '
		BEGIN {
			n = split(pieces, a, /[ \t\n]+/)
			for (i = 1; i <= n; i++) { split(a[i], b, ":"); id[b[2]] = i - 1 }
		}
		/^[0-9a-f]+ <.*>:$/ { fn = substr($2, 2, length($2) - 3); next }
		$1 ~ /^[0-9a-f]+:$/ {
			addr = substr($1, 1, length($1) - 1)
			if (pend != "") { print pend " " addr pendid; pend = "" }
			if ($2 != "callq")
				next
			t = $4; gsub(/[<>]/, "", t)
			if ($3 ~ /^0x/ && t in id) { pend = "call " addr; pendid = " " id[t] }
			else if (fn == "task_work_run" && ($3 ~ /^\*/ || t ~ /^__x86_indirect_thunk_/)) {
				pend = "icall " addr; pendid = ""
			}
		}' "$dis"
		awk -v cw="$cw" '
			$3 == "task_cache_work" { print "entry " $1 " " cw }
			$3 == "sched_rust_pick_stats_write" { print "mark " $1 }
			$3 ~ /^(asm_sysvec_|asm_exc_|asm_common_interrupt$|asm_spurious_interrupt$|__switch_to_asm$)/ {
				print "irq " $1
			}' "$B/System.map"
	} > "$R/percall.conf"
	i=0
	for p in $pieces; do
		[ "$i" = "$cw" ] || grep -q "^call [0-9a-f]* [0-9a-f]* $i\$" "$R/percall.conf" ||
			die "percall: no direct call of ${p#*:} in $dis"
		i=$((i + 1))
	done
	grep -q '^mark ' "$R/percall.conf" && grep -q '^entry ' "$R/percall.conf" &&
		grep -q '^irq ' "$R/percall.conf" &&
		grep -q '^icall ' "$R/percall.conf" ||
		die "percall: no segment mark, task_cache_work entry, interrupt entry or task_work_run indirect call ($R/percall.conf)"
	log "boot $(( 1 + (${ICOUNT:-1} != 0) + 1 ))/$nboots: workloads under the per-call plugin (cache model on)"
	BOOT_TIMEOUT=${BENCH_TIMEOUT:-7200} \
		QEMU_EXTRA="-plugin $q/libpercall.so,conf=$R/percall.conf,cache=on,raw=$R/raw -d plugin -D $R/percall.log" \
		"$TOP/scripts/boot.sh" "$flavour" rsc.mode=percall rsc.rounds="${PERCALL_ROUNDS:-2}" >/dev/null || true
	cp "$con" "$R/percall-console.log"
fi

# 4. The latency comparison of make latency, short (its verdict is the
# report's: a failure when Rust waits significantly longer).
lat_rc=0
if [ "${BENCH_LATENCY_PAIRS:-4}" != 0 ]; then
	log "boot $nboots/$nboots: make latency's workload, ${BENCH_LATENCY_PAIRS:-4} pairs"
	LATENCY_FLAVOUR=$flavour LATENCY_PAIRS=${BENCH_LATENCY_PAIRS:-4} LATENCY_CC_PAIRS=0 \
		BOOT_NAME=latency-$flavour "$TOP/scripts/latency.sh" > "$R/latency-run.log" 2>&1 || lat_rc=$?
	cp "$(bootdir "latency-$flavour")/console.log" "$R/latency-console.log" 2>/dev/null || true
	cp "$(bootdir "latency-$flavour")/latency.txt" "$R/latency.txt" 2>/dev/null ||
		tail -n 30 "$R/latency-run.log" > "$R/latency.txt"
fi

echo "duration: $(( $(date +%s) - t0 )) s for the $nboots boots and their build check" >> "$R/header.txt"
cat "$R/header.txt"
echo
echo "In-kernel microbenchmarks (ns per call, TCG wall time; stock_* rows: 7.3's stock C in the C column, fair.c's C in the Rust one):"
sed -n 's/^RSC: bench //p' "$R/bench-console.log"
echo
/usr/bin/python3 "$TOP/scripts/bench-report.py" "$R" > "$R/report.txt" ||
	fail "bench-report: see above; consoles and plugin logs in $R"
cat "$R/report.txt"
echo
if [ -f "$R/latency.txt" ] && [ "${BENCH_LATENCY_PAIRS:-4}" != 0 ]; then
	echo "Latency (make latency's workload, ${BENCH_LATENCY_PAIRS:-4} pairs; make latency runs 20 and C/C pairs):"
	cat "$R/latency.txt"
	echo
fi
echo "(results, plots and consoles: $R; make bench-readme writes them to tests/bench/results/)"
[ "$lat_rc" = 0 ] || fail "latency: the short comparison failed (exit $lat_rc): $R/latency-run.log"
