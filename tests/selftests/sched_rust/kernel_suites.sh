#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043 # local: dash, BusyBox and bash have it (ktap_helpers.sh uses it)
#
# The kernel's own selftests of what the pieces run under, on each side
# (every piece on Rust, then every piece on C; once on a kernel without the
# switch): cpu-hotplug's cpu-on-off-test.sh -a (every hotpluggable CPU
# offline and back), cgroup's test_core (the core of cgroup v2: migration,
# threaded groups, populated and destroyed groups), test_stress.sh
# (test_core again and again for 5 s while the root's cpuset controller is
# toggled and processes fork) and, with 8 CPUs or more, test_cpuset_prs.sh
# (cpuset partitions, whose every switch rebuilds the sched domains and
# with them the LLC arrays). They are installed beside this collection
# ($DIR/../cpu-hotplug, $DIR/../cgroup) and run as the kselftest runner
# runs them (in their directory, output and errors together, the
# runner's KSELFTEST_CPU_ON_OFF_TEST_SH_ARGS, -a by default); each run's
# output goes out as diagnostics as it comes, each line after "# ", so that
# a suite's own KTAP ("ok 1 test_cgcore_...") is no case of this test.
# SUITES, a comma list of cpu-on-off-test, test_core, test_stress and
# test_cpuset_prs (default all), selects them.
#
# A case per suite and side: the suite exited 0. It fails when the suite
# failed (saying whether the other side failed the same way: then the
# machine, not Rust, fails it), skipped (exit 4: it tested nothing), or
# did not run (no case, no failure line); when cpu-on-off-test, which
# prints no case, took no CPU offline (the kernel log says what it did);
# when test_core or test_stress passed no case. Then: every run that
# printed a plan ("1..N") reported N cases (fewer is lost output, not a
# pass). A suite whose kernel option is missing skips its cases (options
# from /proc/config.gz or /boot/config-<release>), as does one that is not
# installed, and test_cpuset_prs.sh on fewer than 8 CPUs.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

ALL="cpu-on-off-test test_core test_stress test_cpuset_prs"
SUITES=${SUITES:-all}
NCPU=$(grep -c ^processor /proc/cpuinfo)
want() { case ",$SUITES," in *,all,*|*,"$1",*) return 0 ;; esac; return 1; }
unknown=
for s in $(echo "$SUITES" | tr , ' '); do
	case " all $ALL " in *" $s "*) ;; *) unknown="$unknown $s" ;; esac
done
sel=
for t in $ALL; do
	want $t && sel="$sel $t"
done
nsel=$(echo $sel | wc -w)
# shellcheck disable=SC2046 # the sides, one word each
set -- $(sides)
SIDES=$*
require $(($# * nsel + 1)) any
[ -z "$unknown" ] || ktap_exit_fail_msg "SUITES=$SUITES: no suite named$unknown (known: $ALL)"

isnum() { case $1 in ''|*[!0-9]*) return 1 ;; esac; }

suite_path() {	# suite_path <suite>
	case $1 in
	cpu-on-off-test) echo "$DIR/../cpu-hotplug/cpu-on-off-test.sh" ;;
	test_stress|test_cpuset_prs) echo "$DIR/../cgroup/$1.sh" ;;
	*) echo "$DIR/../cgroup/$1" ;;
	esac
}
# Why <suite> cannot run here (empty when it can): test_core enables the
# memory controller, test_stress.sh runs it while toggling cpuset,
# test_cpuset_prs.sh needs 8 CPUs.
gate() {	# gate <suite>
	local why=
	case $1 in
	cpu-on-off-test)
		why=$(lacks HOTPLUG_CPU)
		[ -n "$why" ] || [ "$NCPU" -ge 2 ] ||
			why="$NCPU CPU online: nothing to take offline"
		;;
	test_core) why=$(lacks MEMCG) ;;
	test_stress)
		why=$(lacks MEMCG CPUSETS)
		[ -n "$why" ] || [ -x "$DIR/../cgroup/with_stress.sh" ] ||
			why="not installed: no $DIR/../cgroup/with_stress.sh"
		[ -n "$why" ] || [ -x "$DIR/../cgroup/test_core" ] ||
			why="not installed: no $DIR/../cgroup/test_core, which it runs"
		;;
	test_cpuset_prs)
		why=$(lacks CPUSETS)
		[ -n "$why" ] || [ "$NCPU" -ge 8 ] || why="needs 8 CPUs, has $NCPU"
		;;
	esac
	[ -n "$why" ] || [ -x "$(suite_path "$1")" ] ||
		why="not installed: no $(suite_path "$1")"
	echo "$why"
}

