#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a built kernel in QEMU with two LLCs (2 sockets x 2 cores), run the
# initramfs workload (tests/boot/init), check the console and print a report.
#   scripts/boot.sh <flavour> [extra kernel parameters...]
# Environment: ACCEL (QEMU -accel; default tcg,thread=single: KVM guests
# hang or crash on the project's machines, and multi-threaded TCG has let a
# CPU execute a stale int3 after the kernel flipped a static key, e.g.
# sched_cache_active at boot; "tcg" selects it, "kvm" opts in to KVM),
# BOOT_TIMEOUT (seconds, the boot's hard limit: default 2400, 4000 on arm64),
# BOOT_IDLE_TIMEOUT (seconds without a byte on the console after which the
# boot counts as hung: default 900; 0 disables it), SMP, QEMU_EXTRA (more QEMU
# arguments, e.g. a TCG plugin), BOOT_NAME (output directory
# $CACHE/boot-<name>, default the flavour), BOOT_CONSOLE (check this saved
# console instead of booting; BOOT_RC its QEMU exit status), V=1 (the
# console as it comes; otherwise the guest's tests with their times).
# With sched_rust.mode=shell among the parameters (make shell) the guest is
# interactive: QEMU on the terminal, no timeout and no checks.
# Fails (1) on a timeout or a QEMU exit other than 0, a kernel that did not
# reach the end of the workload, any splat (WARNING, BUG, lockdep, UBSAN,
# KASAN, RCU stall, lockup, hung task, refcount), a KUnit failure or a
# missing suite, and on the kselftests the guest ran (tests/selftests/
# sched_rust/, through the kernel's runner): the runner's KTAP, parsed by
# kunit.py, must hold the mode's tests, none failed, none incomplete, no
# skip the kernel's configuration does not explain (scripts/ksft-verdict.py);
# exits 2 when QEMU could not run the kernel at all. A failure ends with a block to reproduce it and,
# for a splat, the call trace decoded to file:line (splat-decoded.txt).

. "$(dirname "$0")/common.sh"

flavour=${1:?usage: boot.sh <flavour> [kernel parameters]}
shift
B=$(bdir "$flavour")
bz=$B/$KIMAGE
[ -f "$bz" ] || die "no kernel at $bz: run scripts/build.sh $flavour"
ACCEL=${ACCEL:-tcg,thread=single}
SMP=${SMP:-4,sockets=2,cores=2,threads=1}
# A boot's length depends on the host's load and on test_cpu's confirmation
# rounds (two more rounds, about 2 minutes of guest time each on x86_64,
# while a case fails on Rust only, up to 8 rounds): the arm64 test boot
# took 1776 s with four rounds, x86_64's 1079 s with four. A fixed limit
# near those either fails a busy host's boot or waits long for a hung one,
# so the limit follows the boot's own progress: a guest that prints
# nothing for BOOT_IDLE_TIMEOUT seconds is hung (the longest silence of
# a test boot is the arm64 KUnit suites': 265 s of guest time), and
# BOOT_TIMEOUT, twice or more the longest boot measured, is only the cap.
if [ "$KARCH" = arm64 ]; then
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-4000}
else
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-2400}
fi
BOOT_IDLE_TIMEOUT=${BOOT_IDLE_TIMEOUT:-900}
out=$(bootdir "${BOOT_NAME:-$flavour}")
mkdir -p "$out"
con=$out/console.log

# The machine: x86_64's default PC, or arm64's virt with a device tree
# that gives each socket its L2 cache (scripts/virt-dtb.sh): the two LLCs of
# the x86_64 guest, on both architectures.
console=ttyS0
machine=()
if [ "$KARCH" = arm64 ]; then
	console=ttyAMA0
	# shellcheck disable=SC2054 # a QEMU option's commas, not array elements
	machine=(-M virt -cpu max,pauth-impdef=on -dtb "$out/virt.dtb")
