#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043 # local: dash, BusyBox and bash have it (ktap_helpers.sh uses it)
#
# The stress phase: the situations that break scheduler code, all at once
# for STRESS_SECONDS (default 60), with the workloads of the field's own
# tools, then fault injection on real cgroup creation, judged here. The
# load: rt-tests' hackbench in two sibling groups, cyclictest and stress-ng's
# scheduler stressors. Under it: every CPU but the boot CPU taken offline
# and back in turn; a cpuset partition on the second half of the CPUs
# switched between root, isolated and member (every switch rebuilds the
# sched domains and with them the LLC counter arrays); on the debug kernel
# every piece's runtime switch flipped independently (tasks enqueued by one
# side are dequeued by the other, groups allocated by one are freed by the
# other); cgroups created and removed with tasks moved in and out, their
# cpu.weight, cpu.max and cpu.idle rewritten, tasks reniced, SCHED_IDLE and
# SCHED_BATCH tasks among them; sched features off their defaults. Then
# /proc/self/fail-nth over mkdir of a cgroup, with the group state on each
# side. A kernel without the option runs it once, as the C baseline.
#
# What it can detect: an operation that never ran, or failed, under the
# others; a tool that failed under them (a crash or a hang of the kernel
# shows as the runner's timeout, a splat in the kernel log, not here); a
# failed cgroup creation that returns another error than ENOMEM or leaves
# per-CPU memory or slab behind; cgroups, per-CPU allocations, LLC counters
# (debug kernel), offline CPUs or sched features that the phase left
# behind. An operation whose kernel option is missing skips its case
# (options from /proc/config.gz or /boot/config-<release>); so does one
# whose tool is not in PATH (hackbench, cyclictest, stress-ng, chrt) or
# that needs this collection's schedbench where it was not installed.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/lib.sh"

