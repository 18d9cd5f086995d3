#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest's checks of its own workload, as a KTAP test suite (the kernel's
# kselftest KTAP helpers): every claim the workload of tests/boot/init makes
# must be in its lines, not only free of failures.
#   checks.sh <mode> <lines> <kernel .config>
# <lines>: the "sched_rust: " lines the guest printed (the guest's own copy, or a
# console: other lines are ignored). The guest runs it at the end of its
# workload, on the lines it printed and /proc/config.gz, and prints the
# suite on the console; scripts/boot.sh turns it into the sched_rust_guest suite of
# the boot's KTAP, and runs it itself on a saved console (BOOT_CONSOLE: the
# checks again without booting). Environment: KTAP_HELPERS (the helpers'
# path: the guest's /kselftest/kselftest/ktap_helpers.sh by default), the
# thresholds SHADOW_MIN, LLC_CHECK_MIN, LLC_SHADOW_MIN, LLC_CHOICE_MIN and
# TG_SHADOW_MIN. Each case prints its problems as KTAP diagnostics before its
# result; "# figure: " diagnostics are figures for the host's report. Exits
# 0 when every case passed (ktap_finished).

mode=${1:?usage: checks.sh <mode> <lines> <kernel .config>}
con=${2:?usage: checks.sh <mode> <lines> <kernel .config>}
config=${3:?usage: checks.sh <mode> <lines> <kernel .config>}
# shellcheck source=/dev/null # the kernel tree's helpers, found at run time
. "${KTAP_HELPERS:-/kselftest/kselftest/ktap_helpers.sh}"
cfg() { grep -q "^CONFIG_$1=y" "$config"; }

figures=()
# check, cases[], problems[] and ktap_cases, shared with scripts/boot.sh.
# shellcheck source=tests/boot/ktap-cases.sh
. "$(dirname "$0")/ktap-cases.sh"
need() {	# need <what> <grep -E pattern> [min count]: its own case
	local n
	n=$(grep -cE "^sched_rust: ($2)" "$con")
	if [ "$n" -ge "${3:-1}" ]; then
		cases+=("ok	console has: $1")
	else
		problems+=("missing from the console: $1 ($n of ${3:-1} lines '$2')")
		cases+=("not ok	console has: $1	${problems[-1]}")
		_np=$((_np + 1))
	fi
}
sget() { sed -n "s/^sched_rust: $1 //p" "$con"; }

# Every case below that depends on the kernel's options reads them here:
# without them those cases would not run, and pass by their absence.
check "the kernel's configuration read"
grep -q '^CONFIG_' "$config" || problems+=("no CONFIG_ line in $config: the cases of the kernel's options cannot be chosen")
check "no failure reported by the guest"
while IFS= read -r l; do
	problems+=("guest: $l")
done < <(sget FAIL)

# The shadow check (every pick and eligibility test run on both sides) and
# the LLC counter check at every dequeue: in a kernel that has them, their
# lines must be there, switched on, with enough checks behind a verdict.
SHADOW_MIN=${SHADOW_MIN:-50000}
LLC_CHECK_MIN=${LLC_CHECK_MIN:-10000}
shadow=$(sget shadow | tail -n1)
llc_check=$(sget llc_check | tail -n1)
if [ "$mode" = test ] && cfg SCHED_RUST_CFS_SHADOW; then
	check "shadow check: C and Rust agree on every pick"
	read -r s_on s_checks s_div <<< "${shadow:-missing 0 0}"
	if [ -z "$shadow" ]; then
		problems+=("shadow check: no 'sched_rust: shadow' line")
	elif [ "$s_on" != 1 ]; then
		problems+=("shadow check: switched off (on=$s_on)")
	elif [ "$s_checks" -lt "$SHADOW_MIN" ]; then
		problems+=("shadow check: $s_checks picks and eligibility tests cross-checked, fewer than $SHADOW_MIN")
	fi
	[ "${s_div:-0}" != 0 ] && problems+=("shadow check: $s_div divergences between C and Rust")
	check "LLC counter check: no violation"
	read -r l_on l_checks l_viol <<< "${llc_check:-missing 0 0}"
	if [ -z "$llc_check" ]; then
		problems+=("LLC counter check: no 'sched_rust: llc_check' line")
	elif [ "$l_on" != 1 ]; then
		problems+=("LLC counter check: switched off (on=$l_on)")
	elif [ "$l_checks" -lt "$LLC_CHECK_MIN" ]; then
		problems+=("LLC counter check: $l_checks dequeues checked, fewer than $LLC_CHECK_MIN")
	fi
	[ "${l_viol:-0}" != 0 ] &&
		problems+=("LLC counter check: $l_viol dequeues found nr_llc_running/nr_pref_llc_running off")
