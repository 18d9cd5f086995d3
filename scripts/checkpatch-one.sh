#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict on one patch of the exported series, in a kernel
# tree it applies to (or has been applied to), and its verdict:
#   checkpatch <patch>: ok (<checkpatch's total>)
#   checkpatch <patch>: FAIL (<why>)
# The warnings accepted: FILE_PATH_CHANGES ("added, moved or deleted
# file(s), does MAINTAINERS need updating?"), and only when
# get_maintainer.pl finds, in that tree, a maintainer other than THE REST's
# for every file the patch adds: the question then has its answer; and
# UNKNOWN_COMMIT_ID for the mainline commits patches/upstream-commits lists.
# Exit status 0 ok, 1 not.
#   scripts/checkpatch-one.sh <tree> <patch>

set -uo pipefail
tree=$1 p=$2
name=$(basename "$p")
out=$(cd "$tree" && ./scripts/checkpatch.pl --no-tree --strict --max-line-length=100 \
	--ignore COMMIT_LOG_LONG_LINE --show-types "$p" 2>&1)
total=$(sed -n 's/^total: \(.*\) lines checked/\1/p' <<< "$out" | sed 's/, [0-9]* *$//')
types=$(grep -oE '^(ERROR|WARNING|CHECK):[A-Z_]+' <<< "$out" | sort -u | tr '\n' ' ')
if [ "$total" = "0 errors, 0 warnings, 0 checks" ]; then
	echo "checkpatch $name: ok ($total)"
	exit 0
fi
# UNKNOWN_COMMIT_ID: a Fixes: tag naming a mainline commit that this tree,
# without git history, cannot show; accepted for the commits
# patches/upstream-commits lists, with the subject listed there.
if [ "$types" = "WARNING:UNKNOWN_COMMIT_ID " ] && [ "$total" = "0 errors, 1 warnings, 0 checks" ]; then
	list=$(dirname "$0")/../patches/upstream-commits
	for id in $(sed -n "s/.*Unknown commit id '\([0-9a-f]*\)'.*/\1/p" <<< "$out"); do
		subject=$(awk -v id="$id" '!/^#/ && $1 == id { $1 = ""; sub(/^ /, ""); print }' "$list")
		if [ -z "$subject" ] || ! grep -qxF "Fixes: $id (\"$subject\")" "$p"; then
			printf '%s\n' "$out"
			echo "checkpatch $name: FAIL (commit $id is not in patches/upstream-commits, or its Fixes: tag's subject is not the one listed)"
			exit 1
		fi
	done
	echo "checkpatch $name: ok ($total: UNKNOWN_COMMIT_ID for a mainline commit of patches/upstream-commits, which this tree has no history to show)"
	exit 0
fi
if [ "$types" = "WARNING:FILE_PATH_CHANGES " ] && [ "$total" = "0 errors, 1 warnings, 0 checks" ]; then
	added=$(awk '/^diff --git / { f = $4; sub("^b/", "", f) } /^new file mode/ { print f }' "$p")
	orphans=
	for f in $added; do
		(cd "$tree" && ./scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
			--no-r --no-l -f "$f" 2>/dev/null) | grep -qv 'Linus Torvalds' || orphans="$orphans $f"
	done
	if [ -z "$orphans" ]; then
		echo "checkpatch $name: ok ($total: FILE_PATH_CHANGES, and MAINTAINERS covers the $(wc -w <<< "$added") files it adds)"
		exit 0
	fi
	echo "checkpatch $name: FAIL (files in no MAINTAINERS entry:$orphans)"
	exit 1
fi
printf '%s\n' "$out"
echo "checkpatch $name: FAIL (${total:-no total}: $types)"
exit 1