secs=${STRESS_SECONDS:-60}
case $secs in ''|*[!0-9]*|0*) secs=60 ;; esac
SB=$DIR/schedbench
ST=$CG/sched_rust_stress
FEAT=/sys/kernel/debug/sched/features
FI=/sys/kernel/debug
NCPU=$(grep -c ^processor /proc/cpuinfo)
OPS="hotplug partition flip_tg_state flip_pick flip_llc cgchurn cgmoves features"
OPS="$OPS hackbench1 hackbench2"
# shellcheck disable=SC2046 # the sides, one word each
set -- $(sides)
SIDES=$*
require $((20 + 4 * $#)) any

have() { command -v "$1" > /dev/null 2>&1; }
isnum() { case $1 in ''|*[!0-9]*) return 1 ;; esac; }

W=$(mktemp -d) || ktap_exit_fail_msg "mktemp -d failed"
: > "$W/flags"
: > "$W/ops"
: > "$W/tools"
WORKERS= feat0= fi_saved= cpuset_added= HP=
# Whatever the phase left when it was stopped (the runner's timeout, a
# signal): its processes, offline CPUs, sched features, fault-injection
# settings, the pieces' sides, its cgroups.
cleanup() {
	local c kv f
	[ -z "$WORKERS" ] || kill $WORKERS 2>/dev/null
	[ ! -d $ST ] || echo 1 > $ST/cgroup.kill 2>/dev/null
	for c in $HP; do
		[ "$(cat "$c/online" 2>/dev/null)" != 0 ] || echo 1 > "$c/online" 2>/dev/null
	done
	if [ -n "$feat0" ] && [ "$(cat $FEAT 2>/dev/null)" != "$feat0" ]; then
		for f in $feat0; do
			echo "$f" > $FEAT 2>/dev/null
		done
	fi
	for kv in $fi_saved; do
		echo "${kv#*=}" > "$FI/${kv%%=*}" 2>/dev/null
	done
	[ ! -f $RC/pick_stats ] || echo 0 > $RC/pick_stats 2>/dev/null
	use rust 2>/dev/null
	[ ! -d $ST/part ] || echo member > $ST/part/cpuset.cpus.partition 2>/dev/null
	tree_remove $ST > /dev/null 2>&1
	[ -z "$cpuset_added" ] || echo -cpuset > $CG/cgroup.subtree_control 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit "$KSFT_FAIL"' INT TERM

# What the phase's processes find goes to files of $W, read by the cases
# at the end: "<tag> <message>" in flags (a problem of the case of <tag>),
# "<op> <count> ..." in ops, "<tool> <exit status>" in tools.
flag() {	# flag <tag> <message>...
	local t=$1
	shift
	echo "$t $*" >> "$W/flags"
}
collect() {	# collect <tag>: its flags as problems of the current case
	local t m
	while read -r t m; do
		[ "$t" != "$1" ] || problem "$m"
	done < "$W/flags"
}
op() { echo "$*" >> "$W/ops"; }
opline() { awk -v o="$1" '$1 == o { $1 = ""; print substr($0, 2); exit }' "$W/ops"; }

# The time, without a fork (a loaded machine forks slowly).
now() { read -r NOW _ < /proc/uptime; NOW=${NOW%%.*}; }
running() { now; [ "$NOW" -lt "$END" ]; }
# Sleep <usec> microseconds (busybox's usleep is not everywhere).
nap() { local f=$(($1 % 1000000 + 1000000)); sleep "$(($1 / 1000000)).${f#1}"; }
# Pseudo-random numbers in $RND, 0 to <n> - 1 (dash has no $RANDOM): each
# process seeds its own generator.
rnd_seed() { R=$(od -An -N4 -tu4 /dev/urandom 2>/dev/null); R=$(( (${R:-$$} + $1) % 2147483648 )); }
rnd() {	# rnd <n>
	R=$(( (R * 1103515245 + 12345) % 2147483648 ))
	RND=$(( (R >> 8) % $1 ))
}

meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
cgstat() { awk -v k="$1" '$1 == k { print $2 }' $CG/cgroup.stat; }

# schedbench with its exit status checked, as the boot test's sb: a failed
# or silent run is flagged on <tag> with its stderr; its output line is
# printed, nothing when it failed.
sb() {	# sb <tag> <schedbench args>...
	local t=$1 out rc=0
	shift
	out=$("$SB" "$@" 2> "$W/sb.err") || rc=$?
	if [ $rc != 0 ] || [ -z "$out" ]; then
		flag "$t" "schedbench $* exited $rc: $(tr '\n' ' ' < "$W/sb.err" | cut -c1-400)"
		return 1
	fi
	echo "$out"
}

# A tool of the field, run to completion: "<name> <exit status>" in
# $W/tools, its output in $W/tool.<name>.out.
tool() {	# tool <name> <command...>
	local name=$1 rc=0
	shift
	"$@" > "$W/tool.$name.out" 2>&1 || rc=$?
	echo "$name $rc" >> "$W/tools"
	return $rc
}

# CPU hotplug of every CPU but the boot CPU ($HP: those online at the
# start, as a machine may keep some offline on purpose), in turn, while the
# load runs, from the moment stress-ng has started its six stressors (at
# most 20 s, and never past the phase's end): at least one round even when
# the wait took the whole phase (arm64 under TCG, a 60 s phase: a CI run of
# 2026-11-27 never reached the loop and took no CPU offline):
# stress-ng 0.15's parent segfaulted once (exit 139, a make test of
# 2026-11-27) 0.5 s after "dispatching hogs" while CPU 3 went offline, on
# a pointer that was no pointer (0xf573439db0), before any stressor ran.
st_hotplug() {
	local ok=0 busy=0 back=0 c t0 rounds=0
	if [ -z "$HP" ]; then
		flag hotplug "no CPU but the boot CPU was online with an online file"
		op hotplug 0 refused 0
		return
	fi
	rnd_seed 1
	now
	t0=$NOW
	while [ -z "$skip_stressng" ] && now && [ $((NOW - t0)) -lt 20 ] && [ "$NOW" -lt "$END" ] &&
	      [ "$(cat /proc/[0-9]*/comm 2>/dev/null | grep -c '^stress-ng')" -lt 7 ]; do
		sleep 1
	done
	while [ $rounds = 0 ] || running; do
		rounds=$((rounds + 1))
		for c in $HP; do
			[ $rounds = 1 ] || running || break
			# Offlining may be refused (the last CPU of a partition
			# with tasks pinned, for instance): counted, not a failure.
			if echo 0 2>/dev/null > "$c/online"; then
				ok=$((ok + 1))
				rnd 300000
				nap $((100000 + RND))
			else
				busy=$((busy + 1))
			fi
			# (The op's count is the offlines: a phase in which every
			# one was refused took no CPU offline.)
			echo 1 > "$c/online" && back=$((back + 1)) ||
				flag hotplug "cannot bring ${c##*/} back online"
			rnd 200000
			nap $((100000 + RND))
		done
	done
	op hotplug $ok refused $busy onlined $back
}

# cpuset partitions on the second half of the CPUs (the second LLC):
# root / isolated / member in random order; every switch rebuilds the
# sched domains and with them the LLC counter arrays.
st_partition() {
	local ok=0 refused=0 p got busy cpus="$((NCPU / 2))-$((NCPU - 1))"
	rnd_seed 2
	if ! { mkdir $ST/part && echo "$cpus" > $ST/part/cpuset.cpus; }; then
		flag partition "cannot set up the cpuset partition on CPUs $cpus"
		op partition 0 refused 0
		return
	fi
	mkdir $ST/part/work || flag partition "mkdir $ST/part/work"
	sh -c 'while :; do :; done' &
	busy=$!
	echo $busy > $ST/part/work/cgroup.procs ||
		flag partition "cannot move a task into $ST/part/work"
	while running; do
		rnd 3
		case $RND in
		0) p=root ;;
		1) p=isolated ;;
		*) p=member ;;
		esac
		if echo $p 2>/dev/null > $ST/part/cpuset.cpus.partition; then
			got=$(cat $ST/part/cpuset.cpus.partition)
			# With a CPU of the set offline the partition may be
			# invalid: the kernel says so, with the reason.
			case $got in
			"$p"|"$p invalid"*) ok=$((ok + 1)) ;;
			*) flag partition "the partition reads '$got' after writing $p" ;;
			esac
		else
			refused=$((refused + 1))
		fi
		rnd 500000
		nap $((200000 + RND))
	done
	echo member > $ST/part/cpuset.cpus.partition ||
		flag partition "cannot make the partition a member again"
	kill $busy
	wait $busy 2>/dev/null
	rmdir $ST/part/work $ST/part || flag partition "rmdir $ST/part/work $ST/part"
	op partition $ok refused $refused
}