fi
cmdline="console=$console panic=-1 sched_verbose $*"
# The hang detectors time wall-clock guest time, and under TCG the guest's
# clock runs at host speed while its code runs many times slower than on
# hardware. The emulated boots take syzbot's published timeouts for kernels
# under emulation (syzkaller dashboard/config/linux/bits/timeouts_emu.yml):
# RCU stalls after 300 s (the most RCU allows), soft lockups after
# watchdog_thresh=165 (330-396 s), hung tasks and workqueue stalls after
# 420 s, ordered so that one hang is reported by one detector, the earliest
# in its chain of causes. The kernel's defaults (21 s, 20 s, 120 s) are for
# hardware: with a 21 s RCU timeout, 2 of 7 KASAN boots and one test boot
# reported a reader preempted inside rcu_read_lock() for 21-26 s, a task of
# the group limited by cpu.max among 128 runnable tasks, while the shadow
# check found every pick equal to C's on the same state. make bench-latency
# measured it on both sides in one boot with the 21 s timeout: with other
# jobs on the host, tasks of the cgroup workload waited up to 40-49 s on C
# as on Rust and 18 stalls were reported in rounds of either side; on a
# quiet host, 1 stall in 52 rounds, in a C round
# (evaluation/bench/results/latency.txt). A task never scheduled again is still
# reported, within the boot timeout. Each applies unless the parameters
# given set it (make bench-latency keeps RCU's default).
case $ACCEL in
tcg*)	for p in rcupdate.rcu_cpu_stall_timeout=300 watchdog_thresh=165 \
		workqueue.watchdog_thresh=420 sysctl.kernel.hung_task_timeout_secs=420; do
		case " $cmdline " in
		*" ${p%%=*}="*) ;;
		*) cmdline="$cmdline $p" ;;
		esac
	done ;;
esac
# sched_rust.mode= of the guest (tests/boot/init): the test assertions apply to
# the "test" workload only (bench.sh boots with sched_rust.mode=bench/icount).
mode='test'
for a in $cmdline; do
	case $a in sched_rust.mode=*) mode=${a#sched_rust.mode=} ;; esac
done
cfg() { grep -q "^CONFIG_$1=y" "$B/.config"; }
# sed expression: a console line without printk's "[  12.345678] " prefix.
untime='s/^\[ *[0-9.]*\] //'

if [ -n "${BOOT_CONSOLE:-}" ]; then
	# Re-check a saved console without booting (the checks themselves, on
	# a console edited to break one of them).
	tr -d '\r' < "$BOOT_CONSOLE" > "$con.check"
	con=$con.check
	rc=${BOOT_RC:-0}
	wall=0
	log "checking $BOOT_CONSOLE (no boot)"
else
	"$TOP/scripts/mkinitramfs.sh" "$out/initramfs.cpio.gz"
	[ "$KARCH" = x86_64 ] || "$TOP/scripts/virt-dtb.sh" "$SMP" "$out/virt.dtb"
	# shellcheck disable=SC2206 # $QEMU and QEMU_EXTRA are words to split
	qemu=($QEMU "${machine[@]}" -accel "$ACCEL" -smp "$SMP" -m 2G -nographic -no-reboot
		-kernel "$bz" -initrd "$out/initramfs.cpio.gz" -append "$cmdline" ${QEMU_EXTRA:-})
	if [ "$mode" = shell ]; then
		log "guest shell on the $flavour kernel (-smp $SMP): Ctrl-A X quits QEMU, poweroff -f ends the guest"
		exec "${qemu[@]}"
	fi
	log "booting $flavour kernel: -smp $SMP, accel $ACCEL, timeout ${BOOT_TIMEOUT}s, ${BOOT_IDLE_TIMEOUT}s without output (console: $con)"
	start=$(date +%s)
	: > "$con"
	# While it runs: the console itself with V=1, else each phase of the
	# guest as it starts, with the host's elapsed time.
	if [ "${V:-0}" != 0 ]; then
		tail -n +1 -F "$con" >&2 2>/dev/null 9>&- &
	else
		# The whole pipeline without fd 9: a tail left behind by a killed
		# boot would otherwise keep the cache's lock.
		{ tail -n +1 -F "$con" 2>/dev/null | sed -u "s/\r//; $untime" | grep --line-buffered -E \
			'^Run /init|^KTAP version 1$|^sched_rust: (ksft_ktap (# )?(not )?(ok [0-9]+ )?selftests: |bench|pcrun|DONE|FAIL)|WARNING:|BUG:|Kernel panic|rcu: INFO' |
			while IFS= read -r l; do
				case $l in
				'Run /init'*) l="/init started (after the built-in KUnit suites)" ;;
				'KTAP version 1') [ -n "${ktap:-}" ] && continue; ktap=1; l="kernel up, KUnit suites running" ;;
				'sched_rust: ksft_ktap # selftests: '*) l="kselftest ${l#sched_rust: ksft_ktap # selftests: } started" ;;
				'sched_rust: ksft_ktap '*) l="kselftest ${l#sched_rust: ksft_ktap }" ;;
				sched_rust:*) l=${l#sched_rust: } ;;
				esac
				log "  guest: $l"
			done; } 9>&- &
	fi
	watcher=$!
	rc=0
	rm -f "$out/idle-timeout"
	timeout --foreground -k 10 "$BOOT_TIMEOUT" "${qemu[@]}" < /dev/null > "$con" 2>&1 &
	qpid=$!
	# The progress watchdog: QEMU stopped when the console has not grown
	# for BOOT_IDLE_TIMEOUT seconds.
	if [ "$BOOT_IDLE_TIMEOUT" -gt 0 ]; then
		(
			last=-1 since=$(date +%s)
			while sleep 5; do
				kill -0 $qpid 2>/dev/null || exit 0
				size=$(stat -c %s "$con" 2>/dev/null || echo 0)
				if [ "$size" != "$last" ]; then
					last=$size since=$(date +%s)
				elif [ $(( $(date +%s) - since )) -ge "$BOOT_IDLE_TIMEOUT" ]; then
					echo "$size" > "$out/idle-timeout"
					kill -TERM $qpid 2>/dev/null
					exit 0
				fi
			done
		) 9>&- &
		idlewatch=$!
	fi
	wait $qpid || rc=$?
	if [ -n "${idlewatch:-}" ]; then
		kill $idlewatch 2>/dev/null || true
		wait $idlewatch 2>/dev/null || true
	fi
	sleep 1
	# The console's path as a pattern: a shape variant's name holds a '+'
	# (off+<shape>), which would otherwise match no tail and leave the
	# pipeline, and this boot, waiting for ever.
	con_re=$(printf '%s\n' "$con" | sed 's/[][\.*^$+?(){}|]/\\&/g')
	pkill -f "^tail -n \+1 -F $con_re\$" 2>/dev/null || true
	# (the pipeline ends with the killed tail's status: not a failure)
	wait $watcher 2>/dev/null || true
	wall=$(( $(date +%s) - start ))
	tr -d '\r' < "$con" > "$con.tmp" && mv "$con.tmp" "$con"
