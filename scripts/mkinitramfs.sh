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
# The archive's "." is the guest's /: mktemp made it 0700, which no user but
# root may search (test_core's test_cgcore_lesser_euid_open opens a cgroup
# file as an unprivileged user, and failed on it). / is 0755, /tmp 1777.
chmod 0755 "$d"
chmod 1777 "$d/tmp"
cp "$busybox" "$d/bin/busybox"
ln -s busybox "$d/bin/sh"
cp "$TOP/tests/boot/init" "$d/init"
# The kernel's cgroup and cpu-hotplug selftests, from the same tree, built
# and laid out by the selftests' own install target (INSTALL_PATH=/kselftest:
# the runner, its helpers, one directory per collection,
# kselftest-list.txt), linked statically for the guest's architecture, and run
# in the guest by its run_kselftest.sh. The build goes to a directory of its
# own (O=): the source tree is not written.
sel=$PRISTINE/tools/testing/selftests
ks=$d/kselftest
kscc=("CC=$GCC -static")
[ "$KARCH" = arm64 ] && kscc+=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
if ! make -s -C "$sel" TARGETS="cgroup cpu-hotplug" O="$d/ksbuild" INSTALL_PATH="$ks" \
	"${kscc[@]}" install > "$d/ks.log" 2>&1; then
	tail -n 20 "$d/ks.log" >&2
	die "the selftests' install target failed for cgroup and cpu-hotplug"
fi
rm -rf "$d/ksbuild" "$d/ks.log"
# The tests the guest runs (kselftest-list.txt, below) and, of the cgroup
# collection, only those and the helpers they run.
tests="cgroup:test_cpu cgroup:test_core cgroup:test_stress.sh cgroup:test_cpuset_prs.sh
	cpu-hotplug:cpu-on-off-test.sh"
keep="with_stress.sh wait_inotify $(for t in $tests; do
	case $t in cgroup:*) printf "%s " "${t#cgroup:}" ;; esac
done)"
for f in "$ks"/cgroup/*; do
	case " $keep " in *" ${f##*/} "*) ;; *) rm -rf "$f" ;; esac
done
for f in $keep; do
	[ -e "$ks/cgroup/$f" ] || die "the selftests' install target did not install cgroup/$f"
done
file -L "$ks/cgroup/test_cpu" | grep -q 'statically linked' ||
	die "cgroup/test_cpu is not statically linked"
# test_cpu's cases repeated (make bench-verdicts): test_cpu.c compiled in
# unchanged, with a main of its own (tests/boot/test_cpu_repeat.c).
$GCC -O2 -static -Wall -Werror -pthread -D_GNU_SOURCE= -I"$sel" -I"$sel/cgroup" \
	-I"$sel/cgroup/lib/include" -o "$ks/cgroup/test_cpu_repeat" \
	"$TOP/tests/boot/test_cpu_repeat.c" "$sel/cgroup/lib/cgroup_util.c" ||
	die "cannot build tests/boot/test_cpu_repeat.c against the kernel's test_cpu.c"
# Fixes to the selftests themselves, in the form they would be sent
# upstream (tests/boot/selftests/*.patch, each saying why).
for p in "$TOP"/tests/boot/selftests/*.patch; do
	patch -d "$ks" -p4 --forward --no-backup-if-mismatch -s -r - < "$p" ||
		die "cannot apply $p to the kernel's selftests"
done
# This project's selftests (tests/selftests/sched_rust/, placed in the work
# tree by the overlay as tools/testing/selftests/sched_rust/), built and
# installed the same way; the guest runs them with run_kselftest.sh -c
# sched_rust.
if ! make -s -C "$WORK/tools/testing/selftests" TARGETS=sched_rust O="$d/ksbuild" \
	INSTALL_PATH="$d/ks-sched-rust" "${kscc[@]}" install > "$d/ks.log" 2>&1; then
	tail -n 20 "$d/ks.log" >&2
	die "the selftests' install target failed for sched_rust (is the overlay applied?)"
fi
mv "$d/ks-sched-rust/sched_rust" "$ks/sched_rust"
# Its tests as its own install listed them.
srk=$(grep '^sched_rust:' "$d/ks-sched-rust/kselftest-list.txt")
rm -rf "$d/ksbuild" "$d/ks.log" "$d/ks-sched-rust"
[ -n "$srk" ] || die "the selftests' install target listed no sched_rust test"
for f in ${srk//sched_rust:/} llc_threads schedbench lib.sh settings; do
	[ -e "$ks/sched_rust/$f" ] || die "the selftests' install target did not install sched_rust/$f"
done
file -L "$ks/sched_rust/schedbench" | grep -q 'statically linked' ||
	die "sched_rust/schedbench is not statically linked (glibc static libraries: libc6-dev)"
# schedbench in PATH too, for the evaluation's modes.
ln -s /kselftest/sched_rust/schedbench "$d/bin/schedbench"
tests="$tests $srk"
# shellcheck disable=SC2086 # $tests is a list of words
printf '%s\n' $tests > "$ks/kselftest-list.txt"

# The evaluation's modes, sourced by /init.
cp "$TOP/evaluation/bench/guest.sh" "$d/bench.sh"
# The tests' tools (stress.sh and workloads.sh run them): the field's own,
# from Debian's packages (scripts/setup.sh installs them), each with the
# shared libraries it links.
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
mkdir -p "$d/usr/bin"
ln -s /bin/busybox "$d/usr/bin/true"
# The kselftest runner enforces a test's time limit only with coreutils'
# /usr/bin/timeout (it passes --foreground, which BusyBox's lacks).
add_bin /usr/bin/timeout timeout
ln -s /bin/timeout "$d/usr/bin/timeout"
chmod 755 "$d/init"
(cd "$d" && find . | sort | cpio --quiet -o -H newc -R 0:0) | gzip -9 > "$out.tmp"
mv "$out.tmp" "$out"
