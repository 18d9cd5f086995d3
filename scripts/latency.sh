#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-latency: does any task wait longer for a CPU with the pieces on Rust?
# One boot of the test kernel (sched_rust.mode=latency of evaluation/bench/guest.sh): the
# cgroup workload's tree (85 groups, 128 tasks on 4 CPUs, g1 limited by
# cpu.max) with fresh tasks every round, LATENCY_PAIRS pairs of rounds
# (20), one round per side in a random order, then LATENCY_CC_PAIRS pairs
# (6) with C on both sides, for the noise; LATENCY_ROUND_SECONDS (10) per
# round; schedstats on, the shadow check off. RCU's stall timeout is the
# kernel's default, 21 s, on both sides (boot.sh keeps its emulation
# timeouts for the other hang detectors): a stall is data here, counted per side,
# not a boot failure. scripts/latency-report.py prints the paired
# comparison and fails (1) when Rust is significantly worse.
# Output: $CACHE/boot-latency/ (console.log, latency.txt).

. "$(dirname "$0")/common.sh"

pairs=${LATENCY_PAIRS:-20}
cc=${LATENCY_CC_PAIRS:-6}
secs=${LATENCY_ROUND_SECONDS:-10}
# LATENCY_FLAVOUR=bench: on the bench kernel (make bench's short version).
flavour=${LATENCY_FLAVOUR:-test}
B=$(bdir "$flavour")
[ -f "$B/$KIMAGE" ] || die "no $flavour kernel in $B: run make test (or scripts/build.sh $flavour)"
export BOOT_NAME=${BOOT_NAME:-latency}
out=$(bootdir "$BOOT_NAME")
# Each round: its seconds, plus starting 128 tasks and reading their
# statistics under load (30-60 s in all for a 10 s round under TCG, with
# other jobs on the host); the boot itself ~20 s.
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-$(( (2 * pairs + 2 * cc) * (secs + 60) + 600 ))}
rc=0
"$TOP/scripts/boot.sh" "$flavour" sched_rust.mode=latency sched_rust.pairs="$pairs" sched_rust.cc_pairs="$cc" \
	sched_rust.round_seconds="$secs" kunit.enable=0 rcupdate.rcu_cpu_stall_timeout=21 || rc=$?
# The boot's own checks (QEMU, the end of the workload, splats other than
# RCU stalls, guest failures) decide first; then the comparison.
[ $rc = 0 ] || exit $rc
{
	echo "kernel: $flavour, $(sed -n 's/^sched_rust: kernel //p' "$out/console.log" | head -n1), built from $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo "a tree outside git")"
	echo "host: $(nproc) CPUs, load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
	/usr/bin/python3 "$TOP/scripts/latency-report.py" "$out/console.log" "$pairs" "$cc"
} | tee "$out/latency.txt"
exit "${PIPESTATUS[0]}"
