#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch Debian's linux-source-7.3 (trixie-backports) into the cache and unpack
# the pristine tree. A private apt configuration is used so that the machine's
# own package sources are left untouched. KSRC=/path/to/linux-7.3.x skips all
# of this and uses that tree instead (it is never modified).

. "$(dirname "$0")/common.sh"

check_tree() {
	local t=$1 v p
	[ -f "$t/Makefile" ] && [ -f "$t/kernel/sched/fair.c" ] ||
		die "$t is not a kernel source tree"
	v=$(sed -n 's/^VERSION = //p' "$t/Makefile")
	p=$(sed -n 's/^PATCHLEVEL = //p' "$t/Makefile")
	[ "$v.$p" = "$KSERIES" ] ||
		die "$t is Linux $v.$p; this project needs a $KSERIES.x tree"
}

if [ -n "${KSRC:-}" ]; then
	check_tree "$KSRC"
	mkdir -p "$CACHE/src"
	ln -sfn "$(cd "$KSRC" && pwd)" "$PRISTINE"
	log "using KSRC=$KSRC"
	exit 0
fi

if [ -f "$PRISTINE/.unpacked" ]; then
	check_tree "$PRISTINE"
	exit 0
fi

APT=$CACHE/apt
mkdir -p "$APT/lists/partial" "$APT/archives/partial" "$APT/debs"
cat > "$APT/sources.list" <<EOS
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie-backports main
EOS
aptopt=(-o Dir::Etc::SourceList="$APT/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o Dir::State::Lists="$APT/lists" -o Dir::Cache::Archives="$APT/archives"
	-o Dir::Cache::pkgcache="$APT/pkgcache.bin" -o Dir::Cache::srcpkgcache="$APT/srcpkgcache.bin"
	-o APT::Get::List-Cleanup=0 -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
log "apt-get update (private list: trixie-backports only)"
apt-get "${aptopt[@]}" update -qq
pkgver=$(apt-cache "${aptopt[@]}" show linux-source-$KSERIES 2>/dev/null |
	sed -n 's/^Version: //p' | head -n1)
[ -n "$pkgver" ] ||
	die "linux-source-$KSERIES is not in trixie-backports any more; point KSRC= at a Linux $KSERIES.x tree"
log "apt-get download linux-source-$KSERIES=$pkgver"
(cd "$APT/debs" && rm -f ./*.deb && apt-get "${aptopt[@]}" download "linux-source-$KSERIES=$pkgver" -qq)
deb=$(ls "$APT/debs/linux-source-${KSERIES}"_*.deb)
rm -rf "$APT/x" "$PRISTINE" "$PRISTINE.tmp"
mkdir -p "$APT/x"
dpkg-deb -x "$deb" "$APT/x"
tarball=$(ls "$APT/x/usr/src/linux-source-${KSERIES}"*.tar.xz)
log "unpacking $(basename "$tarball")"
mkdir -p "$PRISTINE.tmp"
tar -C "$PRISTINE.tmp" --strip-components=1 -xf "$tarball"
rm -rf "$APT/x" "$APT/debs"
check_tree "$PRISTINE.tmp"
echo "$pkgver" > "$PRISTINE.tmp/.debian-version"
touch "$PRISTINE.tmp/.unpacked"
mv "$PRISTINE.tmp" "$PRISTINE"
