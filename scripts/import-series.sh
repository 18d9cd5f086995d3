#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make series-import: write the series' git repository ($CACHE/series-branch,
# made by make series-branch: the files the series touches, one commit per
# patch on a commit tagged "base") back into patches/: each commit's
# message and its diff of existing kernel files (and of files an earlier
# patch placed whole) become patches/NAME.patch, NAME in the order of
# patches/series. The files the series adds are the repository's own, as
# the patch that places each whole has it: one changed on the branch is
# reported, to be made in the repository. Adding, removing or reordering patches is an edit of
# patches/series (and of the patch files' names) by hand.

. "$(dirname "$0")/common.sh"

B=$CACHE/series-branch
git -C "$B" rev-parse -q --verify refs/tags/base >/dev/null 2>&1 ||
	die "no series branch in $B: run make series-branch first"
[ -z "$(git -C "$B" status --porcelain)" ] ||
	die "$B has changes not committed: commit them (git commit --fixup, then git rebase -i --autosquash base)"
names=$(grep -v '^[[:space:]#]' "$TOP/patches/series" | grep -v '^$')
commits=$(git -C "$B" rev-list --reverse base..HEAD)
[ "$(echo "$commits" | wc -l)" = "$(echo "$names" | wc -l)" ] ||
	die "$B has $(echo "$commits" | wc -l) commits after base, patches/series names $(echo "$names" | wc -l) patches: add or remove patches in patches/series by hand"

# placed_by <kernel path>: the last patch whose items place the file (the
# repository holds it as that patch has it); nothing for a file the series
# does not place.
placed_by() {
	awk -v d="$1" '
	/^[ \t]*$/ || /^#/ { next }
	/^[^ \t]/ { name = $1; next }
	{ item = $1; dst = item; if ((i = index(item, ":")) > 0) dst = substr(item, i + 1)
	  if (dst == d) last = name }
	END { if (last != "") print last }' "$TOP/patches/series"
}
changed=0 i=0
for c in $commits; do
	i=$((i + 1))
	name=$(echo "$names" | sed -n "${i}p")
	p=$TOP/patches/$name.patch
	# Its diff: the existing kernel files it changes, and the files an
	# earlier patch placed whole that it changes (the lines of a patch not
	# for merging in a file that merges).
	files=$(git -C "$B" diff --name-only "$c~1" "$c" | while read -r f; do
		if [ -f "$PRISTINE/$f" ]; then
			echo "$f"
		else
			by=$(placed_by "$f")
			if [ -n "$by" ] && [ "$by" \< "$name" ]; then echo "$f"; fi
		fi
	done)
	{
		git -C "$B" log -1 --format=%B "$c" | sed -n '1s/^/Subject: /p'
		echo
		# The body, without the trailers export-patches.sh adds.
		git -C "$B" log -1 --format=%B "$c" | sed '1,2d' | sed '/^Signed-off-by: /d' |
			sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
		echo ---
		[ -z "$files" ] || git -C "$B" diff --no-color "$c~1" "$c" -- $files | grep -v '^diff --git \|^index '
	} > "$p.new"
	if cmp -s "$p.new" "$p"; then
		rm "$p.new"
	else
		mv "$p.new" "$p"
		changed=$((changed + 1))
		log "patches/$name.patch: written from $(git -C "$B" log -1 --format='%h %s' "$c")"
	fi
done

# The added files: the branch's version of each, as the patch that places
# it whole leaves it, against the repository.
while IFS= read -r line; do
	case $line in
	[[:space:]]*) item=${line#"${line%%[![:space:]]*}"} ;;
	*) name=$line; continue ;;
	esac
	src=${item%%:*} dst=${item#*:}
	case $src in @*) continue ;; esac
	[ "$(placed_by "$dst")" = "$name" ] || continue
	k=$(echo "$names" | grep -nxF "$name" | cut -d: -f1)
	c=$(echo "$commits" | sed -n "${k}p")
	git -C "$B" show "$c:$dst" 2>/dev/null | cmp -s - "$TOP/$src" ||
		echo "$dst differs from $src: make the change in the repository's $src"
done < "$TOP/patches/series" | sort -u >&2
log "$changed of $i patches written; make rebuilds the kernels from them"
