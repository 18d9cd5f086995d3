#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-scale's report: scripts/bench-report.py's per-call figures at
every machine size, the checks of each size, a table and two plots.

  bench-scale-report.py [--figures <file>] [--no-plots] <results directory> [<CPUs:LLCs> ...]

The sizes default to the directory's <CPUs>-<LLCs> folders. --figures
writes every figure by key (scripts/check-claims.py); --no-plots leaves
gnuplot out (make check-claims recomputes the figures from the committed
data.tar.xz, where gnuplot may be missing).

Per size, <dir>/<CPUs>-<LLCs>/ holds run.txt ("cpus llcs host_seconds
boot_exit"), console.log (evaluation/bench/guest.sh, sched_rust.mode=scale), percall.log and
raw/<segment>.<piece> (evaluation/bench/percall.c). Prints the report (Markdown)
and writes scale_cpus.svg and scale_llcs.svg (gnuplot) and results.md.
Exits 1 when a check fails: a size that did not finish, a guest that does
not see the CPUs or LLCs asked for, a piece that did not run on a side, a
scan that did not visit every CPU, no thread with a preferred LLC, threads
that did not spread over every LLC, a shadow or LLC check that compared
nothing or found a difference.
"""
import os
import re
import subprocess
import sys
import textwrap

import percall_data
import stats

ARGS = sys.argv[1:]
FIGURES = None
PLOTS = True
while ARGS and ARGS[0].startswith("--"):
    if ARGS[0] == "--figures":
        FIGURES = ARGS[1]
        ARGS = ARGS[2:]
    elif ARGS[0] == "--no-plots":
        PLOTS = False
        ARGS = ARGS[1:]
    else:
        sys.exit(__doc__)
RES = ARGS[0]
SIZES = [tuple(int(x) for x in s.split(":")) for s in ARGS[1:]] or sorted(
    tuple(int(x) for x in d.split("-")) for d in os.listdir(RES) if re.fullmatch(r"\d+-\d+", d))
FIG = {}


def fig(key, value):
    FIG[key] = value
# The pieces of the per-call plugin; "scan" is the task_cache_work() calls
# that scanned (made measured calls, one fraction_mm_sched() per CPU), the
# others returned at the one-scanner-per-period gate.
PIECES = ["pick", "llc_enqueue", "llc_dequeue", "occupancy", "scan", "tg_alloc", "tg_free"]
# The workload each piece is measured in: the threads run for the pick and
# the LLC pieces, the cgroup tree for the group's allocation and free.
WORKLOAD = {p: "threads" for p in PIECES}
WORKLOAD.update(tg_alloc="cgtree", tg_free="cgtree")
SHADOW_MIN = int(os.environ.get("SCALE_SHADOW_MIN", "1000"))
LLC_CHECK_MIN = int(os.environ.get("SCALE_LLC_CHECK_MIN", "100"))
problems = []
out = []


def say(line=""):
    out.append(line)


pct = percall_data.pct
mean = percall_data.mean


def size_data(cpus, llcs):
    """One size's figures, or None; its problems go to `problems`."""
    d = os.path.join(RES, f"{cpus}-{llcs}")
    tag = f"{cpus} CPUs in {llcs} LLCs"
    try:
        with open(os.path.join(d, "run.txt")) as f:
            _, _, host_s, rc = f.read().split()
    except (OSError, ValueError):
        problems.append(f"{tag}: not run (no run.txt)")
        return None
    r = {"cpus": cpus, "llcs": llcs, "host_s": int(host_s), "rc": int(rc)}
    con = open(os.path.join(d, "console.log"), errors="replace").read()
    if "sched_rust: DONE" not in con:
        why = "timed out" if "timeout after" in open(os.path.join(d, "boot.txt"), errors="replace").read() \
            else f"boot exit {rc}"
        problems.append(f"{tag}: not measured: the guest did not finish ({why}, {host_s} s of host time)")
        r["unfinished"] = why
        return r
    if r["rc"] != 0:
        problems.append(f"{tag}: scripts/boot.sh failed (exit {rc}): see {d}/boot.txt")

    def line(key):
        m = re.findall(rf"^sched_rust: {key} (.*)$", con, re.M)
        return m[-1].split() if m else None

    seen_cpus = line("cpus")
    seen_llcs = line("llc_count")
    if not seen_cpus or int(seen_cpus[0]) != cpus:
        problems.append(f"{tag}: the guest reports {seen_cpus and seen_cpus[0]} CPUs")
    if not seen_llcs or int(seen_llcs[0]) != llcs:
        problems.append(f"{tag}: the guest reports {seen_llcs and seen_llcs[0]} LLCs")
    ts = line("tg_state_size")
    if ts and len(ts) == 8:
        r["tg_size"], r["tg_possible"], r["tg_bytes"] = int(ts[1]), int(ts[5]), int(ts[7])
        if r["tg_possible"] != cpus:
            problems.append(f"{tag}: {r['tg_possible']} possible CPUs, not {cpus}")
    else:
        problems.append(f"{tag}: no tg_state_size line")

    # The measured runs: segment k (1-based) is the k-th pcrun line; the
    # last ("end") segment holds the checks and is not measured.
    plog = open(os.path.join(d, "percall.log"), errors="replace").read() \
        if os.path.exists(os.path.join(d, "percall.log")) else ""
    ordered = {}
    runs, recs, excl, why = percall_data.load(os.path.join(d, "raw"), con, plog,
                                              PIECES + ["cache_work"] + percall_data.PAIR_PIECES, ordered)
    if why:
        problems.append(f"{tag}: {why}")
        return r
    # The checks' segment: the shadow check's sides on the same live states.
    r["pairs"], pp = percall_data.pairs(recs, excl, ordered=ordered)
    problems.extend(f"{tag}: {p}" for p in pp)
    nested = percall_data.RECORD - 1
    for impl in ("c", "rust"):
        cw = recs.get(("cache_work", "threads", impl), [])
        recs[("scan", "threads", impl)] = [x for x in cw if x[nested] > 0]
        excl[("scan", "threads", impl)] = excl.get(("cache_work", "threads", impl), 0)
    r["med"] = {}
    r["calls"] = {}
    for piece in PIECES:
        for impl in ("c", "rust"):
            ins = sorted(x[0] for x in recs.get((piece, WORKLOAD[piece], impl), []))
            r["calls"][(piece, impl)] = (len(ins), excl.get((piece, WORKLOAD[piece], impl), 0))
            if ins:
                r["med"][(piece, impl)] = pct(ins, 50)
            else:
                problems.append(f"{tag}: {piece} was not measured on {impl} (no undisturbed call in "
                                f"the {WORKLOAD[piece]} run)")
    # The occupancy sample's paths: the counts 5 % of a side's calls or more take.
    for impl in ("c", "rust"):
        mix = stats.path_mix([x[0] for x in recs.get(("occupancy", "threads", impl), [])])
        r[("mix", impl)] = mix
        r[("paths", impl)] = [x for x, _, _ in mix]
    # The scan: fraction_mm_sched() once per CPU of every scan.
    for impl in ("c", "rust"):
        visits = sorted(x[nested] for x in recs[("scan", "threads", impl)])
        r[("per_scan", impl)] = pct(visits, 50) if visits else 0
        if not visits:
            problems.append(f"{tag}: task_cache_work() never scanned on {impl}")
        elif visits[0] != cpus or visits[-1] != cpus:
            problems.append(f"{tag}: the scans on {impl} visited {visits[0]} to {visits[-1]} CPUs, not {cpus}")
    # The threads: spread over every LLC in the measured run, and a
    # preferred LLC in it or in the checks' run of the same side.
    for impl in ("c", "rust"):
        t = [l.split() for l in con.splitlines() if l.startswith(f"sched_rust: scale_threads {impl} ")]
        tc = [l.split() for l in con.splitlines() if l.startswith(f"sched_rust: scale_threads {impl}-check ")]
        if not t:
            problems.append(f"{tag}: no threads run on {impl}")
            continue
        f = t[-1]
        pref, used = int(f[6]), int(f[8])
        # The checks' runs: one, or up to five where the measured run got no preferred LLC.
        pref_check = max((int(x[6]) for x in tc), default=0)
        # The LLCs the threads ran in: of the measured run, or of a checks' run
        # where a preferred LLC gathered the measured run's threads from the start.
        used = max([used] + [int(x[8]) for x in tc])
        r[("pref", impl)], r[("pref_check", impl)], r[("used", impl)] = pref, pref_check, used
        r[("check_runs", impl)] = len(tc)
        if max(pref, pref_check) < 1:
            problems.append(f"{tag}: no thread got a preferred LLC on {impl}, in the measured run or the "
                            f"{len(tc)} checks' runs")
        if used != llcs:
            problems.append(f"{tag}: the threads ran in {used} of the {llcs} LLCs on {impl}")

    # The checks after the measured runs: counted from their start.
    start = line("scale_checks_start")
    sh, lc, ls = line("shadow"), line("llc_check"), line("llc_shadow")
    if not (start and sh and lc and ls):
        problems.append(f"{tag}: the checks did not report (scale_checks_start, shadow, llc_check, llc_shadow)")
        return r
    i = start.index("llc_check")
    j = start.index("llc_shadow")
    sh0, lc0, ls0 = start[1:i], start[i + 1:j], start[j + 1:]

    def ops(v):
        side, o = None, {}
        for a, b in zip(v[3:], v[4:]):
            if a in ("c", "rust"):
                side = a
            elif b.isdigit() and side:
                o[(side, a)] = int(b)
        return o

    r["shadow"] = int(sh[1]) - int(sh0[1])
    r["llc_check"] = int(lc[1]) - int(lc0[1])
    o1, o0 = ops(ls), ops(ls0)
    r["llc_shadow"] = {k: o1[k] - o0.get(k, 0) for k in o1}
    if sh[0] != "1" or int(sh[2]) != 0 or r["shadow"] < SHADOW_MIN:
        problems.append(f"{tag}: shadow check on={sh[0]}, {r['shadow']} picks compared (at least "
                        f"{SHADOW_MIN}), {sh[2]} divergences")
    if lc[0] != "1" or int(lc[2]) != 0 or r["llc_check"] < LLC_CHECK_MIN:
        problems.append(f"{tag}: LLC check on={lc[0]}, {r['llc_check']} dequeues checked (at least "
                        f"{LLC_CHECK_MIN}), {lc[2]} violations")
    if ls[0] != "1" or int(ls[1]) != 0:
        problems.append(f"{tag}: LLC shadow check on={ls[0]}, {ls[1]} divergences")
    for side in ("c", "rust"):
        for op in ("enqueue", "dequeue", "epoch", "avg"):
            if r["llc_shadow"].get((side, op), 0) < 1:
                problems.append(f"{tag}: LLC shadow check: {op} never compared with {side} selected")
    r["sh_div"], r["lc_viol"], r["ls_div"] = int(sh[2]), int(lc[2]), int(ls[1])
    # The group state's check: "<on> <divergences> <failed> c <groups> rust <groups>".
    tg0, tg = line("tg_shadow_start"), line("tg_shadow")
    if not (tg0 and tg and len(tg0) == len(tg) == 7):
        problems.append(f"{tag}: the group state's check did not report (tg_shadow_start, tg_shadow)")
        return r
    r["tg_shadow"] = {tg[i]: int(tg[i + 1]) - int(tg0[i + 1]) for i in (3, 5)}
    r["tg_div"] = int(tg[1])
    if tg[0] != "1" or r["tg_div"] != 0:
        problems.append(f"{tag}: group state check on={tg[0]}, {tg[1]} divergences")
    for side in ("c", "rust"):
        if r["tg_shadow"].get(side, 0) < 1:
            problems.append(f"{tag}: group state check: no new group compared with {side} selected")
    return r


WINDOWS = set()


def aggr_data(cpus, llcs):
    """One size's aggregation boot (sched_rust.mode=aggr): per side, the runs'
    "aggr" lines as dicts, or None; its problems go to `problems`."""
    d = os.path.join(RES, f"{cpus}-{llcs}")
    tag = f"{cpus} CPUs in {llcs} LLCs, aggregation boot"
    try:
        with open(os.path.join(d, "aggr-run.txt")) as f:
            _, _, host_s, rc = f.read().split()
        con = open(os.path.join(d, "aggr-console.log"), errors="replace").read()
    except (OSError, ValueError):
        problems.append(f"{tag}: not run (no aggr-run.txt or console)")
        return None
    if "sched_rust: DONE" not in con or rc != "0":
        problems.append(f"{tag}: did not finish (boot exit {rc}, {host_s} s): see {d}/aggr-boot.txt")
        return None
    # The runs asked for: sched_rust.runs per side for each epoch_affinity_timeout.
    start = re.findall(r"^sched_rust: aggr_start .*\bruns (\d+) .*\btimeouts (\S+)$", con, re.M)
    w = re.findall(r"^sched_rust: aggr_start .*\bseconds (\d+) pref_cap (\d+)", con, re.M)
    if w:
        WINDOWS.add(w[-1][0] + " s" if w[-1][0] == w[-1][1] else
                    f"at least {w[-1][0]} s and on until a thread has one, at most {w[-1][1]} s: not a fixed window")
    want = int(start[-1][0]) * len(start[-1][1].split(",")) if start else 0
    r = {"host_s": int(host_s), "c": [], "rust": []}
    for m in re.finditer(r"^sched_rust: aggr (c|rust) \d+ timeout (\d+) (.*)$", con, re.M):
        f = m.group(3).split()
        v = dict(zip(f[::2], f[1::2]))
        try:
            r[m.group(1)].append({"timeout": int(m.group(2)), "created": int(v["created_ms"]),
                                  "run": int(v["run_ms"]), "most": int(v["max_pref"]),
                                  "first": None if v["first_pref_ms"] == "none" else int(v["first_pref_ms"])})
        except (KeyError, ValueError):
            problems.append(f"{tag}: a malformed run line: {m.group(0)}")
    for side in ("c", "rust"):
        if not want or len(r[side]) != want:
            problems.append(f"{tag}: {len(r[side])} runs on {side}, of {want or 'no aggr_start line'}")
    return r


data = [size_data(c, l) for c, l in SIZES]
aggr = [aggr_data(c, l) for c, l in SIZES]
AGGR_WINDOW = ", ".join(sorted(WINDOWS)) or "none recorded"
with open(os.path.join(RES, "header.txt")) as f:
    header = f.read()

say("### Cost against machine size (`make bench-scale`)")
say("")
say("The bench kernel booted at each size (one LLC per QEMU socket), C and Rust in the same boot, "
    "every call of each piece counted in instructions under `evaluation/bench/percall.c` (no cache model): "
    "the pick and the LLC pieces inside one process with as many threads as CPUs walking a shared "
    "buffer beside half as many single-threaded spinners, `tg_alloc`/`tg_free` inside a 4 x 3 cgroup "
    "tree (84 groups) created and removed. Median instructions per call; `bytes/group`: the per-CPU "
    "state of one task group (`sizeof(struct cfs_tg_state)` x possible CPUs, the same allocation on "
    "both sides); `scan`: the `task_cache_work()` calls that scanned (the others return at the "
    "one-scanner-per-period gate), and `visits`: the CPUs each scan visited (its calls of "
    "`fraction_mm_sched()`, the same for every scan); `host s`: the size's host time, boot included. "
    "The pick, the LLC accounting and the group's allocation and free take the same path on both "
    "sides; `occupancy` (`fraction_mm_sched()`) has paths some 20 instructions apart (no epoch "
    "elapsed, the CPU's or the process's runtime decayed), taken as often as the run's timing "
    "makes them, which differs between the two sides' runs: its median, and the scan's sum over "
    "the CPUs, move with that mix, not with the code. `make bench` compares each path on one state "
    "(`llc_occupancy`, `llc_decay`), with each side called directly, and measures what the debug "
    "option's run-time C/Rust switch, behind which these calls run, adds to each side.")
say("")
say("```")
hdr = f"{'CPUs':>4} {'LLCs':>4} {'host s':>6} {'bytes/group':>11} {'visits':>6}"
for piece in PIECES:
    hdr += f"  {piece + ' C/Rust (Rust/C)':>30}"
say(hdr)
for r in data:
    if r is None:
        continue
    row = f"{r['cpus']:4d} {r['llcs']:4d} {r['host_s']:6d} "
    if "unfinished" in r or "med" not in r:
        say(row + f"not measured: {r.get('unfinished', 'no per-call data')}")
        continue
    row += f"{r.get('tg_bytes', 0):11d} {r[('per_scan', 'c')]:6d}"
    sz = f"{r['cpus']}-{r['llcs']}"
    fig(f"tg_bytes.{sz}", r.get("tg_bytes", 0))
    fig(f"visits.{sz}", r[("per_scan", "c")])
    for piece in PIECES:
        c, ru = r["med"].get((piece, "c")), r["med"].get((piece, "rust"))
        if c and ru:
            fig(f"{piece}.{sz}.c.median", c)
            fig(f"{piece}.{sz}.rust.median", ru)
            fig(f"{piece}.{sz}.ratio", f"{ru / c:.3f}")
        cell = f"{c}/{ru} ({ru / c:.3f})" if c and ru else "-"
        row += f"  {cell:>30}"
    say(row)
say("```")
say("")
say("The same pieces on the same states: in the checks' run (the threads workload and the cgroup tree "
    "again on each side, the shadow check on), every live pick runs the C, Rust and stock C pick again, "
    "every LLC enqueue, dequeue and occupancy sample of a thread with a preferred LLC runs the C and "
    "the Rust function on a copy of its state, and every new group's state is allocated and freed "
    "again by C and by Rust in turn on a scratch group below the same parent, after an allocation and "
    "free that leave the per-CPU allocator the same free area for both; each side an out-of-line "
    "function of the same shape (`kernel/sched/rust/debug/fair_shadow.c`) counted from its call to its "
    "return. Mean instructions per "
    "call, C/Rust (Rust/C of the means, the total over the same calls; Rust/C of the medians, which "
    "can fall on different paths where two paths are taken about as often; for the group's "
    "allocation and free, whose sides run one group after the other, also the median per group of "
    "Rust's instructions minus C's), and the calls per side (a group whose allocation or free slept "
    "or was interrupted on one side is left out on both):")
say("")
say("```")
hdr = f"{'CPUs':>4} {'LLCs':>4}"
for piece in percall_data.PAIRS:
    hdr += f"  {piece + ' C/Rust (Rust/C mean; p50)':>40}"
say(hdr + "  pick stock mean (C/stock; Rust/stock)")
pair_ratio, pair_diff = {}, {}
for r in data:
    if r is None or "pairs" not in r:
        continue
    row = f"{r['cpus']:4d} {r['llcs']:4d}"
    for piece in percall_data.PAIRS:
        c, ru = r["pairs"][piece]["c"][0], r["pairs"][piece]["rust"][0]
        if c and ru:
            r50, rm = pct(ru, 50) / pct(c, 50), mean(ru) / mean(c)
            pair_ratio.setdefault(piece, []).append(rm)
            fig(f"pair.{piece}.{r['cpus']}-{r['llcs']}.ratio", f"{rm:.3f}")
            fig(f"pair.{piece}.{r['cpus']}-{r['llcs']}.calls", len(c))
            d = r["pairs"][piece].get("diff")
            cell = f"{mean(c):.1f}/{mean(ru):.1f} ({rm:.3f}; {r50:.3f}"
            if d:
                pair_diff.setdefault(piece, []).append(pct(d, 50))
                cell += f"; {pct(d, 50):+d}"
            cell += f") n={len(c)}"
        else:
            cell = "-"
        row += f"  {cell:>40}"
    st = r["pairs"]["pick"]["stock"][0]
    if st and r["pairs"]["pick"]["c"][0] and r["pairs"]["pick"]["rust"][0]:
        row += (f"  {mean(st):.1f} ({mean(r['pairs']['pick']['c'][0]) / mean(st):.3f}; "
                f"{mean(r['pairs']['pick']['rust'][0]) / mean(st):.3f})")
    say(row)
say("```")
say("")
say("Calls measured per side (undisturbed + left out), threads with a preferred LLC and LLCs the "
    "threads ran in (the most at once in the 100 ms samples of each run, which goes on until one "
    "thread has one, at most 30 s), and the checks run after the measured "
    "runs (the threads workload and the cgroup tree again on each side with the shadow and LLC "
    "checks on):")
say("")
say("```")
for r in data:
    if r is None or "med" not in r:
        continue
    calls = " ".join(f"{p} {r['calls'][(p, 'c')][0]}+{r['calls'][(p, 'c')][1]}/"
                     f"{r['calls'][(p, 'rust')][0]}+{r['calls'][(p, 'rust')][1]}" for p in PIECES)
    say(f"{r['cpus']}:{r['llcs']}  calls c/rust: {calls}")
    say(f"{'':5} preferred LLC c {r.get(('pref', 'c'))} rust {r.get(('pref', 'rust'))} threads (in the checks' "
        f"runs c {r.get(('pref_check', 'c'))} of {r.get(('check_runs', 'c'))} run(s), "
        f"rust {r.get(('pref_check', 'rust'))} of {r.get(('check_runs', 'rust'))}); "
        f"LLCs used c {r.get(('used', 'c'))} rust {r.get(('used', 'rust'))}; "
        f"shadow {r.get('shadow')} compared / {r.get('sh_div')} divergences; "
        f"LLC check {r.get('llc_check')} / {r.get('lc_viol')}; LLC shadow "
        + " ".join(f"{s} {o} {n}" for (s, o), n in sorted(r.get('llc_shadow', {}).items()))
        + f" / {r.get('ls_div')} divergences; group state "
        + " ".join(f"{s} {n}" for s, n in sorted(r.get('tg_shadow', {}).items()))
        + f" groups / {r.get('tg_div')} divergences")
    say(f"{'':5} occupancy paths (instructions taken by 5 % of the calls or more, share of the calls): c "
        f"{stats.format_mix(r.get(('mix', 'c'), []))}; rust {stats.format_mix(r.get(('mix', 'rust'), []))}")
    for piece in percall_data.SEQUENTIAL:
        d = r.get("pairs", {}).get(piece, {}).get("diff")
        if not d:
            continue
        common = max(set(d), key=d.count)
        on_rust, on_c, size, p = percall_data.one_side_only(d, common)
        k = f"{piece}.{r['cpus']}-{r['llcs']}.one_side"
        fig(f"{k}.groups", len(d))
        fig(f"{k}.rust", on_rust)
        fig(f"{k}.c", on_c)
        fig(f"{k}.p", f"{p:.3f}")
        if on_rust + on_c:
            say(f"{'':5} {piece}, same states: a path of some {int(size)} instructions on one side only in "
                f"{on_rust + on_c} of {len(d)} groups, {on_rust} on Rust's, {on_c} on C's (as chance: exact "
                f"McNemar {stats.fmt_p(p)})")
say("```")
say("")

# Aggregation parity: per size and side, how many runs got a thread a
# preferred LLC and when; tested as two independent samples.
say("### Aggregation parity (`make bench-scale`'s second boot at each size)")
say("")
say("How often and how soon cache-aware scheduling gives the threads of one process a preferred LLC, "
    "per side, in the bench kernel without the plugin (`sched_rust.mode=aggr`): the same threads workload, "
    "run after run, the sides in a random order per round, `aggr_tolerance` 100, the kernel's "
    "`epoch_affinity_timeout`. Each run is watched for a fixed window from the last thread's creation "
    f"({AGGR_WINDOW}), whether or not a thread gets a preferred LLC in it; schedbench's main thread, at a "
    "real-time priority, reads `llc_state` every 100 ms once the threads exist (it is not counted). `pref`: "
    "runs in which a thread got a preferred LLC within the window; `after ms`: from the end of the threads' "
    "creation to the "
    "first sample that saw one (median [min, max] over those runs; 0 when the first sample saw one, "
    "for a thread can get one while the others are created); `most`: the most threads with one at "
    "once (median); `created ms`: the time creating the threads took (median; it moves with the "
    "host's timing, by seconds at 64 CPUs). `rates`: Fisher's exact test of the two sides' `pref`; "
    "`times`: the Mann-Whitney U test of their `after ms`, a run without one counted as the longest "
    "(censored at the window). A p above 0.05 finds no difference, which is not equivalence: each "
    "rate's 95 % interval is printed, and `detects` is the largest rate that Fisher's test of this "
    "many runs per side tells from the other side's observed rate with power 0.8 (exact, "
    "scripts/stats.py): a smaller difference may go unseen. Over the sizes, one p below 0.05 in 20 is "
    "chance; a size alone needs 0.05 divided by the number of sizes (Bonferroni). The sizes are not "
    "pooled: each is its own experiment.")
say("")
say("```")
say(f"{'CPUs':>4} {'LLCs':>4} {'side':>4} {'pref':>7} {'pref rate [95 %]':>22} {'after ms':>24} "
    f"{'most':>5} {'created ms':>10}  tests")
pool = {"c": [0, 0], "rust": [0, 0]}
aggr_p = {}
for (cpus, llcs), a in zip(SIZES, aggr):
    if a is None:
        say(f"{cpus:4d} {llcs:4d}  not measured")
        continue
    firsts, times = {}, {}
    for side in ("c", "rust"):
        runs = a[side]
        got = [x for x in runs if x["first"] is not None]
        pool[side][0] += len(got)
        pool[side][1] += len(runs)
        firsts[side] = [max(0, x["first"] - x["created"]) for x in got]
        # A run without one: censored, longer than any that got one.
        times[side] = firsts[side] + [float("inf")] * (len(runs) - len(got))
        ci = stats.rate_interval(len(got), len(runs)) if runs else None
        first = (f"{pct(sorted(firsts[side]), 50)} [{min(firsts[side])}, {max(firsts[side])}]"
                 if got else "-")
        rate = f"{len(got) / len(runs):.2f} [{ci.lo:.2f}, {ci.hi:.2f}]" if runs else "-"
        most = pct(sorted(x["most"] for x in runs), 50) if runs else 0
        created = pct(sorted(x["created"] for x in runs), 50) if runs else 0
        row = (f"{cpus:4d} {llcs:4d} {side:>4} {len(got):>3}/{len(runs):<3} {rate:>22} {first:>24} "
               f"{most:5d} {created:10d}")
        k = f"aggr.{cpus}-{llcs}.{side}"
        fig(f"{k}.pref", f"{len(got)}/{len(runs)}")
        if runs:
            fig(f"{k}.rate", f"{len(got) / len(runs):.2f}")
            fig(f"{k}.lo", f"{ci.lo:.2f}")
            fig(f"{k}.hi", f"{ci.hi:.2f}")
        if got:
            fig(f"{k}.after_ms", pct(sorted(firsts[side]), 50))
        if side == "rust":
            aggr_p[f"{cpus}:{llcs}"] = stats.rank_p(times["c"], times["rust"])
            ref = len(firsts["c"]) / len(a["c"]) if a["c"] else 0
            det = stats.detectable_rate(len(runs), ref) if runs and ref > 0 else None
            row += f"  detects {'-' if det is None else f'<= {det:.2f}'} against C's {ref:.2f};"
            rp = stats.rates_p(len(firsts['c']), len(a['c']), len(got), len(runs))
            row += (f"  rates {stats.fmt_p(rp)}"
                    f", times {stats.fmt_p(aggr_p[f'{cpus}:{llcs}'])}")
            k = f"aggr.{cpus}-{llcs}"
            fig(f"{k}.detects", "-" if det is None else f"{det:.2f}")
            fig(f"{k}.rates_p", f"{rp:.3f}")
            fig(f"{k}.times_p", f"{aggr_p[f'{cpus}:{llcs}']:.3f}")
        say(row)
say("```")
say("")

# Plots: cost against CPUs at the smallest LLC count, against LLCs at the
# largest CPU count; C solid, Rust dashed, one colour per piece.
done = [r for r in data if r and "med" in r]
series = {
    "cpus": ("CPUs", sorted((r for r in done if r["llcs"] == min(l for _, l in SIZES)), key=lambda r: r["cpus"]),
             "cpus"),
    "llcs": ("LLCs", sorted((r for r in done if r["cpus"] == max(c for c, _ in SIZES)), key=lambda r: r["llcs"]),
             "llcs"),
}
for name, (label, rows, key) in series.items():
    if len(rows) < 2 or not PLOTS:
        continue
    dat = os.path.join(RES, f"scale_{name}.dat")
    with open(dat, "w") as f:
        for r in rows:
            f.write(f"{r[key]} " + " ".join(str(r["med"].get((p, s), "NaN")) for p in PIECES
                                            for s in ("c", "rust")) + "\n")
    fixed = f"{rows[0]['llcs']} LLCs" if name == "cpus" else f"{rows[0]['cpus']} CPUs"
    plots = []
    for i, p in enumerate(PIECES):
        plots.append(f"'scale_{name}.dat' using 1:{2 + 2 * i} with linespoints lc {i + 1} dt 1 pt 7 title '{p} C'")
        plots.append(f"'scale_{name}.dat' using 1:{3 + 2 * i} with linespoints lc {i + 1} dt 2 pt 6 title '{p} Rust'")
    gp = f"""set terminal svg size 1000,560 dynamic font 'sans,11'
set output 'scale_{name}.svg'
set title 'Instructions per call (median) against {label}, {fixed}: C solid, Rust dashed'
set xlabel '{label}'
set ylabel 'instructions per call'
set logscale xy 2
set grid
set key outside right
plot {", ".join(plots)}
"""
    try:
        subprocess.run(["gnuplot"], input=gp, text=True, cwd=RES, check=True)
        say(f"![instructions per call against {label}](evaluation/bench/results-scale/scale_{name}.svg)")
        say("")
    except (OSError, subprocess.CalledProcessError) as e:
        problems.append(f"gnuplot failed for scale_{name}.svg: {e}")

# Growth: the cost at the largest size of a series over its smallest, per side.
say("Growth of the median cost from the smallest to the largest size of each series (C, Rust):")
say("")
say("```")
for name, (label, rows, key) in series.items():
    if len(rows) < 2:
        continue
    a, b = rows[0], rows[-1]
    cells = []
    for p in PIECES:
        g = [b["med"].get((p, s), 0) / a["med"][(p, s)] if a["med"].get((p, s)) else float("nan")
             for s in ("c", "rust")]
        cells.append(f"{p} {g[0]:.2f}/{g[1]:.2f}")
    say(f"{label} {a[key]} -> {b[key]}: " + ", ".join(cells))
say("```")
say("")
if problems:
    say("Checks: FAIL")
    for p in problems:
        say(f"- {p}")
else:
    say(f"Checks: PASS at {len(done)} sizes (CPUs and LLCs as asked, every piece measured on both sides, "
        "every scan over every CPU, a preferred LLC and every LLC used on both sides, shadow and LLC "
        "checks with no difference).")
def rng_(lo, hi):
    return f"{lo:.3f}" if f"{lo:.3f}" == f"{hi:.3f}" else f"{lo:.3f}-{hi:.3f}"


# summary.md: README.md's scale block (BENCH_SAVE=1).
sm = []
if done:
    m = re.search(r"^==== rust-sched-cfs bench-scale, (.*) ====$", header, re.M)
    sizes = ", ".join(f"{r['cpus']}:{r['llcs']}" for r in done)
    sm.append(f"`make bench-scale`, {m.group(1) if m else ''}, x86_64 bench kernel at {len(done)} sizes "
              f"(CPUs:LLCs {sizes}; [all figures](evaluation/bench/results-scale/README.md)), instructions per "
              "call, Rust/C of the medians over the sizes:")
    sm.append("")
    cells = []
    for p in PIECES:
        v = [r["med"][(p, "rust")] / r["med"][(p, "c")] for r in done
             if r["med"].get((p, "c")) and r["med"].get((p, "rust"))]
        if v:
            lo, hi = min(v), max(v)
            cells.append(f"{p} " + (f"{lo:.3f}" if f"{lo:.3f}" == f"{hi:.3f}" else f"{lo:.3f}-{hi:.3f}"))
    sm.append("- " + ", ".join(cells))
    if pair_ratio:
        sm.append("- on the same states (the shadow check's sides, in the checks' run of each size), "
                  "Rust/C of the means over the sizes: "
                  + ", ".join(f"{p} {rng_(min(v), max(v))}" for p, v in pair_ratio.items())
                  + "".join(f"; {p} per group, Rust - C: median {min(v)}"
                            + (f" to {max(v)}" if max(v) != min(v) else "") + " instructions"
                            for p, v in pair_diff.items()))
    pc = {impl: sorted({x for r in done for x in r.get(("paths", impl), [])}) for impl in ("c", "rust")}
    if pc["c"] and pc["rust"]:
        sm.append(f"- occupancy's paths (instructions taken by 5 % of a side's calls or more, at any size): "
                  f"C {'/'.join(map(str, pc['c']))}, Rust {'/'.join(map(str, pc['rust']))}: its median and "
                  "the scan's move with the mix of paths a run's timing gives each side")
    if pool["c"][1] and pool["rust"][1]:
        worst = min((aggr_p[k], k) for k in aggr_p) if aggr_p else None
        sm.append(f"- aggregation (the second boot of each size, no plugin, a window of {AGGR_WINDOW}): "
                  "runs in which a thread got a preferred LLC, per size in the figures (not pooled: each "
                  "size is its own experiment)"
                  + (f"; time to the first after the threads' creation, the smallest Mann-Whitney p of "
                     f"the {len(aggr_p)} sizes {stats.fmt_p(worst[0])} at {worst[1]}" if worst else "")
                  + " (no difference found is not equivalence: the per-size intervals are in the figures)")
    b = [r["tg_bytes"] for r in done if "tg_bytes" in r]
    if b:
        sm.append(f"- per-CPU memory of one group: {done[0]['tg_size']} bytes per possible CPU, "
                  f"{min(b)} to {max(b)} bytes per group (the same allocation on both sides)")
    sm.append("")
    for name, (label, rows, key) in series.items():
        if len(rows) >= 2:
            sm.append(f"![instructions per call against {label}](evaluation/bench/results-scale/scale_{name}.svg)")
            sm.append("")
with open(os.path.join(RES, "summary.md"), "w") as f:
    for item in sm:
        f.write(("\n".join(textwrap.wrap(item, 100, subsequent_indent="  " if item.startswith("- ") else "",
                                         break_on_hyphens=False)) if not item.startswith("!") else item) + "\n")
fig("sizes", len(done))
fig("windows", AGGR_WINDOW)
if FIGURES:
    with open(FIGURES, "w") as f:
        for k, v in FIG.items():
            f.write(f"{k}\t{v}\n")
text = "\n".join(out) + "\n"
with open(os.path.join(RES, "results.md"), "w") as f:
    f.write(text)
print(text, end="")
sys.exit(1 if problems else 0)
