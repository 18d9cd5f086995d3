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
	log "warning: cannot build tools/testing/selftests/cgroup/test_cpu: $(head -n3 "$d/test_cpu.err")"
fi
rm -f "$d/test_cpu.err"
chmod 755 "$d/init"
(cd "$d" && find . | sort | cpio --quiet -o -H newc -R 0:0) | gzip -9 > "$out.tmp"
mv "$out.tmp" "$out"
