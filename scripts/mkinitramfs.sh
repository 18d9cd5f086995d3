#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the boot-test initramfs: busybox-static and tests/boot/init.
# Usage: mkinitramfs.sh <output.cpio.gz>

. "$(dirname "$0")/common.sh"

out=${1:?usage: mkinitramfs.sh <output.cpio.gz>}
busybox=$(command -v busybox || true)
[ -n "$busybox" ] && file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	busybox=/bin/busybox
[ -x "$busybox" ] || die "busybox-static is not installed"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d"/{bin,dev,proc,sys,tmp}
cp "$busybox" "$d/bin/busybox"
ln -s busybox "$d/bin/sh"
cp "$TOP/tests/boot/init" "$d/init"
gcc -O2 -static -Wall -Werror -pthread -o "$d/bin/schedbench" "$TOP/tests/boot/schedbench.c" ||
	die "cannot build tests/boot/schedbench.c statically (glibc static libraries: libc6-dev)"
# The kernel's own cgroup cpu-controller selftest, from the same tree.
sel=$PRISTINE/tools/testing/selftests
if ! gcc -O2 -static -pthread -I"$sel" -I"$sel/cgroup/lib/include" -o "$d/bin/test_cpu" \
	"$sel/cgroup/test_cpu.c" "$sel/cgroup/lib/cgroup_util.c" 2>"$d/test_cpu.err"; then
	cat "$d/test_cpu.err" >&2
	die "cannot build tools/testing/selftests/cgroup/test_cpu statically"
fi
rm -f "$d/test_cpu.err"

# The stress phase (tests/boot/stress.sh): the field's own tools from
# Debian's packages (scripts/setup.sh installs them), each with the shared
# libraries it links, and the kernel's selftests from the same tree.
cp "$TOP/tests/boot/stress.sh" "$d/stress.sh"
add_bin() {	# add_bin <path on the host> <name in /bin>
	local lib
	[ -x "$1" ] || die "$1 is missing: run scripts/setup.sh"
	cp -L "$1" "$d/bin/$2"
	for lib in $(ldd "$1" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$d$(dirname "$lib")"
		[ -f "$d$lib" ] || cp -L "$lib" "$d$lib"
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
[ -z "${INITRAMFS_PERF:-}" ] || add_bin "$INITRAMFS_PERF" perf
mkdir -p "$d/usr/bin" "$d/selftests"
ln -s /bin/busybox "$d/usr/bin/true"
cp "$sel/cpu-hotplug/cpu-on-off-test.sh" "$sel/cgroup/test_stress.sh" \
	"$sel/cgroup/with_stress.sh" "$sel/cgroup/test_cpuset_prs.sh" "$d/selftests/"
for t in test_core wait_inotify; do
	gcc -O2 -static -pthread -I"$sel" -I"$sel/cgroup/lib/include" -o "$d/selftests/$t" \
		"$sel/cgroup/$t.c" "$sel/cgroup/lib/cgroup_util.c" ||
		die "cannot build tools/testing/selftests/cgroup/$t statically"
done
chmod 755 "$d/init"
(cd "$d" && find . | sort | cpio --quiet -o -H newc -R 0:0) | gzip -9 > "$out.tmp"
mv "$out.tmp" "$out"
