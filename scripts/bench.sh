#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmarks (not tests): boot the main kernel with rsc.mode=bench. In one
# boot it runs the in-kernel microbenchmarks (C and Rust interleaved, see
# kernel/sched/rust/fair_bench.c), then scheduler workloads with the runtime
# switch alternating between C and Rust, and prints both as tables.
# BENCH_ROUNDS sets the number of workload rounds per implementation.
# A second boot runs the microbenchmarks under a QEMU TCG plugin
# (tests/bench/icount.c) that counts the instructions of every timed batch:
# deterministic, where TCG wall time is not. ICOUNT=0 skips it.
# The kernel measured is the main one, configured like a distribution kernel
# (configs/distro.config); BENCH_CONFIG=size measures tinyconfig's -Os build
# of the same code instead (build directory build-size).

. "$(dirname "$0")/common.sh"

case ${BENCH_CONFIG:-distro} in
distro)	flavour=main ;;
size)	flavour=size ;;
*)	die "BENCH_CONFIG=${BENCH_CONFIG}: use distro (the default) or size" ;;
esac
"$TOP/scripts/run.sh" "build-$flavour"
"$TOP/scripts/boot.sh" "$flavour" rsc.mode=bench rsc.rounds="${BENCH_ROUNDS:-5}" >/dev/null || true
con=$CACHE/boot-$flavour/console.log
grep -q '^RSC: DONE' "$con" || die "the benchmark boot did not finish; console: $con"
grep -q '^RSC: bench_shadow off' "$con" || ! grep -q '^CONFIG_SCHED_RUST_CFS_SHADOW=y' "$CACHE/build-$flavour/.config" ||
	die "the shadow check was not switched off for the benchmarks; console: $con"

echo "==== rust-sched-cfs benchmarks ===="
echo "kernel $(sed -n 's/^RSC: kernel //p' "$con"), QEMU $(qemu-system-x86_64 --version | head -n1 | sed 's/.*version \([^ ]*\).*/\1/'), accel ${ACCEL:-tcg,thread=single}, -smp ${SMP:-4,sockets=2,cores=2,threads=1}"
# The flags that decide the figures, from the build; and what the guest
# kernel made of the mitigations on the CPU QEMU emulates.
"$TOP/scripts/build-flags.sh" "$flavour"
echo "guest:    $(sed -n 's/^RSC: vulnerability //p' "$con" | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
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

[ "${ICOUNT:-1}" = 0 ] && exit 0

# The plugin API header comes from Debian's qemu source package (bookworm),
# fetched through a private apt configuration like the kernel source.
plugin=$CACHE/qemu-plugin/libicount.so
if [ ! -f "$plugin" ]; then
	q=$CACHE/qemu-plugin
	mkdir -p "$q/lists/partial"
	printf 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main\n' \
		> "$q/sources.list"
	o=(-o Dir::Etc::SourceList="$q/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o Dir::State::Lists="$q/lists" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	log "fetching Debian's qemu source for the TCG plugin API header"
	apt-get "${o[@]}" update -qq
	(cd "$q" && apt-get "${o[@]}" source --download-only -qq qemu)
	tar -C "$q" -xJf "$q"/qemu_*.orig.tar.xz --wildcards '*/include/qemu/qemu-plugin.h'
	gcc -shared -fPIC -O2 -Wall -I"$(dirname "$(ls "$q"/qemu-*/include/qemu/qemu-plugin.h)")" \
		-o "$plugin" "$TOP/tests/bench/icount.c"
fi
map=$CACHE/build-$flavour/System.map
begin=$(awk '$3 == "rust_bench_mark_begin" { print "0x" $1 }' "$map")
end=$(awk '$3 == "rust_bench_mark_end" { print "0x" $1 }' "$map")
[ -n "$begin" ] && [ -n "$end" ] || die "no benchmark markers in $map"
ilog=$CACHE/boot-$flavour/icount.log
rm -f "$ilog"
QEMU_EXTRA="-plugin $plugin,begin=$begin,end=$end -d plugin -D $ilog" \
	"$TOP/scripts/boot.sh" "$flavour" rsc.mode=icount >/dev/null || true
grep -q '^RSC: DONE' "$con" || die "the instruction-counting boot did not finish; console: $con"
echo
# Batches run case by case (table order, but for tg_alloc_free, which sleeps
# and has no markers), 2 per round, the side alternating: rust = side ^ (round & 1).
bench=$(sed -n 's/^RSC: bench //p' "$con")
! grep -q 'could not prepare' <<< "$bench" ||
	die "a benchmark case could not prepare its state: $(grep 'could not prepare' <<< "$bench")"
awk 'NR > 2 && $1 != "tg_alloc_free" { print $1 }' <<< "$bench" > "$CACHE/boot-$flavour/icount.cases"
rounds=$(sed -n 's/^# \([0-9]*\) rounds x \([0-9]*\) calls.*/\1/p' <<< "$bench")
batch=$(sed -n 's/^# \([0-9]*\) rounds x \([0-9]*\) calls.*/\2/p' <<< "$bench")
ncases=$(wc -l < "$CACHE/boot-$flavour/icount.cases")
ncounts=$(grep -c '^icount ' "$ilog" || true)
[ -n "$rounds" ] && [ -n "$batch" ] && [ "$ncases" -gt 1 ] ||
	die "no benchmark table in the console: $con"
head -n1 "$CACHE/boot-$flavour/icount.cases" | grep -qx empty ||
	die "the first benchmark case is not the empty calibration batch"
[ "$ncounts" = $(( ncases * rounds * 2 )) ] ||
	die "the plugin counted $ncounts batches, expected $ncases cases x $rounds rounds x 2 = $(( ncases * rounds * 2 )) ($ilog)"
echo "Instructions per call (QEMU TCG plugin, median of $rounds rounds of $batch calls per side)."
echo "raw: the whole batch / calls; net: minus the empty batch (loop, markers, clock reads)."
awk -v rounds="$rounds" -v batch="$batch" '
	FNR == NR { cases[n++] = $1; next }
	$1 == "icount" { d[k++] = $2 }
	END {
		printf "%-18s %9s %9s %9s %9s %8s\n", "case", "C raw", "Rust raw", "C net", "Rust net", "Rust/C"
		for (c = 0; c < n; c++) {
			nc = nr = 0
			for (r = 0; r < rounds; r++)
				for (s = 0; s < 2; s++) {
					i = c * rounds * 2 + r * 2 + s
					rust = (s + r) % 2
					if (rust) vr[nr++] = d[i]; else vc[nc++] = d[i]
				}
			asort_(vc, nc); asort_(vr, nr)
			mc = vc[int(nc / 2)]; mr = vr[int(nr / 2)]
			if (c == 0) { e = (mc + mr) / 2; continue }
			nc_ = (mc - e) / batch; nr_ = (mr - e) / batch
			printf "%-18s %9.1f %9.1f %9.1f %9.1f %8.3f\n", cases[c], mc / batch, mr / batch,
				nc_, nr_, (nc_ > 0 ? nr_ / nc_ : 0)
		}
		printf "%-18s %9.1f (per call of the empty batch, subtracted)\n", "empty", e / batch
	}
	function asort_(a, m,   i, j, t) {
		for (i = 0; i < m; i++) for (j = i + 1; j < m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	}' "$CACHE/boot-$flavour/icount.cases" "$ilog"
echo "(plugin log: $ilog)"
