#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The tables and plots of `make bench`, from what its three boots left in a
results directory (scripts/bench.sh):

  bench-console.log    sched_rust.mode=bench: the in-kernel microbenchmarks (wall
                       time), then the workloads, C and Rust alternating in a
                       random order each round ("sched_rust: wbench" lines)
  icount-console.log,  sched_rust.mode=icount: the microbenchmarks again under the
  icount.log           instruction-counting plugin (evaluation/bench/icount.c)
  percall-console.log, sched_rust.mode=percall: workloads under evaluation/bench/percall.c,
  percall.log, raw/    per call of each piece: instructions, cache lines,
                       simulated misses ("sched_rust: pcrun" starts a segment)

Prints the report, writes results.md (the README's measured-results section)
and the plots (SVG, gnuplot). Exits 1, naming what is missing, when a boot
did not produce what the report needs: no figure is printed from missing data.
"""
import os
import re
import statistics
import subprocess
import sys
import textwrap

import percall_data
import stats

RES = sys.argv[1]
problems = []


def need(cond, what):
    if not cond:
        problems.append(what)
    return cond


def read(name):
    path = os.path.join(RES, name)
    return open(path, errors="replace").read() if os.path.exists(path) else ""


def num(v):
    """A measurement as printed: integers above 1000, 4 significant digits below."""
    return f"{v:.0f}" if abs(v) >= 1000 else f"{v:.4g}"


pct = percall_data.pct


out = []
FIG = {}    # every figure by key: figures.tsv (scripts/check-claims.py)


def say(line=""):
    out.append(line)
    print(line)


# ---------------------------------------------------------------- microbench
con = read("bench-console.log")
need("sched_rust: DONE" in con, "the benchmark boot (sched_rust.mode=bench) did not finish")
micro = [l[len("sched_rust: bench "):] for l in con.splitlines() if l.startswith("sched_rust: bench ")]
need(any(l.startswith("pick_heap_") for l in micro), "no microbenchmark table in bench-console.log")
need(not any("could not prepare" in l for l in micro), "a microbenchmark could not prepare its state")

# -------------------------------------------------------------- icount table
icon = read("icount-console.log")
ilog = read("icount.log")
ibench = [l[len("sched_rust: bench "):] for l in icon.splitlines() if l.startswith("sched_rust: bench ")]
icases = [l.split()[0] for l in ibench[2:] if l.split() and not l.split()[0].endswith("tg_alloc_free")]
m = re.search(r"^# (\d+) (?:rounds|timed runs) x (\d+) calls", "\n".join(ibench), re.M)
counts = [int(l.split()[1]) for l in ilog.splitlines() if l.startswith("icount ")]
icount = {}
have_icount = os.path.exists(os.path.join(RES, "icount-console.log"))
if have_icount and need(m and icases and icases[0] == "empty", "no instruction-counting table (icount boot)"):
    rounds, batch = int(m.group(1)), int(m.group(2))
    if need(len(counts) == len(icases) * rounds * 2,
            f"the icount plugin counted {len(counts)} batches, expected "
            f"{len(icases)} cases x {rounds} rounds x 2"):
        # Batches run case by case, 2 per round, the side alternating:
        # rust = side ^ (round & 1).
        for c, name in enumerate(icases):
            v = {0: [], 1: []}
            for r in range(rounds):
                for s in range(2):
                    v[(s + r) % 2].append(counts[c * rounds * 2 + r * 2 + s])
            icount[name] = (statistics.median(v[0]), statistics.median(v[1]))
        e = sum(icount["empty"]) / 2
        # The cases the report's tables need: a missing one is missing data, not a row less.
        for name in ("eligible_call", "stock_eligible_call", "dispatch_eligible_call",
                     "dispatch_pick_fast_8", "dispatch_pick_heap_8"):
            need(name in icount, f"no {name} case in the instruction-counting boot")

# ------------------------------------------------------------- percall data
pcon = read("percall-console.log")
plog = read("percall.log")
PIECES = ["pick", "llc_enqueue", "llc_dequeue", "occupancy", "cache_work", "tg_alloc", "tg_free"]
runs, percall, excluded = [], {}, {}   # percall, excluded: by (piece, workload, side)
have_percall = os.path.exists(os.path.join(RES, "percall-console.log"))
if have_percall:
    ordered = {}
    runs, percall, excluded, why = percall_data.load(os.path.join(RES, "raw"), pcon, plog,
                                                     PIECES + percall_data.PAIR_PIECES, ordered)
    need(why is None, why)
    if why is None:
        need(any(side == "shadow" for side, _ in runs[:-1]),
             "no shadow run in the per-call boot (sched_rust: pcrun shadow)")
        pair_fig, pair_problems = percall_data.pairs(percall, excluded, ordered=ordered)
        for p in pair_problems:
            need(False, p)

# ------------------------------------------------------------ workload data
wb = {}     # metric -> {"c": [], "rust": [], "better": ...}
for l in con.splitlines():
    f = l.split()
    if l.startswith("sched_rust: wbench ") and len(f) == 6:
        try:
            v = float(f[4])
        except ValueError:
            problems.append(f"a workload printed no number: {l}")
            continue
        d = wb.setdefault(f[3], {"c": [], "rust": [], "better": f[5]})
        d[f[2]].append(v)
wrounds = int(re.search(r"sched_rust\.rounds=(\d+)", con).group(1)) if re.search(r"sched_rust\.rounds=(\d+)", con) else 0
need(wb, "no workload results (sched_rust: wbench) in bench-console.log")
for metric, d in wb.items():
    need(len(d["c"]) == len(d["rust"]) == wrounds,
         f"workload {metric}: {len(d['c'])} C and {len(d['rust'])} Rust rounds, expected {wrounds} each")
    need(all(v > 0 for v in d["c"] + d["rust"]), f"workload {metric}: a round measured 0")
for l in con.splitlines():
    if l.startswith("sched_rust: FAIL"):
        problems.append(l[5:])

if problems:
    print("bench-report: cannot report, data missing:", file=sys.stderr)
    for p in problems:
        print("  " + p, file=sys.stderr)
    sys.exit(1)

# ------------------------------------------------------------------- report
# The few figures README.md quotes (BENCH_SAVE=1 puts them there):
# ranges over the cases and workloads of the tables below.
summary = []
if have_icount:
    say("### Microbenchmarks, instructions per call")
    say("")
    say("In-kernel microbenchmarks (`kernel/sched/rust/debug/fair_bench.c`): the same states given to the C and "
        "the Rust function, each called out of line by the same loop as a kernel without the debug option "
        "calls it (no C/Rust dispatch), under the QEMU TCG plugin `evaluation/bench/icount.c`; "
        f"median of {rounds} rounds of {batch} calls per side; net = minus the empty batch "
        f"({e / batch:.1f} instructions per call: the loop, the call of a function that returns its "
        "argument, markers, clock reads). "
        "C is fair.c's implementation, with the series' four C patches: with patches 3 and 4 its pick "
        "computes the eligibility sums once per pick, the algorithm of the Rust pick, in the Rust pick's "
        "shapes.")
    say("")
    say("```")
    say(f"{'case':<18} {'C net':>8} {'Rust net':>9} {'Rust/C':>7}")
    ratios = {}
    for name in icases[1:]:
        if name.startswith(("stock_", "dispatch_")):
            continue
        c, r = ((x - e) / batch for x in icount[name])
        ratios[name] = r / c if c > 0 else 0
        say(f"{name:<18} {c:8.1f} {r:9.1f} {ratios[name]:7.3f}")
        FIG[f"icount.{name}.c"], FIG[f"icount.{name}.rust"] = f"{c:.1f}", f"{r:.1f}"
        FIG[f"icount.{name}.ratio"] = f"{ratios[name]:.3f}"
    say("```")
    say("")
    stock = [n for n in icases if n.startswith("stock_") and n[len("stock_"):] in icount]
    if stock:
        say("Three sides: each pick and eligibility case again on the same state, Linux 7.3's stock C "
            "(`pick_eevdf_stock()`, which computes the eligibility sums for every entity it tests) against "
            "fair.c's C (the series' C patches: once per pick), called the same way. "
            "`C/stock` is what the C patches give every kernel, "
            "`Rust/C` the Rust against fair.c's C on the same algorithm, not in the same shape (the "
            "C-against-Rust batches of the table above), `Rust/stock` what a 7.3 user sees.")
        say("")
        say("```")
        say(f"{'case':<18} {'stock net':>9} {'C net':>8} {'Rust net':>9} {'C/stock':>8} {'Rust/C':>7} "
            f"{'Rust/stock':>10}")
        for name in stock:
            base = name[len("stock_"):]
            st, c2 = ((x - e) / batch for x in icount[name])
            c, r = ((x - e) / batch for x in icount[base])
            FIG[f"icount.{base}.stock"] = f"{st:.1f}"
            FIG[f"icount.{base}.c_stock"] = f"{c2 / st if st > 0 else 0:.3f}"
            say(f"{base:<18} {st:9.1f} {c2:8.1f} {r:9.1f} {c2 / st if st > 0 else 0:8.3f} "
                f"{r / c if c > 0 else 0:7.3f} {r / st if st > 0 else 0:10.3f}")
        say("```")
        say("")
    disp = [n for n in icases if n.startswith("dispatch_") and n[len("dispatch_"):] in icount]
    if disp:
        say("The debug option's dispatch (`CONFIG_SCHED_RUST_CFS_DEBUG`: a static key per piece chooses "
            "C or Rust at run time; the per-call figures inside workloads below run behind it): the same "
            "cases called through it, and what it adds to each side's call, in instructions.")
        say("")
        say("```")
        say(f"{'case':<18} {'C net':>8} {'Rust net':>9} {'Rust/C':>7} {'C +':>5} {'Rust +':>7}")
        adds = []
        for name in disp:
            base = name[len("dispatch_"):]
            dc, dr = ((x - e) / batch for x in icount[name])
            c, r = ((x - e) / batch for x in icount[base])
            say(f"{base:<18} {dc:8.1f} {dr:9.1f} {dr / dc if dc > 0 else 0:7.3f} {dc - c:5.1f} {dr - r:7.1f}")
            adds.append((dc - c, dr - r))
        say("```")
        say("")
        summary.append(("dispatch", min(a for a, _ in adds), max(a for a, _ in adds),
                        min(b for _, b in adds), max(b for _, b in adds)))
    pick = [n for n in ratios if n == "eligible_call" or n.startswith("pick_")]
    if pick:
        summary.append(("pick_icount", len(pick), min(ratios[n] for n in pick), max(ratios[n] for n in pick)))
    for n in ("llc_enq_deq", "llc_occupancy", "llc_decay"):
        if n in ratios:
            summary.append((n, ratios[n]))
    if stock:
        cs, rs = [], []
        for name in stock:
            st, c2 = ((x - e) / batch for x in icount[name])
            r = (icount[name[len("stock_"):]][1] - e) / batch
            if st > 0:
                cs.append(c2 / st)
                rs.append(r / st)
        summary.append(("stock_icount", len(cs), min(cs), max(cs), min(rs), max(rs)))
    with open(os.path.join(RES, "pick_tree.dat"), "w") as f:
        for kind in ("fast", "heap"):
            f.write(f"# {kind}: n C Rust\n")
            pts = sorted((int(n.rsplit("_", 1)[1]), n) for n in icases
                     if re.fullmatch(rf"pick_{kind}_\d+", n))
            for size, name in pts:
                c, r = ((x - e) / batch for x in icount[name])
                f.write(f"{size} {c:.1f} {r:.1f}\n")
            f.write("\n\n")
    say("![instructions per pick against the number of queued entities](evaluation/bench/results/pick_tree.svg)")
    say("")

if have_percall:
    say("### Per call inside workloads")
    say("")
    say("Every call of each piece during real workloads (`sched_rust.mode=percall`: rt-tests hackbench, schedbench wake, "
        "stress-ng switch, cgroup tree 4x4 created and removed, 4 threads of one process, napping every 8 passes, "
        "with 2 spinners for the LLC preference), both sides in one boot, the switch flipped per run, and a third side for the pick, "
        "`stock`: 7.3's stock pick with every other piece on C; under `evaluation/bench/percall.c`. "
        "A call runs from its call instruction to the return to its caller and includes what the piece "
        "calls (the C function and the Rust code inlined into it share the dispatcher's call site). "
        "Calls during which the vCPU took an interrupt or exception or switched tasks (preempted or "
    "sleeping) are left out and counted in `excl`, with calls that did not return on their vCPU. "
    "`ins`: instructions per call, p10/p50/p90/max; `dl`/`il`: distinct data/instruction cache lines "
        "per call (mean); `l1d`/`l2`: misses per call (mean) of a simulated private 32 KiB 8-way L1D "
        "and 1 MiB 16-way L2 per vCPU, LRU, fed by every data access of the guest. "
        "These calls run behind the debug option's C/Rust dispatch (its cost per side: the dispatch_ "
        "cases above), each side in its own runs, on different states: the rows describe each side and "
        "are not a Rust/C comparison. Rust against C per call at the production call sites, without "
        "the dispatch, is `make bench-prod`'s; on the same states, the next section's.")
    say("")
    say("```")
    say(f"{'piece':<12} {'workload':<10} {'side':<5} {'calls':>7} {'excl':>5}  {'ins p10/p50/p90/max':<24} "
        f"{'dl':>6} {'il':>6} {'l1d':>6} {'l2':>6}")
    box = []
    cachebars = []
    workloads = []
    for _, wl in runs[:-1]:
        if wl not in workloads:
            workloads.append(wl)
    for piece in PIECES:
        for wl in workloads:
            # "stock": the runs with 7.3's stock pick (every piece else on C).
            for impl in ("c", "rust", "stock") if piece == "pick" else ("c", "rust"):
                recs = percall.get((piece, wl, impl), [])
                if not recs:
                    continue
                ins = sorted(r[0] for r in recs)
                means = [sum(r[i] for r in recs) / len(recs) for i in range(1, 5)]
                say(f"{piece:<12} {wl:<10} {impl:<5} {len(recs):7d} {excluded.get((piece, wl, impl), 0):5d}  "
                    f"{'/'.join(str(pct(ins, p)) for p in (10, 50, 90)) + '/' + str(ins[-1]):<24} "
                    f"{means[0]:6.1f} {means[1]:6.1f} {means[2]:6.2f} {means[3]:6.2f}")
                if impl != "stock":
                    box.append((piece, wl, impl, pct(ins, 10), pct(ins, 25), pct(ins, 50), pct(ins, 75),
                                pct(ins, 90)))
            # Pieces that ran in only one of the two sides of a workload are
            # too rare there to compare: shown, not compared.
    say("```")
    say("")
    # A piece with several paths (the occupancy sample: no epoch elapsed, or
    # a runtime decayed) has a median that moves with the mix of paths a
    # run's timing gives each side: the paths themselves, the instruction
    # counts that 5 % of the calls or more take, compare like for like.
    say("Paths: the instruction counts taken by 5 % of a side's calls or more, with the share of the "
        "calls that take each, all workloads together (a median can fall on different paths on the "
        "two sides when the runs' states differ; instruction counts are discrete, so the path mix, "
        "not an interval, is their figure):")
    say("")
    say("```")
    paths = {}
    for piece in PIECES:
        row = []
        for impl in ("c", "rust"):
            v = [r[0] for wl in workloads for r in percall.get((piece, wl, impl), [])]
            if not v:
                continue
            mix = stats.path_mix(v)
            paths[(piece, impl)] = [x for x, _, _ in mix]
            row.append(f"{impl} " + (stats.format_mix(mix) or "(no count in 5 % of the calls)"))
        if row:
            say(f"{piece:<12} " + "; ".join(row))
    say("```")
    say("")
    # The same states: each side of the shadow check on every live call.
    say("### Per call on the same states")
    say("")
    say("The per-call rows above are C and Rust on different runs, whose states (queue lengths, "
        "which path a call takes) differ. In the shadow runs (`pcrun shadow`: hackbench, wake, switch, "
        "the LLC threads and the cgroup tree, the live side Rust, the shadow check on) every live pick "
        "runs the C, Rust and stock C pick again, every LLC enqueue, dequeue and occupancy sample of a "
        "task with a preferred LLC runs the C and the Rust function on a copy of its state, and every new "
        "group's state is allocated and freed again by C and by Rust in turn on a scratch group below the "
        "same parent, after an allocation and free that leave the per-CPU allocator the same free area "
        "for both (`kernel/sched/rust/debug/fair_shadow.c`): "
        "each side an out-of-line function of the same shape, counted by the plugin from its call to its "
        "return, so that the sides' distributions are over the same states. Rust/C of the means (the "
        "total over the same calls) and of the medians (a median can fall on different paths of a "
        "piece whose paths are taken about as often as each other, as the occupancy sample's are); "
        "`excl`: calls left out (interrupted or switched out: none expected under the locks the picks' "
        "and the LLC functions' checks hold; a group's allocation may sleep, and one side's call left "
        "out leaves that group out on both sides, whose calls pair up by their order).")
    say("")
    say("```")
    say(f"{'piece':<12} {'side':<5} {'calls':>7} {'excl':>5}  {'ins p10/p50/p90/max':<24} {'mean':>8}  "
        f"{'Rust/C p50':>10} {'Rust/C mean':>11}")
    pair_rows = []
    for piece, sides in percall_data.PAIRS.items():
        fig = pair_fig[piece]
        for side in sides:
            ins, x = fig[side]
            if not ins:
                continue
            ratio = ""
            if side == "rust":
                r50 = pct(ins, 50) / pct(fig["c"][0], 50)
                rmean = percall_data.mean(ins) / percall_data.mean(fig["c"][0])
                ratio = f"{r50:10.3f} {rmean:11.3f}"
                pair_rows.append((piece, len(ins), r50, rmean))
            elif side == "stock":
                m = percall_data.mean(ins)
                cm, rm = percall_data.mean(fig["c"][0]) / m, percall_data.mean(fig["rust"][0]) / m
                ratio = f"C/stock {cm:.3f}, Rust/stock {rm:.3f} (means)"
                pair_rows.append(("pick_stock", len(ins), cm, rm))
            say(f"{piece:<12} {side:<5} {len(ins):7d} {x:5d}  "
                f"{'/'.join(str(pct(ins, p)) for p in (10, 50, 90)) + '/' + str(ins[-1]):<24} "
                f"{percall_data.mean(ins):8.1f}  {ratio}")
    say("```")
    say("")
    # The group state's sides, one event after the other: per group.
    pair_diff = {}
    for piece in percall_data.SEQUENTIAL:
        d = pair_fig[piece].get("diff")
        if not d:
            continue
        common = max(set(d), key=d.count)
        pair_diff[piece] = (pct(d, 50), common, d.count(common), len(d))
        on_rust, on_c, size, p = percall_data.one_side_only(d, common)
        say(f"- `{piece}` per group, Rust's instructions minus C's on the same state: median "
            f"{pct(d, 50)}, p10 {pct(d, 10)}, p90 {pct(d, 90)}; {d.count(common)} of the {len(d)} groups "
            f"at {common}."
            + (f" In {on_rust + on_c} groups a path of some {int(size)} "
               f"instructions ran on one side only ({on_rust} times on Rust's, {on_c} on C's; "
               f"as chance, either side as likely to meet it: exact McNemar {stats.fmt_p(p)}), which "
               "moves the means, not the medians." if on_rust + on_c else ""))
    if pair_diff:
        say("")
    summary.append(("pairs", pair_rows, pair_diff))
    # Cache lines and misses per call, all workloads together.
    say("Cache lines and simulated misses per call, all workloads together (mean per call):")
    say("")
    say("```")
    say(f"{'piece':<12} {'side':<5} {'calls':>8} {'data lines':>11} {'insn lines':>11} {'L1D miss':>9} {'L2 miss':>8}")
    for piece in PIECES:
        row = {}
        for impl in ("c", "rust"):
            recs = [r for wl in workloads for r in percall.get((piece, wl, impl), [])]
            if not recs:
                continue
            means = [sum(r[i] for r in recs) / len(recs) for i in range(1, 5)]
            row[impl] = means
            say(f"{piece:<12} {impl:<5} {len(recs):8d} {means[0]:11.2f} {means[1]:11.2f} "
                f"{means[2]:9.3f} {means[3]:8.3f}")
        if len(row) == 2:
            cachebars.append((piece, row["c"], row["rust"]))
    say("```")
    say("")
    say("The model stops meaning anything at the shared cache: there is no LLC shared between vCPUs, "
        "no coherence traffic, no prefetcher, and tags are virtual addresses. What it does show is "
        "whether a Rust view touches more or different lines than C on the same calls.")
    say("")
    with open(os.path.join(RES, "percall_box.dat"), "w") as f:
        for i, (piece, wl, impl, p10, p25, p50, p75, p90) in enumerate(box):
            f.write(f"{i} {piece}/{wl}/{impl} {p10} {p25} {p50} {p75} {p90} {1 if impl == 'rust' else 0}\n")
    with open(os.path.join(RES, "percall_cache.dat"), "w") as f:
        for piece, c, r in cachebars:
            f.write(f"{piece} {c[0]:.3f} {r[0]:.3f} {c[2]:.3f} {r[2]:.3f}\n")
    say("![instructions per call inside workloads, p10-p25-p50-p75-p90](evaluation/bench/results/percall_box.svg)")
    say("")
    say("![data cache lines and simulated L1D misses per call](evaluation/bench/results/percall_cache.svg)")
    say("")

say("### Workloads, Rust/C with 95 % confidence intervals")
say("")
wmargin = stats.MARGIN["workload"]
say(f"The field's tools and schedbench, {wrounds} rounds per side in one boot, the side that runs "
    "first chosen at random each round. Ratio of the medians, Rust/C, with a 95 % percentile bootstrap "
    "interval (10000 resamples of each side, scipy.stats.bootstrap: the figures are continuous); "
    f"the verdict is an equivalence test (TOST) of the rounds' paired ratios Rust/C (`paired`: their "
    f"geometric mean; t on the log ratios, {wrounds - 1} degrees of freedom) against a margin of "
    f"{wmargin:.0%} stated in advance: \"equivalent\" when the 90 % interval lies within "
    f"1 +- {wmargin:.0%}, \"different\" when the 95 % interval excludes 1 (and is not within the "
    "margin), else \"inconclusive\" with the smallest difference the run could have told from none "
    "(scripts/stats.py). Under TCG the guest clock runs while the host thread executes other "
    "vCPUs: these are wall-time figures of an emulated machine, noisy by nature, which is why the "
    "intervals matter more than the ratios.")
say("")
say("```")
say(f"{'workload':<20} {'better':<7} {'C median':>11} {'Rust median':>12} {'Rust/C':>7} {'95% CI':>15}  "
    f"{'paired':>6}  verdict (TOST, margin {wmargin:.0%})")
ci_rows = []
verdicts = {}
for metric in sorted(wb):
    d = wb[metric]
    mc, mr = statistics.median(d["c"]), statistics.median(d["rust"])
    bi = stats.bootstrap_ratio_of_medians(d["c"], d["rust"])
    lo, hi, ratio = bi.lo, bi.hi, mr / mc
    # The k-th round of each side is the same round (C and Rust in a
    # random order within it): pairs.
    gm = stats.paired_ratio(d["rust"], d["c"])
    v = stats.tost_ratio(d["rust"], d["c"], wmargin)
    verdict = v.text
    if v.kind == "different":
        rust_better = (gm.est > 1) == (d["better"] == "higher")
        verdict += ": Rust better" if rust_better else ": Rust worse"
    verdicts[v.kind] = verdicts.get(v.kind, 0) + 1
    say(f"{metric:<20} {d['better']:<7} {num(mc):>11} {num(mr):>12} {ratio:7.3f} [{lo:.3f}, {hi:.3f}]  "
        f"{gm.est:6.3f}  {verdict}")
    # Plotted as Rust's performance relative to C (above 1: Rust better).
    if d["better"] == "higher":
        ci_rows.append((metric, ratio, lo, hi))
    else:
        ci_rows.append((metric, 1 / ratio, 1 / hi, 1 / lo))
say("```")
say("")
say(f"Of {len(ci_rows)} workloads: {verdicts.get('equivalent', 0)} equivalent within {wmargin:.0%}, "
    f"{verdicts.get('different', 0)} different, {verdicts.get('inconclusive', 0)} inconclusive; "
    f"at 5 % each, about {0.05 * len(ci_rows):.1f} would be called different by chance alone if "
    "nothing differed.")
say("")
with open(os.path.join(RES, "workloads.dat"), "w") as f:
    for i, (metric, r, lo, hi) in enumerate(ci_rows):
        f.write(f"{i} {metric} {r:.4f} {lo:.4f} {hi:.4f}\n")
say("![Rust relative to C per workload, 95 % intervals](evaluation/bench/results/workloads.svg)")
say("")

# -------------------------------------------------------------------- plots
GP = """set terminal svg size 900,480 dynamic font 'sans,11'
set termoption noenhanced
set grid ytics
set key top left
"""
plots = {
    "pick_tree": GP + """set output 'pick_tree.svg'
set title 'pick_eevdf(): instructions per call against queued entities (microbenchmark, net)'
set logscale x 2
set xlabel 'entities queued on the cfs_rq'
set ylabel 'instructions per call'
plot 'pick_tree.dat' index 0 using 1:2 with linespoints title 'C, leftmost eligible (fast path)', \\
     '' index 0 using 1:3 with linespoints title 'Rust, leftmost eligible (fast path)', \\
     '' index 1 using 1:2 with linespoints title 'C, heap search', \\
     '' index 1 using 1:3 with linespoints title 'Rust, heap search'
""",
    "percall_box": GP.replace("900,480", "1200,560") + """set output 'percall_box.svg'
set title "Instructions per call inside workloads (red C, blue Rust): box p25-p75, whiskers p10-p90, black median"
set logscale y
set ylabel 'instructions per call'
set xtics rotate by -60 font ',8' nomirror
set boxwidth 0.6
set offsets 0.5, 0.5, 0, 0
set style fill solid 0.3
set key off
plot 'percall_box.dat' using 1:4:3:7:6:($8 > 0 ? 0x1f77b4 : 0xd62728):xticlabels(2) with candlesticks lc rgb variable whiskerbars, \\
     '' using 1:5:5:5:5 with candlesticks lc rgb 'black'
""",
    "percall_cache": GP + """set output 'percall_cache.svg'
set title 'Per call, all workloads: distinct data cache lines and simulated L1D misses (mean)'
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.6
set logscale y
set yrange [0.01:*]
set ylabel 'per call (log scale)'
set xtics rotate by -30
plot 'percall_cache.dat' using 2:xticlabels(1) title 'C data lines', '' using 3 title 'Rust data lines', \\
     '' using 4 title 'C L1D misses', '' using 5 title 'Rust L1D misses'
""",
    "workloads": GP + """set output 'workloads.svg'
set title 'Rust relative to C (above 1: Rust better), ratio of medians with 95 % bootstrap interval'
set xtics rotate by -45 font ',9'
set ylabel 'Rust / C performance'
set offsets 0.5, 0.5, 0, 0
set key off
plot 'workloads.dat' using 1:3:4:5:xticlabels(2) with yerrorbars pt 7, 1 with lines lc rgb 'gray'
""",
}
for name, script in plots.items():
    if (name == "pick_tree" and not have_icount) or (name.startswith("percall") and not have_percall):
        continue
    try:
        subprocess.run(["gnuplot"], input=script, text=True, cwd=RES, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except (OSError, subprocess.CalledProcessError) as err:
        print(f"bench-report: gnuplot failed on {name}: {err}", file=sys.stderr)
        sys.exit(1)
    with open(os.path.join(RES, f"{name}.gp"), "w") as f:
        f.write(script)

# results.md: prose wrapped at 100 columns as the README is; tables and images as printed.
md, code = [], False
for line in out:
    if line.startswith("```"):
        code = not code
    if code or line.startswith(("```", "!", "#")) or len(line) <= 100:
        md.append(line)
    else:
        md.extend(textwrap.wrap(line, 100, break_on_hyphens=False))
with open(os.path.join(RES, "results.md"), "w") as f:
    f.write("\n".join(md) + "\n")

# summary.md: README.md's results block (BENCH_SAVE=1), from the
# figures above: ranges over the cases or workloads.
def n_of(n, what):
    return f"{n} {what}" + ("" if n == 1 else "s")


def rng(a, b):
    return f"{a:.3f}" if f"{a:.3f}" == f"{b:.3f}" else f"{a:.3f}-{b:.3f}"


def ins_rng(a, b):
    return f"{a:g}" if a == b else f"{a:g} to {b:g}"


sm = []
micro = []
dispatch_line = pairs_line = None
for item in summary:
    if item[0] == "pick_icount":
        sm.append(f"- In-kernel microbenchmarks, Rust/C (C with the series' C patches: the same "
                  f"algorithm): pick and eligibility {rng(item[2], item[3])} ({n_of(item[1], 'state')}), ")
    elif item[0] in ("llc_enq_deq", "llc_occupancy", "llc_decay"):
        micro.append(f"{item[0]} {item[1]:.3f}")
    elif item[0] == "stock_icount":
        sm.append(f"- The same states against 7.3's stock C: C/stock {rng(item[2], item[3])} (the C "
                  f"patches, for every kernel), Rust/stock {rng(item[4], item[5])}.")
    elif item[0] == "dispatch":
        dispatch_line = (f"- The per-call tables inside workloads run behind the debug option's C/Rust "
                         f"dispatch, which adds {ins_rng(item[1], item[2])} instructions to a C pick and "
                         f"{ins_rng(item[3], item[4])} to a Rust one (the microbenchmarks' dispatch_ "
                         f"cases): they describe each side; Rust/C per call at the production call "
                         f"sites is make bench-prod's.")
    elif item[0] == "pairs":
        rows = [f"{p} {rm:.3f} ({r50:.3f}"
                + (f"; per group, Rust - C: median {item[2][p][0]} instructions" if p in item[2] else "")
                + ")" for p, n, r50, rm in item[1] if p != "pick_stock"]
        st = [f"C/stock {a:.3f}, Rust/stock {b:.3f}" for p, n, a, b in item[1] if p == "pick_stock"]
        pairs_line = ("- Per call on the same live states (the shadow check's out-of-line sides, "
                      f"{min(n for _, n, _, _ in item[1])} calls or more each), Rust/C of the mean, the "
                      "total over the same calls (of the median): "
                      + ", ".join(rows) + (f"; the pick against stock C: {st[0]} (means)" if st else "") + ".")
if sm and sm[0].startswith("- In-kernel"):
    sm[0] += ", ".join(micro) + "."
if pairs_line:
    sm.insert(min(2, len(sm)), pairs_line)
if dispatch_line:
    sm.insert(min(3, len(sm)), dispatch_line)
with open(os.path.join(RES, "figures.tsv"), "w") as f:
    for k, v in FIG.items():
        f.write(f"{k}\t{v}\n")
with open(os.path.join(RES, "summary.md"), "w") as f:
    for item in sm:
        f.write("\n".join(textwrap.wrap(item, 100, subsequent_indent="  ", break_on_hyphens=False)) + "\n")