fi

# From here on every check adds to problems[] and the report is always
# printed: a grep that finds nothing must not end the script (errexit).
set +e +o pipefail
# Each check is a KTAP test case of the suite sched_rust_boot (check, cases[],
# problems[]: scripts/ktap-cases.sh). The suite is parsed by kunit.py with
# KUnit's own and the kselftests', into one summary.
# shellcheck source=scripts/ktap-cases.sh
. "$TOP/scripts/ktap-cases.sh"
check "QEMU exited 0 within the timeout"
# (QEMU stopped by the watchdog's SIGTERM exits 0: the file says it was.)
if [ -f "$out/idle-timeout" ] && [ -z "${BOOT_CONSOLE:-}" ]; then
	problems+=("no console output for ${BOOT_IDLE_TIMEOUT}s: the guest is hung (QEMU stopped)")
else
	case $rc in
	0)	;;
	124)	problems+=("timeout after ${BOOT_TIMEOUT}s") ;;
	137)	problems+=("QEMU was killed (exit 137) after the ${BOOT_TIMEOUT}s timeout") ;;
	*)	problems+=("QEMU exited $rc") ;;
	esac
fi
check "the guest reached the end of the workload"
grep -q '^sched_rust: DONE' "$con" || problems+=("the guest did not reach the end of the workload")
check "no splat in the kernel log"
# Splats: warnings, BUGs (sleeping function called from invalid context
# included), lockdep, sanitizers, RCU stalls, lockups, hung tasks, refcount
# saturation, Rust panics.
splat='WARNING:|BUG:|Oops|Kernel panic|general protection fault|possible recursive locking|circular locking|inconsistent lock state|UBSAN:|KASAN:|kernel BUG|Call Trace:|rust_panic|panicked at|rcu: INFO|rcu_.*detected stalls|soft lockup|hard LOCKUP|blocked for more than|refcount_t:|unpaired LLC accounting'
# make bench-latency boots with RCU's default stall timeout: its stalls (and the
# backtraces they print) are the data scripts/latency-report.py counts per
# side, not a failure of the boot; every other splat is.
nodata='^$'
[ "$mode" = latency ] && nodata='rcu: INFO|rcu_.*detected stalls|Call Trace:'
# (grep > /dev/null, not -q: under pipefail, a -q that stops reading early
# could fail the first grep with SIGPIPE and hide the splat.)
if grep -E "$splat" "$con" | grep -vE "$nodata" >/dev/null; then
	problems+=("kernel reported a problem:")
	problems+=("$(grep -nE "$splat" "$con" | grep -vE "$nodata" | head -n5)")
fi
check "no failure reported by the guest's glue"
while IFS= read -r l; do
	problems+=("guest: $l")
