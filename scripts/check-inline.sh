#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that the Rust pieces are inlined into fair.c's hot paths
# (CONFIG_SCHED_RUST_CFS_INLINE): disassemble vmlinux of a built flavour and
# fail if
#   - any function calls one of the Rust entry points of a hot path (the
#     eligibility test, the pick, the LLC accounting and the decay), or
#   - a hot-path function of fair.c that exists as a symbol calls any
#     sched_rust_* or rust_helper_* function (but the lockdep checks of the
#     Rust lock tokens, sched_rust_assert_*, in lockdep kernels), or it or an out-of-line Rust
#     function of the pick or the LLC accounting calls the kernel crate.
# Prints what it checked.
#   scripts/check-inline.sh [flavour]      (default: prod)

. "$(dirname "$0")/common.sh"

flavour=${1:-prod}
B=$(bdir "$flavour")
vmlinux=$B/vmlinux
[ -f "$vmlinux" ] || die "no $vmlinux: build the $flavour kernel first"
grep -q '^CONFIG_SCHED_RUST_CFS=y' "$B/.config" || die "$flavour: CONFIG_SCHED_RUST_CFS is off"
if ! grep -q '^CONFIG_SCHED_RUST_CFS_INLINE=y' "$B/.config"; then
	echo "check-inline: $flavour is built without CONFIG_SCHED_RUST_CFS_INLINE (rustc $(sed -n 's/^CONFIG_RUSTC_LLVM_VERSION=//p' "$B/.config") / clang LLVM $(sed -n 's/^CONFIG_CLANG_VERSION=//p' "$B/.config")); checking anyway"
fi

# The C-callable Rust functions on hot paths: #[inline(always)] with the option.
hot_entries="sched_rust_vruntime_eligible sched_rust_pick_eevdf
	sched_rust_account_llc_enqueue sched_rust_account_llc_dequeue
	sched_rust_pref_llc_running sched_rust_update_mm_sched
	sched_rust_fraction_mm_sched sched_rust_update_avg_scale"
# Functions of fair.c on the paths that call them in 7.3 (most are inlined
# into their callers; those that remain symbols are checked).
hot_funcs="entity_eligible vruntime_eligible pick_eevdf pick_eevdf_debug pick_next_entity
	pick_task_fair pick_next_task_fair __pick_next_task_fair
	enqueue_task_fair dequeue_task_fair enqueue_entity dequeue_entity
	dequeue_entities account_entity_enqueue account_entity_dequeue
	account_llc_enqueue account_llc_dequeue account_llc_enqueue_debug
	account_llc_dequeue_debug set_delayed clear_delayed
	finish_delayed_dequeue_entity requeue_delayed_entity set_next_entity
	put_prev_entity wakeup_preempt_fair task_cache_work
	fraction_mm_sched account_mm_sched __update_mm_sched update_curr
	place_entity yield_task_fair task_tick_fair"

dis=$B/vmlinux.dis
if [ ! -f "$dis" ] || [ "$dis" -ot "$vmlinux" ]; then
	llvm-objdump$LLVM_SUFFIX -d --no-show-raw-insn "$vmlinux" > "$dis.tmp"
	mv "$dis.tmp" "$dis"
fi

# Every call, and every tail call (a jump to another function's entry), as
# "<caller> <callee>": call/jmp on x86_64, bl/b on arm64.
calls=$B/vmlinux.calls
awk '
	/^[0-9a-f]+ <.*>:$/ { f = $2; gsub(/[<>:]/, "", f); next }
	/\t(callq?|jmpq?|bl|b)\t/ && match($0, /<[^>]*>/) {
		t = substr($0, RSTART + 1, RLENGTH - 2)
		if ($0 ~ /\t(jmpq?|b)\t/ && (t ~ /\+0x[0-9a-f]+$/ || t == f))
			next
		sub(/\+0x[0-9a-f]+$/, "", t)
		print f, t
	}' "$dis" > "$calls"
