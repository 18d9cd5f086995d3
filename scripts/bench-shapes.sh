#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-shapes: the C shapes of the Rust's code that the series does
# not keep, judged on the object code of the production kernels (x86_64).
# Each evaluation/bench/shapes/*.patch is applied to the series' fair.c and
# compiled with the command that compiled the off (clang) and gcc-off (GCC)
# kernels' fair.o, beside the series' fair.c compiled the same way:
#   - the functions whose code differs (none: the shape is the compiler's
#     choice, not the source's);
#   - the instructions the one-entity pick runs for each state of curr
#     (curr running, curr dequeued, no curr; scripts/shapes.py walks the
#     code): pick_next_entity() with clang, the out-of-line pick_eevdf()
#     with GCC, beside the same walk in the stock, off, prod and gcc-off
#     kernels' own fair.o (prod: the Rust inlined), with the size of the
#     function walked and its register-to-register moves (the routes no
#     walk follows change with them).
# Figures in $CACHE/bench-results-shapes/figures.tsv, the walks in
# paths.txt; BENCH_SAVE=1 copies them to evaluation/bench/results-shapes/.
# Fails when a patch does not apply, a compile fails or a walk cannot be
# followed. Needs the four kernels (built here when missing).

. "$(dirname "$0")/common.sh"
. "$TOP/scripts/provenance.sh"

[ "$KARCH" = x86_64 ] || die "bench-shapes: x86_64 only (scripts/shapes.py walks x86_64 code)"
kernels="stock off prod gcc-off"
states="curr-runs curr-dequeued no-curr"
"$TOP/scripts/setup.sh"
"$TOP/scripts/fetch-kernel.sh"
"$TOP/scripts/overlay.sh"
for k in $kernels; do
	"$TOP/scripts/build.sh" "$k"
done

R=$CACHE/bench-results-shapes
rm -rf "$R"
mkdir -p "$R"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# shellcheck disable=SC2046 # one .config per kernel
provenance_begin "$R/provenance.txt" "make bench-shapes" \
	"x86_64 production kernels stock, off, prod (clang) and gcc-off (GCC), configs/base.config + x86_64.config + distro.config: their object code, not run" \
	"kernel/sched/rust rust/kernel patches Kconfig.snippet configs/base.config configs/x86_64.config configs/distro.config scripts/build.sh scripts/common.sh scripts/bench-shapes.sh scripts/shapes.py evaluation/bench/shapes" \
	$(for k in $kernels; do echo "$(bdir "$k")/.config"; done)
echo "toolchain-gcc: $(gcc --version | head -n1)" >> "$R/provenance.txt"
# shellcheck disable=SC2046 # one build directory per kernel
provenance_built "$R/provenance.txt" $(for k in $kernels; do bdir "$k"; done)

# compile <flavour> <source> <output> <-c|-S>: the command that compiled the
# flavour's fair.c (to fair.o, or to bitcode where the Rust is inlined), on
# another source, in the flavour's build directory.
compile() {
	local B cmdf cmd new
	B=$(bdir "$1")
	cmdf=$B/kernel/sched/.fair.o.cmd
	[ -f "$B/kernel/sched/.fair.bc.cmd" ] && cmdf=$B/kernel/sched/.fair.bc.cmd
	cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$cmdf" | sed 's# -Wp,-MMD,[^ ]*##')
	new=$(sed -E "s#( -Xclang -disable-llvm-passes)? -c( -emit-llvm)? -o kernel/sched/fair\.(o|bc) [^ ]*/kernel/sched/fair\.c# $4 -o $3 $2#" <<< "$cmd")
	[ -n "$cmd" ] && [ "$new" != "$cmd" ] || die "bench-shapes: no fair.c command in $cmdf"
	(cd "$B" && eval "$new") > "$T/compile.log" 2>&1 || { cat "$T/compile.log" >&2; fail "bench-shapes: $1: could not compile $2"; }
}

# funcs <object> <file>: its code, function by function, without addresses
# (a branch names its target by function and offset).
funcs() {
	llvm-objdump$LLVM_SUFFIX -d --no-show-raw-insn --no-leading-addr "$1" |
		sed -E 's/^([0-9a-f]{16} )?<([^>]*)>:$/== \2/; s/[0-9a-f]+ (<[^>]*>)/\1/' | grep -v -e '^$' -e 'file format' -e '^Disassembly of section' > "$2"
	grep -q '^== ' "$2" || fail "bench-shapes: $1 has no function"
}

# differing <a> <b>: the functions whose code differs, by name, or "none".
differing() {
	awk '/^== / { f = $2; next } { h[FILENAME, f] = h[FILENAME, f] "\n" $0; names[f] = 1 }
		END { for (f in names) if (h[ARGV[1], f] != h[ARGV[2], f]) print f }' "$1" "$2" |
		sort | paste -sd, | sed 's/^$/none/'
}

