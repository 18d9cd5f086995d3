#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-unsound: the misuse snippets of tests/unsound/ compiled against
# the kernel crate of a built kernel, with that build's own rustc command
# (taken from the .cmd file of the sched_rust crate). Each snippet names the
# error it must be refused with ("// expect: E0599") and, where the code
# alone could be any misuse of its kind, the text of that error
# ("// expect-message: no method named `left`"); a snippet that compiles,
# or fails with another error or another text, fails the check. The control
# snippets ("// expect: ok") must compile. One line per snippet.
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

T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
fail=0 n=0
for src in "$TOP"/tests/unsound/*.rs; do
	name=$(basename "$src" .rs)
	want=$(sed -n 's|^// expect: *||p' "$src" | head -n1)
	# The error's text, where the code alone could be any misuse of that kind.
	msg=$(sed -n 's|^// expect-message: *||p' "$src" | head -n1)
	[ -n "$want" ] || { echo "FAIL $name: no '// expect:' line"; fail=1; continue; }
	n=$((n + 1))
	rc=0
	(cd "$B" && env RUSTC_BOOTSTRAP=1 "${args[@]}" --crate-name "unsound_$name" --emit=metadata \
		-o "$T/$name.rmeta" "$src") > "$T/$name.log" 2>&1 || rc=$?
	codes=$(grep -o '^error\[E[0-9]*\]' "$T/$name.log" | sed 's/error\[\(.*\)\]/\1/' | sort -u | tr "\n" " " || true)
	if [ "$want" = ok ]; then
		if [ $rc = 0 ]; then
			echo "PASS $name: compiles (control)"
		else
			echo "FAIL $name: the control does not compile:"
			grep -A6 '^error' "$T/$name.log" | head -n 20
			fail=1
		fi
	elif [ $rc = 0 ]; then
		echo "FAIL $name: compiles, expected $want"
		fail=1
	elif [ "$codes" = "$want " ] && { [ -z "$msg" ] || grep -qF -- "$msg" "$T/$name.log"; }; then
		echo "PASS $name: refused with $want${msg:+ ($msg)}"
	elif [ "$codes" = "$want " ]; then
		echo "FAIL $name: refused with $want, but not for the expected reason ('$msg'):"
		grep -A6 '^error' "$T/$name.log" | head -n 20
		fail=1
	else
		echo "FAIL $name: refused with ${codes:-no error code}, expected $want:"
		grep -A6 '^error' "$T/$name.log" | head -n 20
		fail=1
	fi
done
[ "$n" -gt 0 ] || die "check-unsound: no snippets in tests/unsound/"
if [ $fail = 0 ]; then
	echo "check-unsound: $n snippets as expected (kernel crate of $B)"
else
	echo "check-unsound: FAILED (kernel crate of $B)"
fi
exit $fail
