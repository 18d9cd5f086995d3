#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The line tables that scripts/build.sh gives a production flavour's fair.o
# and sched_rust crate do not change their code: compiles fair.o (and the
# crate) of the build again without them, compares every executable
# section with the measured build's, byte for byte, and compiles them with
# the line tables again (the build is left as it was).
#   scripts/check-lines.sh <flavour>      (prod, off, stock, outline, gcc-prod, gcc-off,
#                                          off+<shape>, gcc-off+<shape>: from the tree
#                                          scripts/build.sh built it from)
# Exit 0 when every executable section is identical, 1 when one differs.

. "$(dirname "$0")/common.sh"

flavour=${1:?usage: check-lines.sh <flavour>}
case $flavour in gcc-*) export KCC=gcc ;; esac
WORK=$(flavour_tree "$flavour")
B=$(bdir "$flavour")
[ -f "$B/vmlinux" ] || die "no $B/vmlinux: build the $flavour kernel first (scripts/build.sh $flavour)"
[ -f "$WORK/kernel/sched/fair.c" ] || die "no kernel tree at $WORK: build the $flavour kernel first (scripts/build.sh $flavour)"
# With CONFIG_SCHED_RUST_CFS_INLINE the crate is compiled into fair.o.
objs=(kernel/sched/fair.o)
if [ -f "$B/kernel/sched/rust/sched_rust.o" ] && ! grep -q '^CONFIG_SCHED_RUST_CFS_INLINE=y' "$B/.config"; then
	objs+=(kernel/sched/rust/sched_rust.o)
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
g=-gline-tables-only
[ "${KCC:-clang}" = gcc ] && g=-g1
lines=("CFLAGS_fair.o=$g" "RUSTFLAGS_sched_rust.o=-Cdebuginfo=line-tables-only")

# The executable sections of an object, one file each, and their names.
sections() {	# sections <object> <dir> (which exists)
	llvm-readelf$LLVM_SUFFIX -S -W "$1" | sed -n 's/^ *\[ *[0-9]*\] *//p' | awk '$7 ~ /X/ { print $1 }' |
		while read -r s; do
			llvm-objcopy$LLVM_SUFFIX --dump-section="$s=$2/${s//\//_}" "$1" /dev/null 2>/dev/null ||
				llvm-objcopy$LLVM_SUFFIX -O binary --only-section="$s" "$1" "$2/${s//\//_}"
			echo "$s"
		done
}

for o in "${objs[@]}"; do
	grep -q debug_line <(llvm-readelf$LLVM_SUFFIX -S -W "$B/$o") ||
		fail "$flavour: $o has no line table: not built by scripts/build.sh with line tables"
	mkdir -p "$T/lines/$o"
	sections "$B/$o" "$T/lines/$o" > "$T/lines/$o.list"
done
rc=0
kmake O="$B" "CFLAGS_fair.o=" "RUSTFLAGS_sched_rust.o=" "${objs[@]}" > "$T/plain.log" 2>&1 || rc=$?
if [ $rc = 0 ]; then
	for o in "${objs[@]}"; do
		mkdir -p "$T/plain/$o"
		sections "$B/$o" "$T/plain/$o" > "$T/plain/$o.list"
	done
fi
# Back to the measured build's objects, whatever happened.
kmake O="$B" "${lines[@]}" "${objs[@]}" > "$T/lines.log" 2>&1 ||
	fail "$flavour: could not compile ${objs[*]} with line tables again ($T/lines.log)"
[ $rc = 0 ] || { cat "$T/plain.log" >&2; fail "$flavour: could not compile ${objs[*]} without line tables"; }
bad=0 n=0
for o in "${objs[@]}"; do
	if ! cmp -s "$T/lines/$o.list" "$T/plain/$o.list"; then
		log "$flavour: $o: the executable sections differ in name: $(diff "$T/lines/$o.list" "$T/plain/$o.list" | tr '\n' ' ')"
		bad=1
		continue
	fi
	while read -r s; do
		n=$((n + 1))
		cmp -s "$T/lines/$o/${s//\//_}" "$T/plain/$o/${s//\//_}" ||
			{ log "$flavour: $o: $s differs with and without line tables"; bad=1; }
	done < "$T/lines/$o.list"
done
[ $n -gt 0 ] || fail "$flavour: no executable section compared"
[ $bad = 0 ] || fail "$flavour: line tables change the code of ${objs[*]}"
log "$flavour: ${objs[*]}: $n executable sections identical with and without line tables"
