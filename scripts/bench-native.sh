#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-native: make bench's in-kernel microbenchmarks timed on the host
# CPU. A User-Mode Linux kernel (configs/native.config: x86_64 host, the
# debug and bench options, a static binary) boots with a host directory as
# its root file system (busybox and evaluation/bench/native/init) and runs the
# benchmarks NATIVE_REPS times (100), printing every batch's time.
#
# Time depends on where the code lies as much as on the code: the build,
# not the rep, is the unit of replication. The kernel is built
# NATIVE_BUILDS times (5), each with a padding of a different size
# (NATIVE_PADS: 0 16 32 48 2064 bytes) at the start of fair.o's code, which
# moves every function of fair.o (C's pick, the Rust inlined into it and
# the benchmarks' loops, which fair.c includes) by that many bytes; only
# fair.o is compiled again, and a build whose pick_task_fair() did not move
# stops the run. Each build's kernel runs the same reps;
# evaluation/bench/native/run.sh boots it pinned to one host CPU, and
# scripts/bench-native-report.py gives the ratios over the builds with their
# 95 % intervals, beside make bench's instruction ratios.
#   scripts/bench-native.sh           build, run, report
#   scripts/bench-native.sh bundle    also write $CACHE/bench-native.tar.gz:
#                                     the first build's kernel, the root and
#                                     the runner
#   scripts/bench-native.sh readme    the last run's results and report into
#                                     evaluation/bench/results-native/
# Output: $CACHE/bench-native/ (the bundle's tree, results-<build>.txt,
# provenance.txt, figures.tsv).
# Exit: 0, 1 the guest failed a step, 2 the harness or the environment.

. "$(dirname "$0")/common.sh"

[ "$(uname -m)" = x86_64 ] || die "bench-native needs an x86_64 host (UML runs on the host's architecture)"
stage -e setup "$TOP/scripts/setup.sh"
stage -e fetch "$TOP/scripts/fetch-kernel.sh"
stage overlay "$TOP/scripts/overlay.sh"

B=$CACHE/build-native
D=$CACHE/bench-native
# The UML kernel's tree: the work tree hard-linked (the same files, no
# copy), but for lib/Kconfig.debug, whose RUST_INLINE_HELPERS excludes UML.
# Without it every C helper the Rust calls (each atomic access among them)
# is an out-of-line call on UML where C inlines its own, and
# CONFIG_SCHED_RUST_CFS_INLINE, which depends on it, is off: the comparison
# would not be x86_64's. With it the UML kernel has x86_64's cross-language
# inlining. And arch/x86/um/Kconfig, whose X86_64 does not select
# ARCH_SUPPORTS_INT128 as arch/x86/Kconfig does (under the same condition):
# without it both sides' eligibility tests take their check_mul_overflow()
# path, a conditional branch or select per test that x86_64's 128-bit
# product does not have, and the times would not be x86_64's code's.
NW=$CACHE/src/native-work
native_tree() {
	rm -rf "$NW"
	cp -al "$WORK" "$NW"
	rm -f "$NW/lib/Kconfig.debug"
	awk '/^config RUST_INLINE_HELPERS$/ { on = 1 } /^config / && !/RUST_INLINE_HELPERS/ { on = 0 }
		on && /^\tdepends on !UML$/ { next } { print }' "$WORK/lib/Kconfig.debug" > "$NW/lib/Kconfig.debug"
	touch -r "$WORK/lib/Kconfig.debug" "$NW/lib/Kconfig.debug"
	! cmp -s "$WORK/lib/Kconfig.debug" "$NW/lib/Kconfig.debug" ||
		die "lib/Kconfig.debug: no 'depends on !UML' under RUST_INLINE_HELPERS to drop"
	um_int128_kconfig "$WORK" "$NW"
	# The layout variants: SCHED_RUST_LAYOUT_PAD bytes of int3 at the start of
	# fair.o's .ltext (UML's x86_64 code model is the large one: every
	# function is there), before its first function (a top-level asm of a
	# header fair.c is compiled with; the c-rust-inline rule compiles the
	# bitcode with the object's own flags), so that every function of
	# fair.o (fair.c's, the Rust inlined into it, and the benchmarks'
	# loops of the debug files it includes) moves by that many bytes. A
	# padding object linked before fair.o would not do: fair.o's section
	# alignment absorbs it.
	rm -f "$NW/kernel/sched/Makefile"
	awk '{ print } /^obj-y[[:space:]]*\+=[[:space:]]*fair\.o/ && !done {
			print "CFLAGS_fair.o += -include $(srctree)/kernel/sched/sched_rust_layout_pad.h -DSCHED_RUST_LAYOUT_PAD=$(SCHED_RUST_LAYOUT_PAD)"
			done = 1
		}' "$WORK/kernel/sched/Makefile" > "$NW/kernel/sched/Makefile"
	grep -q sched_rust_layout_pad "$NW/kernel/sched/Makefile" ||
		die "kernel/sched/Makefile: no 'obj-y += fair.o' line to add the padding's flags after"
	touch -r "$WORK/kernel/sched/Makefile" "$NW/kernel/sched/Makefile"
	cat > "$NW/kernel/sched/sched_rust_layout_pad.h" <<-'PAD'
	/* SPDX-License-Identifier: GPL-2.0 */
	/* make bench-native's layout variants: code space before fair.o's functions. */
	#include <linux/stringify.h>
	asm(".pushsection .ltext, \"axl\", @progbits\n\t.skip " __stringify(SCHED_RUST_LAYOUT_PAD) ", 0xcc\n\t.popsection");
	PAD
}
mkdir -p "$B"
cc=/usr/lib/ccache/clang$LLVM_SUFFIX
[ -x "$cc" ] || cc=clang$LLVM_SUFFIX
# UML links with the host's ld; llvm-objcopy refuses the static binary's
# .rela.plt ("Link field value ... is not a symbol table"): binutils' objcopy.
# UML's include directories are in KBUILD_CFLAGS, which the Rust helpers'
# bitcode link compiles a .bc with: clang's -Werror on unused arguments
# would refuse it (KCFLAGS comes last and turns that warning off).
umake() {
	make -C "$NW" O="$B" ARCH=um LLVM=$LLVM_SUFFIX CC="$cc" HOSTCC="$cc" OBJCOPY=objcopy \
		KCFLAGS=-Wno-unused-command-line-argument "$@"
}

