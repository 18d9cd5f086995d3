#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043 # local: dash, BusyBox and bash have it (ktap_helpers.sh uses it)
#
# CPU hotplug under load, on each side: every CPU but 0 that is online at
# the start is taken offline, left so for a second and brought back, one
# after the other, HOTPLUG_ROUNDS times (default 2), while rt-tests'
# hackbench runs in a loop (2 groups over pipes, 50 messages of 100 bytes).
# Each offline and online write must succeed and read back, at least one
# CPU must go offline per round, the CPUs online at the end must be those
# online at the start, and the load must have kept running: at least one
# hackbench run completed, none failed, the loop still going when the
# hotplug ended and done within 60 s of it. What it can detect: tasks,
# runqueues or task groups that a CPU's departure or return leaves in a
# state where a pick, an enqueue or the LLC accounting (the sched domains
# are rebuilt each time) fails, hangs or splats, or a CPU that cannot come
# back. Skipped on a machine with one CPU or without CPU hotplug (no
# cpu1/online); without hackbench in PATH the CPUs cycle unloaded and the
# load's case skips. It runs on any kernel: without the option (once, as
# the C baseline of the same test) too.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

CPUS=/sys/devices/system/cpu
rounds=${HOTPLUG_ROUNDS:-2}
case $rounds in ''|*[!0-9]*|0*) rounds=2 ;; esac
# shellcheck disable=SC2046 # the sides, one word each
set -- $(sides)
require $(($# * 3)) any
tmp=$(mktemp -d) || ktap_exit_fail_msg "mktemp -d failed"
cleanup() {
	local c
	# A load still running (the test was stopped): killed.
	[ -z "$LOAD" ] || kill "$LOAD" "$(cat "$tmp/hb.pid" 2>/dev/null)" 2>/dev/null
	# CPUs this test took offline and could not bring back: once more.
	for c in $taken; do
		[ "$(cat $CPUS/$c/online 2>/dev/null)" = 0 ] &&
			echo 1 > $CPUS/$c/online 2>/dev/null
	done
	rm -rf "$tmp"
}
LOAD= taken=
trap cleanup EXIT
trap 'exit "$KSFT_FAIL"' INT TERM

online=$(grep -c ^processor /proc/cpuinfo)
why=
if [ ! -f $CPUS/cpu1/online ]; then
	why="no CPU hotplug: no $CPUS/cpu1/online"
elif [ "$online" -lt 2 ]; then
	why="$online CPU online"
fi
if [ -n "$why" ]; then
	for side; do
		ktap_test_skip "$side: every CPU but 0 taken offline and back ($why)"
		ktap_test_skip "$side: every CPU online at the end ($why)"
		ktap_test_skip "$side: the hackbench load ran through the hotplug ($why)"
	done
	ktap_finished
fi

# hackbench in a loop until $tmp/stop exists: a line per run in $tmp/load
# ("ok", or "failed <status>: <its last lines>"), "end" in $tmp/load.end
# when the loop is done.
load_start() {
	rm -f "$tmp/stop" "$tmp/load.end"
	: > "$tmp/load"
	(
		while [ ! -e "$tmp/stop" ]; do
			hackbench -p -g 2 -l 50 -s 100 > "$tmp/hb.out" 2>&1 &
			echo $! > "$tmp/hb.pid"
			wait $!
			rc=$?
			if [ $rc = 0 ]; then
				echo ok >> "$tmp/load"
			else
				out=$(tail -n 3 "$tmp/hb.out" | tr '\n' ' ' | cut -c1-200)
				echo "failed $rc: $out" >> "$tmp/load"
				sleep 1
			fi
		done
		echo end > "$tmp/load.end"
	) &
	LOAD=$!
}
# The load stopped and judged: problems for the case of the load.
load_stop() {
	local w=0 ok bad
	[ ! -e "$tmp/load.end" ] || problem "the hackbench loop had ended before the hotplug did"
	touch "$tmp/stop"
	while [ ! -e "$tmp/load.end" ]; do
		if [ $w -ge 60 ]; then
			problem "a hackbench run still going 60 s after the hotplug ended: killed"
			kill "$(cat "$tmp/hb.pid")" "$LOAD" 2>/dev/null
			break
		fi
		sleep 1
		w=$((w + 1))
	done
	wait "$LOAD" 2>/dev/null
	LOAD=
	ok=$(grep -c '^ok$' "$tmp/load")
	bad=$(grep -c '^failed' "$tmp/load")
	ktap_print_msg "figure: $side: $ok hackbench runs completed under the hotplug, $bad failed"
	[ "$ok" -gt 0 ] || problem "no hackbench run completed"
	[ "$bad" = 0 ] || problem "$bad hackbench runs failed, the first:" \
		"$(grep '^failed' "$tmp/load" | head -n 1)"
}

for side; do
	wrong=
	use "$side" || wrong="cannot put every piece on $side"
	start=$(cat $CPUS/online)
	# The CPUs to cycle: every one but 0 with an online file, online now.
	cpus=
	for c in $CPUS/cpu[1-9]*/online; do
		[ "$(cat "$c")" = 1 ] || continue
		c=${c%/online}
		cpus="$cpus ${c##*/}"
	done
	ktap_print_msg "$side: online $start, cycling$cpus"
	hb=
	command -v hackbench > /dev/null && hb=1
	[ -z "$hb" ] || load_start

	[ -z "$wrong" ] || problem "$wrong"
	[ -n "$cpus" ] || problem "no CPU but 0 online with an online file"
	n=0 r=0
	while [ $r -lt "$rounds" ]; do
		r=$((r + 1)) off=0
		for c in $cpus; do
			f=$CPUS/$c/online
			if [ "$(cat "$f")" != 1 ]; then
				problem "round $r: $c is not online at the start of the round"
				continue
			fi
			if ! echo 0 2> "$tmp/err" > "$f"; then
				problem "round $r: cannot take $c offline:" \
					"$(tr '\n' ' ' < "$tmp/err")"
				continue
			fi
			taken="$taken $c"
			v=$(cat "$f")
			[ "$v" = 0 ] || problem "round $r: $c reads $v after going offline"
			off=$((off + 1))
			sleep 1
			if ! echo 1 2> "$tmp/err" > "$f"; then
				problem "round $r: cannot bring $c back online:" \
					"$(tr '\n' ' ' < "$tmp/err")"
				continue
			fi
			v=$(cat "$f")
			[ "$v" = 1 ] || problem "round $r: $c reads $v after coming back online"
			n=$((n + 1))
		done
		[ $off -gt 0 ] || problem "round $r: no CPU went offline"
	done
	ktap_print_msg "figure: $side: $n offline and online cycles in $rounds rounds"
	verdict "$side: every CPU but 0 taken offline and back"

	[ -z "$wrong" ] || problem "$wrong"
	end=$(cat $CPUS/online)
	[ "$end" = "$start" ] || problem "CPUs online at the end: $end, at the start: $start"
	verdict "$side: every CPU online at the end"
	# Leave the machine as it was found, for the tests after this one.
	for c in $taken; do
		[ "$(cat $CPUS/$c/online)" = 1 ] || echo 1 > $CPUS/$c/online ||
			ktap_print_msg "$c is still offline"
	done
	taken=

	name="$side: the hackbench load ran through the hotplug"
	if [ -z "$hb" ]; then
		ktap_test_skip "$name (no hackbench in PATH)"
		continue
	fi
	[ -z "$wrong" ] || problem "$wrong"
	load_stop
	verdict "$name"
done
use rust 2>/dev/null
ktap_finished
