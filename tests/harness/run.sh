#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-harness: tests of the harness itself, in about a minute, with
# no kernel build of their own.
#  - make help lists every target within 100 columns, O= and KBUILD_OUTPUT
#    are refused (2), V=1 shows the guest's console, a silent guest is
#    stopped as hung;
#  - the exit statuses: a stage's failure mapped to 1, 2 or 4, a
#    set-up stage's to 2, a missing build is 2 for boot.sh and 4 (skipped)
#    for check-unsound;
#  - on the last make test boot (when there is one): its console passes
#    the checks again (0), and fails them (1) once a line is removed, the
#    failed check counted by kunit.py among the KTAP results; the guest's
#    own KTAP suite passes, and fails with a case not ok or a result lost;
#    a splat is decoded to file:line;
#  - the sample report in evaluation/harness.md has the
#    line kinds of the last real
#    report, and no other;
#  - make check-claims passes on the committed tree and fails on a figure
#    changed by one digit and on a committed change to code a run measured;
#  - check-claims takes a move of measured files for no change (one file
#    moved into a folder that stays too), nor a
#    change to a placed file no run's kernels were compiled from, and a
#    change to code a patch adds for one;
#  - make rust-analyzer and make compile_commands.json, on make test's
#    kernel, name the repository's files by their paths here;
#  - scripts/check-instr.py passes on make test's kernel and fails on a
#    fair.o that lost the sanitizer its configuration enables, and on a
#    fair.o compile that lost one of the bitcode compile's flags.
#  - scripts/shapes.py walks a function written here to the counts its
#    states give and fails where it cannot follow; its figures of
#    results-shapes come again from the walks recorded;
#  - scripts/ksft-verdict.py passes a made-up kselftest KTAP and fails it
#    with a case not ok or lost, an unexplained skip, another list of tests;
#    cross_checks.sh's counts since boot judged right on made-up counters;
#    check-unsound's rule that a control differs only in marked lines;
#  - bench-prod-report on results-prod's data with a made-up fourth,
#    out-of-line kernel gives its table and figures, and fails when a
#    selftest case fails on every outline boot and passes on every =n one;
#    it fails when a boot has no calls (the sets would pair wrong boots);
#    with a made-up shape variant (off+<shape>) gives its table and its
#    figures against =n, and fails when a set's boot of it has no calls.
# One line per case. Exit: 0 every case passed, 1 a case failed, 4 some
# cases were skipped (no make test boot in the cache) and none failed.

. "$(dirname "$0")/../../scripts/common.sh"
set +e

pass=0 failed=0 skipped=0
ok() { echo "ok    $*"; pass=$((pass + 1)); }
ko() { echo "FAIL  $*"; failed=$((failed + 1)); }
sk() { echo "skip  $*"; skipped=$((skipped + 1)); }
expect() {	# expect <status> <what> <command...>
	local want=$1 what=$2 rc=0
	shift 2
	"$@" > "$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = "$want" ]; then
		ok "$what: exit $rc"
	else
		ko "$what: exit $rc, expected $want"
		tail -n 5 "$tmp/out" | sed 's/^/      /'
	fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$TOP" || exit 2

# make help: every target of the Makefile, each with its text.
targets=$(sed -n 's/^\([a-z0-9_.-]*\):.*/\1/p' Makefile | grep -vx all | sort)
listed=$(make -s help | awk '/^  [a-z0-9_.-]+ / { print $1 }' | sort)
[ "$targets" = "$listed" ] && ok "make help lists the $(wc -w <<< "$targets") targets" ||
	ko "make help and the Makefile's targets differ: $(comm -3 <(echo "$targets") <(echo "$listed") | tr -s ' \t\n' ' ')"
wide=$(make -s help | awk 'length > 100' | wc -l)
[ "$(make -s help | wc -l)" -gt 40 ] && [ "$wide" = 0 ] && ok "make help: every line within 100 columns" ||
	ko "make help: $wide lines over 100 columns (or no help)"
# Each target with the time it takes, in brackets at the end of its line.
untimed=$(make -s help | awk '/^  [a-z0-9_.-]+ / && !/\[[^]]*\]$/ { print $1 }' | tr '\n' ' ')
[ -n "$listed" ] && [ -z "$untimed" ] &&
	ok "make help: every target with its time ($(make -s help | grep -c '\[untimed') of them untimed)" ||
	ko "make help: targets without a time: ${untimed:-(no target listed)}"
# The evaluation document's list of targets: a definition list, one term line per entry.
rst=evaluation/evaluation.rst
doc_targets=$(sed -n '/^Targets, variables and results$/,/^Measuring$/p' "$rst" | grep '^``make ' |
	grep -o '``make [a-z0-9_.-]*``' | sed 's/``make \(.*\)``/\1/' | sort -u)
missing=$(comm -23 <(echo "$targets") <(echo "$doc_targets") | grep -vx help | tr '\n' ' ')
[ -z "$missing" ] && ok "the evaluation document's list of targets has every target" || ko "targets missing from $rst's list: $missing"

# Every repository path the README, the harness manual, the evaluation
# document, the Kconfig help and make help name exists (NNNN: a placeholder
# for a patch's number), or is a kernel path the series places a repository
# file at (patches/series). The upstream rst names kernel-tree paths: not here.
named=$( { for f in README.md evaluation/harness.md evaluation/evaluation.rst Kconfig.snippet; do
		grep -oE '(^|[^A-Za-z0-9_/])(scripts|tests|configs|patches|evaluation|kernel/sched/rust|kernel/sched/tests|rust/kernel|Documentation/scheduler/sched-rust)[A-Za-z0-9_./*-]*' "$f"
	done; make -s help | grep -oE '(^|[^A-Za-z0-9_])(scripts|tests|configs|patches|evaluation|Documentation)/[A-Za-z0-9_./-]*'; } |
	sed -E 's/^[^A-Za-z]//; s/[.,:;)]*$//' | grep -v NNNN | sort -u)
absent=$(for p in $named; do
	case $p in
	*'*'*) compgen -G "$p" > /dev/null || echo "$p" ;;
	*) [ -e "$p" ] || (. scripts/common.sh && series_map) | awk -v p="${p%/}" '
		$2 == p || index($2, p "/") == 1 { found = 1 } END { exit !found }' || echo "$p" ;;
	esac
done | tr '\n' ' ')
[ -n "$named" ] && [ -z "$absent" ] && ok "the $(wc -w <<< "$named") repository paths the documents and make help name exist" ||
	ko "paths named in the documents or make help that do not exist: ${absent:-(no path found at all)}"

# O= and KBUILD_OUTPUT: refused before anything runs.
expect 2 "make O=$tmp/o test" make -s O="$tmp/o" test
grep -q "is not supported" "$tmp/out" && [ ! -e "$tmp/o" ] && ok "O= refused with its message, nothing written" ||
	ko "O=: no refusal message, or $tmp/o written"
expect 2 "KBUILD_OUTPUT=$tmp/o make test" env KBUILD_OUTPUT="$tmp/o" make -s test

# stage(): a check's failure stays 1, a skip 4, anything else is 2; a
# failed set-up stage is the environment's, 2.
st() { bash -c ". scripts/common.sh; stage $1 t bash -c 'exit $2'; echo unreachable"; }
expect 1 "a stage failing with 1" st "" 1
expect 4 "a stage skipping with 4" st "" 4
expect 2 "a stage failing with 100 (apt-get's status)" st "" 100
expect 2 "a set-up stage failing with 1" st -e 1
expect 0 "a stage passing" st "" 0

# A missing build: boot.sh cannot run (2), check-unsound has nothing to check (4).
expect 2 "boot.sh with no build" env RUST_SCHED_CFS_CACHE="$tmp/cache" scripts/boot.sh test
expect 4 "check-unsound with no build" env RUST_SCHED_CFS_CACHE="$tmp/cache" scripts/check-unsound.sh