# The runtime switch of every piece, flipped independently: tasks enqueued
# by one side are dequeued by the other, groups allocated by one are freed
# by the other.
st_flip() {
	local p n cur impl n_tg_state=0 n_pick=0 n_llc=0
	rnd_seed 3
	while running; do
		for p in $FLIP; do
			# Each piece once in the first round (the machine may run
			# only a few rounds), then at random.
			eval "n=\$n_$p"
			if [ "$n" -gt 0 ]; then
				rnd 2
				[ $RND = 0 ] && continue
			fi
			read -r cur < $RC/$p
			impl=rust
			[ "$cur" = rust ] && impl=c
			if echo $impl > $RC/$p; then
				eval "n_$p=\$((n + 1))"
			else
				flag flip_$p "cannot switch $p to $impl"
			fi
		done
		rnd 100000
		nap $((20000 + RND))
	done
	for p in $FLIP; do
		eval "op flip_$p \$n_$p"
	done
}

# cgroup churn: groups created and removed with tasks moved in and out,
# cpu.weight / cpu.max / cpu.idle rewritten, tasks reniced, SCHED_IDLE and
# SCHED_BATCH tasks among them.
st_cgchurn() {
	local ops=0 moves=0 g pid pids idle v
	rnd_seed 4
	# Tasks live in the groups g0..g5 or in "home" (a cgroup with
	# controllers enabled for its children may hold no task itself).
	mkdir $ST/churn $ST/churn/home || flag cgchurn "mkdir $ST/churn $ST/churn/home"
	echo +cpu > $ST/churn/cgroup.subtree_control || flag cgchurn "+cpu in $ST/churn"
	sh -c 'while :; do :; done' &
	pids=$!
	"$SB" nap 3000 &
	pids="$pids $!"
	chrt -i 0 sh -c 'while :; do :; done' &
	pids="$pids $!"
	chrt -b 0 "$SB" nap 1000 &
	pids="$pids $!"
	# Each starts in home, below the phase's cgroup (which cgroup.kill
	# empties if the test is stopped), and moves from there.
	for pid in $pids; do
		echo $pid > $ST/churn/home/cgroup.procs ||
			flag cgchurn "move $pid to $ST/churn/home"
	done
	while running; do
		rnd 6
		g=$ST/churn/g$RND
		if [ ! -d $g ]; then
			mkdir $g || flag cgchurn "mkdir $g"
		fi
		# An idle group has no weight of its own (writes are refused).
		rnd 2
		idle=$RND
		echo $idle > $g/cpu.idle || flag cgchurn "cpu.idle $g"
		if [ $idle = 0 ]; then
			rnd 10000
			echo $((1 + RND)) > $g/cpu.weight || flag cgchurn "cpu.weight $g"
		fi
		rnd 3
		if [ $RND = 0 ]; then
			v="max 100000"
		else
			rnd 95000
			v="$((5000 + RND)) 100000"
		fi
		echo "$v" > $g/cpu.max || flag cgchurn "cpu.max $g"
		for pid in $pids; do
			rnd 2
			if [ $RND = 0 ]; then
				echo $pid > $g/cgroup.procs || flag cgchurn "move $pid to $g"
				moves=$((moves + 1))
			fi
			rnd 4
			if [ $RND = 0 ]; then
				rnd 40
				renice -n $((RND - 20)) -p $pid > /dev/null 2>&1
			fi
		done
		# Empty a group into its parent and remove it.
		rnd 6
		g=$ST/churn/g$RND
		rnd 3
		if [ -d $g ] && [ $RND = 0 ]; then
			for pid in $(cat $g/cgroup.procs); do
				echo $pid > $ST/churn/home/cgroup.procs
			done
			rmdir $g || flag cgchurn "rmdir $g"
		fi
		ops=$((ops + 1))
		rnd 50000
		nap $RND
	done
	kill $pids
	wait $pids 2>/dev/null
	for g in $ST/churn/g* $ST/churn/home; do
		[ ! -d $g ] || rmdir $g
	done
	rmdir $ST/churn || flag cgchurn "rmdir $ST/churn"
	op cgchurn $ops
	op cgmoves $moves
}

# Scheduler features off their defaults, one at a time.
st_features() {
	local n=0 f
	while running; do
		for f in NEXT_BUDDY NO_DELAY_DEQUEUE NO_RUN_TO_PARITY NO_PICK_BUDDY; do
			running || break
			echo $f > $FEAT || flag features "cannot set sched feature $f"
			grep -qw $f $FEAT || flag features "sched feature $f did not take"
			n=$((n + 1))
			sleep 2
			case $f in
			NO_*) echo "${f#NO_}" > $FEAT ;;
			*) echo "NO_$f" > $FEAT ;;
			esac
		done
	done
	op features $n
}

