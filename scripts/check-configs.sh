#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The production configuration with the scheduler options the Rust depends
# on turned off, one at a time: each must still build kernel/sched/rust/ and
# kernel/sched/fair.o with CONFIG_SCHED_RUST_CFS=y (what a randconfig build
# would try). Each combination has its own build directory,
# $CACHE/build-configs-<name>; CONFIGS="name ..." runs only those.
#
# Output: a line per combination (PASS or FAIL), then the verdict.

. "$(dirname "$0")/common.sh"

# name|config lines (space separated)
COMBOS=(
	"no-bandwidth|# CONFIG_CFS_BANDWIDTH is not set"
	"no-group-sched|# CONFIG_CGROUP_SCHED is not set # CONFIG_SCHED_AUTOGROUP is not set"
	"no-sched-cache|# CONFIG_SCHED_CACHE is not set"
	"no-schedstats|# CONFIG_SCHEDSTATS is not set"
)

"$TOP/scripts/fetch-kernel.sh"
"$TOP/scripts/overlay.sh"
"$TOP/scripts/setup.sh"

distro=distro
[ "$KARCH" = x86_64 ] || distro=distro-$KARCH
problems=()
ran=0
for combo in "${COMBOS[@]}"; do
	name=${combo%%|*}
	lines=${combo#*|}
	if [ -n "${CONFIGS:-}" ] && ! grep -qw -- "$name" <<< "$CONFIGS"; then
		continue
	fi
	ran=$((ran + 1))
	B=$CACHE/build-configs-$name
	mkdir -p "$B"
	want=$B/.config.want
	# Configured as scripts/build.sh configures the prod flavour (base,
	# the architecture's, the distribution's fragments), in a directory of
	# its own.
	cat "$TOP/configs/base.config" "$TOP/configs/$KARCH.config" "$TOP/configs/$distro.config" > "$want"
	# "# CONFIG_X is not set" lines: the fragment's form of =n.
	sed 's/ \(# CONFIG_\)/\n\1/g' <<< "$lines" >> "$want"
	kmake O="$B" tinyconfig > /dev/null
	(cd "$WORK" && ./scripts/kconfig/merge_config.sh -m -O "$B" "$B/.config" "$want" > /dev/null 2>&1)
	# The fragment turning off what base.config sets is intended:
	# merge_config's note about it is left out.
	kmake O="$B" olddefconfig > /dev/null 2> >(grep -v 'override: reassigning to symbol' >&2)
	bad=
	grep -qx 'CONFIG_SCHED_RUST_CFS=y' "$B/.config" || bad="CONFIG_SCHED_RUST_CFS did not survive olddefconfig"
	while read -r off; do
		if [ -n "$off" ] && ! grep -qx "$off" "$B/.config"; then
			bad="$bad${bad:+; }${off#\# } is still set"
		fi
	done < <(sed 's/ \(# CONFIG_\)/\n\1/g' <<< "$lines")
	if [ -n "$bad" ]; then
		echo "FAIL  $name: $bad (after olddefconfig)"
		problems+=("$name: $bad")
		continue
	fi
	log "$name: building kernel/sched/rust/ and kernel/sched/fair.o ($lines)"
	rc=0
	kmake O="$B" -j"$(nproc)" kernel/sched/rust/ kernel/sched/fair.o > "$B/build.log" 2>&1 || rc=$?
	# A build that exits 0 must have produced both objects.
	if [ $rc = 0 ]; then
		for o in kernel/sched/rust/sched_rust.o kernel/sched/fair.o; do
			[ -s "$B/$o" ] || { rc=3; echo "no $o in $B" >> "$B/build.log"; }
		done
	fi
	if [ $rc = 0 ]; then
		echo "PASS  $name"
	else
		grep -m3 -E '^(error|.*error:)' "$B/build.log" >&2 || tail -n 5 "$B/build.log" >&2
		echo "FAIL  $name: the build failed (log: $B/build.log)"
		problems+=("$name does not build")
	fi
done
[ $ran -gt 0 ] || die "CONFIGS=${CONFIGS:-} names no combination (${COMBOS[*]%%|*})"
[ ${#problems[@]} = 0 ] || fail "check-configs: ${problems[*]}"
log "check-configs: PASS ($ran combinations)"