# The last make test boot, checked again from its console: it passes, and
# each removed line below is a check that fails (a false pass otherwise).
con=$(bootdir test)/console.log
if [ -f "$con" ] && [ -f "$(bdir test)/$KIMAGE" ] && grep -q '^sched_rust: DONE' "$con"; then
	expect 0 "the last make test console checked again" env BOOT_NAME=harness BOOT_CONSOLE="$con" scripts/boot.sh test
	# ... and fails once one of its lines is edited: mut <what> <sed or awk
	# program> [awk].
	mut() {
		if [ "${3:-}" = awk ]; then awk "$2" "$con" > "$tmp/console"; else sed "$2" "$con" > "$tmp/console"; fi
		cmp -s "$con" "$tmp/console" && { ko "the edit for '$1' changed nothing in the console"; return; }
		expect 1 "the same console with $1" env BOOT_NAME=harness BOOT_CONSOLE="$tmp/console" scripts/boot.sh test
	}
	for drop in '^sched_rust: DONE' 'KTAP version' '^sched_rust: ksft_exit ' '^sched_rust: ksft_tests ' \
		'^sched_rust: ksft_ktap ok 4 selftests: sched_rust: llc_occupancy.sh' '^sched_rust: ksft_ktap '; do
		mut "no line '$drop'" "/$drop/d"
	done
	# The kselftests' KTAP: a case not ok; a case lost against its test's
	# plan; a case skipped on the test kernel, which has every option; a
	# test skipped whole; a test the test mode does not run.
	mut "a kselftest case not ok" '0,/^sched_rust: ksft_ktap # ok [0-9]* rust: sched\/debug/s//sched_rust: ksft_ktap # not ok 2 rust: sched\/debug/'
	mut "a case of group_churn.sh lost" '0,/^sched_rust: ksft_ktap # ok [0-9]* c: [0-9]* rounds/{//d}'
	mut "a cross-check skipped on the test kernel" 's/^\(sched_rust: ksft_ktap # ok [0-9]* llc_choice since boot: .*\)$/\1 # SKIP/'
	mut "llc_occupancy.sh skipped whole" '/^sched_rust: ksft_ktap # selftests: sched_rust: llc_occupancy.sh$/ { print; print "sched_rust: ksft_ktap # TAP version 13"; print "sched_rust: ksft_ktap # 1..0 # SKIP"; skip = 1; next }
		skip && /^sched_rust: ksft_ktap ok [0-9]+ selftests: sched_rust: llc_occupancy.sh$/ { print $0 " # SKIP"; skip = 0; next }
		skip { next } { print }' awk
	grep -q 'llc_occupancy.sh: skipped whole' "$tmp/out" && ok "the report names the test skipped whole" ||
		ko "the report does not name the test skipped whole"
	mut "the guest running another list of tests" 's/^\(sched_rust: ksft_tests .*\) kmemleak.sh$/\1/'
	# ... counted as failures by kunit.py, with KUnit's suites.
	mut "one cross-check not ok" '0,/^sched_rust: ksft_ktap # ok \([0-9]*\) shadow: /s//sched_rust: ksft_ktap # not ok \1 shadow: /'
	grep -qE 'Testing complete. Ran [0-9]* tests: passed: [0-9]*, failed: [1-9]' "$(bootdir harness)/kunit-all.txt" 2>/dev/null &&
		ok "the failed cross-check is a failed KTAP case in kunit.py's summary of the suites and the kselftests" ||
		ko "kunit.py's summary of the suites and the kselftests does not count the failed cross-check: $(grep 'Testing complete' "$(bootdir harness)/kunit-all.txt" 2>/dev/null)"
	# A splat: the failure decodes it to file:line (scripts/decode_stacktrace.sh).
	awk '{ print } /^sched_rust: ksft_exit / { print "[   12.000000] WARNING: CPU: 1 PID: 1 at kernel/sched/fair.c:1 pick_task_fair+0x10/0x200"
		print "[   12.000000] Call Trace:"; print "[   12.000000]  pick_task_fair+0x10/0x200" }' "$con" > "$tmp/console"
	expect 1 "the same console with a WARNING splat" env BOOT_NAME=harness BOOT_CONSOLE="$tmp/console" scripts/boot.sh test
	grep -qE '^  pick_task_fair \(kernel/sched/fair\.c:[0-9]+' "$tmp/out" && ok "the splat decoded to file:line" ||
		ko "the splat was not decoded to file:line"
	rm -rf "$(bootdir harness)"
	# V=1: the guest's console on the terminal while it runs (a boot cut
	# short by a 15 s timeout, which fails it).
	expect 1 "V=1 scripts/boot.sh test with a 15 s timeout" env V=1 BOOT_NAME=harness BOOT_TIMEOUT=15 scripts/boot.sh test
	grep -q 'Linux version' "$tmp/out" && ok "V=1 shows the console as it comes" || ko "V=1: no console on the terminal"
	rm -rf "$(bootdir harness)"
	# A hung guest: with rdinit= a program the initramfs lacks, the kernel
	# falls back to /bin/sh, which prints its prompt and waits, its messages
	# off (loglevel=0); the progress watchdog stops it long before the cap.
	expect 1 "scripts/boot.sh test with a silent init and a 20 s idle timeout" env BOOT_NAME=harness \
		BOOT_IDLE_TIMEOUT=20 BOOT_TIMEOUT=600 scripts/boot.sh test loglevel=0 rdinit=/bin/cat
	grep -q 'no console output for 20s: the guest is hung' "$tmp/out" &&
		ok "the progress watchdog stopped the silent guest" || ko "the silent guest was not reported as hung"
	rm -rf "$(bootdir harness)"
else
	sk "no make test boot in $(bootdir test): the console cases"
fi

# The last production boot (make, or make test's short one), checked again:
# it passes, and fails once a line its checks need is removed, or with a
# failed selftest or a CPU left offline.
con=$(bootdir prod)/console.log
if [ -f "$con" ] && [ -f "$(bdir prod)/$KIMAGE" ] && grep -q '^sched_rust: DONE' "$con"; then
	# make's full boot, or make test's short one (no test_cpu).
	args=sched_rust.mode=prod
	grep -q '^sched_rust: ksft_tests .*cgroup_test_cpu.sh' "$con" || args="$args sched_rust.short=1"
	# shellcheck disable=SC2086 # $args: kernel parameters, one word each
	expect 0 "the last production console checked again" env BOOT_NAME=harness BOOT_CONSOLE="$con" scripts/boot.sh prod $args
	pmut() {
		sed "$2" "$con" > "$tmp/console"
		cmp -s "$con" "$tmp/console" && { ko "the edit for '$1' changed nothing in the production console"; return; }
		# shellcheck disable=SC2086 # as above
		expect 1 "the same production console with $1" env BOOT_NAME=harness BOOT_CONSOLE="$tmp/console" scripts/boot.sh prod $args
	}
	for drop in '^sched_rust: shape ' '^sched_rust: ksft_ktap ok [0-9]* selftests: sched_rust: hotplug.sh' \
		'^sched_rust: ksft_ktap # ok [0-9]* prod: test_core' '^sched_rust: ksft_ktap # ok [0-9]* prod: every CPU online'; do
		pmut "no line '$drop'" "/$drop/d"
	done
	pmut "test_core failed" 's/^sched_rust: ksft_ktap # ok \([0-9]*\) prod: test_core/sched_rust: ksft_ktap # not ok \1 prod: test_core/'
	pmut "the cgroup tree's cpu.max case skipped" 's/^\(sched_rust: ksft_ktap # ok [0-9]* prod: cpu.max.*\)$/\1 # SKIP/'
	pmut "a kernel of another shape" 's/^\(sched_rust: shape option=\)y/\1/'
	rm -rf "$(bootdir harness)"
else
	sk "no production boot in $(bootdir prod): the production console cases"
fi

