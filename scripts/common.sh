# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Common settings for every script: sourced, not executed.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${RUST_SCHED_CFS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rust-sched-cfs}
# Pinned toolchain: rustc 1.86.0 is built on LLVM 19.1.7, the LLVM of clang-19, so
# Rust and C bitcode can be linked and inlined across the language boundary.
# A newer stable on a fresh machine must not change the build.
RUST_TOOLCHAIN=${RUST_TOOLCHAIN:-1.86.0}
BINDGEN_VERSION=0.72.1
LLVM_SUFFIX=-19
KSERIES=7.3
export PATH="$HOME/.cargo/bin:$PATH"
export LIBCLANG_PATH=/usr/lib/llvm${LLVM_SUFFIX}/lib
export RUSTUP_TOOLCHAIN=$RUST_TOOLCHAIN
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_BASEDIR=$CACHE
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
# Keep kunit.py and Python from writing bytecode into the tree.
export PYTHONDONTWRITEBYTECODE=1

# The kernel tree: pristine (never modified) and the overlaid working copy.
PRISTINE=$CACHE/src/pristine
WORK=${KWORK:-$CACHE/src/work}
# The series' patches to the C scheduler alone, which every kernel gets
# (CONFIG_SCHED_RUST_CFS=n is stock plus these: scripts/check-off.sh).
C_PATCHES="0001-sched-fair-shr-u64-count 0002-sched-fair-llc-counters-once 0003-sched-fair-eligibility-once 0004-sched-fair-pick-shape"

_t0=${_t0:-$(date +%s)}
export _t0

log() {
	printf '[%5ss] %s\n' "$(( $(date +%s) - _t0 ))" "$*" >&2
}

# One target at a time per cache: two would overwrite each other's work
# tree, stage and build directories (the Makefile's .NOTPARALLEL covers
# one make; this covers two). The first script takes the lock for itself and
# everything it runs; another waits, and says for whom. A process a script
# leaves running in the background (a console watcher) is started with
# 9>&- so that it cannot keep the lock after the script has ended.
if [ "${SCHED_RUST_CACHE_LOCKED:-}" != "$CACHE" ]; then
	mkdir -p "$CACHE"
	exec 9>> "$CACHE/.lock"
	if ! flock -n 9; then
		printf 'waiting: another rust-sched-cfs target uses %s (%s)\n' "$CACHE" \
			"$(cat "$CACHE/.lock.owner" 2>/dev/null || echo unknown)" >&2
		flock 9
	fi
	echo "pid $$: $0 $*, since $(date -u '+%H:%M:%S UTC')" > "$CACHE/.lock.owner"
	export SCHED_RUST_CACHE_LOCKED=$CACHE
fi

# Exit status of every script, and of the recipe behind every make target
# (make itself exits 2 when a recipe fails, as GNU make always does, and
# names the recipe's status in its "Error N" line):
#   0 pass, 1 a check failed, 2 the harness or the environment failed
#   (a package, the network, a missing build, a bad argument), 4 skipped.
die() {		# the harness or the environment failed
	printf 'error: %s\n' "$*" >&2
	exit 2
}
fail() {	# a check failed
	printf 'FAIL: %s\n' "$*" >&2
	exit 1
}
skip() {	# nothing to check here
	printf 'SKIP: %s\n' "$*" >&2
	exit 4
}

# Run a stage with its elapsed time. A stage that fails ends the script
# with its status: 1 and 4 as they are, any other status (a tool's own
# code, a signal) as 2. "stage -e" marks a stage of set-up (packages,
# toolchain, kernel source): whatever fails there is the environment's (2).
stage() {
	local env= name s rc=0
	[ "$1" = -e ] && { env=1; shift; }
	name=$1
	shift
	s=$(date +%s)
	log "== $name"
	"$@" || rc=$?
	if [ $rc != 0 ]; then
		case $rc in 1|4) [ -z "$env" ] || rc=2 ;; *) rc=2 ;; esac
		log "== $name failed after $(( $(date +%s) - s ))s (exit $rc: $(status_text $rc))"
		exit $rc
	fi
	log "== $name done in $(( $(date +%s) - s ))s"
}

