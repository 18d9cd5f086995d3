#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The two shapes a user runs, against what they must be.
#
# 1. CONFIG_SCHED_RUST_CFS=n is 7.3's stock code plus the series' C
# improvements (C_PATCHES in scripts/common.sh: the eligibility sums once
# per pick), byte for byte: every object built
# from a file the series touches (kernel/sched/: sched.h reaches all of them, fair.c, debug.c in
# build_utility.o; mm/percpu.c) is built from that tree and from the
# overlaid tree, and every function must disassemble to the same
# instructions and relocations (the targets of calls and of data
# references) after address normalisation; a function missing on either
# side, or one more, fails too. On two configurations: tinyconfig + base +
# x86_64 (the debug kernels' base, Rust off) and the production kernel's
# (base + x86_64 + distro, CONFIG_RUST=y as distributions have it).
# The overlaid =n tree must also link a vmlinux.
#
# 2. CONFIG_SCHED_RUST_CFS=y without CONFIG_SCHED_RUST_CFS_DEBUG, the
# production kernel (scripts/build.sh prod): no C twin, no symbol of the
# runtime switch, no Rust panic, no trap the Rust adds
# (scripts/check-prod.sh), and no hot path calling into Rust
# (scripts/check-inline.sh).

. "$(dirname "$0")/common.sh"

"$TOP/scripts/overlay.sh"

# The stock tree plus the series' C improvements: hard links to the
# pristine tree with the patched files copied.
BASE=$CACHE/src/base
rm -rf "$BASE"
cp -al "$PRISTINE/." "$BASE"
for p in $C_PATCHES; do
	p=$TOP/patches/$p.patch
	[ -f "$p" ] || fail "no $p: C_PATCHES in scripts/common.sh names the series' C patches"
	# A file is copied out of the hard-linked tree once, before the
	# first patch that touches it: later patches apply on top.
	for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"); do
		[ "$(stat -c %h "$BASE/$f")" = 1 ] || cp --remove-destination "$PRISTINE/$f" "$BASE/$f"
	done
	patch -s -d "$BASE" -p1 --no-backup-if-mismatch < "$p" || fail "cannot apply $p to the pristine tree"
done

# What the series touches that compiles to code with the option off.
targets="kernel/sched/ mm/percpu.o"
touched=$(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$TOP"/patches/*.patch | sort -u | grep -E '\.[ch]$')
for f in $touched; do
	case $f in
	kernel/sched/*|mm/percpu.c) ;;
	rust/*) ;;	# the kernel crate: Rust, compiled only with CONFIG_RUST
	*) fail "patches touch $f, which this check does not compare: add its object to targets" ;;
	esac
done

funcs() { llvm-nm$LLVM_SUFFIX --defined-only "$1" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u; }
norm() {
	llvm-objdump$LLVM_SUFFIX -d -r --no-show-raw-insn --disassemble-symbols="$2" "$1" | tail -n +7 |
		sed -E 's/^ *[0-9a-f]+:[[:space:]]*//; s/0x[0-9a-f]+ <([A-Za-z0-9_.$]+)[+0-9a-fx]*>/<\1>/; s/\b[0-9a-f]{6,} <([^>]*)>/<\1>/'
}