# The harness manual's sample report against the last real report: the same kinds
# of lines (a labelled line's label and first word; an indented line's
# first two words (one if the first ends with ":"), digits folded, the side's name ("rust", "c") folded, a
# word cut after its first "_" so that test_cpu's cases are one kind; "..."
# elides repeated kinds), so that a new or renamed report line shows up as
# a diff of the manual.
kinds() {
	sed -n '/^==== rust-sched-cfs boot report/,/^result:/p' "$1" | awk '
		function fold(w) {
			gsub(/[0-9]+/, "#", w); sub(/_.*/, "_", w)
			gsub(/(^|[^a-z])(rust|c)([^a-z]|$)/, "<side>", w)
			return w
		}
		/^====/ { next }
		/^[a-z][a-z ]*:/ { l = $0; sub(/:.*/, "", l); r = $0; sub(/^[^:]*: */, "", r); split(r, a, " ")
			print "label " l " " fold(a[1]); next }
		/^ +\.\.\.$/ { next }
		/^ +/ { print "line " fold($1) ($1 ~ /:$/ ? "" : " " fold($2)) }' | sort -u
}
rep=$(bootdir test)/report.txt
if [ -f "$rep" ]; then
	manual=evaluation/harness.md
	awk '/^<!-- report: begin/ { on = 1; next } /^<!-- report: end/ { on = 0 } on' "$manual" > "$tmp/sample"
	if [ ! -s "$tmp/sample" ]; then
		ko "$manual has no sample report between the report markers"
	else
		d=$(diff <(kinds "$tmp/sample") <(kinds "$rep"))
		[ -z "$d" ] && ok "$manual's sample report has the line kinds of $rep" ||
			ko "$manual's sample report and $rep differ in their lines (< manual, > report): $(tr '\n' ' ' <<< "$d")"
	fi
else
	sk "no report of a make test boot ($rep): the manual's sample case"
fi

