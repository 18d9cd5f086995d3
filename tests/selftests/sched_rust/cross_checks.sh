#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043 # local: dash, BusyBox and bash have it (ktap_helpers.sh uses it)
#
# The debug kernel's cross-checks of Rust against C, read around a
# scheduler workload (processes waking and sleeping in a small cgroup tree,
# on each side): with CONFIG_SCHED_RUST_CFS_SHADOW, every pick and
# eligibility test run by both implementations (sched_rust/shadow), every
# LLC dequeue recounting the runqueue (llc_check), every LLC function
# recomputed by both (llc_shadow), every preferred-LLC choice against its
# specification (llc_choice), every new group's state made by both
# (tg_shadow). Each must have switched on, counted more checks during the
# workload than before it, and found no difference. Then the counts since
# boot: no difference in the whole boot; and, as they stood when this test
# started (the earlier tests' work: it runs last in the collection's
# order), the check switched on, with at least the minimums in
# SHADOW_MIN, LLC_CHECK_MIN, LLC_SHADOW_MIN, LLC_CHOICE_MIN and
# TG_SHADOW_MIN behind that verdict (none by default; the boot test sets
# them for its workloads). A file the kernel does not have (no shadow
# option, no CONFIG_SCHED_CACHE) skips its cases.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

secs=${CHECK_SECONDS:-4}
require 10
if [ "$SHAPE" != debug ] || [ ! -f $RC/shadow ]; then
	for f in shadow llc_check llc_shadow llc_choice tg_shadow; do
		ktap_test_skip "$f: no sched_rust/$f (CONFIG_SCHED_RUST_CFS_SHADOW)"
		ktap_test_skip "$f since boot: no sched_rust/$f (CONFIG_SCHED_RUST_CFS_SHADOW)"
	done
	ktap_finished
fi

# The field that counts checks and the one that counts differences, per
# file ("<on> <checks> <differences>", "<on> <differences> <skipped> ...",
# "<on> <checks> <moves> <differences> <skipped> <left>", "<on>
# <differences> <skipped> c <n> rust <n>").
field() {	# field <file> checks|diffs
	case $1:$2 in
	shadow:checks|llc_check:checks|llc_choice:checks) echo 2 ;;
	shadow:diffs|llc_check:diffs) echo 3 ;;
	llc_choice:diffs) echo 4 ;;
	llc_shadow:diffs|tg_shadow:diffs) echo 2 ;;
	llc_shadow:checks) echo sum ;;
	tg_shadow:checks) echo sum ;;
	esac
}
get() {	# get <file> checks|diffs
	local f
	f=$(field "$1" "$2")
	if [ "$f" = sum ]; then
		counters "$1" | awk '{
			for (i = 4; i < NF; i++)
				if ($(i + 1) ~ /^[0-9]+$/ && $i !~ /^[0-9]+$/)
					s += $(i + 1)
			print s + 0
		}'
	else
		counters "$1" | awk -v f="$f" '{ print $f + 0 }'
	fi
}

# The counts the earlier tests left, before this test switches anything on.
for f in shadow llc_check llc_shadow llc_choice tg_shadow; do
	eval "pre_$f=\$(counters $f)"
done
echo 1 > $RC/shadow 2>/dev/null
for f in shadow llc_check llc_shadow llc_choice tg_shadow; do
	eval "before_$f=\$(get $f checks)"
done

# The workload: per side, a tree of 20 groups (made by that side's group
# state), 16 processes sleeping 1 ms between short runs, 2 spinners, and
# llc_threads where it is built.
for side in rust c; do
	use $side || problem "cannot put every piece on $side"
	root=$CG/sched_rust_checks
	tree_remove $root
	tree $root 4 2
	pids=
	for l in $LEAVES; do
		sh -c 'while :; do sleep 0.001; done' &
		echo $! > $l/cgroup.procs
		pids="$pids $!"
	done
	for n in 1 2; do
		sh -c 'while :; do :; done' &
		pids="$pids $!"
	done
	[ -x "$DIR/llc_threads" ] && "$DIR/llc_threads" 4 "$secs" > /dev/null
	sleep 1
	kill $pids 2>/dev/null
	wait 2>/dev/null
	tree_remove $root
done
use rust || problem "cannot put every piece back on Rust"

for f in shadow llc_check llc_shadow llc_choice tg_shadow; do
	if [ ! -f $RC/$f ]; then
		ktap_test_skip "$f: no sched_rust/$f in this kernel"
		continue
	fi
	line=$(counters $f)
	eval "b=\$before_$f"
	a=$(get $f checks)
	d=$(get $f diffs)
	[ "${line%% *}" = 1 ] || problem "$f is switched off: $line"
	[ "$a" -gt "$b" ] || problem "$f counted no check during the workload ($b before, $a after)"
	[ "$d" = 0 ] || problem "$f found $d differences: $line"
	verdict "$f: $((a - b)) checks during the workload, $d differences"
