#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The LLC occupancy accounting of cache-aware scheduling
# (CONFIG_SCHED_CACHE), on each side: one process of 4 threads walking a
# shared buffer (llc_threads) beside 2 single-threaded spinners, with the
# aggregation tolerance lifted so that the threads may gather in one LLC.
# With the debug option, sched_rust/llc_state is sampled once a second:
# some thread must get a preferred LLC (or the counters of a task with one
# were never exercised), and once everything has exited every CPU's
# nr_llc_running and nr_pref_llc_running must be back to 0. A production
# kernel runs the workload (no splat, the threads made progress) and skips
# what needs llc_state. LLC_SECONDS (default 6) is the workload's length.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

secs=${LLC_SECONDS:-6}
knob=/sys/kernel/debug/sched/llc_balancing/aggr_tolerance
# shellcheck disable=SC2046 # the sides, one word each
set -- $(sides)
require $(($# * 3))
if [ ! -f $knob ]; then
	for side; do
		for c in "the threads ran" "a thread got a preferred LLC" \
			 "the LLC counters back to 0"; do
			ktap_test_skip "$side: $c (no CONFIG_SCHED_CACHE: no $knob)"
		done
	done
	ktap_finished
fi
llcs=$(for c in /sys/devices/system/cpu/cpu[0-9]*/cache; do
	i=$(ls -d $c/index* 2>/dev/null | sort | tail -n1)
	[ -n "$i" ] && cat $i/shared_cpu_list
done | sort -u | wc -l)
ktap_print_msg "$llcs LLCs"

tol=$(cat $knob)
echo 100 > $knob
for side; do
	use $side || problem "cannot put every piece on $side"
	"$DIR/llc_threads" 4 "$secs" > /tmp/llc_threads.$$ &
	t=$!
	spin=
	for n in 1 2; do
		sh -c 'while :; do :; done' &
		spin="$spin $!"
	done
	best=0
	i=1
	while [ $i -lt "$secs" ]; do
		sleep 1
		if [ -f $RC/llc_state ]; then
			k=$(awk -v p=$t '$1 == "task" && $4 == p { n++ } END { print n + 0 }' \
				$RC/llc_state)
			[ "$k" -gt $best ] && best=$k
		fi
		i=$((i + 1))
	done
	rc=0
	wait $t || rc=$?
	kill $spin 2>/dev/null
	wait 2>/dev/null
	out=$(cat /tmp/llc_threads.$$)
	rm -f /tmp/llc_threads.$$
	[ $rc = 0 ] || problem "llc_threads exited $rc"
	case $out in "passes "[1-9]*) ;; *) problem "llc_threads printed '$out'" ;; esac
	verdict "$side: the threads ran ($out)"

	if [ ! -f $RC/llc_state ]; then
		why="no sched_rust/llc_state: the debug option"
		ktap_test_skip "$side: a thread got a preferred LLC ($why)"
		ktap_test_skip "$side: the LLC counters back to 0 ($why)"
		continue
	fi
	if [ "$llcs" -lt 2 ]; then
		ktap_test_skip "$side: a thread got a preferred LLC (one LLC: nothing to prefer)"
	else
		[ $best -gt 0 ] ||
			problem "no thread of llc_threads had a preferred LLC in ${secs}s"
		verdict "$side: a thread got a preferred LLC" \
			"(at most $best of its 5 threads at once)"
	fi
	sleep 1
	left=$(awk '$1 == "cpu" && ($6 || $8) { printf "cpu%s: %s %s; ", $2, $6, $8 }' \
		$RC/llc_state)
	[ -z "$left" ] ||
		problem "nr_llc_running, nr_pref_llc_running left after the workload: $left"
	verdict "$side: the LLC counters back to 0"
done
echo "$tol" > $knob
use rust 2>/dev/null
ktap_finished
