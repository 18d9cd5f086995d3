#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The evaluation's modes of the guest (make bench, bench-scale,
# bench-latency, bench-weights, bench-cpumax, bench-prod), sourced by the
# boot initramfs's /init (tests/boot/init), whose helpers they use (say,
# fail, param, use, order, sb, btool, ksft_run) and whose case statement
# calls them by sched_rust.mode.
# shellcheck shell=sh

WIDTH=$(param width 4)
DEPTH=$(param depth 3)

# A cgroup tree of WIDTH + WIDTH^2 + ... + WIDTH^DEPTH groups under
# $ROOT, sibling weights 100/200/300/..., g1 bandwidth-limited to 20 %;
# its leaves in $leaves, the lowest-weight one first.
cg_tree() {
	CG=/sys/fs/cgroup
	ROOT=$CG/sched_rust
	echo +cpu > $CG/cgroup.subtree_control || fail "cannot enable the cpu controller"
	mkdir $ROOT || fail "mkdir $ROOT"
	ngroups=1
	leaves=
	build() {	# build <dir> <level>
		local dir=$1 level=$2 i=1
		if [ "$level" -ge "$DEPTH" ]; then
			leaves="$leaves $dir"
			return
		fi
		echo +cpu > $dir/cgroup.subtree_control || fail "subtree_control $dir"
		while [ $i -le $WIDTH ]; do
			mkdir $dir/g$i || fail "mkdir $dir/g$i"
			echo $((i * 100)) > $dir/g$i/cpu.weight || fail "cpu.weight $dir/g$i"
			ngroups=$((ngroups + 1))
			build $dir/g$i $((level + 1))
			i=$((i + 1))
		done
	}
	build $ROOT 0
	echo "20000 100000" > $ROOT/g1/cpu.max || fail "cpu.max"
}

# Tear the tree down, deepest groups first.
cg_tree_remove() {
	local d
	for d in $(find $ROOT -mindepth 1 -type d | awk -F/ '{ print NF, $0 }' | sort -rn | cut -d' ' -f2); do
		rmdir $d || fail "rmdir $d"
	done
	rmdir $ROOT || fail "rmdir $ROOT"
}

