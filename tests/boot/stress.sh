# SPDX-License-Identifier: GPL-2.0
#
# The stress phase of the boot test, sourced by /init (busybox sh): the
# situations that break scheduler code, all at once for sched_rust.stress_seconds,
# with the workloads of the field's own tools, then fault injection on real
# cgroup creation and the kernel's selftests on each implementation.
#
#   stress <seconds>
#
# Every line for the host starts with "sched_rust: "; scripts/boot.sh turns the
# "sched_rust: stress_*" lines into the verdict (counts must be > 0, exit codes 0,
# nothing left offline, counters back to 0). Uses say/fail/use/sb of /init.

ST=/sys/fs/cgroup/st
FEAT=/sys/kernel/debug/sched/features

now() { cut -d. -f1 /proc/uptime; }
rnd() { echo $((RANDOM % $1)); }

# A tool of the field, run to completion: its exit status and output tail
# reach the console; "sched_rust: stress_tool <name> <rc>" for the verdict.
tool() {	# tool <name> <command...>
	local name=$1 rc=0
	shift
	"$@" > /tmp/tool.$name.out 2>&1 || rc=$?
	say "stress_tool $name $rc"
	if [ $rc != 0 ]; then
		fail "stress: $name exited $rc"
		tail -n 15 /tmp/tool.$name.out | sed "s/^/$name: /"
	fi
	return $rc
}

# CPU hotplug of every CPU but the boot CPU, in turn, while the load runs,
# from the moment stress-ng has started its six stressors (at most 20 s,
# and never past the phase's end): at least one round even when the wait
# took the whole phase (arm64 under TCG, a 60 s phase: a CI run of
# 2026-11-27 never reached the loop and took no CPU offline):
# stress-ng 0.15's parent segfaulted once (exit 139, a make test of
# 2026-11-27) 0.5 s after "dispatching hogs" while CPU 3 went offline, on
# a pointer that was no pointer (0xf573439db0), before any stressor ran.
st_hotplug() {
	local ok=0 busy=0 c
	local t0=$(now) rounds=0
	while [ "$(cat /proc/[0-9]*/comm 2>/dev/null | grep -c '^stress-ng')" -lt 7 ] &&
		[ $(($(now) - t0)) -lt 20 ] && [ $(now) -lt $END ]; do
		sleep 1
	done
	while [ $rounds = 0 ] || [ $(now) -lt $END ]; do
		rounds=$((rounds + 1))
		for c in /sys/devices/system/cpu/cpu[1-9]*; do
			[ -f $c/online ] || continue
			[ $rounds = 1 ] || [ $(now) -lt $END ] || break
			# Offlining may be refused (the last CPU of a partition
			# with tasks pinned, for instance): counted, not a failure.
			if echo 0 2>/dev/null > $c/online; then
				ok=$((ok + 1))
				usleep $((100000 + $(rnd 300000)))
			else
				busy=$((busy + 1))
			fi
			echo 1 > $c/online || fail "stress: cannot bring ${c##*/} back online"
			ok=$((ok + 1))
			usleep $((100000 + $(rnd 200000)))
		done
	done
	say "stress_ops hotplug $ok refused $busy"
}

# cpuset partitions on the second half of the CPUs (the second LLC):
# root / isolated / member in random order; every switch rebuilds the
# sched domains and with them the LLC counter arrays.
st_partition() {
	local ok=0 refused=0 p n=$1 got busy
	local cpus="$((n / 2))-$((n - 1))"
	mkdir $ST/part && echo "$cpus" > $ST/part/cpuset.cpus ||
		{ fail "stress: cannot set up the cpuset partition"; return; }
	mkdir $ST/part/work
	sh -c 'while :; do :; done' &
	busy=$!
	echo $busy > $ST/part/work/cgroup.procs
	while [ $(now) -lt $END ]; do
		case $(rnd 3) in
		0) p=root ;;
		1) p=isolated ;;
		*) p=member ;;
		esac
		if echo $p 2>/dev/null > $ST/part/cpuset.cpus.partition; then
			got=$(cat $ST/part/cpuset.cpus.partition)
			# With a CPU of the set offline the partition may be
			# invalid: the kernel says so, with the reason.
			case $got in
			$p|"$p invalid"*) ok=$((ok + 1)) ;;
			*) fail "stress: partition reads '$got' after writing $p" ;;
			esac
		else
			refused=$((refused + 1))
		fi
		usleep $((200000 + $(rnd 500000)))
	done
	echo member > $ST/part/cpuset.cpus.partition
	kill $busy
	wait $busy 2>/dev/null
	rmdir $ST/part/work $ST/part
	say "stress_ops partition $ok refused $refused"
}

