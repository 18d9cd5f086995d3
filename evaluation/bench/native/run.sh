#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench-native's runner, also the bundle's (make bench-native-bundle):
# boots the User-Mode Linux kernel ./linux with ./root as its root file
# system, pinned to one host CPU where taskset exists, and writes what its
# microbenchmarks print to results-<host>-<date>.txt, headed by the host's
# CPU model and load. Needs nothing but a Linux x86_64 host: the kernel and
# busybox are static binaries. The summary table comes from
# ./root/bin/busybox awk; the intervals from scripts/bench-native-report.py
# of the rust-sched-cfs repository, run on the results file.
#   ./run.sh [reps] [host-cpu]      default: 20 reps, host CPU 1 (or 0)
# NATIVE_CPUS=2 (or more) boots an SMP guest, which needs UML's seccomp mode:
# on the project's machines its static userspace crashes at the first
# instruction, so the default is one CPU (ptrace mode); the benchmarks run in
# the kernel either way, and only the group state's per-CPU loop sees the
# number of CPUs. NATIVE_SCALE=n (default 10) makes every batch n times the
# 2000 calls make bench times (100 the group state's 100): the host clock, as
# UML reads it, may step by hundreds of nanoseconds.
# Exit: 0 the run completed, 1 the guest reported a failure, 2 no output.

set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
here=$(cd "$here" && pwd)
# A host without some tool (a container with a shell and nothing else)
# takes busybox's.
PATH=$PATH:$here/root/bin
reps=${1:-20}
online=$(grep -c '^processor' /proc/cpuinfo)
cpu=${2:-$( [ "$online" -gt 1 ] && echo 1 || echo 0)}
out=${RESULTS:-$here/results-$(uname -n)-$(date -u +%Y%m%dT%H%M%SZ).txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pin=
command -v taskset > /dev/null 2>&1 && pin="taskset -c $cpu"
ncpus=${NATIVE_CPUS:-1}
scale=${NATIVE_SCALE:-10}
smp=
[ "$ncpus" -gt 1 ] && smp="ncpus=$ncpus seccomp=on"
{
	echo "# make bench-native: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# host: $(uname -srm); $online CPUs online"
	echo "# cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
	echo "# cpu-mhz: $(sed -n 's/^cpu MHz[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
	echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "# pinned: ${pin:-no (no taskset)}; guest: $ncpus CPU(s), $reps reps, batches x$scale"
} > "$tmp/head"
# UML keeps its runtime state under $HOME/.uml and its memory in a file of
# $TMPDIR: private ones.
# shellcheck disable=SC2086 # $pin and $smp are words to split
HOME=$tmp TMPDIR=$tmp $pin "$here/linux" mem=256M $smp rootfstype=hostfs \
	rootflags="$here/root" rw init=/init sched_rust.reps="$reps" sched_rust_bench_scale="$scale" \
	con0=fd:0,fd:1 con=null < /dev/null > "$tmp/console" 2>&1 || true
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$tmp/head"
# REP_BASE=n numbers this run's reps from n + 1 and APPEND=1 adds them to
# $out (make bench-native runs the guest again until the intervals are narrow).
if [ -n "${APPEND:-}" ] && [ -f "$out" ]; then
	grep -a '^sched_rust: raw ' "$tmp/console" |
		awk -v base="${REP_BASE:-0}" '{ $3 += base; print }' >> "$out"
	grep -aq '^sched_rust: done' "$tmp/console" || { tail -n 20 "$tmp/console" >&2; exit 2; }
	exit 0
fi
{ cat "$tmp/head"; grep -a '^sched_rust: ' "$tmp/console" || true; } > "$out"
if grep -q '^sched_rust: FAIL' "$out"; then
	grep '^sched_rust: FAIL' "$out" >&2
	exit 1
fi
if ! grep -q '^sched_rust: done' "$out"; then
	tail -n 20 "$tmp/console" >&2
	echo "run.sh: the guest did not finish (console above)" >&2
	exit 2
fi
sed -n 's/^# //p' "$out" | head -n 6
# Per case: the median over reps of (median Rust batch - empty) / (median C
# batch - empty), the empty case's medians subtracted per side, and the
# spread of that ratio over the reps (min-max).
"$here/root/bin/busybox" awk '
function med(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
$1 == "sched_rust:" && $2 == "raw" {
	rep = $3; c = $4; side = $5; calls = $6; n = 0
	for (i = 7; i <= NF; i++) v[++n] = $i / calls
	m[rep, c, side] = med(v, n)
	if (!(c in seen)) { seen[c] = 1; order[++nc] = c }
	if (rep > nrep) nrep = rep
}
END {
	printf "%-22s %9s %9s %7s %15s\n", "case", "ns side0", "ns side1", "ratio", "min-max (reps)"
	for (k = 1; k <= nc; k++) {
		c = order[k]; nr = 0
		for (r = 1; r <= nrep; r++) {
			e0 = m[r, "empty", 0]; e1 = m[r, "empty", 1]
			if (c == "empty") { e0 = 0; e1 = 0 }
			s0[r] = m[r, c, 0] - e0; s1[r] = m[r, c, 1] - e1
			if (s0[r] > 0) rr[++nr] = s1[r] / s0[r]
		}
		lo = 1e9; hi = -1e9
		for (i = 1; i <= nr; i++) { if (rr[i] < lo) lo = rr[i]; if (rr[i] > hi) hi = rr[i] }
		for (i = 1; i <= nrep; i++) { a0[i] = s0[i]; a1[i] = s1[i] }
		printf "%-22s %9.2f %9.2f %7.3f %7.3f-%-7.3f\n", c, med(a0, nrep), med(a1, nrep), med(rr, nr), lo, hi
	}
}' "$out"
echo "results: $out"