# make check-claims can fail: in a clone of the committed tree, a figure a
# claim ties changed by one digit fails it, and so does a change to code a
# cited run measured (committed: the check reads the history).
if git -C "$TOP" rev-parse -q --verify HEAD > /dev/null && [ -d "$TOP/evaluation/bench/claims" ]; then
	c=$tmp/claims-clone
	git clone -q "$TOP" "$c" 2> /dev/null
	if /usr/bin/python3 "$c/scripts/check-claims.py" > "$tmp/cc" 2>&1; then
		ok "check-claims passes on the committed tree ($(tail -n 1 "$tmp/cc" | cut -c1-80)...)"
		# The first decimal figure a claim ties to a result, one digit more
		# where its anchor holds it.
		what=$(/usr/bin/python3 - "$c" <<-'EOP'
		import glob, re, sys
		top = sys.argv[1]
		for path in sorted(glob.glob(top + "/evaluation/bench/claims/*.txt")):
		    for line in open(path):
		        f = [x.strip() for x in line.split(" | ")]
		        if len(f) == 4 and re.match(r"[a-z]+:\S", f[3]) and re.fullmatch(r"\d+\.\d+", f[1]):
		            doc, fig, anchor = f[:3]
		            t = open(f"{top}/{doc}").read()
		            m = re.search(r"\s+".join(map(re.escape, anchor.split())), t)
		            i = m.start() + m[0].index(fig)
		            open(f"{top}/{doc}", "w").write(t[:i] + fig + "9" + t[i + len(fig):])
		            print(f"{doc}\t{fig}")
		            sys.exit(0)
		EOP
		)
		if [ -n "$what" ]; then
			IFS=$'\t' read -r doc fig <<< "$what"
			expect 1 "check-claims with $doc's $fig made ${fig}9" \
				/usr/bin/python3 "$c/scripts/check-claims.py"
			grep -q "^FAIL: .*${fig}9" "$tmp/out" && ok "check-claims names ${fig}9" ||
				ko "check-claims did not name ${fig}9"
			git -C "$c" checkout -q -- "$doc"
		else
			ko "check-claims: no figure tied to a result to change"
		fi
		# The README with one thing a run did not have, check-claims must
		# fail naming it: readme_case <what> <grep -E> <sed -E script> <FAIL line>.
		readme_case() {
			if grep -qE "$2" "$c/README.md"; then
				sed -i -E "$3" "$c/README.md"
				expect 1 "check-claims with the README's $1 changed" \
					/usr/bin/python3 "$c/scripts/check-claims.py"
				grep -q "$4" "$tmp/out" && ok "check-claims names the README's wrong $1" ||
					ko "check-claims did not name the README's wrong $1"
				git -C "$c" checkout -q -- README.md
			else
				ko "check-claims: the README names no run with its $1"
			fi
		}
		# A run's date, one minute off.
		readme_case "bench-prod date" '`make bench-prod`, [0-9-]+ [0-9]{2}:[0-9]{2} UTC' \
			's/(`make bench-prod`, [0-9-]+ [0-9]{2}:)([0-9])([0-9]) UTC/\1\2X\3 UTC/; s/X0/1/; s/X1/2/; s/X2/3/; s/X3/4/; s/X4/5/; s/X5/6/; s/X6/7/; s/X7/8/; s/X8/9/; s/X9/0/' \
			"^FAIL: README.md:.* UTC: evaluation/bench/results-prod ran at"
		# The host a run measured on, another vendor's.
		readme_case "bench-native host" '`make bench-native`, [0-9-]+ [0-9:]+ UTC, (AMD|Intel) [A-Za-z]+ host' \
			'/`make bench-native`, [0-9-]+ [0-9:]+ UTC, /{s/(UTC, )AMD [A-Za-z]+ host/\1Intel Xeon host/;t;s/(UTC, )Intel [A-Za-z]+ host/\1AMD EPYC host/}' \
			"^FAIL: README.md:.* host: evaluation/bench/results-native ran on"
		# Each case below commits its change to the clone, then check-claims
		# must exit as it says; named: the failure names the kernel file.
		cg() { git -C "$c" -c user.name=h -c user.email=h@h "$@"; }
		claims_after() {	# claims_after <status> <change>
			cg commit -qam "$2"
			expect "$1" "check-claims after $2" /usr/bin/python3 "$c/scripts/check-claims.py"
		}
		named() {	# named <kernel path>
			grep -q "the code it measures changed since: kernel:$1" "$tmp/out" &&
				ok "check-claims names $1" || ko "check-claims did not name $1"
		}
		# A run recorded at the clone's HEAD (present even in a shallow
		# clone), then a commit that changes code it measures.
		h=$(git -C "$c" rev-parse HEAD)
		sed -i "s/^commit: .*/commit: $h/" "$c/evaluation/bench/results-native/provenance.txt"
		cg commit -qam "the run at HEAD"
		# A comment, a blank line and a line wrapped are not code: still
		# current (the first "let x = ...;" of the pick split after its "=").
		printf '\n// A comment added after the run.\n' >> "$c/kernel/sched/rust/eevdf.rs"
		sed -i '0,/^\( *let [a-z_]* =\) \(.*;\)$/s//\1\n            \2/' "$c/kernel/sched/rust/eevdf.rs"
		claims_after 0 "a comment added to code a run measured and a line wrapped"
		# A Kconfig prompt and help text reworded build the same kernel
		# (patch 0005's lib/Kconfig.debug); a dependency changed does not.
		sed -i 's/^+\tbool "KUnit tests of /+\tbool "KUnit test of /; s/^+\t  Builds the KUnit suite sched_fair/+\t  Builds the suite sched_fair/' \
			"$c"/patches/0005-*.patch
		claims_after 0 "a Kconfig prompt and help text reworded"
		sed -i 's/^+\tdepends on KUNIT=y && SMP && 64BIT$/+\tdepends on KUNIT=y \&\& SMP/' "$c"/patches/0005-*.patch
		claims_after 1 "a Kconfig dependency changed"
		named lib/Kconfig.debug
		cg revert --no-edit HEAD > /dev/null
		# A move is not a change: the pick's file to another folder (the
		# series' map says where it goes in the kernel), a measured script
		# renamed and a reference to it updated.
		mkdir -p "$c/moved"
		git -C "$c" mv kernel/sched/rust/eevdf.rs moved/eevdf.rs
		sed -i 's|^\tkernel/sched/rust/eevdf.rs$|\tmoved/eevdf.rs:kernel/sched/rust/eevdf.rs|' "$c/patches/series"
		git -C "$c" mv scripts/bench-native-reduce.py scripts/bench-native-moved.py
		sed -i 's|scripts/bench-native-reduce\.py|scripts/bench-native-moved.py|g' "$c/scripts/bench-native.sh"
		claims_after 0 "measured files moved in the repository"
		# One file moved into another folder, both folders staying: a
		# reference to either folder is not rewritten (bench-native.sh names
		# scripts/ throughout; the check once read every one as the old
		# folder, and the script as changed).
		git -C "$c" mv evaluation/bench/native/init scripts/init
		sed -i 's|evaluation/bench/native/init|scripts/init|g' "$c/scripts/bench-native.sh"
		claims_after 0 "a measured file moved into a folder that stays"
		# A change to code a patch adds (the first line of code patch 0004
		# adds to fair.c): the series as it applies has changed.
		sed -i '0,/^+\t.*;$/s//& (void)0;/' "$c"/patches/0004-*.patch
		claims_after 1 "a change to code a patch adds"
		grep -q "the code it measures changed since: .*kernel:kernel/sched/fair.c" "$tmp/out" &&
			! grep -q "changed since: patches/" "$tmp/out" &&
			ok "check-claims names the file the patch changes (the series applies)" ||
			ko "check-claims did not name kernel/sched/fair.c, or the series did not apply"
		cg revert --no-edit HEAD > /dev/null
		echo "const _: () = ();" >> "$c/moved/eevdf.rs"
		claims_after 1 "a change to code a run measured"
		named kernel/sched/rust/eevdf.rs
		# A file the series places outside the runs' folders (rust/helpers/).
		cg revert --no-edit HEAD > /dev/null
		sed -i '0,/return /s//return 0 + /' "$c/rust/helpers/percpu.c"
		claims_after 1 "a change to a C helper the series places"
		named rust/helpers/percpu.c
		# A C file the series places that no run's kernels were compiled
		# from (every run's "built-from:"): a change to it is no change.
		cg revert --no-edit HEAD > /dev/null
		sed -n 's/^built-from: //p' "$c"/evaluation/bench/*/provenance.txt | tr ' ' '\n' > "$tmp/built"
		unbuilt=$(awk 'NR == FNR { b[$0] = 1; next }
			/^[ \t]/ && $1 !~ /^@/ { n = split($1, a, ":"); d = a[n]
				if (d ~ /\.c$/ && d !~ /^(Documentation|tools\/testing)\// && !(d in b)) { print a[1]; exit } }' \
			"$tmp/built" "$c/patches/series")
		if [ -n "$unbuilt" ] && grep -q '^built-from: ' "$c"/evaluation/bench/results-native/provenance.txt; then
			echo "static int __maybe_unused harness_unbuilt;" >> "$c/$unbuilt"
			claims_after 0 "a change to $unbuilt, which no run's kernels were compiled from"
		else
			ko "check-claims: no 'built-from:' in results-native, or every placed C file in it"
		fi
	else
		ko "check-claims fails on the committed tree: $(grep -c '^FAIL' "$tmp/cc") problems, first: $(grep -m1 '^FAIL' "$tmp/cc")"
	fi
else
	sk "no git history or no evaluation/bench/claims: the check-claims cases"
fi

# The editor targets on make test's kernel: rust-project.json with the
# crate sched_rust rooted in the repository, compile_commands.json with
# fair.c (whose object the c-rust-inline rule makes) and the repository's
# own C named by its paths here.
if [ -f "$(bdir test)/vmlinux.a" ]; then
	expect 0 "make rust-analyzer" make -s rust-analyzer
	expect 0 "make compile_commands.json" make -s compile_commands.json
	if /usr/bin/python3 - "$TOP" <<-'EOP'
	import json, sys
	top = sys.argv[1]
	crates = json.load(open(f"{top}/rust-project.json"))["crates"]
	s = [c for c in crates if c["display_name"] == "sched_rust"]
	assert s and s[0]["root_module"] == f"{top}/kernel/sched/rust/sched_rust.rs", "sched_rust"
	assert any(d["name"] == "kernel" for d in s[0]["deps"]), "kernel dependency"
	cc = json.load(open(f"{top}/compile_commands.json"))
	assert any(e["file"].endswith("/kernel/sched/fair.c") for e in cc), "fair.c"
	assert any(e["file"] == f"{top}/kernel/sched/rust/lockdep.c" for e in cc), "lockdep.c"
	EOP
	then
		ok "the editor files: sched_rust and lockdep.c at their repository paths, fair.c compiled"
	else
		ko "the editor files lack sched_rust's root, fair.c or the repository's lockdep.c"
	fi
else
	sk "no make test build ($(bdir test)): the editor targets"
fi

# The instrumentation check of the c-rust-inline rule (scripts/check-instr.py)
# on make test's kernel: passes, and fails on a fair.o compiled without the
# sanitizer the configuration enables (UBSAN in the test kernel).
tb=$(bdir test)
if [ -f "$tb/kernel/sched/.fair.bc.cmd" ] && [ -f "$tb/kernel/sched/fair.o" ] &&
	grep -q '^CONFIG_UBSAN=y' "$tb/.config"; then
	expect 0 "check-instr on make test's kernel" /usr/bin/python3 scripts/check-instr.py "$tb" test
	ref=$(/usr/bin/python3 scripts/check-instr.py --print-reference "$tb")
	if (cd "$tb" && eval "$ref -fno-sanitize=all -o $tmp/fair.nosan.o") > "$tmp/out" 2>&1; then
		expect 1 "check-instr on a fair.o without UBSAN" \
			env INSTR_OBJ="$tmp/fair.nosan.o" /usr/bin/python3 scripts/check-instr.py "$tb" test
		grep -q 'FAIL UBSAN: in fair.c compiled by Kbuild' "$tmp/out" &&
			ok "check-instr names UBSAN" || ko "check-instr did not name the lost UBSAN"
	else
		ko "the reference compile without sanitizers failed: $(tail -n 2 "$tmp/out" | tr '\n' ' ')"
	fi
	# The object compile's saved command without one UBSAN flag: the
	# flags check names it.
	sed 's/ -fsanitize=shift / /' "$tb/kernel/sched/.fair.o.cmd" > "$tmp/fair.o.cmd"
	if cmp -s "$tmp/fair.o.cmd" "$tb/kernel/sched/.fair.o.cmd"; then
		ko "the test kernel's fair.o compile has no -fsanitize=shift to take out"
	else
		expect 1 "check-instr on a fair.o compile without -fsanitize=shift" \
			env INSTR_OBJ_CMD="$tmp/fair.o.cmd" /usr/bin/python3 scripts/check-instr.py "$tb" test
		grep -q 'FAIL flags: -fsanitize=shift is in fair.c.s bitcode compile, not in the compile of fair.o' "$tmp/out" &&
			ok "check-instr names the missing flag" || ko "check-instr did not name the missing -fsanitize=shift"
	fi
else
	sk "no make test kernel built with the inline rule and UBSAN: the check-instr cases"
fi
# The crate's side: the production kernel's configuration asks rustc for
# return thunks; the test kernel's crate, built without them, must fail it.
pb=$(bdir prod)
if [ -f "$pb/kernel/sched/rust/.sched_rust.o.cmd" ] && [ -f "$tb/kernel/sched/rust/sched_rust.o" ] &&
	grep -q '^CONFIG_MITIGATION_RETHUNK=y' "$pb/.config" && ! grep -q '^CONFIG_MITIGATION_RETHUNK=y' "$tb/.config"; then
	expect 0 "check-instr on the production kernel, crate included" \
		/usr/bin/python3 scripts/check-instr.py "$pb" prod
	expect 1 "check-instr on the production kernel given the test kernel's crate" \
		env INSTR_CRATE="$tb/kernel/sched/rust/sched_rust.o" /usr/bin/python3 scripts/check-instr.py "$pb" prod
	grep -q 'FAIL crate: rustc was given -Zfunction-return=thunk-extern but sched_rust.o has no return thunk' \
		"$tmp/out" && ok "check-instr names the crate's missing return thunks" ||
		ko "check-instr did not name the crate's missing return thunks"
else
	sk "no production and test kernels built (make test): the crate's check-instr cases"
fi

# The benchmarks' boot order (shuffled_sets, scripts/bench-lib.sh): the same
# seed gives the same order, as the reports' recorded seed promises.
a=$(bash -c '. scripts/bench-lib.sh; shuffled_sets 1795911953 5 stock off prod')
b=$(bash -c '. scripts/bench-lib.sh; shuffled_sets 1795911953 5 stock off prod')
c=$(bash -c '. scripts/bench-lib.sh; shuffled_sets 1795911954 5 stock off prod')
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$(wc -l <<< "$a")" = 5 ] && [ "$a" != "$c" ] &&
	ok "shuffled_sets: a seed gives the same 5 sets again, another seed others" ||
	ko "shuffled_sets: the same seed gave [$a] and [$b] (another seed [$c])"
# ... and the seed results-prod recorded gives the order its boots ran in.
rp=evaluation/bench/results-prod
seed=$(sed -n 's/.*shuffle seed \([0-9]*\).*/\1/p' $rp/report.txt | head -n1)
sets=$(awk '{ print $3 }' $rp/boots.txt | sort -un | wc -l)
ran=$(awk '{ o[$3] = o[$3] (o[$3] == "" ? "" : " ") $2 } END { for (i = 1; i in o; i++) print o[i] }' $rp/boots.txt)
# The kernels in bench-prod.sh's order, those the run booted (the run's
# BENCH_PROD_KERNELS, in its order, where it named them).
ks=$(sed -n 's/^command: .*BENCH_PROD_KERNELS="\([^"]*\)".*/\1/p' $rp/provenance.txt)
[ -n "$ks" ] ||
	ks=$(for k in stock off prod outline gcc-off gcc-prod; do awk -v k=$k '$2 == k { print k; exit }' $rp/boots.txt; done | xargs)
