#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043 # local: dash, BusyBox and bash have it (ktap_helpers.sh uses it)
#
# Task-group churn, on each side: a tree of 340 groups (4 wide, 4 deep),
# each with its per-CPU cfs_tg_state, built and removed ROUNDS times
# (default 3, at least 2) after a warm-up round, Percpu in /proc/meminfo
# read 2 s after the warm-up and after each round. Group state that was not
# freed would raise every reading by 340 x possible CPUs x sizeof(struct
# cfs_tg_state) per round. The percpu allocator frees the pages of empty
# chunks later, when its balance work runs: a reading taken before that is
# higher by up to the round's own pages, one taken after is lower, so the
# last reading is held against the highest of the earlier ones (not the
# first, which may be low: 640 kB after the warm-up, 2272 kB after one
# round, on a production kernel that leaks nothing) and may exceed it by at
# most 512 kB; the cpu controller's group count must be back to its start.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

rounds=${ROUNDS:-3}
[ "$rounds" -ge 2 ] || rounds=2
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
	# Freed group state goes back after an RCU grace period: each
	# reading 2 s after a round.
	churn 1
	sleep 2
	p0=$(percpu_kb) hi=0 seen= r=0
	p1=$p0
	while [ $r -lt "$rounds" ]; do
		[ "$p1" -gt "$hi" ] 2>/dev/null && hi=$p1
		churn 1 || break
		sleep 2
		p1=$(percpu_kb)
		seen="$seen $p1"
		r=$((r + 1))
	done
	verdict "$side: $rounds rounds of 340 groups built and removed"
	[ -n "$p0" ] && [ -n "$p1" ] || problem "no Percpu line in /proc/meminfo"
	[ -n "$g0" ] || problem "no cpu line in /proc/cgroups"
	[ $((p1 - hi)) -le 512 ] ||
		problem "Percpu after the last round $((p1 - hi)) kB over the highest earlier reading (kB: $p0$seen)"
	[ "$(groups)" = "$g0" ] || problem "the cpu controller counts $(groups) groups, $g0 before"
	verdict "$side: Percpu and the group count back to their start (Percpu kB: $p0$seen)"
done
use rust 2>/dev/null
ktap_finished
