#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The two shapes of fair.c without the evaluation aids.
#
# 1. What CONFIG_SCHED_RUST_CFS=n leaves of the overlay: build
# kernel/sched/fair.o from the pristine tree (with the series' C
# improvements, patches/0000-*) and from the overlaid tree with the
# same configuration (tinyconfig + configs/base.config + configs/x86_64.config,
# the Rust options dropped: not the main kernel's distro fragment), require that it
# refers to nothing of the Rust side and that every stock function is still
# there, and report function by function which ones compile to exactly the
# stock code (the others differ by register allocation or layout: the C
# oracles have the stock bodies, but some take a parameter or are split
# from a wrapper). Then link a vmlinux from the overlaid tree.
#
# 2. The production shape, CONFIG_SCHED_RUST_CFS=y without
# CONFIG_SCHED_RUST_CFS_DEBUG (configs base + x86_64 + distro, the debug and
# test options dropped): build vmlinux and require that fair.c's object has
# no C twin of a piece (no <piece>_c symbol, defined or called), refers to
# no static key or other symbol of the runtime switch, and that no hot path
# calls into Rust (scripts/check-inline.sh on that build).

. "$(dirname "$0")/common.sh"

"$TOP/scripts/overlay.sh"

# The series opens with improvements of the C scheduler for every kernel
# (patches/0000-*.patch, "sched/fair: Compute the eligibility sums once per
# pick"): with the option off, fair.o is compared with the stock tree plus
# those, a tree of hard links to the pristine one with the patched files
# copied.
BASE=$CACHE/src/base
rm -rf "$BASE"
cp -al "$PRISTINE/." "$BASE"
for p in "$TOP"/patches/0000-*.patch; do
	[ -f "$p" ] || continue
	for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"); do
		cp --remove-destination "$PRISTINE/$f" "$BASE/$f"
	done
	patch -s -d "$BASE" -p1 --no-backup-if-mismatch < "$p" || fail "cannot apply $p to the pristine tree"
done

obj=kernel/sched/fair.o
declare -A dir=([pristine]=$BASE [work]=$WORK)
for side in pristine work; do
	B=$CACHE/build-off-$side
	mkdir -p "$B"
	log "$side: configure (tinyconfig + base + x86_64 fragments, CONFIG_SCHED_RUST_CFS=n)"
	cat "$TOP/configs/base.config" "$TOP/configs/x86_64.config" |
		grep -v -E '^CONFIG_(RUST|SCHED_RUST_CFS.*)=' > "$B/off.config"
	WORK=${dir[$side]} kmake -s O="$B" tinyconfig > /dev/null
	(cd "${dir[$side]}" && ./scripts/kconfig/merge_config.sh -m -O "$B" "$B/.config" "$B/off.config" > /dev/null)
	WORK=${dir[$side]} kmake -s O="$B" olddefconfig > /dev/null
	grep -q '^CONFIG_SCHED_CACHE=y' "$B/.config" || fail "$side: CONFIG_SCHED_CACHE did not survive"
	grep -q '^CONFIG_SCHED_RUST_CFS=y' "$B/.config" && fail "$side: CONFIG_SCHED_RUST_CFS is on"
	log "$side: build $obj"
	WORK=${dir[$side]} kmake O="$B" -j"$(nproc)" $obj > "$B/build.log" 2>&1 ||
		{ tail -n 30 "$B/build.log"; fail "$side: $obj does not build"; }
done

P=$CACHE/build-off-pristine/$obj
W=$CACHE/build-off-work/$obj

# Nothing of the Rust side or of the switch may be left in the C code.
if llvm-nm$LLVM_SUFFIX "$W" | grep -E ' sched_rust_'; then
	fail "$obj refers to the Rust side with CONFIG_SCHED_RUST_CFS=n"
fi

# Function by function, with addresses normalized and the C oracles' "_c"
# suffix dropped: which functions compile to exactly the stock code.
funcs() { llvm-nm$LLVM_SUFFIX -S --defined-only "$1" | awk '$3 ~ /^[tT]$/ { print $4 }' | sort; }
norm() {
	llvm-objdump$LLVM_SUFFIX -d --no-show-raw-insn --disassemble-symbols="$2" "$1" | tail -n +7 |
		sed -E 's/^ *[0-9a-f]+:[[:space:]]*//; s/0x[0-9a-f]+ <([A-Za-z0-9_.]+)[+0-9a-fx]*>/<\1>/; s/<([A-Za-z0-9_.]+)_c>/<\1>/'
}
same=0 differ=() missing=()
for f in $(funcs "$P"); do
	g=$f
	funcs "$W" | grep -qx "${f}_c" && g=${f}_c
	funcs "$W" | grep -qx "$g" || { missing+=("$f"); continue; }
	if cmp -s <(norm "$P" "$f") <(norm "$W" "$g"); then
		same=$((same + 1))
	else
		differ+=("$f ($(norm "$P" "$f" | grep -c .) -> $(norm "$W" "$g" | grep -c .) instructions)")
	fi