# The runtime switch of every piece, flipped independently: tasks enqueued
# by one side are dequeued by the other, groups allocated by one are freed
# by the other.
st_flip() {
	local p impl n_tg_state=0 n_pick=0 n_llc=0
	while [ $(now) -lt $END ]; do
		for p in $PIECES; do
			# Each piece once in the first round (the guest may run
			# only a few rounds), then at random.
			[ "$(eval echo \$n_$p)" -gt 0 ] && [ $(rnd 2) = 0 ] && continue
			impl=rust
			[ "$(cat $RC/$p)" = rust ] && impl=c
			echo $impl > $RC/$p || fail "stress: cannot switch $p to $impl"
			eval n_$p=\$\(\(n_$p + 1\)\)
		done
		usleep $((20000 + $(rnd 100000)))
	done
	say "stress_ops flip_tg_state $n_tg_state"
	say "stress_ops flip_pick $n_pick"
	say "stress_ops flip_llc $n_llc"
}

# cgroup churn: groups created and removed with tasks moved in and out,
# cpu.weight / cpu.max / cpu.idle rewritten, tasks reniced, SCHED_IDLE and
# SCHED_BATCH tasks among them.
st_cgchurn() {
	local ops=0 moves=0 g pid pids idle
	# Tasks live in the groups g0..g5 or in "home" (a cgroup with
	# controllers enabled for its children may hold no task itself).
	mkdir $ST/churn $ST/churn/home
	echo +cpu > $ST/churn/cgroup.subtree_control || fail "stress: +cpu in $ST/churn"
	sh -c 'while :; do :; done' &
	pids=$!
	schedbench nap 3000 &
	pids="$pids $!"
	chrt -i 0 sh -c 'while :; do :; done' &
	pids="$pids $!"
	chrt -b 0 schedbench nap 1000 &
	pids="$pids $!"
	while [ $(now) -lt $END ]; do
		g=$ST/churn/g$(rnd 6)
		if [ ! -d $g ]; then
			mkdir $g || fail "stress: mkdir $g"
		fi
		# An idle group has no weight of its own (writes are refused).
		idle=$(rnd 2)
		echo $idle > $g/cpu.idle || fail "stress: cpu.idle $g"
		if [ $idle = 0 ]; then
			echo $((1 + $(rnd 10000))) > $g/cpu.weight || fail "stress: cpu.weight $g"
		fi
		case $(rnd 3) in
		0) echo "max 100000" > $g/cpu.max ;;
		*) echo "$((5000 + $(rnd 95000))) 100000" > $g/cpu.max ;;
		esac || fail "stress: cpu.max $g"
		for pid in $pids; do
			if [ $(rnd 2) = 0 ]; then
				echo $pid > $g/cgroup.procs || fail "stress: move $pid to $g"
				moves=$((moves + 1))
			fi
			[ $(rnd 4) = 0 ] && renice -n $(($(rnd 40) - 20)) -p $pid > /dev/null
		done
		# Empty a group into its parent and remove it.
		g=$ST/churn/g$(rnd 6)
		if [ -d $g ] && [ $(rnd 3) = 0 ]; then
			for pid in $(cat $g/cgroup.procs); do
				echo $pid > $ST/churn/home/cgroup.procs
			done
			rmdir $g || fail "stress: rmdir $g"
		fi
		ops=$((ops + 1))
		usleep $(rnd 50000)
	done
	kill $pids
	wait $pids 2>/dev/null
	for g in $ST/churn/g* $ST/churn/home; do
		[ -d $g ] && rmdir $g
	done
	rmdir $ST/churn || fail "stress: rmdir $ST/churn"
	say "stress_ops cgchurn $ops"
	say "stress_ops cgmoves $moves"
}

# Scheduler features off their defaults, one at a time.
st_features() {
	local n=0 f
	while [ $(now) -lt $END ]; do
		for f in NEXT_BUDDY NO_DELAY_DEQUEUE NO_RUN_TO_PARITY NO_PICK_BUDDY; do
			[ $(now) -lt $END ] || break
			echo $f > $FEAT || fail "stress: cannot set sched feature $f"
			grep -qw $f $FEAT || fail "stress: sched feature $f did not take"
			n=$((n + 1))
			sleep 2
			case $f in
			NO_*) echo ${f#NO_} > $FEAT ;;
			*) echo NO_$f > $FEAT ;;
			esac
		done
	done
	say "stress_ops features $n"
}