[ -s "$calls" ] || die "no call instruction found in the disassembly of $vmlinux"

fail=0
present=()
for e in $hot_entries; do
	grep -q " $e\$" "$B/System.map" && present+=("$e")
	n=$(awk -v e="$e" '$2 == e' "$calls" | wc -l)
	if [ "$n" != 0 ]; then
		echo "check-inline: FAIL: $n call(s) to $e:"
		awk -v e="$e" '$2 == e { print "  from " $1 }' "$calls" | sort | uniq -c | head -n 10
		fail=1
	fi
done
checked=() gone=()
for f in $hot_funcs; do
	if awk -v f="$f" '$3 == f { found = 1 } END { exit !found }' "$B/System.map"; then
		checked+=("$f")
		bad=$(awk -v f="$f" '$1 == f && $2 ~ /^(sched_rust|rust_helper)_/ && $2 !~ /^sched_rust_assert_/ { print $2 }' "$calls" | sort | uniq -c)
		if [ -n "$bad" ]; then
			echo "check-inline: FAIL: $f calls across the language boundary:"
			echo "$bad" | sed 's/^/  /'
			fail=1
		fi
	else
		gone+=("$f")
	fi
done
# Calls from the hot paths into the kernel crate: a generic of the kernel
# crate that is not #[inline] (Opaque::get(), Atomic::from_ptr() before the
# series marks them) is not inlined at -Copt-level=s with shared generics,
# but called, from the merged fair.o or even from the kernel crate's own
# instance. Callers: the hot-path functions above and the Rust functions of
# the pick and the LLC accounting that LLVM keeps out of line
# (pref_llc_running_inc()/_dec(), ...), v0-mangled in the sched_rust crate's
# eevdf and llc modules (their KUnit tests excepted); callees: any symbol of
# the kernel crate (the first crate root of its v0 mangling is "6kernel": a
# sched_rust generic instantiated with a kernel item names the kernel crate
# only later, in its generic arguments).
kcalls=$(awk -v hot=" $(echo $hot_funcs) " '
	(($1 ~ /10sched_rust(3llc|5eevdf)/ && $1 !~ /5tests/) || index(hot, " " $1 " ")) &&
	$2 ~ /^_R[^C]*Cs[0-9A-Za-z]*_6kernel/ { print $1 " -> " $2 }' "$calls" | sort | uniq -c)
if [ -n "$kcalls" ]; then
	echo "check-inline: FAIL: hot-path code calls functions of the kernel crate:"
	echo "$kcalls" | sed 's/^/  /'
	fail=1
fi
nrust=$(awk '$1 ~ /10sched_rust(3llc|5eevdf)/ && $1 !~ /5tests/ { print $1 }' "$calls" | sort -u | wc -l)
# 128-bit arithmetic (the pick's i128 products and the LLC decay's u128
# ones) must compile to instructions: rust/compiler_builtins.rs defines the
# compiler-rt helpers for it as panicking stubs, so a call would link and
# panic at run time.
# On arm64, the outline atomics of libgcc are not in the kernel either (see
# the attributes below).
helpers=$(awk '$2 ~ /^__(ashl|ashr|lshr|mul|div|udiv|mod|umod)ti3$/ ||
	$2 ~ /^__aarch64_(cas|swp|ldadd|ldclr|ldeor|ldset)[0-9]+/' "$calls" | sort | uniq -c)
if [ -n "$helpers" ]; then
	echo "check-inline: FAIL: calls to the 128-bit arithmetic helpers (panicking stubs in the kernel) or outline atomics:"
	echo "$helpers" | sed 's/^/  /'
	fail=1
fi
# On arm64, a Rust function of the sched_rust crate that calls nothing must
# not save a frame record (stp x29, x30) nor sign its return address, as
# clang's leaf functions of fair.c do not: the attributes compared below can
# be equal and the frame still be there, for an inline assembly statement
# that LLVM treats as a call (an asm!() without options(nostack) is
# "alignstack", as warn_on!()'s trap was before the series).
leafframes=
if [ "$KARCH" = arm64 ]; then
	# The crate's functions: those its object defines (with the inlining
	# option it is not linked, and its functions are fair.o's).
	rfuncs=$(llvm-nm$LLVM_SUFFIX --defined-only "$B/kernel/sched/rust/sched_rust.o" |
		awk '$2 ~ /^[tT]$/ && $3 !~ /5tests/ { print $3 }')
	[ -n "$rfuncs" ] || die "no function defined in $B/kernel/sched/rust/sched_rust.o"
	nleaf=$(echo "$rfuncs" | wc -l)
	leafframes=$(echo "$rfuncs" | awk '
		function done() {
			if (f in rust && !call && frame)
				print "  " f
		}
		NR == FNR { rust[$1] = 1; next }
		/^[0-9a-f]+ <.*>:$/ { done(); f = $2; gsub(/[<>:]/, "", f); call = frame = 0; next }
		/\t(bl|blr)\t/ { call = 1 }
		/\tpaciasp$/ || /\tstp\tx29, x30, / { frame = 1 }
		END { done() }' - "$dis")
	if [ -n "$leafframes" ]; then
		echo "check-inline: FAIL: Rust functions that call nothing but save a frame record or sign their return address:"
		echo "$leafframes"
		fail=1
	fi
fi
echo "check-inline: $flavour vmlinux ($KARCH), $(wc -l < "$calls") calls and tail calls scanned"
[ "$KARCH" = arm64 ] &&
	echo "  functions among the $nleaf of the sched_rust crate that call nothing and save a frame record: ${leafframes:+$(echo $leafframes)}${leafframes:-none}"
echo "  calls to __multi3/__divti3/... (i128 helpers) or __aarch64_ldadd4_acq & co. (outline atomics): ${helpers:-none}"
echo "  Rust hot entry points checked for callers: $(echo $hot_entries)"
echo "    (defined out of line too: ${present[*]:-none})"
echo "  fair.c hot-path functions checked for sched_rust_*/rust_helper_* calls: ${checked[*]}"
echo "  calls into the kernel crate from those and from the $nrust out-of-line Rust functions of the pick and the LLC accounting: ${kcalls:-none}"
echo "  not symbols in this vmlinux (inlined into their callers, or not in this tree): ${gone[*]:-none}"
[ ${#checked[@]} -ge 5 ] || { echo "check-inline: FAIL: only ${#checked[@]} hot-path functions found as symbols"; fail=1; }

# The attributes that decide how a call returns and how indirect branches are
# made must be the same on both sides of every C->Rust call in the merged
# module: alwaysinline bypasses LLVM's own compatibility check, and an entry
# point that stayed out of line would keep its own. Compared in the bitcode
# before inlining (fair.m.bc): on x86_64 the return thunk
# (fn_ret_thunk_extern, from -mfunction-return= / -Zfunction-return=) and the
# retpoline target features; on arm64 the branch protection (return address
# signing from -mbranch-protection= / -Zbranch-protection=, BTI) and the
# return address signing key; on both, the frame pointer policy (a Rust
# function kept out of line must not save a frame record where its C twin
# does not: clang omits it in arm64 leaf
# functions, see kernel/sched/rust/Makefile); printed with them the stack
# protector level
# and, on arm64, the FP/SIMD features (the kernel's C is -mgeneral-regs-only,
# Rust the softfloat target: neither may use them) and outline atomics. That
# one differs: clang enables it by default for aarch64-linux-gnu and the
# kernel does not turn it off (its atomics are inline assembly, so C has no
# compiler atomics to outline), Rust's aarch64-unknown-none-softfloat has it
# off. Inlined into a C function, a Rust atomic read-modify-write would be
# compiled to a call to libgcc's __aarch64_ldadd4_acq_rel & co., which the
# kernel does not have; the calls check above fails on one.
mbc=$B/kernel/sched/fair.m.bc
if [ -f "$mbc" ]; then
	llvm-dis$LLVM_SUFFIX "$mbc" -o "$B/kernel/sched/fair.m.ll" ||
		die "llvm-dis of $mbc failed"
	python3 - "$B/kernel/sched/fair.m.ll" "$hot_entries" "$KARCH" <<'PY' || fail=1
import re, sys

ll, hot, arch = sys.argv[1], sys.argv[2].split(), sys.argv[3]
groups, fattr, calls, fn = {}, {}, set(), None
for line in open(ll, encoding='utf-8', errors='replace'):
    m = re.match(r'attributes #(\d+) = \{(.*)\}', line)
    if m:
        groups[m.group(1)] = m.group(2)
        continue
    m = re.match(r'define [^@]*@("?[^"(]+"?)\(.*\)[^{]*?#(\d+)', line)
    if m:
        fn = m.group(1).strip('"')
        fattr[fn] = m.group(2)
        continue
    if line.startswith('}'):
        fn = None
    elif fn:
        for callee in re.findall(r'call [^@]*@(sched_rust_[A-Za-z0-9_]+)\(', line):
            calls.add((fn, callee))

def attrs(f):
    """(attributes that must be equal, attributes printed only) of f."""
    g = groups.get(fattr.get(f, ''), '')
    feats = re.search(r'"target-features"="([^"]*)"', g)
    feats = feats.group(1).split(',') if feats else []
    ssp = next((a for a in ('sspreq', 'sspstrong', 'ssp') if re.search(r'\b%s\b' % a, g)), 'none')
    def sattr(name):
        m = re.search(r'"%s"(?:="([^"]*)")?' % name, g)
        return 'none' if not m else (m.group(1) or 'yes')
    if arch == 'arm64':
        fp = sorted(x for x in feats if x[1:] in ('neon', 'fp-armv8', 'sve'))
        return ({'sign-return-address': sattr('sign-return-address'),
                 'key': sattr('sign-return-address-key'),
                 'bti': sattr('branch-target-enforcement'),
                 'frame-pointer': sattr('frame-pointer')},
                'outline-atomics %s, ssp %s, fp/simd %s' % (
                    'yes' if '+outline-atomics' in feats else 'no', ssp, ','.join(fp) or 'none'))
    retp = sorted(x[1:] for x in feats if 'retpoline' in x and x[0] == '+')
    return ({'return thunk': 'fn_ret_thunk_extern' in g,
             'retpoline': ','.join(retp) or 'none',
             'frame-pointer': sattr('frame-pointer')}, 'ssp %s' % ssp)

def show(a):
    return ' '.join('%s %s' % (k, {True: 'yes', False: 'no'}.get(v, v)) for k, v in a.items())

bad = 0
pairs = sorted(c for c in calls if c[1] in hot)
print('check-inline: attributes of the %d C->Rust calls of hot entry points in %s' % (len(pairs), ll.replace('.ll', '.bc')))
if not pairs:
    print('check-inline: FAIL: no C call of a hot Rust entry point in the merged module')
    sys.exit(1)
for caller, callee in pairs:
    (ca, cs), (ra, rs) = attrs(caller), attrs(callee)
    same = ca == ra
    bad += not same
    print('  %-34s C %-26s %s, %s' % (callee, caller, show(ca), cs))
    print('  %-34s Rust %-23s %s, %s%s' % ('', '', show(ra), rs, '' if same else '   <- DIFFERENT'))
what = ('branch protection and frame pointer' if arch == 'arm64' else
        'return thunk, retpoline and frame pointer')
if bad:
    print('check-inline: FAIL: %d calls whose C and Rust sides differ in %s attributes' % (bad, what))
    sys.exit(1)
print('check-inline: %s attributes equal on both sides of every call' % what)
PY
fi
if [ $fail != 0 ]; then
	fail "check-inline: the Rust pieces are called across the language boundary on hot paths, or with other attributes, or call the i128 helpers"
fi
echo "check-inline: PASS: no call into Rust on those paths"
