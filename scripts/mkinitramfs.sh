#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the boot-test initramfs: busybox-static and tests/boot/init.
# Usage: mkinitramfs.sh <output.cpio.gz>
# With ARCH=arm64, the guest's programs are arm64 ones: built with the
# cross compiler, or taken from the arm64 packages scripts/setup-arm64.sh
# unpacked in $CACHE/arm64-root.

. "$(dirname "$0")/common.sh"

out=${1:?usage: mkinitramfs.sh <output.cpio.gz>}
if [ "$KARCH" = arm64 ]; then
	SYSROOT=$CACHE/arm64-root
	GCC=aarch64-linux-gnu-gcc
	busybox=$SYSROOT/bin/busybox
	[ -x "$busybox" ] || die "no arm64 busybox in $SYSROOT: run scripts/setup-arm64.sh"
else
	SYSROOT=
	GCC=gcc
	busybox=$(command -v busybox || true)
	[ -n "$busybox" ] && file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
		busybox=/bin/busybox
	[ -x "$busybox" ] || die "busybox-static is not installed"
fi

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d"/{bin,dev,proc,sys,tmp}
cp "$busybox" "$d/bin/busybox"
ln -s busybox "$d/bin/sh"
cp "$TOP/tests/boot/init" "$d/init"
$GCC -O2 -static -Wall -Werror -pthread -o "$d/bin/schedbench" "$TOP/tests/boot/schedbench.c" ||
	die "cannot build tests/boot/schedbench.c statically (glibc static libraries: libc6-dev)"
# The kernel's own cgroup cpu-controller selftest, from the same tree.
sel=$PRISTINE/tools/testing/selftests
if ! $GCC -O2 -static -pthread -I"$sel" -I"$sel/cgroup/lib/include" -o "$d/bin/test_cpu" \
	"$sel/cgroup/test_cpu.c" "$sel/cgroup/lib/cgroup_util.c" 2>"$d/test_cpu.err"; then
	cat "$d/test_cpu.err" >&2
	die "cannot build tools/testing/selftests/cgroup/test_cpu statically"
fi
rm -f "$d/test_cpu.err"

# The stress phase (tests/boot/stress.sh): the field's own tools from
# Debian's packages (scripts/setup.sh installs them), each with the shared
# libraries it links, and the kernel's selftests from the same tree.
cp "$TOP/tests/boot/stress.sh" "$d/stress.sh"
add_bin() {	# add_bin <path on the host or in $SYSROOT> <name in /bin>
	local lib
	[ -x "$SYSROOT$1" ] || die "$SYSROOT$1 is missing: run scripts/setup.sh"
	cp -L "$SYSROOT$1" "$d/bin/$2"
	if [ -z "$SYSROOT" ]; then
		for lib in $(ldd "$1" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
			mkdir -p "$d$(dirname "$lib")"
			[ -f "$d$lib" ] || cp -L "$lib" "$d$lib"
		done
		return
	fi
	# A foreign binary: its interpreter and, transitively, the libraries
	# of its DT_NEEDED entries, found in the sysroot's library directories.
	local todo=("$SYSROOT$1") f n p
	lib=$(readelf -l "$SYSROOT$1" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	if [ -n "$lib" ]; then
		mkdir -p "$d$(dirname "$lib")"
		cp -L "$SYSROOT$lib" "$d$lib"
	fi
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		for n in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			for p in /lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu; do
				[ -e "$SYSROOT$p/$n" ] && break
			done
			[ -e "$SYSROOT$p/$n" ] || die "$1 needs $n, not in $SYSROOT"
			[ -f "$d$p/$n" ] && continue
			mkdir -p "$d$p"
			cp -L "$SYSROOT$p/$n" "$d$p/$n"
			todo+=("$d$p/$n")
		done
	done
}
add_bin /bin/bash-static bash
add_bin /usr/bin/hackbench hackbench
add_bin /usr/bin/cyclictest cyclictest
add_bin /usr/bin/stress-ng stress-ng
add_bin /usr/bin/chrt chrt
add_bin /usr/bin/lscpu lscpu
add_bin /usr/bin/fmt fmt
# perf, built statically from the kernel tree by make bench (scripts/bench.sh).
[ -z "${INITRAMFS_PERF:-}" ] || SYSROOT= add_bin "$INITRAMFS_PERF" perf
mkdir -p "$d/usr/bin" "$d/selftests"
ln -s /bin/busybox "$d/usr/bin/true"
cp "$sel/cpu-hotplug/cpu-on-off-test.sh" "$sel/cgroup/test_stress.sh" \
	"$sel/cgroup/with_stress.sh" "$sel/cgroup/test_cpuset_prs.sh" "$d/selftests/"
for t in test_core wait_inotify; do
	$GCC -O2 -static -pthread -I"$sel" -I"$sel/cgroup/lib/include" -o "$d/selftests/$t" \
		"$sel/cgroup/$t.c" "$sel/cgroup/lib/cgroup_util.c" ||
		die "cannot build tools/testing/selftests/cgroup/$t statically"
done
chmod 755 "$d/init"
(cd "$d" && find . | sort | cpio --quiet -o -H newc -R 0:0) | gzip -9 > "$out.tmp"
mv "$out.tmp" "$out"
