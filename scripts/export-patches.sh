#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Export the project as an upstream-style patch series against the kernel
# tree: a scratch git repository holding the pristine versions of the touched
# files gets one commit per logical change, then git format-patch writes the
# series (with a cover letter) and checkpatch.pl checks it.
# Output: $CACHE/patches/ (PATCH_DIR= overrides).

. "$(dirname "$0")/common.sh"

OUT=${PATCH_DIR:-$CACHE/patches}
R=$CACHE/export
[ -f "$PRISTINE/Makefile" ] || "$TOP/scripts/fetch-kernel.sh"
AUTHOR_NAME=$(git -C "$TOP" config user.name || echo "rust-sched-cfs developers")
AUTHOR_EMAIL=$(git -C "$TOP" config user.email || echo "rust-sched-cfs@localhost")

rm -rf "$R" "$OUT"
mkdir -p "$R" "$OUT"
git -C "$R" init -q
git -C "$R" config user.name "$AUTHOR_NAME"
git -C "$R" config user.email "$AUTHOR_EMAIL"
for p in "$TOP"/patches/*.patch; do
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"
done | sort -u | while read -r f; do
	mkdir -p "$R/$(dirname "$f")"
	cp "$PRISTINE/$f" "$R/$f"
done
git -C "$R" add -A
git -C "$R" commit -qm "base: Linux $(make -s -C "$PRISTINE" kernelversion) files touched by the series"
base=$(git -C "$R" rev-parse HEAD)

# commit <subject> <body> <items...>: an item is patches/NAME.patch, or
# SRC:DST to add a project file at a kernel path.
commit() {
	local subject=$1 body=$2 item
	shift 2
	for item in "$@"; do
		case $item in
		patches/*) patch -s -d "$R" -p1 --no-backup-if-mismatch < "$TOP/$item" ;;
		*:*) mkdir -p "$R/$(dirname "${item#*:}")"; cp "$TOP/${item%%:*}" "$R/${item#*:}" ;;
		esac
	done
	git -C "$R" add -A
	printf '%s\n\n%s\n\nSigned-off-by: %s <%s>\n' "$subject" "$body" "$AUTHOR_NAME" "$AUTHOR_EMAIL" |
		git -C "$R" commit -q -F -
}

commit "rust: sched: Add per-CPU allocations and fair runqueue views" \
"The fair scheduler keeps most of its state in per-CPU allocations and in
structures private to kernel/sched/, none of which Rust can reach today.

Add rust/kernel/sched/: PerCpu<T>, an owning handle of a dynamic per-CPU
allocation (zero-filled, fallible with explicit GFP flags, freed on drop,
convertible to and from the raw pointer C stores), with remote access by
CpuId and local access bounded by a PreemptGuard; and SchedEntity and
CfsRqView, read-only views of a sched_entity and of the part of a cfs_rq
the EEVDF pick reads, whose lifetimes are bounded by the runqueue lock.
The C header kernel/sched/rust/sched_rust.h declares the view structure and
every C-callable Rust entry point, so that bindgen checks their signatures." \
	rust/helpers/sched.c:rust/helpers/sched.c \
	rust/kernel/sched.rs:rust/kernel/sched.rs \
	rust/kernel/sched/cfs_rq.rs:rust/kernel/sched/cfs_rq.rs \
	rust/kernel/sched/entity.rs:rust/kernel/sched/entity.rs \
	rust/kernel/sched/percpu.rs:rust/kernel/sched/percpu.rs \
	kernel/sched/rust/sched_rust.h:kernel/sched/rust/sched_rust.h \
	patches/0002-rust-sched-bindings.patch

commit "sched/fair: Add CONFIG_SCHED_RUST_CFS and a C/Rust runtime switch" \
"Rust implementations of fair-scheduler pieces need to be compared with the
C ones on the same machine, in the same boot, without a rebuild.

Add CONFIG_SCHED_RUST_CFS and kernel/sched/rust/switch.c: one static key
per piece, set by the boot parameter sched_rust_cfs= and by files in
/sys/kernel/debug/sched/rust_cfs/, so that the choice costs nothing on the
hot path. The C implementations stay compiled as the reference." \
	Kconfig.snippet:kernel/sched/rust/Kconfig \
	kernel/sched/rust/Makefile:kernel/sched/rust/Makefile \
	kernel/sched/rust/switch.c:kernel/sched/rust/switch.c \
	patches/0001-sched-build-and-runtime-switch.patch

commit "sched/fair: Implement pick_eevdf() in Rust" \
"pick_eevdf() runs on every pick under the runqueue lock. Its eligibility
test recomputes the sum_w_vruntime, sum_weight and curr terms for every
candidate, although they cannot change during one pick.

Add a Rust pick_eevdf() and vruntime_eligible() with every branch of the C
code and bit-exact wrapping arithmetic, computing the eligibility terms
once per pick. fair.c copies the few cfs_rq words it reads into a view and
dispatches through the runtime switch; the C bodies remain as
pick_eevdf_c() and vruntime_eligible_c(). Optional route statistics and a
shadow mode (CONFIG_SCHED_RUST_CFS_SHADOW) run the other implementation on
every pick and count divergences." \
	kernel/sched/rust/sched_rust.rs:kernel/sched/rust/sched_rust.rs \
	kernel/sched/rust/eevdf.rs:kernel/sched/rust/eevdf.rs \
	patches/0003-sched-fair-rust-pick-dispatch.patch

commit "sched/fair: Add KUnit parity tests and benchmarks for the Rust pieces" \
"Show that the Rust and the C implementations agree, and what they cost.

The sched_rust_parity suite is included at the bottom of fair.c to reach
its static functions: one hand-written state per branch of pick_eevdf(),
and a random differential test of 100,000 cfs_rq states built with the
real __enqueue_entity(), comparing the picked entity and the eligibility
of both implementations. CONFIG_SCHED_RUST_CFS_BENCH adds microbenchmarks
that time both implementations interleaved on prepared trees." \
	tests/kunit/rust_cfs_kunit.c:kernel/sched/tests/rust_cfs_kunit.c \
	tests/kunit/.kunitconfig:kernel/sched/rust/.kunitconfig \
	kernel/sched/rust/fair_bench.c:kernel/sched/rust/fair_bench.c \
	patches/0004-sched-fair-kunit-and-bench-includes.patch

git -C "$R" format-patch -q --cover-letter -o "$OUT" "$base"..HEAD
# Fill in the cover letter's placeholders.
cover=$(ls "$OUT"/0000-*.patch)
sed -i "s/\*\*\* SUBJECT HERE \*\*\*/sched\/fair: Rust implementation of parts of the fair scheduler/" "$cover"
sed -i "/\*\*\* BLURB HERE \*\*\*/{
r $TOP/patches/cover-letter.txt
d
}" "$cover"
log "series written to $OUT:"
ls "$OUT" >&2
(cd "$WORK" 2>/dev/null || cd "$PRISTINE"; ./scripts/checkpatch.pl --no-tree --strict \
	--max-line-length=100 --ignore FILE_PATH_CHANGES,COMMIT_LOG_LONG_LINE "$OUT"/000[1-9]-*.patch)
