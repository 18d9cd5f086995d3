#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The runtime switch of CONFIG_SCHED_RUST_CFS_DEBUG: every piece's file
# takes "c" and "rust" (and reads them back), refuses anything else and
# keeps its value. A production kernel has no switch: skipped there.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

require 3
if [ "$SHAPE" != debug ]; then
	ktap_test_skip "every piece switches to C and back (no switch in a $SHAPE kernel)"
	ktap_test_skip "a bad value is refused (no switch in a $SHAPE kernel)"
	ktap_test_skip "the pieces end on Rust (no switch in a $SHAPE kernel)"
	ktap_finished
fi

n=0
for p in $PIECES; do
	[ -f $RC/$p ] || continue
	n=$((n + 1))
	for v in c rust; do
		echo $v > $RC/$p 2>/dev/null || problem "$p: writing $v failed"
		got=$(cat $RC/$p)
		[ "$got" = $v ] || problem "$p reads $got after $v was written"
	done
done
[ $n -gt 0 ] || problem "no switch file under $RC"
verdict "every piece switches to C and back ($n pieces)"

for p in $PIECES; do
	[ -f $RC/$p ] || continue
	for bad in bogus 2 "" "rust c"; do
		if echo "$bad" > $RC/$p 2>/dev/null; then
			problem "$p accepted '$bad'"
		fi
		got=$(cat $RC/$p)
		[ "$got" = rust ] || problem "$p reads $got after '$bad' was refused"
	done
done
verdict "a bad value is refused and the piece keeps its side"

use rust || problem "cannot put every piece back on Rust"
verdict "the pieces end on Rust"
ktap_finished