# Scheduling latency, C against Rust (make bench-latency, scripts/latency.sh):
# the cgroup workload's tree (cpu.max on g1) with fresh tasks every round,
# rounds in pairs, one per side in a random order, then pairs with C on
# both sides to show the noise. With schedstats on, per task its largest
# wait: wait_max of /proc/<pid>/sched, or the wait still open when the
# round ends (its CPU's rq clock minus wait_start), whichever is larger.
# Per round: the largest over the tasks of the lowest-weight leaf
# (g1/g1/...: weight 100 at every level, under g1's cpu.max), the largest
# over the others, and how many tasks waited over 1 s and over 5 s. A wait
# over 5 s is printed with the task's line of sched/debug (weight,
# vruntime, E/N, deadline), as evidence of why it waited.
lat_round() {	# lat_round <kind> <index> <label> <impl>
	local kind=$1 i=$2 side=$3 l pids= low= ts t0 t1 worst
	use $4
	ts=$(cut -d' ' -f1 /proc/uptime)
	for l in $leaves; do
		sh -c 'while :; do :; done' &
		echo $! > $l/cgroup.procs || fail "latency: attach busy to $l"
		pids="$pids $!"
		[ -z "$low" ] && low=$!
		sh -c 'while :; do usleep 2000; done' &
		echo $! > $l/cgroup.procs || fail "latency: attach sleeper to $l"
		pids="$pids $!"
		[ "$low" = "${low%% *}" ] && low="$low $!"
	done
	t0=$(cut -d' ' -f1 /proc/uptime)
	sleep $LAT_SECONDS
	# The rq clock of every CPU now, then each task's wait figures.
	cat /sys/kernel/debug/sched/debug > /tmp/lat.debug
	for l in $pids; do
		echo "$l $(cut -d' ' -f39 /proc/$l/stat) $(awk '$1 == "wait_max" || $1 == "wait_start" {
			v = $NF; sub(/^:/, "", v); printf "%s %s ", $1, v }' /proc/$l/sched)"
	done > /tmp/lat.tasks
	t1=$(cut -d' ' -f1 /proc/uptime)
	kill $pids
	wait 2>/dev/null
	awk -v low="$low" -v kind=$kind -v i=$i -v side=$side -v ts=$ts -v t0=$t0 -v t1=$t1 '
		BEGIN { n = split(low, l, " "); for (k = 1; k <= n; k++) islow[l[k]] = 1 }
		FILENAME == "/tmp/lat.debug" {
			if ($1 ~ /^cpu#[0-9]+,?$/) { cpu = $1; sub(/^cpu#/, "", cpu); sub(/,$/, "", cpu) }
			if ($1 == ".clock" && cpu != "" && !(cpu in clock)) { clock[cpu] = $NF; nclk++ }
			next
		}
		{
			nt++
			w = 0; ws = 0
			for (k = 3; k < NF; k += 2) {
				if ($k == "wait_max") w = $(k + 1)
				if ($k == "wait_start") ws = $(k + 1)
			}
			open = (ws > 0 && ($2 in clock)) ? clock[$2] - ws : 0
			# A task that migrated while it waited keeps a wait_start
			# relative to its old CPU (__update_stats_wait_start()):
			# an open wait longer than the task has lived is not one.
			if (open > (t1 - ts) * 1000) { bad++; open = 0 }
			if (open > 0) nopen++
			if (open > w) w = open
			if ($1 in islow) { if (w > lowmax) lowmax = w } else if (w > othmax) othmax = w
			if (w > 1000) o1++
			if (w > 5000) { o5++; if (w > worst) { worst = w; wpid = $1 } }
		}
		END {
			printf "sched_rust: lat %s %d %s low_ms %.3f other_ms %.3f over1s %d over5s %d open %d open_unknown %d tasks %d clocks %d spawn %s start %s end %s\n",
				kind, i, side, lowmax, othmax, o1 + 0, o5 + 0, nopen + 0, bad + 0, nt + 0, nclk + 0, ts, t0, t1
			if (wpid != "") printf "sched_rust: lat_worst %s %d %s pid %s wait_ms %.3f\n", kind, i, side, wpid, worst
		}' /tmp/lat.debug /tmp/lat.tasks > /tmp/lat.out
	cat /tmp/lat.out
	# The worst waiter above 5 s, as sched/debug showed it at the end of the
	# round: state, comm, pid, vruntime, E/N, deadline, slice...
	worst=$(sed -n 's/^sched_rust: lat_worst .* pid \([0-9]*\) .*/\1/p' /tmp/lat.out)
	[ -n "$worst" ] && awk -v pid=$worst '$3 == pid || $2 == pid' /tmp/lat.debug |
		sed "s/^/sched_rust: lat_evidence $kind $i $side /"
	return 0
}

latency() {
	local pairs=$(param pairs 20) cc=$(param cc_pairs 6) i side
	LAT_SECONDS=$(param round_seconds 10)
	echo 1 > /proc/sys/kernel/sched_schedstats || fail "latency: cannot enable schedstats"
	# Both sides unobserved: the shadow check would run both implementations.
	shadow_off
	cg_tree
	say "cgroups $ngroups leaves $(echo $leaves | wc -w)"
	say "latency pairs $pairs cc_pairs $cc round_seconds $LAT_SECONDS low_leaf $(echo $leaves | cut -d' ' -f1)"
	i=0
	while [ $i -lt $pairs ]; do
		for side in $(order); do
			lat_round pair $i $side $side
		done
		i=$((i + 1))
	done
	i=0
	while [ $i -lt $cc ]; do
		lat_round cc $i c c
		lat_round cc $i c2 c
		i=$((i + 1))
	done
	cg_tree_remove
	use rust
}

