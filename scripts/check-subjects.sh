#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Commit subjects within 75 columns from 449e2d1 on (the history before it
# is as it landed). The eight longer subjects that landed after it are
# history too (a results commit sits above them, or the commit a committed
# run measured does: rewriting would orphan it): they are named here and
# nothing else is let through. A
# clone without 449e2d1 skips the check.

# Seconds, no cache: it takes no lock, so that CI runs it beside a build.
TOP=$(cd "$(dirname "$0")/.." && pwd)
log() { echo "check-subjects: $*" >&2; }
fail() { echo "check-subjects: FAIL: $*" >&2; exit 1; }

landed="0cab139 0c120bf 908dcf8 79a1f4d fc6ce7d 81ca308 a7d1ab4 935eae5"
log "commit subjects within 75 columns since 449e2d1"
git -C "$TOP" cat-file -e 449e2d1 2>/dev/null ||
	{ log "skipped: this clone does not hold 449e2d1"; exit 0; }
long=$(git -C "$TOP" log --format='%h %s' --abbrev=7 449e2d1..HEAD |
	awk -v landed="$landed" '
		BEGIN { n = split(landed, l, " "); for (i = 1; i <= n; i++) ok[l[i]] = 1 }
		{ h = $1; s = substr($0, length(h) + 2) }
		length(s) > 75 && !(h in ok)')
[ -z "$long" ] || { echo "$long" >&2; fail "commit subjects over 75 columns (above)"; }
log "subjects: $(git -C "$TOP" rev-list --count 449e2d1..HEAD) commits checked, the 8 named ones excepted"