status_text() {
	case $1 in
	0) echo pass ;;
	1) echo "a check failed" ;;
	2) echo "the harness or the environment failed" ;;
	4) echo skipped ;;
	*) echo "unexpected status" ;;
	esac
}

# The target architecture: ARCH=arm64 (make test-arm64) or x86_64, the
# default. Each architecture has its own build and boot directories (bdir,
# bootdir: "arm64-" in their names) and configuration fragment
# (configs/<arch>.config).
case ${ARCH:-x86_64} in
x86_64|x86)	KARCH=x86_64 KIMAGE=arch/x86/boot/bzImage QEMU=qemu-system-x86_64 ADIR= ;;
arm64)	KARCH=arm64 KIMAGE=arch/arm64/boot/Image QEMU=qemu-system-aarch64 ADIR=arm64- ;;
*)	die "ARCH=$ARCH: x86_64 or arm64" ;;
esac
# Scripts run from scripts inherit it.
[ "$KARCH" = x86_64 ] || export ARCH=$KARCH

# series_map: the map of the project's files into the kernel tree, as
# patches/series ends: one "<repository path> <kernel path>" line per kernel
# file, from the last item that names it (an @NAME stage of
# scripts/export-patches.sh is intermediate: the series must end at a
# repository file). The one map the overlay, the series export and
# check-claims read.
series_map() {
	awk '
	/^[ \t]*$/ || /^#/ { next }
	/^[^ \t]/ { next }
	{
		item = $1
		src = item; dst = item
		if ((i = index(item, ":")) > 0) { src = substr(item, 1, i - 1); dst = substr(item, i + 1) }
		if (!(dst in last)) order[n++] = dst
		last[dst] = src
	}
	END { for (i = 0; i < n; i++) print last[order[i]], order[i] }
	' "$TOP/patches/series"
}

# overlay_tree_diff <git tree> <base> <head>: compare the files that the
# commits base..head of the git tree change with the overlay's work tree
# (scripts/overlay.sh). Sets TREE_CHANGED (their number), TREE_DIFFER (those
# not identical to the work tree's) and TREE_MISSING (files of the overlay's
# manifest that the commits do not change); a series that ends at the
# overlay's tree has TREE_CHANGED > 0 and both lists empty.
overlay_tree_diff() {
	local changed f
	[ -s "$WORK/.rust-sched-cfs-files" ] || die "no manifest of the overlay's files ($WORK/.rust-sched-cfs-files)"
	changed=$(git -C "$1" diff --name-only "$2" "$3")
	TREE_CHANGED=$(grep -c . <<< "$changed" || true)
	TREE_DIFFER=$(while read -r f; do
		if [ -n "$f" ] && ! cmp -s "$1/$f" "$WORK/$f"; then
			echo "$f"
		fi
	done <<< "$changed")
	TREE_MISSING=$(grep -vxF -f <(printf '%s\n' "$changed") "$WORK/.rust-sched-cfs-files" || true)
}

bdir() { echo "$CACHE/build-$ADIR$1"; }	# bdir <flavour>: its build directory
bootdir() { echo "$CACHE/boot-$ADIR$1"; }	# bootdir <name>: scripts/boot.sh's output

# The shape variants of make bench-prod: off+<shape> (gcc-off+<shape>: built
# by GCC) is the off (gcc-off) kernel built from a copy of the work tree
# whose kernel/sched/fair.c has evaluation/bench/shapes/<shape>.patch
# applied, a C form of the Rust's code measured beside the series' C (a
# shape is kept only if it helps C's own production kernel). <shape>:
# lower-case letters, digits and "-" (the report's figure keys join two
# kernels with "_"). shape_of <flavour>: the shape, or nothing.
shape_of() {
	case $1 in off+*|gcc-off+*) echo "${1#*+}" ;; esac
}

# flavour_tree <flavour>: the kernel tree the flavour is built from: the
# pristine tree for stock, a shape variant's own tree (shape_tree), else
# the work tree.
flavour_tree() {
	case $1 in
	stock)	echo "$PRISTINE" ;;
	off+*|gcc-off+*)	echo "$CACHE/src/off+${1#*+}" ;;
	*)	echo "$WORK" ;;
	esac
}

