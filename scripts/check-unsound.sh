#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-unsound: the misuse snippets of tests/unsound/ compiled against
# the kernel crate of a built kernel, with that build's own rustc command
# (taken from the .cmd file of the sched_rust crate). One line per snippet.
#
# Each misuse snippet X.rs must be refused for exactly its reason:
#   // expect: E0599            the only error code it may fail with ("lint":
#                               a denied lint, which has no code)
#   // expect-message: <text>   every error it fails with must say this
#                               (a second error, for another reason, fails)
#   // expect-note: <text>      (any number) text the compiler's output must
#                               contain, e.g. the type a note names
#   //~ ERROR                   at the end of the line each error must be
#                               reported on (compiletest's form; //~^ for the
#                               line above, one ^ per line): every error's
#                               primary location must be a marked line, and
#                               every marked line must have an error
#   //~ REASON                  at the end of each other line of code its control
#                               changes (the reason it is refused: a type that
#                               is !Unpin, an unsafe block missing): the control
#                               differs from the misuse only in marked lines
#   // compile: full            compiled to an object (--emit=obj), not only to
#                               metadata: for errors of monomorphisation (a
#                               const assert of a generic), which a metadata
#                               compile never evaluates. Such a snippet must
#                               pass the metadata compile and fail the full one.
# and beside it stands its control, X_ok.rs ("// expect: ok"), which must
# compile: the same code with only that reason removed (comments and the
# //~ markers aside, it differs only in the lines the misuse marks, and at
# most two lines differ: max_diff=4 lines of diff). A snippet named *_ok.rs is a
# control and says "// expect: ok"; a control without a misuse beside it
# (correct_use_ok.rs: every API used as intended) is allowed.
#   scripts/check-unsound.sh [flavour]   default: test, else bench
# Exit: 0 all as expected, 1 a snippet did not fail as expected, 4 no build
# (skipped), 2 a harness problem.

. "$(dirname "$0")/common.sh"

flavour=${1:-}
if [ -z "$flavour" ]; then
	for f in test bench; do
		[ -f "$(bdir "$f")/kernel/sched/rust/.sched_rust.o.cmd" ] && { flavour=$f; break; }
	done
fi
B=$(bdir "${flavour:-test}")
cmdfile=$B/kernel/sched/rust/.sched_rust.o.cmd
# Nothing to compile against without a build: skipped (4), not passed.
[ -f "$cmdfile" ] || skip "check-unsound: no build with the sched_rust crate in $B: run make test first"
[ -f "$B/rust/libkernel.rmeta" ] || die "check-unsound: a sched_rust build without its kernel crate in $B"

# The rustc part of the saved command, without its outputs and its source.
rustc_cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$cmdfile" | sed 's/ ;.*//')
# The saved command is shell-quoted (-Zcrate-attr='feature(...)'): parse it as the shell would.
eval "argv=($rustc_cmd)"
args=()
for a in "${argv[@]}"; do
	case $a in
	--emit=*|--out-dir|kernel/sched/rust/|*/sched_rust.rs) ;;
	*) args+=("$a") ;;
	esac
done
# rustc, or clippy-driver after a CLIPPY=1 build (make lint): the same compiler.
printf '%s\n' "${args[@]:0:3}" | grep -qxE 'rustc|clippy-driver' ||
	die "check-unsound: no rustc command in $cmdfile"

norm() { sed -E 's/\<[a-z_][a-z0-9_]*::([a-z_][a-z0-9_]*::)*//g'; }

T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
# A control is the misuse with only its reason removed: one line changed, or two
# (a diff line per side).
max_diff=${max_diff:-4}
fail=0 n=0 nmis=0 nctl=0