tmp=$(mktemp -d) || ktap_exit_fail_msg "mktemp -d failed"
had_cpuset=
cleanup() {
	[ -z "$had_cpuset" ] || grep -qw cpuset $CG/cgroup.subtree_control ||
		echo +cpuset > $CG/cgroup.subtree_control 2>/dev/null
	use rust 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit "$KSFT_FAIL"' INT TERM

# cpu-on-off-test.sh prints no cases: what shows that it ran is the CPUs
# the kernel took offline meanwhile (x86_64 says so; arm64 says when one is
# brought back), counted in the kernel log from a line written there before
# the suite (the log itself is left as it is). If the line cannot be
# written, or does not show (printk_devkmsg=off), the count is the
# difference of the log's counts before and after.
DMESG_RE='CPU [0-9]+ is now offline|CPU[0-9]+: Booted secondary processor'
mark() {	# mark <label>
	MARK="kselftest sched_rust/kernel_suites.sh $$: $1"
	N0=
	# At KERN_DEBUG: in the log, not on the console.
	echo "<7>$MARK" > /dev/kmsg 2>/dev/null && dmesg 2>/dev/null | grep -qF "$MARK" && return
	MARK=
	N0=$(dmesg 2>/dev/null | grep -cE "$DMESG_RE")
}
offlined() {	# offlined: the count since mark ("-" without a kernel log)
	if ! dmesg > /dev/null 2>&1; then
		echo -
	elif [ -n "$MARK" ]; then
		# A mark that has left the log's buffer leaves only later lines.
		dmesg | awk -v m="$MARK" -v re="$DMESG_RE" '
			index($0, m) { n = 0; next }
			$0 ~ re { n++ }
			END { print n + 0 }'
	else
		echo $(($(dmesg | grep -cE "$DMESG_RE") - ${N0:-0}))
	fi
}

# A suite with every piece on <side>, its output as diagnostics as it comes;
# $tmp/<side>.<suite>.out its output, .rc its exit status, .off the CPUs
# taken offline.
run() {	# run <side> <suite>
	local b=$tmp/$1.$2 p args= m
	p=$(suite_path "$2")
	[ "$2" != cpu-on-off-test ] || args=${KSELFTEST_CPU_ON_OFF_TEST_SH_ARGS:--a}
	mark "$1 $2"
	ktap_print_msg "$1: $2${args:+ $args}:"
	# shellcheck disable=SC2086 # the arguments, one word each
	{ (cd "$(dirname "$p")" && exec "./${p##*/}" $args) < /dev/null 2>&1
	  echo $? > "$b.rc"; } | tee "$b.out" | sed 's/^/# /'
	offlined > "$b.off"
	m="$1: $2 exited $(cat "$b.rc"), $(cat "$b.off")"
	ktap_print_msg "$m CPUs reported offline meanwhile"
}

# The selftests set up their own hierarchy: the root's cpuset controller is
# toggled by test_stress.sh (with_stress.sh), which cannot switch it off
# while a child uses it. It is off while they run, as it is back when they
# are done.
grep -qw cpuset $CG/cgroup.subtree_control && had_cpuset=1
[ -z "$had_cpuset" ] || echo -cpuset > $CG/cgroup.subtree_control 2>/dev/null ||
	ktap_print_msg "cannot switch the cpuset controller off in $CG: test_stress.sh may skip"
for t in $sel; do
	eval "why_$(echo $t | tr - _)=\$(gate $t)"
done
for side in $SIDES; do
	wrong=
	use "$side" || wrong="cannot put every piece on $side"
	eval "wrong_$side=\$wrong"
	for t in $sel; do
		eval "why=\$why_$(echo $t | tr - _)"
		[ -n "$why" ] || run "$side" "$t"
	done
done
use rust || ktap_print_msg "cannot put every piece back on Rust"

# A run's counts: its exit status, the cases its KTAP reported (its own
# lines: no runner in between), its plans ("1..N", one per run of test_core
# in test_stress.sh; "plan" is their sum, empty when none was printed;
# "passed" the cases that passed and did not skip).
counts() {	# counts <side> <suite>: sets rc ok passed nok runs plan off
	local b=$tmp/$1.$2
	rc=$(cat "$b.rc" 2>/dev/null)
	ok=$(grep -cE '^ok [0-9]+' "$b.out")
	passed=$(grep -E '^ok [0-9]+' "$b.out" | grep -vc '# SKIP')
	nok=$(grep -cE '^not ok [0-9]+' "$b.out")
	runs=$(grep -cE '^1\.\.[0-9]+$' "$b.out")
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$b.out" |
		awk '{ s += $1 } END { if (NR) print s }')
	off=$(cat "$b.off" 2>/dev/null)
}
label() {	# label <side>
	case $1 in
	rust) echo Rust ;;
	c) echo C ;;
	*) [ "$SHAPE" = none ] && echo "the kernel without CONFIG_SCHED_RUST_CFS" ||
		echo "the production kernel" ;;
	esac
}
judge() {	# judge <side> <suite>
	local side=$1 t=$2 b=$tmp/$1.$2 o orc ran=
	eval "wrong=\$wrong_$side"
	[ -z "$wrong" ] || problem "$wrong"
	counts "$side" "$t"
	# The failed cases: KTAP's "not ok", test_cpuset_prs.sh's "Test ... failed".
	grep -E '^not ok |^Test .* failed' "$b.out" > "$tmp/failures"
	if [ "$ok" -gt 0 ] || [ -s "$tmp/failures" ]; then
		ran=1
	elif [ "$t" = cpu-on-off-test ] && isnum "$off" && [ "$off" -ge 1 ]; then
		ran=1
	fi
	case $rc in
	0) ;;
	4)
		# Exit status 4 is kselftest's skip: the suite tested nothing.
		problem "$t skipped (exit 4) on $(label "$side"):" \
			"it tested nothing (its output is above)"
		;;
	*)
		# A failure with no case and no failed-test line is a suite
		# that did not run, not a failure of the side.
		if [ -z "$ran" ]; then
			problem "$t failed (rc ${rc:-none}) without a single case" \
				"or failure line: it did not run"
		elif [ "$SHAPE" != debug ]; then
			problem "$t failed (rc $rc) on $(label "$side")"
		else
			o=c
			[ "$side" = rust ] || o=rust
			orc=$(cat "$tmp/$o.$t.rc" 2>/dev/null)
			if [ "$orc" = "$rc" ]; then
				problem "$t fails on $(label "$side") and on $(label $o)" \
					"(rc $rc): a failure of both sides," \
					"which the machine must let pass"
			elif [ "$orc" = 0 ]; then
				problem "$t fails on $(label "$side") only" \
					"(rc $rc; rc 0 on $(label $o))"
			else
				problem "$t fails on $(label "$side") (rc $rc)" \
					"and not the same way on $(label $o) (rc ${orc:-none})"
			fi
		fi
		;;
	esac
	while IFS= read -r l; do
		problem "$t: $l"
	done < "$tmp/failures"
	case $t in
	cpu-on-off-test)
		# It prints no cases: it ran if it took CPUs offline.
		if [ "$off" = - ]; then
			problem "cpu-on-off-test: no kernel log (dmesg)" \
				"to count the CPUs it took offline"
		elif ! isnum "$off" || [ "$off" -lt 1 ]; then
			problem "cpu-on-off-test took ${off:-no} CPU offline on $(label "$side"):" \
				"it did not run"
		fi
		;;
	test_core|test_stress)
		[ "$runs" -ge 1 ] || problem "$t printed no KTAP plan (test_core always prints one)"
		# A suite whose every case skipped tested nothing, though it
		# exits 0.
		[ "$passed" -ge 1 ] || problem "$t passed no case ($ok ok, all skipped)"
		;;
	esac
	verdict "$side: $t"
}

