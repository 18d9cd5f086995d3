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
	patches/0009-rust-inline-as-ptr.patch

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
	patches/0011-rust-bug-warn-on-once.patch

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
	patches/0010-rust-percpu.patch

# So that every commit builds with CONFIG_SCHED_RUST_CFS=y and =n (make
# check-series), the Kconfig and the Makefile of kernel/sched/rust/ grow with
# the series: the option and the switch first, the crate (and the inlining
# option) with the pick, the test and debug options with their code.
python3 - "$TOP/Kconfig.snippet" "$TOP/kernel/sched/rust/Makefile" "$CACHE" <<'EOP'
import re, sys
kconfig, makefile, out = sys.argv[1:4]
text = open(kconfig).read()
head, *blocks = re.split(r'\n(?=config )', text)
def keep(names):
    kept = [b for b in blocks if b.split()[1] in names]
    return head + ''.join('\n' + b for b in kept).rstrip('\n') + '\n'
open(out + '/Kconfig.switch', 'w').write(keep({'SCHED_RUST_CFS'}))
open(out + '/Kconfig.crate', 'w').write(keep({'SCHED_RUST_CFS', 'SCHED_RUST_CFS_INLINE'}))
mk = open(makefile).read()
open(out + '/Makefile.switch', 'w').write(mk[:mk.index('\nifdef CONFIG_SCHED_RUST_CFS_INLINE')].rstrip('\n') + '\n')
EOP

commit "sched/fair: Add CONFIG_SCHED_RUST_CFS and a C/Rust runtime switch" \
"Rust implementations of fair-scheduler pieces need to be compared with the
C ones on the same machine, in the same boot, without a rebuild.

Add CONFIG_SCHED_RUST_CFS and kernel/sched/rust/switch.c: one static key
per piece, set by the boot parameter sched_rust_cfs= and by files in
/sys/kernel/debug/sched/rust_cfs/. The C implementations stay compiled as
the reference; the pieces that the keys select come with the next
patches.

kernel/sched/rust/layout.c asserts at build time the cache-line layouts
of struct task_group (load_avg on its own line), struct rq (the
nr_running..idle, lock and clock groups) and the part of struct cfs_rq
the pick reads, next to which the Rust pieces read and write." \
	"$CACHE/Kconfig.switch:kernel/sched/rust/Kconfig" \
	"$CACHE/Makefile.switch:kernel/sched/rust/Makefile" \
	kernel/sched/rust/switch.c:kernel/sched/rust/switch.c \
	kernel/sched/rust/layout.c:kernel/sched/rust/layout.c \
	kernel/sched/rust/sched_rust.h:kernel/sched/rust/sched_rust.h \
	patches/0001-sched-build-and-runtime-switch.patch

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
per-CPU cfs_tg_state is built on PerCpu by NewTaskGroup::init_state(),
which runs C's fixed initialisation sequence on each possible CPU's slot
with the CPU PerCpu hands in and the parent entity of the same CPU, and
installs the state only once every CPU is initialised: no safe code
chooses the CPU, the parent, the depth or the steps.

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
	patches/0002-rust-sched-bindings.patch


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

Add a Rust pick_eevdf() and vruntime_eligible() with every branch of the C
code and bit-exact wrapping arithmetic, computing the eligibility terms
once per pick, reading the cfs_rq and its entities through views that exist
only while the runqueue lock is held. fair.c dispatches through the runtime
switch; the C bodies remain as
pick_eevdf_c() and vruntime_eligible_c(), and the dispatch has the hooks of
the route statistics and the shadow check that a later patch adds.

