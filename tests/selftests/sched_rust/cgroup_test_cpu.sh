#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043 # local: dash, BusyBox and bash have it (ktap_helpers.sh uses it)
#
# The kernel's cgroup cpu-controller selftest test_cpu (cgroup/test_cpu,
# installed beside this collection), with every task group's per-CPU state
# allocated by Rust and by C: only sched_rust/tg_state is switched, the
# other pieces stay where they are. Its own KTAP goes out as diagnostics,
# each case's results per side as a "figure:".
#
# On the debug kernel it runs ROUNDS times on each side (default 2; or
# TEST_CPU_ROUNDS, which wins: the name the boot test passes), alternating
# which side goes first. Its cases are statistical (cpu.stat within 1 % of
# a timed hog, weight ratios): a case failing on both sides is a property
# of the machine; one that never passes on Rust but always passes on C is
# a bug. A case that passes with the same probability p on both sides
# shows that pattern after n rounds with probability (p(1 - p))^n, at most
# 4^-n: 1/16 after the two rounds, 1/256 after four. So while some case
# keeps the pattern, two more rounds run, up to MAX_ROUNDS (default 8; or
# TEST_CPU_MAX_ROUNDS): the test fails on a case that failed all 8 Rust
# runs and passed all 8 C runs, which a flaky case does with probability
# at most 4^-8 (1.5e-5). What it detects: a case that Rust breaks every
# time (a regression that lowers the rate without zeroing it is a
# benchmark's question, not this test's). No round starts that would not
# end before the runner's timeout (kselftest_timeout, enforced where
# /usr/bin/timeout is): rounds cut short are said in the verdict.
#
# A production kernel has one side: test_cpu runs once, and its cases'
# results are figures, not a verdict. They are statistical, and under
# emulation some fail on C as on Rust; a case that fails there says
# nothing of which failed it (make bench-verdicts measures each case's
# pass rate per kernel, make bench-prod compares the =y and =n kernels').
# It runs on any kernel: without the option, once, as the C baseline.
#
# Both shapes: test_cpu ran on each side (exit 0 or 1, at least one case
# in every run) and printed as many cases as its plan, which it always
# prints (fewer means lost output, not a pass).

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

