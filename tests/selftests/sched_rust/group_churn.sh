#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043 # local: dash, BusyBox and bash have it (ktap_helpers.sh uses it)
#
# Task-group churn, on each side: a tree of 340 groups (4 wide, 4 deep),
# each with its per-CPU cfs_tg_state, built and removed ROUNDS times
# (default 3) after a warm-up round. Group state that was not freed would
# grow Percpu in /proc/meminfo by 340 x possible CPUs x sizeof(struct
# cfs_tg_state) each round (over 512 kB in 3 rounds for a state of 128
# bytes on 4 CPUs); the growth over the rounds may be at most 512 kB, and
# the cpu controller's group count must be back to its start.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

rounds=${ROUNDS:-3}
# shellcheck disable=SC2046 # the sides, one word each
set -- $(sides)
require $(($# * 2))

percpu_kb() { awk '/^Percpu:/ { print $2 }' /proc/meminfo; }
groups() { awk '$1 == "cpu" { print $3 }' /proc/cgroups; }
churn() {	# churn <rounds>: false after the first round that failed
	local r=0
	while [ $r -lt "$1" ]; do
		tree $root 4 4 && [ "$NGROUPS" = 340 ] ||
			{ problem "round $r: the tree has $NGROUPS groups, not 340"; return 1; }
		tree_remove $root || return 1
		r=$((r + 1))
	done
}

for side; do
	root=$CG/sched_rust_churn
	tree_remove $root
	use $side || problem "cannot put every piece on $side"
	g0=$(groups)
	churn 1
	sleep 2
	p0=$(percpu_kb)
	churn "$rounds"
	# Freed group state goes back after an RCU grace period.
	sleep 2
	p1=$(percpu_kb)
	verdict "$side: $rounds rounds of 340 groups built and removed"
	[ -n "$p0" ] && [ -n "$p1" ] || problem "no Percpu line in /proc/meminfo"
	[ -n "$g0" ] || problem "no cpu line in /proc/cgroups"
	[ $((p1 - p0)) -le 512 ] ||
		problem "Percpu grew by $((p1 - p0)) kB over $rounds rounds ($p0 -> $p1 kB)"
	[ "$(groups)" = "$g0" ] || problem "the cpu controller counts $(groups) groups, $g0 before"
	verdict "$side: Percpu and the group count back to their start (Percpu $p0 -> $p1 kB)"
done
use rust 2>/dev/null
ktap_finished
