#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that the exported series (scripts/export-patches.sh) is bisectable:
# apply it with git am, patch by patch, to a git tree of the pristine kernel
# source, and after every patch
#   - build vmlinux with CONFIG_SCHED_RUST_CFS=y (tinyconfig + configs/base,
#     x86_64 and kunit; CLIPPY=1: clippy checks the Rust code as it builds it)
#     and with CONFIG_SCHED_RUST_CFS=n (the same, the option off); a warning
#     in the series' files fails the step as an error does;
#   - run rustfmtcheck on the tree;
#   - take checkpatch.pl --strict's verdict on the patch.
# Then b4 (from PyPI, in a virtualenv in the cache) enrolls the applied series
# with `b4 prep`, takes the cover letter, and writes the series with
# `b4 prep -p`: the layout b4 send would mail. Without network access to
# PyPI that step is skipped and says so.
# Builds are incremental in two build directories with ccache, so a step
# costs what the patch changes. Prints one line per patch and a verdict.
#   scripts/check-series.sh

. "$(dirname "$0")/common.sh"

"$TOP/scripts/setup.sh"
"$TOP/scripts/fetch-kernel.sh"
"$TOP/scripts/overlay.sh"

S=$CACHE/series
OUT=$S/patches
T=$S/linux
mkdir -p "$S"
log "exporting the series"
PATCH_DIR=$OUT "$TOP/scripts/export-patches.sh" > "$S/export.log" 2>&1 ||
	{ tail -n 30 "$S/export.log"; fail "the series could not be exported"; }

# A git tree of the pristine source, made once; reset to its base commit
# before every run.
if ! git -C "$T" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	log "making a git tree of the pristine source in $T"
	rm -rf "$T"
	mkdir -p "$T"
	# The tree's contents: $PRISTINE is a symbolic link to the user's KSRC=,
	# which must not become this git tree.
	cp -a "$PRISTINE/." "$T/"
	git -C "$T" init -q
	git -C "$T" config core.looseCompression 1
	git -C "$T" config user.name "rust-sched-cfs check-series"
	git -C "$T" config user.email "check-series@localhost"
	# -f: Debian's .gitignore ignores everything at the top level.
	git -C "$T" add -A -f
	git -C "$T" commit -q -m "Linux $(make -s -C "$T" kernelversion) ($(cat "$PRISTINE/.debian-version" 2>/dev/null || echo KSRC))"
	git -C "$T" tag base
fi
git -C "$T" am --abort >/dev/null 2>&1 || true
git -C "$T" checkout -q -f -B master base
git -C "$T" clean -q -fdx

# The configurations: the test suites' fragment, with the option on and off.
frag() {
	cat "$TOP/configs/base.config" "$TOP/configs/x86_64.config" "$TOP/configs/kunit.config"
	[ "$1" = n ] && echo "CONFIG_SCHED_RUST_CFS=n"
	true
}
configure() {	# configure <y|n> <build dir>
	frag "$1" > "$2/.config.want"
	WORK=$T kmake -s O="$2" tinyconfig > /dev/null
	(cd "$T" && ./scripts/kconfig/merge_config.sh -m -O "$2" "$2/.config" "$2/.config.want" > /dev/null 2>&1)
	WORK=$T kmake -s O="$2" olddefconfig > /dev/null
}
# What the project adds or edits: a warning there fails the step.
ours='(^|[ /])(kernel/sched/(rust|tests)/|rust/kernel/sched|rust/helpers/sched\.c|kernel/sched/fair\.c|kernel/sched/sched\.h|mm/percpu\.c)'

fail=0
report=()
for p in "$OUT"/[0-9][0-9][0-9][0-9]-*.patch; do
	n=$(basename "$p" | cut -c1-4)
	[ "$n" = 0000 ] && continue
	# The subject, with a folded header line joined.
	subject=$(awk '/^Subject: / { s = $0; getline; while ($0 ~ /^[ \t]/) { s = s $0; getline } print s; exit }' "$p" |
		sed 's/^Subject: \[PATCH[^]]*\] //; s/[ \t]\+/ /g')
	line="$n $subject:"
	t0=$(date +%s)
	if ! git -C "$T" am -q "$p" > "$S/am.log" 2>&1; then
		cat "$S/am.log" >&2
		report+=("$line does not apply")
		fail=1
		break
	fi
	# checkpatch --strict in the tree as it is after the patch.
	if cpl=$("$TOP/scripts/checkpatch-one.sh" "$T" "$p"); then
		line="$line ${cpl#*: }"
	else
		printf '%s\n' "$cpl" >&2
		line="$line $(tail -n1 <<< "$cpl" | sed 's/^[^:]*: //')"
		fail=1
	fi
	for side in y n; do
		B=$CACHE/build-series-$side
		mkdir -p "$B"
		configure "$side" "$B"
		opt=$(grep -q '^CONFIG_SCHED_RUST_CFS=y' "$B/.config" && echo on || echo off)
		if [ "$side" = y ] && [ "$opt" = off ] && [ -f "$T/kernel/sched/rust/Kconfig" ]; then
			line="$line; y: CONFIG_SCHED_RUST_CFS did not survive olddefconfig"
			fail=1
			continue
		fi
		clippy=
		[ "$side" = y ] && clippy=CLIPPY=1
		s0=$(date +%s)
		if ! WORK=$T kmake O="$B" $clippy -j"$(nproc)" vmlinux > "$B/build.log" 2>&1; then
			grep -E 'error' "$B/build.log" | head -n 20 >&2
			line="$line; $side: BUILD FAILED (log $B/build.log)"
			fail=1
			continue
		fi
		w=$(grep -E "$ours" "$B/build.log" | grep -cE 'warning:| --> ' || true)
		line="$line; $side (option $opt): built in $(( $(date +%s) - s0 ))s"
		if [ "$w" != 0 ]; then
			grep -B4 -A8 -E "$ours" "$B/build.log" | grep -A8 -E 'warning' | head -n 40 >&2
			line="$line with $w warning line(s) in the series' files"
			fail=1
		fi
	done
	if WORK=$T kmake -s O="$CACHE/build-series-y" rustfmtcheck > "$S/rustfmt.log" 2>&1; then
		line="$line; rustfmt ok"
	else
		head -n 20 "$S/rustfmt.log" >&2
		line="$line; RUSTFMT FAILED"
		fail=1
	fi
	report+=("$line ($(( $(date +%s) - t0 ))s)")
	log "$line"
