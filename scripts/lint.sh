#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Style gates: rustfmtcheck on the overlaid tree, a CLIPPY=1 build of the
# main kernel (warnings in the project's files fail), and checkpatch.pl on
# the exported patch series (scripts/export-patches.sh), and a build of the
# Rust code with the kernel's minimum rustc (scripts/check-rust-min.sh).

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

log "checkpatch on the exported series"
out=$("$TOP/scripts/export-patches.sh" 2>&1) || true
printf '%s\n' "$out" | grep -E '^(total|WARNING|ERROR|CHECK)'
if printf '%s\n' "$out" | grep '^total:' | grep -qv 'total: 0 errors, 0 warnings, 0 checks'; then
	die "checkpatch found problems in the exported series"
fi
log "build with the kernel's minimum rustc"
"$TOP/scripts/check-rust-min.sh"
log "lint clean"