# test_cpu's nested weight test (overprovisioned), measured instead of
# judged: a group A with a leaf l0 (weight 1000) and a child c (weight
# 1000) holding leaves l1 and l2 (weight 5000 each); one process of as many
# spinning threads as CPUs in each leaf for sched_rust.round_seconds (10, as the
# test). l0 and c get the same share of A: l0's usage over l1's plus l2's
# is 1 for a fair scheduler (the test fails outside 15 % of the sum, a
# ratio outside 0.74-1.35). Rounds in pairs, the side that runs first at
# random.
wt_round() {	# wt_round <pair> <side>
	local W=$CG/wt n g u
	n=$(grep -c ^processor /proc/cpuinfo)
	use $2
	mkdir $W $W/l0 $W/c
	{ echo +cpu > $W/cgroup.subtree_control &&
		echo +cpu > $W/c/cgroup.subtree_control &&
		echo 1000 > $W/c/cpu.weight && echo 1000 > $W/l0/cpu.weight &&
		mkdir $W/c/l1 $W/c/l2 &&
		echo 5000 > $W/c/l1/cpu.weight && echo 5000 > $W/c/l2/cpu.weight; } ||
		fail "weights: cannot set up the groups"
	for g in l0 c/l1 c/l2; do
		sh -c "echo \$\$ > $W/$g/cgroup.procs && exec schedbench threads $n $WT_SECONDS" > /dev/null &
	done
	wait
	u=
	for g in l0 c/l1 c/l2 c; do
		u="$u $(sed -n 's/^usage_usec //p' $W/$g/cpu.stat)"
	done
	say "weights $2 $1 usage$u"
	rmdir $W/c/l1 $W/c/l2 $W/c $W/l0 $W
}

weights() {
	local pairs=$(param pairs 10) i s
	WT_SECONDS=$(param round_seconds 10)
	echo +cpu > $CG/cgroup.subtree_control || fail "weights: no cpu controller"
	say "weights pairs $pairs sides c rust round_seconds $WT_SECONDS cpus $(grep -c ^processor /proc/cpuinfo)"
	i=0
	while [ $i -lt $pairs ]; do
		for s in $(order); do
			wt_round $i $s
		done
		i=$((i + 1))
	done
	use rust
}

# test_cpu's test_cpucg_max and test_cpucg_max_nested measured instead of
# judged: cpu.max "1000 100000" on a group (nested: on its parent), one
# process of one spinning thread that sleeps 1000 / HZ seconds of wall time
# (the test's duration), run by schedbench cpumax, which reads the usage
# when the sleep ends, when the process calls exit() and once it is
# reaped. The test expects the quota of every period of the sleep (40 ms
# at HZ=250) within 10 %. A third kind of round, quota10, is the flat test
# with ten times the quota: the same absolute overshoot is then a tenth
# of the relative error. Rounds in pairs, the side that runs first at
# random.
cm_round() {	# cm_round <pair> <side> <kind>
	local G=$CG/cm leaf=$CG/cm quota=1000 r
	use $2
	mkdir $G || fail "cpumax: cannot create the group"
	case $3 in
	nested)	echo +cpu > $G/cgroup.subtree_control && mkdir $G/l ||
			fail "cpumax: cannot create the nested group"
		leaf=$G/l ;;
	quota10) quota=10000 ;;
	esac
	echo $quota > $G/cpu.max || fail "cpumax: cannot write cpu.max"
	r=$(schedbench cpumax $leaf 1 $CM_SECONDS) ||
		fail "cpumax: schedbench cpumax failed on $2"
	say "cpucg_max $2 $1 kind $3 quota_us $quota seconds $CM_SECONDS ${r#cpumax }" \
		"$(awk '/^nr_periods|^nr_throttled|^throttled_usec/ { printf " %s %s", $1, $2 }' $G/cpu.stat)"
	[ $3 = nested ] && rmdir $G/l
	rmdir $G
}