done

# Since boot: no difference, from the counts at the end. Before this test:
# the check on (a check off during the earlier tests checked nothing), and
# behind the verdict, where the minimums are set (the boot test's, in
# brackets): the shadow check and the LLC counter check, SHADOW_MIN
# (50000) picks and eligibility tests and LLC_CHECK_MIN (10000) dequeues;
# the LLC shadow check, the accounting, the decay and the scan's average
# compared LLC_SHADOW_MIN (20) times with each side selected, and
# pref_llc_running (the delayed dequeue of a task with a preferred LLC)
# at least once in all; the preferred-LLC choice, LLC_CHOICE_MIN (20)
# scans checked, one at least whose sums moved the preferred CPU (both
# outcomes of the rule compared), and the preferred CPU left compared
# after LLC_CHOICE_MIN scans; the group state, TG_SHADOW_MIN (20) new
# groups with each side selected.
since_boot() {	# since_boot <file> <its line before this test>: its problems
	local f=$1 pre=$2 end n x
	end=$(counters "$f")
	# shellcheck disable=SC2086 # the fields, one word each
	set -- $end
	case $f in
	shadow|llc_check) [ "$3" = 0 ] || problem "$f: $3 differences since boot" ;;
	llc_choice) [ "$4" = 0 ] ||
		problem "$f: $4 differences from the specification since boot" ;;
	*) [ "$2" = 0 ] || problem "$f: $2 differences since boot" ;;
	esac
	# shellcheck disable=SC2086 # as above
	set -- $pre
	[ "${1:-}" = 1 ] ||
		problem "$f was off before this test: the earlier tests ran unchecked ('$pre')"
	case $f in
	shadow|llc_check)
		[ $f = shadow ] && n=${SHADOW_MIN:-0} || n=${LLC_CHECK_MIN:-0}
		[ "${2:-0}" -ge "$n" ] ||
			problem "$f: ${2:-0} checks before this test, fewer than $n"
		;;
	llc_shadow)
		n=${LLC_SHADOW_MIN:-0}
		[ "$n" = 0 ] && return
		x=$(echo "$pre" | awk -v n="$n" '{
			fmt = "%s compared %d times with %s selected, fewer than %d; "
			for (i = 4; i < NF; i++) {
				if ($i == "c" || $i == "rust") side = $i
				else if ($(i + 1) ~ /^[0-9]+$/) {
					if ($i == "pref") pref += $(i + 1)
					else if ($(i + 1) < n) printf fmt, $i, $(i + 1), side, n
					seen++; i++
				}
			}
			if (!seen) printf "no count per side and function; "
			if (!pref) printf "pref_llc_running never compared; "
		}')
		[ -z "$x" ] || problem "$f before this test: $x"
		;;
	llc_choice)
		n=${LLC_CHOICE_MIN:-0}
		[ "$n" = 0 ] && return
		[ "${2:-0}" -ge "$n" ] ||
			problem "$f: ${2:-0} scans checked before this test, fewer than $n"
		[ "${3:-0}" -ge 1 ] ||
			problem "$f: no scan moved the preferred CPU before this test" \
				"(${2:-0} checked)"
		case ${6:-} in
		''|*[!0-9]*) problem "$f: no count of the preferred CPUs left compared ('$pre')" ;;
		*) [ "$6" -ge "$n" ] ||
			problem "$f: the preferred CPU left compared after $6 scans" \
				"before this test, fewer than $n" ;;
		esac
		;;
	tg_shadow)
		n=${TG_SHADOW_MIN:-0}
		[ "${4:-}" = c ] && [ "${6:-}" = rust ] ||
			{ problem "$f: cannot read '$pre'"; return; }
		[ "${5:-0}" -ge "$n" ] ||
			problem "$f: ${5:-0} groups compared with c selected" \
				"before this test, fewer than $n"
		[ "${7:-0}" -ge "$n" ] ||
			problem "$f: ${7:-0} groups compared with rust selected" \
				"before this test, fewer than $n"
		;;
	esac
}
for f in shadow llc_check llc_shadow llc_choice tg_shadow; do
	if [ ! -f $RC/$f ]; then
		ktap_test_skip "$f since boot: no sched_rust/$f in this kernel"
		continue
	fi
	eval "pre=\$pre_$f"
	since_boot $f "$pre"
	verdict "$f since boot: before this test $pre; at its end $(counters $f)"
done
ktap_finished
