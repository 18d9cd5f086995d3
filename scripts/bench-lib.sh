# SPDX-License-Identifier: GPL-2.0
# The TCG plugins of make bench and make bench-scale (tests/bench/icount.c,
# tests/bench/percall.c) and the per-call plugin's configuration: sourced by
# scripts/bench.sh and scripts/bench-scale.sh after common.sh.

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
		[ "$q/lib$p.so" -nt "$TOP/tests/bench/$p.c" ] &&
			[ "$q/lib$p.so" -nt "$TOP/tests/bench/tb_insns.h" ] ||
			gcc -shared -fPIC -O2 -Wall -Werror -I"$q/include" -o "$q/lib$p.so" "$TOP/tests/bench/$p.c" ||
			die "cannot build the QEMU plugin tests/bench/$p.c"
	done
}

# percall_conf <build directory> <output>: the call sites of the pieces' C
# entry points (each dispatches to C or to the Rust code inlined into it),
# from the disassembly: "call <insn> <return address> <piece>"; the pair_
# pieces are the shadow check's out-of-line sides (rust/fair_shadow.c), each
# called on the same live state.
# task_cache_work() is reached through task_work_run()'s indirect call. The
# segment mark is the write to pick_stats the guest does before every run.
# A call during which the vCPU entered an interrupt, an exception or a
# context switch is left out (counted as disturbed).
percall_conf() {
	local B=$1 out=$2 dis p i cw pieces
	dis=$B/vmlinux.dis
	[ "$dis" -nt "$B/vmlinux" ] || llvm-objdump$LLVM_SUFFIX -d --no-show-raw-insn "$B/vmlinux" > "$dis"
	pieces="pick:pick_eevdf_debug llc_enqueue:account_llc_enqueue_debug llc_dequeue:account_llc_dequeue_debug
		occupancy:fraction_mm_sched cache_work:task_cache_work tg_alloc:alloc_fair_sched_group
		tg_free:free_fair_sched_group
		pair_pick_c:shadow_pick_c pair_pick_rust:shadow_pick_rust
		pair_pick_stock:shadow_pick_stock
		pair_llc_enqueue_c:shadow_llc_enqueue_c pair_llc_enqueue_rust:shadow_llc_enqueue_rust
		pair_llc_dequeue_c:shadow_llc_dequeue_c pair_llc_dequeue_rust:shadow_llc_dequeue_rust
		pair_occupancy_c:shadow_occupancy_c pair_occupancy_rust:shadow_occupancy_rust
		pair_tg_alloc_c:shadow_tg_alloc_c pair_tg_alloc_rust:shadow_tg_alloc_rust
		pair_tg_free_c:shadow_tg_free_c pair_tg_free_rust:shadow_tg_free_rust"
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
		awk -v pieces="$pieces" -v arch="$KARCH" '
		BEGIN {
			# The call instruction: callq on x86_64, bl on arm64.
			call = arch == "arm64" ? "bl" : "callq"
			n = split(pieces, a, /[ \t\n]+/)
			for (i = 1; i <= n; i++) { split(a[i], b, ":"); id[b[2]] = i - 1 }
		}
		/^[0-9a-f]+ <.*>:$/ { fn = substr($2, 2, length($2) - 3); next }
		$1 ~ /^[0-9a-f]+:$/ {
			addr = substr($1, 1, length($1) - 1)
			if (pend != "") { print pend " " addr pendid; pend = "" }
			if (fn == "task_work_run" && $2 == "blr") {
				pend = "icall " addr; pendid = ""
				next
			}
			if ($2 != call)
				next
			t = $4; gsub(/[<>]/, "", t)
			if ($3 ~ /^0x/ && t in id) { pend = "call " addr; pendid = " " id[t] }
			else if (fn == "task_work_run" && ($3 ~ /^\*/ || t ~ /^__x86_indirect_thunk_/)) {
				pend = "icall " addr; pendid = ""
			}
		}' "$dis"
		awk -v cw="$cw" '
			$3 == "task_cache_work" { print "entry " $1 " " cw }
			$3 == "sched_rust_pick_stats_write" { print "mark " $1 }
			# Exception and interrupt entries and the context switch:
			# x86_64, then arm64 (the vectors branch to el1h_64_irq ...).
			$3 ~ /^(asm_sysvec_|asm_exc_|asm_common_interrupt$|asm_spurious_interrupt$|__switch_to_asm$)/ ||
			$3 ~ /^(el[01][th]_(64|32)_(sync|irq|fiq|error)$|cpu_switch_to$)/ {
				print "irq " $1
			}' "$B/System.map"
	} > "$out"
	i=0
	for p in $pieces; do
		[ "$i" = "$cw" ] || grep -q "^call [0-9a-f]* [0-9a-f]* $i\$" "$out" ||
			die "percall: no direct call of ${p#*:} in $dis"
		i=$((i + 1))
	done
	grep -q '^mark ' "$out" && grep -q '^entry ' "$out" &&
		grep -q '^irq ' "$out" &&
		grep -q '^icall ' "$out" ||
		die "percall: no segment mark, task_cache_work entry, interrupt entry or task_work_run indirect call ($out)"
}
