#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Export the project as an upstream-style patch series against the kernel
# tree: a scratch git repository holding the pristine versions of the touched
# files gets one commit per logical change, then git format-patch writes the
# series (with a cover letter) and checkpatch.pl checks it.
# Output: $CACHE/patches/ (PATCH_DIR= overrides).
#
# With "branch" (make series-branch), the scratch repository is
# $CACHE/series-branch, kept for editing the series with git: its first
# commit is tagged "base"; make series-import (scripts/import-series.sh)
# writes its commits back into patches/.

. "$(dirname "$0")/common.sh"

OUT=${PATCH_DIR:-$CACHE/patches}
R=$CACHE/export
if [ "${1:-}" = branch ]; then
	R=$CACHE/series-branch
	OUT=$CACHE/series-branch.patches
fi
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
	# A file the series places and a later patch changes is not 7.3.4's.
	[ -f "$PRISTINE/$f" ] || continue
	mkdir -p "$R/$(dirname "$f")"
	cp "$PRISTINE/$f" "$R/$f"
done
git -C "$R" add -A
git -C "$R" commit -qm "base: Linux $(make -s -C "$PRISTINE" kernelversion) files touched by the series"
base=$(git -C "$R" rev-parse HEAD)
git -C "$R" tag base

# commit_patch NAME: commit what the series file added for it, with its diff
# applied and its message.
commit_patch() {
	local p=$TOP/patches/$1.patch subject body
	[ -f "$p" ] || fail "patches/series names $1, but there is no patches/$1.patch"
	n=$((n + 1))
	case $1 in
	"$(printf '%04d' "$n")"-*) ;;
	*) fail "patches/series: $1 is patch $n of the series: name it $(printf '%04d' "$n")-..." ;;
	esac
	subject=$(sed -n '1s/^Subject: //p' "$p")
	[ -n "$subject" ] || fail "patches/$1.patch does not start with a Subject: line"
	# The shortlog's width: "subsystem: summary" within 75 columns.
	[ ${#subject} -le 75 ] ||
		fail "patches/$1.patch: a subject of ${#subject} columns (at most 75): $subject"
	body=$(sed -n '3,/^---$/p' "$p" | sed '$d')
	if grep -q '^+++ b/' "$p"; then
		patch -s -d "$R" -p1 --no-backup-if-mismatch < "$p" || fail "patches/$1.patch does not apply"
	fi
	git -C "$R" add -A
	# A body that ends in a trailer (Fixes:) keeps the sign-off in its block.
	sep='\n\n'
	if printf '%s\n' "$body" | tail -n1 | grep -Eq '^[A-Z][A-Za-z-]+: '; then
		sep='\n'
	fi
	printf "%s\n\n%s$sep""Signed-off-by: %s <%s>\n" "$subject" "$body" "$AUTHOR_NAME" "$AUTHOR_EMAIL" |
		git -C "$R" commit -q -F -
}

# The files the series places before they are whole, as the series
# file's @NAME items name them: each stage written to $CACHE/NAME. The
# repository holds each file as the patch that places it whole has it
# (what merges: the options of the Kconfig, the crate's Makefile, the
# crate root, the selftests' Makefile); the patches not for merging add
# their lines to them as diffs. So that every commit builds with
# CONFIG_SCHED_RUST_CFS=y and =n (make check-series), the build patch
# places the Kconfig with the option alone and the Makefile without the
# crate, which the pick's patch brings.
python3 - "$TOP/Kconfig.snippet" "$TOP/kernel/sched/rust/Makefile" "$CACHE" <<'EOP'
import re, sys
kconfig, makefile, out = sys.argv[1:4]
text = open(kconfig).read()
head, *blocks = re.split(r'\n(?=config )', text)
assert [b.split()[1] for b in blocks][:1] == ['SCHED_RUST_CFS']
open(out + '/Kconfig.build', 'w').write(head + '\n' + blocks[0].rstrip('\n') + '\n')
mk = open(makefile).read()
open(out + '/Makefile.build', 'w').write(mk[:mk.index('\n#\n# Frame records')].rstrip('\n') + '\n')
EOP

# The crate root as it is after the pick and the tg_state commits (the
# repository's is the LLC commit's; the test module comes with the KUnit
# suites, as a diff).
python3 - "$TOP/kernel/sched/rust/sched_rust.rs" "$CACHE" <<'EOP'
import sys
src = open(sys.argv[1]).read().split('\n')
def drop(lines, keys):
    out, skip = [], 0
    for i, l in enumerate(lines):
        if skip:
            skip -= 1
            continue
        if any(k in l for k in keys):
            continue
        # A cfg attribute or doc line belongs to the item or text after it.
        if l.startswith('#[cfg(') and i + 1 < len(lines) and any(k in lines[i + 1] for k in keys):
            continue
        if l.startswith('//! - `') and any(k in l for k in keys):
            continue
        out.append(l)
    return out
def without(lines, piece, extra):
    out, skip = [], False
    for l in lines:
        if l.startswith('//! - `%s`' % piece):
            skip = True
            continue
        if skip and l.startswith('//!   '):
            continue
        skip = False
        out.append(l)
    return drop(out, extra)
llc_stage = src
llc = ['pub mod llc;', '__LOG_PREFIX', 'Prefix of the `pr_*!`']
tg = without(llc_stage, 'llc', llc)
pick = without(tg, 'tg_state', ['pub mod tg_state;'])
for name, lines in (('tg', tg), ('pick', pick)):
    text = '\n'.join(lines)
    while '\n\n\n' in text:
        text = text.replace('\n\n\n', '\n\n')
    open('%s/sched_rust.%s.rs' % (sys.argv[2], name), 'w').write(text.rstrip('\n') + '\n')
EOP

# The series: patches/series lists the patches in order, each followed by the
# files it adds or replaces (indented: a repository path, the same path in
# the kernel, SRC:DST, or @NAME:DST for a file generated above);
# patches/NAME.patch holds its message (Subject: and body, up to a line
# "---") and its diff of existing kernel files, if it has one.
n=0
while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	''|'#'*) continue ;;
	[[:space:]]*)
		item=${line#"${line%%[![:space:]]*}"}
		[ -n "${name:-}" ] || fail "patches/series: a file before the first patch: $item"
		case $item in
		*:*) src=${item%%:*} dst=${item#*:} ;;
		*) src=$item dst=$item ;;
		esac
		case $src in
		@*) src=$CACHE/${src#@} ;;
		*) src=$TOP/$src ;;
		esac
		[ -f "$src" ] || fail "patches/series: $name adds $src, which does not exist"
		mkdir -p "$R/$(dirname "$dst")"
		cp "$src" "$R/$dst"
		continue ;;
	esac
	[ -z "${name:-}" ] || commit_patch "$name"
	name=$line
