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
# workload than before it, and found no difference. A file the kernel does
# not have (no shadow option, no CONFIG_SCHED_CACHE) skips its case.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

secs=${CHECK_SECONDS:-4}
require 5
if [ "$SHAPE" != debug ] || [ ! -f $RC/shadow ]; then
	for f in shadow llc_check llc_shadow llc_choice tg_shadow; do
		ktap_test_skip "$f: no sched_rust/$f (CONFIG_SCHED_RUST_CFS_SHADOW)"
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
ktap_finished