fi
# The LLC shadow check: every call of an LLC function recomputed by C and
# by Rust from the state it starts from ("<on> <divergences> <skipped> c
# enqueue N dequeue N pref N epoch N avg N rust ..."). The LLC workload
# runs on each side: the accounting, the decay and the scan's average must
# have been compared at least LLC_SHADOW_MIN times (20) with each side
# selected; pref_llc_running (delayed dequeue of a task with a preferred
# LLC) at least once in all.
llc_shadow=$(sget llc_shadow | tail -n1)
if [ "$mode" = test ] && cfg SCHED_RUST_CFS_SHADOW && cfg SCHED_CACHE; then
	check "LLC shadow check: C and Rust compute the same LLC state"
	if [ -z "$llc_shadow" ]; then
		problems+=("LLC shadow check: no 'sched_rust: llc_shadow' line")
	else
		read -r ls_on ls_div _ <<< "$llc_shadow"
		[ "$ls_on" = 1 ] || problems+=("LLC shadow check: switched off (on=$ls_on)")
		[ "$ls_div" = 0 ] || problems+=("LLC shadow check: $ls_div divergences between C and Rust")
		while read -r side op n; do
			[ "$n" -ge "${LLC_SHADOW_MIN:-20}" ] ||
				problems+=("LLC shadow check: $op compared $n times with $side selected, fewer than ${LLC_SHADOW_MIN:-20}")
		done < <(awk '{ for (i = 4; i < NF; i++) { if ($i == "c" || $i == "rust") side = $i
			else if ($(i + 1) ~ /^[0-9]+$/ && $i != "pref") { print side, $i, $(i + 1); i++ } } }' <<< "$llc_shadow")
		pref=$(awk '{ for (i = 4; i < NF; i++) if ($i == "pref") n += $(i + 1); print n + 0 }' <<< "$llc_shadow")
		[ "$pref" -ge 1 ] || problems+=("LLC shadow check: pref_llc_running never compared")
	fi
fi
# The preferred-LLC choice of every scan of task_cache_work() against its
# specification ("<on> <checks> <moves> <divergences> <skipped> <left>"): at
# least LLC_CHOICE_MIN (20) scans checked, at least one whose sums moved the
# preferred CPU, so that both outcomes of the rule were compared, and the
# preferred CPU left in the group compared after at least LLC_CHOICE_MIN.
llc_choice=$(sget llc_choice | tail -n1)
if [ "$mode" = test ] && cfg SCHED_RUST_CFS_SHADOW && cfg SCHED_CACHE; then
	check "preferred-LLC choice: task_cache_work() chooses as its specification"
	read -r lc_on lc_checks lc_moves lc_div lc_skip lc_left _ <<< "${llc_choice:-missing 0 0 0 0 0}"
	if [ -z "$llc_choice" ]; then
		problems+=("preferred-LLC choice: no 'sched_rust: llc_choice' line")
	elif [ "$lc_on" != 1 ]; then
		problems+=("preferred-LLC choice: switched off (on=$lc_on)")
	elif ! [[ "$lc_left" =~ ^[0-9]+$ ]]; then
		problems+=("preferred-LLC choice: no count of the preferred CPUs left compared ('$llc_choice')")
	else
		[ "$lc_div" = 0 ] || problems+=("preferred-LLC choice: $lc_div differences from the specification")
		[ "$lc_checks" -ge "${LLC_CHOICE_MIN:-20}" ] ||
			problems+=("preferred-LLC choice: $lc_checks scans checked, fewer than ${LLC_CHOICE_MIN:-20}")
		[ "$lc_moves" -ge 1 ] || problems+=("preferred-LLC choice: no scan moved the preferred CPU ($lc_checks checked)")
		[ "$lc_left" -ge "${LLC_CHOICE_MIN:-20}" ] ||
			problems+=("preferred-LLC choice: the preferred CPU left compared after $lc_left scans, fewer than ${LLC_CHOICE_MIN:-20} ($lc_skip not checked)")
	fi