cpumax() {
	local pairs=$(param pairs 10) hz i s k
	hz=$(zcat /proc/config.gz 2>/dev/null | sed -n 's/^CONFIG_HZ=//p')
	[ -n "$hz" ] || fail "cpumax: no CONFIG_HZ in /proc/config.gz"
	CM_SECONDS=$((1000 / ${hz:-250}))
	echo +cpu > $CG/cgroup.subtree_control || fail "cpumax: no cpu controller"
	say "cpucg_max pairs $pairs sides c rust kinds flat nested quota10 hz $hz seconds $CM_SECONDS period_us 100000"
	i=0
	while [ $i -lt $pairs ]; do
		for k in flat nested quota10; do
			for s in $(order); do
				cm_round $i $s $k
			done
		done
		i=$((i + 1))
	done
	use rust
}

# Benchmarks: the in-kernel microbenchmarks, then workloads with the switch
# alternating between C and Rust, ROUNDS rounds each.
# The benchmarks measure the hot path as a kernel without the shadow check
# has it: the check off, its jump patched out.
shadow_off() {
	[ -f $RC/shadow ] || return 0
	echo 0 > $RC/shadow || fail "cannot switch the shadow check off"
	set -- $(cat $RC/shadow)
	[ "$1" = 0 ] || fail "the shadow check reads on=$1 after switching it off"
	say "bench_shadow off"
}


# One value read from a benchmark tool's output (/tmp/b.out), as a wbench
# line; a value that is not there is a failure that shows the output (the
# report would count the round as missing without saying why).
wval() {
	[ -n "$3" ] && { say "wbench $1 $2 $3 $4"; return 0; }
	fail "bench: no $2 in the output of the tool: $(tail -n 5 /tmp/b.out | tr '\n' ' ' | cut -c1-300)"
}

# One round of the workloads on one side, each metric as
# "wbench <impl> <metric> <value> <higher|lower is better>".
wround() {
	local impl=$1 a b
	set -- $(sb cgtree $CG/bench 4 4)
	say "wbench $impl cg_mkdir $5 higher"
	say "wbench $impl cg_rmdir $7 higher"
	say "wbench $impl sb_wake $(sb wake 32 0.5 | cut -d' ' -f2) higher"
	# rt-tests hackbench over pipes (the kernel has no AF_UNIX).
	btool hackbench -p -g 4 -l 30 &&
		wval $impl hackbench_process "$(sed -n 's/^Time: *//p' /tmp/b.out)" lower
	btool hackbench -p -T -g 4 -l 30 &&
		wval $impl hackbench_thread "$(sed -n 's/^Time: *//p' /tmp/b.out)" lower
	# cyclictest (SCHED_OTHER) beside hackbench in two sibling groups. Its
	# summary pads the average to 5 digits ("Avg: 4125"): from 10 ms on, no
	# space follows the colon ("Avg:13348").
	sh -c "echo \$\$ > $CG/cyc/a/cgroup.procs && exec hackbench -p -T -g 1 -l 10000000" \
		> /dev/null 2>&1 &
	a=$!
	sh -c "echo \$\$ > $CG/cyc/b/cgroup.procs && exec hackbench -p -T -g 1 -l 10000000" \
		> /dev/null 2>&1 &
	b=$!
	btool cyclictest -q -t 2 -i 1000 -l 500 &&
		wval $impl cyclictest_avg_us "$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^Avg:/) {
				v = substr($i, 5); if (v == "") v = $(i + 1); s += v; n++ } }
			END { if (n) print s / n }' /tmp/b.out)" lower
	kill -9 $a $b 2>/dev/null
	wait $a $b 2>/dev/null
	for a in session switch; do
		btool stress-ng --temp-path /tmp --$a 2 --timeout 1 --metrics-brief &&
			wval $impl stressng_$a "$(awk -v s=$a '$2 == "metrc:" && $4 == s { print $9; exit }' /tmp/b.out)" higher
	done
	# perf bench sched (when make bench built perf): messaging over pipes,
	# and pipe with its two ends in sibling cgroups.
	if command -v perf > /dev/null; then
		btool perf bench sched messaging -p -g 4 -l 30 &&
			wval $impl perf_messaging_s "$(awk '$1 == "Total" && $2 == "time:" { print $3 }' /tmp/b.out)" lower
		btool perf bench sched pipe -l 20000 -G cyc/a,cyc/b &&
			wval $impl perf_pipe_cg_us_op "$(awk '$2 == "usecs/op" { print $1 }' /tmp/b.out)" lower
	fi
	set -- $(sb schlat $CG/schlat 2 2 1)
	say "wbench $impl schlat_rps $7 higher"
	say "wbench $impl schlat_p50_us $9 lower"
	say "wbench $impl schlat_p99_us ${11} lower"
}