[ -n "$seed" ] && [ "$(bash -c ". scripts/bench-lib.sh; shuffled_sets $seed $sets $ks")" = "$ran" ] &&
	ok "shuffled_sets: results-prod's seed $seed replays its $sets sets' order ($ks)" ||
	ko "shuffled_sets: results-prod's seed '$seed' does not replay the order of boots.txt"

# bench-prod-report with the out-of-line kernel and the GCC pair:
# results-prod's calls and consoles with made-up kernels, each from one of
# the run's (outline from =y, every count 7 more; gcc-off from =n, 2 more;
# gcc-prod from =y, 9 more; the run's own boots of those kernels, where it
# has them, left out) give their tables and figures; a selftest case
# failing on every boot of a =y kernel and passing on every boot of its =n
# fails the report.
kernel_fixture() {	# kernel_fixture <dir> <kernel> <from> <added> <case to fail on it, or "">
	[ -d "$1" ] || { cp -r evaluation/bench/results-prod "$1" &&
		rm -f "$1/figures.tsv" "$1/table.md" "$1/table-outline.md" "$1/table-gcc.md"; } &&
		/usr/bin/python3 - "$@" <<'PY'
import gzip, os, re, sys
d, new, src, add, fail = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
def rows(f):
    with gzip.open(os.path.join(d, f), "rt") as h:
        return h.read().splitlines()
def out(f, lines):
    with gzip.open(os.path.join(d, f), "wt") as h:
        h.write("\n".join(lines) + "\n")
# The run's own boots of the kernel, if it has them, give way to the made-up ones.
calls = [l for l in rows("calls.tsv.gz") if l.startswith("#") or l.split("\t")[1] != new]
for l in list(calls):
    f = l.split("\t")
    if f[0].startswith("#") or f[1] != src:
        continue
    f[0], f[1], f[4] = f[0].replace(f"-{src}-", f"-{new}-"), new, str(int(f[4]) + add)
    calls.append("\t".join(f))
out("calls.tsv.gz", calls)
cons = [l for l in rows("consoles.tsv.gz") if not l.startswith(f"prodbench-{new}-")]
for l in list(cons):
    if l.startswith(f"prodbench-{src}-"):
        l = l.replace(f"prodbench-{src}-", f"prodbench-{new}-", 1)
        # cgroup_test_cpu.sh's figure of the case: failed in every run.
        if fail and f"figure: test_cpu {fail}: prod passed " in l:
            l = re.sub(r"prod passed [0-9]+ of ([0-9]+)", r"prod passed 0 of \1", l)
        cons.append(l)
out("consoles.tsv.gz", cons)
with open(os.path.join(d, "boots.txt")) as h:
    boots = [l for l in h.read().splitlines() if l.split()[1] != new]
with open(os.path.join(d, "boots.txt"), "w") as h:
    h.write("".join(l + "\n" for l in boots))
    for l in boots:
        if l.split()[1] == src:
            h.write(l.replace(f"-{src}-", f"-{new}-").replace(f" {src} ", f" {new} ") + "\n")
with open(os.path.join(d, "left-out.tsv")) as h:
    left = [l for l in h.read().splitlines() if l.split("\t")[1] != new]
with open(os.path.join(d, "left-out.tsv"), "w") as h:
    h.write("".join(l + "\n" for l in left))
    for l in left:
        if l.split("\t")[1] == src:
            h.write(l.replace(f"\t{src}\t", f"\t{new}\t") + "\n")
PY
}
outline_fixture() { rm -rf "$1" && kernel_fixture "$1" outline prod 7 "$2"; }
gcc_fixture() {	# gcc_fixture <dir> <case to fail on gcc-prod, or "">
	rm -rf "$1" && kernel_fixture "$1" gcc-off off 2 "" && kernel_fixture "$1" gcc-prod prod 9 "$2"
}
if ! outline_fixture "$tmp/outline" ""; then
	ko "bench-prod-report with an out-of-line kernel: the fixture could not be made from $rp"
else
	rc=0
	/usr/bin/python3 scripts/bench-prod-report.py --calls "$tmp/outline" > "$tmp/outline.out" 2>&1 || rc=$?
	rows=$(grep -c '^| [a-z_]* (`' "$tmp/outline/table-outline.md" 2>/dev/null)
	np=$(wc -l < $rp/pieces.txt)
	[ "$rc" = 0 ] && [ "${rows:-0}" = "$np" ] && grep -q '^pick\.outline_off\.sets	' "$tmp/outline/figures.tsv" &&
		grep -q '^boots\.outline	5$' "$tmp/outline/figures.tsv" &&
		ok "bench-prod-report: a fourth, out-of-line kernel gets its table ($rows pieces) and figures" ||
		ko "bench-prod-report with an out-of-line kernel: exit $rc, $rows of $np table rows"
fi
# A case that passed on every =n boot of the committed run.
case=$(awk -F'\t' '$1 ~ /^selftest\.test_cpucg_[a-z_]+\.off$/ { split($2, a, "/"); if (a[1] == a[2] && a[2] > 0) {
	sub(/^selftest\./, "", $1); sub(/\.off$/, "", $1); print $1; exit } }' $rp/figures.tsv)
if [ -n "$case" ] && grep -q "figure: test_cpu $case: prod passed [1-9]" <(zcat $rp/consoles.tsv.gz) &&
	outline_fixture "$tmp/outline" "$case"; then
	rc=0
	/usr/bin/python3 scripts/bench-prod-report.py --calls "$tmp/outline" > "$tmp/outline.out" 2>&1 || rc=$?
	[ "$rc" = 1 ] && grep -q "selftest $case fails on every outline boot" "$tmp/outline.out" &&
		ok "bench-prod-report: $case failing on every outline boot fails the report" ||
		ko "bench-prod-report: $case failing on every outline boot gave exit $rc"
else
	ko "bench-prod-report: no kselftest case of results-prod passed on every =n boot (the fixture needs one)"
fi
np=$(wc -l < $rp/pieces.txt)
if ! gcc_fixture "$tmp/gcc" ""; then
	ko "bench-prod-report with the GCC pair: the fixture could not be made from $rp"
else
	rc=0
	/usr/bin/python3 scripts/bench-prod-report.py --calls "$tmp/gcc" > "$tmp/gcc.out" 2>&1 || rc=$?
	rows=$(grep -c '^| [a-z_]* (`' "$tmp/gcc/table-gcc.md" 2>/dev/null)
	[ "$rc" = 0 ] && [ "${rows:-0}" = "$np" ] && grep -q '^pick\.gcc-prod_gcc-off\.sets	' "$tmp/gcc/figures.tsv" &&
		grep -q '^boots\.gcc-prod	5$' "$tmp/gcc/figures.tsv" && grep -q '^boots\.gcc-off	5$' "$tmp/gcc/figures.tsv" &&
		ok "bench-prod-report: the GCC pair gets its table ($rows pieces) and figures" ||
		ko "bench-prod-report with the GCC pair: exit $rc, ${rows:-0} of $np table rows"
