# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043 # local: dash, BusyBox and bash have it (ktap_helpers.sh uses it)
# shellcheck shell=sh
#
# Shared by the sched_rust selftests: the kernel's shape, the runtime
# switch, a cgroup tree, and the KTAP helpers of kselftest. Sourced by each
# test after it sets $DIR to its own directory.
#
# The shape decides what a test can compare:
#   debug  CONFIG_SCHED_RUST_CFS_DEBUG: every piece has a switch file under
#          $RC and each test runs on Rust and on C;
#   prod   CONFIG_SCHED_RUST_CFS=y alone: every piece on Rust, no switch;
#          each test runs once, judged on what any kernel shows;
#   none   the option is not built: the tests of the pieces skip; those
#          that run workloads and the kernel's own selftests (require
#          <plan> any) run once, as the C baseline of the same tests.

# shellcheck source=/dev/null # the selftests' helpers, installed beside
. "$DIR/../kselftest/ktap_helpers.sh"

RC=/sys/kernel/debug/sched/sched_rust
CG=/sys/fs/cgroup
PIECES="tg_state pick llc"

shape() {
	if [ -d $RC ]; then
		echo debug
	elif { zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null; } |
	     grep -q '^CONFIG_SCHED_RUST_CFS=y'; then
		echo prod
	elif grep -q ' sched_rust_' /proc/kallsyms 2>/dev/null; then
		echo prod
	else
		echo none
	fi
}
SHAPE=$(shape)

# The kernel's options (its "=y" lines), from /proc/config.gz or
# /boot/config-<release>; empty when neither is readable, and then every
# case that an option decides skips (lacks says why).
CONFIG=$({ zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null; } |
	grep '^CONFIG_[A-Za-z0-9_]*=y$')
cfg() { printf '%s\n' "$CONFIG" | grep -qx "CONFIG_$1=y"; }
# Why a case that needs <options> skips: empty when the kernel has them.
lacks() {	# lacks <option>...
	local o m=
	if [ -z "$CONFIG" ]; then
		echo "the kernel's configuration is not readable:" \
			"no /proc/config.gz, no /boot/config-$(uname -r)"
		return
	fi
	for o; do
		cfg "$o" || m="$m, CONFIG_$o"
	done
	[ -z "$m" ] || echo "no ${m#, }"
}

# The sides a test runs on: both with the switch, the one it has without.
sides() {
	[ "$SHAPE" = debug ] && echo "rust c" || echo prod
}

# Every test needs root, debugfs and the cgroup2 cpu controller; a kernel
# without the option skips the whole test unless it runs on any kernel
# ("any"). On the debug shape every piece starts on Rust, whatever an
# earlier test left.
require() {	# require <plan> [any]
	ktap_print_header
	if [ "$(id -u)" != 0 ]; then
		ktap_skip_all "needs root"
		exit "$KSFT_SKIP"
	fi
	if [ "$SHAPE" = none ] && [ "${2:-}" != any ]; then
		ktap_skip_all "the kernel has no CONFIG_SCHED_RUST_CFS"
		exit "$KSFT_SKIP"
	fi
	[ "$SHAPE" != debug ] || use rust || ktap_exit_fail_msg "cannot put every piece on Rust"
	[ -d /sys/kernel/debug/sched ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	if ! grep -qw cpu $CG/cgroup.controllers 2>/dev/null; then
		ktap_skip_all "no cgroup2 cpu controller at $CG"
		exit "$KSFT_SKIP"
	fi
	ktap_print_msg "shape $SHAPE, $(grep -c ^processor /proc/cpuinfo) CPUs, kernel $(uname -r)"
	ktap_set_plan "$1"
}

# Put every piece on one side (debug shape); false if the switch refused.
use() {	# use rust|c|prod
	local p
	[ "$1" = prod ] && return 0
	for p in $PIECES; do
		[ -f $RC/$p ] || continue
		echo "$1" > $RC/$p 2>/dev/null || return 1
		[ "$(cat $RC/$p)" = "$1" ] || return 1
	done
}

# One case from a list of problems: each problem as a diagnostic, then the
# result (a case passes when it found none).
problems=
problem() { problems="$problems$*
"; }
verdict() {	# verdict <case name, in one or more words>
	if [ -z "$problems" ]; then
		ktap_test_pass "$*"
	else
		printf '%s' "$problems" | sed '/^$/d; s/^/# /'
		ktap_test_fail "$*"
	fi
	problems=
}

# A case skipped, unless problems were collected for it: then it fails (a
# skip may not hide them).
skip_case() {	# skip_case <case name (the reason)>
	if [ -n "$problems" ]; then
		verdict "$*"
	else
		ktap_test_skip "$*"
	fi
}

# A cgroup tree of WIDTH + WIDTH^2 + ... + WIDTH^DEPTH groups under $ROOT,
# sibling weights 100, 200, ...; its leaves in $LEAVES, its size in $NGROUPS.
tree() {	# tree <root> <width> <depth>
	ROOT=$1 NGROUPS=0 LEAVES=
	echo +cpu > $CG/cgroup.subtree_control || problem "cannot enable the cpu controller"
	mkdir "$ROOT" || { problem "mkdir $ROOT"; return 1; }
	_tree "$ROOT" "$2" "$3"
}
_tree() {	# _tree <dir> <width> <levels left>
	local i=1
	if [ "$3" = 0 ]; then
		LEAVES="$LEAVES $1"
		return 0
	fi
	echo +cpu > "$1/cgroup.subtree_control" || problem "subtree_control of $1"
	while [ $i -le "$2" ]; do
		mkdir "$1/g$i" || { problem "mkdir $1/g$i"; return 1; }
		echo $((i * 100)) > "$1/g$i/cpu.weight" || problem "cpu.weight of $1/g$i"
		NGROUPS=$((NGROUPS + 1))
		_tree "$1/g$i" "$2" $(($3 - 1)) || return 1
		i=$((i + 1))
	done
}

# Remove a tree, deepest groups first; false if a group is left. What still
# runs in it is killed first (cgroup.kill) and waited for: killing a task's
# shell leaves its `sleep` child running for a while, and rmdir of a group
# that still holds a task fails with EBUSY.
tree_remove() {	# tree_remove <root>
	local d i=0
	[ -d "$1" ] || return 0
	[ ! -e "$1/cgroup.kill" ] || echo 1 > "$1/cgroup.kill" ||
		problem "cgroup.kill of $1"
	while grep -q '^populated 1' "$1/cgroup.events"; do
		if [ $i -ge 300 ]; then
			problem "$1 still holds tasks 30 s after cgroup.kill:" \
				"$(find "$1" -name cgroup.procs -exec cat {} + | tr '\n' ' ')"
			break
		fi
		sleep 0.1
		i=$((i + 1))
	done
	for d in $(find "$1" -mindepth 1 -type d | awk -F/ '{ print NF, $0 }' | sort -rn |
		   cut -d' ' -f2); do
		rmdir "$d" || problem "rmdir $d"
	done
	rmdir "$1" || problem "rmdir $1"
	[ ! -d "$1" ]
}

# A cgroup's cpu.stat field into $STAT without a fork (a loaded guest takes
# long to fork): cg_stat <cgroup> <field>.
cg_stat() {
	local k v
	STAT=0
	while read -r k v; do
		[ "$k" = "$2" ] && STAT=$v
	done < "$1/cpu.stat"
}

# A debug counter file's fields ("" when the kernel has none).
counters() { cat "$RC/$1" 2>/dev/null | tr '\n' ' '; }
