#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the toolchain: Debian packages, the pinned Rust toolchain with
# rust-src, and bindgen-cli. Every step is skipped when already satisfied.

. "$(dirname "$0")/common.sh"

DEB_PKGS="clang$LLVM_SUFFIX lld$LLVM_SUFFIX llvm$LLVM_SUFFIX libclang$LLVM_SUFFIX-dev
	qemu-system-x86 flex bison bc libelf-dev libssl-dev cpio busybox-static
	ccache dwarves python3 xz-utils gzip make gcc libglib2.0-dev pkg-config
	rsync patch bash-static rt-tests stress-ng util-linux coreutils python3-docutils
	python3-scipy
	${EXTRA_DEB_PKGS:-}"

missing=
for p in $DEB_PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	log "apt-get install:$missing"
	SUDO=
	[ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	# A first install on a new machine has been seen to fail in a postinst
	# and succeed on a second attempt; retry once after dpkg --configure.
	for try in 1 2; do
		DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
			--no-install-recommends $missing >/dev/null && break
		[ $try = 2 ] && die "apt-get install failed:$missing"
		DEBIAN_FRONTEND=noninteractive $SUDO dpkg --configure -a || true
	done
fi

command -v rustup >/dev/null ||
	die "rustup not found: install it (https://rustup.rs) and re-run"
if ! rustup run "$RUST_TOOLCHAIN" rustc --version >/dev/null 2>&1; then
	log "rustup toolchain install $RUST_TOOLCHAIN"
	rustup toolchain install "$RUST_TOOLCHAIN" --profile minimal \
		--component rust-src,rustfmt,clippy
fi
for c in rust-src rustfmt clippy; do
	rustup component list --toolchain "$RUST_TOOLCHAIN" --installed | grep -q "^$c" ||
		rustup component add --toolchain "$RUST_TOOLCHAIN" "$c"
done

if ! bindgen --version 2>/dev/null | grep -q " $BINDGEN_VERSION\$"; then
	log "cargo install bindgen-cli $BINDGEN_VERSION"
	cargo install --quiet bindgen-cli --version "$BINDGEN_VERSION" --locked
fi
