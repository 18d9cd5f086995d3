#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Style gates: rustfmtcheck on the overlaid tree, a CLIPPY=1 build of the
# main kernel (warnings in the project's files fail), and checkpatch.pl on
# patches/.

. "$(dirname "$0")/common.sh"

"$TOP/scripts/overlay.sh"
B=$CACHE/build-main
[ -f "$B/.config" ] || "$TOP/scripts/build.sh" main

log "rustfmtcheck"
kmake -s O="$B" rustfmtcheck

log "CLIPPY=1 build"
kmake O="$B" CLIPPY=1 -j"$(nproc)" bzImage > "$B/clippy.log" 2>&1 ||
	{ tail -n 40 "$B/clippy.log"; die "CLIPPY=1 build failed"; }
if grep -A12 -E '^(warning|error)' "$B/clippy.log" | grep -qE 'kernel/sched/rust/|rust/kernel/sched'; then
	grep -A12 -E '^(warning|error)' "$B/clippy.log" | head -n 80
	die "clippy warnings in the project's files"
fi

log "checkpatch"
(cd "$WORK" && ./scripts/checkpatch.pl --no-tree --strict --max-line-length=100 \
	--ignore FILE_PATH_CHANGES "$TOP"/patches/*.patch)
log "lint clean"