The crate is built into the kernel; with CONFIG_SCHED_RUST_CFS_INLINE
(a rustc on clang's LLVM), fair.c and the crate are compiled as one LLVM
module so that the dispatch inlines the Rust pick as it inlines the C one." \
	"$CACHE/Kconfig.crate:kernel/sched/rust/Kconfig" \
	kernel/sched/rust/Makefile:kernel/sched/rust/Makefile \
	"$CACHE/sched_rust.pick.rs:kernel/sched/rust/sched_rust.rs" \
	kernel/sched/rust/eevdf.rs:kernel/sched/rust/eevdf.rs \
	patches/0003-sched-fair-rust-pick-dispatch.patch

commit "sched/fair: Allocate the per-CPU task group state in Rust" \
"Every task group but the root owns a per-CPU struct cfs_tg_state whose
cfs_rq comes first, so that tg->cfs_rq is also the allocation.

Implement alloc_fair_sched_group(), free_fair_sched_group() and
init_tg_cfs_entry() in Rust on top of PerCpu<T>: the state is initialised
for every possible CPU, from the allocator's zero-filled memory as in C,
while Rust still owns it and installed in
tg->cfs_rq only then, so a failed allocation leaves the group untouched
and nothing is half initialised. The layout is the C one, so the C
accessors keep working and either side frees what the other allocated.
The C bodies remain as the reference, selected by the runtime switch." \
	"$CACHE/sched_rust.tg.rs:kernel/sched/rust/sched_rust.rs" \
	kernel/sched/rust/tg_state.rs:kernel/sched/rust/tg_state.rs \
	patches/0004-sched-fair-rust-tg-state-dispatch.patch

commit "sched/fair: Account LLC occupancy in Rust" \
"Cache-aware scheduling keeps three sets of counters in step with the
queued tasks (the runqueue's nr_llc_running and nr_pref_llc_running, the
bottom domain's llc_counts[]) and decays per-process runtimes per epoch.
The C code relies on every dequeue being paired with an enqueue.

Implement account_llc_enqueue(), account_llc_dequeue(),
pref_llc_running_inc()/dec(), __update_mm_sched() and the division of
fraction_mm_sched() in Rust, with C's truncations; split the preferred-LLC
choice of task_cache_work() (sum per LLC, first maximum wins, 2x
hysteresis) into steps over struct sched_llc_scan and implement them and
update_avg_scale() in Rust too. The locks stay in C; the Rust side takes
types that stand for them being held. An unpaired decrement of
nr_llc_running or nr_pref_llc_running wraps as in C and is reported once
with WARN_ON.
The C bodies remain as the reference, selected by the runtime switch.

With CONFIG_SCHED_RUST_CFS_SHADOW, every LLC dequeue recounts the tasks
queued on the runqueue and warns if nr_llc_running or nr_pref_llc_running
disagree with them." \
	kernel/sched/rust/sched_rust.rs:kernel/sched/rust/sched_rust.rs \
	kernel/sched/rust/llc.rs:kernel/sched/rust/llc.rs \
	patches/0005-sched-fair-rust-llc-dispatch.patch

commit "mm/percpu: Add a KUnit static stub to pcpu_alloc_noprof()" \
"Code that allocates per-CPU memory has failure paths that KUnit tests
cannot reach: the allocator has no fault injection.

Redirect pcpu_alloc_noprof() to a KUnit static stub when a test activates
one; it costs a static branch when KUnit is built and nothing otherwise." \
	patches/0006-mm-percpu-kunit-static-stub.patch

commit "sched/fair: Add KUnit parity tests and benchmarks for the Rust pieces" \
"Show that the Rust and the C implementations agree, and what they cost.

The sched_rust_parity suite is included at the bottom of fair.c to reach
its static functions: one hand-written state per branch of pick_eevdf(), a
random differential test of 100,000 cfs_rq states built with the real
__enqueue_entity() comparing the picked entity and the eligibility of both
implementations, and task groups allocated by both sides below parents at
several depths, compared field by field and freed by the other side, plus
the allocation failure path; for the LLC accounting, random operation
sequences, the epoch decay across the jiffies wrap, and random occupancy
matrices for the preferred-LLC choice. CONFIG_SCHED_RUST_CFS_BENCH adds
microbenchmarks that time both implementations interleaved on prepared
states. CONFIG_SCHED_RUST_CFS_SHADOW (rust/fair_shadow.c) runs the other
implementation on every pick, eligibility test and LLC dequeue and counts
differences; CONFIG_SCHED_RUST_CFS_STATS (rust/fair_stats.c) counts the
branch every pick takes. The four options (_KUNIT_TEST, _BENCH, _SHADOW,
_STATS) come with their code here." \
	Kconfig.snippet:kernel/sched/rust/Kconfig \
	kernel/sched/rust/fair_shadow.c:kernel/sched/rust/fair_shadow.c \
	kernel/sched/rust/fair_stats.c:kernel/sched/rust/fair_stats.c \
	tests/kunit/rust_cfs_kunit.c:kernel/sched/tests/rust_cfs_kunit.c \
	tests/kunit/.kunitconfig:kernel/sched/rust/.kunitconfig \
	kernel/sched/rust/fair_bench.c:kernel/sched/rust/fair_bench.c \
	patches/0007-sched-fair-kunit-and-bench-includes.patch

commit "Documentation: scheduler: Describe CONFIG_SCHED_RUST_CFS" \
"Scheduler developers who enable CONFIG_SCHED_RUST_CFS need to know what
it replaces, how to switch between the implementations, what the shadow
check and the layout guards verify, and how to run the parity suites.

Add Documentation/scheduler/sched-rust-cfs.rst." \
	Documentation/scheduler/sched-rust-cfs.rst:Documentation/scheduler/sched-rust-cfs.rst \
	patches/0008-documentation-scheduler-index.patch

git -C "$R" format-patch -q --cover-letter -o "$OUT" "$base"..HEAD
# Fill in the cover letter's placeholders.
cover=$(ls "$OUT"/0000-*.patch)
sed -i "s/\*\*\* SUBJECT HERE \*\*\*/sched\/fair: Rust implementation of parts of the fair scheduler/" "$cover"
sed -i "/\*\*\* BLURB HERE \*\*\*/{
r $TOP/patches/cover-letter.txt
d
}" "$cover"
log "series written to $OUT:"
ls "$OUT" >&2
(cd "$WORK" 2>/dev/null || cd "$PRISTINE"; ./scripts/checkpatch.pl --no-tree --strict \
	--max-line-length=100 --ignore FILE_PATH_CHANGES,COMMIT_LOG_LONG_LINE \
	$(ls "$OUT"/[0-9][0-9][0-9][0-9]-*.patch | grep -v '/0000-'))