TEST_CPU=$DIR/../cgroup/test_cpu
# A count from the environment: digits, at least 1.
count() { case $1 in ''|*[!0-9]*|0*) return 1 ;; esac; }
rounds=${TEST_CPU_ROUNDS:-${ROUNDS:-2}}
count "$rounds" || rounds=2
max=${TEST_CPU_MAX_ROUNDS:-${MAX_ROUNDS:-8}}
count "$max" || max=8
[ "$max" -ge "$rounds" ] || max=$rounds
# shellcheck disable=SC2046 # the sides, one word each
set -- $(sides)
plan_case="test_cpu printed as many cases as its plan"
judge_case="test_cpu: no case fails on Rust only"
if [ "$SHAPE" = debug ]; then
	require $(($# + 2)) any
else
	require $(($# + 1)) any
fi
skip_all() {	# skip_all <side>...: every case skipped, for $why
	local side
	for side; do
		ktap_test_skip "$side: test_cpu ran with its cases ($why)"
	done
	ktap_test_skip "$plan_case ($why)"
	[ "$SHAPE" != debug ] || ktap_test_skip "$judge_case ($why)"
	ktap_finished
}
why=
if [ ! -x "$TEST_CPU" ]; then
	why="no test_cpu in $(readlink -f "$DIR/..")/cgroup:"
	why="$why install the cgroup selftests beside this collection"
elif [ "$SHAPE" = debug ] && [ ! -f $RC/tg_state ]; then
	why="no sched_rust/tg_state: no CONFIG_FAIR_GROUP_SCHED, no group state"
fi
[ -z "$why" ] || skip_all "$@"

tmp=$(mktemp -d) || ktap_exit_fail_msg "mktemp -d failed"
cleanup() {
	rm -rf "$tmp"
	[ "$SHAPE" != debug ] || echo rust > $RC/tg_state 2>/dev/null
}
trap cleanup EXIT
trap 'exit "$KSFT_FAIL"' INT TERM
: > "$tmp/runs"
: > "$tmp/cases"
if [ "$SHAPE" = debug ]; then
	ktap_print_msg "pieces at the start:$(for p in $PIECES; do
		[ -f $RC/$p ] && printf ' %s=%s' $p "$(cat $RC/$p)"; done)"
fi

# test_cpu once with the group state on <side> (or as built: prod), its
# KTAP as diagnostics as it comes. $tmp/runs gets "<side> <exit status>
# <cases> <plan>" ("<side> switch - -" if tg_state refused the side, "-"
# for no plan), $tmp/cases its result lines after the side.
run() {	# run <side>
	local rc cases plan
	if [ "$1" != prod ] &&
	   ! { echo "$1" > $RC/tg_state && [ "$(cat $RC/tg_state)" = "$1" ]; } 2>/dev/null; then
		echo "$1 switch - -" >> "$tmp/runs"
		ktap_print_msg "cannot put tg_state on $1: test_cpu not run"
		return
	fi
	ktap_print_msg "test_cpu with the group state on $1:"
	{ "$TEST_CPU" 2>&1; echo $? > "$tmp/rc"; } | tee "$tmp/out" | sed 's/^/# /'
	rc=$(cat "$tmp/rc")
	cases=$(grep -cE '^(not )?ok [0-9]+ ' "$tmp/out")
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$tmp/out" | head -n 1)
	echo "$1 ${rc:-none} $cases ${plan:--}" >> "$tmp/runs"
	grep -E '^(not )?ok [0-9]+ ' "$tmp/out" | sed "s/^/$1 /" >> "$tmp/cases"
	ktap_print_msg "figure: test_cpu on $1: exit ${rc:-none}, $cases cases, plan ${plan:-none}"
}
# The cases that failed every Rust run and passed every C run, one a line
# (a skip counts as a pass, as for the runner).
rust_only() {
	awk '{ side = $1; name = $NF; pass[side, name] += ($2 == "ok")
		runs[side, name]++; names[name] = 1 }
	END {
		for (n in names) {
			pr = pass["rust", n]; rr = runs["rust", n]
			pc = pass["c", n]; rc = runs["c", n]
			if (rr && !pr && rc && pc == rc)
				printf "%s (failed %d of %d Rust runs, passed %d of %d C runs)\n",
				    n, rr, rr, pc, rc
		}
	}' "$tmp/cases"
}
now() { cut -d. -f1 /proc/uptime; }

budget=
if [ -x /usr/bin/timeout ] && count "${kselftest_timeout:-}"; then
	budget=$((kselftest_timeout - 30))
fi
asked=$rounds r=0 cut= longest=0 t0=$(now)
if [ "$SHAPE" = debug ]; then
	while [ $r -lt "$rounds" ]; do
		if [ -n "$budget" ] && [ $(($(now) - t0 + longest)) -gt "$budget" ]; then
			cut="the runner's timeout ($kselftest_timeout s) left no time"
			cut="$cut for round $((r + 1)) of $rounds"
			ktap_print_msg "$cut"
			break
		fi
		ts=$(now)
		order="rust c"
		[ $((r % 2)) = 1 ] && order="c rust"
		for side in $order; do
			run $side
		done
		r=$((r + 1))
		d=$(($(now) - ts))
		[ $d -le $longest ] || longest=$d
		if [ $r = "$rounds" ] && [ "$rounds" -lt "$max" ] && [ -n "$(rust_only)" ]; then
			m="a case failed every Rust run and passed every C run"
			ktap_print_msg "$m after $r rounds: 2 more"
			rounds=$((rounds + 2))
			[ "$rounds" -le "$max" ] || rounds=$max
		fi
	done
	echo rust > $RC/tg_state 2>/dev/null
else
	run prod
fi

# Each case's results per side.
awk '{ name = $NF; side = $1; runs[name, side]++; names[name] = 1
	pass[name, side] += ($2 == "ok" && $0 !~ /# SKIP/); skip[name, side] += ($0 ~ /# SKIP/) }
	END {
		n = split("rust c prod", sides, " ")
		for (name in names) {
			line = "figure: test_cpu " name ":"
			sep = ""
			for (i = 1; i <= n; i++) {
				s = sides[i]
				if (!runs[name, s])
					continue
				line = line sep sprintf(" %s passed %d of %d", s,
				    pass[name, s], runs[name, s])
				if (skip[name, s])
					line = line sprintf(" (skipped %d)", skip[name, s])
				sep = ";"
			}
			print line
		}
	}' "$tmp/cases" | sort > "$tmp/figures"
while IFS= read -r l; do
	ktap_print_msg "$l"
done < "$tmp/figures"

# Every run on the side: exit 0 (every case passed or skipped) or 1 (a case
# failed), and cases; at least one run.
for side; do
	awk -v s="$side" '$1 == s { n++
		if ($2 == "switch")
			printf "run %d: cannot put tg_state on %s\n", n, s
		else if ($2 != "0" && $2 != "1")
			printf "run %d: test_cpu exited %s (0: its cases passed, 1: one failed)\n",
			    n, $2
		else if ($3 < 1)
			printf "run %d: test_cpu printed no case\n", n
	}
	END { if (!n) printf "test_cpu never ran on %s\n", s }' "$tmp/runs" > "$tmp/p"
	while IFS= read -r l; do
		problem "$l"
	done < "$tmp/p"
	verdict "$side: test_cpu ran with its cases"
done

awk '$2 != "switch" { n++
	if ($4 == "-")
		printf "%s, run %d: no plan (test_cpu always prints one)\n", $1, n
	else if ($4 == 0)
		printf "%s, run %d: a plan of 0 cases (test_cpu skipped)\n", $1, n
	else if ($3 != $4)
		printf "%s, run %d: %d cases of a plan of %d\n", $1, n, $3, $4
}
END { if (!n) print "test_cpu never ran" }' "$tmp/runs" > "$tmp/p"
while IFS= read -r l; do
	problem "$l"
done < "$tmp/p"
verdict "$plan_case"

if [ "$SHAPE" = debug ]; then
	for side; do
		grep -q "^$side " "$tmp/cases" ||
			problem "no case result on $side: nothing to compare"
	done
	[ $r -ge "$asked" ] || problem "$cut: $r of the $asked rounds ran"
	rust_only > "$tmp/p"
	while IFS= read -r l; do
		problem "failed every Rust run and passed every C run: $l"
	done < "$tmp/p"
	[ ! -s "$tmp/p" ] || [ -z "$cut" ] ||
		problem "($cut: $r rounds ran, $max asked at most)"
	verdict "$judge_case"
fi
ktap_finished