build() {
	if ! cmp -s "$TOP/configs/native.config" "$B/.config.done"; then
		umake x86_64_defconfig > /dev/null
		(cd "$NW" && ARCH=um ./scripts/kconfig/merge_config.sh -m -O "$B" "$B/.config" \
			"$TOP/configs/native.config" > /dev/null) 2> >(grep -v 'override: reassigning' >&2)
		umake olddefconfig > /dev/null
		local line missing=
		while IFS= read -r line; do
			case $line in
			CONFIG_*=n) grep -qx "# ${line%=n} is not set" "$B/.config" || missing="$missing $line" ;;
			CONFIG_*) grep -qx "$line" "$B/.config" || missing="$missing $line" ;;
			esac
		done < <(grep '^CONFIG_' "$TOP/configs/native.config")
		[ -z "$missing" ] || die "configs/native.config: did not survive olddefconfig:$missing"
		cp "$TOP/configs/native.config" "$B/.config.done"
	fi
	log "building the UML kernel in $B, padding $1 bytes (log: $B/build.log)"
	umake -j"$(nproc)" SCHED_RUST_LAYOUT_PAD="$1" linux > "$B/build.log" 2>&1 ||
		{ tail -n 30 "$B/build.log" >&2; die "the UML build failed"; }
	file -L "$B/linux" | grep -q 'statically linked' || die "$B/linux is not statically linked"
}

tree() {
	rm -rf "$D/root"
	mkdir -p "$D/root/bin" "$D/root/proc" "$D/root/sys" "$D/root/dev" "$D/root/tmp"
	command -v busybox > /dev/null || die "no busybox (Debian: busybox-static)"
	cp "$(command -v busybox)" "$D/root/bin/busybox"
	file -L "$D/root/bin/busybox" | grep -q 'statically linked' || die "busybox is not static (Debian: busybox-static)"
	# The guest's tools, and the runner's on a host that lacks them.
	for t in sh mount grep sed cat uname poweroff awk mktemp date cut tail head rm; do
		ln -s busybox "$D/root/bin/$t"
	done
	install -m 755 "$TOP/evaluation/bench/native/init" "$D/root/init"
	install -m 755 "$TOP/evaluation/bench/native/run.sh" "$D/run.sh"
}