# The load: rt-tests hackbench (over pipes: the guest's kernel has no
# AF_UNIX) in two sibling groups, cyclictest, and stress-ng's scheduler
# stressors (--session allocates autogroups).
st_load() {
	local i
	if [ -z "$skip_hackbench" ]; then
		for i in 1 2; do
			mkdir $ST/hb$i || flag hackbench$i "mkdir $ST/hb$i"
			(
				n=0
				while running; do
					tool hackbench$i hackbench -p -g 2 -l 50 -s 100 || break
					n=$((n + 1))
				done
				op hackbench$i $n
			) &
			# The loop and the hackbench processes it forks run in hb$i.
			echo $! > $ST/hb$i/cgroup.procs ||
				flag hackbench$i "cannot move hackbench to hb$i"
		done
	fi
	[ -n "$skip_cyclictest" ] ||
		tool cyclictest command cyclictest -q -t 2 -p 50 -i 2000 -D "${secs}s" &
	[ -n "$skip_stressng" ] ||
		tool stress-ng stress-ng --temp-path "$W" --session 1 --switch 1 --fork 1 \
			--yield 1 --nice 1 --affinity 1 --timeout "${secs}s" --metrics-brief &
	wait
	[ -n "$skip_hackbench" ] || rmdir $ST/hb1 $ST/hb2 || flag setup "rmdir $ST/hb1 $ST/hb2"
}

# Allocation failure on a real cgroup creation: /proc/self/fail-nth over
# mkdir for N = 1, 2, ... until a mkdir succeeds without a fault injected
# (schedbench failmkdir), with tg_state on Rust and on C in turn (once on a
# kernel without the switch), 3 rounds after a warm-up sweep on each.
# Percpu and slab are read around every sweep, and schedbench counts the
# per-CPU allocations in use before and after it where the kernel counts
# them (CONFIG_PERCPU_STATS): a side whose sweeps make them grow leaks.
# fail-nth only: no random faults, and GFP_KERNEL allocations and order-0
# pages are eligible (the defaults skip them); quiet, as the injected
# failures are expected. The settings are put back afterwards.
tg_side() {	# tg_side <side>: the group state on <side> (debug kernel)
	[ "$SHAPE" = debug ] || return 0
	[ -f $RC/tg_state ] || return 0
	echo "$1" > $RC/tg_state 2>/dev/null && [ "$(cat $RC/tg_state)" = "$1" ]
}
st_failnth() {
	local r side p0 s0 p1 s1 out k v f
	for k in failslab/ignore-gfp-wait failslab/verbose fail_page_alloc/ignore-gfp-wait \
		 fail_page_alloc/verbose fail_page_alloc/min-order; do
		v=$(cat "$FI/$k" 2>/dev/null) && fi_saved="$fi_saved $k=$v"
	done
	for f in failslab fail_page_alloc; do
		echo N > $FI/$f/ignore-gfp-wait || flag failnth "cannot set $FI/$f/ignore-gfp-wait"
		echo 0 > $FI/$f/verbose || flag failnth "cannot set $FI/$f/verbose"
	done
	echo 0 > $FI/fail_page_alloc/min-order ||
		flag failnth "cannot set $FI/fail_page_alloc/min-order"
	for side in $SIDES; do
		tg_side $side || flag failnth_$side "cannot put tg_state on $side"
		sb failnth_$side failmkdir $ST/fn 400 > /dev/null
	done
	for r in 1 2 3; do
		for side in $SIDES; do
			tg_side $side || flag failnth_$side "cannot put tg_state on $side"
			p0=$(meminfo Percpu)
			s0=$(meminfo Slab)
			out=$(sb failnth_$side failmkdir $ST/fn 400)
			p1=$(meminfo Percpu)
			s1=$(meminfo Slab)
			[ -z "$out" ] || echo "$out" >> "$W/failnth.$side"
			echo "percpu_kb ${p0:--} ${p1:--} slab_kb ${s0:--} ${s1:--}" \
				>> "$W/leak.$side"
		done
	done
	for k in $fi_saved; do
		echo "${k#*=}" > "$FI/${k%%=*}" ||
			flag failnth "cannot put ${k%%=*} back to ${k#*=}"
	done
	fi_saved=
	tg_side rust
}

# What each operation needs, as the reason its cases skip.
skip_hotplug=$(lacks HOTPLUG_CPU)
[ -n "$skip_hotplug" ] || [ "$NCPU" -ge 2 ] ||
	skip_hotplug="$NCPU CPU online: nothing to take offline"
skip_partition=$(lacks CPUSETS)
[ -n "$skip_partition" ] || [ "$NCPU" -ge 2 ] ||
	skip_partition="$NCPU CPU online: no second half to partition"
FLIP=
for p in $PIECES; do
	case $p in
	tg_state) why=$(lacks SCHED_RUST_CFS_DEBUG FAIR_GROUP_SCHED) ;;
	llc) why=$(lacks SCHED_RUST_CFS_DEBUG SCHED_CACHE) ;;
	*) why=$(lacks SCHED_RUST_CFS_DEBUG) ;;
	esac
	if [ -z "$why" ] && [ ! -f $RC/$p ]; then
		flag flip_$p "no $RC/$p in a kernel with the options of its switch"
	elif [ -z "$why" ]; then
		FLIP="$FLIP $p"
	fi
	eval "skip_flip_$p=\$why"
