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
# shape and the sha256 of each .config, the host (CPU model, cores, load
# before and after) and the toolchain; "measures:" lists the repository's
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
		echo "host-cores: $(nproc) online"
		echo "host-load-before: $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "toolchain: $(clang$LLVM_SUFFIX --version 2>/dev/null | head -n1); $(rustc --version 2>/dev/null)"
	} > "$out"
}

provenance_end() {
	{
		echo "host-load-after: $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "end: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	} >> "$1"
}

# provenance_copy <from> <to>: a result directory's provenance, refused
# when the run did not record one.
provenance_copy() {
	grep -q '^commit: [0-9a-f]\{40\}$' "$1" 2>/dev/null ||
		fail "$1: the run recorded no commit: results without their provenance are refused"
	cp "$1" "$2"
}