bench() {
	local rounds=$(param rounds 30) r impl
	shadow_off
	echo +cpu > $CG/cgroup.subtree_control
	echo run > $RC/bench
	sed 's/^/sched_rust: bench /' $RC/bench
	mkdir -p $CG/cyc/a $CG/cyc/b
	echo +cpu > $CG/cyc/cgroup.subtree_control
	r=0
	while [ $r -lt $rounds ]; do
		for impl in $(order); do
			use $impl
			say "wround $r $impl"
			wround $impl
		done
		r=$((r + 1))
	done
	rmdir $CG/cyc/a $CG/cyc/b $CG/cyc
	use rust
}

# One run of percall() or scale(): a new segment of the plugin's records.
percall_mark() {	# a new segment of the plugin's records
	if [ -d $RC ]; then
		echo 0 > $RC/pick_stats || fail "cannot write pick_stats (the plugin's segment mark)"
	else
		# A production kernel (make bench-prod): sethostname().
		pcseg=$((${pcseg:-0} + 1))
		hostname "seg$pcseg" || fail "sethostname (the plugin's segment mark) failed"
	fi
}
percall_run() {	# percall_run <side> <workload and its arguments>
	percall_mark
	say "pcrun $1 ${2%% *}"
	case $2 in
	cgtree*) sb cgtree $CG/bench 4 4 > /dev/null
		# Freed after an RCU grace period: in this run.
		sleep 1 ;;
	llc*)	# 4 threads of one process and 2 spinners: LLC preference;
		# the threads nap, so that they are dequeued and queued again.
		sh -c 'while :; do :; done' & a=$!
		sh -c 'while :; do :; done' & b=$!
		sb threads 4 ${2#llc } nap > /dev/null
		kill $a $b; wait $a $b 2>/dev/null ;;
	hackbench*)	# hackbench <groups> <loops>: rt-tests'
		set -- $2
		btool hackbench -p -f 10 -g $2 -l $3 ;;
	switch*)	# switch <seconds>: stress-ng's pipe ping-pong, 1 pair
		btool stress-ng --temp-path /tmp --switch 1 --timeout ${2#switch } ;;
	crowd*)	# crowd <tasks> <seconds>: CPU-bound tasks of nice -4 to 4 on
		# CPU 1, half of them napping: one cfs_rq of many entities of
		# mixed weights and lags, where the leftmost is not always
		# eligible (the pick's heap search)
		set -- $2
		local i=0 pids=
		while [ $i -lt $2 ]; do
			if [ $((i % 2)) = 0 ]; then
				taskset -c 1 sh -c 'while :; do :; done' &
			else
				taskset -c 1 sh -c 'while :; do i=0; while [ $i -lt 200 ]; do i=$((i + 1)); done; usleep 2000; done' &
			fi
			renice -n $((i % 9 - 4)) -p $! > /dev/null
			pids="$pids $!"
			i=$((i + 1))
		done
		sleep $3
		kill $pids
		wait $pids 2>/dev/null ;;
	*)	sb $2 > /dev/null ;;
	esac
}