done

# The series applied with git am, as a maintainer applies it, gives exactly
# the overlay's tree (scripts/overlay.sh): every file it changes is the work
# tree's, and every file the overlay writes is one it changes.
treeline="tree: not compared (a patch failed)"
if [ $fail = 0 ]; then
	overlay_tree_diff "$T" base HEAD
	if [ "$TREE_CHANGED" = 0 ] || [ -n "$TREE_DIFFER" ] || [ -n "$TREE_MISSING" ]; then
		treeline="tree: FAILED: the series applied to pristine $(make -s -C "$T" kernelversion) is not the overlay's tree ($TREE_CHANGED files changed; differ: $(echo ${TREE_DIFFER:-none}); the overlay's, not in the series: $(echo ${TREE_MISSING:-none}))"
		fail=1
	else
		treeline="tree: the series applied with git am to pristine $(make -s -C "$T" kernelversion) gives the overlay's tree: $TREE_CHANGED files, each identical; the overlay's $(wc -l < "$WORK/.rust-sched-cfs-files") files all among them"
	fi
fi

# The b4 layout: a prep branch with the cover letter commit b4 tracks.
b4=$CACHE/b4-venv/bin/b4
b4line="b4: not run (a patch failed)"
if [ $fail = 0 ]; then
	if [ ! -x "$b4" ]; then
		log "installing b4 from PyPI into $CACHE/b4-venv"
		rm -rf "$CACHE/b4-venv"
		python3 -m venv "$CACHE/b4-venv" > "$S/b4.log" 2>&1 &&
			"$CACHE/b4-venv/bin/pip" install -q b4 >> "$S/b4.log" 2>&1 || rm -rf "$CACHE/b4-venv"
	fi
	if [ ! -x "$b4" ]; then
		b4line="b4: not available (pip install b4 failed, $S/b4.log); the series follows git format-patch --cover-letter conventions"
	else
		rm -rf "$S/b4"
		{ sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$OUT"/0000-*.patch | head -n1
		  echo
		  cat "$TOP/patches/cover-letter.txt"; } > "$S/b4-cover.txt"
		printf '#!/bin/sh\ncp "%s" "$1"\n' "$S/b4-cover.txt" > "$S/b4-editor"
		chmod +x "$S/b4-editor"
		if git -C "$T" checkout -q -B b4/rust-sched-cfs master &&
		   (cd "$T" && "$b4" prep -e base && EDITOR="$S/b4-editor" "$b4" prep --edit-cover &&
		    "$b4" prep --auto-to-cc && "$b4" prep -p "$S/b4") >> "$S/b4.log" 2>&1 &&
		   (cd "$T" && "$b4" prep --check) > "$S/b4-check.log" 2>&1 &&
		   [ "$(ls "$S"/b4/*.patch | wc -l)" = $(( ${#report[@]} + 1 )) ] &&
		   grep -q "^Subject: \[PATCH 0*0/${#report[@]}\] $(head -n1 "$S/b4-cover.txt")" "$S"/b4/0000-*.patch; then
			b4line="b4 $("$b4" --version): b4 prep enrolled the series on branch b4/rust-sched-cfs, --auto-to-cc took To/Cc from get_maintainer.pl, b4 prep -p wrote the cover letter and ${#report[@]} patches to $S/b4; b4 prep --check: $(grep -cE '^ *[✓●]' "$S/b4-check.log" || true) patch lines, see $S/b4-check.log"
		else
			tail -n 20 "$S/b4.log" >&2
			b4line="b4: FAILED ($S/b4.log)"
			fail=1
		fi
	fi
fi

echo
echo "==== rust-sched-cfs series check (${#report[@]} patches on Linux $(make -s -C "$T" kernelversion), CONFIG_SCHED_RUST_CFS=y with CLIPPY=1 and =n) ===="
printf '%s\n' "${report[@]}" "$treeline" "$b4line"
if [ $fail != 0 ]; then
	echo "result: FAIL"
	exit 1
fi
echo "result: PASS (series in $OUT)"
