#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-scale: the bench kernel booted at several machine sizes, C and
# Rust in the same boot at each, every call of each piece counted in
# instructions by evaluation/bench/percall.c (without its cache model) inside a
# multi-threaded workload spread over every LLC and a cgroup tree created
# and removed (evaluation/bench/guest.sh, sched_rust.mode=scale), and the per-CPU bytes of
# one task group.
#   SCALE_SIZES   "CPUs:LLCs ..." (default "4:2 8:2 16:2 32:2 64:2 64:4 64:8
#                 64:16": cost against CPUs in two LLCs, against LLCs at 64
#                 CPUs); one LLC per QEMU socket, CPUs/LLCs cores in each
#   SCALE_ROUNDS  rounds per side at each size (1)
#   SCALE_SECONDS seconds of the threads workload per run (6)
#   SCALE_TIMEOUT host seconds a size may take (5400); a size that does not
#                 finish in it is reported as not measured, and the target
#                 fails
#   SCALE_AGGR_RUNS  runs per side of the aggregation boot at each size (12)
#   SCALE_AGGR_SECONDS  each aggregation run's window (10)
# At every size, a second boot without the plugin (sched_rust.mode=aggr) measures
# how often and how soon the threads get a preferred LLC on each side,
# SCALE_AGGR_RUNS runs per side in random order, each watched for a fixed
# window of SCALE_AGGR_SECONDS from the last thread's creation, whether or
# not a thread gets a preferred LLC in it: a side that aggregates less often
# shows a lower rate (the report says what difference the runs can detect).
# At every size the guest must report the CPUs and LLCs asked for, the
# scan and the preferred-LLC paths must have run on both sides, and the
# shadow and LLC checks, switched on after the measured runs, must compare
# C and Rust and find no difference (scripts/bench-scale-report.py). Each
# size's host time is in the report. Results: $CACHE/bench-scale/
# (report.txt, the plots, provenance.txt); BENCH_SAVE=1 copies them into
# evaluation/bench/results-scale/.

. "$(dirname "$0")/common.sh"
. "$TOP/scripts/bench-lib.sh"