done
skip_cgchurn=
[ -x "$SB" ] || skip_cgchurn="no $SB: the collection was installed without it"
for t in chrt renice; do
	have $t || skip_cgchurn="${skip_cgchurn:+$skip_cgchurn; }no $t in PATH"
done
skip_cgmoves=$skip_cgchurn
skip_features=
[ -f $FEAT ] || skip_features="no $FEAT"
skip_hackbench=
have hackbench || skip_hackbench="no hackbench (rt-tests) in PATH"
skip_hackbench1=$skip_hackbench skip_hackbench2=$skip_hackbench
skip_cyclictest=
have cyclictest || skip_cyclictest="no cyclictest (rt-tests) in PATH"
skip_stressng=
have stress-ng || skip_stressng="no stress-ng in PATH"
skip_failnth=$(lacks FAULT_INJECTION FAILSLAB FAIL_PAGE_ALLOC FAULT_INJECTION_DEBUG_FS)
[ -n "$skip_failnth" ] || [ -x "$SB" ] ||
	skip_failnth="no $SB: the collection was installed without it"

# Set-up: the controllers, the allocator's chunks warmed up (340 groups with
# the cpu controller, made and removed, as the group churn's Percpu check
# does, so that "before" is not a cold allocator's count), then the counts
# before the phase.
echo +cpu > $CG/cgroup.subtree_control || flag setup "cannot enable the cpu controller in $CG"
if [ -z "$skip_partition" ] && ! grep -qw cpuset $CG/cgroup.subtree_control; then
	if echo +cpuset > $CG/cgroup.subtree_control; then
		cpuset_added=1
	else
		flag partition "no cpuset controller in $CG: $(cat $CG/cgroup.controllers)"
	fi
fi
tree_remove $ST > /dev/null 2>&1
if [ -x "$SB" ]; then
	sb setup cgtree $CG/sched_rust_stwarm 4 4 > /dev/null
	rmdir $CG/sched_rust_stwarm 2>/dev/null
else
	tree $CG/sched_rust_stwarm 4 4
	tree_remove $CG/sched_rust_stwarm
fi
sleep 2
# The per-CPU allocations in use ("-" without CONFIG_PERCPU_STATS), after
# every CPU ran schedbench (so that none keeps an exited process's memory
# context and its per-CPU counters); after the phase, once back to the
# count before or after 15 s (a removed group's per-CPU memory goes after
# RCU grace periods and the css release work).
a0=-
[ ! -x "$SB" ] || a0=$(sb percpu pcpu)
p0=$(meminfo Percpu)
g0=$(cgstat nr_descendants)
mkdir $ST || flag setup "mkdir $ST"
echo +cpu > $ST/cgroup.subtree_control || flag setup "+cpu in $ST"
[ -n "$skip_partition" ] || echo +cpuset > $ST/cgroup.subtree_control ||
	flag partition "+cpuset in $ST"
[ ! -f $FEAT ] || feat0=$(cat $FEAT)
HP=
for c in /sys/devices/system/cpu/cpu[1-9]*; do
	[ -f "$c/online" ] && [ "$(cat "$c/online")" = 1 ] && HP="$HP $c"
done
online0=$(cat /sys/devices/system/cpu/online)
use rust || flag setup "cannot put every piece on Rust"
[ ! -f $RC/pick_stats ] || echo 1 > $RC/pick_stats ||
	flag setup "cannot switch sched_rust/pick_stats on"

ktap_print_msg "figure: stress: $secs s of load on $NCPU CPUs, sides $SIDES"
started=
now
t0=$NOW END=$((NOW + secs))
st_load &
WORKERS="$WORKERS $!"
if [ -z "$skip_hotplug" ]; then
	st_hotplug &
	WORKERS="$WORKERS $!" started="$started hotplug"
fi
if [ -z "$skip_partition" ]; then
	st_partition &
	WORKERS="$WORKERS $!" started="$started partition"
fi
if [ -n "$FLIP" ]; then
	st_flip &
	WORKERS="$WORKERS $!"
	for p in $FLIP; do
		started="$started flip_$p"
	done
fi
if [ -z "$skip_cgchurn" ]; then
	st_cgchurn &
	WORKERS="$WORKERS $!" started="$started cgchurn cgmoves"
fi
if [ -z "$skip_features" ]; then
	st_features &
	WORKERS="$WORKERS $!" started="$started features"
fi
[ -n "$skip_hackbench" ] || started="$started hackbench1 hackbench2"
wait
WORKERS=
now
ktap_print_msg "the load ended after $((NOW - t0)) s; operations:$started"

# After the load: every CPU online again, the sched features as they were.
online1=$(cat /sys/devices/system/cpu/online)
cpus_off=
for c in $HP; do
	read -r v < "$c/online"
	[ "$v" = 1 ] && continue
	echo 1 > "$c/online" 2>/dev/null
	cpus_off="$cpus_off ${c##*/}"
