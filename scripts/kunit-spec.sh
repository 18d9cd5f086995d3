#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make kunit-spec: the specification suite, sched_rust_spec, over its full
# scope (sched_rust_spec_full=1) on UML, twice: with ARCH_SUPPORTS_INT128
# (the 128-bit product x86_64 and arm64 use; KUNIT_INT128=1 of
# scripts/kunit.sh) and without it (check_mul_overflow(), UML's x86_64 as
# it ships). Each run's sched_rust_spec lines go to
# $CACHE/kunit-spec/<arithmetic>.log, their figures to figures.tsv
# (scripts/kunit-spec-report.py), the run's provenance to provenance.txt;
# BENCH_SAVE=1 copies them into evaluation/bench/results-spec/.
# Exit: 0 both runs passed, 1 a test failed, 2 the harness (a run that
# printed no summary).

. "$(dirname "$0")/common.sh"

R=$CACHE/kunit-spec
rm -rf "$R"
mkdir -p "$R"
. "$TOP/scripts/provenance.sh"
provenance_begin "$R/provenance.txt" "make kunit-spec" \
	"UML x86_64 (tests/kunit/uml.kunitconfig, 4 CPUs), sched_rust_spec_full=1, with int128 (ARCH_SUPPORTS_INT128 selected as arch/x86 does) and without" \
	"kernel/sched/rust rust/kernel patches Kconfig.snippet tests/kunit evaluation/kernel scripts/kunit.sh scripts/kunit-spec.sh scripts/kunit-spec-report.py scripts/common.sh"
rc=0
for arith in int128 mul_overflow; do
	if [ $arith = int128 ]; then
		int128=1 b=$CACHE/build-kunit-um-int128
	else
		int128=0 b=$CACHE/build-kunit-um
	fi
	log "sched_rust_spec, full scope, $arith"
	rm -f "$b/test.log"
	KUNIT_ARCH=um KUNIT_INT128=$int128 "$TOP/scripts/kunit.sh" 'sched_rust_spec' \
		--kernel_args=sched_rust_spec_full=1 --kernel_args=kunit.timeout=3600 \
		> "$R/$arith.kunit.txt" 2>&1 || rc=1
	tail -n 3 "$R/$arith.kunit.txt" >&2
	grep -a 'sched_rust_spec\|^ *\(not \)\?ok [0-9]' "$b/test.log" > "$R/$arith.log" 2>/dev/null
	[ -f "$b/.config" ] && echo "config: $(sha256sum "$b/.config" | cut -c1-16) of the $arith UML kernel's .config" >> "$R/provenance.txt"
done
provenance_built "$R/provenance.txt" "$CACHE/build-kunit-um-int128" "$CACHE/build-kunit-um"
provenance_end "$R/provenance.txt"
python3 "$TOP/scripts/kunit-spec-report.py" --figures "$R/figures.tsv" "$R" | tee "$R/report.txt" >&2
[ "${PIPESTATUS[0]}" = 0 ] || rc=2
if [ "${BENCH_SAVE:-0}" = 1 ]; then
	dst=$TOP/evaluation/bench/results-spec
	rm -rf "$dst"
	mkdir -p "$dst"
	cp "$R/provenance.txt" "$R/figures.tsv" "$R/report.txt" "$R/int128.log" "$R/mul_overflow.log" "$dst/"
	log "results written to $dst"
fi
exit $rc
