#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Export the project as an upstream-style patch series against the kernel
# tree: a scratch git repository holding the pristine versions of the touched
# files gets one commit per logical change, then git format-patch writes the
# series (with a cover letter) and checkpatch.pl checks it.
# Output: $CACHE/patches/ (PATCH_DIR= overrides).

. "$(dirname "$0")/common.sh"

OUT=${PATCH_DIR:-$CACHE/patches}
R=$CACHE/export
[ -f "$PRISTINE/Makefile" ] || "$TOP/scripts/fetch-kernel.sh"
AUTHOR_NAME=$(git -C "$TOP" config user.name || echo "rust-sched-cfs developers")
AUTHOR_EMAIL=$(git -C "$TOP" config user.email || echo "rust-sched-cfs@localhost")

rm -rf "$R" "$OUT"
mkdir -p "$R" "$OUT"
git -C "$R" init -q
git -C "$R" config user.name "$AUTHOR_NAME"
git -C "$R" config user.email "$AUTHOR_EMAIL"
for p in "$TOP"/patches/*.patch; do
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"
done | sort -u | while read -r f; do
	mkdir -p "$R/$(dirname "$f")"
	cp "$PRISTINE/$f" "$R/$f"
done
git -C "$R" add -A
git -C "$R" commit -qm "base: Linux $(make -s -C "$PRISTINE" kernelversion) files touched by the series"
base=$(git -C "$R" rev-parse HEAD)

# commit <subject> <body> <items...>: an item is patches/NAME.patch, or
# SRC:DST to add a project file at a kernel path.
commit() {
	local subject=$1 body=$2 item
	shift 2
	for item in "$@"; do
		case $item in
		patches/*) patch -s -d "$R" -p1 --no-backup-if-mismatch < "$TOP/$item" ;;
		/*:*) mkdir -p "$R/$(dirname "${item#*:}")"; cp "${item%%:*}" "$R/${item#*:}" ;;
		*:*) mkdir -p "$R/$(dirname "${item#*:}")"; cp "$TOP/${item%%:*}" "$R/${item#*:}" ;;
		esac
	done
	git -C "$R" add -A
	printf '%s\n\n%s\n\nSigned-off-by: %s <%s>\n' "$subject" "$body" "$AUTHOR_NAME" "$AUTHOR_EMAIL" |
		git -C "$R" commit -q -F -
}

# Part 0: an improvement of the C scheduler itself, for every kernel.
commit "sched/fair: Compute the eligibility sums once per pick" \
"vruntime_eligible() compares \\Sum (v_i - v0)*w_i with (v - v0)*\\Sum w_i,
both sums with the current entity's term when it is on the runqueue: for
every entity it tests it reloads sum_w_vruntime, sum_weight and
zero_vruntime and scales and adds curr's weight and key. pick_eevdf()
tests the next buddy, curr, the leftmost entity and then one or two
entities per level of the tree, all against one state of the runqueue,
under its lock: only v changes from one test to the next.

Split the test into cfs_rq_eligibility(), which computes the terms that
do not depend on v, and __vruntime_eligible(), which tests one v against
them, and have pick_eevdf() compute the terms once per pick.
vruntime_eligible() computes them for its one test, as before.

No pick changes: the KUnit suite of this series runs this pick_eevdf()
and the one before this patch on the same random states (and the
eligibility test on their entities) and requires the same answers, and
its boot-time shadow check compares them on every pick of a running
kernel.

Measured with the series' benchmarks (QEMU TCG, x86_64, a
distribution-like -O2 kernel, instructions per pick on the same states
as before the patch): 0.73-0.87 of them for a heap search, 0.55-0.66 for
a heap search with a running curr, 0.85 with a running curr, 0.98 when
the leftmost entity is eligible, 1.00 with a protected curr. A
tinyconfig build's entity_eligible() is 34 instructions, where it was 4
and a tail call to the 32 of vruntime_eligible()." \
	patches/0001-sched-fair-eligibility-once.patch

commit "rust: sync: Mark Atomic::from_ptr(), as_ptr() and Opaque::get() inline" \
"Atomic::from_ptr() with load() or store() is the Rust form of READ_ONCE()
and WRITE_ONCE() on a field of a C structure, and Opaque::get() is how a
wrapper of a C structure reaches its fields. load() and store() are
always inline, but the accessors they and their callers go through are
not marked inline: Atomic::from_ptr(), Atomic::as_ptr(),
AtomicRepr::as_ptr() and Opaque::get().

They are generic, but a crate built at -Copt-level=s (the kernel's
CONFIG_CC_OPTIMIZE_FOR_SIZE builds) with shared generics reuses the kernel
crate's instance of a generic that is not inline instead of inlining its
own. Measured on the Rust fair-scheduler pieces of this series, built -Os
without this patch: account_llc_enqueue() and account_llc_dequeue() of
fair.c, with the Rust accounting inlined into them, each made five calls
to the kernel crate's AtomicRepr<i32>::as_ptr() and three to its
Opaque<task_struct>::get(), functions of one instruction, under the
runqueue lock, and the crate kept out-of-line copies of
Atomic::<T>::from_ptr() and Opaque::<T>::get() for five types. With it,
none is left: the accessors compile to the field access.

Mark the four functions #[inline], as the rest of the atomic API is." \
	patches/0002-rust-inline-as-ptr.patch

commit "rust: bug: Let warn_on!() leave leaf functions leaves" \
"warn_on!() is one trapping instruction with its bug table entry, in an
asm!() block without options: for rustc such a block may push to the
stack, which it tells LLVM with the \"alignstack\" attribute, and LLVM
compiles a function that contains one as a function that makes calls.
On arm64 with frame pointers, a Rust leaf function that checks an
invariant with warn_on!() therefore saves a frame record and, with
pac-ret, signs and authenticates its return address, where the same
function in C, whose WARN_ON() asm says nothing of the stack, does
neither; on x86_64 without frame pointers, it may push a register to
align the stack.

The block does not use the stack: the trap's exception entry writes
below the stack pointer, as an interrupt may at any instruction, and the
kernel has no red zone. Mark it options(nostack).

Measured on the Rust EEVDF pick of this series on arm64 (QEMU TCG, a
distribution-like -O2 kernel with pointer authentication and BTI): its
out-of-line heap search pick_eevdf_many(), a leaf with one
warn_on_once!(), loses its paciasp, frame record and autiasp, five
instructions of every pick that is not the leftmost fastpath." \
	patches/0003-rust-bug-warn-nostack.patch

commit "rust: bug: Add warn_on_once!()" \
"Rust has warn_on!(), but no equivalent of WARN_ON_ONCE(), the form most
kernel invariant checks take: code that wants it keeps a static flag of
its own and calls warn_on!() behind it, which adds an atomic exchange and
a call on the path that warns.

Add warn_on_once!(): where the architecture keeps warnings in the bug
table, it is warn_on!() with BUGFLAG_ONCE in the entry, as C's
WARN_ON_ONCE() is, one trapping instruction that adds no call, so a leaf
function stays a leaf; elsewhere it is WARN_ON() run once, with
do_once_lite!()." \
	patches/0004-rust-bug-warn-on-once.patch

commit "rust: percpu: Add owned dynamic per-CPU allocations" \
"Rust has no access to the per-CPU allocator: a Rust data structure that
needs one instance per CPU, or Rust code that builds a per-CPU C
structure, cannot allocate it.

Add kernel::percpu: PerCpu<T>, an owning handle of a dynamic per-CPU
allocation (fallible with explicit GFP flags, freed on drop, convertible
to and from the __percpu address C stores, which Rust cannot dereference:
PerCpuPtr), whose instances are reached by CpuId for possible CPUs only.
The instances never move: they are zero-filled (PerCpu::new(), for
Zeroable types), initialised in place by a PinInit per CPU
(PerCpu::try_pin_init(init, flags), the argument order of the kernel's
pin-init constructors), or by a PerCpuInit, an unsafe trait for
initialisers that are told which CPU each slot belongs to by PerCpu itself
and may rely on the allocator's zero-filled memory, as C callers of
alloc_percpu() do. On failure the instances already initialised are
dropped and the memory freed. Mutable access to an instance needs
&mut PerCpu<T>, and a &mut T only for Unpin types." \
	rust/kernel/percpu.rs:rust/kernel/percpu.rs \
	rust/helpers/percpu.c:rust/helpers/percpu.c \
	patches/0005-rust-percpu.patch

# So that every commit builds with CONFIG_SCHED_RUST_CFS=y and =n (make
# check-series), the Kconfig and the Makefile of kernel/sched/rust/ grow with
# the series: the option first, the crate (and the inlining option) with the
# pick, the evaluation options with their code.
python3 - "$TOP/Kconfig.snippet" "$TOP/kernel/sched/rust/Makefile" "$CACHE" <<'EOP'
import re, sys
kconfig, makefile, out = sys.argv[1:4]
text = open(kconfig).read()
head, *blocks = re.split(r'\n(?=config )', text)
def keep(names):
    kept = [b for b in blocks if b.split()[1] in names]
    return head + ''.join('\n' + b for b in kept).rstrip('\n') + '\n'
core = {'SCHED_RUST_CFS', 'SCHED_RUST_CFS_INLINE'}
open(out + '/Kconfig.build', 'w').write(keep({'SCHED_RUST_CFS'}))
open(out + '/Kconfig.core', 'w').write(keep(core))
open(out + '/Kconfig.debug', 'w').write(keep(core | {'SCHED_RUST_CFS_DEBUG', 'SCHED_RUST_CFS_STATS',
                                                    'SCHED_RUST_CFS_SHADOW'}))
mk = open(makefile).read()
debug_line = 'obj-$(CONFIG_SCHED_RUST_CFS_DEBUG) += switch.o\n'
assert debug_line in mk
core_mk = mk.replace(debug_line, '')
open(out + '/Makefile.build', 'w').write(
    core_mk[:core_mk.index('\n#\n# Frame records')].rstrip('\n') + '\n\n' +
    '# Build-time cache-line layout guards (static assertions only, no code).\nobj-y += layout.o\n')
open(out + '/Makefile.core', 'w').write(core_mk)
EOP

commit "kbuild: Compile C objects together with a Rust crate's bitcode" \
"With CONFIG_RUST_INLINE_HELPERS, Kbuild links the bitcode of every Rust
object with the C helpers it calls and compiles the result, so that Rust
inlines them. The other direction has no rule: C code that calls a Rust
function always pays a call, even for a few instructions on a hot path.

Add c-rust-inline-y: for an object listed there with <obj>-rust-bc naming a
crate's <crate>.m.bc (which cmd_rustc_o_rs writes beside the crate's
object), the C file is compiled to bitcode with the object's own c_flags,
linked with the crate's bitcode, and the object compiled from the result
as cmd_rustc_o_rs compiles a crate, objtool included. The crate may be
built in a subdirectory; its make runs first. The Rust functions to inline
must be #[inline(always)]: LLVM otherwise refuses because rustc's target
features are not a subset of clang's on x86_64 (+soft-float, x87)." \
	patches/0006-kbuild-c-rust-inline.patch

commit "sched: Add CONFIG_SCHED_RUST_CFS" \
"Parts of the fair scheduler can be implemented in Rust, in the kernel, if
kernel/sched/ has a place for them: a directory, a Kconfig option and the
prototypes of the entry points that fair.c will call.

Add CONFIG_SCHED_RUST_CFS and kernel/sched/rust/ with
kernel/sched/rust/sched_rust.h, included by kernel/sched/sched.h, and the
lockdep checks the Rust lock tokens call. The implementations come with
the next patches; each replaces fair.c's own where the option is set.

kernel/sched/rust/layout.c asserts at build time the cache-line layouts
of struct task_group (load_avg on its own line), struct rq (the
nr_running..idle, lock and clock groups) and the part of struct cfs_rq
the pick reads, next to which the Rust pieces read and write.

Add a MAINTAINERS entry for the Rust parts of the scheduler." \
	"$CACHE/Kconfig.build:kernel/sched/rust/Kconfig" \
	"$CACHE/Makefile.build:kernel/sched/rust/Makefile" \
	kernel/sched/rust/layout.c:kernel/sched/rust/layout.c \
	kernel/sched/rust/lockdep.c:kernel/sched/rust/lockdep.c \
	kernel/sched/rust/sched_rust.h:kernel/sched/rust/sched_rust.h \
	patches/0007-sched-build.patch

commit "rust: sched: Add fair-scheduler views and task group state" \
"The fair scheduler keeps its state in structures private to kernel/sched/,
which Rust cannot reach today.

Add rust/kernel/sched/: RqLocked and EpochLocked, proof tokens that the
caller holds a runqueue's lock or its cpu_epoch_lock (checked by lockdep,
not Send), from which every view is borrowed, so that no view outlives
its token: CfsRqView, a read-only view of what the EEVDF pick reads, with
TreeEntity for the entities in its deadline-ordered tree (the only ones
whose tree links can be followed) and SchedEntity for curr and next,
whose links are stale once they leave the tree; and the LLC counters and
epoch clock of cache-aware scheduling, whose fields that other CPUs read
without the lock are accessed with Atomic::from_ptr(). A new task group's
per-CPU cfs_tg_state is built on PerCpu by NewTaskGroup::init(), which
consumes the group under creation (whose parent the unsafe from_raw()
names) and runs all of alloc_fair_sched_group() once: C's fixed
initialisation sequence on each possible CPU's slot with the CPU PerCpu
hands in and the parent entity of the same CPU, the installation once
every CPU is initialised, the shares and the bandwidth control: no safe
code chooses the CPU, the parent, the depth or the steps.

The scheduler's private structures are bound for kernel::sched alone: a
second bindgen run in rust/Makefile generates the items of the headers of
kernel/sched/ (kernel/sched/rust/sched_bindings.h), not recursively, so the
types they use from elsewhere stay the global bindings'. The global
bindings include only kernel/sched/rust/sched_rust.h, the prototypes of the
entry points, where struct rq, cfs_rq and task_group are opaque: no other
Rust code sees the scheduler's internals." \
	rust/kernel/sched.rs:rust/kernel/sched.rs \
	rust/kernel/sched/bindings.rs:rust/kernel/sched/bindings.rs \
	kernel/sched/rust/sched_bindings.h:kernel/sched/rust/sched_bindings.h \
	rust/kernel/sched/cfs_rq.rs:rust/kernel/sched/cfs_rq.rs \
	rust/kernel/sched/entity.rs:rust/kernel/sched/entity.rs \
	rust/kernel/sched/group.rs:rust/kernel/sched/group.rs \
	rust/kernel/sched/llc.rs:rust/kernel/sched/llc.rs \
	rust/kernel/sched/lock.rs:rust/kernel/sched/lock.rs \
	patches/0008-rust-sched-bindings.patch


# The crate root as it is after the pick commit and after the tg_state one.
python3 - "$TOP/kernel/sched/rust/sched_rust.rs" "$CACHE" <<'EOP'
import sys
src = open(sys.argv[1]).read().split('\n')
def drop(lines, keys):
    out, skip = [], 0
    for i, l in enumerate(lines):
        if skip:
            skip -= 1
            continue
        if any(k in l for k in keys):
            continue
        # A cfg attribute or doc line belongs to the item or text after it.
        if l.startswith('#[cfg(') and i + 1 < len(lines) and any(k in lines[i + 1] for k in keys):
            continue
        if l.startswith('//! - `') and any(k in l for k in keys):
            continue
        out.append(l)
    return out
def without(lines, piece, extra):
    out, skip = [], False
    for l in lines:
        if l.startswith('//! - `%s`' % piece):
            skip = True
            continue
        if skip and l.startswith('//!   '):
            continue
        skip = False
        out.append(l)
    return drop(out, extra)
llc = ['pub mod llc;', '__LOG_PREFIX', 'Prefix of the `pr_*!`']
tg = without(src, 'llc', llc)
pick = without(tg, 'tg_state', ['pub mod tg_state;'])
for name, lines in (('tg', tg), ('pick', pick)):
    text = '\n'.join(lines)
    while '\n\n\n' in text:
        text = text.replace('\n\n\n', '\n\n')
    open('%s/sched_rust.%s.rs' % (sys.argv[2], name), 'w').write(text.rstrip('\n') + '\n')
EOP
commit "sched/fair: Implement pick_eevdf() in Rust" \
"pick_eevdf() runs on every pick under the runqueue lock. Its eligibility
test recomputes the sum_w_vruntime, sum_weight and curr terms for every
candidate, although they cannot change during one pick.

With CONFIG_SCHED_RUST_CFS, replace pick_eevdf() and vruntime_eligible()
with Rust implementations that have every branch of the C code and its
bit-exact wrapping arithmetic, compute the eligibility terms once per pick,
and read the cfs_rq and its entities through views that exist only while
the runqueue lock is held. Without the option fair.c is unchanged.

print_task() of sched/debug reads the sums of the eligibility test without
the runqueue lock. With CONFIG_SCHED_RUST_CFS it takes the lock for that
read, which the Rust test's view of the cfs_rq requires (and which keeps
the E/N column consistent with the sums); without the option debug.c
compiles as before.

The crate is built into the kernel; with CONFIG_SCHED_RUST_CFS_INLINE
(a rustc on clang's LLVM), fair.c and the crate are compiled as one LLVM
module so that fair.c inlines the Rust pick as it inlined its own." \
	"$CACHE/Kconfig.core:kernel/sched/rust/Kconfig" \
	"$CACHE/Makefile.core:kernel/sched/rust/Makefile" \
	"$CACHE/sched_rust.pick.rs:kernel/sched/rust/sched_rust.rs" \
	kernel/sched/rust/eevdf.rs:kernel/sched/rust/eevdf.rs \
	patches/0009-sched-fair-rust-pick.patch

commit "sched/fair: Allocate the per-CPU task group state in Rust" \
"Every task group but the root owns a per-CPU struct cfs_tg_state whose
cfs_rq comes first, so that tg->cfs_rq is also the allocation.

With CONFIG_SCHED_RUST_CFS, replace alloc_fair_sched_group(),
free_fair_sched_group() and init_tg_cfs_entry() with Rust on top of
PerCpu<T>: the state is initialised for every possible CPU, from the
allocator's zero-filled memory as in C, while Rust still owns it, and
installed in tg->cfs_rq only then, so a failed allocation leaves the group
untouched and nothing is half initialised. The layout is the C one, so the
C accessors keep working. The two steps that are static in fair.c get
wrappers the Rust side can call." \
	"$CACHE/sched_rust.tg.rs:kernel/sched/rust/sched_rust.rs" \
	kernel/sched/rust/tg_state.rs:kernel/sched/rust/tg_state.rs \
	patches/0010-sched-fair-rust-tg-state.patch

commit "sched/fair: Account LLC occupancy in Rust" \
"Cache-aware scheduling keeps three sets of counters in step with the
queued tasks (the runqueue's nr_llc_running and nr_pref_llc_running, the
bottom domain's llc_counts[]) and decays per-process runtimes per epoch.
The C code relies on every dequeue being paired with an enqueue.

With CONFIG_SCHED_RUST_CFS, replace account_llc_enqueue(),
account_llc_dequeue(), pref_llc_running_inc()/dec(), __update_mm_sched(),
fraction_mm_sched() and update_avg_scale() with Rust, with C's
truncations. The locks stay in C; the Rust side takes types that stand for
them being held. jiffies, llc_epoch_period and the LLC size are read by the
C callers and passed in. An unpaired decrement of nr_llc_running or
nr_pref_llc_running wraps as in C and is reported once with WARN_ON." \
	kernel/sched/rust/sched_rust.rs:kernel/sched/rust/sched_rust.rs \
	kernel/sched/rust/llc.rs:kernel/sched/rust/llc.rs \
	patches/0011-sched-fair-rust-llc.patch

commit "Documentation: scheduler: Describe CONFIG_SCHED_RUST_CFS" \
"Scheduler developers who enable CONFIG_SCHED_RUST_CFS need to know what
it replaces, how the Rust code is organised and what keeps it sound, and
how it is tested and compared with C.

Add Documentation/scheduler/sched-rust-cfs.rst." \
	Documentation/scheduler/sched-rust-cfs.rst:Documentation/scheduler/sched-rust-cfs.rst \
	patches/0012-documentation-scheduler-index.patch

# Part 2: the evaluation aids, a debug option, not for merging.
commit "sched/rust: Keep the C implementations beside the Rust ones (not for merging)" \
"Not for merging: an evaluation aid for this series, a debug option.

Comparing the Rust pieces with C needs both in one kernel. Add
CONFIG_SCHED_RUST_CFS_DEBUG: fair.c compiles its own implementation of each
piece a second time, as f_c() through SCHED_C(f), and a static key per
piece selects C or Rust at run time (boot parameter sched_rust_cfs=, files
in /sys/kernel/debug/sched/rust_cfs/). Without the option nothing of this
is compiled. The C twins call the C eligibility test, whichever side the
switch selects, so that each side is one implementation.

With CONFIG_SCHED_RUST_CFS_SHADOW, every pick and eligibility test also
runs the other implementation on the same state under the same lock, every
LLC function runs on both sides from a copy of its state, every new task
group's per-CPU state is made again by both sides and compared with the
group's, and every LLC dequeue recounts the tasks queued on the runqueue,
counting and warning once about any difference;
CONFIG_SCHED_RUST_CFS_STATS counts the branch every pick takes." \
	"$CACHE/Kconfig.debug:kernel/sched/rust/Kconfig" \
	kernel/sched/rust/Makefile:kernel/sched/rust/Makefile \
	kernel/sched/rust/switch.c:kernel/sched/rust/switch.c \
	kernel/sched/rust/sched_rust_debug.h:kernel/sched/rust/sched_rust_debug.h \
	kernel/sched/rust/fair_debug.h:kernel/sched/rust/fair_debug.h \
	kernel/sched/rust/fair_debug.c:kernel/sched/rust/fair_debug.c \
	kernel/sched/rust/fair_shadow.c:kernel/sched/rust/fair_shadow.c \
	kernel/sched/rust/fair_stats.c:kernel/sched/rust/fair_stats.c \
	patches/0013-sched-rust-debug.patch

commit "mm/percpu: Add a KUnit static stub to pcpu_alloc_noprof() (not for merging)" \
"Not for merging with this series' evaluation patches as they are: the
test that needs it is one of them.

Code that allocates per-CPU memory has failure paths that KUnit tests
cannot reach: failslab and fail_page_alloc do not reach the per-CPU
allocator while a chunk has room, and it has no fault injection of its own.

Redirect pcpu_alloc_noprof() to a KUnit static stub when a test activates
one, only in a kernel built with this series' KUnit suite
(CONFIG_SCHED_RUST_CFS_KUNIT_TEST): there it costs a static branch, and
any other kernel, one with KUnit among them, compiles percpu.c as before." \
	patches/0014-mm-percpu-kunit-static-stub.patch

commit "sched/rust: Add KUnit parity tests and benchmarks (not for merging)" \
"Not for merging: an evaluation aid for this series, a debug option.

Show that the Rust and the C implementations agree, and what they cost.

The sched_rust_parity suite is included at the end of fair.c to reach its
static functions: one hand-written state per branch of pick_eevdf(), a
random differential test of 100,000 cfs_rq states built with the real
__enqueue_entity() comparing the picked entity and the eligibility of both
implementations, and task groups allocated by both sides below parents at
several depths, compared field by field and freed by the other side, plus
the allocation failure path; for the LLC accounting, random operation
sequences and the epoch decay across the jiffies wrap. The random cases
print their seed, which the test's parameter sched_rust_parity_seed=
replays. CONFIG_SCHED_RUST_CFS_BENCH adds microbenchmarks that time both
implementations interleaved on prepared states." \
	Kconfig.snippet:kernel/sched/rust/Kconfig \
	tests/kunit/rust_cfs_kunit.c:kernel/sched/tests/rust_cfs_kunit.c \
	tests/kunit/.kunitconfig:kernel/sched/rust/.kunitconfig \
	kernel/sched/rust/fair_bench.c:kernel/sched/rust/fair_bench.c

git -C "$R" format-patch -q --cover-letter -o "$OUT" "$base"..HEAD
# Fill in the cover letter's placeholders.
cover=$(ls "$OUT"/0000-*.patch)
sed -i "s/\*\*\* SUBJECT HERE \*\*\*/sched\/fair: Rust implementation of parts of the fair scheduler/" "$cover"
sed -i "/\*\*\* BLURB HERE \*\*\*/{
r $TOP/patches/cover-letter.txt
d
}" "$cover"
# To and Cc of every patch from scripts/get_maintainer.pl (the overlaid tree
# has the series' MAINTAINERS entry): the maintainers in To, the reviewers
# and lists in Cc, as b4 prep --auto-to-cc does; the cover letter gets them all.
gm() {	# gm <patch> <options>: the addresses, comma-separated
	(cd "$WORK" && ./scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
		"${@:2}" "$1") | paste -sd, | sed 's/,/, /g'
}
all_to= all_cc=
for p in $(ls "$OUT"/[0-9][0-9][0-9][0-9]-*.patch | grep -v '/0000-'); do
	to=$(gm "$p" --no-r --no-l)
	cc=$(gm "$p" --no-m)
	[ -n "$to" ] || fail "get_maintainer.pl found no maintainer for $(basename "$p")"
	all_to="$all_to, $to" all_cc="$all_cc, $cc"
	sed -i "0,/^Subject: /s//To: ${to//\//\\/}\nCc: ${cc//\//\\/}\n&/" "$p"
done
uniq_list() { tr ',' '\n' | sed 's/^ *//; /^$/d' | awk '!seen[$0]++' | paste -sd, | sed 's/,/, /g'; }
all_to=$(uniq_list <<< "$all_to")
all_cc=$(uniq_list <<< "$all_cc")
sed -i "0,/^Subject: /s//To: ${all_to}\nCc: ${all_cc}\n&/" "$cover"
log "series written to $OUT:"
ls "$OUT" >&2
# checkpatch --strict, one verdict per patch (scripts/checkpatch-one.sh:
# FILE_PATH_CHANGES only where MAINTAINERS covers the files a patch adds).
rc=0
for p in $(ls "$OUT"/[0-9][0-9][0-9][0-9]-*.patch | grep -v '/0000-'); do
	"$TOP/scripts/checkpatch-one.sh" "$WORK" "$p" || rc=1
done
exit $rc