done
feat1=
if [ -n "$feat0" ]; then
	feat1=$(cat $FEAT)
	if [ "$feat1" != "$feat0" ]; then
		for f in $feat0; do
			echo "$f" > $FEAT 2>/dev/null
		done
	fi
fi
use rust || flag setup "cannot put every piece back on Rust after the load"
if [ -f $RC/pick_stats ]; then
	picks=$(grep -v enabled $RC/pick_stats | tr -s ' \n' '  ')
	ktap_print_msg "figure: stress: picks during the load: $picks"
	echo 0 > $RC/pick_stats
fi

if [ -z "$skip_failnth" ]; then
	if [ -e /proc/self/fail-nth ]; then
		ktap_print_msg "fail-nth over mkdir, sides $SIDES"
		st_failnth
	else
		flag failnth "no /proc/self/fail-nth in a kernel with CONFIG_FAULT_INJECTION"
	fi
fi
use rust || flag setup "cannot put every piece back on Rust after fail-nth"
rmdir $ST || flag setup "rmdir $ST"
if [ -n "$cpuset_added" ]; then
	echo -cpuset > $CG/cgroup.subtree_control 2>/dev/null && cpuset_added=
fi
sleep 1
# Every group of the phase is gone (rmdir returns once the group is
# offline; its per-CPU state goes with its last reference, after an RCU
# grace period): give the frees a few seconds.
for c in 1 2 3 4 5 6 7 8 9 10; do
	[ "$(cgstat nr_dying_descendants)" = 0 ] && break
	sleep 1
done
p1=$(meminfo Percpu)
g1=$(cgstat nr_descendants)
d1=$(cgstat nr_dying_descendants)
a1=-
[ ! -x "$SB" ] || a1=$(sb percpu pcpu "${a0:--}")
# Per CPU of sched_rust/llc_state: "cpu <n> ... <nr_llc_running, field 6>
# ... <nr_pref_llc_running, field 8>".
llc_n=- llc_sum=- llc_left=
if [ -f $RC/llc_state ]; then
	llc_n=$(awk '$1 == "cpu" { n++ } END { print n + 0 }' $RC/llc_state)
	llc_sum=$(awk '$1 == "cpu" { s += $6 + $8 } END { print s + 0 }' $RC/llc_state)
	llc_left=$(awk '$1 == "cpu" && ($6 || $8) { printf " cpu%s: %s %s;", $2, $6, $8 }' \
		$RC/llc_state)
fi

# The cases. The phase: it ran to its end, every operation it started
# reported, in the shape of its kernel.
collect setup
for o in $started; do
	[ -n "$(opline $o)" ] || problem "$o reported no count: its process did not finish"
done
verdict "the stress phase ran to its end"

# A production kernel has one side and no runtime switch to flip; a debug
# kernel flips every piece it has and runs fail-nth on both sides.
if [ -z "$CONFIG" ]; then
	skip_case "shape: the sides and operations of the kernel's shape ($(lacks))"
else
	want=none
	cfg SCHED_RUST_CFS && want=prod
	cfg SCHED_RUST_CFS_DEBUG && want=debug
	[ "$SHAPE" = "$want" ] ||
		problem "the phase ran as on a $SHAPE kernel," \
			"the kernel's configuration is a $want one" \
			"($RC: $([ -d $RC ] && echo present || echo absent))"
	if [ "$want" = debug ]; then
		[ "$SIDES" = "rust c" ] || problem "sides '$SIDES', not 'rust c'"
		for p in $PIECES; do
			eval "why=\$skip_flip_$p"
			case " $started " in
			*" flip_$p "*) ;;
			*) [ -n "$why" ] || problem "the switch of $p was not flipped" ;;
			esac
		done
	else
		[ "$SIDES" = prod ] || problem "sides '$SIDES' on a kernel without the switch"
		case "$started" in
		*flip_*) problem "switches flipped on a kernel without them" ;;
		esac
	fi
	ktap_print_msg "sides $SIDES; operations:$started"
	case $want in
	debug) want="debug kernel: sides rust c, every switch flipped" ;;
	prod) want="production kernel: one side, no switch" ;;
	*) want="kernel without CONFIG_SCHED_RUST_CFS: one side, no switch" ;;
	esac
	verdict "shape: a $want"
fi

# Every operation ran, and more than once.
for o in $OPS; do
	eval "why=\$skip_$o"
	if [ -n "$why" ]; then
		skip_case "op $o ran ($why)"
		continue
	fi
	line=$(opline "$o")
	n=${line%% *}
	isnum "$n" && [ "$n" -gt 0 ] || problem "$o ran ${n:-no} times"
	collect "$o"
	ktap_print_msg "figure: stress: op $o ${line:-none}"
	verdict "op $o ran"
done

