#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Make the working kernel tree: a copy of the pristine tree with this
# project's files copied in and patches/ applied. Idempotent: files touched
# by a patch are restored from the pristine tree before patching, and the
# pristine tree is never modified.

. "$(dirname "$0")/common.sh"

[ -f "$PRISTINE/Makefile" ] || die "no kernel tree at $PRISTINE: run scripts/fetch-kernel.sh"

if [ ! -f "$WORK/.rust-sched-cfs-work" ]; then
	log "copying $PRISTINE to $WORK"
	rm -rf "$WORK"
	mkdir -p "$WORK"
	cp -a "$PRISTINE/." "$WORK/"
	touch "$WORK/.rust-sched-cfs-work"
fi

# The project's own files: copied only when changed, so that make sees the
# right timestamps and an unchanged overlay rebuilds nothing.
sync_file() {
	mkdir -p "$(dirname "$2")"
	cmp -s "$1" "$2" || cp "$1" "$2"
}
for d in kernel/sched/rust rust/kernel/sched; do
	(cd "$TOP" && find "$d" -type f) | while read -r f; do
		sync_file "$TOP/$f" "$WORK/$f"
	done
done
sync_file "$TOP/rust/kernel/sched.rs" "$WORK/rust/kernel/sched.rs"
sync_file "$TOP/rust/kernel/percpu.rs" "$WORK/rust/kernel/percpu.rs"
sync_file "$TOP/rust/helpers/percpu.c" "$WORK/rust/helpers/percpu.c"
sync_file "$TOP/Kconfig.snippet" "$WORK/kernel/sched/rust/Kconfig"
sync_file "$TOP/tests/kunit/rust_cfs_kunit.c" "$WORK/kernel/sched/tests/rust_cfs_kunit.c"
sync_file "$TOP/tests/kunit/.kunitconfig" "$WORK/kernel/sched/rust/.kunitconfig"
sync_file "$TOP/Documentation/scheduler/sched-rust-cfs.rst" "$WORK/Documentation/scheduler/sched-rust-cfs.rst"

# Patches are applied to copies of the pristine files in a staging directory,
# and a result is copied into the work tree only when it differs from what is
# there: re-running the overlay touches nothing, so make rebuilds nothing.
STAGE=$CACHE/stage
rm -rf "$STAGE"
mkdir -p "$STAGE"
files=$(for p in "$TOP"/patches/*.patch; do
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"
done | sort -u)
for f in $files; do
	if [ -f "$PRISTINE/$f" ]; then
		mkdir -p "$STAGE/$(dirname "$f")"
		cp -p "$PRISTINE/$f" "$STAGE/$f"
	fi
done
for p in "$TOP"/patches/*.patch; do
	if ! out=$(patch -d "$STAGE" -p1 --forward --no-backup-if-mismatch -r - < "$p" 2>&1); then
		printf '%s\n' "$out" >&2
		fail "patches/$(basename "$p") does not apply to Linux $(cat "$PRISTINE/.debian-version" 2>/dev/null || echo "in $PRISTINE"); see the output above"
	fi
done
for f in $files; do
	sync_file "$STAGE/$f" "$WORK/$f"
done
log "overlay applied: $(ls "$TOP"/patches/*.patch | wc -l) patches, $(echo $files | wc -w) files"