done < <(sed -n 's/^sched_rust: FAIL //p' "$con")

# KUnit: the built-in suites ran at boot and printed KTAP on the console;
# kunit.py parses it. The project's suites must all be there, each with
# the number of cases tests/boot/kunit-suites lists.
kunit_summary=
if [ "$mode" = test ] && cfg KUNIT; then
	check "KUnit: every suite ran, with its cases"
	if ! grep -q 'KTAP version' "$con"; then
		problems+=("KUnit: no KTAP output on the console")
	else
		krc=0
		(cd "$WORK" && python3 tools/testing/kunit/kunit.py parse "$con") > "$out/kunit.raw" 2>&1 || krc=$?
		sed 's/\x1b\[[0-9;]*m//g' "$out/kunit.raw" > "$out/kunit.txt"
		kunit_summary=$(grep -E 'Testing complete|Ran [0-9]+ tests' "$out/kunit.txt" | tail -n1 || true)
		[ $krc != 0 ] && problems+=("KUnit: kunit.py parse exited $krc (report: $out/kunit.txt)")
		[ -z "$kunit_summary" ] && problems+=("KUnit: kunit.py printed no totals")
		if grep -qE '\[FAILED\]|\[CRASHED\]|\[NO TESTS RUN\]|failed: [1-9]|crashed: [1-9]|errors: [1-9]' "$out/kunit.txt"; then
			problems+=("KUnit failures or errors:")
			problems+=("$(grep -E '\[FAILED\]|\[CRASHED\]|\[NO TESTS RUN\]|errors:|# .*: (ASSERTION|EXPECTATION) FAILED|Expected|but' "$out/kunit.txt" | head -n 20)")
		fi
		while read -r suite want; do
			case $suite in ''|'#'*) continue ;; esac
			if [ "${suite%\*}" != "$suite" ]; then
				# A name pattern: cases of the doctest suite.
				got=$(grep -cE "\[PASSED\] ${suite%\*}" "$out/kunit.txt" || true)
				[ "$got" = "$want" ] ||
					problems+=("KUnit: $got passing cases named ${suite%\*}*, expected $want")
				continue
			fi
			line=$(grep -E "=+ (\[PASSED\] )?$suite( \(([0-9]+) subtests?\))? =+" "$out/kunit.txt" | head -n1)
			got=$(sed -n 's/.*(\([0-9]*\) subtests\?).*/\1/p' <<< "$line")
			if [ -z "$line" ]; then
				problems+=("KUnit: suite $suite did not run")
			elif [ "${got:-0}" != "$want" ]; then
				problems+=("KUnit: suite $suite ran ${got:-0} cases, expected $want (tests/boot/kunit-suites)")
			fi
		done < "$TOP/tests/boot/kunit-suites"
	fi
fi