[ "$KARCH" = x86_64 ] || die "make bench-scale measures the x86_64 bench kernel (its per-call plugin reads x86_64 call sites)"
sizes=${SCALE_SIZES:-"4:2 8:2 16:2 32:2 64:2 64:4 64:8 64:16"}
for s in $sizes; do
	c=${s%%:*} l=${s#*:}
	[[ "$c" =~ ^[0-9]+$ && "$l" =~ ^[0-9]+$ && $l -ge 1 && $c -ge $l && $((c % l)) = 0 && $c -le 64 ]] ||
		die "SCALE_SIZES: '$s' is not CPUS:LLCS with LLCS dividing CPUS and at most 64 CPUs (the plugin's limit)"
done
t0=$(date +%s)
EXTRA_DEB_PKGS="gnuplot-nox" "$TOP/scripts/setup.sh"
"$TOP/scripts/run.sh" build-bench
B=$(bdir bench)
R=$CACHE/bench-scale
rm -rf "$R"
mkdir -p "$R"
percall_plugins
percall_conf "$B" "$R/percall.conf"
grep -q '^CONFIG_SCHED_RUST_CFS_SHADOW=y' "$B/.config" ||
	die "the bench kernel has no shadow check (CONFIG_SCHED_RUST_CFS_SHADOW): the scale run checks C against Rust with it"

{
	echo "==== rust-sched-cfs bench-scale, $(date -u '+%Y-%m-%d %H:%M UTC') ===="
	v=
	for x in SCALE_SIZES SCALE_ROUNDS SCALE_SECONDS SCALE_TIMEOUT SCALE_AGGR_RUNS SCALE_AGGR_SECONDS ACCEL; do
		[ -n "${!x:-}" ] && v="$v $x=${!x}"
	done
	echo "command: make bench-scale$v (scripts/bench-scale.sh)"
	echo "QEMU $($QEMU --version | head -n1 | sed 's/.*version \([^ ]*\).*/\1/'), accel ${ACCEL:-tcg,thread=single}, host $(nproc) CPUs, load average at the start $(cut -d' ' -f1-3 /proc/loadavg)"
	"$TOP/scripts/build-flags.sh" bench
} > "$R/header.txt"
. "$TOP/scripts/provenance.sh"
provenance_begin "$R/provenance.txt" "$(sed -n 's/^command: //p' "$R/header.txt")" \
	"x86_64 bench kernel (the evaluation kernel) at 4 to 64 CPUs, under QEMU TCG with the per-call plugin" \
	"kernel/sched/rust rust/kernel patches Kconfig.snippet configs/base.config configs/x86_64.config configs/eval.config configs/kunit.config configs/distro.config scripts/build.sh tests/boot tests/selftests/sched_rust evaluation/bench/guest.sh evaluation/bench/percall.c scripts/bench-scale.sh scripts/bench-scale-report.py scripts/bench-lib.sh scripts/mkinitramfs.sh scripts/boot.sh scripts/common.sh scripts/percall_data.py scripts/stats.py" \
	"$B/.config"
# The placed files its kernel was compiled from: a later change to another
# (kernel/sched/rust/lockdep.c, which only kernels with lockdep compile) leaves the run current.
provenance_built "$R/provenance.txt" "$B"

n=0
for s in $sizes; do
	n=$((n + 1))
	c=${s%%:*} l=${s#*:}
	d=$R/$c-$l
	mkdir -p "$d/raw"
	log "size $n/$(echo $sizes | wc -w): $c CPUs in $l LLCs ($l sockets x $((c / l)) cores)"
	ts=$(date +%s)
	rc=0
	SMP="$c,sockets=$l,cores=$((c / l)),threads=1" BOOT_NAME=scale-$c-$l BOOT_TIMEOUT=${SCALE_TIMEOUT:-5400} \
		QEMU_EXTRA="-plugin $q/libpercall.so,conf=$R/percall.conf,raw=$d/raw -d plugin -D $d/percall.log" \
		"$TOP/scripts/boot.sh" bench sched_rust.mode=scale sched_rust.rounds="${SCALE_ROUNDS:-1}" \
		sched_rust.seconds="${SCALE_SECONDS:-6}" > "$d/boot.txt" 2>&1 || rc=$?
	cp "$(bootdir "scale-$c-$l")/console.log" "$d/console.log" 2>/dev/null || : > "$d/console.log"
	echo "$c $l $(( $(date +%s) - ts )) $rc" > "$d/run.txt"
	log "size $c:$l: boot exit $rc after $(( $(date +%s) - ts )) s"
	ta=$(date +%s)
	rc=0
	SMP="$c,sockets=$l,cores=$((c / l)),threads=1" BOOT_NAME=aggr-$c-$l BOOT_TIMEOUT=${SCALE_TIMEOUT:-5400} \
		"$TOP/scripts/boot.sh" bench sched_rust.mode=aggr sched_rust.runs="${SCALE_AGGR_RUNS:-12}" \
		sched_rust.seconds="${SCALE_AGGR_SECONDS:-10}" sched_rust.pref_cap="${SCALE_AGGR_SECONDS:-10}" \
		> "$d/aggr-boot.txt" 2>&1 || rc=$?
	cp "$(bootdir "aggr-$c-$l")/console.log" "$d/aggr-console.log" 2>/dev/null || : > "$d/aggr-console.log"
	echo "$c $l $(( $(date +%s) - ta )) $rc" > "$d/aggr-run.txt"
	log "size $c:$l: aggregation boot exit $rc after $(( $(date +%s) - ta )) s"
done
echo "duration: $(( $(date +%s) - t0 )) s for $n sizes and the build check" >> "$R/header.txt"
provenance_end "$R/provenance.txt"

cat "$R/header.txt"
echo
rc=0
/usr/bin/python3 "$TOP/scripts/bench-scale-report.py" "$R" $sizes > "$R/report.txt" || rc=$?
cat "$R/report.txt"
echo
echo "(results, plots and consoles: $R; BENCH_SAVE=1 writes them to evaluation/bench/results-scale/)"
[ "$rc" = 0 ] || fail "bench-scale: a check failed (above); consoles and plugin logs in $R/<CPUs>-<LLCs>/"
if [ -n "${BENCH_SAVE:-}" ]; then
	BENCH_README=scale "$TOP/scripts/bench-readme.sh"
fi