fi
# The group state's shadow check: every new group's state made again by C
# and by Rust ("<on> <divergences> <failed> c <groups> rust <groups>"), at
# least TG_SHADOW_MIN (20) groups with each side selected.
tg_shadow=$(sget tg_shadow | tail -n1)
if [ "$mode" = test ] && cfg SCHED_RUST_CFS_SHADOW && cfg FAIR_GROUP_SCHED; then
	check "group state shadow check: C and Rust make the same state"
	read -r ts_on ts_div _ _ ts_c _ ts_rust <<< "${tg_shadow:-missing 0 0 c 0 rust 0}"
	if [ -z "$tg_shadow" ]; then
		problems+=("group state shadow check: no 'sched_rust: tg_shadow' line")
	elif [ "$ts_on" != 1 ]; then
		problems+=("group state shadow check: switched off (on=$ts_on)")
	else
		[ "$ts_div" = 0 ] || problems+=("group state shadow check: $ts_div states differ between C and Rust")
		for s in "c $ts_c" "rust $ts_rust"; do
			read -r side n <<< "$s"
			[ "${n:-0}" -ge "${TG_SHADOW_MIN:-20}" ] ||
				problems+=("group state shadow check: ${n:-0} groups compared with $side selected, fewer than ${TG_SHADOW_MIN:-20}")
		done
	fi
fi
kmemleak=$(sget kmemleak | tail -n1)
if cfg DEBUG_KMEMLEAK || [ -n "$kmemleak" ]; then
	check "kmemleak: no leak through this project's code"
	if { [ "$mode" = test ] || [ "$mode" = stress ]; } && [ -z "$kmemleak" ]; then
		problems+=("kmemleak: the kernel has it, but no 'sched_rust: kmemleak' line (the scan did not run)")
	fi
	if [ -n "$kmemleak" ] && [ "$(awk '{ print $4 }' <<< "$kmemleak")" != 0 ]; then
		problems+=("kmemleak: $(awk '{ print $4 }' <<< "$kmemleak") unreferenced objects allocated through this project's code (sched_rust: kmemleak_report lines in the console)")
	fi
fi

# The production kernel (sched_rust.mode=prod: make, make test's production
# phase): everything its workloads claim (scripts/boot.sh checks its shape
# against the build's .config).
if [ "$mode" = prod ]; then
	check ""
	for ph in kselftests hotplug sched; do
		need "phase $ph on the production kernel" "phase $ph production$"
	done
	need "CPU hotplug under load, every CPU back online" "hotplug cycles [1-9][0-9]* online 0-$(( $(sget cpus | head -n1) - 1 ))$"
	need "hackbench (rt-tests) ran" "run hackbench [0-9.]+ s$"
	need "schedbench wake ran" "run wake [0-9]+$"
	need "stress-ng switch ran" "run switch [0-9.]+ ops/s$"
	check "kernel selftests: cpu-on-off-test took CPUs offline, test_core passed"
	coo=$(sget "stress_suite prod cpu-on-off-test" | head -n1)
	tco=$(sget "stress_suite prod test_core" | head -n1)
	read -r _ coo_rc _ _ _ _ _ _ _ coo_off _ <<< "${coo:-rc none}"
	[ "$coo_rc" = 0 ] || problems+=("cpu-on-off-test: ${coo:-did not run}")
	[ "${coo_off:-0}" -ge 1 ] 2>/dev/null || problems+=("cpu-on-off-test took no CPU offline: it did not run (${coo:-no line})")
	read -r _ tco_rc _ tco_ok _ tco_bad _ <<< "${tco:-rc none}"
	[ "$tco_rc" = 0 ] && [ "${tco_ok:-0}" -ge 1 ] 2>/dev/null && [ "${tco_bad:-1}" = 0 ] ||
		problems+=("test_core: ${tco:-did not run}")
	check "topology: two LLCs"
	nllc=$(sget llc_count | head -n1)
	[ "${nllc:-0}" -ge 2 ] || problems+=("topology: ${nllc:-no} LLCs, the LLC piece needs at least 2")