# The console's guest lines, where a kernel message cut one in two
# ("sched_rust: stress_tool cyclictest 0[  503.107054] smpboot: ..." and the
# rest of the guest's line on the next) joined again.
guest_lines() {
	awk -v ts='\\[ *[0-9]+\\.[0-9]+\\] ' '
		/^sched_rust: / && match($0, ts) {
			head = substr($0, 1, RSTART - 1)
			print substr($0, RSTART)
			if ((getline nxt) > 0) {
				if (nxt ~ "^" ts || nxt ~ /^sched_rust: /) { print head; print nxt }
				else print head nxt
			} else print head
			next
		}
		{ print }' "$con"
}
# The kselftests the guest ran (tests/selftests/sched_rust/, through the
# kernel's runner): the runner's KTAP as the guest printed it, each test's
# own KTAP nested in it ("# " prefixed there, indented here), parsed by
# kunit.py; its JSON held against the tests of the mode
# (scripts/ksft-verdict.py: the mode's tests, each once, none failed or
# incomplete, no skip the configuration does not explain). The evaluation's
# other modes run none.
ksft_summary=
ksft_mode=$mode
# The short production boot, by the command line the kernel printed (a
# saved console's own, when checked again).
kcmd=$(sed -n 's/.*Kernel command line: //p' "$con" | head -n1)
[ "$mode" = prod ] && [[ " ${kcmd:-$cmdline} " == *" sched_rust.short=1 "* ]] && ksft_mode=prod-short
# The CPUs QEMU was given, which the verdict's skips by CPU count use (not
# the guest's own count, which the topology check holds against it).
want_cpus=${SMP%%,*}
rm -f "$out"/ksft.*
if [[ " test prod stress selftests prodbench " == *" $mode "* ]]; then
	check "kselftests: the mode's tests ran and passed"
	guest_lines | sed -n 's/^sched_rust: ksft_ktap //p' | sed 's/^# /    /' > "$out/ksft.ktap"
	krc=0
	rm -f "$out/ksft.json"
	(cd "$WORK" && python3 tools/testing/kunit/kunit.py parse --json="$out/ksft.json" "$out/ksft.ktap") > "$out/ksft.raw" 2>&1 || krc=$?
	sed 's/\x1b\[[0-9;]*m//g' "$out/ksft.raw" > "$out/ksft.txt"
	ksft_summary=$(grep -E 'Testing complete' "$out/ksft.txt" | tail -n1 || true)
	if [ ! -s "$out/ksft.ktap" ]; then
		problems+=("kselftests: no 'sched_rust: ksft_ktap' line: the runner's KTAP is not on the console")
	elif [ -z "$ksft_summary" ] || [ ! -s "$out/ksft.json" ]; then
		problems+=("kselftests: kunit.py parse exited $krc without totals (report: $out/ksft.txt)")
	else
		vrc=0
		verdict=$(/usr/bin/python3 "$TOP/scripts/ksft-verdict.py" "$ksft_mode" "$out/ksft.json" "$B/.config" \
			"$want_cpus" "$(sed -n 's/^sched_rust: ksft_tests //p' "$con" | head -n1)") || vrc=$?
		while IFS= read -r l; do
			[ -n "$l" ] && problems+=("kselftests: $l")
		done <<< "$verdict"
		[ $vrc = 0 ] || [ -n "$verdict" ] || problems+=("kselftests: scripts/ksft-verdict.py exited $vrc")
	fi
	# kunit.py takes an XFAIL or TODO result for a pass; none is expected.
	while IFS= read -r l; do
		problems+=("kselftests: a result kunit.py counts as passed, not expected here: ${l#"${l%%[! ]*}"}")
	done < <(grep -E '^ *(not )?ok [0-9]+ .*# (XFAIL|TODO)' "$out/ksft.ktap")
	rrc=$(sed -n 's/^sched_rust: ksft_exit //p' "$con" | tail -n1)
	[ "$rrc" = 0 ] || problems+=("kselftests: the runner exited '${rrc:-without a ksft_exit line}'")
fi
# The CPUs QEMU was given, all up; two LLCs, or the LLC piece is never
# called (the machine QEMU emulates).
if [ "$mode" != shell ] && grep -q '^sched_rust: cpus ' "$con"; then
	check "topology: every CPU up"
	ncpu=$(sed -n 's/^sched_rust: cpus //p' "$con" | head -n1)
	[ "$ncpu" = "$want_cpus" ] || problems+=("topology: the guest has ${ncpu:-no} CPUs, QEMU was given $want_cpus (SMP=$SMP)")
fi
if [ "$mode" = test ] || [ "$mode" = prod ]; then
	check "topology: two LLCs"
	nllc=$(sed -n 's/^sched_rust: llc_count //p' "$con" | head -n1)
	[ "${nllc:-0}" -ge 2 ] || problems+=("topology: ${nllc:-no} LLCs, the LLC piece needs at least 2")
fi
# The debug kernel boots with every piece on Rust (its default side).
if [ "$mode" = test ] && cfg SCHED_RUST_CFS_DEBUG; then
	check "the pieces on Rust at boot"
	first=$(sed -n 's/^sched_rust: piece //p' "$con" | head -n3 | sort | tr '\n' ' ')
	[ "$first" = "llc rust pick rust tg_state rust " ] ||
		problems+=("the pieces at boot: '${first:-none}', not every piece on Rust")
fi

# The production kernel (sched_rust.mode=prod: make, make test's production
# phase): the shape the guest read from its /proc/config.gz is the build's.
if [ "$mode" = prod ]; then
	check "production shape: the configuration asked for, no debug files"
	want_rust=$(sed -n 's/^CONFIG_SCHED_RUST_CFS=//p' "$B/.config")
	want_debug=$(sed -n 's/^CONFIG_SCHED_RUST_CFS_DEBUG=//p' "$B/.config")
	shape=$(sed -n 's/^sched_rust: shape //p' "$con" | head -n1)
	if [ -z "$shape" ]; then
		problems+=("production shape: no 'sched_rust: shape' line")
	elif [ "$shape" != "option=$want_rust debug=$want_debug inline=$(sed -n 's/^CONFIG_SCHED_RUST_CFS_INLINE=//p' "$B/.config")" ]; then
		problems+=("production shape: the guest's /proc/config.gz says '$shape', the build's .config differs")
	fi
	[ -z "$want_debug" ] || problems+=("production shape: CONFIG_SCHED_RUST_CFS_DEBUG=$want_debug in $B/.config")