# Every tool exited 0.
tool_tail() {	# tool_tail <name>: the end of its output as problems
	[ -f "$W/tool.$1.out" ] || return 0
	tail -n 15 "$W/tool.$1.out" > "$W/tail"
	while IFS= read -r l; do
		problem "$1: $l"
	done < "$W/tail"
}
for t in cyclictest stress-ng; do
	eval "why=\$skip_$(echo $t | tr -d -)"
	if [ -n "$why" ]; then
		skip_case "$t exited 0 ($why)"
		continue
	fi
	r=$(awk -v t=$t '$1 == t { print $2; exit }' "$W/tools")
	if [ "$r" != 0 ]; then
		problem "$t exited ${r:-never ran}"
		tool_tail $t
	fi
	verdict "$t exited 0"
done
if [ -n "$skip_hackbench" ]; then
	skip_case "every hackbench run exited 0 ($skip_hackbench)"
else
	runs=$(grep -cE '^hackbench[12] ' "$W/tools")
	bad=$(grep -E '^hackbench[12] ' "$W/tools" | grep -vc ' 0$')
	[ "$runs" -gt 0 ] || problem "no hackbench run"
	if [ "$bad" != 0 ]; then
		problem "$bad hackbench runs exited non-zero"
		for t in hackbench1 hackbench2; do
			grep -q "^$t [1-9]" "$W/tools" && tool_tail $t
		done
	fi
	ktap_print_msg "figure: stress: hackbench $runs runs, $bad failed"
	verdict "every hackbench run exited 0"
fi

# What the load leaves: every CPU online, the sched features as they were.
if [ -n "$skip_hotplug" ]; then
	skip_case "every CPU back online after the load ($skip_hotplug)"
else
	[ -n "$HP" ] || problem "no CPU but the boot CPU was online with an online file"
	[ -z "$cpus_off" ] || problem "left offline after the load:$cpus_off"
	[ "$online1" = "$online0" ] ||
		problem "CPUs online after the load: $online1, before it: $online0"
	verdict "every CPU back online after the load"
fi
if [ -n "$skip_features" ]; then
	skip_case "sched features back to their defaults ($skip_features)"
else
	[ -n "$feat1" ] || problem "$FEAT not read after the load"
	[ "$feat1" = "$feat0" ] ||
		problem "sched features not back to their defaults: '$feat1', '$feat0' before"
	verdict "sched features back to their defaults"
fi

# fail-nth over mkdir, per side: every sweep failed mkdirs with faults
# injected ("failmkdir points P injected I failed F enomem E tolerated T
# percpu_allocs <before> <after>": F is field 7, E field 9).
for side in $SIDES; do
	f=$W/failnth.$side l=$W/leak.$side
	if [ -n "$skip_failnth" ]; then
		for c in "fail-nth over mkdir: 3 sweeps with failed mkdirs" \
			 "fail-nth: every failed mkdir returned ENOMEM" \
			 "fail-nth: no per-CPU memory left by the failed mkdirs" \
			 "fail-nth: slab grew by at most 1 MB over the sweeps"; do
			skip_case "$side: $c ($skip_failnth)"
		done
		continue
	fi
	touch "$f" "$l"
	while IFS= read -r s; do
		ktap_print_msg "$side: $s"
	done < "$f"
	collect failnth
	collect failnth_$side
	nsweeps=$(awk '$7 > 0 { n++ } END { print n + 0 }' "$f")
	[ "$nsweeps" -ge 3 ] ||
		problem "fail-nth over mkdir on $side:" \
			"$nsweeps sweeps with failed mkdirs, expected 3"
	verdict "$side: fail-nth over mkdir: 3 sweeps with failed mkdirs"

	# C's clean error: every mkdir that failed returned ENOMEM.
	failed=$(awk '{ n += $7 } END { print n + 0 }' "$f")
	other=$(awk '$7 != $9 { n += $7 - $9 } END { print n + 0 }' "$f")
	[ "$failed" -gt 0 ] || problem "fail-nth over mkdir on $side: no failed mkdir to judge"
	[ "$other" = 0 ] ||
		problem "fail-nth over mkdir on $side: $other failed mkdirs" \
			"returned an error other than ENOMEM"
	verdict "$side: fail-nth: every failed mkdir returned ENOMEM"

	# With CONFIG_PERCPU_STATS, the per-CPU allocations in use, counted by
	# the sweeping process itself before and after each sweep, are back to
	# their count (exactly, each sweep on its own: one leaked group state
	# is one allocation; kmemleak, where the kernel has it, names a leaked
	# object). Without it, summed over a side's sweeps, Percpu may not grow
	# by more than 4 pages per CPU (the allocator populates chunk pages and
	# keeps up to PCPU_EMPTY_POP_PAGES_HIGH = 4 empty ones populated: a
	# KASAN run saw +3 pages per CPU on the C side once), where leaking the
	# state of every failed mkdir would grow it by ~60 kB per CPU per
	# sweep; nor slab by 1 MB (without KASAN).
	eval "$(awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ && $5 ~ /^[0-9]+$/ && $6 ~ /^[0-9]+$/ {
		n++; p += $3 - $2; s += $6 - $5 }
		END { printf "nm=%d dp=%d ds=%d\n", n, p, s }' "$l")"
	fig="Percpu $dp kB, slab $ds kB over its sweeps"
	ktap_print_msg "figure: stress: fail-nth on $side: $fig"
	name="$side: fail-nth: no per-CPU memory left by the failed mkdirs"
	if [ -z "$CONFIG" ]; then
		skip_case "$name ($(lacks))"
	elif cfg PERCPU_STATS; then
		eval "$(awk '$12 == "percpu_allocs" && $13 ~ /^[0-9]+$/ && $14 ~ /^[0-9]+$/ {
			n++; if ($14 > $13) { b++; d += $14 - $13 } }
			END { printf "nl=%d nb=%d da=%d\n", n, b, d }' "$f")"
		[ "$nl" -ge 3 ] ||
			problem "fail-nth over mkdir on $side: $nl sweeps with a count" \
				"of per-CPU allocations before and after, expected 3"
		[ "$nb" = 0 ] ||
			problem "fail-nth over mkdir on $side: $nb sweeps left $da more" \
				"per-CPU allocations in use than before them"
		fig="$nl sweeps, $nb with more per-CPU allocations in use after"
		ktap_print_msg "figure: stress: fail-nth on $side: $fig"
		verdict "$name"
	else
		[ "$nm" -ge 3 ] || problem "Percpu read around $nm sweeps on $side, expected 3"
		[ "$dp" -le $((16 * NCPU)) ] ||
			problem "Percpu grew by $dp kB over the failed mkdirs on $side"
		verdict "$name"
	fi
	# KASAN's quarantine keeps freed objects in the slab: there, kmemleak
	# (test-kasan) is the judge of leaked objects.
	name="$side: fail-nth: slab grew by at most 1 MB over the sweeps"
	why=$(lacks)
	[ -n "$why" ] || ! cfg KASAN ||
		why="KASAN's quarantine keeps freed objects in the slab: kmemleak judges"
	if [ -n "$why" ]; then
		skip_case "$name ($why)"
	else
		[ "$nm" -ge 3 ] || problem "slab read around $nm sweeps on $side, expected 3"
		[ "$ds" -le 1024 ] || problem "slab grew by $ds kB over the failed mkdirs on $side"
		verdict "$name"
	fi
