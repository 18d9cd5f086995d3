#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# What make test-arm64 needs beyond scripts/setup.sh: QEMU's arm64 system
# emulator, the arm64 cross C compiler and static C library (for the guest
# programs built from source: tests/selftests/sched_rust/schedbench.c and the cgroup
# selftests), dtc (the device tree with the two L2 caches), and the arm64
# builds of the guest tools the x86_64 initramfs takes from the host
# (busybox-static, bash-static, rt-tests, stress-ng, util-linux, coreutils).
# Those come from Debian's arm64 archive through a private apt
# configuration in the cache (the host's apt is not touched), with their
# dependencies, unpacked into $CACHE/arm64-root. Every step is skipped when
# already satisfied.

. "$(dirname "$0")/common.sh"

EXTRA_DEB_PKGS="qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross device-tree-compiler" \
	"$TOP/scripts/setup.sh"

GUEST_PKGS="busybox-static bash-static rt-tests stress-ng util-linux coreutils"
A=$CACHE/arm64-apt
ROOT=$CACHE/arm64-root
[ "$(cat "$ROOT/.pkgs" 2>/dev/null)" = "$GUEST_PKGS" ] && exit 0

log "arm64 guest packages: $GUEST_PKGS"
mkdir -p "$A/etc/apt/apt.conf.d" "$A/etc/apt/preferences.d" "$A/var/lib/apt/lists/partial" \
	"$A/var/cache/apt/archives/partial" "$A/var/lib/dpkg"
# An empty status file: apt resolves the packages' whole dependency closure
# for an empty arm64 system (the host's packages are amd64).
: > "$A/var/lib/dpkg/status"
key=/usr/share/keyrings/debian-archive-keyring.gpg
cat > "$A/etc/apt/sources.list" <<EOF
deb [arch=arm64 signed-by=$key] http://deb.debian.org/debian bookworm main
deb [arch=arm64 signed-by=$key] http://deb.debian.org/debian bookworm-updates main
deb [arch=arm64 signed-by=$key] http://deb.debian.org/debian-security bookworm-security main
EOF
apt_opts=(-o Dir="$A" -o Dir::State::status="$A/var/lib/dpkg/status"
	-o APT::Architecture=arm64 -o APT::Architectures=arm64
	-o Debug::NoLocking=1 -o APT::Sandbox::User=root)
apt-get "${apt_opts[@]}" update -qq || die "apt-get update of the arm64 archive failed"
apt-get "${apt_opts[@]}" install --download-only -y -qq $GUEST_PKGS >/dev/null ||
	die "apt-get could not download the arm64 packages: $GUEST_PKGS"
rm -rf "$ROOT.tmp"
mkdir -p "$ROOT.tmp"
for deb in "$A"/var/cache/apt/archives/*.deb; do
	dpkg-deb -x "$deb" "$ROOT.tmp"
done
echo "$GUEST_PKGS" > "$ROOT.tmp/.pkgs"
rm -rf "$ROOT"
mv "$ROOT.tmp" "$ROOT"
log "arm64 guest packages unpacked in $ROOT ($(ls "$A"/var/cache/apt/archives/*.deb | wc -l) packages)"