fi
if [ -n "$case" ] && gcc_fixture "$tmp/gcc" "$case"; then
	rc=0
	/usr/bin/python3 scripts/bench-prod-report.py --calls "$tmp/gcc" > "$tmp/gcc.out" 2>&1 || rc=$?
	[ "$rc" = 1 ] && grep -q "selftest $case fails on every gcc-prod boot and passes on every gcc-off boot" "$tmp/gcc.out" &&
		ok "bench-prod-report: $case failing on every GCC =y boot fails the report" ||
		ko "bench-prod-report: $case failing on every GCC =y boot gave exit $rc"
fi
# A boot without its calls (prod's of set 3 gone from results-prod's
# calls): the report fails and names it, rather than pair prod's later
# boots with =n's earlier ones over the sets.
rm -rf "$tmp/nocalls" && cp -r $rp "$tmp/nocalls" &&
	zcat $rp/calls.tsv.gz | grep -v '^prodbench-prod-3	' | gzip > "$tmp/nocalls/calls.tsv.gz"
rc=0
/usr/bin/python3 scripts/bench-prod-report.py --calls "$tmp/nocalls" > "$tmp/nocalls.out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "prodbench-prod-3: no call recorded" "$tmp/nocalls.out" &&
	ok "bench-prod-report: a boot without its calls fails the report" ||
	ko "bench-prod-report: a boot without its calls gave exit $rc"
# A shape variant (make bench-prod's off+<shape>, from =n, every count 3
# more): its table and its figures against =n, and no problem of its own
# (the report's other problems are not this case's); with the calls of
# one set's boot of it gone, the report fails and names that boot.
v=off+one-entity-select
if ! kernel_fixture "$tmp/variant" "$v" off 3 ""; then
	ko "bench-prod-report with a shape variant: the fixture could not be made from $rp"
else
	rc=0
	/usr/bin/python3 scripts/bench-prod-report.py --calls "$tmp/variant" > "$tmp/variant.out" 2>&1 || rc=$?
	rows=$(grep -c "^| [a-z_]* (\`[a-z_]*()\`) | \`$v\` |" "$tmp/variant/table-variants.md" 2>/dev/null)
	mine=$(sed -n '/^PROBLEMS:/,$p' "$tmp/variant.out" | grep -cF "$v")
	[ "${rows:-0}" = "$np" ] && [ "$mine" = 0 ] && [ "$rc" != 2 ] &&
		grep -q "^pick\.$v\.median	" "$tmp/variant/figures.tsv" &&
		grep -q "^pick\.${v}_off\.sets	" "$tmp/variant/figures.tsv" &&
		grep -q "^boots\.$v	5$" "$tmp/variant/figures.tsv" &&
		ok "bench-prod-report: a shape variant gets its table ($rows pieces) and its figures against =n" ||
		ko "bench-prod-report with a shape variant: exit $rc, ${rows:-0} of $np table rows, $mine problems of its own"
	zcat "$tmp/variant/calls.tsv.gz" | grep -v "^prodbench-$v-3	" | gzip > "$tmp/calls.tsv.gz" &&
		mv "$tmp/calls.tsv.gz" "$tmp/variant/calls.tsv.gz"
	rc=0
	/usr/bin/python3 scripts/bench-prod-report.py --calls "$tmp/variant" > "$tmp/variant.out" 2>&1 || rc=$?
	[ "$rc" = 1 ] && grep -q "prodbench-$v-3: no call recorded" "$tmp/variant.out" &&
		ok "bench-prod-report: a shape variant's boot without its calls fails the report" ||
		ko "bench-prod-report: a shape variant's boot without its calls gave exit $rc"
fi

# routes.py: the C twin's pick of make test's kernel (full debug
# information) resolves by its source lines; a line without code, and a
# text found on two lines of its function, fail.
bt=$(bdir test)
if [ -f "$bt/vmlinux" ] && [ -f "$WORK/kernel/sched/fair.c" ]; then
	t='kernel/sched/fair.c SCHED_C(pick_eevdf)'
	{
		echo "pick single 0 testc $t | return curr && curr->on_rq ? curr : __pick_first_entity(cfs_rq);"
		echo "pick buddy 1 testc $t | return cfs_rq->next;"
		echo "pick tested 3 testc $t | if (node && __vruntime_eligible(&e, __node_2_se(node)->vruntime)) {"
		echo "pick heap 4 testc $t | node = cfs_rq->tasks_timeline.rb_root.rb_node;"
		echo "pick heap_steps 24 testc $t | while ((left = node->rb_left) &&"
	} > "$tmp/routes.txt"
	expect 0 "routes.py on make test's C twin of the pick" \
		/usr/bin/python3 scripts/routes.py "$tmp/routes.txt" testc "$WORK" "$bt/vmlinux" pick_eevdf_c
	[ "$(grep -c '^route ' "$tmp/out")" -ge 5 ] && ok "routes.py: an instruction for each of the 5 routes" ||
		ko "routes.py gave $(grep -c '^route ' "$tmp/out") route lines for 5 routes"
	echo "pick none 5 testc $t | * Picking the ->next buddy will affect latency but not fairness." >> "$tmp/routes.txt"
	expect 1 "routes.py with a route on a comment line" \
		/usr/bin/python3 scripts/routes.py "$tmp/routes.txt" testc "$WORK" "$bt/vmlinux" pick_eevdf_c
	grep -q "FAIL: pick none: no instruction" "$tmp/out" && ok "routes.py names the route without code" ||
		ko "routes.py did not name the route without code"
	sed -i '$d' "$tmp/routes.txt"
	echo "pick twice 5 testc $t | return curr;" >> "$tmp/routes.txt"
	expect 1 "routes.py with a text on two lines of its function" \
		/usr/bin/python3 scripts/routes.py "$tmp/routes.txt" testc "$WORK" "$bt/vmlinux" pick_eevdf_c
	# A count is of the line's loads: one read of ->rb_left per node; a
	# line that loads nothing cannot count.
	echo "pick heap_steps 24 testc $t | while ((left = node->rb_left) &&" > "$tmp/routes.txt"
	expect 0 "routes.py: the heap's step by its load" \
		/usr/bin/python3 scripts/routes.py "$tmp/routes.txt" testc "$WORK" "$bt/vmlinux" pick_eevdf_c
	[ "$(grep -c '^route .* 24 pick$' "$tmp/out")" = 1 ] && ok "routes.py: one load counts the heap's step" ||
		ko "routes.py gave $(grep -c '^route .* 24 pick$' "$tmp/out") counting instructions for the heap's step, 1 wanted"
	echo "pick steps 25 testc $t | best = se;" >> "$tmp/routes.txt"
	expect 1 "routes.py: a count on a line without a load" \
		/usr/bin/python3 scripts/routes.py "$tmp/routes.txt" testc "$WORK" "$bt/vmlinux" pick_eevdf_c
else
	sk "no make test kernel ($bt/vmlinux) or overlaid fair.c: the routes.py cases"
fi

# routes.py's definitions: a C function at the start of a line, to the
# first "}" there; a Rust method (indented "fn"), to the "}" at its own
# indentation (a comment after it), not its impl block's; a call, or a
# trait's declaration, is no definition.
got=$(/usr/bin/python3 - <<'PY'
import importlib.util
spec = importlib.util.spec_from_file_location("r", "scripts/routes.py")
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
rs = ["trait T {", "    fn dec(&self);", "}", "impl A {", "    pub fn inc(&self) {", "        if x {", "        }",
      "        self.dec();", "    } // inc", "", "    fn dec(&self) {", "        y();", "    }", "}"]
c = ["static void f(int a)", "{", "\tg(a);", "}", "static void g(int a)", "{", "}"]
print(m.function_span(rs, "inc"), m.function_span(rs, "dec"), m.function_span(c, "f"), m.function_span(c, "g"))
PY
)
want="[(4, 9)] [(10, 13)] [(0, 4)] [(4, 7)]"
[ "$got" = "$want" ] && ok "routes.py finds C functions and Rust methods, not their calls" ||
	ko "routes.py's function spans: got [$got], want [$want]"

