#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmarks (not tests): boot the main kernel with rsc.mode=bench. In one
# boot it runs the in-kernel microbenchmarks (C and Rust interleaved, see
# kernel/sched/rust/fair_bench.c), then scheduler workloads with the runtime
# switch alternating between C and Rust, and prints both as tables.
# BENCH_ROUNDS sets the number of workload rounds per implementation.

. "$(dirname "$0")/common.sh"

"$TOP/scripts/run.sh" build-main
"$TOP/scripts/boot.sh" main rsc.mode=bench rsc.rounds="${BENCH_ROUNDS:-5}" >/dev/null || true
con=$CACHE/boot-main/console.log
grep -q '^RSC: DONE' "$con" || die "the benchmark boot did not finish; console: $con"

echo "==== rust-sched-cfs benchmarks ===="
echo "kernel $(sed -n 's/^RSC: kernel //p' "$con"), QEMU $(qemu-system-x86_64 --version | head -n1 | sed 's/.*version \([^ ]*\).*/\1/'), accel ${ACCEL:-tcg}, -smp ${SMP:-4,sockets=2,cores=2,threads=1}"
echo
echo "In-kernel microbenchmarks (ns per call, TCG wall time):"
sed -n 's/^RSC: bench //p' "$con"
echo
echo "Workloads, switch alternating C/Rust each round (rate per second, median of rounds):"
sed -n 's/^RSC: wbench //p' "$con" | awk '
	{ v[$2, $1, ++n[$2, $1]] = $3; w[$2] = 1 }
	function median(k, impl,   i, j, t, m, a) {
		m = n[k, impl]
		for (i = 1; i <= m; i++) a[i] = v[k, impl, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}
	END {
		printf "%-10s %12s %12s %8s %s\n", "workload", "C", "Rust", "Rust/C", "rounds"
		for (k in w) {
			c = median(k, "c"); r = median(k, "rust")
			printf "%-10s %12d %12d %8.3f %d\n", k, c, r, c ? r / c : 0, n[k, "c"]
		}
	}'
echo "(console: $con)"