for t in $sel; do
	eval "why=\$why_$(echo $t | tr - _)"
	if [ -n "$why" ]; then
		for side in $SIDES; do
			ktap_test_skip "$side: $t ($why)"
		done
		continue
	fi
	fig= sep=
	for side in $SIDES; do
		counts "$side" "$t"
		fig="$fig$sep$side rc ${rc:-none} ok $ok not_ok $nok runs $runs"
		fig="$fig offlined $off plan ${plan:-none}"
		sep="; "
	done
	ktap_print_msg "figure: stress: selftest $t: $fig"
	for side in $SIDES; do
		judge "$side" "$t"
	done
done

# Every run that announced a plan ("1..N") reported N cases: fewer means
# lost output, not a pass.
name="the suites reported as many cases as their plans"
n=0
for side in $SIDES; do
	for t in $sel; do
		[ -f "$tmp/$side.$t.out" ] || continue
		counts "$side" "$t"
		[ -n "$plan" ] || continue
		n=$((n + 1))
		[ $((ok + nok)) = "$plan" ] ||
			problem "$side: $t: $((ok + nok)) cases of a plan of $plan over $runs runs"
	done
done
if [ $n = 0 ]; then
	# Only test_core and test_stress.sh print plans.
	why="SUITES=$SUITES has neither test_core nor test_stress"
	for t in test_stress test_core; do
		want $t || continue
		eval "why=\$why_$t"
		[ -n "$why" ] || why="$t ran without a plan"
		why="$t: $why"
	done
	ktap_test_skip "$name ($why)"
else
	verdict "$name"
fi
ktap_finished