# walk <name> <object> <offsets.s> <function>: figures and paths of the
# one-entity pick.
walk() {
	local st out
	for st in $states; do
		out=$(LLVM_SUFFIX=$LLVM_SUFFIX /usr/bin/python3 "$TOP/scripts/shapes.py" "$2" "$4" "$3" "$st") ||
			fail "bench-shapes: $1: $st: the walk failed"
		{ echo "== $1, $4(), $st: $(head -n1 <<< "$out") instructions"; tail -n +2 <<< "$out"; echo; } >> "$R/paths.txt"
	done
	echo "$1 $4" >> "$T/walked"
	out=$(LLVM_SUFFIX=$LLVM_SUFFIX /usr/bin/python3 "$TOP/scripts/shapes.py" --static "$2" "$4") ||
		fail "bench-shapes: $1: could not read $4()"
	read -r ni nm <<< "$out"
	echo "== static $1, $4(): $ni instructions, $nm register moves" >> "$R/paths.txt"
}

: > "$R/paths.txt"
# GCC inlines pick_next_entity() into pick_task_fair() and keeps a copy of
# pick_eevdf() out of line, for wakeup_preempt_fair(): that copy is walked.
for k in $kernels; do
	compile "$k" "$TOP/evaluation/bench/shapes/offsets.c" "$T/offsets-$k.s" -S
	f=pick_next_entity
	[ "$k" = gcc-off ] && f=pick_eevdf
	walk "$k" "$(bdir "$k")/kernel/sched/fair.o" "$T/offsets-$k.s" "$f"
done
n=0
for p in "$TOP"/evaluation/bench/shapes/*.patch; do
	v=$(basename "$p" .patch)
	rm -rf "$T/src"
	mkdir -p "$T/src/kernel/sched"
	cp "$WORK/kernel/sched/fair.c" "$T/src/kernel/sched/fair.c"
	cp "$T/src/kernel/sched/fair.c" "$T/fair-series.c"
	patch -s -p1 -d "$T/src" < "$p" || fail "bench-shapes: $v does not apply to the series' fair.c"
	for k in off gcc-off; do
		# The series' fair.c and the variant, compiled from the same path.
		cp "$T/src/kernel/sched/fair.c" "$T/variant.c"
		cp "$T/fair-series.c" "$T/src/kernel/sched/fair.c"
		compile "$k" "$T/src/kernel/sched/fair.c" "$T/series-$k.o" -c
		cp "$T/variant.c" "$T/src/kernel/sched/fair.c"
		compile "$k" "$T/src/kernel/sched/fair.c" "$T/$v-$k.o" -c
		funcs "$T/series-$k.o" "$T/series-$k.s"
		funcs "$T/$v-$k.o" "$T/$v-$k.s"
		d=$(differing "$T/series-$k.s" "$T/$v-$k.s")
		echo "== differs $v, $k: $d" >> "$R/paths.txt"
		log "bench-shapes: $v with $k's compiler: functions whose code differs from the series': $d"
	done
	walk "off+$v" "$T/$v-off.o" "$T/offsets-off.s" pick_next_entity
	walk "gcc-off+$v" "$T/$v-gcc-off.o" "$T/offsets-gcc-off.s" pick_eevdf
	n=$((n + 1))
done
[ $n -gt 0 ] || fail "bench-shapes: no shape in evaluation/bench/shapes/"
provenance_end "$R/provenance.txt"
/usr/bin/python3 "$TOP/scripts/shapes.py" --figures "$R/figures.tsv" "$R/paths.txt" ||
	fail "bench-shapes: the walks recorded do not give the figures"

# The report: instructions of the one-entity pick per state and kernel.
{
	echo "# The one-entity pick, instructions per state of curr (x86_64)"
	echo
	echo "| kernel | function | $(sed 's/ / | /g' <<< "$states") | the function's instructions | its register moves |"
	echo "|---|---|$(sed 's/[^ ]*/---|/g; s/ //g' <<< "$states")---|---|"
	while read -r k f; do
		row="| $k | $f() |"
		for st in $states; do
			row="$row $(awk -F'\t' -v key="single.$st.$k" '$1 == key { print $2 }' "$R/figures.tsv") |"
		done
		for x in insns moves; do
			row="$row $(awk -F'\t' -v key="static.$f.$k.$x" '$1 == key { print $2 }' "$R/figures.tsv") |"
		done
		echo "$row"
	done < "$T/walked"
	echo
	echo "Functions of fair.o whose code differs from the series' fair.c compiled by the same command:"
	echo
	sed -n 's/^differs\.\([^\t]*\)\.\([^.\t]*\)\t/- \1, \2: /p' "$R/figures.tsv"
} > "$R/report.md"
cat "$R/report.md"
if [ -n "${BENCH_SAVE:-}" ]; then
	dst=$TOP/evaluation/bench/results-shapes
	rm -rf "$dst"
	mkdir -p "$dst"
	provenance_copy "$R/provenance.txt" "$dst/provenance.txt"
	cp "$R/figures.tsv" "$R/paths.txt" "$R/report.md" "$dst/"
	log "bench-shapes: results in $dst"
fi
