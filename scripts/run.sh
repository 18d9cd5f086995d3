#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The two top-level jobs, each a sequence of timed stages:
#   run.sh main   set up, fetch, overlay, build the production kernel (the
#                 kernel users run: CONFIG_SCHED_RUST_CFS=y without its debug
#                 option, distribution-like), check it, boot it: workloads
#   run.sh test   set up, fetch, overlay, build the debug test kernel, boot it:
#                 KUnit suites at boot + the cgroup workload, checked; then
#                 the production kernel's short boot
#   run.sh test-kasan  the same with KASAN and kmemleak added
#   run.sh stress  the test kernel under the long stress phase (8 CPUs)
#   run.sh latency the test kernel's scheduling latency, C against Rust
#                 (scripts/latency.sh)
#   run.sh weights the CPU shares of test_cpu's nested groups, C against Rust
#   run.sh cpumax  test_cpu's cpu.max tests timed, C against Rust
# With ARCH=arm64, run.sh test is make test-arm64 (QEMU virt, 4 CPUs in two LLCs).

. "$(dirname "$0")/common.sh"

job=${1:?usage: run.sh main|test|test-kasan|stress|latency|weights|cpumax|build-prod|build-bench|build-size|check-inline}
S=$TOP/scripts
# Every kernel build runs at nice 19: a booted guest is QEMU's single TCG
# thread, and a build that took its CPU would make the guest's own timers
# fire late (make test builds the production kernel during the test
# kernel's boot; CI runs make test-arm64 beside make test). Alone on the
# machine, a niced build is as fast.
build() { nice -n 19 "$S/build.sh" "$@"; }

# The paired evaluation runs' provenance (scripts/provenance.sh) in their
# boot directory beside the console: commit, .config hash, host, load.
. "$S/provenance.sh"
EVAL_MEASURES="kernel/sched/rust rust/kernel patches Kconfig.snippet configs tests/boot tests/selftests/sched_rust evaluation/bench/guest.sh scripts/boot.sh scripts/stats.py"
eval_begin() {	# eval_begin <boot name> <command> [more measured paths]
	local d
	d=$(bootdir "$1")
	mkdir -p "$d"
	provenance_begin "$d/provenance.txt" "$2" \
		"test kernel (the debug option: C and Rust switched at run time)" \
		"$EVAL_MEASURES${3:+ $3}" "$(bdir test)/.config"
}
eval_end() { provenance_end "$(bootdir "$1")/provenance.txt"; }

versions() {
	log "toolchain: $(rustc --version), $(bindgen --version 2>/dev/null), $(clang$LLVM_SUFFIX --version | head -n1), $($QEMU --version | head -n1)"
}

if [ "$KARCH" = arm64 ]; then
	stage -e "set up toolchain (and arm64 guest packages)" "$S/setup-arm64.sh"
else
	stage -e "set up toolchain" "$S/setup.sh"
fi
versions
stage -e "kernel source" "$S/fetch-kernel.sh"
log "kernel source: $(make -s -C "$PRISTINE" kernelversion) ($(cat "$PRISTINE/.debian-version" 2>/dev/null || echo "KSRC=$KSRC"))"
stage "overlay" "$S/overlay.sh"
# Prints the toolchain's own message verbatim when Rust is not available.
stage -e "rustavailable" bash -c ". '$S/common.sh'; kmake -s rustavailable"
case $job in
build-prod|build-bench|build-size)
	stage "build ${job#build-} kernel" build "${job#build-}"
	;;
main)
	# The kernel users run, booted with the workloads (sched_rust.mode=prod).
	a=
	[ "$KARCH" = x86_64 ] || a="$KARCH "
	stage "build ${a}production kernel" build prod
	stage "check inlining" "$S/check-inline.sh" prod
	stage "check fair.o's and the crate's instrumentation" python3 "$S/check-instr.py" "$(bdir prod)" prod
	stage "check the production build: no Rust panic, no evaluation code" "$S/check-prod.sh" prod
	stage "boot ${a}production kernel" "$S/boot.sh" prod sched_rust.mode=prod
	;;
check-inline)
	stage "build production kernel" build prod
	stage "check inlining" "$S/check-inline.sh" prod
	stage "check fair.o's and the crate's instrumentation" python3 "$S/check-instr.py" "$(bdir prod)" prod
	;;
