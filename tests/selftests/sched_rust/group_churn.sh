#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043 # local: dash, BusyBox and bash have it (ktap_helpers.sh uses it)
#
# Task-group churn, on each side: a tree of 340 groups (4 wide, 4 deep),
# each with its per-CPU cfs_tg_state, built and removed CHURN_ROUNDS times
# (default 3, at least 2) after a warm-up round, Percpu in /proc/meminfo
# read in each round while the tree stands. Group state that was not freed
# would raise that reading by 340 x possible CPUs x sizeof(struct
# cfs_tg_state) per round; the last may exceed the first by at most
# 512 kB. (Read after a tree's removal, Percpu also holds the pages of
# empty chunks until the percpu allocator's balance work frees them, at a
# time of its own: 640 kB after the warm-up and 2272 kB after the next round
# on a kernel that leaks nothing. While the tree stands, its states fill the
# pages those chunks keep.) The cpu controller's group count must be back to
# its start, both read once every removed group is freed.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

rounds=${CHURN_ROUNDS:-3}
[ "$rounds" -ge 2 ] || rounds=2
# shellcheck disable=SC2046 # the sides, one word each
set -- $(sides)
require $(($# * 2))

percpu_kb() { awk '/^Percpu:/ { print $2 }' /proc/meminfo; }
groups() { awk '$1 == "cpu" { print $3 }' /proc/cgroups; }
# A removed group leaves cgroup.stat's nr_dying_descendants when it is
# released, and the cpu controller's count in /proc/cgroups only when it is
# freed, an RCU grace period and a work item later (an earlier test's groups
# too): settle waits up to 60 s for that count to be the live groups and the
# root, false if it is not (or either is missing).
settle() {	# settle <when, for the message>
	local w=0 live
	while :; do
		live=$(awk '$1 == "nr_descendants" { print $2 + 1 }' $CG/cgroup.stat)
		[ -n "$live" ] && [ "$(groups)" = "$live" ] && return 0
		[ $w -ge 60 ] && break
		sleep 1
		w=$((w + 1))
	done
	problem "$1: the cpu controller counts $(groups) groups," \
		"$live live, after 60 s"
	return 1
}
churn() {	# churn: one round; false if it failed; the Percpu reading in $PCPU
	tree $root 4 4 && [ "$NGROUPS" = 340 ] ||
		{ problem "the tree has $NGROUPS groups, not 340"; return 1; }
	PCPU=$(percpu_kb)
	tree_remove $root
}

for side; do
	root=$CG/sched_rust_churn
	tree_remove $root
	use $side || problem "cannot put every piece on $side"
	settle "before the rounds"
	g0=$(groups)
	churn
	seen= r=0
	while [ $r -lt "$rounds" ]; do
		churn || break
		seen="$seen $PCPU"
		r=$((r + 1))
	done
	p0=$(echo "$seen" | awk '{ print $1 }')
	p1=$(echo "$seen" | awk '{ print $NF }')
	settle "after the rounds"
	verdict "$side: $rounds rounds of 340 groups built and removed"
	[ -n "$p0" ] && [ -n "$p1" ] || problem "no Percpu line in /proc/meminfo"
	[ -n "$g0" ] || problem "no cpu line in /proc/cgroups"
	[ $((p1 - p0)) -le 512 ] ||
		problem "Percpu with the tree built grew by $((p1 - p0)) kB" \
			"over $rounds rounds (kB:$seen)"
	[ "$(groups)" = "$g0" ] ||
		problem "the cpu controller counts $(groups) groups, $g0 before"
	verdict "$side: Percpu and the group count back to their start" \
		"(Percpu kB with the tree:$seen)"
done
use rust 2>/dev/null
ktap_finished
