#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A cgroup tree under load, on each side: 84 groups (4 wide, 3 deep, each
# with its per-CPU cfs_tg_state), in every leaf one CPU-bound and one
# sleeping task, g1 limited to 20 % by cpu.max. Per side: the tree is built,
# sched/debug lists the tasks with their eligibility while they run (the
# pick's eligibility test under each runqueue's lock), every CPU-bound task
# gets CPU time, g1 is throttled and stays near its quota, and the tree is
# removed. SECONDS_RUN (default 4) is the load's length.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

run=${SECONDS_RUN:-4}
# shellcheck disable=SC2046 # the sides, one word each
set -- $(sides)
require $(($# * 5))

for side; do
	root=$CG/sched_rust_tree
	tree_remove $root
	use $side || problem "cannot put every piece on $side"
	tree $root 4 3
	[ "$NGROUPS" = 84 ] || problem "the tree has $NGROUPS groups, not 84"
	echo "20000 100000" > $root/g1/cpu.max || problem "cpu.max of g1"
	verdict "$side: a tree of 84 groups"

	# From before the first task is attached: g1's leaves come first and
	# run while the others are attached (tens of seconds under QEMU).
	t0=$(cut -d' ' -f1 /proc/uptime)
	pids= busy=
	for l in $LEAVES; do
		sh -c 'while :; do :; done' &
		echo $! > $l/cgroup.procs || problem "attach a CPU-bound task to $l"
		pids="$pids $!" busy="$busy $!"
		sh -c 'while :; do sleep 0.01; done' &
		echo $! > $l/cgroup.procs || problem "attach a sleeping task to $l"
		pids="$pids $!"
	done
	reads=0 lines=0
	while [ $reads -lt 5 ]; do
		n=$(grep -cE ' [EN] +-?[0-9]+\.[0-9]{6} ' /sys/kernel/debug/sched/debug)
		[ "$n" -gt 0 ] ||
			problem "sched/debug read $((reads + 1)) listed no task with eligibility"
		lines=$((lines + n)) reads=$((reads + 1))
		sleep 0.2
	done
	verdict "$side: sched/debug lists the tasks with their eligibility" \
		"($lines lines in $reads reads)"

	sleep "$run"
	# g1 may use 20 ms per 100 ms period: it must have been throttled,
	# and its usage may exceed quota x time by no more than a period's
	# quota plus 50 % (the tasks' start, the tick's granularity). Read
	# under the load, then the load stopped before the leaves are read.
	ms=$(awk -v t0="$t0" '{ printf "%d", ($1 - t0) * 1000 }' /proc/uptime)
	cg_stat $root/g1 nr_throttled
	thr=$STAT
	cg_stat $root/g1 usage_usec
	use_us=$STAT
	# Each CPU-bound task's own run time (/proc/<pid>/schedstat, or its
	# utime and stime ticks without CONFIG_SCHED_INFO), read with the
	# shell's read: no fork under the load.
	idle=0
	for p in $busy; do
		rt=0
		if [ -r /proc/$p/schedstat ]; then
			read -r rt _ < /proc/$p/schedstat
		else
			read -r _ _ _ _ _ _ _ _ _ _ _ _ _ ut st _ < /proc/$p/stat
			rt=$((ut + st))
		fi
		[ "${rt:-0}" -gt 0 ] || idle=$((idle + 1))
	done
	kill $pids 2>/dev/null
	wait 2>/dev/null
	[ $idle = 0 ] ||
		problem "$idle of $(echo $busy | wc -w) CPU-bound tasks got no CPU time in ${ms} ms"
	verdict "$side: every leaf's CPU-bound task ran"

	[ "$thr" -gt 0 ] || problem "g1 was never throttled in ${ms} ms"
	lim=$(( (ms * 200 + 20000) * 3 / 2 ))
	[ "$use_us" -le $lim ] ||
		problem "g1 used ${use_us} us in ${ms} ms," \
			"more than 20 % plus a period, +50 % ($lim us)"
	verdict "$side: cpu.max throttles g1 to its quota" \
		"($thr throttled periods, ${use_us} us in ${ms} ms)"

	tree_remove $root || problem "the tree is still there"
	verdict "$side: the tree removed"
done
use rust 2>/dev/null
ktap_finished
