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
# BOOT_TIMEOUT (seconds, the boot's hard limit: default 2400, 3000 on arm64),
# BOOT_IDLE_TIMEOUT (seconds without a byte on the console after which the
# boot counts as hung: default 900; 0 disables it), SMP, QEMU_EXTRA (more QEMU
# arguments, e.g. a TCG plugin), BOOT_NAME (output directory
# $CACHE/boot-<name>, default the flavour), BOOT_CONSOLE (check this saved console
# instead of booting; BOOT_RC its QEMU exit status), V=1 (the console as it
# comes; otherwise the guest's phases with their times).
# With rsc.mode=shell among the parameters (make shell) the guest is
# interactive: QEMU on the terminal, no timeout and no checks.
# Fails (1) on a timeout or a QEMU exit other than 0, a kernel that did not
# reach the end of the workload, any splat (WARNING, BUG, lockdep, UBSAN,
# KASAN, RCU stall, lockup, hung task, refcount), a KUnit failure or a
# missing suite, and, for the test workload, on any claim of the report
# whose data is missing (see the checks below); exits 2 when QEMU could not
# run the kernel at all. A failure ends with a block to reproduce it and,
# for a splat, the call trace decoded to file:line (splat-decoded.txt).

. "$(dirname "$0")/common.sh"

flavour=${1:?usage: boot.sh <flavour> [kernel parameters]}
shift
B=$(bdir "$flavour")
bz=$B/$KIMAGE
[ -f "$bz" ] || die "no kernel at $bz: run scripts/build.sh $flavour"
ACCEL=${ACCEL:-tcg,thread=single}
SMP=${SMP:-4,sockets=2,cores=2,threads=1}
# A boot's length depends on the host's load: the arm64 test boot took
# 590-610 s alone and 1153 s with two other jobs on the two cores; x86_64
# 450-680 s, 742 s when test_cpu's confirmation rounds ran. A fixed limit
# near those either fails a busy host's boot or waits long for a hung one,
# so the limit follows the boot's own progress: a guest that prints
# nothing for BOOT_IDLE_TIMEOUT seconds is hung (the longest silence of
# a test boot is the arm64 KUnit suites': 265 s of guest time), and
# BOOT_TIMEOUT, twice or more the longest boot measured, is only the cap.
if [ "$KARCH" = arm64 ]; then
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-3000}
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
# check found every pick equal to C's on the same state. make latency
# measured it on both sides in one boot with the 21 s timeout: with other
# jobs on the host, tasks of the cgroup workload waited up to 40-49 s on C
# as on Rust and 18 stalls were reported in rounds of either side; on a
# quiet host, 1 stall in 52 rounds, in a C round
# (tests/bench/results/latency.txt). A task never scheduled again is still
# reported, within the boot timeout. Each applies unless the parameters
# given set it (make latency keeps RCU's default).
case $ACCEL in
tcg*)	for p in rcupdate.rcu_cpu_stall_timeout=300 watchdog_thresh=165 \
		workqueue.watchdog_thresh=420 sysctl.kernel.hung_task_timeout_secs=420; do
		case " $cmdline " in
		*" ${p%%=*}="*) ;;
		*) cmdline="$cmdline $p" ;;
		esac
	done ;;