# shapes.py: the walk of a one-entity pick written here (offsets as an
# offsets.s gives them): the instructions of each state of curr counted;
# an instruction it does not model, a branch on a value the state does not
# give, and a recorded walk missing an instruction fail.
printf '%s\n' '.ascii "->cfs $0"' '.ascii "->h_nr_queued $8"' '.ascii "->curr $16"' \
	'.ascii "->leftmost $24"' '.ascii "->run_node $32"' '.ascii "->on_rq $40"' \
	'.ascii "->sched_delayed $41"' > "$tmp/off.s"
cat > "$tmp/pick.s" <<'ASM'
	.text
	.globl pick_next_entity
	.type pick_next_entity,@function
pick_next_entity:
	movq 16(%rdi), %rax
	cmpl $1, 8(%rdi)
	jne 2f
	testq %rax, %rax
	je 1f
	cmpb $0, 40(%rax)
	jne 3f
1:	movq 24(%rdi), %rcx
	leaq -32(%rcx), %rax
3:	ret
2:	ud2
	.size pick_next_entity, .-pick_next_entity
ASM
if clang$LLVM_SUFFIX -c -o "$tmp/pick.o" "$tmp/pick.s" 2> "$tmp/out"; then
	for st in curr-runs:8 curr-dequeued:10 no-curr:8; do
		n=$(LLVM_SUFFIX=$LLVM_SUFFIX /usr/bin/python3 scripts/shapes.py "$tmp/pick.o" pick_next_entity "$tmp/off.s" "${st%:*}" 2>&1 | head -n1)
		[ "$n" = "${st#*:}" ] && ok "shapes.py: ${st%:*} runs ${st#*:} instructions" ||
			ko "shapes.py: ${st%:*} gave '$n', ${st#*:} wanted"
	done
	sed -i 's/^1:\tmovq 24(%rdi), %rcx$/1:\tbswapq %rcx/' "$tmp/pick.s"
	clang$LLVM_SUFFIX -c -o "$tmp/pick.o" "$tmp/pick.s"
	expect 1 "shapes.py on an instruction it does not model" env LLVM_SUFFIX="$LLVM_SUFFIX" \
		/usr/bin/python3 scripts/shapes.py "$tmp/pick.o" pick_next_entity "$tmp/off.s" no-curr
	sed -i 's/^1:\tbswapq %rcx$/1:\tmovq 24(%rdi), %rcx/; s/^\tcmpb \$0, 40(%rax)$/\tcmpb $0, 48(%rax)/' "$tmp/pick.s"
	clang$LLVM_SUFFIX -c -o "$tmp/pick.o" "$tmp/pick.s"
	expect 1 "shapes.py on a branch on a field the state does not give" env LLVM_SUFFIX="$LLVM_SUFFIX" \
		/usr/bin/python3 scripts/shapes.py "$tmp/pick.o" pick_next_entity "$tmp/off.s" curr-runs
else
	ko "could not assemble the walk's test function: $(tail -n1 "$tmp/out")"
fi
sh=evaluation/bench/results-shapes
expect 0 "shapes.py --figures on $sh" /usr/bin/python3 scripts/shapes.py --figures "$tmp/fig.tsv" "$sh/paths.txt"
cmp -s "$tmp/fig.tsv" "$sh/figures.tsv" && ok "shapes.py --figures gives $sh/figures.tsv" ||
	ko "shapes.py --figures differs from $sh/figures.tsv"
awk '/^0x/ && !done { done = 1; next } { print }' "$sh/paths.txt" > "$tmp/paths.txt"
expect 1 "shapes.py --figures with an instruction of a walk missing" \
	/usr/bin/python3 scripts/shapes.py --figures "$tmp/fig.tsv" "$tmp/paths.txt"

# ksft-verdict.py: a made-up runner KTAP of the selftests mode (one test,
# kernel_suites.sh), parsed by kunit.py as boot.sh does, passes; it fails
# with a case not ok, a case lost against the plan, a skip the kernel's
# options do not explain, a test the mode does not run, and a test
# missing; test_cpuset_prs.sh's skip passes on 4 CPUs and fails on 8.
if [ -f "$WORK/tools/testing/kunit/kunit.py" ]; then
	ksft_json() {	# ksft_json <ktap file>: its JSON in $tmp/k.json
		rm -f "$tmp/k.json"
		(cd "$WORK" && python3 tools/testing/kunit/kunit.py parse --json="$tmp/k.json" "$1") > /dev/null 2>&1
		[ -s "$tmp/k.json" ]
	}
	ktap() {	# ktap <test> <case lines>...: a runner KTAP of one test
		local t=$1
		shift
		printf 'TAP version 13\n1..1\n# selftests: sched_rust: %s\n    TAP version 13\n    1..%d\n' "$t" 2
		printf '    %s\n' "$@"
		printf 'ok 1 selftests: sched_rust: %s\n' "$t"
	}
	cfgy=$tmp/config.y
	printf 'CONFIG_HOTPLUG_CPU=y\nCONFIG_MEMCG=y\nCONFIG_CPUSETS=y\n' > "$cfgy"
	vcase() {	# vcase <want> <what> <cpus> <tests> <case lines>...
		local want=$1 what=$2 cpus=$3 tests=$4
		shift 4
		ktap kernel_suites.sh "$@" > "$tmp/k.ktap"
		ksft_json "$tmp/k.ktap" || { ko "ksft-verdict: kunit.py parse failed on the KTAP for '$what'"; return; }
		expect "$want" "ksft-verdict.py on a KTAP with $what" /usr/bin/python3 scripts/ksft-verdict.py selftests \
			"$tmp/k.json" "$cfgy" "$cpus" "$tests"
	}
	vcase 0 "its cases passed" 4 kernel_suites.sh "ok 1 prod: test_core" "ok 2 the suites reported as many cases as their plans"
	vcase 1 "a case not ok" 4 kernel_suites.sh "not ok 1 prod: test_core" "ok 2 the suites reported as many cases as their plans"
	vcase 1 "a case lost against the plan" 4 kernel_suites.sh "ok 1 prod: test_core"
	vcase 1 "test_core skipped with the memory controller there" 4 kernel_suites.sh \
		"ok 1 prod: test_core (no CONFIG_MEMCG) # SKIP" "ok 2 the suites reported as many cases as their plans"
	vcase 0 "test_cpuset_prs.sh skipped on 4 CPUs" 4 kernel_suites.sh \
		"ok 1 prod: test_cpuset_prs (needs 8 CPUs, has 4) # SKIP" "ok 2 the suites reported as many cases as their plans"
	vcase 1 "test_cpuset_prs.sh skipped on 8 CPUs" 8 kernel_suites.sh \
		"ok 1 prod: test_cpuset_prs (needs 8 CPUs, has 4) # SKIP" "ok 2 the suites reported as many cases as their plans"
	vcase 1 "the guest naming another list of tests" 4 "kernel_suites.sh stress.sh" \
		"ok 1 prod: test_core" "ok 2 the suites reported as many cases as their plans"
	printf 'TAP version 13\n1..0\n' > "$tmp/k.ktap"
	if ksft_json "$tmp/k.ktap"; then
		expect 1 "ksft-verdict.py on a KTAP without the mode's test" \
			/usr/bin/python3 scripts/ksft-verdict.py selftests "$tmp/k.json" "$cfgy" 4 kernel_suites.sh
	else
		ko "ksft-verdict: kunit.py parse failed on an empty runner KTAP"
	fi
else
	sk "no kernel tree with kunit.py in the cache: ksft-verdict.py's cases"
fi