# The load: rt-tests hackbench (over pipes: the kernel has no AF_UNIX) in
# two sibling groups, cyclictest, and stress-ng's scheduler stressors
# (--session allocates autogroups).
st_load() {
	local secs=$1 i
	for i in 1 2; do
		mkdir $ST/hb$i
		(
			n=0
			while [ $(now) -lt $END ]; do
				tool hackbench$i hackbench -p -g 2 -l 50 -s 100 || break
				n=$((n + 1))
			done
			say "stress_ops hackbench$i $n"
		) &
		# The loop and the hackbench processes it forks run in hb$i.
		echo $! > $ST/hb$i/cgroup.procs || fail "stress: cannot move hackbench to hb$i"
	done
	tool cyclictest cyclictest -q -t 2 -p 50 -i 2000 -D ${secs}s &
	tool stress-ng stress-ng --temp-path /tmp --session 1 --switch 1 --fork 1 \
		--yield 1 --nice 1 --affinity 1 --timeout ${secs}s --metrics-brief &
	wait
	rmdir $ST/hb1 $ST/hb2
}

# Allocation failure on a real cgroup creation: /proc/self/fail-nth over
# mkdir for N = 1, 2, ... until a mkdir succeeds without a fault injected
# (schedbench failmkdir), with tg_state on Rust and on C in turn (on Rust
# alone in a production kernel: $SIDES), 3 rounds after a warm-up sweep on
# each. Percpu and slab are read around every sweep, and schedbench counts
# the per-CPU allocations in use before and after it where the kernel counts
# them (CONFIG_PERCPU_STATS): a side whose sweeps make them grow leaks.
meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
cgstat() { awk -v k="$1" '$1 == k { print $2 }' /sys/fs/cgroup/cgroup.stat; }
st_failnth() {
	local r impl p0 s0 p1 s1 out
	for impl in $SIDES; do
		[ -d $RC ] && echo $impl > $RC/tg_state
		sb failmkdir $ST/fn 400 > /dev/null
	done
	for r in 1 2 3; do
		for impl in $SIDES; do
			[ -d $RC ] && echo $impl > $RC/tg_state
			p0=$(meminfo Percpu)
			s0=$(meminfo Slab)
			out=$(sb failmkdir $ST/fn 400)
			p1=$(meminfo Percpu)
			s1=$(meminfo Slab)
			say "stress_failnth $impl $out"
			say "stress_leak $impl percpu_kb $p0 $p1 slab_kb $s0 $s1"
		done
	done
}

# The kernel's selftests, with every piece on <impl>.
st_selftests() {	# st_selftests <impl>
	local impl=$1 n
	use $impl
	n=$(grep -c ^processor /proc/cpuinfo)
	suite() {	# suite <name> <collection:test>: through the kselftest runner
		local name=$1 rc=0 off
		# cpu-on-off-test.sh prints no cases: what shows that it ran is
		# the CPUs the kernel took offline meanwhile (x86_64 says so;
		# arm64 says when one is brought back).
		dmesg -c > /dev/null
		ksft -t "$2" > /tmp/suite.out
		rc=$(cat /tmp/ksft.rc)
		off=$(dmesg | grep -cE 'CPU [0-9]+ is now offline|CPU[0-9]+: Booted secondary processor')
		# The runner exits 0 on a skip: kselftest's skip status is 4.
		grep -qE '^ok [0-9]+ selftests:.*# SKIP' /tmp/suite.out && rc=4
		# with_stress.sh (test_stress) runs test_core again until 5 s
		# have passed: one plan per run ("runs"), the cases of all of them:
		# "plan" is the sum of the plans, empty when none was printed.
		say "stress_suite $impl $name rc $rc ok $(grep -cE '^# ok ' /tmp/suite.out) not_ok $(grep -cE '^# not ok ' /tmp/suite.out) runs $(grep -cE '^# 1\.\.[0-9]+$' /tmp/suite.out) offlined $off plan $(sed -n 's/^# 1\.\.\([0-9]*\)$/\1/p' /tmp/suite.out | awk '{ s += $1 } END { if (NR) print s }')"
		say "kselftest $impl $(grep -E '^(not )?ok [0-9]+ selftests:' /tmp/suite.out)"
		# The failed cases: TAP's "not ok", test_cpuset_prs.sh's "Test ... failed".
		grep -E '^# not ok |^# Test .* failed' /tmp/suite.out |
			sed "s/^# /sched_rust: stress_suite_case $impl $name /" | tee -a $SCHED_RUST_LOG
		# The suite's own failure lines, then the end of its output.
		[ $rc = 0 ] || { grep -E 'fail|FAIL|\*\*\*' /tmp/suite.out | head -n 20
			tail -n 30 /tmp/suite.out; } | sed "s/^/$name $impl: /"
	}
	# cpu-on-off-test.sh on every hotpluggable CPU (-a), given as the
	# runner takes per-test arguments.
	export KSELFTEST_CPU_ON_OFF_TEST_SH_ARGS=-a
	want cpu-on-off-test && suite cpu-on-off-test cpu-hotplug:cpu-on-off-test.sh
	want test_core && suite test_core cgroup:test_core
	want test_stress && suite test_stress cgroup:test_stress.sh
	want test_cpuset_prs || return 0
	if [ $n -ge 8 ]; then
		suite test_cpuset_prs cgroup:test_cpuset_prs.sh
	else
		say "stress_suite $impl test_cpuset_prs not_run needs 8 CPUs, has $n"
	fi
}

