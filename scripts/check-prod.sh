#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The production build (CONFIG_SCHED_RUST_CFS=y without its debug option,
# scripts/build.sh prod) against what it must not contain:
#   - evaluation code: no C twin of a piece (<piece>_c, <piece>_debug), no
#     symbol of the runtime switch, no switch.o, no KUnit;
#   - a Rust panic: no reference from fair.o (with
#     CONFIG_SCHED_RUST_CFS_INLINE the object of fair.c and the crate
#     compiled as one LLVM module) or from the crate's own object to
#     core::panicking or to any other function of core that panics (bounds
#     and slice-index failures, unwrap/expect failures, the overflow checks'
#     panic_const_*), nor to the kernel's rust_begin_unwind;
#   - a trap the Rust adds: the crate's object holds exactly the traps that
#     ALLOWED_TRAPS names below, each for its reason.
# Prints what it checked.
#   scripts/check-prod.sh [flavour]      (default: prod)

. "$(dirname "$0")/common.sh"

flavour=${1:-prod}
B=$(bdir "$flavour")
[ -f "$B/vmlinux" ] || die "no $B/vmlinux: build the $flavour kernel first (scripts/build.sh $flavour)"
grep -q '^CONFIG_SCHED_RUST_CFS=y' "$B/.config" || die "$flavour: CONFIG_SCHED_RUST_CFS is off"
grep -q '^CONFIG_SCHED_RUST_CFS_DEBUG=y' "$B/.config" &&
	fail "$flavour: CONFIG_SCHED_RUST_CFS_DEBUG is on: not the production shape"

F=$B/kernel/sched/fair.o
R=$B/kernel/sched/rust/sched_rust.o
for o in "$F" "$R"; do
	[ -f "$o" ] || die "no ${o#$B/} in the $flavour build"
done
nm() { llvm-nm$LLVM_SUFFIX "$@"; }
demangle() { llvm-cxxfilt$LLVM_SUFFIX; }
# The checks below read symbol lists: an empty list (a tool missing, an
# object of the wrong kind) would pass them all.
for o in "$F" "$R"; do
	[ "$(nm -u "$o" | wc -l)" -gt 0 ] && [ "$(nm --defined-only "$o" | wc -l)" -gt 0 ] ||
		die "llvm-nm$LLVM_SUFFIX lists no symbol of ${o#$B/}"
done
nm --defined-only "$F" | grep ' pick_task_fair$' >/dev/null ||
	die "${F#$B/} does not define pick_task_fair(): not fair.c's object"

# 1. No evaluation code.
twins='vruntime_eligible|pick_eevdf|alloc_fair_sched_group|free_fair_sched_group|init_tg_cfs_entry|pref_llc_running_(inc|dec)|account_llc_(en|de)queue|__update_mm_sched|fraction_mm_sched|update_avg_scale'
bad=$(nm "$F" | grep -E " ((${twins})_c|(${twins})_debug|sched_rust_[a-z_]*_key|sched_rust_parse|sched_rust_test_calls|sched_rust_pick_stats|sched_rust_shadow_[a-z]*|sched_rust_llc_(checks|violations)|kunit_[a-z_]*)\$" || true)
[ -z "$bad" ] || { echo "$bad"; fail "$flavour: ${F#$B/} has C twins or refers to the runtime switch or KUnit"; }
[ -f "$B/kernel/sched/rust/debug/switch.o" ] &&
	fail "$flavour: the runtime switch (kernel/sched/rust/debug/switch.o) is built without CONFIG_SCHED_RUST_CFS_DEBUG"
log "$flavour: ${F#$B/}: no C twin, no symbol of the runtime switch or of KUnit"

# 2. No Rust panic: the undefined symbols of both objects, demangled.
panics='core::panicking|panic_const|panic_bounds_check|panic_fmt|slice_(start_|end_)?index_.*fail|slice::index::|unwrap_failed|expect_failed|rust_begin_unwind|core::result::unwrap|core::option::unwrap|core::option::expect'
for o in "$F" "$R"; do
	u=$(nm -u "$o" | awk '{ print $NF }' | demangle | grep -E "$panics" || true)
	if [ -n "$u" ]; then
		echo "$u" | sed 's/^/  /'
		fail "$flavour: ${o#$B/} refers to a Rust panic"
	fi
	log "$flavour: ${o#$B/}: $(nm -u "$o" | wc -l) undefined symbols, none of them a Rust panic"
done

# 3. The traps of the crate's object: BUG()/WARN() sites, one trapping
# instruction each (ud2 on x86_64, brk on arm64). Each allowed one with its
# reason; C has the same check at the same place.
#   pick_eevdf: WARN_ON_ONCE(cfs_rq->next->sched_delayed) before the next
#   buddy is returned (fair.c's pick_eevdf() warns on the same condition).
ALLOWED_TRAPS=1
case $KARCH in
x86_64)	trap='\tud2' ;;
arm64)	trap='\tbrk\t' ;;
esac
traps=$(llvm-objdump$LLVM_SUFFIX -d --no-show-raw-insn "$R" | awk -v t="$trap" '
	/^[0-9a-f]+ <.*>:$/ { f = $2; gsub(/[<>:]/, "", f); next }
	$0 ~ t { print f }' | demangle)
n=$(grep -c . <<< "$traps" || true)
if [ "$n" != "$ALLOWED_TRAPS" ]; then
	echo "$traps" | sort | uniq -c | sed 's/^/  /'
	fail "$flavour: ${R#$B/} has $n trapping instructions, $ALLOWED_TRAPS allowed (the pick's WARN_ON_ONCE, as C's)"
fi
log "$flavour: ${R#$B/}: $n trap, the pick's WARN_ON_ONCE(next->sched_delayed), as in C ($(echo $traps))"
log "$flavour: the production build has no evaluation code and no Rust panic"