# cross_checks.sh's judgement of the counts since boot (its since_boot(),
# on made-up counter lines, under dash): the boot test's minimums met, then
# each way to miss them, a check off before the test, a difference since
# boot; without minimums (a user's run) only those two.
awk '/^since_boot\(\) \{/,/^}$/' tests/selftests/sched_rust/cross_checks.sh > "$tmp/since_boot.sh"
cat > "$tmp/since_boot_t.sh" <<'EOS'
. "$1"
problem() { problems="$problems$*;"; }
counters() { eval "echo \$END_$1"; }
t() { problems=; since_boot "$1" "$2"; [ -z "$problems" ] && echo pass || echo fail; }
SHADOW_MIN=50000 LLC_CHECK_MIN=10000 LLC_SHADOW_MIN=20 LLC_CHOICE_MIN=20 TG_SHADOW_MIN=20
END_shadow="1 1441706 0" END_llc_choice="1 30146 472 0 88 30115" END_tg_shadow="1 0 0 c 1730 rust 2017"
END_llc_shadow="1 0 1172 c enqueue 4238 dequeue 4238 pref 2022 epoch 285562 avg 1482 rust enqueue 6294 dequeue 6285 pref 4099 epoch 717071 avg 28721"
t shadow "1 1416266 0"
t shadow "0 1416266 0"
t shadow "1 40000 0"
t llc_shadow "1 0 1100 c enqueue 40 dequeue 40 pref 20 epoch 2850 avg 140 rust enqueue 60 dequeue 60 pref 40 epoch 7000 avg 280"
t llc_shadow "1 0 1100 c enqueue 40 dequeue 40 pref 0 epoch 2850 avg 140 rust enqueue 60 dequeue 60 pref 0 epoch 7000 avg 280"
t llc_shadow "1 0 1100 c enqueue 40 dequeue 40 pref 20 epoch 2850 avg 140 rust enqueue 60 dequeue 60 pref 40 epoch 7000 avg 10"
t llc_choice "1 30000 470 0 88 30000"
t llc_choice "1 30000 0 0 88 30000"
t llc_choice "1 30000 470 0 88 3"
t tg_shadow "1 0 0 c 1700 rust 2000"
t tg_shadow "1 0 0 c 1700 rust 10"
END_shadow="1 1441706 2"; t shadow "1 1416266 0"
unset SHADOW_MIN; END_shadow="1 30 0"; t shadow "1 5 0"
t shadow "0 5 0"
EOS
got=$(dash "$tmp/since_boot_t.sh" "$tmp/since_boot.sh" 2>&1 | tr '\n' ' ')
want="pass fail fail pass fail fail pass fail fail pass fail fail pass fail "
[ "$got" = "$want" ] && ok "cross_checks.sh's counts since boot: 14 made-up cases judged as they must be" ||
	ko "cross_checks.sh's since_boot: got [$got], want [$want]"

# check-unsound's rule that a control differs from its misuse only in the
# lines the misuse marks (its unmarked(), on made-up snippets): marked
# lines changed pass; a change on an unmarked line, a REASON line the
# control keeps, or nothing marked changed, each fails.
awk '/^unmarked\(\) \{/,/^}$/' scripts/check-unsound.sh > "$tmp/unmarked.sh"
printf '%s\n' 'use a::B; //~ REASON' 'pub fn f(x: B) {' '    g(x); //~ ERROR' '}' > "$tmp/m.rs"
printf '%s\n' 'use a::C;' 'pub fn f(x: C) {' '    g(x);' '}' > "$tmp/c1.rs"
printf '%s\n' 'use a::C;' 'pub fn f(x: B) {' '    g(x);' '}' > "$tmp/c2.rs"
printf '%s\n' 'use a::B;' 'pub fn f(x: B) {' '    h(x);' '}' > "$tmp/c3.rs"
printf '%s\n' 'use a::B; //~ REASON' 'pub fn f(x: B) {' '    g(x); //~ ERROR' '}' '// a comment' > "$tmp/c4.rs"
printf '%s\n' 'use a::C;' 'pub fn f(x: B) {' '    g(x);' '}' 'fn h() {}' > "$tmp/c5.rs"
got=$(for c in c1 c2 c3 c4 c5; do
	(. "$tmp/unmarked.sh"; unmarked "$tmp/m.rs" "$tmp/$c.rs" | wc -l)
done | tr '\n' ' ')
printf '%s\n' 'use a::B; //~ REASON' 'pub fn f(x: B) { //~ REASON' '    g(x); //~ ERROR' '}' > "$tmp/m2.rs"
got="$got$(. "$tmp/unmarked.sh"; unmarked "$tmp/m2.rs" "$tmp/c1.rs" | wc -l)"
# c1 changes unmarked line 2; c2 only the REASON line (passes); c3 the
# ERROR line but keeps the REASON line; c4 nothing of code (two problems:
# the REASON line kept, nothing marked changed); c5 c2 plus a line added
# after the last, unmarked one; m2 marks line 2, so c1 passes against it.
want="1 0 1 2 1 0"
[ "$got" = "$want" ] && ok "check-unsound: a control that differs off the marked lines fails (6 made-up pairs)" ||
	ko "check-unsound's unmarked(): got [$got], want [$want]"

# The report's reading of a pick's route word (bits: single 0, buddy 1,
# past_buddy 2, tested 3, heap 4, curr_update 5; the nodes the heap search
# visits from bit 24).
got=$(/usr/bin/python3 - <<'PY'
import importlib.util
spec = importlib.util.spec_from_file_location("r", "scripts/bench-prod-report.py")
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
for w in (0, 1, 2, 4, 4 | 8, 4 | 8 | 16 | 1 << 24, 4 | 8 | 16 | 3 << 24, 4 | 8 | 16 | 9 << 24, 1 | 4 | 8, 16, 8,
          4 | 8 | 16, 4 | 8 | 1 << 24, 4 | 8 | 32, 1 | 4 | 8 | 32, 32):
    print(m.pick_route(w))
print(m.pick_route(4 | 8 | 32, "pick_wakeup"))
PY
)
want="none single buddy protect fast heap:1-2 heap:3-4 heap:5+ single+fast invalid (heap search without the leftmost tested) invalid (the leftmost tested without curr tested) invalid (heap search without a node visited) invalid (nodes visited without a heap search) fast@update single+fast@update invalid (curr updated without a pick) invalid (curr updated by pick_task_fair()'s line in a call of pick_wakeup)"
[ "$(echo $got)" = "$want" ] && ok "bench-prod-report reads the pick's route words, and names the impossible ones" ||
	ko "bench-prod-report's pick routes: got [$(echo $got)], want [$want]"

# The LLC accounting's route word (bits: update 0, entered 1, domain 2).
got=$(/usr/bin/python3 - <<'PY'
import importlib.util
spec = importlib.util.spec_from_file_location("r", "scripts/bench-prod-report.py")
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
for w in (0, 2, 1 | 2 | 4, 1 | 2, 1, 2 | 4):
    print(m.route_of("enqueue", w))
PY
)
want="none return update update@nodomain invalid (the counters updated without the accounting entered) invalid (the domain's count reached without the counters)"
[ "$(echo $got)" = "$want" ] && ok "bench-prod-report reads the LLC accounting's route words, and names the impossible ones" ||
	ko "bench-prod-report's LLC routes: got [$(echo $got)], want [$want]"

# check-stock: the evaluation kernels' stock pick against 7.3's source.
fd=evaluation/kernel/sched/rust/debug/fair_debug.c
if [ -f "$PRISTINE/kernel/sched/fair.c" ]; then
	expect 0 "check-stock on the repository's copy" \
		/usr/bin/python3 scripts/check-stock.py "$PRISTINE/kernel/sched/fair.c" "$fd"
	sed 's/if (cfs_rq->h_nr_queued == 1)/if (cfs_rq->h_nr_queued <= 1)/' "$fd" > "$tmp/fair_debug.c"
	expect 1 "check-stock on a copy whose pick differs by one operator" \
		/usr/bin/python3 scripts/check-stock.py "$PRISTINE/kernel/sched/fair.c" "$tmp/fair_debug.c"
	grep -q 'pick_eevdf_stock() is not 7.3' "$tmp/out" && ok "check-stock names the function" ||
		ko "check-stock did not name pick_eevdf_stock()"
else
	sk "no pristine kernel source: the check-stock cases"
fi

echo "check-harness: $pass passed, $failed failed, $skipped skipped"
[ $failed = 0 ] || exit 1
[ $skipped = 0 ] || exit 4
exit 0
