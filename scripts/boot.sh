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
# BOOT_TIMEOUT (seconds, default 900), SMP, QEMU_EXTRA (more QEMU
# arguments, e.g. a TCG plugin).
# Fails on a timeout, a kernel that did not reach the end of the workload,
# any WARNING/BUG/Oops/lockdep/UBSAN/KASAN report, or a KUnit failure.

. "$(dirname "$0")/common.sh"

flavour=${1:?usage: boot.sh <flavour> [kernel parameters]}
shift
B=$CACHE/build-$flavour
bz=$B/arch/x86/boot/bzImage
[ -f "$bz" ] || die "no kernel at $bz: run scripts/build.sh $flavour"
ACCEL=${ACCEL:-tcg,thread=single}
SMP=${SMP:-4,sockets=2,cores=2,threads=1}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-900}
out=$CACHE/boot-$flavour
mkdir -p "$out"
con=$out/console.log

"$TOP/scripts/mkinitramfs.sh" "$out/initramfs.cpio.gz"

cmdline="console=ttyS0 panic=-1 sched_verbose $*"
log "booting $flavour kernel: -smp $SMP, accel $ACCEL, timeout ${BOOT_TIMEOUT}s (console: $con)"
start=$(date +%s)
rc=0
timeout --foreground -k 10 "$BOOT_TIMEOUT" \
	qemu-system-x86_64 -accel "$ACCEL" -smp "$SMP" -m 2G -nographic -no-reboot \
	-kernel "$bz" -initrd "$out/initramfs.cpio.gz" -append "$cmdline" ${QEMU_EXTRA:-} \
	< /dev/null > "$con" 2>&1 || rc=$?
wall=$(( $(date +%s) - start ))
tr -d '\r' < "$con" > "$con.tmp" && mv "$con.tmp" "$con"

problems=()
[ $rc = 124 ] && problems+=("timeout after ${BOOT_TIMEOUT}s")
grep -q '^RSC: DONE' "$con" || problems+=("the guest did not reach the end of the workload")
if grep -qE 'WARNING:|BUG:|Oops|Kernel panic|possible recursive locking|circular locking|inconsistent lock state|UBSAN:|KASAN:|kernel BUG|Call Trace:|rust_panic|panicked at' "$con"; then
	problems+=("kernel reported a problem:")
	problems+=("$(grep -m5 -nE 'WARNING:|BUG:|Oops|Kernel panic|possible recursive locking|circular locking|inconsistent lock state|UBSAN:|KASAN:|kernel BUG|Call Trace:|rust_panic|panicked at' "$con")")
fi
while IFS= read -r l; do
	problems+=("guest: $l")
done < <(sed -n 's/^RSC: FAIL //p' "$con")
shadow=$(sed -n 's/^RSC: shadow //p' "$con" | tail -n1)
if [ -n "$shadow" ] && [ "$(echo "$shadow" | cut -d' ' -f3)" != 0 ]; then
	problems+=("shadow check: $(echo "$shadow" | cut -d' ' -f3) divergences between C and Rust")
fi
llc_check=$(sed -n 's/^RSC: llc_check //p' "$con" | tail -n1)
if [ -n "$llc_check" ]; then
	read -r on checks violations <<< "$llc_check"
	[ "$violations" != 0 ] &&
		problems+=("LLC counter check: $violations dequeues found nr_llc_running/nr_pref_llc_running off")
	[ "$on" = 1 ] && [ "$checks" = 0 ] &&
		problems+=("LLC counter check: on, but no dequeue was checked")
fi
kmemleak=$(sed -n 's/^RSC: kmemleak //p' "$con" | tail -n1)
if [ -n "$kmemleak" ] && [ "$(echo "$kmemleak" | awk '{ print $4 }')" != 0 ]; then
	problems+=("kmemleak: $(echo "$kmemleak" | awk '{ print $4 }') unreferenced objects allocated through this project's code (RSC: kmemleak_report lines in the console)")
fi

# KUnit: the built-in suites ran at boot and printed KTAP on the console.
kunit_summary=
if grep -q 'KTAP version' "$con"; then
	kunit_summary=$(cd "$WORK" && python3 tools/testing/kunit/kunit.py parse "$con" 2>&1 |
		sed 's/\x1b\[[0-9;]*m//g' > "$out/kunit.txt"; grep -E 'Testing complete|Ran [0-9]+ tests' "$out/kunit.txt" | tail -n1)
	if grep -qE '\[FAILED\]|\[CRASHED\]|failed: [1-9]|crashed: [1-9]' "$out/kunit.txt"; then
		problems+=("KUnit failures:")
		problems+=("$(grep -E '\[FAILED\]|\[CRASHED\]|# .*: (ASSERTION|EXPECTATION) FAILED|Expected|but' "$out/kunit.txt" | head -n 20)")
	fi
fi

rsc() { sed -n "s/^RSC: $1 //p" "$con" | head -n1; }
echo
echo "==== rust-sched-cfs boot report ($flavour kernel) ===="
echo "kernel:      $(rsc kernel) (source: Debian linux-source-$KSERIES $(cat "$PRISTINE/.debian-version" 2>/dev/null || echo "from KSRC"))"
echo "toolchain:   $(rustc --version | cut -d' ' -f1-2), $(bindgen --version), $(clang$LLVM_SUFFIX --version | head -n1 | sed 's/ (.*//')"
echo "qemu:        $(qemu-system-x86_64 --version | head -n1 | sed 's/ (.*//'), accel $ACCEL, -smp $SMP"
echo "topology:    $(rsc cpus) CPUs, $(rsc llc_count) LLCs ($(rsc llc)), llc_balancing/enabled=$(rsc llc_balancing_enabled)"
grep -q 'enabling cache aware scheduling' "$con" && echo "             cache-aware scheduling enabled (dmesg)"
echo "pieces:      $(sed -n 's/^RSC: piece //p' "$con" | sort -u | tr '\n' ' ')"
echo "workload:    $(rsc cgroups | sed 's/leaves/groups,/') leaves, $(rsc tasks) tasks; teardown: $(grep -q '^RSC: teardown done' "$con" && echo ok || echo missing)"
sed -n 's/^RSC: stat /             /p' "$con"
# print_task() (sched/debug) read under the workload with the pick on Rust.
if grep -q '^RSC: cgroups ' "$con"; then
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
[ -n "$shadow" ] && echo "shadow:      $(echo "$shadow" | awk '{ printf "on=%s, %s picks and eligibility tests cross-checked, %s divergences", $1, $2, $3 }')"
[ -n "$llc_check" ] && echo "llc check:   $(echo "$llc_check" | awk '{ printf "on=%s, %s dequeues checked the LLC counters against the queued tasks, %s violations", $1, $2, $3 }')"
[ -n "$kmemleak" ] && echo "kmemleak:    $(echo "$kmemleak" | awk '{ printf "%s unreferenced objects after two scans, %s allocated through this project'"'"'s code", $2, $4 }')"
echo "kunit:       ${kunit_summary:-no KTAP output}"
echo "boot:        guest uptime at end $(rsc uptime) s, wall ${wall}s"
if [ ${#problems[@]} -gt 0 ]; then
	echo "result:      FAIL"
	printf '  %s\n' "${problems[@]}"
	echo "console: $con"
	exit 1
fi
echo "result:      PASS"
