#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Make the working kernel tree: a copy of the pristine tree with this
# project's files copied in and patches/ applied in the series' order
# (patches/series). Idempotent: files touched by a patch are restored from
# the pristine tree before patching, and the pristine tree is never modified.
#
# The work tree is an output: its files come from the repository (the
# project's files) and from patches/ (existing kernel files). A file of it
# edited by hand is not overwritten: the overlay stops and says where the
# edit belongs (the repository file, or the patch: make series-import writes
# the series' git repository back into patches/, see the README).

. "$(dirname "$0")/common.sh"

[ -f "$PRISTINE/Makefile" ] || die "no kernel tree at $PRISTINE: run scripts/fetch-kernel.sh"

# The C that the Rust re-implements must be what it was written against.
/usr/bin/python3 "$TOP/scripts/check-mirrors.py" "$PRISTINE" "$TOP/scripts/mirrors.txt" >&2 ||
	fail "the kernel tree's C differs from what the Rust mirrors (scripts/mirrors.txt)"
# The evaluation kernels' stock pick must be 7.3's (scripts/check-stock.py).
out=$(/usr/bin/python3 "$TOP/scripts/check-stock.py" "$PRISTINE/kernel/sched/fair.c" \
	"$TOP/evaluation/kernel/sched/rust/debug/fair_debug.c") ||
	{ echo "$out" >&2; fail "the stock pick of kernel/sched/rust/debug/fair_debug.c is not 7.3's"; }

if [ ! -f "$WORK/.rust-sched-cfs-work" ]; then
	log "copying $PRISTINE to $WORK"
	rm -rf "$WORK"
	mkdir -p "$WORK"
	cp -a "$PRISTINE/." "$WORK/"
	touch "$WORK/.rust-sched-cfs-work"
fi

# The project's own files: copied only when changed, so that make sees the
# right timestamps and an unchanged overlay rebuilds nothing.
# $LAST keeps what the overlay last wrote, to tell a hand edit of the work
# tree from a change of the repository.
LAST=$CACHE/overlay-last
edited=()
sync_file() {
	local rel=${2#$WORK/}
	mkdir -p "$(dirname "$2")" "$(dirname "$LAST/$rel")"
	echo "$rel" >> "$MANIFEST.new"
	if [ -f "$2" ] && [ -f "$LAST/$rel" ] && ! cmp -s "$2" "$LAST/$rel" && ! cmp -s "$1" "$2"; then
		edited+=("$rel")
		return
	fi
	cmp -s "$1" "$2" || cp "$1" "$2"
	cmp -s "$1" "$LAST/$rel" || cp "$1" "$LAST/$rel"
}
MANIFEST=$WORK/.rust-sched-cfs-files
: > "$MANIFEST.new"
# The map is patches/series' (series_map): every file it places, and no
# file of the repository's kernel folders that it does not place.
map=$(series_map)
# The files a later patch changes (patches/NAME.patch's diffs name them):
# the repository holds a placed one as the patch that places it has it,
# and the patches' diffs, applied below, make what the work tree gets.
files=$(for p in "$TOP"/patches/*.patch; do
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"
done | sort -u)
while read -r src dst; do
	case $src in
	@*) fail "patches/series ends $dst at $src, a stage of the export: the last item for a file must be a repository file" ;;
	esac
	[ -f "$TOP/$src" ] || fail "patches/series places $src, which does not exist"
	grep -qxF "$dst" <<< "$files" && continue
	sync_file "$TOP/$src" "$WORK/$dst"
done <<< "$map"
unplaced=$(cd "$TOP" && git ls-files kernel rust evaluation/kernel Documentation/scheduler tests/selftests 2>/dev/null |
	grep -vxF -f <(awk '{ print $1 }' <<< "$map") || true)
[ -z "$unplaced" ] || fail "patches/series places no copy of $(echo $unplaced) in the kernel tree: name each under the patch that adds it"

# Patches are applied to copies of the pristine files in a staging directory,
# and a result is copied into the work tree only when it differs from what is
# there: re-running the overlay touches nothing, so make rebuilds nothing.
STAGE=$CACHE/stage
rm -rf "$STAGE"
mkdir -p "$STAGE"
for f in $files; do
	src=$(awk -v d="$f" '$2 == d { print $1 }' <<< "$map")
	if [ -n "$src" ]; then
		# A file the series places, which a later patch changes.
		mkdir -p "$STAGE/$(dirname "$f")"
		cp -p "$TOP/$src" "$STAGE/$f"
	elif [ -f "$PRISTINE/$f" ]; then
		mkdir -p "$STAGE/$(dirname "$f")"
		cp -p "$PRISTINE/$f" "$STAGE/$f"
	fi
done
series=$(grep -v '^[[:space:]#]' "$TOP/patches/series" | grep -v '^$')
[ "$(echo "$series" | wc -l)" = "$(ls "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch | wc -l)" ] ||
	fail "patches/series does not name every patches/NNNN-*.patch"
for name in $series; do
	p=$TOP/patches/$name.patch
	[ -f "$p" ] || fail "patches/series names $name: no $p"
	grep -q '^+++ b/' "$p" || continue	# a patch that only adds files
	if ! out=$(patch -d "$STAGE" -p1 --forward --no-backup-if-mismatch -r - < "$p" 2>&1); then
		printf '%s\n' "$out" >&2
		fail "patches/$(basename "$p") does not apply to Linux $(cat "$PRISTINE/.debian-version" 2>/dev/null || echo "in $PRISTINE"); see the output above"
	fi
done
for f in $files; do
	sync_file "$STAGE/$f" "$WORK/$f"
done
if [ ${#edited[@]} -gt 0 ]; then
	printf '  %s\n' "${edited[@]}" >&2
	fail "the files above were edited in the work tree ($WORK), which the overlay rebuilds: make the edit in the repository (a project file) or in patches/ (an existing kernel file: make series-branch, edit, make series-import); or discard it with rm $LAST/<file>"
fi
sort -u "$MANIFEST.new" > "$MANIFEST.new.sorted"
# A file the last overlay wrote and this one does not (moved or removed in
# the repository) goes back to what the pristine tree has, or away.
if [ -f "$MANIFEST" ]; then
	comm -23 "$MANIFEST" "$MANIFEST.new.sorted" | while read -r rel; do
		if [ -f "$PRISTINE/$rel" ]; then
			cp -p "$PRISTINE/$rel" "$WORK/$rel"
		else
			rm -f "$WORK/$rel"
		fi
		rm -f "$LAST/$rel"
		log "overlay: $rel is no longer the project's: $([ -f "$PRISTINE/$rel" ] && echo restored || echo removed)"
	done
fi
mv "$MANIFEST.new.sorted" "$MANIFEST"
rm -f "$MANIFEST.new"
log "overlay applied: $(ls "$TOP"/patches/*.patch | wc -l) patches, $(echo $files | wc -w) files"