# The layout variants, one build each.
read -r -a PADS <<< "${NATIVE_PADS:-0 16 32 48 2064}"
[ "${#PADS[@]}" -ge "${NATIVE_BUILDS:-5}" ] || die "NATIVE_PADS has fewer than NATIVE_BUILDS (${NATIVE_BUILDS:-5}) sizes"
PADS=("${PADS[@]:0:${NATIVE_BUILDS:-5}}")
report() {	# report <dir holding results-*.txt>
	local files
	files=$(ls "$1"/results-*.txt* 2> /dev/null | sort -V)
	[ -n "$files" ] || { echo "no results in $1" >&2; return 2; }
	# shellcheck disable=SC2086 # one path per word
	/usr/bin/python3 "$TOP/scripts/bench-native-report.py" --figures "$1/figures.tsv" $files
}
if [ "${1:-}" = readme ]; then
	ls "$D"/results-*.txt > /dev/null 2>&1 || die "no results in $D: run make bench-native first"
	# The build is the replicate: the committed intervals come from five
	# layouts or more (a quick run with fewer stays in the cache).
	nb=$(compgen -G "$D/results-*.txt" | wc -l)
	[ "$nb" -ge 5 ] || die "$D holds $nb builds' results: the committed results need 5 or more (NATIVE_BUILDS)"
	R=$TOP/evaluation/bench/results-native
	mkdir -p "$R"
	rm -f "$R"/results*.txt* "$R/figures.tsv"
	. "$TOP/scripts/provenance.sh"
	provenance_copy "$D/provenance.txt" "$R/provenance.txt"
	for f in "$D"/results-*.txt; do
		/usr/bin/python3 "$TOP/scripts/bench-native-reduce.py" "$f" "$R/${f##*/}.gz"
	done
	report "$D" > "$D/report.txt" || fail "the report failed on $D"
	cp "$D/report.txt" "$R/report.txt"
	# The committed files (each rep's median batch per case and side, the
	# report's input) give the same figures.
	report "$R" | cmp -s - "$R/report.txt" || fail "$R/results-*.txt.gz do not give the report's figures"
	{
		echo "# make bench-native: time per call on a real CPU"
		echo
		echo "<!-- Generated by make bench-native BENCH_SAVE=1 from the run: do not edit. -->"
		echo
		echo "Command: \`make bench-native\` ($(grep -c . <<< "$(ls "$D"/results-*.txt)") builds),"
		echo "provenance (commit, host, configuration): [provenance.txt](provenance.txt); each rep's median"
		echo "batch per case and side, every rep of every build: results-*.txt.gz; every figure by key: [figures.tsv](figures.tsv)."
		echo "The eligibility tests take the 128-bit product (bench-native selects"
		echo "ARCH_SUPPORTS_INT128 for UML's x86_64, as arch/x86 does)."
		echo
		echo "Each case calls one function out of line in a loop, the same loop for both sides, on the"
		echo "same prepared state (kernel/sched/rust/debug/fair_bench.c). The builds differ only in a"
		echo "padding at the start of fair.o's code, which moves its functions and the benchmark loops:"
		echo "the ratios' intervals are over the builds, the margin for \"equivalent\" is the same C at"
		echo "two addresses (control_tg_alloc_free) over the builds. Ratio: Rust/C; stock_ rows: fair.c's"
		echo "C over 7.3.4's stock C; dispatch_ rows: through the debug option's switch. The guest has"
		echo "one CPU (UML's SMP needs its seccomp mode; see evaluation/bench/native/run.sh) and inlines the"
		echo "Rust's C helpers as x86_64 does."
		echo
		echo '```'
		cat "$D/report.txt"
		echo '```'
	} > "$R/README.md"
	log "wrote $R"
	exit 0
fi
stage "UML tree" native_tree
stage tree tree
. "$TOP/scripts/provenance.sh"
rm -f "$D"/results-*.txt
provenance_begin "$D/provenance.txt" "make bench-native NATIVE_BUILDS=${#PADS[@]} NATIVE_REPS=${NATIVE_REPS:-100}" \
	"UML x86_64 (configs/native.config: the debug and bench options, ARCH_SUPPORTS_INT128, x86_64's inline helpers), $((${#PADS[@]})) layouts: padding ${PADS[*]} bytes at the start of fair.o's code" \
	"kernel/sched/rust rust/kernel patches Kconfig.snippet configs/native.config evaluation/bench/native scripts/bench-native.sh scripts/bench-native-reduce.py scripts/bench-native-report.py scripts/stats.py" \
	"$TOP/configs/native.config"
i=0
for pad in "${PADS[@]}"; do
	i=$((i + 1))
	stage "build $i of ${#PADS[@]} (padding $pad)" build "$pad"
	if [ $i = 1 ]; then
		cp "$B/.config" "$D/config"
		echo "config: $(sha256sum "$D/config" | cut -c1-16) of the UML kernel's .config" >> "$D/provenance.txt"
		provenance_built "$D/provenance.txt" "$B"
	fi
	cp "$B/linux" "$D/linux"
	where=$(nm "$B/linux" | awk '$3 == "pick_task_fair" { a = $1 } END { print a }')
	# The padding must have moved fair.o's code: a new address per build.
	[ -n "$where" ] || die "no pick_task_fair in $B/linux's symbols"
	case " ${seen_at:-} " in *" $where "*) die "padding $pad left pick_task_fair() where an earlier build had it (0x$where)" ;; esac
	seen_at="${seen_at:-} $where"
	stage "run $i of ${#PADS[@]}" env RESULTS="$D/results-$i.txt" "$D/run.sh" "${NATIVE_REPS:-100}"
	sed -i "1a # layout: padding $pad bytes at the start of fair.o's code; pick_task_fair() at 0x${where:-?}" "$D/results-$i.txt"
done
provenance_end "$D/provenance.txt"
stage report report "$D" | tee "$D/report.txt"
if [ "${1:-}" = bundle ]; then
	tar -C "$CACHE" -czf "$CACHE/bench-native.tar.gz" \
		bench-native/linux bench-native/root bench-native/run.sh
	log "bundle: $CACHE/bench-native.tar.gz ($(du -h "$CACHE/bench-native.tar.gz" | cut -f1)): tar xzf it anywhere, run bench-native/run.sh"
fi
if [ -n "${BENCH_SAVE:-}" ]; then
	"$0" readme
fi