esac
# rsc.mode= of the guest (tests/boot/init): the test assertions apply to
# the "test" workload only (bench.sh boots with rsc.mode=bench/icount).
mode='test'
for a in $cmdline; do
	case $a in rsc.mode=*) mode=${a#rsc.mode=} ;; esac
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
		tail -n +1 -F "$con" 2>/dev/null | sed -u "s/\r//; $untime" | grep --line-buffered -E \
			'^Run /init|^KTAP version 1$|^RSC: (phase|stress start|stress done|llc_run|run |cgsel_exit|DONE|FAIL)|WARNING:|BUG:|Kernel panic|rcu: INFO' |
			while IFS= read -r l; do
				case $l in
				'Run /init'*) l="/init started (after the built-in KUnit suites)" ;;
				'KTAP version 1') [ -n "${ktap:-}" ] && continue; ktap=1; l="kernel up, KUnit suites running" ;;
				RSC:*) l=${l#RSC: } ;;
				esac
				log "  guest: $l"
			done 9>&- &
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
	pkill -f "^tail -n \+1 -F $con\$" 2>/dev/null || true
	# (the pipeline ends with the killed tail's status: not a failure)
	wait $watcher 2>/dev/null || true
	wall=$(( $(date +%s) - start ))
	tr -d '\r' < "$con" > "$con.tmp" && mv "$con.tmp" "$con"
fi

# From here on every check adds to problems[] and the report is always
# printed: a grep that finds nothing must not end the script (errexit).
set +e +o pipefail
problems=()
# Each check is a KTAP test case of the suite rsc_boot: check <name> opens
# one (and closes the previous one); it passes when it added no problem.
# need (below) records its own case. The suite is parsed by kunit.py with
# KUnit's own, into one summary.
cases=()	# "ok<TAB>name" or "not ok<TAB>name<TAB>problem<US>problem..."
_case= _np=0
check() {
	local n
	if [ -n "$_case" ]; then
		n=$(( ${#problems[@]} - _np ))
		if [ $n = 0 ]; then
			cases+=("ok	$_case")
		else
			cases+=("not ok	$_case	$(printf '%s\x1f' "${problems[@]:_np}")")
		fi
	fi
	_case=$1 _np=${#problems[@]}
}
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
grep -q '^RSC: DONE' "$con" || problems+=("the guest did not reach the end of the workload")
check "no splat in the kernel log"
# Splats: warnings, BUGs (sleeping function called from invalid context
# included), lockdep, sanitizers, RCU stalls, lockups, hung tasks, refcount
# saturation, Rust panics.
splat='WARNING:|BUG:|Oops|Kernel panic|general protection fault|possible recursive locking|circular locking|inconsistent lock state|UBSAN:|KASAN:|kernel BUG|Call Trace:|rust_panic|panicked at|rcu: INFO|rcu_.*detected stalls|soft lockup|hard LOCKUP|blocked for more than|refcount_t:|unpaired LLC accounting'
# make latency boots with RCU's default stall timeout: its stalls (and the
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
check "no failure reported by the guest"
while IFS= read -r l; do
	problems+=("guest: $l")
done < <(sed -n 's/^RSC: FAIL //p' "$con")

# The shadow check (every pick and eligibility test run on both sides) and
# the LLC counter check at every dequeue: in a kernel that has them, their
# lines must be there, switched on, with enough checks behind a verdict.
SHADOW_MIN=${SHADOW_MIN:-50000}
LLC_CHECK_MIN=${LLC_CHECK_MIN:-10000}
shadow=$(sed -n 's/^RSC: shadow //p' "$con" | tail -n1)
llc_check=$(sed -n 's/^RSC: llc_check //p' "$con" | tail -n1)
if [ "$mode" = test ] && cfg SCHED_RUST_CFS_SHADOW; then
	check "shadow check: C and Rust agree on every pick"
	read -r s_on s_checks s_div <<< "${shadow:-missing 0 0}"
	if [ -z "$shadow" ]; then
		problems+=("shadow check: no 'RSC: shadow' line")
	elif [ "$s_on" != 1 ]; then
		problems+=("shadow check: switched off (on=$s_on)")
	elif [ "$s_checks" -lt "$SHADOW_MIN" ]; then
		problems+=("shadow check: $s_checks picks and eligibility tests cross-checked, fewer than $SHADOW_MIN")
	fi
	[ "${s_div:-0}" != 0 ] && problems+=("shadow check: $s_div divergences between C and Rust")
	check "LLC counter check: no violation"
	read -r l_on l_checks l_viol <<< "${llc_check:-missing 0 0}"
	if [ -z "$llc_check" ]; then
		problems+=("LLC counter check: no 'RSC: llc_check' line")
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
llc_shadow=$(sed -n 's/^RSC: llc_shadow //p' "$con" | tail -n1)
if [ "$mode" = test ] && cfg SCHED_RUST_CFS_SHADOW && cfg SCHED_CACHE; then
	check "LLC shadow check: C and Rust compute the same LLC state"
	if [ -z "$llc_shadow" ]; then
		problems+=("LLC shadow check: no 'RSC: llc_shadow' line")
	else
		read -r ls_on ls_div ls_skip _ <<< "$llc_shadow"
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
# specification ("<on> <checks> <moves> <divergences> <skipped>"): at least
# LLC_CHOICE_MIN (20) scans checked, and at least one whose sums moved the
# preferred CPU, so that both outcomes of the rule were compared.
llc_choice=$(sed -n 's/^RSC: llc_choice //p' "$con" | tail -n1)
if [ "$mode" = test ] && cfg SCHED_RUST_CFS_SHADOW && cfg SCHED_CACHE; then
	check "preferred-LLC choice: task_cache_work() chooses as its specification"
	read -r lc_on lc_checks lc_moves lc_div lc_skip <<< "${llc_choice:-missing 0 0 0 0}"
	if [ -z "$llc_choice" ]; then
		problems+=("preferred-LLC choice: no 'RSC: llc_choice' line")
	elif [ "$lc_on" != 1 ]; then
		problems+=("preferred-LLC choice: switched off (on=$lc_on)")
	else
		[ "$lc_div" = 0 ] || problems+=("preferred-LLC choice: $lc_div differences from the specification")
		[ "$lc_checks" -ge "${LLC_CHOICE_MIN:-20}" ] ||
			problems+=("preferred-LLC choice: $lc_checks scans checked, fewer than ${LLC_CHOICE_MIN:-20}")
		[ "$lc_moves" -ge 1 ] || problems+=("preferred-LLC choice: no scan moved the preferred CPU ($lc_checks checked)")
	fi
fi
# The group state's shadow check: every new group's state made again by C
# and by Rust ("<on> <divergences> <failed> c <groups> rust <groups>"), at
# least TG_SHADOW_MIN (20) groups with each side selected.
tg_shadow=$(sed -n 's/^RSC: tg_shadow //p' "$con" | tail -n1)
if [ "$mode" = test ] && cfg SCHED_RUST_CFS_SHADOW && cfg FAIR_GROUP_SCHED; then
	check "group state shadow check: C and Rust make the same state"
	read -r ts_on ts_div ts_fail _ ts_c _ ts_rust <<< "${tg_shadow:-missing 0 0 c 0 rust 0}"
	if [ -z "$tg_shadow" ]; then
		problems+=("group state shadow check: no 'RSC: tg_shadow' line")
	elif [ "$ts_on" != 1 ]; then
		problems+=("group state shadow check: switched off (on=$ts_on)")
	else
		[ "$ts_div" = 0 ] || problems+=("group state shadow check: $ts_div states differ between C and Rust")
		for s in "c $ts_c" "rust $ts_rust"; do
			set -- $s
			[ "${2:-0}" -ge "${TG_SHADOW_MIN:-20}" ] ||
				problems+=("group state shadow check: ${2:-0} groups compared with $1 selected, fewer than ${TG_SHADOW_MIN:-20}")
		done
	fi
fi
kmemleak=$(sed -n 's/^RSC: kmemleak //p' "$con" | tail -n1)
cfg DEBUG_KMEMLEAK && check "kmemleak: no leak through this project's code"
if cfg DEBUG_KMEMLEAK && [ "$mode" = test ] && [ -z "$kmemleak" ]; then
	problems+=("kmemleak: the kernel has it, but no 'RSC: kmemleak' line (the scan did not run)")
fi
if [ -n "$kmemleak" ] && [ "$(echo "$kmemleak" | awk '{ print $4 }')" != 0 ]; then
	problems+=("kmemleak: $(echo "$kmemleak" | awk '{ print $4 }') unreferenced objects allocated through this project's code (RSC: kmemleak_report lines in the console)")
fi

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
			line=$(grep -E "=+ (\[PASSED\] )?$suite( \(([0-9]+) subtests\))? =+" "$out/kunit.txt" | head -n1)
			got=$(sed -n 's/.*(\([0-9]*\) subtests).*/\1/p' <<< "$line")
			if [ -z "$line" ]; then
				problems+=("KUnit: suite $suite did not run")
			elif [ "${got:-0}" != "$want" ]; then
				problems+=("KUnit: suite $suite ran ${got:-0} cases, expected $want (tests/boot/kunit-suites)")
			fi
		done < "$TOP/tests/boot/kunit-suites"
	fi
fi

check ""
need() {	# need <what> <grep -E pattern> [min count]: its own case
	local n
	n=$(grep -cE "^RSC: ($2)" "$con" || true)
	if [ "$n" -ge "${3:-1}" ]; then
		cases+=("ok	console has: $1")
	else
		problems+=("missing from the console: $1 ($n of ${3:-1} lines '$2')")
		cases+=("not ok	console has: $1	${problems[-1]}")
		_np=$((_np + 1))
	fi
}
# cpu.max: the limited group was throttled and its usage kept to the
# quota: at most 25 % + 2 periods over quota/period x elapsed time, at
# least half of it (its 16 busy tasks want far more than the quota).
cpumax_check() {	# cpumax_check <suffix>...: '' the Rust (or only) side, _c C's
	local sfx cm verdict
	for sfx in "$@"; do
		cm=$(sed -n "s/^RSC: cpumax$sfx g1 //p" "$con" | head -n1)
		if [ -z "$cm" ]; then
			problems+=("cpu.max: no 'RSC: cpumax$sfx' line")
			continue
		fi
		verdict=$(awk '{
			for (i = 1; i < NF; i++) v[$i] = $(i + 1)
			quota = $4; period = $5; el = v["elapsed_ms"] * 1000
			allowed = quota / period * el
			hi = allowed * 1.25 + 2 * quota; lo = allowed * 0.5
			if (v["nr_throttled"] + 0 == 0) { print "not throttled (nr_throttled 0)"; exit }
			if (v["usage_usec"] > hi || v["usage_usec"] < lo) {
				printf "usage %d us outside [%d, %d] us (quota %d/%d us over %d ms)\n", v["usage_usec"], lo, hi, quota, period, el / 1000
				exit
			}
			printf "ok %d throttled periods, usage %.2f of quota x time\n", v["nr_throttled"], v["usage_usec"] / allowed
		}' <<< "$cm")
		case $verdict in
		ok*)	if [ -n "$sfx" ]; then
				cm_c=${verdict#ok }
			else
				cpumax_report="${verdict#ok }${cm_c:+; on C: $cm_c}"
			fi ;;
		*) problems+=("cpu.max of the limited group${sfx:+ on C}: $verdict") ;;
		esac
	done
}
# The production kernel (rsc.mode=prod: make, make test's production
# phase): its shape, then everything its workloads claim.
if [ "$mode" = prod ]; then
	check "production shape: the configuration asked for, no debug files"
	want_rust=$(sed -n 's/^CONFIG_SCHED_RUST_CFS=//p' "$B/.config")
	want_debug=$(sed -n 's/^CONFIG_SCHED_RUST_CFS_DEBUG=//p' "$B/.config")
	shape=$(sed -n 's/^RSC: shape //p' "$con" | head -n1)
	if [ -z "$shape" ]; then
		problems+=("production shape: no 'RSC: shape' line")
	elif [ "$shape" != "rust_cfs=$want_rust debug=$want_debug inline=$(sed -n 's/^CONFIG_SCHED_RUST_CFS_INLINE=//p' "$B/.config")" ]; then
		problems+=("production shape: the guest's /proc/config.gz says '$shape', the build's .config differs")
	fi
	[ -z "$want_debug" ] || problems+=("production shape: CONFIG_SCHED_RUST_CFS_DEBUG=$want_debug in $B/.config")
	check ""
	for ph in cgroup churn llc hotplug sched; do
		need "phase $ph on the production kernel" "phase $ph production$"
	done
	need "cgroup tree built" "cgroups [0-9]+ leaves [1-9]"
	need "cgroup teardown" "teardown done"
	need "sched/debug read under load" "sched_debug reads [0-9]+ task_lines [1-9]"
	need "group churn (a warm-up and the rounds)" "churn prod cgtree groups [1-9]" 2
	need "Percpu before and after the churn" "percpu_kb after_warmup [0-9]+ after_prod_rounds [0-9]+"
	need "LLC workload run" "llc_run prod threads [0-9]+"
	need "CPU hotplug under load, every CPU back online" "hotplug cycles [1-9][0-9]* online 0-$(( $(sed -n 's/^RSC: cpus //p' "$con" | head -n1) - 1 ))$"
	need "hackbench (rt-tests) ran" "run hackbench [0-9.]+ s$"
	need "schedbench wake ran" "run wake [0-9]+$"
	need "stress-ng switch ran" "run switch [0-9.]+ ops/s$"
	check "kernel selftests: cpu-on-off-test took CPUs offline, test_core passed"
	coo=$(sed -n 's/^RSC: stress_suite prod cpu-on-off-test //p' "$con" | head -n1)
	tco=$(sed -n 's/^RSC: stress_suite prod test_core //p' "$con" | head -n1)
	read -r _ coo_rc _ _ _ _ _ _ _ coo_off _ <<< "${coo:-rc none}"
	[ "$coo_rc" = 0 ] || problems+=("cpu-on-off-test: ${coo:-did not run}")
	[ "${coo_off:-0}" -ge 1 ] 2>/dev/null || problems+=("cpu-on-off-test took no CPU offline: it did not run (${coo:-no line})")
	read -r _ tco_rc _ tco_ok _ tco_bad _ <<< "${tco:-rc none}"
	[ "$tco_rc" = 0 ] && [ "${tco_ok:-0}" -ge 1 ] 2>/dev/null && [ "${tco_bad:-1}" = 0 ] ||
		problems+=("test_core: ${tco:-did not run}")
	check "cpu.max: the limited group throttled to its quota"
	cpumax_check ''
	check "topology: two LLCs, cache-aware scheduling on"
	nllc=$(sed -n 's/^RSC: llc_count //p' "$con" | head -n1)
	[ "${nllc:-0}" -ge 2 ] || problems+=("topology: ${nllc:-no} LLCs, the LLC piece needs at least 2")
	cfg SCHED_CACHE && ! grep -q 'enabling cache aware scheduling' "$con" &&
		problems+=("no 'enabling cache aware scheduling' in the kernel log")
fi
# The guest's workload (tests/boot/init, rsc.mode=test): everything it
# claims must be in the console, not only free of failures.
if [ "$mode" = test ]; then
	need "three pieces with a switch file at boot" "piece (tg_state|pick|llc) rust$" 3
	for ph in cgroup churn llc sched; do
		need "phase $ph starting on Rust" "phase $ph tg_state=rust pick=rust llc=rust$"
	done
	need "cgroup tree built" "cgroups [0-9]+ leaves [1-9]"
	need "cgroup teardown" "teardown done"
	need "cgroup phase on C" "phase cgroup_c tg_state=c pick=c llc=c$"
	need "cgroup teardown after the phase on C" "teardown_c done"
	need "sched/debug read under load on C" "sched_debug_c reads"
	need "group churn (1 + rounds on Rust, 1 on C)" "churn (rust|c) cgtree groups [1-9]" 3
	need "group churn on C" "churn c cgtree groups [1-9]"
	need "Percpu before and after the churn" "percpu_kb after_warmup [0-9]+ after_rust_rounds [0-9]+"
	need "hackbench (rt-tests) ran" "run hackbench [0-9.]+ s$"
	need "schedbench wake ran" "run wake [0-9]+$"
	need "stress-ng switch ran" "run switch [0-9.]+ ops/s$"
	need "sched/debug read under load" "sched_debug reads"
	need "route statistics of the picks" "pick_stats enabled|pick_stats .*[1-9]"
	need "test_cpu on Rust" "cgsel_exit rust [0-9]+ cases [1-9]"
	need "test_cpu on C" "cgsel_exit c [0-9]+ cases [1-9]"
	need "test_cpu run by the kselftest runner on Rust" "kselftest rust (not )?ok 1 selftests: cgroup: test_cpu"
	need "test_cpu run by the kselftest runner on C" "kselftest c (not )?ok 1 selftests: cgroup: test_cpu"
	check "topology: two LLCs, cache-aware scheduling, both LLC sides exercised"
	# Two LLCs and cache-aware scheduling, or the LLC piece is never called.
	nllc=$(sed -n 's/^RSC: llc_count //p' "$con" | head -n1)
	[ "${nllc:-0}" -ge 2 ] || problems+=("topology: ${nllc:-no} LLCs, the LLC piece needs at least 2")
	if cfg SCHED_CACHE; then
		grep -q 'enabling cache aware scheduling' "$con" ||
			problems+=("no 'enabling cache aware scheduling' in the kernel log")
		for impl in rust c; do
			l=$(sed -n "s/^RSC: llc $impl threads_with_pref //p" "$con" | head -n1)
			[ "${l%% *}" -gt 0 ] 2>/dev/null ||
				problems+=("LLC piece on $impl: no thread got a preferred LLC ('${l:-no llc $impl line}'): its counters were never exercised")
			need "LLC workload run on $impl" "llc_run $impl threads [0-9]+"
		done
		need "LLC counters after the workloads" "llc_counters_after [0-9]+"
	fi
	check "cpu.max: the limited group throttled to its quota, on Rust and on C"
	cpumax_check _c ''
fi

# The stress phase (tests/boot/stress.sh): in the stress mode, and in the
# test mode of a kernel built for it. Everything it claims to have done
# must have happened, every tool must have exited 0, and every kernel
# selftest must pass on both sides.
stress_report=()
if [ "$mode" = stress ] || { [ "$mode" = test ] && cfg CPUSETS && cfg FAULT_INJECTION; }; then
	check "stress phase: every operation, tool and selftest"
	sget() { sed -n "s/^RSC: $1 //p" "$con"; }
	if ! grep -q '^RSC: stress done' "$con"; then
		problems+=("stress: the phase did not complete (no 'RSC: stress done')")
	fi
	for op in hotplug partition flip_tg_state flip_pick flip_llc cgchurn cgmoves features hackbench1 hackbench2; do
		n=$(sget "stress_ops $op" | awk '{ print $1 }' | head -n1)
		[ "${n:-0}" -gt 0 ] || problems+=("stress: $op ran ${n:-no} times")
	done
	for t in cyclictest stress-ng; do
		r=$(sget "stress_tool $t" | head -n1)
		[ "$r" = 0 ] || problems+=("stress: $t exited ${r:-never ran}")
	done
	bad=$(sget 'stress_tool hackbench[12]' | grep -vc '^0$' || true)
	[ "$bad" = 0 ] || problems+=("stress: $bad hackbench runs exited non-zero")
	# fail-nth over mkdir: every sweep failed mkdirs with faults injected;
	# summed over a side's sweeps, Percpu may not grow by more than 4 pages
	# per CPU (the allocator populates chunk pages and keeps up to
	# PCPU_EMPTY_POP_PAGES_HIGH = 4 empty ones populated: a KASAN run saw
	# +3 pages per CPU on the C side once), where leaking the state of every
	# failed mkdir would grow it by ~60 kB per CPU per sweep; nor slab by
	# 1 MB (without KASAN).
	ncpu=$(sed -n 's/^RSC: cpus //p' "$con" | head -n1)
	for impl in rust c; do
		nsweeps=$(sget "stress_failnth $impl" | awk '$7 > 0 { n++ } END { print n + 0 }')
		[ "$nsweeps" -ge 3 ] ||
			problems+=("stress: fail-nth over mkdir on $impl: $nsweeps sweeps with failed mkdirs, expected 3")
		read -r dp ds <<< "$(sget "stress_leak $impl" | awk '{ p += $3 - $2; s += $6 - $5 } END { print p + 0, s + 0 }')"
		[ "$dp" -le $((16 * ${ncpu:-4})) ] ||
			problems+=("stress: Percpu grew by $dp kB over the failed mkdirs on $impl")
		# KASAN's quarantine keeps freed objects in the slab: there,
		# kmemleak (test-kasan) is the judge of leaked objects.
		cfg KASAN || [ "$ds" -le 1024 ] ||
			problems+=("stress: slab grew by $ds kB over the failed mkdirs on $impl")
		stress_report+=("fail-nth on $impl: Percpu $dp kB, slab $ds kB over its sweeps")
	done
	suites="cpu-on-off-test test_core test_stress"
	[ "$(sed -n 's/^RSC: cpus //p' "$con" | head -n1)" -ge 8 ] 2>/dev/null &&
		suites="$suites test_cpuset_prs"
	for t in $suites; do
		r=$(sget "stress_suite rust $t" | head -n1)
		c=$(sget "stress_suite c $t" | head -n1)
		if [ -z "$r" ] || [ -z "$c" ]; then
			problems+=("stress: selftest $t did not run on both sides (rust: '${r:-}', c: '${c:-}')")
			continue
		fi
		stress_report+=("selftest $t: rust rc ${r#rc }; c rc ${c#rc }")
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
			! grep -qE "^RSC: stress_suite (rust|c) $t rc [0-9]+ ok [1-9]" "$con"; then
			problems+=("stress: selftest $t failed (rc $rrc) without a single case or failure line: it did not run")
			continue
		fi
		if [ "$rrc" = "$crc" ]; then
			problems+=("stress: selftest $t fails on Rust and on C (rc $rrc): the guest must let it pass")
		else
			problems+=("stress: selftest $t fails on Rust (rc $rrc) and not the same way on C (rc $crc)")
		fi
	done
	lc=$(sget stress_llc_counters)
	[ "$lc" = 0 ] || problems+=("stress: LLC counters after the stress phase: ${lc:-missing}, not 0")
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
done < <(sed -n 's/^RSC: \(cgsel_exit\|stress_suite\) /\1 /p' "$con" | awk '{
	for (i = 1; i < NF; i++) v[$i] = $(i + 1)
	if ($1 == "cgsel_exit" && !("plan" in v))
		print $0 " (no plan: test_cpu always prints one)"
	else if ("plan" in v) {
		n = ($1 == "cgsel_exit") ? v["cases"] : v["ok"] + v["not_ok"]
		if (n != v["plan"]) print $0 " (" n " cases of " v["plan"] ")"
	}
	delete v
}')
# rsc.mode=weights (test_cpu's nested weight test, measured): every round
# reported four usages, as many rounds as pairs x sides; the summary is the
# share l0 / (l1 + l2) per side (1 is fair) and the paired differences with
# their t interval and equivalence verdict (scripts/paired-report.py).
if [ "$mode" = weights ]; then
	check "weights: every round measured"
	# shellcheck disable=SC2046 # the fields, split on purpose
	set -- $(sed -n 's/^RSC: weights pairs \([0-9]*\) sides \(.*\) round_seconds.*/\1 \2/p' "$con")
	if [ $# -lt 2 ]; then
		problems+=("weights: no 'RSC: weights pairs' line: the experiment did not start")
	else
		want=$(( $1 * ($# - 1) ))
		got=$(grep -cE '^RSC: weights (c|rust) [0-9]+ usage [0-9]+ [0-9]+ [0-9]+ [0-9]+$' "$con")
		[ "$got" = "$want" ] || problems+=("weights: $got rounds measured of $want")
		weights_report=$(/usr/bin/python3 "$TOP/scripts/paired-report.py" weights "$con") ||
			problems+=("weights: scripts/paired-report.py failed")
	fi
fi
# rsc.mode=cpumax (test_cpu's test_cpucg_max and _nested, measured): every
# round reported its clocks and usages, as many rounds as pairs x sides x
# kinds. Per kind and side: the test's verdict and usage over its
# expectation (the quota of every period of the sleep), then where the
# excess arose: by the end of the sleep (over that expectation), between
# the sleep and exit() and during exit() (each over the quota of the
# periods it took); and the paired Rust - C difference of usage/expected
# with its t interval and equivalence verdict (scripts/paired-report.py).
if [ "$mode" = cpumax ]; then
	check "cpumax: every round measured"
	# shellcheck disable=SC2046 # the fields, split on purpose
	set -- $(sed -n 's/^RSC: cpucg_max pairs \([0-9]*\) sides \(.*\) kinds \(.*\) hz .*/\1 \2 \3/p' "$con")
	if [ $# -lt 6 ]; then
		problems+=("cpumax: no 'RSC: cpucg_max pairs' line: the experiment did not start")
	else
		want=$(( $1 * 2 * 3 ))
		got=$(grep -cE '^RSC: cpucg_max (c|rust) [0-9]+ kind (flat|nested|quota10) quota_us [0-9]+ seconds [0-9]+ wake_us [0-9]+ exit_us [0-9]+ reaped_us [0-9]+ usage_sleep [0-9]+ usage_exit [0-9]+ usage_end [0-9]+ +nr_periods [0-9]+ nr_throttled [0-9]+ throttled_usec [0-9]+$' "$con")
		[ "$got" = "$want" ] || problems+=("cpumax: $got rounds measured of $want")
		cpumax_mode_report=$(/usr/bin/python3 "$TOP/scripts/paired-report.py" cpumax "$con") ||
			problems+=("cpumax: scripts/paired-report.py failed")
	fi
fi
check "workload report"
rsc() { sed -n "s/^RSC: $1 //p" "$con" | head -n1; }
# The report goes to report.txt beside the console, then to the terminal.
exec 3>&1 > "$out/report.txt"
report_end() {	# report_end <exit status>
	exec 1>&3 3>&-
	cat "$out/report.txt"
	exit "$1"
}
echo
echo "==== rust-sched-cfs boot report ($flavour kernel) ===="
echo "kernel:      $(rsc kernel) (source: Debian linux-source-$KSERIES $(cat "$PRISTINE/.debian-version" 2>/dev/null || echo "from KSRC"))"
echo "toolchain:   $(rustc --version | cut -d' ' -f1-2), $(bindgen --version), $(clang$LLVM_SUFFIX --version | head -n1 | sed 's/ (.*//')"
stall=$(sed -n 's/.*rcupdate.rcu_cpu_stall_timeout=\([0-9]*\).*/\1/p' <<< "$cmdline")
hung=$(sed -n 's/.*hung_task_timeout_secs=\([0-9]*\).*/\1/p' <<< "$cmdline")
echo "qemu:        $($QEMU --version | head -n1 | sed 's/ (.*//'), accel $ACCEL, -smp $SMP, RCU stall timeout ${stall:-21} s, hung task ${hung:-120} s"
echo "topology:    $(rsc cpus) CPUs, $(rsc llc_count) LLCs ($(rsc llc)), llc_balancing/enabled=$(rsc llc_balancing_enabled)"
grep -q 'enabling cache aware scheduling' "$con" && echo "             cache-aware scheduling enabled (dmesg)"
if cfg SCHED_RUST_CFS_DEBUG; then
	echo "shape:       evaluation kernel (CONFIG_SCHED_RUST_CFS_DEBUG: C and Rust side by side, switched at run time)"
	echo "pieces:      $(sed -n 's/^RSC: piece //p' "$con" | sort -u | tr '\n' ' ')"
elif cfg SCHED_RUST_CFS; then
	echo "shape:       production kernel (CONFIG_SCHED_RUST_CFS=y without the debug option: every piece on Rust$(cfg SCHED_RUST_CFS_INLINE && echo ', inlined into fair.c'))"
else
	echo "shape:       production kernel without the Rust pieces (CONFIG_SCHED_RUST_CFS unset: fair.c's C)"
fi
[ "$mode" = prod ] && echo "             guest: $(rsc shape); sched/preempt: $(rsc preempt)"
[ "$mode" = test ] || [ "$mode" = prod ] &&
	echo "workload:    $(rsc cgroups | sed 's/leaves/groups,/') leaves, $(rsc tasks) tasks; teardown: $(grep -q '^RSC: teardown done' "$con" && echo ok || echo missing)"
sed -n 's/^RSC: stat /             /p' "$con"
# print_task() (sched/debug) read under the workload with the pick on Rust
# (the test workload's cgroup phase; make latency builds the tree without it).
if [ "$mode" = prod ] && grep -q '^RSC: cgroups ' "$con"; then
	echo "             sched/debug under load: $(rsc sched_debug)"
	sed -n 's/^RSC: hotplug /             CPU hotplug under hackbench: /p' "$con"
	sed -n 's/^RSC: llc_run prod /             LLC workload: /p' "$con"
	sed -n 's/^RSC: stress_suite prod /             selftest /p' "$con"
fi
if [ "$mode" = test ] && grep -q '^RSC: cgroups ' "$con"; then
	sdbg=$(rsc sched_debug)
	echo "             sched/debug under load: ${sdbg:-missing}"
	read -r _ reads _ lines _ pick <<< "${sdbg:-x 0 x 0 x none}"
	[ "$reads" -ge 5 ] && [ "$lines" -gt 0 ] && [ "$pick" = rust ] ||
		problems+=("sched/debug was not read under load with the pick on Rust: '${sdbg:-no sched_debug line}'")
fi
sed -n 's/^RSC: churn /             churn /p' "$con"
pc=$(sed -n 's/^RSC: percpu_kb //p' "$con")
[ -n "$pc" ] && echo "             Percpu (kB): $pc"
sed -n 's/^RSC: llc \(rust\|c\) /             LLC aggregation on \1: /p' "$con"
llc_after=$(sed -n 's/^RSC: llc_counters_after //p' "$con")
[ -n "$llc_after" ] && echo "             LLC counters after the workloads (sum over CPUs): $llc_after"
if [ -n "$llc_after" ] && [ "$llc_after" != 0 ]; then
	problems+=("LLC counters did not return to 0: $(sed -n 's/^RSC: llc_cpu //p' "$con" | tr '\n' ';')")
fi
# test_cpu on each side: "ok/not ok N name" per implementation.
if grep -q '^RSC: cgsel ' "$con"; then
	cgsel=$(sed -n 's/^RSC: cgsel //p' "$con" | awk '
		{ impl = $1; name = $NF; pass[impl, name] += ($2 == "ok"); runs[impl, name]++; names[name] = 1 }
		END {
			for (n in names) {
				if (runs["prod", n]) {	# a production kernel: one side
					printf "%s passed %d/%d\n", n, pass["prod", n], runs["prod", n]
					continue
				}
				pr = pass["rust", n]; rr = runs["rust", n]; pc = pass["c", n]; rc = runs["c", n]
				printf "%s rust=%d/%d c=%d/%d%s\n", n, pr, rr, pc, rc,
					(rr && !pr && rc && pc == rc) ? " RUST-ONLY" : ""
			}
		}' | sort)
	echo "             test_cpu (kernel selftest):"
	printf '%s\n' "$cgsel" | sed 's/^/               /'
	if printf '%s\n' "$cgsel" | grep -q 'RUST-ONLY'; then
		problems+=("test_cpu cases failing on Rust only: $(printf '%s\n' "$cgsel" | grep RUST-ONLY | cut -d' ' -f1 | tr '\n' ' ')")
	fi
fi
sed -n 's/^RSC: run /             /p' "$con"
[ -n "${cpumax_report:-}" ] && echo "             cpu.max 20%: $cpumax_report"
[ -n "${weights_report:-}" ] && printf '%s\n' "$weights_report" | sed '1s/^/weights:     /; 2,$s/^/             /'
[ -n "${cpumax_mode_report:-}" ] && printf '%s\n' "$cpumax_mode_report" | sed '1s/^/cpucg_max:   /; 2,$s/^/             /'
# Route shares of the picks, per implementation (the state decides the route).
sed -n 's/^RSC: pick_stats //p' "$con" | tail -n1 | tr ' ' '\n' | awk '
	NF == 0 { next }
	$1 == "c" || $1 == "rust" { impl = $1; next }
	name == "" { name = $1; next }
	{ n[impl, name] = $1; tot[impl] += $1; order[name] = 1; name = "" }
	END {
		for (impl in tot) {
			if (!tot[impl]) continue
			line = sprintf("picks (%s): %d;", impl, tot[impl])
			split("single buddy protect fast heap", r, " ")
			for (i = 1; i <= 5; i++)
				line = line sprintf(" %s %.2f%%", r[i], 100 * n[impl, r[i]] / tot[impl])
			print "             " line
		}
	}'
if grep -q '^RSC: stress start' "$con"; then
	echo "stress:      $(sed -n 's/^RSC: stress start //p' "$con"), ended at guest uptime $(sed -n 's/^RSC: stress done uptime //p' "$con") s"
	echo "             operations: $(sed -n 's/^RSC: stress_ops //p' "$con" | awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }')"
	echo "             tools: $(sed -n 's/^RSC: stress_tool //p' "$con" | awk '{ n[$1]++; bad[$1] += ($2 != 0) } END { for (t in n) printf "%s x%d (%d failed) ", t, n[t], bad[t] }')"
	sed -n 's/^RSC: stress_failnth /             fail-nth mkdir on /p' "$con"
	sed -n 's/^RSC: stress_picks /             picks during the stress: /p' "$con"
	printf '             %s\n' "${stress_report[@]}"
fi
[ -n "$shadow" ] && echo "shadow:      $(echo "$shadow" | awk '{ printf "on=%s, %s picks and eligibility tests cross-checked, %s divergences", $1, $2, $3 }')"
[ -n "$llc_check" ] && echo "llc check:   $(echo "$llc_check" | awk '{ printf "on=%s, %s dequeues checked the LLC counters against the queued tasks, %s violations", $1, $2, $3 }')"
[ -n "$llc_shadow" ] && echo "llc shadow:  $(echo "$llc_shadow" | awk '{ printf "on=%s, %s divergences, %s skipped (a tick between the sides); compared:", $1, $2, $3
	for (i = 4; i <= NF; i++) printf " %s", $i }')"
[ -n "$llc_choice" ] && echo "llc choice:  $(echo "$llc_choice" | awk '{ printf "on=%s, %s scans of task_cache_work() compared with the specification of the preferred-LLC choice, %s of them moving the preferred CPU; %s differences, %s not checked", $1, $2, $3, $4, $5 }')"
[ -n "$tg_shadow" ] && echo "tg shadow:   $(echo "$tg_shadow" | awk '{ printf "on=%s, new groups whose state C and Rust made again and compared: %s with C selected, %s with Rust; %s divergences, %s allocations failed", $1, $5, $7, $2, $3 }')"
[ -n "$kmemleak" ] && echo "kmemleak:    $(echo "$kmemleak" | awk '{ printf "%s unreferenced objects after two scans, %s allocated through this project'"'"'s code", $2, $4 }')"
check ""
# The boot test's checks as a KTAP suite (the kernel's kselftest KTAP
# helpers), appended to the KUnit suites of the console as one more
# top-level test, and parsed by kunit.py with them: one summary counts
# every check. boot-checks.ktap is the suite, boot.ktap the whole.
ktap_suite() {
	(
		. "$WORK/tools/testing/selftests/kselftest/ktap_helpers.sh"
		ktap_print_header
		echo "# Subtest: rsc_boot"
		ktap_set_plan ${#cases[@]}
		for c in "${cases[@]}"; do
			IFS=$'\t' read -r res name probs <<< "$c"
			if [ "$res" = ok ]; then
				ktap_test_pass "$name"
			else
				tr '\037' '\n' <<< "$probs" | sed '/^$/d; s/^/# /'
				ktap_test_fail "$name"
			fi
		done
		ktap_print_totals
	)
}
if [ "$mode" = test ] && cfg KUNIT && grep -q 'KTAP version' "$con"; then
	ktap_suite > "$out/boot-checks.ktap"
	# KUnit's KTAP without printk's timestamps, from its header to the
	# result of its last top-level test, with one more test in its plan.
	sed "$untime" "$con" | awk -v suite="$out/boot-checks.ktap" -v nfail="$(grep -c '^not ok' "$out/boot-checks.ktap")" '
		!on && /^KTAP version 1$/ { on = 1; print; next }
		on && !plan && /^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; print "1.." plan + 1; next }
		on && plan && /^(not )?ok [0-9]+ / { print; split($0, w, " "); n = (w[1] == "not") ? w[3] : w[2]
			if (n + 0 == plan) { done = 1; exit } next }
		on { print }
		END {
			if (!done) exit 1
			while ((getline l < suite) > 0) print "    " l
			print (nfail ? "not ok " : "ok ") plan + 1 " rsc_boot"
		}' > "$out/boot.ktap" || problems+=("KUnit: no complete KTAP run of the built-in suites on the console")
	if [ -s "$out/boot.ktap" ]; then
		(cd "$WORK" && python3 tools/testing/kunit/kunit.py parse "$out/boot.ktap") 2>&1 |
			sed 's/\x1b\[[0-9;]*m//g' > "$out/kunit-all.txt"
		kunit_summary=$(grep -E 'Testing complete|Ran [0-9]+ tests' "$out/kunit-all.txt" | tail -n1)
		[ -n "$kunit_summary" ] || problems+=("KUnit: kunit.py printed no totals for the suites and the boot checks ($out/kunit-all.txt)")
	fi
fi
[ "$mode" = test ] && echo "kunit:       ${kunit_summary:-no KTAP output} (KUnit suites and the ${#cases[@]} boot checks of rsc_boot)"
echo "boot:        guest uptime at end $(rsc uptime) s, wall ${wall}s"
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