fi
if { [ "$mode" = test ] || [ "$mode" = prod ]; } && cfg SCHED_CACHE; then
	check "kernel log: cache-aware scheduling enabled"
	grep -q 'enabling cache aware scheduling' "$con" ||
		problems+=("no 'enabling cache aware scheduling' in the kernel log: the LLC piece is never called")
fi
# sched_rust.mode=weights and cpumax (test_cpu's tests, measured): every
# round reported, as many rounds as pairs x sides (x kinds).
if [ "$mode" = weights ]; then
	check "weights: every round measured"
	read -r pairs nsides <<< "$(sed -n 's/^sched_rust: weights pairs \([0-9]*\) sides \(.*\) round_seconds.*/\1 \2/p' "$con" | awk '{ print $1, NF - 1 }')"
	if [ -z "$pairs" ]; then
		problems+=("weights: no 'sched_rust: weights pairs' line: the experiment did not start")
	else
		got=$(grep -cE '^sched_rust: weights (c|rust) [0-9]+ usage [0-9]+ [0-9]+ [0-9]+ [0-9]+$' "$con")
		[ "$got" = $((pairs * nsides)) ] || problems+=("weights: $got rounds measured of $((pairs * nsides))")
	fi
fi
if [ "$mode" = cpumax ]; then
	check "cpumax: every round measured"
	pairs=$(sed -n 's/^sched_rust: cpucg_max pairs \([0-9]*\) sides .* kinds .* hz .*/\1/p' "$con")
	if [ -z "$pairs" ]; then
		problems+=("cpumax: no 'sched_rust: cpucg_max pairs' line: the experiment did not start")
	else
		got=$(grep -cE '^sched_rust: cpucg_max (c|rust) [0-9]+ kind (flat|nested|quota10) quota_us [0-9]+ seconds [0-9]+ wake_us [0-9]+ exit_us [0-9]+ reaped_us [0-9]+ usage_sleep [0-9]+ usage_exit [0-9]+ usage_end [0-9]+ +nr_periods [0-9]+ nr_throttled [0-9]+ throttled_usec [0-9]+$' "$con")
		[ "$got" = $((pairs * 2 * 3)) ] || problems+=("cpumax: $got rounds measured of $((pairs * 2 * 3))")
	fi
fi
# sched_rust.mode=weights (test_cpu's nested weight test, measured) and cpumax
# (test_cpucg_max and _nested): the share l0 / (l1 + l2) per side (1 is
# fair), or per kind and side the test's verdict and usage over its
# expectation and where the excess arose; with the paired Rust - C
# differences, their t intervals and equivalence verdicts
# (scripts/paired-report.py).
if [ "$mode" = weights ] && grep -q '^sched_rust: weights pairs ' "$con"; then
	check "weights: the paired report"
	weights_report=$(/usr/bin/python3 "$TOP/scripts/paired-report.py" weights "$con") ||
		problems+=("weights: scripts/paired-report.py failed")
fi
if [ "$mode" = cpumax ] && grep -q '^sched_rust: cpucg_max pairs ' "$con"; then
	check "cpumax: the paired report"
	cpumax_mode_report=$(/usr/bin/python3 "$TOP/scripts/paired-report.py" cpumax "$con") ||
		problems+=("cpumax: scripts/paired-report.py failed")
fi
check "workload report"
guest_fact() { sed -n "s/^sched_rust: $1 //p" "$con" | head -n1; }
# The report goes to report.txt beside the console, then to the terminal.
exec 3>&1 > "$out/report.txt"
report_end() {	# report_end <exit status>
	exec 1>&3 3>&-
	cat "$out/report.txt"
	exit "$1"
}
echo
echo "==== rust-sched-cfs boot report ($flavour kernel) ===="
echo "kernel:      $(guest_fact kernel) (source: Debian linux-source-$KSERIES $(cat "$PRISTINE/.debian-version" 2>/dev/null || echo "from KSRC"))"
echo "toolchain:   $(rustc --version | cut -d' ' -f1-2), $(bindgen --version), $(clang$LLVM_SUFFIX --version | head -n1 | sed 's/ (.*//')"
stall=$(sed -n 's/.*rcupdate.rcu_cpu_stall_timeout=\([0-9]*\).*/\1/p' <<< "$cmdline")
hung=$(sed -n 's/.*hung_task_timeout_secs=\([0-9]*\).*/\1/p' <<< "$cmdline")
echo "qemu:        $($QEMU --version | head -n1 | sed 's/ (.*//'), accel $ACCEL, -smp $SMP, RCU stall timeout ${stall:-21} s, hung task ${hung:-120} s"
echo "topology:    $(guest_fact cpus) CPUs, $(guest_fact llc_count) LLCs ($(guest_fact llc)), llc_balancing/enabled=$(guest_fact llc_balancing_enabled)"
grep -q 'enabling cache aware scheduling' "$con" && echo "             cache-aware scheduling enabled (dmesg)"
if cfg SCHED_RUST_CFS_DEBUG; then
	echo "shape:       evaluation kernel (CONFIG_SCHED_RUST_CFS_DEBUG: C and Rust side by side, switched at run time)"
	echo "pieces:      $(sed -n 's/^sched_rust: piece //p' "$con" | sort -u | tr '\n' ' ')"
