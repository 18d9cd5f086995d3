# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What a result measured, written by the benchmark that measures it:
# sourced by scripts/common.sh's users, not executed.
#
#   provenance_begin <file> <command> <shape> <measured paths> [<.config>...]
#   provenance_end <file>
#
# <file> gets "key: value" lines: the commit of the repository and whether
# its tree differed from it (dirty: the files), the command, the kernel
# shape and the sha256 of each .config, the host (CPU model, family, model,
# stepping and microcode, cores, load before, during and after) and the
# toolchain; "measures:" lists the repository's
# paths whose content the figures depend on: scripts/check-claims.py
# refuses a result whose commit's copy of them differs from HEAD's, or
# that has no commit, or a tree dirty in one of them.

provenance_begin() {
	local out=$1 cmd=$2 shape=$3 measures=$4 dirty cfg
	shift 4
	dirty=$(git -C "$TOP" status --porcelain --untracked-files=normal 2>/dev/null | awk '{ print $2 }' | tr '\n' ' ')
	{
		echo "recorded: yes (written by the run)"
		echo "commit: $(git -C "$TOP" rev-parse HEAD 2>/dev/null || echo none)"
		if [ -n "$dirty" ]; then
			echo "dirty: yes: ${dirty% }"
		else
			echo "dirty: no"
		fi
		echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
		echo "command: $cmd"
		echo "shape: $shape"
		for cfg in "$@"; do
			[ -f "$cfg" ] || continue
			echo "config: $(sha256sum "$cfg" | cut -c1-16) $(grep -c '=y$' "$cfg") options =y ($cfg)"
		done
		echo "measures: $measures"
		echo "host-cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1) ($(uname -srm))"
		echo "host-cpu-id: $(awk -F': ' '/^cpu family/ { f = $2 } /^model\t/ { m = $2 }
			/^stepping/ { s = $2 } /^microcode/ { u = $2 } /^$/ { exit }
			END { printf "family %s model %s stepping %s microcode %s", f, m, s, u }' /proc/cpuinfo)"
		echo "host-cores: $(nproc) online"
		echo "host-load-before: $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "toolchain: $(clang$LLVM_SUFFIX --version 2>/dev/null | head -n1); $(rustc --version 2>/dev/null)"
	} > "$out"
	# The load during the run: the 1-minute average every 30 s, until
	# provenance_end (or the run's shell) ends.
	(
		while kill -0 $$ 2>/dev/null; do
			cut -d' ' -f1 /proc/loadavg
			sleep 30
		done
	) > "$out.load" 2>/dev/null &
	PROVENANCE_SAMPLER=$!
}

provenance_end() {
	[ -n "${PROVENANCE_SAMPLER:-}" ] && kill "$PROVENANCE_SAMPLER" 2>/dev/null
	{
		[ -s "$1.load" ] && sort -n "$1.load" |
			awk '{ v[NR] = $1 } END { printf "host-load-during: %s samples every 30 s, 1-minute load min %s median %s max %s\n", NR, v[1], v[int((NR + 1) / 2)], v[NR] }'
		rm -f "$1.load"
		echo "host-load-after: $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "end: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	} >> "$1"
}

# provenance_built <file> <build directory>...: "built-from:" the kernel
# paths patches/series places that the builds were compiled from, by
# Kbuild's dependency lists (each object's .cmd file; the Kconfig files in
# include/config/auto.conf.cmd) and a placed Makefile where the folder it
# governs was built: scripts/check-claims.py then counts a
# placed file as measured only when one of the run's kernels read it (the
# debug kernel's files are not the production kernel's). Every other
# measured path stays measured.
provenance_built() {
	local out=$1 b m pats found
	shift
	pats=$(mktemp)
	# shellcheck disable=SC2064 # the file's name now
	trap "rm -f '$pats'; trap - RETURN" RETURN
	awk '/^[ \t]/ { n = split($1, a, ":"); print a[n] }' "$TOP/patches/series" | sort -u > "$pats"
	for b in "$@"; do
		[ -f "$b/include/config/auto.conf.cmd" ] ||
			die "$b: no include/config/auto.conf.cmd: not a configured build, its sources are unknown"
	done
	# One grep over all the lists: a build with no placed file (stock) is
	# no error, an empty union is (below).
	found=$(find "$@" \( -name '.*.cmd' -o -name auto.conf.cmd \) -print0 | xargs -0 cat |
		{ grep -ohF -f "$pats" || true; }) ||
		die "$*: cannot read the builds' dependency lists"
	# A placed Makefile: read by the build of any folder it governs.
	while read -r m; do
		for b in "$@"; do
			if compgen -G "$b/$(dirname "$m")/.*.cmd" > /dev/null; then
				found+=$'\n'$m
				break
			fi
		done
	done < <(grep -E '(^|/)(Makefile|Kbuild)$' "$pats")
	found=$(sort -u <<< "$found" | grep . | tr '\n' ' ' || true)
	[ -n "$found" ] || die "$*: no file of patches/series in the builds' dependency lists"
	echo "built-from: ${found% }" >> "$out"
}

# provenance_copy <from> <to>: a result directory's provenance, refused
# when the run did not record one.
provenance_copy() {
	grep -q '^commit: [0-9a-f]\{40\}$' "$1" 2>/dev/null ||
		fail "$1: the run recorded no commit: results without their provenance are refused"
	cp "$1" "$2"
}