fi
# The test workload (sched_rust.mode=test).
if [ "$mode" = test ]; then
	check ""
	need "three pieces with a switch file at boot" "piece (tg_state|pick|llc) rust$" 3
	for ph in kselftests sched; do
		need "phase $ph starting on Rust" "phase $ph tg_state=rust pick=rust llc=rust$"
	done
	need "hackbench (rt-tests) ran" "run hackbench [0-9.]+ s$"
	need "schedbench wake ran" "run wake [0-9]+$"
	need "stress-ng switch ran" "run switch [0-9.]+ ops/s$"
	need "route statistics of the picks" "pick_stats enabled|pick_stats .*[1-9]"
	need "test_cpu on Rust" "cgsel_exit rust [0-9]+ cases [1-9]"
	need "test_cpu on C" "cgsel_exit c [0-9]+ cases [1-9]"
	need "test_cpu run by the kselftest runner on Rust" "kselftest rust (not )?ok 1 selftests: cgroup: test_cpu"
	need "test_cpu run by the kselftest runner on C" "kselftest c (not )?ok 1 selftests: cgroup: test_cpu"
	check "topology: two LLCs"
	# Two LLCs and cache-aware scheduling, or the LLC piece is never called.
	nllc=$(sget llc_count | head -n1)
	[ "${nllc:-0}" -ge 2 ] || problems+=("topology: ${nllc:-no} LLCs, the LLC piece needs at least 2")
	# test_cpu on each side: a case that failed every Rust run and passed
	# every C run fails the boot (the guest adds rounds while a case shows
	# that pattern, up to 8: tests/boot/init says what that can detect).
	check "test_cpu: no case fails on Rust only"
	rust_only=$(sget cgsel | awk '
		{ impl = $1; name = $NF; pass[impl, name] += ($2 == "ok"); runs[impl, name]++; names[name] = 1 }
		END {
			for (n in names) {
				pr = pass["rust", n]; rr = runs["rust", n]; pc = pass["c", n]; rc = runs["c", n]
				if (rr && !pr && rc && pc == rc)
					printf "%s (failed %d of %d Rust runs, passed %d of %d C runs) ", n, rr, rr, rc, rc
			}
		}')
	[ -z "$rust_only" ] || problems+=("test_cpu cases failing on Rust only: $rust_only")
fi

# This project's kselftests (tests/selftests/sched_rust/), the test and
# production boots' workloads of the pieces: the runner ran as many tests as
# its list has and exited 0, each test passed with its cases on the console
# ("ksft_sched_rust_case <test> <result>"), none failed. A test skips the
# cases its kernel cannot run: on the test kernel, which has every option
# they use, none may skip; on a production kernel the cgroup tree, the
# group churn and the LLC workload's threads must have run.
if [ "$mode" = test ] || [ "$mode" = prod ]; then
	check "sched_rust kselftests: every test ran and passed"
	plan=$(sget ksft_sched_rust_plan | head -n1)
	kexit=$(sget ksft_sched_rust_exit | head -n1)
	ksft_cases=$(sget ksft_sched_rust_case)
	nok=$(sget ksft_sched_rust | grep -cE '^ok [0-9]+ selftests: sched_rust: [a-z_]+\.sh( # SKIP.*)?$')
	nall=$(sget ksft_sched_rust | grep -cE '^(not )?ok [0-9]+ selftests: sched_rust: ')
	if [ -z "$plan" ] || [ "$plan" = 0 ]; then
		problems+=("sched_rust kselftests: no test listed ('${plan:-no ksft_sched_rust_plan line}')")
	elif [ "$nall" != "$plan" ] || [ "$nok" != "$plan" ]; then
		problems+=("sched_rust kselftests: $nok of $plan passed, $nall reported")
	fi
	[ "$kexit" = 0 ] || problems+=("sched_rust kselftests: the runner exited '${kexit:-no ksft_sched_rust_exit line}'")
	# Every test of the series, with its cases (a test missing from the
	# list would lower the plan with it).
	for t in switch cgroup_tree group_churn llc_occupancy cross_checks; do
		sget ksft_sched_rust | grep -qE "^(not )?ok [0-9]+ selftests: sched_rust: $t\.sh( #.*)?$" ||
			problems+=("sched_rust kselftests: $t.sh did not run")
		grep -qE "^$t (not )?ok [0-9]+ " <<< "$ksft_cases" ||
			problems+=("sched_rust kselftests: $t reported no case")
	done
	while IFS= read -r l; do
		problems+=("sched_rust kselftests: $l")
	done < <(grep -E '^[a-z_]+ not ok ' <<< "$ksft_cases")
	skipped=$(grep -E '# SKIP' <<< "$ksft_cases" | tr '\n' ';')
	if [ "$mode" = test ]; then
		[ -z "$skipped" ] || problems+=("sched_rust kselftests: cases skipped on the test kernel: $skipped")
		n=$(sget ksft_sched_rust | grep -c '# SKIP')
		[ "$n" = 0 ] || problems+=("sched_rust kselftests: tests skipped whole on the test kernel: $n")
		# The tests that run on each side ran on both.
		for t in cgroup_tree group_churn llc_occupancy; do
			for side in rust c; do
				grep -qE "^$t ok [0-9]+ $side: " <<< "$ksft_cases" ||
					problems+=("sched_rust kselftests: $t has no passing case on $side")
			done
		done
	else
		for c in "cgroup_tree 5" "group_churn 2" \
			 "$(cfg SCHED_CACHE && echo llc_occupancy 1)"; do
			[ -n "$c" ] || continue
			read -r t want <<< "$c"
			got=$(grep -E "^$t ok [0-9]+ " <<< "$ksft_cases" | grep -vc '# SKIP')
			[ "$got" -ge "$want" ] ||
				problems+=("sched_rust kselftests: $t ran $got of its cases on the production kernel, fewer than $want")
		done
	fi
fi

# The stress phase (tests/boot/stress.sh): in the stress mode, and in the
# test mode of a kernel built for it. Everything it claims to have done
# must have happened, every tool must have exited 0, and every kernel
# selftest must pass on both sides.
if [ "$mode" = stress ] || { [ "$mode" = test ] && cfg CPUSETS && cfg FAULT_INJECTION; }; then
	check "stress phase: every operation, tool and selftest"
	if ! grep -q '^sched_rust: stress done' "$con"; then
		problems+=("stress: the phase did not complete (no 'sched_rust: stress done')")
	fi
	# A production kernel has one side and no runtime switch to flip.
	sides="rust c"
	ops="hotplug partition flip_tg_state flip_pick flip_llc cgchurn cgmoves features hackbench1 hackbench2"
	if ! cfg SCHED_RUST_CFS_DEBUG; then
		sides=rust
		ops="hotplug partition cgchurn cgmoves features hackbench1 hackbench2"
	fi
	shape=$(sget stress_shape | head -n1)
	[ "$shape" = "$(cfg SCHED_RUST_CFS_DEBUG && echo debug || echo production) sides $sides" ] ||
		problems+=("stress: the guest ran the phase as '${shape:-nothing}' on a kernel $(cfg SCHED_RUST_CFS_DEBUG && echo with || echo without) the debug option")
	for op in $ops; do
		n=$(sget "stress_ops $op" | awk '{ print $1 }' | head -n1)
		[ "${n:-0}" -gt 0 ] || problems+=("stress: $op ran ${n:-no} times")
	done
	for t in cyclictest stress-ng; do
		r=$(sget "stress_tool $t" | head -n1)
		[ "$r" = 0 ] || problems+=("stress: $t exited ${r:-never ran}")
	done
	bad=$(sget 'stress_tool hackbench[12]' | grep -vc '^0$')
	[ "$bad" = 0 ] || problems+=("stress: $bad hackbench runs exited non-zero")
	# fail-nth over mkdir: every sweep failed mkdirs with faults injected;
	# with CONFIG_PERCPU_STATS, the per-CPU allocations in use, counted by
	# the sweeping process itself before and after each sweep, are back to
	# their count (exactly, each sweep on its own: one leaked group state
	# is one allocation; kmemleak, where the kernel has it, names a leaked
	# object). Without it, summed over a side's sweeps, Percpu may
	# not grow by more than 4 pages per CPU (the allocator populates chunk
	# pages and keeps up to PCPU_EMPTY_POP_PAGES_HIGH = 4 empty ones
	# populated: a KASAN run saw +3 pages per CPU on the C side once), where
	# leaking the state of every failed mkdir would grow it by ~60 kB per
	# CPU per sweep; nor slab by 1 MB (without KASAN).
	ncpu=$(sget cpus | head -n1)
	for impl in $sides; do
		nsweeps=$(sget "stress_failnth $impl" | awk '$7 > 0 { n++ } END { print n + 0 }')
		[ "$nsweeps" -ge 3 ] ||
			problems+=("stress: fail-nth over mkdir on $impl: $nsweeps sweeps with failed mkdirs, expected 3")
		# C's clean error: every mkdir that failed returned ENOMEM
		# ("failed F enomem E": fields 7 and 9).
		other=$(sget "stress_failnth $impl" | awk '$7 != $9 { n += $7 - $9 } END { print n + 0 }')
		[ "$other" = 0 ] ||
			problems+=("stress: fail-nth over mkdir on $impl: $other failed mkdirs returned an error other than ENOMEM")
		read -r dp ds <<< "$(sget "stress_leak $impl" | awk '{ p += $3 - $2; s += $6 - $5 } END { print p + 0, s + 0 }')"
		if cfg PERCPU_STATS; then
			# "percpu_allocs <before> <after>": fields 13 and 14.
			read -r nl nb da <<< "$(sget "stress_failnth $impl" | awk '$12 == "percpu_allocs" && $13 ~ /^[0-9]+$/ && $14 ~ /^[0-9]+$/ {
				n++; if ($14 > $13) { b++; d += $14 - $13 } } END { print n + 0, b + 0, d + 0 }')"
			[ "$nl" -ge 3 ] ||
				problems+=("stress: fail-nth over mkdir on $impl: $nl sweeps with a count of per-CPU allocations before and after, expected 3")
			[ "$nb" = 0 ] ||
				problems+=("stress: fail-nth over mkdir on $impl: $nb sweeps left $da more per-CPU allocations in use than before them")
			figures+=("stress: fail-nth on $impl: $nl sweeps, $nb with more per-CPU allocations in use after")
		else
			[ "$dp" -le $((16 * ${ncpu:-4})) ] ||
				problems+=("stress: Percpu grew by $dp kB over the failed mkdirs on $impl")
		fi
		# KASAN's quarantine keeps freed objects in the slab: there,
		# kmemleak (test-kasan) is the judge of leaked objects.
		cfg KASAN || [ "$ds" -le 1024 ] ||
			problems+=("stress: slab grew by $ds kB over the failed mkdirs on $impl")
		figures+=("stress: fail-nth on $impl: Percpu $dp kB, slab $ds kB over its sweeps")
	done
	suites="cpu-on-off-test test_core test_stress"
	[ "${ncpu:-0}" -ge 8 ] 2>/dev/null && suites="$suites test_cpuset_prs"
	for t in $suites; do
		r=$(sget "stress_suite rust $t" | head -n1)
		c=$(sget "stress_suite c $t" | head -n1)
		if [ "$sides" = rust ] && [ -n "$r" ]; then
			# One side: the suite must pass (0), as on both sides below;
			# cpu-on-off-test and test_cpuset_prs.sh print no TAP cases,
			# the first shows that it ran by the CPUs it took offline.
			rrc=$(awk '{ print $2 }' <<< "$r")
			figures+=("stress: selftest $t: rust rc ${r#rc }")
			if [ "$t" = cpu-on-off-test ]; then
				off=$(sed -n 's/.* offlined \([0-9]*\) .*/\1/p' <<< "$r ")
				[ "${off:-0}" -ge 1 ] ||
					problems+=("stress: cpu-on-off-test took ${off:-no} CPU offline: it did not run")
			fi
			case $rrc in
			0) ;;
			4) problems+=("stress: selftest $t skipped (exit 4) on the production kernel") ;;
			*) problems+=("stress: selftest $t failed (rc $rrc) on the production kernel") ;;
			esac
			continue
		fi
		if [ -z "$r" ] || [ -z "$c" ]; then
			problems+=("stress: selftest $t did not run on both sides (rust: '${r:-}', c: '${c:-}')")
			continue
		fi
		figures+=("stress: selftest $t: rust rc ${r#rc }; c rc ${c#rc }")
		# It prints no cases: it ran if it took CPUs offline.
		if [ "$t" = cpu-on-off-test ]; then
			for side in rust c; do
				[ $side = rust ] && x=$r || x=$c
				off=$(sed -n 's/.* offlined \([0-9]*\) .*/\1/p' <<< "$x ")
				[ "${off:-0}" -ge 1 ] ||
					problems+=("stress: cpu-on-off-test took ${off:-no} CPU offline on $side: it did not run")
			done
		fi
		rrc=$(awk '{ print $2 }' <<< "$r")
		crc=$(awk '{ print $2 }' <<< "$c")
		# Exit status 4 is kselftest's skip: the suite tested nothing.
		if [ "$rrc" = 4 ] || [ "$crc" = 4 ]; then
			problems+=("stress: selftest $t skipped (exit 4) on $([ "$rrc" = 4 ] && echo Rust || echo C): its output is in the console")
			continue
		fi
		[ "$rrc" = 0 ] && continue
		# A failure with no case and no failed-test line on either side
		# is a suite that did not run (as when the runner could not
		# write its output), not a failure both sides share.
		if [ -z "$(sget "stress_suite_case rust $t")$(sget "stress_suite_case c $t")" ] &&
			! grep -qE "^sched_rust: stress_suite (rust|c) $t rc [0-9]+ ok [1-9]" "$con"; then
			problems+=("stress: selftest $t failed (rc $rrc) without a single case or failure line: it did not run")
			continue
		fi
		if [ "$rrc" = "$crc" ]; then
			problems+=("stress: selftest $t fails on Rust and on C (rc $rrc): the guest must let it pass")
		else
			problems+=("stress: selftest $t fails on Rust (rc $rrc) and not the same way on C (rc $crc)")
		fi
	done
	if cfg SCHED_RUST_CFS_DEBUG; then
		lc=$(sget stress_llc_counters)
		[ "$lc" = 0 ] || problems+=("stress: LLC counters after the stress phase: ${lc:-missing}, not 0")
	fi
	# What any kernel shows: the cgroups of the phase gone, and, with
	# CONFIG_PERCPU_STATS, the per-CPU allocations in use back to their
	# count after a warm-up (schedbench pcpu: read after every CPU ran it,
	# so that none keeps an exited process's memory context), within 3 per
	# CPU (the per-CPU counters of a process that has not yet been reaped;
	# the state of each leaked group is one allocation, of thousands made);
	# without it, Percpu back to its start within the churn phase's 512 kB
	# (the allocator keeps populated pages and an empty chunk; a leaked
	# group's state is about 1.1 kB per CPU).
	read -r p0 g0 a0 <<< "$(sget stress_before | awk '{ print $2, $4, $6 }')"
	read -r p1 g1 d1 a1 <<< "$(sget stress_after | awk '{ print $2, $4, $6, $8 }')"
	if [ -z "$p0" ] || [ -z "$p1" ]; then
		problems+=("stress: no Percpu/cgroup count before and after the phase")
	else
		[ "$g1" = "$g0" ] && [ "$d1" = 0 ] ||
			problems+=("stress: $g1 cgroups ($d1 dying) after the phase, $g0 before")
		if cfg PERCPU_STATS; then
			if ! [[ "$a0" =~ ^[0-9]+$ && "$a1" =~ ^[0-9]+$ ]]; then
				problems+=("stress: no count of per-CPU allocations before and after the phase (${a0:-none}, ${a1:-none}), with CONFIG_PERCPU_STATS")
			elif [ "$a1" -gt $((a0 + 3 * ${ncpu:-4})) ]; then
				problems+=("stress: $a0 per-CPU allocations in use before the phase, $a1 after its groups went")
			fi
		else
			[ $((p1 - p0)) -le 512 ] ||
				problems+=("stress: Percpu $p0 kB before the phase, $p1 kB after its groups went")
		fi
		figures+=("stress: Percpu $p0 kB before, $p1 kB after; per-CPU allocations $a0 before, $a1 after; cgroups $g0 before, $g1 after")
	fi
	# Shadow and LLC checks must have run through the stress phase too.
	if [ "$mode" = stress ] && cfg SCHED_RUST_CFS_SHADOW; then
		[ -n "$shadow" ] || problems+=("stress: no shadow line")
	fi