elif cfg SCHED_RUST_CFS; then
	echo "shape:       production kernel (CONFIG_SCHED_RUST_CFS=y without the debug option: every piece on Rust$(cfg SCHED_RUST_CFS_INLINE && echo ', inlined into fair.c'))"
else
	echo "shape:       production kernel without the Rust pieces (CONFIG_SCHED_RUST_CFS unset: fair.c's C)"
fi
[ "$mode" = prod ] && echo "             guest: $(guest_fact shape); sched/preempt: $(guest_fact preempt)"
# The kselftests: per test its result and its cases' counts, then its
# cases and the figures it printed ("# figure: ...").
if [ -s "$out/ksft.ktap" ]; then
	echo "kselftests:  $(guest_fact ksft_tests) (runner exit $(guest_fact ksft_exit))"
	[ -n "$ksft_summary" ] && echo "             kunit.py: ${ksft_summary#*] }"
	awk '
		/^    selftests: sched_rust: / { t = $NF; ok = no = sk = 0; n = 0; next }
		/^    (not )?ok [0-9]+ / && t != "" {
			if ($0 ~ /# SKIP/) sk++; else if ($1 == "not") no++; else ok++
			line[++n] = substr($0, 5)
			next
		}
		/^    # figure: / && t != "" { line[++n] = substr($0, 7); next }
		/^(not )?ok [0-9]+ selftests: sched_rust: / {
			printf "  %s %s: %d ok, %d not ok, %d skipped\n", ($1 == "not" ? "FAILED" : ($0 ~ /# SKIP/ ? "skipped" : "passed")), t, ok, no, sk
			for (i = 1; i <= n; i++) print "      " line[i]
			t = ""
		}' "$out/ksft.ktap" | sed 's/^/           /'
fi
[ -n "${weights_report:-}" ] && printf '%s\n' "$weights_report" | sed '1s/^/weights:     /; 2,$s/^/             /'
[ -n "${cpumax_mode_report:-}" ] && printf '%s\n' "$cpumax_mode_report" | sed '1s/^/cpucg_max:   /; 2,$s/^/             /'
check ""
# The host's checks as a KTAP suite (the kernel's kselftest KTAP helpers),
# appended with the kselftests' KTAP to the KUnit suites of the console as
# two more top-level tests, and parsed by kunit.py with them: one summary
# counts every check. boot-checks.ktap is the host's suite, ksft.ktap the
# runner's, boot.ktap the whole.
ktap_suite() {
	(
		. "$WORK/tools/testing/selftests/kselftest/ktap_helpers.sh"
		ktap_print_header
		echo "# Subtest: sched_rust_boot"
		ktap_set_plan ${#cases[@]}
		ktap_cases
		ktap_print_totals
	)
}
if [ "$mode" = test ] && cfg KUNIT && grep -q 'KTAP version' "$con"; then
	ktap_suite > "$out/boot-checks.ktap"
	# KUnit's KTAP without printk's timestamps, from its header to the
	# result of its last top-level test, with two more tests in its plan:
	# the host's checks (sched_rust_boot) and the kselftests
	# (sched_rust_kselftests, the runner's KTAP, its tests as subtests).
	sed "$untime" "$con" | awk -v suite="$out/boot-checks.ktap" -v ksft="$out/ksft.ktap" -v nfail="$(grep -c '^not ok' "$out/boot-checks.ktap")" '
		!on && /^KTAP version 1$/ { on = 1; print; next }
		on && !plan && /^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; print "1.." plan + 2; next }
		on && plan && /^(not )?ok [0-9]+ / { print; split($0, w, " "); n = (w[1] == "not") ? w[3] : w[2]
			if (n + 0 == plan) { done = 1; exit } next }
		on { print }
		END {
			if (!done) exit 1
			while ((getline l < suite) > 0) print "    " l
			print (nfail ? "not ok " : "ok ") plan + 1 " sched_rust_boot"
			# The KTAP of the runner, its header followed by its name.
			while ((getline l < ksft) > 0) {
				print "    " l
				if (!named) { print "    # Subtest: sched_rust_kselftests"; named = 1 }
				if (l ~ /^not ok /) kfail = 1
			}
			print (kfail || !named ? "not ok " : "ok ") plan + 2 " sched_rust_kselftests"
		}' > "$out/boot.ktap" || problems+=("KUnit: no complete KTAP run of the built-in suites on the console")
	if [ -s "$out/boot.ktap" ]; then
		(cd "$WORK" && python3 tools/testing/kunit/kunit.py parse "$out/boot.ktap") 2>&1 |
			sed 's/\x1b\[[0-9;]*m//g' > "$out/kunit-all.txt"
		kunit_summary=$(grep -E 'Testing complete|Ran [0-9]+ tests' "$out/kunit-all.txt" | tail -n1)
		[ -n "$kunit_summary" ] || problems+=("KUnit: kunit.py printed no totals for the suites and the boot checks ($out/kunit-all.txt)")
	fi
fi
[ "$mode" = test ] && echo "kunit:       ${kunit_summary:-no KTAP output} (KUnit suites, the ${#cases[@]} host checks of sched_rust_boot and the kselftests of sched_rust_kselftests)"
echo "boot:        guest uptime at end $(guest_fact uptime) s, wall ${wall}s"
if [ ${#problems[@]} -gt 0 ]; then
	echo "result:      FAIL"
	printf '  %s\n' "${problems[@]}"
	echo "console: $con"
	# A splat's call trace decoded to file:line with the kernel's own
	# script, against this build's vmlinux.
	if grep -qE "$splat" "$con" && [ -f "$B/vmlinux" ]; then
		grep -nE "$splat" "$con" | head -n1 | cut -d: -f1 | {
			read -r first
			sed -n "$((first > 5 ? first - 5 : 1)),$((first + 80))p" "$con"
		} | sed "$untime" |
			LLVM=$LLVM_SUFFIX "$WORK/scripts/decode_stacktrace.sh" "$B/vmlinux" "$WORK" 2>&1 |
			sed "s|$B/\.\./src/work/||g; s|$WORK/||g" > "$out/splat-decoded.txt"
		echo "the first splat, decoded ($out/splat-decoded.txt):"
		grep -E '\([^ ]+:[0-9]+( [^ ]+:[0-9]+)*\)$' "$out/splat-decoded.txt" | head -n 12 | sed 's/^/  /'
	fi
	seed=$(sed -n 's/.*replay with \(sched_rust_parity_seed=[0-9]*\).*/\1/p' "$con" | head -n1)
	args=$(sed "s/^console=$console panic=-1 sched_verbose *//; s/ *rcupdate.rcu_cpu_stall_timeout=300//; s/ *watchdog_thresh=165//; s/ *workqueue.watchdog_thresh=420//; s/ *sysctl.kernel.hung_task_timeout_secs=420//" <<< "$cmdline")
	# The seed of a failed parity case goes into the parameters; the
	# machine and the timeout are this boot's (make stress's 8 CPUs, ...).
	[ -n "$seed" ] && args="${args:+$args }$seed"
	env=
	[ "$KARCH" != x86_64 ] && env="ARCH=$KARCH "
	env="${env}SMP=$SMP BOOT_TIMEOUT=$BOOT_TIMEOUT${ACCEL:+ ACCEL=$ACCEL} "
	echo "reproduce:"
	echo "  the same kernel, the same guest:  ${env}make boot FLAVOUR=$flavour${args:+ BOOT_ARGS=\"$args\"}"
	echo "  the checks alone on this console:  BOOT_CONSOLE=${BOOT_CONSOLE:-$con} BOOT_RC=$rc scripts/boot.sh $flavour${args:+ $args}"
	echo "  kernel $bz, .config $B/.config"
	echo "  qemu: $QEMU -accel $ACCEL -smp $SMP -append \"$cmdline\""
	# QEMU did not run the kernel at all: the environment, not a check.
	if [ -z "${BOOT_CONSOLE:-}" ] && [ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$rc" != 137 ] &&
		! grep -q 'Linux version' "$con"; then
		echo "QEMU exited $rc before the kernel started: the harness or the environment failed"
		report_end 2
	fi
	report_end 1
fi
echo "result:      PASS"
report_end 0
