# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The TCG plugins of make bench and make bench-scale (evaluation/bench/icount.c,
# evaluation/bench/percall.c), the per-call plugin's configuration and the
# boot order of the head-to-head runs: sourced after common.sh by
# scripts/bench.sh, bench-scale.sh, bench-prod.sh and bench-verdicts.sh.

# shuffled_sets <seed> <sets> <kernel>...: one line per set, the kernels in
# a random order drawn from <seed>; the same seed gives the same lines. The
# numbers are drawn in this function's shell: bash reseeds RANDOM in every
# subshell, a pipeline's elements included, so a draw there would not
# follow the seed.
shuffled_sets() {
	local seed=$1 sets=$2 i k draw
	shift 2
	RANDOM=$seed
	for ((i = 1; i <= sets; i++)); do
		draw=
		for k in "$@"; do
			draw+="$RANDOM $k"$'\n'
		done
		printf '%s' "$draw" | sort -n -k1,1 | cut -d' ' -f2 | paste -sd' '
	done
}

# The plugins build against the plugin API header of Debian's qemu source
# package (bookworm), fetched through a private apt configuration like the
# kernel source. Sets q, the directory of the built plugins.
percall_plugins() {
	local o p
	q=$CACHE/qemu-plugin
	if [ ! -f "$q/include/qemu-plugin.h" ]; then
		mkdir -p "$q/lists/partial" "$q/include"
		printf 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main\n' \
			> "$q/sources.list"
		o=(-o Dir::Etc::SourceList="$q/sources.list" -o Dir::Etc::SourceParts=/dev/null
			-o Dir::State::Lists="$q/lists" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
		log "fetching Debian's qemu source for the TCG plugin API header"
		apt-get "${o[@]}" update -qq
		(cd "$q" && apt-get "${o[@]}" source --download-only -qq qemu)
		tar -C "$q" -xJf "$q"/qemu_*.orig.tar.xz --wildcards '*/include/qemu/qemu-plugin.h'
		cp "$q"/qemu-*/include/qemu/qemu-plugin.h "$q/include/"
	fi
	for p in icount percall; do
		[ "$q/lib$p.so" -nt "$TOP/evaluation/bench/$p.c" ] &&
			[ "$q/lib$p.so" -nt "$TOP/evaluation/bench/tb_insns.h" ] ||
			gcc -shared -fPIC -O2 -Wall -Werror -I"$q/include" -o "$q/lib$p.so" "$TOP/evaluation/bench/$p.c" ||
			die "cannot build the QEMU plugin evaluation/bench/$p.c"
	done
}

# percall_conf <build directory> <output>: the call sites of the pieces' C
# entry points (each dispatches to C or to the Rust code inlined into it),
# from the disassembly: "call <insn> <return address> <piece>"; the pair_
# pieces are the shadow check's out-of-line sides (rust/debug/fair_shadow.c), each
# called on the same live state.
# task_cache_work() is reached through task_work_run()'s indirect call. The
# segment mark is the write to pick_stats the guest does before every run.
# A call during which the vCPU entered an interrupt, an exception or a
# context switch is left out (counted as disturbed).
# percall_conf <build directory> <output> [<piece:function>... [<mark>]]:
# other pieces and another segment mark (make bench-prod's). With them,
# every piece's function is also entry-tracked and every indirect call of the
# kernel is a site that may reach it (a production kernel's enqueue and
# dequeue are reached through the scheduling class), and a piece with no
# direct call is accepted.
percall_conf() {
	local B=$1 out=$2 dis p i cw pieces mark=${4:-sched_rust_pick_stats_write} prod=${3:+1}
	dis=$B/vmlinux.dis
	[ "$dis" -nt "$B/vmlinux" ] || llvm-objdump$LLVM_SUFFIX -d --no-show-raw-insn "$B/vmlinux" > "$dis"
	pieces=${3:-"pick:pick_eevdf_debug llc_enqueue:account_llc_enqueue_debug llc_dequeue:account_llc_dequeue_debug
		occupancy:fraction_mm_sched cache_work:task_cache_work tg_alloc:alloc_fair_sched_group
		tg_free:free_fair_sched_group
		pair_pick_c:shadow_pick_c pair_pick_rust:shadow_pick_rust
		pair_pick_stock:shadow_pick_stock
		pair_llc_enqueue_c:shadow_llc_enqueue_c pair_llc_enqueue_rust:shadow_llc_enqueue_rust
		pair_llc_dequeue_c:shadow_llc_dequeue_c pair_llc_dequeue_rust:shadow_llc_dequeue_rust
		pair_occupancy_c:shadow_occupancy_c pair_occupancy_rust:shadow_occupancy_rust
		pair_tg_alloc_c:shadow_tg_alloc_c pair_tg_alloc_rust:shadow_tg_alloc_rust
		pair_tg_free_c:shadow_tg_free_c pair_tg_free_rust:shadow_tg_free_rust"}
	cw=
	i=0
	for p in $pieces; do
		[ "${p#*:}" = task_cache_work ] && cw=$i
		i=$((i + 1))
	done
	{
		i=0
		for p in $pieces; do
			echo "fn $i ${p%%:*}"
			i=$((i + 1))
		done
		awk -v pieces="$pieces" -v arch="$KARCH" -v all="${prod:-0}" '
		BEGIN {
			# The call instruction: callq on x86_64, bl on arm64.
			call = arch == "arm64" ? "bl" : "callq"
			n = split(pieces, a, /[ \t\n]+/)
			for (i = 1; i <= n; i++) if (a[i] != "") { split(a[i], b, ":"); id[b[2]] = k++ }
		}
		/^[0-9a-f]+ <.*>:$/ { fn = substr($2, 2, length($2) - 3); next }
		$1 ~ /^[0-9a-f]+:$/ {
			addr = substr($1, 1, length($1) - 1)
			if (pend != "") { print pend " " addr pendid; pend = "" }
			# (The retpoline thunks call into themselves: not a site.)
			ind = (all && fn !~ /^__x86_indirect_/) || fn == "task_work_run"
			if (ind && $2 == "blr") {
				pend = "icall " addr; pendid = ""
				next
			}
			if ($2 != call)
				next
			t = $4; gsub(/[<>]/, "", t)
			if ($3 ~ /^0x/ && t in id) { pend = "call " addr; pendid = " " id[t] }
			else if (ind && ($3 ~ /^\*/ || t ~ /^__x86_indirect_thunk_/)) {
				pend = "icall " addr; pendid = ""
			}
		}' "$dis"
		awk -v cw="$cw" -v mark="$mark" -v pieces="$pieces" -v all="${prod:-0}" '
			BEGIN {
				n = split(pieces, a, /[ \t\n]+/)
				for (i = 1; i <= n; i++) if (a[i] != "") { split(a[i], b, ":"); id[b[2]] = k++ }
			}
			$3 == "task_cache_work" && cw != "" && !all { print "entry " $1 " " cw }
			all && ($3 in id) && $2 ~ /^[tT]$/ { print "entry " $1 " " id[$3] }
			$3 == mark { print "mark " $1 }
			# Exception and interrupt entries and the context switch:
			# x86_64, then arm64 (the vectors branch to el1h_64_irq ...).
			$3 ~ /^(asm_sysvec_|asm_exc_|asm_common_interrupt$|asm_spurious_interrupt$|__switch_to_asm$)/ ||
			$3 ~ /^(el[01][th]_(64|32)_(sync|irq|fiq|error)$|cpu_switch_to$)/ {
				print "irq " $1
			}' "$B/System.map"
	} > "$out"
	i=0
	for p in $pieces; do
		[ "$i" = "$cw" ] || [ -n "$prod" ] || grep -q "^call [0-9a-f]* [0-9a-f]* $i\$" "$out" ||
			die "percall: no direct call of ${p#*:} in $dis"
		[ -z "$prod" ] || grep -q "^entry [0-9a-f]* $i\$" "$out" ||
			die "percall: ${p#*:} is not a function of $B/System.map"
		i=$((i + 1))
	done
	grep -q '^mark ' "$out" && { [ -z "$cw" ] || grep -q '^entry ' "$out"; } &&
		grep -q '^irq ' "$out" &&
		grep -q '^icall ' "$out" ||
		die "percall: no segment mark, task_cache_work entry, interrupt entry or task_work_run indirect call ($out)"
}

# prod_percall_conf <results dir> <kernel>...: make bench-prod's plugin
# configuration for each kernel (<dir>/percall-<kernel>.conf) and the
# function measured per piece (<dir>/pieces.txt). Each piece is measured at
# the functions of fair.c that contain every call of it in 7.3.4 and that
# every kernel keeps as a symbol (the scheduling class's methods, reached
# through it, and update_curr()), whole, with what they call: the pick in
# pick_task_fair() and in wakeup_preempt_fair() (the wakeup preemption's
# pick_next_entity()), the LLC accounting in enqueue_task_fair() and
# dequeue_task_fair() (account_entity_enqueue/dequeue(), set_delayed(),
# requeue_delayed_entity()) and in update_curr() (account_mm_sched(): the
# epoch decay and a changed preference), the occupancy scan in
# task_cache_work(), the group state in alloc/free_fair_sched_group().
# The control: update_rq_clock() (kernel/sched/core.c), code the series
# changes on no kernel, called on the same paths of the same workloads: its
# gaps between the kernels are what layout and the boots' timing alone move.
# The segment mark is sethostname(), which the guest calls before every run.
prod_percall_conf() {
	local R=$1 k piece fn spec
	shift
	local sites="pick:pick_task_fair pick_wakeup:wakeup_preempt_fair
		enqueue:enqueue_task_fair dequeue:dequeue_task_fair update_curr:update_curr
		cache_work:task_cache_work tg_alloc:alloc_fair_sched_group tg_free:free_fair_sched_group
		control:update_rq_clock"
	: > "$R/pieces.txt"
	for p in $sites; do
		fn=${p#*:}
		for k in "$@"; do
			awk -v f="$fn" '$3 == f && $2 ~ /^[tT]$/ { found = 1 } END { exit !found }' \
				"$(bdir "$k")/System.map" ||
				die "bench-prod: $fn is not a function of the $k kernel: choose another call site"
		done
		echo "${p%%:*} $fn" >> "$R/pieces.txt"
	done
	local mark=__x64_sys_sethostname
	[ "$KARCH" = arm64 ] && mark=__arm64_sys_sethostname
	for k in "$@"; do
		percall_conf "$(bdir "$k")" "$R/percall-$k.conf" "$sites" "$mark"
		[ "$KARCH" = x86_64 ] && prod_routes_conf "$R" "$k"
	done
}

# prod_routes_conf <results dir> <kernel>: the route lines of the kernel's
# plugin configuration (scripts/routes.py on evaluation/bench/routes.txt,
# through the line tables scripts/build.sh gives fair.o and the crate, in
# the functions of those objects), after scripts/check-lines.sh has shown
# that the line tables leave their code as it is. What each route resolved
# to goes to <dir>/routes-<kernel>.txt.
prod_routes_conf() {
	local R=$1 k=$2 B tree fns o
	B=$(bdir "$k")
	# The tree the kernel was built from: a shape variant's has its fair.c.
	tree=$(flavour_tree "$k")
	"$TOP/scripts/check-lines.sh" "$k" || die "bench-prod: $k: the line tables change the code measured"
	fns=$(for o in "$B/kernel/sched/fair.o" "$B/kernel/sched/rust/sched_rust.o"; do
		if [ -f "$o" ]; then
			llvm-nm$LLVM_SUFFIX --defined-only "$o" | awk '$2 ~ /^[tT]$/ { print $3 }'
		fi
	done | sort -u)
	# shellcheck disable=SC2086 # the functions, one argument each
	/usr/bin/python3 "$TOP/scripts/routes.py" "$TOP/evaluation/bench/routes.txt" "$k" "$tree" \
		"$B/vmlinux" $fns >> "$R/percall-$k.conf" 2> "$R/routes-$k.txt" ||
		{ cat "$R/routes-$k.txt" >&2; die "bench-prod: $k: a route of evaluation/bench/routes.txt has no instruction"; }
}
