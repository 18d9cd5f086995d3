#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# With CONFIG_SCHED_RUST_CFS=n the overlay must not change the scheduler:
# build kernel/sched/fair.o from the pristine and from the overlaid tree
# with the same configuration (the main kernel's, the option off) and
# compare the generated code, relocations included. The overlaid tree is
# then linked into a vmlinux, so that a reference to a Rust symbol left in
# the C code would fail here.
#
# Line numbers move (the patches add lines under #ifdef), so the data that
# records them (__bug_table, the WARN format strings' locations) may
# differ; the script reports those sections separately and fails only on a
# difference in code or in any other section.

. "$(dirname "$0")/common.sh"

"$TOP/scripts/overlay.sh"

obj=kernel/sched/fair.o
declare -A dir=([pristine]=$PRISTINE [work]=$WORK)
for side in pristine work; do
	B=$CACHE/build-off-$side
	mkdir -p "$B"
	log "$side: configure (main kernel config, CONFIG_SCHED_RUST_CFS=n)"
	grep -v -E '^CONFIG_(RUST|SCHED_RUST_CFS.*)=' "$TOP/configs/base.config" > "$B/off.config"
	WORK=${dir[$side]} kmake -s O="$B" tinyconfig > /dev/null
	(cd "${dir[$side]}" && ./scripts/kconfig/merge_config.sh -m -O "$B" "$B/.config" "$B/off.config" > /dev/null)
	WORK=${dir[$side]} kmake -s O="$B" olddefconfig > /dev/null
	grep -q '^CONFIG_SCHED_CACHE=y' "$B/.config" || die "$side: CONFIG_SCHED_CACHE did not survive"
	grep -q '^CONFIG_SCHED_RUST_CFS=y' "$B/.config" && die "$side: CONFIG_SCHED_RUST_CFS is on"
	log "$side: build $obj"
	WORK=${dir[$side]} kmake O="$B" -j"$(nproc)" $obj > "$B/build.log" 2>&1 ||
		{ tail -n 30 "$B/build.log"; die "$side: $obj does not build"; }
done

P=$CACHE/build-off-pristine/$obj
W=$CACHE/build-off-work/$obj
dis() { llvm-objdump$LLVM_SUFFIX -d -r --no-show-raw-insn "$1" | tail -n +4; }
if ! diff <(dis "$P") <(dis "$W") > "$CACHE/build-off-work/fair.code.diff"; then
	head -n 40 "$CACHE/build-off-work/fair.code.diff"
	die "the code of $obj differs with CONFIG_SCHED_RUST_CFS=n (full diff: $CACHE/build-off-work/fair.code.diff)"
fi
log "$obj: code and relocations identical ($(dis "$P" | grep -c '^ ') instructions)"

# Every section: same size; same contents except for the line-number data.
sections() { llvm-readelf$LLVM_SUFFIX -S -W "$1" | awk '$2 ~ /^\./ || $3 ~ /^\./ { print }' | sed 's/^ *\[ *[0-9]*\] *//' | awk '{ print $1, $5 }'; }
diff <(sections "$P") <(sections "$W") > /dev/null ||
	die "the sections of $obj differ in size: $(diff <(sections "$P") <(sections "$W") | head -n 10)"
changed=
for s in $(sections "$P" | awk '$2 != "000000" && $1 !~ /^\.rela/ { print $1 }'); do
	cmp -s <(llvm-objcopy$LLVM_SUFFIX -O binary --only-section="$s" "$P" /dev/stdout 2>/dev/null) \
		<(llvm-objcopy$LLVM_SUFFIX -O binary --only-section="$s" "$W" /dev/stdout 2>/dev/null) ||
		changed="$changed $s"
done
for s in $changed; do
	case $s in
	__bug_table) ;;
	*) die "section $s of $obj differs with CONFIG_SCHED_RUST_CFS=n" ;;
	esac
done
log "$obj: sections identical${changed:+ except$changed (line numbers of WARN sites)}"

log "work: link vmlinux with CONFIG_SCHED_RUST_CFS=n"
kmake O="$CACHE/build-off-work" -j"$(nproc)" vmlinux > "$CACHE/build-off-work/build.log" 2>&1 ||
	{ tail -n 30 "$CACHE/build-off-work/build.log"; die "vmlinux does not build with CONFIG_SCHED_RUST_CFS=n"; }
log "CONFIG_SCHED_RUST_CFS=n: fair.o unchanged, vmlinux links"