done < "$TOP/patches/series"
[ -n "${name:-}" ] && commit_patch "$name"
[ "$n" = "$(ls "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch | wc -l)" ] ||
	fail "patches/series names $n patches, patches/ has $(ls "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch | wc -l)"

# The series ends at the overlay's tree: every file it adds or changes is
# the work tree's (scripts/overlay.sh), and every file the overlay puts
# there is in the series.
"$TOP/scripts/overlay.sh"
overlay_tree_diff "$R" "$base" HEAD
# Both lists empty would compare nothing: a series without files is a
# failure of the harness.
[ "$TREE_CHANGED" -gt 0 ] || fail "the exported series changes no file"
[ -z "$TREE_DIFFER" ] || fail "the series does not end at the overlay's tree: $(echo $TREE_DIFFER) differ"
[ -z "$TREE_MISSING" ] || fail "the overlay puts files in the work tree that no patch adds or changes: $(echo $TREE_MISSING)"
log "the series ends at the overlay's tree: $TREE_CHANGED files, all identical; the overlay's $(wc -l < "$WORK/.rust-sched-cfs-files") files all in the series"

git -C "$R" format-patch -q --cover-letter -o "$OUT" "$base"..HEAD
# Fill in the cover letter's placeholders.
cover=$(ls "$OUT"/0000-*.patch)
sed -i "s/\*\*\* SUBJECT HERE \*\*\*/sched\/fair: Rust implementation of parts of the fair scheduler/" "$cover"
sed -i "/\*\*\* BLURB HERE \*\*\*/{
r $TOP/patches/cover-letter.txt
d
}" "$cover"
# To and Cc of every patch from scripts/get_maintainer.pl (the overlaid tree
# has the series' MAINTAINERS entry): the maintainers in To, the reviewers
# and lists in Cc, as b4 prep --auto-to-cc does; the cover letter gets them all.
gm() {	# gm <patch> <options>: the addresses, comma-separated
	(cd "$WORK" && ./scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
		"${@:2}" "$1") | paste -sd, | sed 's/,/, /g'
}
all_to= all_cc=
for p in "$OUT"/[0-9][0-9][0-9][0-9]-*.patch; do
	case $p in */0000-*) continue ;; esac
	to=$(gm "$p" --no-r --no-l)
	cc=$(gm "$p" --no-m)
	[ -n "$to" ] || fail "get_maintainer.pl found no maintainer for $(basename "$p")"
	all_to="$all_to, $to" all_cc="$all_cc, $cc"
	sed -i "0,/^Subject: /s//To: ${to//\//\\/}\nCc: ${cc//\//\\/}\n&/" "$p"
