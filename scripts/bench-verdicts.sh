#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-verdicts: the kernel selftest cases whose verdicts differ
# between make bench-prod's production kernels (stock, =n, =y), each run
# enough times to tell a flaky case from a changed one. The three kernels
# (built as make bench-prod builds them) boot VERDICT_BOOTS times each (2),
# every set of three in a shuffled order, and each boot runs every case
# VERDICT_RUNS times (10) through tests/boot/test_cpu_repeat.c (test_cpu.c's
# own cases, unchanged, with a main that repeats them).
# scripts/bench-verdicts-report.py gives each case's pass rate per kernel
# with its exact 95 % interval, Fisher's exact test of =y against =n and of
# =n against stock, and the lowest pass rate the runs would not have told
# from the reference kernel's (80 % power); it fails when a case passes
# less often on =y than on =n (p < 0.05), or a run is missing.
# The cases: VERDICT_CASES (a,b), by default the test_cpu cases whose pass
# counts differ between the kernels in evaluation/bench/results-prod/.
# Output: $CACHE/bench-results-verdicts (provenance.txt, verdicts.tsv: one
# line per run, report.txt, figures.tsv); BENCH_SAVE=1 copies them into
# evaluation/bench/results-verdicts/.

. "$(dirname "$0")/common.sh"
. "$TOP/scripts/bench-lib.sh"

boots=${VERDICT_BOOTS:-2}
runs=${VERDICT_RUNS:-10}
seed=${VERDICT_SEED:-$(date +%s)}
kernels="stock off prod"
cases=${VERDICT_CASES:-$(awk -F'\t' '$1 ~ /^selftest\.test_cpucg_[a-z_]+\.(stock|off|prod)$/ {
		split($1, k, "."); v[k[2]] = v[k[2]] " " $2 }
	END { for (c in v) { n = split(v[c], a, " "); for (i = 2; i <= n; i++) if (a[i] != a[1]) { print c; break } } }' \
	"$TOP/evaluation/bench/results-prod/figures.tsv" | sort | paste -sd,)}
[ -n "$cases" ] ||
	die "no test_cpu case differs between the kernels in evaluation/bench/results-prod/figures.tsv: name some in VERDICT_CASES"
"$TOP/scripts/setup.sh"
"$TOP/scripts/fetch-kernel.sh"
"$TOP/scripts/overlay.sh"
for k in $kernels; do
	"$TOP/scripts/build.sh" "$k"
done

R=$CACHE/bench-results-verdicts
rm -rf "$R"
mkdir -p "$R"
. "$TOP/scripts/provenance.sh"
# The configuration fragments its kernels are built from (scripts/build.sh).
distro=distro
[ "$KARCH" = x86_64 ] || distro=distro-$KARCH
provenance_begin "$R/provenance.txt" \
	"make bench-verdicts VERDICT_BOOTS=$boots VERDICT_RUNS=$runs VERDICT_SEED=$seed VERDICT_CASES=$cases" \
	"$KARCH production kernels stock, =n (off) and =y (prod), configs/base.config + $KARCH.config + distro.config, under QEMU TCG" \
	"kernel/sched/rust rust/kernel patches Kconfig.snippet configs/base.config configs/$KARCH.config configs/$distro.config scripts/build.sh tests/boot/init tests/boot/test_cpu_repeat.c scripts/mkinitramfs.sh scripts/bench-verdicts.sh scripts/bench-verdicts-report.py scripts/bench-lib.sh scripts/boot.sh scripts/common.sh scripts/ksft-verdict.py scripts/ktap-cases.sh scripts/stats.py" \
	"$(bdir stock)/.config" "$(bdir off)/.config" "$(bdir prod)/.config"
provenance_built "$R/provenance.txt" "$(bdir stock)" "$(bdir off)" "$(bdir prod)"

printf 'kernel\tboot\tcase\trun\tresult\n' > "$R/verdicts.tsv"
failed=()
ncases=$(tr ',' '\n' <<< "$cases" | grep -c .)
i=0
while read -r order; do
	i=$((i + 1))
	for k in $order; do
		name=verdicts-$k-$i
		out=$(bootdir "$name")
		log "boot $name (set $i: $order): $cases, $runs runs each"
		rc=0
		BOOT_NAME=$name BOOT_TIMEOUT=${BENCH_TIMEOUT:-3600} "$TOP/scripts/boot.sh" "$k" \
			sched_rust.mode=verdicts sched_rust.cases="$cases" sched_rust.runs="$runs" \
			> "$out.log" 2>&1 || rc=$?
		# "sched_rust: verdict ok 3 test_cpucg_max_nested run 2", "... not
		# ok 3 ...", and a skip (ksft_test_result_skip()):
		# "sched_rust: verdict ok 3 # SKIP test_cpucg_max_nested run 2".
		n=$(awk -v k="$k" -v i="$i" '$1 == "sched_rust:" && $2 == "verdict" {
				ok = $3 == "ok" ? "ok" : "not ok"
				if (sub(/ # SKIP /, " ")) ok = "skip"
				c = $3 == "ok" ? $5 : $6; r = $NF
				printf "%s\t%s\t%s\t%s\t%s\n", k, i, c, r, ok; n++ }
			END { exit n == 0 }' "$out/console.log" 2>/dev/null | tee -a "$R/verdicts.tsv" | grep -c . || true)
		mkdir -p "$R/$name"
		cp "$out/console.log" "$R/$name/" 2>/dev/null || true
		[ "$rc" = 0 ] || failed+=("$name (boot.sh exit $rc: $(grep -A3 '^result:' "$out.log" | tr '\n' ' ' | cut -c1-200))")
		[ "$n" = $((runs * ncases)) ] || failed+=("$name: $n runs reported, expected $((runs * ncases))")
	done
done < <(shuffled_sets "$seed" "$boots" $kernels)
provenance_end "$R/provenance.txt"
[ ${#failed[@]} = 0 ] || fail "boots failed: ${failed[*]}"
report_rc=0
/usr/bin/python3 "$TOP/scripts/bench-verdicts-report.py" "$R/verdicts.tsv" --figures "$R/figures.tsv" \
	> "$R/report.txt" || report_rc=$?
cat "$R/report.txt"
[ $report_rc = 0 ] || fail "bench-verdicts-report found a problem (above)"
if [ -n "${BENCH_SAVE:-}" ]; then
	D=$TOP/evaluation/bench/results-verdicts
	rm -rf "$D"
	mkdir -p "$D"
	provenance_copy "$R/provenance.txt" "$D/provenance.txt"
	cp "$R/verdicts.tsv" "$R/report.txt" "$R/figures.tsv" "$D/"
	(cd "$R" && tar -czf "$D/consoles.tar.gz" verdicts-*)
	{
		echo "# make bench-verdicts: the selftest cases whose verdicts differ, run again"
		echo
		echo "<!-- Generated by make bench-verdicts BENCH_SAVE=1 from the run: do not edit. -->"
		echo
		echo "Command and host: [provenance.txt](provenance.txt); every run: [verdicts.tsv](verdicts.tsv);"
		echo "the consoles: consoles.tar.gz; every figure by key: [figures.tsv](figures.tsv)."
		echo
		echo '```'
		cat "$R/report.txt"
		echo '```'
	} > "$D/README.md"
	log "wrote $D"
fi
