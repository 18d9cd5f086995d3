#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043 # local: dash, BusyBox and bash have it (ktap_helpers.sh uses it)
#
# Scheduler workloads, on each side: rt-tests' hackbench (2 groups of 10
# senders and 10 receivers over pipes, 50 messages each), schedbench's
# wakeup storm (32 processes sleeping 50-250 us and waking for 2 s, so that
# most picks follow a wakeup; no tool here does that) and stress-ng's switch
# stressor (2 pairs of processes ping-ponging over pipes for 1 s). Each tool
# must exit 0 and print its figure (hackbench's time, schedbench's
# wakeups/s, stress-ng's switches/s, each above 0), which goes out as a
# "figure:" diagnostic. With the debug option's route statistics
# (CONFIG_SCHED_RUST_CFS_STATS: sched_rust/pick_stats, zeroed and switched
# on for each side's workloads), the picks must have been counted, and
# served by the side selected: the other side may have served at most 1 %
# of them (none, as the switch waits for every CPU). What it can detect: a
# side under which a workload fails, makes no progress or hangs (until the
# runner's timeout), and a pick that does not follow the switch. A tool
# missing from PATH skips its case; a production kernel has no route
# statistics and skips that case. It runs on any kernel: without the option
# (once, as the C baseline of the same workloads) too.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

# shellcheck disable=SC2046 # the sides, one word each
set -- $(sides)
require $(($# * 4)) any
tmp=$(mktemp -d) || ktap_exit_fail_msg "mktemp -d failed"
cleanup() {
	rm -rf "$tmp"
	[ ! -f $RC/pick_stats ] || echo 0 > $RC/pick_stats 2>/dev/null
}
trap cleanup EXIT
trap 'exit "$KSFT_FAIL"' INT TERM

# A number above 0 (an integer or a decimal fraction).
positive() {
	awk -v x="$1" 'BEGIN { exit !(x ~ /^[0-9]+(\.[0-9]+)?$/ && x + 0 > 0) }'
}
# A tool from PATH, its exit status checked: its output in $tmp/out, a
# problem and false if it failed.
tool() {	# tool <command> <args>...
	local rc=0
	"$@" > "$tmp/out" 2>&1 || rc=$?
	[ $rc = 0 ] && return 0
	problem "$* exited $rc: $(tail -n 5 "$tmp/out" | tr '\n' ' ' | cut -c1-300)"
	return 1
}
# This collection's schedbench, its exit status and output checked as the
# boot test's sb: a failed or silent run is a problem with its stderr; its
# last line ("<mode> <rate>") in $SB.
sb() {	# sb <mode> <args>...
	local rc=0
	SB=
	if [ ! -x "$DIR/schedbench" ]; then
		problem "no $DIR/schedbench: the collection was installed without it"
		return 1
	fi
	"$DIR/schedbench" "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
	SB=$(tail -n 1 "$tmp/out")
	if [ $rc != 0 ] || [ -z "$SB" ]; then
		problem "schedbench $* exited $rc: $(tr '\n' ' ' < "$tmp/err" | cut -c1-400)"
		return 1
	fi
}

for side; do
	# A side that could not be selected spoils each of its cases.
	wrong=
	use "$side" || wrong="cannot put every piece on $side"
	# Writing 1 while they are off zeroes the counters.
	stats=
	if [ -f $RC/pick_stats ]; then
		stats=on
		{ echo 0 > $RC/pick_stats && echo 1 > $RC/pick_stats; } 2>/dev/null ||
			stats="cannot zero and switch on sched_rust/pick_stats"
	fi

	name="$side: hackbench (rt-tests) ran"
	if ! command -v hackbench > /dev/null; then
		ktap_test_skip "$name (no hackbench in PATH)"
	else
		[ -z "$wrong" ] || problem "$wrong"
		if tool hackbench -p -f 10 -g 2 -l 50; then
			t=$(sed -n 's/^Time: *//p' "$tmp/out" | head -n 1)
			if positive "$t"; then
				ktap_print_msg "figure: $side: hackbench $t s"
			else
				problem "hackbench printed no time:" \
					"$(tail -n 3 "$tmp/out" | tr '\n' ' ' | cut -c1-300)"
			fi
		fi
		verdict "$name"
	fi

	[ -z "$wrong" ] || problem "$wrong"
	if sb wake 32 2; then
		rate=${SB#wake }
		case $SB in
		"wake "[1-9]*) ;;
		*) rate= ;;
		esac
		if positive "$rate" && [ "$rate" = "${rate%.*}" ]; then
			ktap_print_msg "figure: $side: schedbench wake $rate wakeups/s"
		else
			problem "schedbench wake 32 2 printed '$SB', not 'wake <wakeups/s above 0>'"
		fi
	fi
	verdict "$side: schedbench wake ran"

	name="$side: stress-ng switch ran"
	if ! command -v stress-ng > /dev/null; then
		ktap_test_skip "$name (no stress-ng in PATH)"
	else
		[ -z "$wrong" ] || problem "$wrong"
		if tool stress-ng --temp-path "$tmp" --switch 2 --timeout 1 --metrics-brief; then
			ops=$(awk '$2 == "metrc:" && $4 == "switch" { print $9; exit }' "$tmp/out")
			if positive "$ops"; then
				ktap_print_msg "figure: $side: stress-ng switch $ops ops/s"
			else
				problem "stress-ng printed no switch rate above 0 ('${ops}'):" \
					"$(grep metrc "$tmp/out" | tail -n 3 | tr '\n' ' ' |
						cut -c1-300)"
			fi
		fi
		verdict "$name"
	fi

	# Route statistics: "enabled <0|1>", then per implementation
	# "<c|rust> single <n> buddy <n> protect <n> fast <n> heap <n>".
	name="$side: route statistics of the picks"
	if [ "$SHAPE" != debug ]; then
		why="no sched_rust/pick_stats without CONFIG_SCHED_RUST_CFS_DEBUG"
		ktap_test_skip "$name ($why)"
		continue
	fi
	if [ -z "$stats" ]; then
		ktap_test_skip "$name (no sched_rust/pick_stats: CONFIG_SCHED_RUST_CFS_STATS)"
		continue
	fi
	[ -z "$wrong" ] || problem "$wrong"
	[ "$stats" = on ] || problem "$stats"
	cat $RC/pick_stats > "$tmp/stats" 2>/dev/null ||
		problem "cannot read sched_rust/pick_stats"
	echo 0 > $RC/pick_stats 2>/dev/null || problem "cannot switch sched_rust/pick_stats off"
	picks=$(grep -v enabled "$tmp/stats" | tr -s ' \n' '  ')
	ktap_print_msg "figure: $side: picks by route: $picks"
	awk -v s="$side" '
		$1 == "enabled" { on = $2 }
		$1 == "c" || $1 == "rust" {
			n = 0
			for (i = 3; i <= NF; i += 2)
				n += $i
			if ($1 == s)
				own = n
			else
				other = n
			rows++
		}
		END { print on + 0, rows + 0, own + 0, other + 0 }' "$tmp/stats" > "$tmp/sum"
	read -r on rows own other < "$tmp/sum"
	[ "$on" = 1 ] || problem "pick_stats read 'enabled $on' after the workloads"
	[ "$rows" = 2 ] || problem "pick_stats has $rows rows of counts, not 2 (c and rust)"
	[ "$own" -gt 0 ] || problem "no pick counted for $side during the workloads"
	[ $((other * 100)) -le "$own" ] ||
		problem "the other side served $other picks, $side $own:" \
			"the pick did not follow the switch"
	verdict "$name"
done
use rust 2>/dev/null
ktap_finished