# shape_tree <shape>: (re)make the shape's tree, $CACHE/src/off+<shape>: a
# hard-linked copy of the work tree (the same files, no copy) but for
# kernel/sched/fair.c, a file of its own (patch must not write through the
# link into the work tree's) with the shape's patch applied, exactly (no
# fuzz). Made again at every call, from the work tree as it is; fair.c
# keeps its time when its text did not change, so that a build is not
# redone for nothing. Dies when the shape does not exist, patches another
# file or does not apply.
shape_tree() {
	local shape=$1 p S f files
	p=$TOP/evaluation/bench/shapes/$shape.patch
	f=kernel/sched/fair.c
	[[ $shape =~ ^[a-z0-9][a-z0-9-]*$ ]] || die "shape '$shape': lower-case letters, digits and '-' only"
	[ -f "$p" ] || die "no shape $shape: no $p (the shapes: $(cd "$TOP/evaluation/bench/shapes" &&
		ls -- *.patch 2>/dev/null | sed 's/\.patch$//' | paste -sd' '))"
	files=$(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p" | sort -u)
	[ "$files" = "$f" ] || die "$p: a shape patches $f alone, this one: $(echo $files)"
	[ -f "$WORK/$f" ] || die "no work tree at $WORK: run scripts/overlay.sh"
	S=$(flavour_tree "off+$shape")
	mkdir -p "$(dirname "$S")"
	rm -rf "$S.new"
	cp -al "$WORK" "$S.new" || die "cannot hard-link $WORK into $S.new (another file system?)"
	cp --remove-destination "$WORK/$f" "$S.new/$f"
	[ "$(stat -c %h "$S.new/$f")" = 1 ] || die "$S.new/$f is still linked to another file"
	if ! patch -s -p1 -d "$S.new" --forward --fuzz=0 --no-backup-if-mismatch -r - < "$p" >&2; then
		rm -rf "$S.new"
		die "$p does not apply to the work tree's $f"
	fi
	if cmp -s "$WORK/$f" "$S.new/$f"; then
		rm -rf "$S.new"
		die "$p leaves $f as it is"
	fi
	cmp -s "$S.new/$f" "$S/$f" 2>/dev/null && touch -r "$S/$f" "$S.new/$f"
	rm -rf "$S"
	mv "$S.new" "$S"
}

# kmake <make arguments>: the kernel's make in $WORK with this project's
# clang and LLVM tools; with KCC=gcc, Debian's GCC and binutils instead (the
# Rust still by the pinned rustc, bindgen on libclang).
kmake() {
	local cc=/usr/lib/ccache/clang${LLVM_SUFFIX} arch= llvm=LLVM=$LLVM_SUFFIX
	if [ "${KCC:-clang}" = gcc ]; then
		cc=/usr/lib/ccache/gcc llvm=
	fi
	[ -x "$cc" ] || cc=${cc##*/}
	[ "$KARCH" = x86_64 ] || arch=ARCH=$KARCH
	make -C "$WORK" $llvm $arch CC="$cc" HOSTCC="$cc" "$@"
}

# um_int128_kconfig <tree> <copy>: write <copy>/arch/x86/um/Kconfig from
# <tree>'s with UML's X86_64 selecting ARCH_SUPPORTS_INT128 as arch/x86's
# does (under the same condition), so that C and Rust take the 128-bit
# product of x86_64 and arm64, not check_mul_overflow(); <copy> is a
# hard-linked copy of <tree> (the file is replaced, not written through).
um_int128_kconfig() {
	rm -f "$2/arch/x86/um/Kconfig"
	awk '{ print } /^config X86_64$/ { print "\tselect ARCH_SUPPORTS_INT128 if CC_HAS_INT128" }' \
		"$1/arch/x86/um/Kconfig" > "$2/arch/x86/um/Kconfig"
	touch -r "$1/arch/x86/um/Kconfig" "$2/arch/x86/um/Kconfig"
	! cmp -s "$1/arch/x86/um/Kconfig" "$2/arch/x86/um/Kconfig" ||
		die "arch/x86/um/Kconfig: no 'config X86_64' to select ARCH_SUPPORTS_INT128 under"
}