rc=0
for conf in tiny distro; do
	declare -A dir=([base]=$BASE [work]=$WORK)
	for side in base work; do
		B=$CACHE/build-off-$conf-$side
		mkdir -p "$B"
		case $conf in
		tiny)	cat "$TOP/configs/base.config" "$TOP/configs/x86_64.config" |
				grep -v -E '^CONFIG_(RUST|SCHED_RUST_CFS.*)=' ;;
		distro)	cat "$TOP/configs/base.config" "$TOP/configs/x86_64.config" "$TOP/configs/distro.config" |
				grep -v -E '^CONFIG_SCHED_RUST_CFS.*=' ;;
		esac > "$B/off.config"
		echo "# CONFIG_SCHED_RUST_CFS is not set" >> "$B/off.config"
		log "$conf/$side: configure (tinyconfig + $([ $conf = tiny ] && echo 'base + x86_64, Rust off' || echo 'base + x86_64 + distro'), CONFIG_SCHED_RUST_CFS=n)"
		WORK=${dir[$side]} kmake -s O="$B" tinyconfig > /dev/null
		(cd "${dir[$side]}" && ./scripts/kconfig/merge_config.sh -m -O "$B" "$B/.config" "$B/off.config" > /dev/null) \
			2> >(grep -v 'override: reassigning to symbol' >&2)
		WORK=${dir[$side]} kmake -s O="$B" olddefconfig > /dev/null
		grep -q '^CONFIG_SCHED_CACHE=y' "$B/.config" || fail "$conf/$side: CONFIG_SCHED_CACHE did not survive"
		grep -q '^CONFIG_SCHED_RUST_CFS=y' "$B/.config" && fail "$conf/$side: CONFIG_SCHED_RUST_CFS is on"
		[ $conf = distro ] && ! grep -q '^CONFIG_RUST=y' "$B/.config" &&
			fail "$conf/$side: CONFIG_RUST did not survive (make setup)"
		log "$conf/$side: build $targets"
		WORK=${dir[$side]} kmake O="$B" -j"$(nproc)" $targets > "$B/build.log" 2>&1 ||
			{ tail -n 30 "$B/build.log"; fail "$conf/$side: $targets do not build"; }
	done
	P=$CACHE/build-off-$conf-base
	W=$CACHE/build-off-$conf-work
	objs=$(cd "$P" && find kernel/sched -name '*.o' ! -name '*.mod.o' | sort; echo mm/percpu.o)
	wobjs=$(cd "$W" && find kernel/sched -name '*.o' ! -name '*.mod.o' | sort; echo mm/percpu.o)
	[ "$objs" = "$wobjs" ] || { diff <(echo "$objs") <(echo "$wobjs"); fail "$conf: the =n tree builds other objects than the stock one"; }
	nf=0 nsame=0
	for o in $objs; do
		if llvm-nm$LLVM_SUFFIX "$W/$o" | grep -E ' sched_rust_'; then
			fail "$conf: $o refers to the Rust side with CONFIG_SCHED_RUST_CFS=n"
		fi
		if ! diff <(funcs "$P/$o") <(funcs "$W/$o") > "$W/funcs.diff"; then
			sed 's/^/  /' "$W/funcs.diff"
			log "$conf: FAIL: $o: the functions differ (< stock, > overlay)"
			rc=1
			continue
		fi
		for f in $(funcs "$P/$o"); do
			nf=$((nf + 1))
			if cmp -s <(norm "$P/$o" "$f") <(norm "$W/$o" "$f"); then
				nsame=$((nsame + 1))
			else
				log "$conf: FAIL: $o: $f differs from the stock one:"
				{ diff <(norm "$P/$o" "$f") <(norm "$W/$o" "$f") || true; } | head -n 20 | sed 's/^/  /'
				rc=1
			fi
		done
	done
	# No function compared is no comparison (llvm-nm missing, nothing built).
	[ "$nf" -gt 0 ] || die "$conf: no function compared in $objs"
	log "$conf: CONFIG_SCHED_RUST_CFS=n: $nsame of $nf functions in $(echo $objs | wc -w) objects ($(echo $objs | tr '\n' ' ')) identical to stock + $C_PATCHES"
done
[ $rc = 0 ] || fail "CONFIG_SCHED_RUST_CFS=n is not stock plus the series' C patches"

log "tiny/work: link vmlinux with CONFIG_SCHED_RUST_CFS=n"
kmake O="$CACHE/build-off-tiny-work" -j"$(nproc)" vmlinux > "$CACHE/build-off-tiny-work/build.log" 2>&1 ||
	{ tail -n 30 "$CACHE/build-off-tiny-work/build.log"; fail "vmlinux does not build with CONFIG_SCHED_RUST_CFS=n"; }
log "CONFIG_SCHED_RUST_CFS=n: every function identical to stock + the series' C patches, vmlinux links"

# 2. The production shape.
"$TOP/scripts/build.sh" prod
"$TOP/scripts/check-prod.sh" prod
"$TOP/scripts/check-inline.sh" prod || fail "prod: a hot path calls into Rust"
log "CONFIG_SCHED_RUST_CFS=y without CONFIG_SCHED_RUST_CFS_DEBUG: one implementation per piece, Rust inlined, no Rust panic"