# Per-call costs inside workloads, for the TCG plugin evaluation/bench/percall.c
# (make bench): every run is one segment of the plugin's records, started by
# the write to pick_stats just before it; sides alternate, the first side of
# a round chosen at random.
percall() {
	local rounds=$(param rounds 2) r impl w tol
	local knob=/sys/kernel/debug/sched/llc_balancing/aggr_tolerance
	shadow_off
	echo +cpu > $CG/cgroup.subtree_control
	[ -f $knob ] && tol=$(cat $knob) && echo 100 > $knob
	r=0
	while [ $r -lt $rounds ]; do
		# A third side, "stock": every piece on C, the pick and the
		# eligibility test on 7.3's stock C (make bench's third side).
		for impl in $(order) stock; do
			if [ $impl = stock ]; then
				use c
				echo 1 > $RC/pick_stock || fail "cannot switch the pick to the stock C"
			else
				use $impl
			fi
			for w in "hackbench 2 30" "wake 32 1" "switch 1" "cgtree 4 4" "llc 3"; do
				percall_run $impl "$w"
			done
			[ $impl = stock ] && echo 0 > $RC/pick_stock
		done
		r=$((r + 1))
	done
	# The shadow runs: the shadow check on, whose out-of-line sides (C,
	# Rust and stock picks, C and Rust LLC functions and group state
	# allocations and frees) all run on each live state, so that percall.c
	# counts them on the same states (its pair_ pieces). The live side is
	# Rust; the check itself is not measured.
	use rust
	echo 1 > $RC/shadow || fail "cannot switch the shadow check on"
	for w in "hackbench 2 30" "wake 32 1" "switch 1" "llc 6" "cgtree 4 4"; do
		percall_run shadow "$w"
	done
	shadow_off
	echo 0 > $RC/pick_stats
	say "pcrun end end"
	[ -n "$tol" ] && echo $tol > $knob
	use rust
}

# make bench-scale (scripts/bench-scale.sh): the per-call costs at one
# machine size, under evaluation/bench/percall.c as in percall(). On each side
# (the first of a round at random): one process with as many threads as
# CPUs walking a shared buffer beside half as many single-threaded
# spinners, so that its threads spread over every LLC, task_cache_work()'s
# scan visits every CPU and the process gets a preferred LLC (the run goes on
# past sched_rust.seconds until it has, at most sched_rust.pref_cap seconds); then a cgroup
# tree (4 x 3: 84 groups) created and removed. Then the threads workload and
# the tree on each side again with the shadow and LLC checks on.
scale_threads() {	# scale_threads <impl> <cpus> <seconds> [pref cap]
	local t pids n
	# Its main thread reads llc_state from the moment the threads exist
	# (creating them takes seconds at 64 CPUs under TCG): for <seconds>,
	# and on until one of them has a preferred LLC, at most <pref cap>.
	schedbench threads $2 $3 cpus llc=$RC/llc_state until_pref=${4:-$3} > /tmp/threads.out 2> /tmp/sb.err &
	t=$!
	pids=
	n=0
	while [ $n -lt $(($2 / 2)) ]; do
		sh -c 'while :; do :; done' &
		pids="$pids $!"
		n=$((n + 1))
	done
	wait $t || fail "schedbench threads $2 $3 exited $?: $(tr '\n' ' ' < /tmp/sb.err | cut -c1-300)"
	kill $pids
	wait 2>/dev/null
	# The LLCs of the CPUs the threads ran on (schedbench's list).
	set -- "$1" "$2" "$(awk -v m="$(awk '$1 == "cpu" { printf "%s:%s ", $2, $4 }' $RC/llc_state)" '
		BEGIN { n = split(m, a, " "); for (i = 1; i <= n; i++) { split(a[i], b, ":"); llc[b[1]] = b[2] } }
		{ for (i = 1; i <= NF; i++) if ($i == "cpus") on = 1; else if (on) used[llc[$i]] = 1 }
		END { for (l in used) k++; print k + 0 }' /tmp/threads.out)"
	LAST_PREF=$(awk '{ for (i = 1; i < NF; i++) if ($i == "max_pref") print $(i + 1) }' /tmp/threads.out)
	say "scale_threads $1 threads $2 threads_with_pref ${LAST_PREF:=0} llcs_used $3 $(sed 's/ cpus .*//' /tmp/threads.out)"
}