done

# What any kernel shows: the cgroups of the phase gone, and, with
# CONFIG_PERCPU_STATS, the per-CPU allocations in use back to their count
# after a warm-up (schedbench pcpu: read after every CPU ran it, so that
# none keeps an exited process's memory context), within 3 per CPU (the
# per-CPU counters of a process that has not yet been reaped; the state of
# each leaked group is one allocation, of thousands made); without it,
# Percpu back to its start within the group churn's 512 kB (the allocator
# keeps populated pages and an empty chunk; a leaked group's state is about
# 1.1 kB per CPU).
fig="Percpu $p0 kB before, $p1 kB after; per-CPU allocations $a0 before, $a1 after;"
fig="$fig cgroups $g0 before, $g1 after"
ktap_print_msg "figure: stress: $fig"
if ! isnum "$g0" || ! isnum "$g1" || ! isnum "$d1"; then
	problem "no cgroup count before and after the phase ('$g0', '$g1', dying '$d1')"
elif [ "$g1" != "$g0" ] || [ "$d1" != 0 ]; then
	problem "$g1 cgroups ($d1 dying) after the phase, $g0 before"
fi
verdict "the cgroups back to their count after the phase, none dying"
name="per-CPU memory back to its count after the phase"
collect percpu
if [ -z "$CONFIG" ]; then
	skip_case "$name ($(lacks))"
elif cfg PERCPU_STATS; then
	if [ ! -x "$SB" ]; then
		skip_case "$name (no $SB to count the per-CPU allocations)"
	else
		if ! isnum "$a0" || ! isnum "$a1"; then
			problem "no count of per-CPU allocations before and after the phase" \
				"(${a0:-none}, ${a1:-none}), with CONFIG_PERCPU_STATS"
		elif [ "$a1" -gt $((a0 + 3 * NCPU)) ]; then
			problem "$a0 per-CPU allocations in use before the phase," \
				"$a1 after its groups went"
		fi
		verdict "$name"
	fi
else
	if ! isnum "$p0" || ! isnum "$p1"; then
		problem "no Percpu in /proc/meminfo before and after the phase ('$p0', '$p1')"
	elif [ $((p1 - p0)) -gt 512 ]; then
		problem "Percpu $p0 kB before the phase, $p1 kB after its groups went"
	fi
	verdict "$name"
fi

# The LLC counters (the debug kernel's sched_rust/llc_state): every CPU's
# nr_llc_running and nr_pref_llc_running back to 0 once the phase is over.
name="the LLC counters back to 0 after the phase"
why=$(lacks SCHED_RUST_CFS_DEBUG SCHED_CACHE)
if [ -n "$why" ]; then
	skip_case "$name ($why)"
else
	if [ "$llc_n" = - ]; then
		problem "no $RC/llc_state in a kernel with the debug option and CONFIG_SCHED_CACHE"
	else
		[ "$llc_n" -gt 0 ] || problem "no cpu line in $RC/llc_state"
		[ "$llc_sum" = 0 ] ||
			problem "LLC counters after the stress phase: $llc_sum, not 0" \
				"(nr_llc_running, nr_pref_llc_running:$llc_left)"
	fi
	verdict "$name"
fi
ktap_finished
