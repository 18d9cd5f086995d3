#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kmemleak (CONFIG_DEBUG_KMEMLEAK) after the other tests: meant to run last,
# once their groups and tasks are gone. Two scans 6 s apart (kmemleak
# reports an object unreferenced in a scan only if it is older than 5 s and
# its contents did not change since the previous scan), then the report is
# read: an unreferenced object whose allocation backtrace goes through this
# project's code (a sched_rust symbol, alloc_fair_sched_group,
# free_fair_sched_group, init_tg_cfs_entry, account_llc_*) fails the case,
# with the report of those objects as diagnostics; the other leaks are
# counted in a "figure:" only. What it can detect: a task group's per-CPU
# state or any other allocation of the pieces that is no longer referenced
# (the group churn's Percpu check sees its size, this names it). Skipped
# without /sys/kernel/debug/kmemleak, or when kmemleak refuses to scan (off
# at boot, or disabled after an error of its own).

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

KMEMLEAK=/sys/kernel/debug/kmemleak
OURS='sched_rust|alloc_fair_sched_group|free_fair_sched_group|init_tg_cfs_entry|account_llc'
name="no unreferenced object allocated through this project's code"
require 1
if [ ! -f $KMEMLEAK ]; then
	ktap_test_skip "$name (no $KMEMLEAK: CONFIG_DEBUG_KMEMLEAK)"
	ktap_finished
fi
tmp=$(mktemp -d) || ktap_exit_fail_msg "mktemp -d failed"
trap 'rm -rf "$tmp"' EXIT
trap 'exit "$KSFT_FAIL"' INT TERM

if ! echo scan 2> "$tmp/err" > $KMEMLEAK; then
	why="kmemleak refused to scan, off at boot or after an error"
	ktap_test_skip "$name ($why: $(sed -n '$s/.*: //p' "$tmp/err" | cut -c1-100))"
	ktap_finished
fi
sleep 6
echo scan 2> "$tmp/err" > $KMEMLEAK ||
	problem "the second scan failed: $(tr '\n' ' ' < "$tmp/err")"
cat $KMEMLEAK > "$tmp/leaks" || problem "cannot read $KMEMLEAK"

# Each object's report starts with "unreferenced object"; its backtrace
# follows "  backtrace", one frame a line. Ours go to $tmp/ours whole.
all=$(grep -c '^unreferenced object' "$tmp/leaks")
ours=$(awk -v pat="$OURS" -v out="$tmp/ours" '
	function flush() {
		if (ours) {
			n++
			printf "%s", obj > out
		}
		obj = ""
		ours = 0
	}
	/^unreferenced object/ { flush(); obj = $0 "\n"; trace = 0; next }
	obj == "" { next }
	{ obj = obj $0 "\n" }
	/^  backtrace/ { trace = 1; next }
	trace && $0 ~ pat { ours = 1 }
	END { flush(); print n + 0 }' "$tmp/leaks")
ktap_print_msg "figure: kmemleak: $all unreferenced objects, $ours through this project's code"
if [ "$ours" != 0 ]; then
	head -n 80 "$tmp/ours" | sed 's/^/# /'
	problem "$ours unreferenced objects allocated through this project's code" \
		"(their report above)"
fi
verdict "$name"
ktap_finished