test)
	a=
	[ "$KARCH" = x86_64 ] || a="$KARCH "
	stage "build ${a}test kernel" build test
	stage "check inlining" "$S/check-inline.sh" test
	stage "check fair.o's and the crate's instrumentation" python3 "$S/check-instr.py" "$(bdir test)" test
	# The production phase runs whatever the test kernel's boot found:
	# one make test reports both (its status is the worse of the two).
	trc=0
	# The production kernel is built while the test kernel boots: QEMU's
	# single TCG thread leaves the other CPU idle. At nice 19 as build()
	# (a function, which setsid cannot run), in its own session so that
	# it can be stopped with all its children; its output goes to a file, and the
	# stage below builds again in the foreground (nothing left to do when
	# the early build succeeded, the error on the terminal when it failed).
	ahead_log=$(bdir prod).ahead.log
	setsid nice -n 19 "$S/build.sh" prod > "$ahead_log" 2>&1 9>&- &
	ahead=$!
	trap 'kill -- -$ahead 2>/dev/null' EXIT
	log "building the ${a}production kernel alongside the boot, at nice 19 (log: $ahead_log)"
	# The LLC kselftest's threads get 10 s to be given a preferred LLC
	# (the kselftest's default, 6 s, is enough on x86_64; arm64's guest
	# is about three times slower).
	( stage "boot ${a}test kernel" "$S/boot.sh" test sched_rust.llc_seconds=10 ) || trc=$?
	arc=0
	wait $ahead || arc=$?
	trap - EXIT
	log "the early production build ended with exit $arc"
	# The kernel users run, short: its workloads, churn, hotplug, no splat.
	stage "build ${a}production kernel" build prod
	stage "check fair.o's and the crate's instrumentation" python3 "$S/check-instr.py" "$(bdir prod)" prod
	stage "check the production build: no Rust panic, no evaluation code" "$S/check-prod.sh" prod
	stage "boot ${a}production kernel (short)" "$S/boot.sh" prod sched_rust.mode=prod sched_rust.short=1
	# The series' guard of the pick on the C (the test kernel's boot ran
	# it on the Rust): UML, once per make test (not per architecture).
	[ "$KARCH" != x86_64 ] ||
		stage "KUnit sched_fair on the C (UML, the option off)" \
			nice -n 19 env KUNIT_GUARD=1 "$S/kunit.sh"
	[ $trc = 0 ] || { log "the test kernel's boot failed (exit $trc; its report is above)"; exit $trc; }
	;;
stress)
	# The long stress phase (the kselftest stress.sh) on the test kernel, with
	# 8 CPUs in two LLCs of 4 (test_cpuset_prs.sh needs 8); the KUnit suites
	# are make test's, not repeated here. FLAVOUR=prod: on the production
	# kernel plus fault injection (prod-fault: no debug option, every
	# piece on Rust), Rust alone; on arm64 for 300 s by default.
	a=
	[ "$KARCH" = x86_64 ] || a="$KARCH "
	secs=600
	[ "$KARCH" = x86_64 ] || secs=300
	secs=${STRESS_SECONDS:-$secs}
	case ${FLAVOUR:-test} in
	test)	sf="test" ;;
	prod)	sf=prod-fault ;;
	*)	die "make stress: FLAVOUR=test (default) or FLAVOUR=prod, not ${FLAVOUR}" ;;
	esac
	stage "build ${a}$sf kernel" build $sf
	stage "check fair.o's and the crate's instrumentation" python3 "$S/check-instr.py" "$(bdir $sf)" $sf
	[ $sf = prod-fault ] &&
		stage "check the production build: no Rust panic, no evaluation code" "$S/check-prod.sh" $sf
	BOOT_NAME=stress
	[ "$sf" = test ] || BOOT_NAME=stress-prod
	export SMP=${SMP:-8,sockets=2,cores=4,threads=1} BOOT_NAME
	export BOOT_TIMEOUT=${BOOT_TIMEOUT:-4000}
	stage "stress the ${a}$sf kernel for ${secs}s of guest time" "$S/boot.sh" $sf \
		sched_rust.mode=stress sched_rust.stress_seconds="$secs" kunit.enable=0
	;;
latency)
	stage "build test kernel" build test
	eval_begin "${BOOT_NAME:-latency}" "make bench-latency" "scripts/latency.sh scripts/latency-report.py"
	stage "scheduling latency, C against Rust" "$S/latency.sh"
	eval_end "${BOOT_NAME:-latency}"
	;;
weights)
	# test_cpu's nested weight test measured (evaluation/bench/guest.sh, weights):
	# the share of CPU time of l0 against its sibling group, in paired
	# rounds on C and on Rust.
	stage "build test kernel" build test
	export BOOT_NAME=weights
	eval_begin weights "make bench-weights WEIGHTS_PAIRS=${WEIGHTS_PAIRS:-12}"
	stage "CPU shares of nested groups, C against Rust" "$S/boot.sh" test \
		sched_rust.mode=weights sched_rust.pairs="${WEIGHTS_PAIRS:-12}" kunit.enable=0
	eval_end weights
	;;
cpumax)
	# test_cpu's cpu.max tests measured (evaluation/bench/guest.sh, cpumax): the
	# usage of a 1 ms quota against the test's expectation and against
	# the quota of the process's whole life, in paired rounds.
	stage "build test kernel" build test
	export BOOT_NAME=cpumax
	eval_begin cpumax "make bench-cpumax CPUMAX_PAIRS=${CPUMAX_PAIRS:-20}"
	stage "test_cpu's cpu.max tests timed, C against Rust" "$S/boot.sh" test \
		sched_rust.mode=cpumax sched_rust.pairs="${CPUMAX_PAIRS:-20}" kunit.enable=0
	eval_end cpumax
	;;
test-kasan)
	stage "build test kernel with KASAN and kmemleak" build test-kasan
	stage "check fair.o's and the crate's instrumentation (KASAN kept)" python3 "$S/check-instr.py" "$(bdir test-kasan)" test-kasan
	# KASAN and lockdep together slow the single-threaded TCG guest about
	# 2.5x: the boot test takes longer than the default cap of 2400 s.
	export BOOT_TIMEOUT=${BOOT_TIMEOUT:-4000}
	# (boot.sh raises RCU's stall timeout to 300 s under TCG.)
	stage "boot test kernel with KASAN and kmemleak" "$S/boot.sh" test-kasan
	;;
*)
	die "unknown job $job"
	;;
esac
log "total $(( $(date +%s) - _t0 ))s"