# compile <src> <name> <emit>: status of a compile of the snippet; output in $T/<name>.<emit>.log.
compile() {
	local rc=0 out
	case $3 in
	metadata) out=$T/$2.rmeta ;;
	obj) out=$T/$2.o ;;
	esac
	(cd "$B" && env RUSTC_BOOTSTRAP=1 "${args[@]}" --crate-name "unsound_$2" --emit="$3" \
		-o "$out" "$1") > "$T/$2.$3.log" 2>&1 || rc=$?
	return $rc
}
# The error lines of a compile's output: each error has one ("error[E0277]: ..."), and the
# summary line is left out.
errors() {
	grep -E '^error(\[E[0-9]+\])?: ' "$1" | grep -vE '^error: aborting due to' || true
}
# Lines of diff between two snippets' code (comments, blank lines and the //~
# markers left out): a line changed counts twice.
code_only() {
	grep -vE '^[[:space:]]*(//|$)' "$1" | sed -E 's|[[:space:]]*//~.*||'
}
code_diff() {
	diff <(code_only "$1") <(code_only "$2") | grep -c '^[<>]' || true
}
show() {
	grep -A8 '^error' "$1" | head -n 24
}
# unmarked <misuse> <control>: what differs between them off the marked
# lines. The misuse marks every line of code its control changes, with
# //~ ERROR (the error is reported there) or //~ REASON (the reason it is
# refused, e.g. the type that is !Unpin): the control differs only in the
# protected lines. Prints each line that differs unmarked, each REASON line
# the control keeps, and "none" when nothing marked differs.
unmarked() {
	/usr/bin/python3 - "$1" "$2" <<'EOP'
import difflib, re, sys
def code(path):
    out = []
    for n, line in enumerate(open(path), 1):
        if re.match(r"\s*(//|$)", line):
            continue
        out.append((n, re.sub(r"\s*//~.*", "", line.rstrip("\n")), line))
    return out
a, b = code(sys.argv[1]), code(sys.argv[2])
ops = difflib.SequenceMatcher(None, [x[1] for x in a], [x[1] for x in b], autojunk=False).get_opcodes()
changed = {a[i][0] for tag, i1, i2, _, _ in ops if tag != "equal" for i in range(i1, i2)}
marked = {n: m[1] for n, _, line in a for m in [re.search(r"//~\^*\s*(ERROR|REASON)", line)] if m}
for n in sorted(changed - set(marked)):
    print(f"line {n} differs in the control, unmarked (//~ ERROR or //~ REASON)")
for n in sorted(n for n, kind in marked.items() if kind == "REASON" and n not in changed):
    print(f"line {n} is marked //~ REASON, but the control has it too")
if not changed & set(marked) and not any(t in ("insert", "replace") for t, *_ in ops):
    print("none of the marked lines differs in the control")
EOP
}