fi

# Every selftest run that announced a plan ("1..N") reported N cases:
# fewer means lost output, not a pass (test_cpu's runs, the stress phase's
# suites).
check "selftests: as many cases as their plans"
while read -r l; do
	problems+=("selftest output incomplete: $l")
done < <(sed -nE 's/^sched_rust: (cgsel_exit|stress_suite) /\1 /p' "$con" | awk '{
	for (i = 1; i < NF; i++) v[$i] = $(i + 1)
	if ($1 == "cgsel_exit" && !("plan" in v))
		print $0 " (no plan: test_cpu always prints one)"
	else if ("plan" in v) {
		n = ($1 == "cgsel_exit") ? v["cases"] : v["ok"] + v["not_ok"]
		if (n != v["plan"]) print $0 " (" n " cases of " v["plan"] ")"
	}
	split("", v)
}')
# sched_rust.mode=weights and cpumax (test_cpu's tests, measured): every round
# reported, as many rounds as pairs x sides (x kinds); scripts/boot.sh
# reports the figures.
if [ "$mode" = weights ]; then
	check "weights: every round measured"
	read -r pairs nsides <<< "$(sed -n 's/^sched_rust: weights pairs \([0-9]*\) sides \(.*\) round_seconds.*/\1 \2/p' "$con" | awk '{ print $1, NF - 1 }')"
	if [ -z "$pairs" ]; then
		problems+=("weights: no 'sched_rust: weights pairs' line: the experiment did not start")
	else
		want=$((pairs * nsides))
		got=$(grep -cE '^sched_rust: weights (c|rust) [0-9]+ usage [0-9]+ [0-9]+ [0-9]+ [0-9]+$' "$con")
		[ "$got" = "$want" ] || problems+=("weights: $got rounds measured of $want")
	fi
fi
if [ "$mode" = cpumax ]; then
	check "cpumax: every round measured"
	pairs=$(sed -n 's/^sched_rust: cpucg_max pairs \([0-9]*\) sides .* kinds .* hz .*/\1/p' "$con")
	if [ -z "$pairs" ]; then
		problems+=("cpumax: no 'sched_rust: cpucg_max pairs' line: the experiment did not start")
	else
		want=$((pairs * 2 * 3))
		got=$(grep -cE '^sched_rust: cpucg_max (c|rust) [0-9]+ kind (flat|nested|quota10) quota_us [0-9]+ seconds [0-9]+ wake_us [0-9]+ exit_us [0-9]+ reaped_us [0-9]+ usage_sleep [0-9]+ usage_exit [0-9]+ usage_end [0-9]+ +nr_periods [0-9]+ nr_throttled [0-9]+ throttled_usec [0-9]+$' "$con")
		[ "$got" = "$want" ] || problems+=("cpumax: $got rounds measured of $want")
	fi
fi
check ""

# The suite: the figures first, then per case its problems and its result.
ktap_print_header
ktap_set_plan ${#cases[@]}
for f in "${figures[@]}"; do
	echo "# figure: $f"
done
ktap_cases
ktap_finished