scale() {
	local rounds=$(param rounds 1) secs=$(param seconds 6) cap=$(param pref_cap 30) r impl cpus tol
	local knob=/sys/kernel/debug/sched/llc_balancing/aggr_tolerance
	cpus=$(grep -c ^processor /proc/cpuinfo)
	say "tg_state_size $(cat $RC/tg_state_size)"
	shadow_off
	echo +cpu > $CG/cgroup.subtree_control
	tol=$(cat $knob)
	echo 100 > $knob
	r=0
	while [ $r -lt $rounds ]; do
		for impl in $(order); do
			use $impl
			echo 0 > $RC/pick_stats || fail "cannot write pick_stats (the plugin's segment mark)"
			say "pcrun $impl threads"
			scale_threads $impl $cpus $secs $cap
			[ $LAST_PREF -gt "$(eval echo \${pref_$impl:-0})" ] && eval "pref_$impl=$LAST_PREF"
			echo 0 > $RC/pick_stats || fail "cannot write pick_stats (the plugin's segment mark)"
			say "pcrun $impl cgtree"
			sb cgtree $CG/bench 4 3 > /dev/null
			# The groups are freed after an RCU grace period: in this run.
			sleep 1
		done
		r=$((r + 1))
	done
	# The checks: the threads workload and the cgroup tree again on each
	# side with the shadow check on, one segment of the plugin, whose pair_
	# pieces are the check's out-of-line C, Rust and stock sides on the
	# same live states.
	echo 0 > $RC/pick_stats || fail "cannot write pick_stats (the plugin's segment mark)"
	say "pcrun shadow threads"
	echo 1 > $RC/shadow || fail "cannot switch the shadow check on"
	say "scale_checks_start shadow $(cat $RC/shadow) llc_check $(cat $RC/llc_check) llc_shadow $(tr '\n' ' ' < $RC/llc_shadow)"
	say "tg_shadow_start $(cat $RC/tg_shadow)"
	# Each run goes on until a thread has a preferred LLC (at most
	# sched_rust.pref_cap seconds); a side whose threads got none in its measured
	# run runs again until they do, up to five times (bench-scale-report.py
	# fails a side that never got one).
	for impl in $(order); do
		use $impl
		n=0
		while :; do
			scale_threads $impl-check $cpus $secs $cap
			n=$((n + 1))
			if [ "$(eval echo \${pref_$impl:-0})" -gt 0 ] || [ $LAST_PREF -gt 0 ] ||
			   [ $n -ge 5 ]; then
				break
			fi
		done
		# The group state's check: the cgroup tree, made again by both.
		sb cgtree $CG/bench 4 3 > /dev/null
		sleep 1
	done
	echo 0 > $RC/pick_stats
	say "pcrun end end"
	say "shadow $(cat $RC/shadow)"
	say "llc_check $(cat $RC/llc_check)"
	say "llc_shadow $(tr '\n' ' ' < $RC/llc_shadow)"
	say "llc_choice $(cat $RC/llc_choice)"
	say "tg_shadow $(cat $RC/tg_shadow)"
	echo $tol > $knob
	use rust
}

# Aggregation parity (make bench-scale, sched_rust.mode=aggr): how often and how
# soon cache-aware scheduling gives the threads of one process a preferred
# LLC, on each side, run after run. Each run is scale_threads()'s workload;
# schedbench's main thread reads llc_state every 100 ms from the moment its
# threads exist, for sched_rust.seconds and on until one has a preferred LLC, at
# most sched_rust.pref_cap seconds: make bench-scale sets both to one window, so
# that every run is watched for the same time whatever happens in it. Per
# run:
#   aggr <side> <run> timeout <epochs> threads <passes/s> created_ms <ms>
#        run_ms <ms> max_pref <n> first_pref_ms <ms|none>
# once with each epoch_affinity_timeout of sched_rust.timeouts (default: the
# kernel's).
aggr() {
	local runs=$(param runs 8) secs=$(param seconds 2) cap=$(param pref_cap 30)
	local knob=/sys/kernel/debug/sched/llc_balancing r impl cpus tol to0 to
	cpus=$(grep -c ^processor /proc/cpuinfo)
	shadow_off
	tol=$(cat $knob/aggr_tolerance)
	to0=$(cat $knob/epoch_affinity_timeout)
	echo 100 > $knob/aggr_tolerance
	say "aggr_start cpus $cpus runs $runs seconds $secs pref_cap $cap epoch_period $(cat $knob/epoch_period) epoch_affinity_timeout $to0 timeouts $(param timeouts $to0)"
	for to in $(param timeouts $to0 | tr , ' '); do
		echo $to > $knob/epoch_affinity_timeout
		r=0
		while [ $r -lt $runs ]; do
			for impl in $(order); do
				use $impl
				scale_threads $impl $cpus $secs $cap > /dev/null
				say "aggr $impl $r timeout $to $(cut -d' ' -f1-10 /tmp/threads.out)"
			done
			r=$((r + 1))
		done
	done
	echo $to0 > $knob/epoch_affinity_timeout
	echo $tol > $knob/aggr_tolerance
	use rust
}