done
uniq_list() { tr ',' '\n' | sed 's/^ *//; /^$/d' | awk '!seen[$0]++' | paste -sd, | sed 's/,/, /g'; }
all_to=$(uniq_list <<< "$all_to")
all_cc=$(uniq_list <<< "$all_cc")
sed -i "0,/^Subject: /s//To: ${all_to}\nCc: ${all_cc}\n&/" "$cover"
# The series' first patch, a fix of 7.3's C (its Fixes: tag), on its own to
# be sent ahead of the series: [PATCH] and its own To/Cc.
mkdir -p "$OUT/fix"
fix=$(ls "$OUT"/0001-*.patch)
grep -q '^Fixes: [0-9a-f]\{12\} ("' "$fix" || fail "$(basename "$fix"): the series' first patch has no Fixes: tag"
fixname=$(basename "$fix" | sed 's/^0001-/0001-fix-/')
sed '0,/^Subject: \[PATCH [0-9]*\/[0-9]*\]/s//Subject: [PATCH]/' "$fix" > "$OUT/fix/$fixname"
log "the fix, to send first: $OUT/fix/$fixname"
# The repository keeps it in patches/fix/: the export's commit id and date
# left out (git send-email dates it), so that the same series gives the
# same file, and its author and sign-off SENDER <sender@address.invalid>
# (a domain no mail reaches): whoever sends it signs it off as
# themselves first. A copy there that differs from this export is
# rewritten (CI=true: a failure, as the committed copy is stale).
mkdir -p "$TOP/patches/fix"
keep="$TOP/patches/fix/$fixname"
sed '1s/^From [0-9a-f]* /From 0000000000000000000000000000000000000000 /; /^Date: /d' \
	"$OUT/fix/$fixname" | awk '
	/^From: / { print "From: SENDER <sender@address.invalid>"; from = 1; next }
	from && /^[ \t]/ { next }
	{ from = 0 }
	/^Signed-off-by: / { print "Signed-off-by: SENDER <sender@address.invalid>"; next }
	{ print }' > "$OUT/fix/.kept"
# Who exports it (git's user, the From: and Signed-off-by: lines) is not
# compared: only a change of the patch itself, or of its addressees.
fixnorm() { [ -f "$1" ] && sed '/^From: /,/^To: /{/^To: /!d}; /^Signed-off-by: /d' "$1"; }
if [ "$(fixnorm "$OUT/fix/.kept")" != "$(fixnorm "$keep")" ] ||
	[ "$(ls "$TOP/patches/fix")" != "$fixname" ]; then
	[ "${CI:-}" != true ] || fail "patches/fix/ is not the export of the series' first patch: run make patches and commit patches/fix/"
	rm -f "$TOP"/patches/fix/*.patch
	mv "$OUT/fix/.kept" "$keep"
	log "patches/fix/$fixname written: commit it"
fi
rm -f "$OUT/fix/.kept"
log "series written to $OUT:"
ls "$OUT" >&2
# checkpatch --strict, one verdict per patch (scripts/checkpatch-one.sh:
# FILE_PATH_CHANGES only where MAINTAINERS covers the files a patch adds).
rc=0
for p in "$OUT"/[0-9][0-9][0-9][0-9]-*.patch; do
	case $p in */0000-*) continue ;; esac
	"$TOP/scripts/checkpatch-one.sh" "$WORK" "$p" || rc=1
done
exit $rc