# sched_rust.suites=<name>[,<name>...] runs only those selftests (make boot, to
# look at one suite in a guest that ran nothing else); all by default.
want() {	# want <suite>
	case ",${SUITES:-$(param suites all)}," in
	*,all,*|*,$1,*) return 0 ;;
	esac
	return 1
}

# In a production kernel (no debug option, so no runtime switch, no
# shadow, no pick statistics) every piece is on Rust: the same phase, one
# side, judged on what any kernel shows (no splat or hung task, CPUs back
# online, the per-CPU allocations in use, Percpu in /proc/meminfo and the
# cgroup count back to their start).
stress() {	# stress <seconds>
	local secs=$1 n feat0 c a0
	n=$(grep -c ^processor /proc/cpuinfo)
	SIDES="rust c"
	[ -d $RC ] || SIDES=rust
	say "stress start seconds $secs cpus $n"
	say "stress_shape $([ -d $RC ] && echo debug || echo production) sides $SIDES"
	echo +cpu > /sys/fs/cgroup/cgroup.subtree_control
	echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control || fail "stress: no cpuset controller"
	# The allocator's chunks warmed up first (340 groups with the cpu
	# controller, made and removed), as the churn phase's Percpu check does,
	# so that "before" is not a cold allocator's count.
	sb cgtree /sys/fs/cgroup/stwarm 4 4 > /dev/null
	rmdir /sys/fs/cgroup/stwarm 2>/dev/null
	sleep 2
	# The per-CPU allocations in use ("-" without CONFIG_PERCPU_STATS), after
	# every CPU ran schedbench (so that none keeps an exited process's memory
	# context and its per-CPU counters); after the phase, once back to the
	# count before or after 15 s (a removed group's per-CPU memory goes after
	# RCU grace periods and the css release work).
	a0=$(sb pcpu)
	say "stress_before percpu_kb $(meminfo Percpu) cgroups $(cgstat nr_descendants) percpu_allocs $a0"
	mkdir $ST
	echo +cpu > $ST/cgroup.subtree_control
	echo +cpuset > $ST/cgroup.subtree_control
	# fail-nth only: no random faults, and GFP_KERNEL allocations and
	# order-0 pages are eligible (the defaults skip them); quiet, as the
	# injected failures are expected.
	for f in failslab fail_page_alloc; do
		echo N > /sys/kernel/debug/$f/ignore-gfp-wait
		echo 0 > /sys/kernel/debug/$f/verbose
	done
	echo 0 > /sys/kernel/debug/fail_page_alloc/min-order
	feat0=$(cat $FEAT)
	expect_rust stress
	[ -d $RC ] && echo 1 > $RC/pick_stats

	END=$(($(now) + secs))
	st_load $secs &
	st_hotplug &
	st_partition $n &
	[ -d $RC ] && st_flip &
	st_cgchurn &
	st_features &
	wait
	for c in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ "$(cat $c)" = 1 ] || fail "stress: $c left offline"
	done
	[ "$(cat $FEAT)" = "$feat0" ] || fail "stress: sched features not back to their defaults"
	use rust
	if [ -d $RC ]; then
		say "stress_picks $(grep -v enabled $RC/pick_stats | tr '\n' ' ')"
		echo 0 > $RC/pick_stats
	fi

	st_failnth
	use rust
	# The selftests set up their own hierarchy: the root's cpuset is
	# toggled by test_stress.sh.
	rmdir $ST || fail "stress: rmdir $ST"
	echo -cpuset > /sys/fs/cgroup/cgroup.subtree_control
	for impl in $SIDES; do
		st_selftests $impl
	done
	use rust
	sleep 1
	# Every group of the phase is gone (rmdir returns once the group is
	# offline; its per-CPU state goes with its last reference, after an
	# RCU grace period): give the frees a few seconds.
	for c in 1 2 3 4 5 6 7 8 9 10; do
		[ "$(cgstat nr_dying_descendants)" = 0 ] && break
		sleep 1
	done
	say "stress_after percpu_kb $(meminfo Percpu) cgroups $(cgstat nr_descendants) dying $(cgstat nr_dying_descendants) percpu_allocs $(sb pcpu "$a0")"
	[ -f $RC/llc_state ] &&
		say "stress_llc_counters $(awk '$1 == "cpu" { s += $6 + $8 } END { print s + 0 }' $RC/llc_state)"
	say "stress done uptime $(now)"
}