# make bench-prod (scripts/bench-prod.sh): one of three production kernels
# (7.3.4 stock, =n, =y) under the per-call plugin, which counts the calls of
# the functions each piece is inlined into. Every run is one segment of the
# plugin's records, started by sethostname() (percall_mark: a production
# kernel has no debugfs file of this project to write). The
# workloads of make bench's per-call boot, then the field's tools timed
# (rt-tests hackbench, stress-ng's pipe ping-pong), then the kernel's
# selftests (test_cpu, test_core, cpu-on-off-test).
prodbench() {
	local rounds=$(param rounds 2) r w knob=/sys/kernel/debug/sched/llc_balancing/aggr_tolerance tol
	KSIDE=$(param side unknown)
	echo +cpu > $CG/cgroup.subtree_control
	[ -f $knob ] && tol=$(cat $knob) && echo 100 > $knob
	r=0
	while [ $r -lt $rounds ]; do
		for w in "hackbench 2 30" "wake 32 1" "switch 1" "cgtree 4 4" "llc 3" "crowd 16 3"; do
			percall_run $KSIDE "$w"
		done
		r=$((r + 1))
	done
	percall_mark
	say "pcrun end end"
	[ -n "$tol" ] && echo $tol > $knob
	# The field's tools, timed (not under a segment of their own: after
	# the last one, which the report leaves out).
	r=0
	while [ $r -lt $rounds ]; do
		out=$(hackbench -p -g 4 -l 100 -s 100 2>&1) || fail "hackbench exited $?: $out"
		say "wbench $KSIDE hackbench_s $(echo "$out" | sed -n 's/^Time: *//p') lower"
		btool stress-ng --temp-path /tmp --switch 2 --timeout 2 --metrics-brief &&
			wval $KSIDE switch_ops_s "$(awk '$2 == "metrc:" && $4 == "switch" { print $9; exit }' /tmp/b.out)" higher
		r=$((r + 1))
	done
	# The kernel's selftests, through this project's kselftests.
	export SUITES=cpu-on-off-test,test_core TEST_CPU_ROUNDS=1
	ksft_run cgroup_test_cpu.sh kernel_suites.sh
}

# make bench-verdicts: test_cpu's cases <a,b> each run <runs> times, in
# turn, on the kernel as built (tests/boot/test_cpu_repeat.c: test_cpu.c's
# own cases with a main that repeats them), one line per run for the host.
verdicts() {	# verdicts <a,b> <runs>
	local cases rc
	cases=$(echo "$1" | tr ',' ' ')
	echo +cpu > $CG/cgroup.subtree_control
	say "verdicts cases $cases runs $2"
	/kselftest/cgroup/test_cpu_repeat "$2" $cases > /tmp/verdicts.out 2>&1
	rc=$?
	say "verdicts_exit $rc"
	grep -E '^(not )?ok [0-9]+ ' /tmp/verdicts.out | sed 's/^/sched_rust: verdict /'
	# The cases' own diagnostics, for the console log.
	grep -E '^# ' /tmp/verdicts.out | head -n 100 | sed 's/^/test_cpu_repeat: /'
}