for src in "$TOP"/tests/unsound/*.rs; do
	name=$(basename "$src" .rs)
	want=$(sed -n 's|^// expect: *||p' "$src" | head -n1)
	msg=$(sed -n 's|^// expect-message: *||p' "$src" | head -n1)
	mapfile -t notes < <(sed -n 's|^// expect-note: *||p' "$src")
	full=$(sed -n 's|^// compile: *||p' "$src" | head -n1)
	[ -n "$want" ] || { echo "FAIL $name: no '// expect:' line"; fail=1; continue; }
	case $full in
	""|full) ;;
	*) echo "FAIL $name: '// compile: $full': only 'full' is known"; fail=1; continue ;;
	esac
	n=$((n + 1))
	emit=metadata
	[ "$full" = full ] && emit=obj

	if [ "$want" = ok ]; then
		nctl=$((nctl + 1))
		case $name in
		*_ok) ;;
		*) echo "FAIL $name: a control ('// expect: ok') is named <misuse>_ok.rs"; fail=1; continue ;;
		esac
		if compile "$src" "$name" "$emit"; then
			echo "PASS $name: compiles (control${full:+, full compile})"
		else
			echo "FAIL $name: the control does not compile${full:+ (full compile)}:"
			show "$T/$name.$emit.log"
			fail=1
		fi
		continue
	fi

	nmis=$((nmis + 1))
	case $name in
	*_ok) echo "FAIL $name: a snippet named *_ok.rs is a control and says '// expect: ok'"; fail=1; continue ;;
	esac
	ctl=$TOP/tests/unsound/${name}_ok.rs
	if [ ! -f "$ctl" ]; then
		echo "FAIL $name: no control ${name}_ok.rs beside it (the same code, with only the reason removed, compiling)"
		fail=1
		continue
	fi
	[ -n "$msg" ] || { echo "FAIL $name: no '// expect-message:' line (the reason of the error)"; fail=1; continue; }
	d=$(code_diff "$src" "$ctl")
	if [ "$d" -gt "$max_diff" ]; then
		echo "FAIL $name: its control ${name}_ok.rs differs in $d lines of code (at most $max_diff): not the same code"
		fail=1
		continue
	fi
	u=$(unmarked "$src" "$ctl")
	if [ -n "$u" ]; then
		echo "FAIL $name: its control ${name}_ok.rs must differ only in the lines it marks:"
		printf '  %s\n' "$u"
		fail=1
		continue
	fi
	cfull=$(sed -n 's|^// compile: *||p' "$ctl" | head -n1)
	if [ "$cfull" != "$full" ]; then
		echo "FAIL $name: its control is not compiled the same way ('// compile: ${full:-metadata}' against '${cfull:-metadata}')"
		fail=1
		continue
	fi

	if [ "$full" = full ] && ! compile "$src" "$name" metadata; then
		echo "FAIL $name: refused by the metadata compile already (a '// compile: full' snippet is for errors of monomorphisation):"
		show "$T/$name.metadata.log"
		fail=1
		continue
	fi
	rc=0
	compile "$src" "$name" "$emit" || rc=$?
	log=$T/$name.$emit.log
	# rustc names an item by its shortest path, clippy-driver (make lint's
	# CLIPPY=1 build) by its full one: the module paths go, from the output
	# and from the expected texts alike, before they are compared.
	norm < "$log" > "$log.n" && mv "$log.n" "$log"
	msg=$(printf '%s\n' "$msg" | norm)
	for i in "${!notes[@]}"; do
		notes[i]=$(printf '%s\n' "${notes[i]}" | norm)
	done
	codes=$(errors "$log" | grep -o '^error\[E[0-9]*\]' | sed 's/error\[\(.*\)\]/\1/' | sort -u | tr "\n" " " || true)
	nerr=$(errors "$log" | wc -l)
	other=$(errors "$log" | grep -vF -- "$msg" || true)
	missing=
	for note in "${notes[@]}"; do
		grep -qF -- "$note" "$log" || missing="$missing '$note'"
	done
	# The lines the errors must be on (//~ ERROR, //~^ ERROR: the line above),
	# and the lines they are on: each error's first " --> file:line:col".
	marked=$(awk '{ if (match($0, /\/\/~\^* ERROR/)) { m = substr($0, RSTART, RLENGTH); c = gsub(/\^/, "", m); print NR - c } }' "$src" | sort -nu | tr '\n' ' ')
	got=$(awk -v f="$(basename "$src")" '
		/^error(\[E[0-9]+\])?: / && !/^error: aborting/ { want = 1; next }
		want && /^ *--> / { n = split($2, a, ":"); if (a[1] ~ f "$") print a[n - 1]; want = 0 }' "$log" |
		sort -nu | tr '\n' ' ')
	if [ $rc = 0 ]; then
		echo "FAIL $name: compiles${full:+ (full compile)}, expected $want ($msg)"
		fail=1
	elif { [ "$want" = lint ] && [ -n "$codes" ]; } || { [ "$want" != lint ] && [ "$codes" != "$want " ]; }; then
		echo "FAIL $name: refused with ${codes:-no error code}, expected $want:"
		show "$log"
		fail=1
	elif [ -n "$other" ]; then
		echo "FAIL $name: refused with $want, but not only for the expected reason ('$msg'):"
		printf '  %s\n' "$other" | head -n 10
		fail=1
	elif [ -n "$missing" ]; then
		echo "FAIL $name: refused with $want ($msg), but the output lacks$missing"
		show "$log"
		fail=1
	elif [ -z "$marked" ]; then
		echo "FAIL $name: no line marked '//~ ERROR' (the line its error must be on; its errors are on line(s) ${got:-none})"
		fail=1
	elif [ "$full" = full ] && [ -z "$got" ]; then
		# A monomorphisation error is reported where the const assert is
		# (the kernel crate), not on a line of the snippet: the marked
		# line must then be one its control changes.
		if [ -n "$(comm -23 <(tr ' ' '\n' <<< "$marked" | grep . | sort) <(diff --unchanged-line-format= \
			--old-line-format='%dn
' --new-line-format= "$src" "$ctl" | sort -u))" ]; then
			echo "FAIL $name: the marked line ($marked) is the same in its control, which must change it"
			fail=1
			continue
		fi
		echo "PASS $name: refused with $want ($msg) by the full compile only, instantiated from line ${marked% } (the line its control changes), $nerr error(s); control ${name}_ok differs in $d line(s) of code"
	elif [ "$got" != "$marked" ]; then
		echo "FAIL $name: refused with $want ($msg), on line(s) ${got:-none} of the snippet, where it marks line(s) $marked"
		show "$log"
		fail=1
	else
		echo "PASS $name: refused with $want ($msg) on line ${marked% }${nerr:+, $nerr error(s)}${full:+, by the full compile only}; control ${name}_ok differs in $d line(s) of code"
	fi
done
[ "$n" -gt 0 ] || die "check-unsound: no snippets in tests/unsound/"
if [ $fail = 0 ]; then
	echo "check-unsound: $n snippets as expected: $nmis misuses, each refused for its reason, and $nctl controls (kernel crate of $B)"
else
	echo "check-unsound: FAILED (kernel crate of $B)"
fi
exit $fail