done
[ ${#missing[@]} = 0 ] || fail "functions of the stock $obj missing with CONFIG_SCHED_RUST_CFS=n: ${missing[*]}"
text() { llvm-size$LLVM_SUFFIX "$1" | awk 'NR == 2 { print $1 }'; }
log "$obj with CONFIG_SCHED_RUST_CFS=n: text $(text "$P") -> $(text "$W") bytes;" \
	"$same of $(funcs "$P" | wc -l) functions identical to the stock ones"
for d in "${differ[@]}"; do
	log "  differs (register allocation or layout): $d"
done

log "work: link vmlinux with CONFIG_SCHED_RUST_CFS=n"
kmake O="$CACHE/build-off-work" -j"$(nproc)" vmlinux > "$CACHE/build-off-work/build.log" 2>&1 ||
	{ tail -n 30 "$CACHE/build-off-work/build.log"; fail "vmlinux does not build with CONFIG_SCHED_RUST_CFS=n"; }
log "CONFIG_SCHED_RUST_CFS=n: no Rust reference in $obj, vmlinux links"

# 2. The production shape.
B=$CACHE/build-prod
mkdir -p "$B"
log "prod: configure (tinyconfig + base + x86_64 + distro, CONFIG_SCHED_RUST_CFS_DEBUG=n)"
cat "$TOP/configs/base.config" "$TOP/configs/x86_64.config" "$TOP/configs/distro.config" |
	grep -v -E '^CONFIG_(SCHED_RUST_CFS_(DEBUG|BENCH|STATS|SHADOW|KUNIT_TEST)|KUNIT)=' > "$B/prod.config"
echo "CONFIG_SCHED_RUST_CFS_DEBUG=n" >> "$B/prod.config"
kmake -s O="$B" tinyconfig > /dev/null
(cd "$WORK" && ./scripts/kconfig/merge_config.sh -m -O "$B" "$B/.config" "$B/prod.config" > /dev/null)
kmake -s O="$B" olddefconfig > /dev/null
grep -q '^CONFIG_SCHED_RUST_CFS=y' "$B/.config" || fail "prod: CONFIG_SCHED_RUST_CFS did not survive (is rustc available? make setup)"
grep -q '^CONFIG_SCHED_RUST_CFS_DEBUG=y' "$B/.config" && fail "prod: CONFIG_SCHED_RUST_CFS_DEBUG is on"
log "prod: build vmlinux"
kmake O="$B" -j"$(nproc)" vmlinux > "$B/build.log" 2>&1 ||
	{ tail -n 30 "$B/build.log"; fail "prod: vmlinux does not build"; }
F=$B/kernel/sched/fair.o
twins='vruntime_eligible|pick_eevdf|alloc_fair_sched_group|free_fair_sched_group|init_tg_cfs_entry|pref_llc_running_(inc|dec)|account_llc_(en|de)queue|__update_mm_sched|fraction_mm_sched|update_avg_scale'
bad=$(llvm-nm$LLVM_SUFFIX "$F" | grep -E " ((${twins})_c|(${twins})_debug|sched_rust_[a-z_]*_key|sched_rust_cfs_parse|sched_rust_test_calls|sched_rust_pick_stats|sched_rust_shadow_[a-z]*|sched_rust_llc_(checks|violations))\$" || true)
[ -z "$bad" ] || { echo "$bad"; fail "prod: ${F#$B/} has C twins or refers to the runtime switch without CONFIG_SCHED_RUST_CFS_DEBUG"; }
[ -f "$B/kernel/sched/rust/switch.o" ] && fail "prod: the runtime switch (switch.o) is built without CONFIG_SCHED_RUST_CFS_DEBUG"
n=$(llvm-objdump$LLVM_SUFFIX -r "$F" | grep -cE '__jump_table' || true)
log "prod: ${F#$B/}: no C twin, no symbol of the runtime switch ($n relocations in its __jump_table, the kernel's own keys)"
"$TOP/scripts/check-inline.sh" prod || fail "prod: a hot path calls into Rust"
log "CONFIG_SCHED_RUST_CFS=y without CONFIG_SCHED_RUST_CFS_DEBUG: one implementation per piece, Rust inlined"
