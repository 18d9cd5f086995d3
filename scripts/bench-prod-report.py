#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-prod's report (scripts/bench-prod.sh): the production kernels
(7.3.4 stock, CONFIG_SCHED_RUST_CFS=n with the series' C patches, =y without
the debug option) head to head, from the boots' consoles and the per-call
plugin's records.

  bench-prod-report.py <results dir>               from the boots' records
  bench-prod-report.py --calls <results dir>       from calls.tsv.gz alone

Every call's instruction count is kept in <results dir>/calls.tsv.gz, as a
histogram per boot and piece ("boot kernel set piece instructions calls"),
and the console lines it reads in consoles.tsv.gz: the report reads them, so that the committed file gives every
median, mean, path and interval again. figures.tsv gets every figure by key
(scripts/check-claims.py).

The noise: stock and =n differ only by the series' C patches, which change
the pick, the LLC accounting and the epoch decay, and what inlines their
helpers (scripts/check-off.sh checks =n
against stock + the patches instruction for instruction), so for a piece
whose common paths are the same lengths on stock and =n, =n/stock compares
the same code: its gap, beside each =y/=n gap of that piece, is what the
boots' timing alone moves; a =y/=n gap no larger than it is reported as
within noise. For the pieces the C patches change there is no such
control on the piece itself: beside their =y/=n gap stands the control
piece's, update_rq_clock() (kernel/sched/core.c, changed by no patch),
measured in the same boots: what the layout and the timing move on
identical code, a yardstick, not a test of the piece.

Per piece: the function measured (the same in every kernel: the innermost
one that the piece is inlined into and that each kernel has as a symbol),
its calls per kernel over all boots, the median, mean and the instruction
counts that 5 % of the calls or more take (the paths: routes of the pick,
paths of the LLC accounting, pooled), the calls over LONG instructions
apart (the long calls, carried by what the function calls beyond the
piece), and the ratios of the means: over all calls pooled, and per set of
boots (one boot of each kernel), paired by set, with a 95 % t interval of
their geometric mean and an equivalence verdict (TOST, margin
stats.MARGIN["call"]). Instruction counts are discrete (a few paths, each
its count): the calls get the path mix, never an interval of their own;
the boot's mean is the continuous figure the sets compare. The workloads'
own figures with their t intervals and an equivalence verdict (Welch
TOST, margin stats.MARGIN["workload"]). Every interval and test is
scripts/stats.py's. The selftests per kernel; a case that fails on every =y boot and
passes on every =n boot fails the report (exit 1), as does a boot that
failed or a piece with no recorded call. Every kernel must have the calls
of one boot per set (the ratios over the sets pair the boots by set), and
of its routes where the run configured them (routes-<kernel>.txt); a
kernel the run configured (routes-<kernel>.txt, percall-<kernel>.conf)
must have boots: else the report fails.

The routes (evaluation/bench/routes.txt): each call of the pick, the
wake-up pick, the enqueue and the dequeue by the decisions it took, read
from the source lines it ran (routes.tsv.gz, routes.md, routes.svg). The
pick's: single, buddy, protect, fast, heap:1-2, heap:3-4, heap:5+ (the
nodes its heap search visited), '+'-joined for a call that picked again,
and "@update" after the whole label where pick_task_fair() updated a
curr still queued before it picked (fast@update: the same decisions
with a nested update_curr()); the LLC accounting's: none (it did not
run), return (no preferred LLC), update, update@nodomain (the counters
but not the domain's). A set of lines no route runs is an
'invalid (...)' route: the report fails.

A shape variant among the boots, off+<shape> (gcc-off+<shape>): the =n
kernel (GCC's) with evaluation/bench/shapes/<shape>.patch applied to its
fair.c, a C form of the Rust's code. It is reported as every kernel is
(calls, medians, means, paths, routes, workloads, selftests) and against
its =n with the statistics =y gets against =n: the pair's ratios pooled
and over the sets of boots, per piece and per route, beside the control's
ratio for the same pair (table-variants.md); its figures' keys name it as
any kernel's ("route.pick.single.off+one-entity-select.median", the pair
"route.pick.single.off+one-entity-select_off.sets"); a variant without
its =n among the boots fails the report.
"""
import gzip
import os
import re
import subprocess
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import percall_data  # noqa: E402
import stats  # noqa: E402

# The kernels a run may have, in this order; a run's are those its boots name
# (runs before the out-of-line kernel have the first three).
ALL_KERNELS = ("stock", "off", "prod", "outline", "gcc-off", "gcc-prod")
KERNELS = ALL_KERNELS[:3]
LABEL = {"stock": "7.3.4 stock", "off": "=n (C + series' C patches)", "prod": "=y (Rust, production)",
         "outline": "=y out of line (CONFIG_SCHED_RUST_CFS_INLINE off)",
         "gcc-off": "=n built by GCC", "gcc-prod": "=y built by GCC (Rust out of line)"}
# The pairs compared (a, b: b/a), and those the control stands beside.
PAIRS = [("off", "prod"), ("stock", "off"), ("stock", "prod")]
CONTROL_PAIRS = [("off", "prod"), ("stock", "off")]
# The out-of-line kernel against =n and against the inlined =y.
OUTLINE_PAIRS = [("off", "outline"), ("prod", "outline")]
# GCC's =y against GCC's =n: the same compiler on both sides.
GCC_PAIRS = [("gcc-off", "gcc-prod")]
# The =n each =y kernel's selftests are compared with (and each shape
# variant's: main() adds them).
REFERENCE = {"prod": "off", "outline": "off", "gcc-prod": "gcc-off"}
# A shape variant: off+<shape> or gcc-off+<shape> (scripts/build.sh), against
# its base; main() adds the pairs of the run's variants.
VARIANT = re.compile(r"^(off|gcc-off)\+([a-z0-9][a-z0-9-]*)$")
VARIANT_PAIRS = []
SHORT = {"off": "=n", "gcc-off": "GCC =n"}
MARGIN_CALL = stats.MARGIN["call"]
MARGIN_WORKLOAD = stats.MARGIN["workload"]
# A call of more instructions than this is a long one (reported apart).
LONG = 1000
# The pieces whose code the series' C patches change (stock against =n is
# not a same-code control for them): the pick (patches 3 and 4), the LLC
# accounting and the epoch decay (patch 1's shift count, patch 2's marked
# accesses of the counters, cpu_epoch and nr_running_avg).
C_PATCHED = ("pick", "pick_wakeup", "enqueue", "dequeue", "update_curr", "cache_work")
# The control piece (scripts/bench-lib.sh's prod_percall_conf()):
# update_rq_clock(), code the series changes on no kernel. Its ratios
# between the kernels are the yardstick beside the C-patched pieces' gaps.
CONTROL = "control"
FIG = {}
ROW = {}    # piece -> the README's table row (table.md)
OROW = {}   # piece -> the out-of-line kernel's row (table-outline.md)
GROW = {}   # piece -> the GCC pair's row (table-gcc.md)
VROW = {}   # piece -> the shape variants' ratios (table-variants.md)
# The variants' colours in the plots.
VCOLOURS = ("#9467bd", "#8c564b", "#e377c2", "#17becf")


def base_of(kernel):
    """The kernel a shape variant is measured beside (off or gcc-off), or
    None for a kernel that is not one."""
    m = VARIANT.match(kernel)
    return m.group(1) if m else None


def fig(key, value):
    FIG[key] = value


def write_calls(rdir, order, _unused):
    """calls.tsv.gz: per boot and piece, each instruction count and how many
    calls took it."""
    with gzip.open(os.path.join(rdir, "calls.tsv.gz"), "wt") as f:
        f.write("# boot\tkernel\tset\tpiece\tinstructions\tcalls\n")
        for (name, kernel, idx), per in order:
            for piece, v in per.items():
                for x, k in sorted(Counter(v).items()):
                    f.write(f"{name}\t{kernel}\t{idx}\t{piece}\t{x}\t{k}\n")


# The pick's route word (evaluation/bench/routes.txt, scripts/routes.py):
# the bits its lines set, and the heap's steps counted in bits 24-31.
# curr_update: pick_task_fair() updated a curr still queued before it
# picked (the pick only: the wake-up pick has no such line).
PICK_BITS = {"single": 0, "buddy": 1, "past_buddy": 2, "tested": 3, "heap": 4, "curr_update": 5}
ROUTED = ("pick", "pick_wakeup", "enqueue", "dequeue")


def pick_route(word, piece="pick"):
    """The decisions a call of a piece that picks (piece: pick or
    pick_wakeup) took, by the lines it ran: 'none' (no pick ran), else a
    '+'-joined set of single, buddy, protect (curr tested, the leftmost
    not), fast (the leftmost tested, no heap search) and heap (by the
    nodes it visited, its reads of ->rb_left: heap:1-2, heap:3-4,
    heap:5+); several when the call picked again (pick_next_entity()
    dequeues a delayed entity it picked and returns NULL:
    pick_task_fair() and wakeup_preempt_fair() then pick anew; the
    hierarchy is flat, one pick is one pick_eevdf() on rq->cfs). A pick
    whose pick_task_fair() updated a curr still queued before it picked
    (a nested update_curr(); on a call that picked again, before one of
    its picks or several) has "@update" after the whole label:
    fast@update, single+fast@update. 'invalid (...)' for a set of
    lines no route runs (the table does not fit the code): among them the
    update without a pick (pick_task_fair() returns before it when
    nothing is queued, and picks after it) and the update on the wake-up
    pick (which has no such line)."""
    b = {k: bool(word >> v & 1) for k, v in PICK_BITS.items()}
    steps = word >> 24
    problem = None
    if b["heap"] and not b["tested"]:
        problem = "heap search without the leftmost tested"
    elif b["tested"] and not b["past_buddy"]:
        problem = "the leftmost tested without curr tested"
    elif b["heap"] != bool(steps):
        problem = "heap search without a node visited" if b["heap"] else "nodes visited without a heap search"
    elif b["curr_update"] and piece != "pick":
        problem = f"curr updated by pick_task_fair()'s line in a call of {piece}"
    elif b["curr_update"] and not any(b[k] for k in ("single", "buddy", "past_buddy")):
        problem = "curr updated without a pick"
    labels = []
    if b["single"]:
        labels.append("single")
    if b["buddy"]:
        labels.append("buddy")
    if b["past_buddy"] and not b["tested"]:
        labels.append("protect")
    if b["tested"] and not b["heap"]:
        labels.append("fast")
    if b["heap"]:
        labels.append("heap:1-2" if steps <= 2 else "heap:3-4" if steps <= 4 else "heap:5+")
    if problem:
        return f"invalid ({problem})"
    if not labels:
        return "none"
    return "+".join(labels) + ("@update" if b["curr_update"] else "")


# The LLC accounting's route word: the counters updated (the task has a
# preferred LLC), the accounting entered (its first line, the task's
# preferred LLC read) and the domain's count of that LLC reached.
LLC_BITS = {"update": 0, "entered": 1, "domain": 2}


def llc_route(word):
    """The decisions a call of the enqueue or the dequeue took in the LLC
    accounting (account_llc_enqueue(), account_llc_dequeue()), by the
    lines it ran: 'none' (the accounting did not run: no task entity
    queued or dequeued, as for a delayed entity's dequeue or its
    requeue), 'return' (its early return: the task has no preferred
    LLC), 'update' (the runqueue's counters updated and the domain's count
    of the preferred LLC reached: one added, or one taken unless it is 0)
    or 'update@nodomain' (the counters, not the domain's: no domain, or
    the LLC beyond its counts). 'invalid (...)' for a set of lines no
    route runs: an update without the accounting entered, the domain's
    count without the update."""
    b = {k: bool(word >> v & 1) for k, v in LLC_BITS.items()}
    if b["update"] and not b["entered"]:
        return "invalid (the counters updated without the accounting entered)"
    if b["domain"] and not b["update"]:
        return "invalid (the domain's count reached without the counters)"
    if not b["entered"]:
        return "none"
    if not b["update"]:
        return "return"
    return "update" if b["domain"] else "update@nodomain"


def route_of(piece, word):
    """The route label of a call of a routed piece: the pick's decisions
    (pick_route(), with "@update" where pick_task_fair() updated curr
    first); the LLC accounting's (llc_route())."""
    if piece in ("pick", "pick_wakeup"):
        return pick_route(word, piece)
    return llc_route(word)


def write_routes(rdir, rows):
    """routes.tsv.gz: per boot, routed piece and workload, each route with
    each instruction count and how many calls took both."""
    with gzip.open(os.path.join(rdir, "routes.tsv.gz"), "wt") as f:
        f.write("# boot\tkernel\tset\tpiece\tworkload\troute\tinstructions\tcalls\n")
        for (name, kernel, idx), per in rows:
            for piece, v in per.items():
                for (route, x, wl), k in sorted(Counter(v).items(), key=lambda t: (t[0][2], t[0][0], t[0][1])):
                    f.write(f"{name}\t{kernel}\t{idx}\t{piece}\t{wl}\t{route}\t{x}\t{k}\n")


def read_routes(rdir):
    """{(name, kernel, set): {piece: [(route, instructions, workload)]}} of
    routes.tsv.gz, or {} for a run without routes."""
    out = {}
    path = os.path.join(rdir, "routes.tsv.gz")
    if not os.path.exists(path):
        return out
    with gzip.open(path, "rt") as f:
        for line in f:
            if line.startswith("#"):
                continue
            name, kernel, idx, piece, wl, route, x, k = line.rstrip("\n").split("\t")
            out.setdefault((name, kernel, int(idx)), {}).setdefault(piece, []).extend(
                [(route, int(x), wl)] * int(k))
    return out


# The workloads' figures, and the kernel selftests' results as the
# kselftests cgroup_test_cpu.sh and kernel_suites.sh print them ("figure:"
# diagnostics in the runner's KTAP).
CONSOLE_LINES = re.compile(r"^sched_rust: (?:wbench |ksft_ktap # # figure: (?:test_cpu |stress: selftest )).*$", re.M)
CONSOLES = {}


def console(rdir, name):
    """The lines of a boot's console that the report reads: from the boot's
    console.log, else from consoles.tsv.gz (which the report writes)."""
    if name not in CONSOLES:
        text = read(os.path.join(rdir, name, "console.log"))
        CONSOLES[name] = "\n".join(CONSOLE_LINES.findall(text))
    return CONSOLES[name]


def write_consoles(rdir, names):
    with gzip.open(os.path.join(rdir, "consoles.tsv.gz"), "wt") as f:
        for name in names:
            for line in console(rdir, name).splitlines():
                f.write(f"{name}\t{line}\n")


def read_consoles(rdir):
    with gzip.open(os.path.join(rdir, "consoles.tsv.gz"), "rt") as f:
        for line in f:
            name, _, text = line.rstrip("\n").partition("\t")
            CONSOLES[name] = (CONSOLES.get(name, "") + "\n" + text).lstrip("\n")


def read_calls(rdir):
    """The calls of calls.tsv.gz: {(name, kernel, set): {piece: [counts]}}."""
    out = {}
    with gzip.open(os.path.join(rdir, "calls.tsv.gz"), "rt") as f:
        for line in f:
            if line.startswith("#"):
                continue
            name, kernel, idx, piece, x, k = line.split("\t")
            out.setdefault((name, kernel, int(idx)), {}).setdefault(piece, []).extend([int(x)] * int(k))
    return out


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def boots(rdir):
    out = []
    for line in read(os.path.join(rdir, "boots.txt")).splitlines():
        name, kernel, idx, rc = line.split()
        out.append((name, kernel, int(idx), int(rc)))
    return out


def conf_pieces(rdir):
    """piece -> function measured (pieces.txt, written by prod_percall_conf)."""
    return dict(line.split() for line in read(os.path.join(rdir, "pieces.txt")).splitlines())


def per_set(pa, pb):
    """The ratio mean(b) / mean(a) of each set of boots (pa, pb: the calls
    of each boot, in set order), their geometric mean with its paired t
    interval and the TOST verdict; None under two sets."""
    ma = [percall_data.mean(x) for x, y in zip(pa, pb) if x and y]
    mb = [percall_data.mean(y) for x, y in zip(pa, pb) if x and y]
    if len(ma) < 2:
        return None
    return (stats.paired_ratio(mb, ma), stats.tost_ratio(mb, ma, MARGIN_CALL),
            min(y / x for x, y in zip(ma, mb)), max(y / x for x, y in zip(ma, mb)))


def paired_paths(va, vb, tolerance=5.0):
    """The paths (counts of 5 % of the calls or more) of two kernels paired
    by rank of share, when both have as many, each pair's shares are within
    `tolerance` percentage points and no two paths of one kernel are within
    2 points of each other: the same route, taken about as often, whose
    counts then compare route by route whatever the mix does to the median
    (a pairing by share, not an identification of the route). None when the
    shares do not pair up so."""
    def ranked(v):
        return sorted(((x, 100 * f) for x, _, f in stats.path_mix(v)), key=lambda t: -t[1])
    ra, rb = ranked(va), ranked(vb)
    if not ra or len(ra) != len(rb) or any(abs(sa - sb) > tolerance for (_, sa), (_, sb) in zip(ra, rb)):
        return None
    # Two routes taken about as often on one kernel could pair either way.
    for r in (ra, rb):
        if any(r[i][1] - r[i + 1][1] < 2 for i in range(len(r) - 1)):
            return None
    return [(xa, xb, sa, sb) for (xa, sa), (xb, sb) in zip(ra, rb)]


def gnuplot(rdir, name, script):
    """Runs a plot's script in rdir and keeps it as <name>.gp; says so when
    gnuplot is missing or fails (the plot is not a figure)."""
    try:
        subprocess.run(["gnuplot"], input=script, text=True, cwd=rdir, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        with open(os.path.join(rdir, f"{name}.gp"), "w") as f:
            f.write(script)
    except (OSError, subprocess.CalledProcessError) as err:
        print(f"(no {name}.svg: gnuplot: {err})")


def plot(rdir, rows):
    """ratios.svg: per piece, =y/=n and =n/stock of the means with their
    intervals (gnuplot; nothing when it is missing)."""
    pairs = (("prod/off", "off/stock") + (("outline/off",) if "outline" in KERNELS else ())
             + (("gcc-prod/gcc-off",) if "gcc-prod" in KERNELS else ())
             + tuple(f"{b}/{a}" for a, b in VARIANT_PAIRS))
    pieces = [p for p in dict.fromkeys(r[0] for r in rows)]
    with open(os.path.join(rdir, "ratios.dat"), "w") as f:
        for i, piece in enumerate(pieces):
            for j, pair in enumerate(pairs):
                for r in rows:
                    if r[0] == piece and r[1] == pair:
                        x = i + 0.8 * (j - (len(pairs) - 1) / 2) / len(pairs)
                        f.write(f"{x:.2f} {piece} {r[2]:.4f} {r[3]:.4f} {r[4]:.4f} {j}\n")
    extra = {"outline/off": ("9", "#d62728", "=y out of line / =n"),
             "gcc-prod/gcc-off": ("11", "#2ca02c", "GCC: =y / =n")}
    for i, (a, b) in enumerate(VARIANT_PAIRS):
        extra[f"{b}/{a}"] = ("13", VCOLOURS[i % len(VCOLOURS)], f"{b} / {SHORT[a]}")
    outline = "".join(f"     '' using ($6 == {j} ? $1 : 1/0):3:4:5 with yerrorbars pt {extra[p][0]}"
                      f" lc rgb '{extra[p][1]}' title '{extra[p][2]}', \\\n"
                      for j, p in enumerate(pairs) if p in extra)
    script = f"""set terminal svg size 900,420 font 'sans,11'
set termoption noenhanced
set output 'ratios.svg'
set title 'Production kernels: instructions per call, ratio of the means per set of boots (95 % t interval)'
set ylabel 'ratio (below 1: fewer instructions)'
set xtics ({", ".join(f'"{p}" {i}' for i, p in enumerate(pieces))}) rotate by -30
set xrange [-0.6:{len(pieces) - 0.4}]
set key top left
plot 'ratios.dat' using ($6 == 0 ? $1 : 1/0):3:4:5 with yerrorbars pt 7 lc rgb '#1f77b4' title '=y (Rust) / =n (C)', \\
     '' using ($6 == 1 ? $1 : 1/0):3:4:5 with yerrorbars pt 5 lc rgb '#7f7f7f' title '=n / 7.3.4 stock', \\
{outline}     1 with lines lc rgb 'black' notitle
"""
    gnuplot(rdir, "ratios", script)


def plot_routes(rdir, rows):
    """routes.svg: per route of the pick and the wake-up pick taken by 1 %
    of the calls or more, each kernel's median instructions with its
    quartiles (gnuplot; nothing when it is missing). rows: (label, kernel,
    q1, median, q3); a route with and without the update of curr ("fast",
    "fast@update") are two."""
    labels = list(dict.fromkeys(r[0] for r in rows))
    if not labels:
        return
    colour = {"stock": "#7f7f7f", "off": "#ff7f0e", "prod": "#1f77b4", "outline": "#d62728",
              "gcc-off": "#bcbd22", "gcc-prod": "#2ca02c"}
    for i, (_, b) in enumerate(VARIANT_PAIRS):
        colour[b] = VCOLOURS[i % len(VCOLOURS)]
    with open(os.path.join(rdir, "routes.dat"), "w") as f:
        for i, label in enumerate(labels):
            for j, kernel in enumerate(KERNELS):
                for r in rows:
                    if r[0] == label and r[1] == kernel:
                        x = i + 0.8 * (j - (len(KERNELS) - 1) / 2) / len(KERNELS)
                        f.write(f"{x:.3f} {label} {r[3]} {r[2]} {r[4]} {j}\n")
    series = ", \\\n".join(
        f"'routes.dat' using ($6 == {j} ? $1 : 1/0):3:4:5 with yerrorbars pt 7 ps 0.6 "
        f"lc rgb '{colour.get(k, 'black')}' title \"{LABEL.get(k, k)}\"" for j, k in enumerate(KERNELS))
    script = f"""set terminal svg size 1000,560 font 'sans,11'
set termoption noenhanced
set output 'routes.svg'
set title 'Production kernels by route: median instructions per call, with the quartiles'
set ylabel 'instructions per call'
set xtics ({", ".join(f'"{lab}" {i}' for i, lab in enumerate(labels))}) rotate by -30
set xrange [-0.6:{len(labels) - 0.4}]
set yrange [0:*]
set key below
plot {series}
"""
    gnuplot(rdir, "routes", script)


def main():
    global KERNELS
    from_calls = sys.argv[1] == "--calls"
    rdir = sys.argv[-1]
    problems = []
    bl = boots(rdir)
    if not bl:
        print("no boots (boots.txt)")
        return 1
    unknown = sorted(k for k in {b[1] for b in bl} if k not in ALL_KERNELS and not base_of(k))
    if unknown:
        print(f"boots of unknown kernels in boots.txt: {' '.join(unknown)}")
        return 1
    present = {b[1] for b in bl}
    KERNELS = tuple(k for k in ALL_KERNELS if k in KERNELS or k in present)
    # The shape variants, after the other kernels, each beside its base.
    variants = sorted((k for k in present if base_of(k)), key=lambda k: (ALL_KERNELS.index(base_of(k)), k))
    KERNELS += tuple(variants)
    if "outline" in KERNELS:
        PAIRS.extend(OUTLINE_PAIRS)
        CONTROL_PAIRS.extend(OUTLINE_PAIRS)
    if "gcc-prod" in KERNELS and "gcc-off" in KERNELS:
        PAIRS.extend(GCC_PAIRS)
        CONTROL_PAIRS.extend(GCC_PAIRS)
    for v in variants:
        if base_of(v) not in present:
            problems.append(f"{v}: no boot of {base_of(v)}, the kernel it is measured beside")
            continue
        VARIANT_PAIRS.append((base_of(v), v))
        REFERENCE[v] = base_of(v)
        LABEL[v] = f"{LABEL[base_of(v)]} with evaluation/bench/shapes/{VARIANT.match(v).group(2)}.patch"
    PAIRS.extend(VARIANT_PAIRS)
    CONTROL_PAIRS.extend(VARIANT_PAIRS)
    # A kernel the run configured (its plugin configuration, its routes)
    # but did not boot is a kernel the report would leave out unseen.
    configured = {f[len("routes-"):-len(".txt")] for f in os.listdir(rdir)
                  if f.startswith("routes-") and f.endswith(".txt")}
    configured |= {f[len("percall-"):-len(".conf")] for f in os.listdir(rdir)
                   if f.startswith("percall-") and f.endswith(".conf")}
    for k in sorted(configured - present):
        problems.append(f"{k}: configured by the run (routes-{k}.txt or percall-{k}.conf), but no boot of it"
                        " in boots.txt")
    pieces = conf_pieces(rdir)
    if not pieces:
        print(f"no pieces measured ({rdir}/pieces.txt missing or empty)")
        return 1
    for kernel in KERNELS:
        fig(f"boots.{kernel}", sum(1 for b in bl if b[1] == kernel))
    print("Boots (kernel, set, boot.sh's status: 0 every check passed, no splat):")
    for name, kernel, idx, rc in bl:
        print(f"  {name:24s} {kernel:6s} set {idx}  exit {rc}")
        if rc != 0:
            problems.append(f"boot {name} failed (exit {rc}): its console is in {rdir}/{name}")
    print()

    # Per-call records per piece, kernel and boot.
    calls = {}    # (piece, kernel) -> [list per boot]
    left = {}     # (piece, kernel) -> calls left out
    broken = set()     # the boots whose records could not be read (said above)
    routed = {}        # (name, kernel, set) -> {piece: [(route, instructions, workload)]}
    if from_calls:
        kept = read_calls(rdir)
        routed = read_routes(rdir)
        if not routed and any(f.startswith("routes-") for f in os.listdir(rdir)):
            problems.append("the run configured routes (routes-<kernel>.txt) but routes.tsv.gz has none")
        read_consoles(rdir)
        for line in read(os.path.join(rdir, "left-out.tsv")).splitlines():
            piece, kernel, n = line.split("\t")
            left[(piece, kernel)] = int(n)
    else:
        kept = {}
        for name, kernel, idx, rc in bl:
            d = os.path.join(rdir, name)
            words = {}
            runs, records, excluded, why = percall_data.load(
                os.path.join(d, "raw"), read(os.path.join(d, "console.log")),
                read(os.path.join(d, "percall.log")), list(pieces), routes=words)
            if why:
                problems.append(f"{name}: {why}")
                broken.add(name)
                continue
            kept[(name, kernel, idx)] = {
                piece: [r[0] for (p, wl, side), recs in records.items() if p == piece for r in recs]
                for piece in pieces}
            per = {}
            configured = os.path.exists(os.path.join(rdir, f"routes-{kernel}.txt"))
            for piece in ROUTED:
                pairs = [(w, r[0], key[1]) for key, recs in records.items() if key[0] == piece
                         for r, w in zip(recs, words.get(key, [None] * len(recs)))]
                if pairs and all(w is not None for w, _, _ in pairs):
                    per[piece] = [(route_of(piece, w), x, wl) for w, x, wl in pairs]
                elif configured and piece in pieces:
                    # The run configured routes: a call without its word is lost data.
                    problems.append(f"{name}: {piece}: {sum(w is None for w, _, _ in pairs)} of {len(pairs)} "
                                    "calls without a route word, though the run configured routes")
            if per:
                routed[(name, kernel, idx)] = per
            for piece in pieces:
                left[(piece, kernel)] = left.get((piece, kernel), 0) + sum(
                    n for (p, wl, side), n in excluded.items() if p == piece)
        write_calls(rdir, sorted(kept.items(), key=lambda t: (t[0][2], t[0][0])), None)
        if routed:
            write_routes(rdir, sorted(routed.items(), key=lambda t: (t[0][2], t[0][0])))
        write_consoles(rdir, [b[0] for b in bl])
        with open(os.path.join(rdir, "left-out.tsv"), "w") as f:
            for (piece, kernel), n in sorted(left.items()):
                f.write(f"{piece}\t{kernel}\t{n}\n")
    for name, kernel, idx, rc in bl:
        if (name, kernel, idx) in kept:
            for piece in pieces:
                calls.setdefault((piece, kernel), []).append(kept[(name, kernel, idx)].get(piece, []))
    # One boot per set and kernel, each with its calls (and its routes,
    # where the run configured them): the ratios over the sets pair the
    # kernels' boots by set, and a boot missing would pair the wrong ones.
    sets = sorted({idx for _, _, idx, _ in bl})
    for kernel in KERNELS:
        mine = [idx for _, k, idx, _ in bl if k == kernel]
        if not mine:
            continue
        if sorted(mine) != sets:
            problems.append(f"{kernel}: boots of sets {' '.join(map(str, sorted(mine)))} in boots.txt, where the run"
                            f" has sets {' '.join(map(str, sets))}: one boot per set wanted")
        has_routes = os.path.exists(os.path.join(rdir, f"routes-{kernel}.txt"))
        for name, k, idx, _ in bl:
            if k != kernel or name in broken:
                continue
            if (name, k, idx) not in kept:
                problems.append(f"{name}: no call recorded ({'calls.tsv.gz' if from_calls else 'its records'}):"
                                " its set has no ratio")
            elif has_routes and (name, k, idx) not in routed:
                problems.append(f"{name}: no route recorded, though the run configured routes for {kernel}")

    print("Instructions per call at the production call sites (per-call plugin, no cache model),")
    print("all boots pooled; paths: the counts that 5 % of the calls or more take, with their share.")
    print("Ratios: of the means, all calls pooled; per set of boots (one boot of each kernel per set),")
    print("their range and geometric mean with its 95 % t interval over the sets, and the equivalence")
    print(f"test (TOST at +-{MARGIN_CALL:.0%}, 90 % interval; scripts/stats.py). Instruction counts are")
    print("discrete: the paths and their shares are the calls' figure, the sets' means the interval's.")
    print()
    plot_rows = []   # piece, pair, ratio, lo, hi
    # The control's intervals over the sets, per pair of kernels.
    control = {}
    if CONTROL in pieces:
        for a, b in CONTROL_PAIRS:
            c = per_set(calls.get((CONTROL, a), []), calls.get((CONTROL, b), []))
            if c:
                control[(a, b)] = c[0]
    else:
        problems.append(f"no control piece ({CONTROL}) in pieces.txt")
    hdr = f"{'piece (function)':34s} {'kernel':6s} {'calls':>8s} {'left out':>8s} {'median':>8s} {'mean':>9s}  paths"
    for piece, fn in pieces.items():
        print(hdr)
        print("-" * len(hdr))
        for kernel in KERNELS:
            per_boot = calls.get((piece, kernel), [])
            v = sorted(x for b in per_boot for x in b)
            if not v:
                problems.append(f"{piece}: no recorded call on {kernel}")
                print(f"{piece + ' (' + str(fn) + ')':34s} {kernel:6s} {'none':>8s}")
                continue
            ps = stats.format_mix(stats.path_mix(v))
            fig(f"{piece}.{kernel}.calls", len(v))
            fig(f"{piece}.{kernel}.median", percall_data.pct(v, 50))
            fig(f"{piece}.{kernel}.mean", f"{percall_data.mean(v):.1f}")
            fig(f"{piece}.{kernel}.paths", ps)
            fig(f"{piece}.{kernel}.path_counts", "/".join(str(x) for x, _, _ in stats.path_mix(v)))
            ROW.setdefault(piece, {"fn": fn})[kernel] = (ps, percall_data.pct(v, 50))
            for x, _, f in stats.path_mix(v):
                fig(f"{piece}.{kernel}.path.{x}", f"{100 * f:.0f}%")
            print(f"{piece + ' (' + str(fn) + ')':34s} {kernel:6s} {len(v):8d} {left.get((piece, kernel), 0):8d} "
                  f"{percall_data.pct(v, 50):8d} {percall_data.mean(v):9.1f}  {ps}")
            # The long calls (what the function calls beyond the piece:
            # the newly idle balance of a pick that finds nothing, a full
            # scan), apart: how many there are and what they carry.
            short = [x for x in v if x <= LONG]
            long_share = 100 * (len(v) - len(short)) / len(v)
            long_sum = 100 * (sum(v) - sum(short)) / sum(v)
            if short and long_share:
                print(f"{'':34s} {'':6s} calls over {LONG} instructions: {long_share:.2f} % of them, "
                      f"{long_sum:.1f} % of the instructions; mean of the others {percall_data.mean(short):.1f}")
        for a, b in PAIRS:
            pa, pb = calls.get((piece, a), []), calls.get((piece, b), [])
            if not any(pa) or not any(pb):
                continue
            va = sorted(x for y in pa for x in y)
            vb = sorted(x for y in pb for x in y)
            r = percall_data.mean(vb) / percall_data.mean(va)
            ps = per_set(pa, pb)
            if ps:
                g, v, smin, smax = ps
                sets = (f"per set {smin:.3f}-{smax:.3f}, over the {g.n} sets {g.est:.3f} "
                        f"[{g.lo:.3f}, {g.hi:.3f}]: {v}")
                plot_rows.append((piece, f"{b}/{a}", g.est, g.lo, g.hi))
            else:
                sets = "one set: no interval"
            short = [[x for x in y if x <= LONG] for y in pa], [[x for x in y if x <= LONG] for y in pb]
            sa, sb = [x for y in short[0] for x in y], [x for y in short[1] for x in y]
            rs = ""
            if sa and sb and (len(sa) < len(va) or len(sb) < len(vb)):
                ps2 = per_set(*short)
                rs = (f"; calls up to {LONG} instructions: mean {percall_data.mean(sb) / percall_data.mean(sa):.3f}"
                      + (f" (over the sets {ps2[0].est:.3f} [{ps2[0].lo:.3f}, {ps2[0].hi:.3f}]: {ps2[1]})"
                         if ps2 else ""))
            k = f"{piece}.{b}_{a}"
            fig(f"{k}.mean", f"{r:.3f}")
            if ps:
                fig(f"{k}.sets", f"{g.est:.3f}")
                fig(f"{k}.sets_lo", f"{g.lo:.3f}")
                fig(f"{k}.sets_hi", f"{g.hi:.3f}")
                fig(f"{k}.verdict", str(v))
            if sa and sb:
                fig(f"{k}.short_mean", f"{percall_data.mean(sb) / percall_data.mean(sa):.3f}")
                if rs and ps2:
                    fig(f"{k}.short_sets", f"{ps2[0].est:.3f}")
                    fig(f"{k}.short_sets_lo", f"{ps2[0].lo:.3f}")
                    fig(f"{k}.short_sets_hi", f"{ps2[0].hi:.3f}")
                    fig(f"{k}.short_verdict", str(ps2[1]))
            print(f"  {b}/{a}: mean {r:.3f} ({sets}), "
                  f"median {percall_data.pct(vb, 50)}/{percall_data.pct(va, 50)} = "
                  f"{percall_data.pct(vb, 50) / max(1, percall_data.pct(va, 50)):.3f}{rs}")
            # The same-code control beside the =y/=n gap.
            if (a, b) == ("off", "prod"):
                po = calls.get((piece, "stock"), [])
                vs = sorted(x for y in po for x in y)
                # The C patches reach some pieces through what they inline
                # (the enqueue's and dequeue's paths differ by an instruction
                # between stock and =n): the control is only where stock's and
                # =n's common paths are the same lengths.
                same = [x for x, _, _ in stats.path_mix(vs)] == [x for x, _, _ in stats.path_mix(va)]
                if piece in C_PATCHED or not vs or (not same and piece != CONTROL):
                    why, label = (("the series' C patches change its paths on =n", "C patched on =n")
                                  if piece in C_PATCHED else
                                  ("its paths on stock and =n are not the same lengths", "stock's paths differ"))
                    print(f"    noise: no same-code control on this piece ({why})")
                    c = control.get(("off", "prod"))
                    if c and ps and piece != CONTROL:
                        d = control.get(("stock", "off"))
                        overlap = g.lo <= c.hi and c.lo <= g.hi
                        print(f"    beside identical code ({pieces[CONTROL]}(), the control): its =y/=n"
                              f" {c.est:.3f} [{c.lo:.3f}, {c.hi:.3f}]"
                              + (f", =n/stock {d.est:.3f} [{d.lo:.3f}, {d.hi:.3f}]" if d else "")
                              + ("; the intervals overlap" if overlap else "; the intervals apart"))
                        ROW.setdefault(piece, {"fn": fn})["noise"] = (
                            f"=y/=n {g.est:.3f} [{g.lo:.3f}, {g.hi:.3f}]; "
                            + label + ": beside the"
                            f" control's =y/=n {c.est:.3f} [{c.lo:.3f}, {c.hi:.3f}], "
                            + ("the intervals overlap" if overlap else "the intervals apart"))
                        fig(f"{piece}.prod_off.beside_control", "overlap" if overlap else "apart")
                else:
                    gap_mean = abs(r - 1)
                    ctl_mean = abs(percall_data.mean(va) / percall_data.mean(vs) - 1)
                    gap_med = abs(percall_data.pct(vb, 50) - percall_data.pct(va, 50))
                    ctl_med = abs(percall_data.pct(va, 50) - percall_data.pct(vs, 50))
                    # The intervals over the sets, not the point estimates:
                    # a gap is beyond the control only where the two
                    # intervals are apart.
                    ctl = per_set(po, pa)
                    if ps and ctl:
                        c = ctl[0]
                        overlap = g.lo <= c.hi and c.lo <= g.hi
                        ROW.setdefault(piece, {"fn": fn})["noise"] = (
                            f"=y/=n {g.est:.3f} [{g.lo:.3f}, {g.hi:.3f}], =n/stock {c.est:.3f}"
                            f" [{c.lo:.3f}, {c.hi:.3f}]: "
                            + ("the intervals overlap: not told apart from the same-code gap"
                               if overlap else "the intervals apart: beyond the same-code gap"))
                        fig(f"{piece}.prod_off.within_noise", "yes" if overlap else "no")
                    else:
                        ROW.setdefault(piece, {"fn": fn})["noise"] = "one set: no interval to compare"
                    fig(f"{piece}.noise.mean", f"{ctl_mean:.3f}")
                    fig(f"{piece}.noise.median", ctl_med)
                    print(f"    noise (=n/stock, identical code): means {ctl_mean:.1%} apart, medians"
                          f" {ctl_med} apart; =y/=n: {gap_mean:.1%} and {gap_med} (point estimates;"
                          " the table compares the intervals over the sets)")
            # The out-of-line kernels and the shape variants beside the
            # control's same pair.
            if (a, b) in OUTLINE_PAIRS + GCC_PAIRS + VARIANT_PAIRS:
                c = control.get((a, b))
                if c and ps:
                    overlap = g.lo <= c.hi and c.lo <= g.hi
                    txt = (f"{g.est:.3f} [{g.lo:.3f}, {g.hi:.3f}]"
                           + ("" if piece == CONTROL else
                              f", the control's {c.est:.3f} [{c.lo:.3f}, {c.hi:.3f}]: "
                              + ("the intervals overlap" if overlap else "the intervals apart")))
                    print(f"    beside identical code ({pieces[CONTROL]}(), the control): its {b}/{a}"
                          f" {c.est:.3f} [{c.lo:.3f}, {c.hi:.3f}]"
                          + ("; the intervals overlap" if overlap else "; the intervals apart"))
                    if piece != CONTROL:
                        fig(f"{k}.beside_control", "overlap" if overlap else "apart")
                else:
                    txt = "one set: no interval"
                (GROW if (a, b) in GCC_PAIRS else VROW if (a, b) in VARIANT_PAIRS else OROW).setdefault(
                    piece, {"fn": fn})[f"{b}/{a}"] = txt
            # With the routes identified (below), a pairing by share is not needed.
            pp = None if routed else paired_paths(va, vb)
            if pp:
                print("    paths paired by share (a route taken as often on both): "
                      + ", ".join(f"{y}/{x} ({sy:.0f}%/{sx:.0f}%)" for x, y, sx, sy in pp))
        print()

    plot(rdir, plot_rows)

    # The routes: the calls of each routed piece by the decisions they took
    # (the lines they ran), paired across the kernels by decision.
    if routed:
        rows, heap_rows, route_plot = [], [], []
        print("Routes (evaluation/bench/routes.txt: the decisions a call took, by the source lines it ran;")
        print("a pick's ends in @update where pick_task_fair() updated curr before it picked;")
        print("share of the calls, median and mean instructions per kernel; each =y kernel against the =n")
        print("of its compiler: the ratio of the means over the sets of boots where both took the route,")
        print("with its 95 % t interval" + ("; each shape variant against its =n, the same):" if VARIANT_PAIRS else "):"))
        for piece in ROUTED:
            boots_of = {}   # kernel -> [each boot's (route, instructions)], in set order
            for (name, kernel, idx), per in sorted(routed.items(), key=lambda t: (t[0][2], t[0][0])):
                if piece in per:
                    boots_of.setdefault(kernel, []).append(per[piece])
            by = {kernel: {route: [[x for r, x, _ in b if r == route] for b in bs]
                           for route in {r for b in bs for r, _, _ in b}}
                  for kernel, bs in boots_of.items()}   # kernel -> route -> per boot lists
            if not by:
                continue
            for kernel, per in by.items():
                for route in per:
                    if route.startswith("invalid"):
                        problems.append(f"{piece} on {kernel}: {sum(map(len, per[route]))} calls with {route}")
            routes = sorted({r for per in by.values() for r in per},
                            key=lambda r: -sum(len(x) for per in by.values() for x in per.get(r, [])))
            print(f"  {piece} ({pieces.get(piece, '?')})")
            for route in routes:
                cells = []
                for kernel in KERNELS:
                    lists = by.get(kernel, {}).get(route, [])
                    v = sorted(x for b in lists for x in b)
                    total = sum(len(b) for r in by.get(kernel, {}).values() for b in r)
                    if not v or not total:
                        cells.append(f"{kernel} -")
                        continue
                    share = 100 * len(v) / total
                    fig(f"route.{piece}.{route}.{kernel}.share", f"{share:.2f}%")
                    fig(f"route.{piece}.{route}.{kernel}.median", percall_data.pct(v, 50))
                    fig(f"route.{piece}.{route}.{kernel}.mean", f"{percall_data.mean(v):.1f}")
                    cells.append(f"{kernel} {share:.2f}% {percall_data.pct(v, 50)}/{percall_data.mean(v):.1f}")
                    # One decision a route (with the update of curr or
                    # without: two), not the calls that picked again.
                    if piece in ("pick", "pick_wakeup") and share >= 1 and "+" not in route:
                        route_plot.append((f"{piece}:{route}", kernel, percall_data.pct(v, 25),
                                           percall_data.pct(v, 50), percall_data.pct(v, 75)))
                # Each =y kernel against the =n of its compiler, route by route.
                ratios = []
                for k, ref in REFERENCE.items():
                    pa, pb = by.get(ref, {}).get(route, []), by.get(k, {}).get(route, [])
                    ps = per_set(pa, pb) if pa and len(pa) == len(pb) else None
                    if ps:
                        g = ps[0]
                        ratios.append(f"{k}/{ref} {g.est:.3f} [{g.lo:.3f}, {g.hi:.3f}]")
                        fig(f"route.{piece}.{route}.{k}_{ref}.sets", f"{g.est:.3f}")
                        fig(f"route.{piece}.{route}.{k}_{ref}.sets_lo", f"{g.lo:.3f}")
                        fig(f"route.{piece}.{route}.{k}_{ref}.sets_hi", f"{g.hi:.3f}")
                        fig(f"route.{piece}.{route}.{k}_{ref}.verdict", ps[1].kind)
                ratio = "; " + ", ".join(ratios) if ratios else ""
                print(f"    {route:16s} " + ", ".join(cells) + ratio)
                rows.append((piece, route, cells, ", ".join(ratios)))
            if piece in ("pick", "pick_wakeup"):
                # How often the heap search runs, per workload: the crowd
                # workload is there for it, the others are what it does in
                # ordinary work (all of them but the crowd, pooled).
                wls = sorted({wl for bs in boots_of.values() for b in bs for _, _, wl in b})
                for wl in wls + ["ordinary"]:
                    cells = []
                    for kernel in KERNELS:
                        v = [r for b in boots_of.get(kernel, []) for r, _, w in b
                             if w == wl or wl == "ordinary" and w != "crowd"]
                        if not v:
                            cells.append(f"{kernel} -")
                            continue
                        share = 100 * sum("heap" in r for r in v) / len(v)
                        fig(f"route.{piece}.heap_share.{wl}.{kernel}", f"{share:.2f}%")
                        cells.append(f"{kernel} {share:.2f}%")
                    label = "ordinary (all but crowd)" if wl == "ordinary" else wl
                    print(f"    heap search, {label}: " + ", ".join(cells))
                    heap_rows.append((piece, label, cells))
        print()
        plot_routes(rdir, [r for r in route_plot if r[0].split(":", 1)[1] != "none"])
        with open(os.path.join(rdir, "routes.md"), "w") as f:
            f.write("| piece | route | " + " | ".join(f"{k}: share, median/mean" for k in KERNELS)
                    + " | =y/=n" + (" (and each variant/its =n)" if VARIANT_PAIRS else "")
                    + " of the means over the sets, 95 % t interval |\n")
            f.write("|---|---|" + "---|" * len(KERNELS) + "---|\n")
            for piece, route, cells, ratio in rows:
                f.write(f"| {piece} | {route} | " + " | ".join(c.split(" ", 1)[1] for c in cells)
                        + f" | {ratio} |\n")
            f.write("\nThe heap search's share of the calls, per workload (calls whose route has a heap search):\n\n")
            f.write("| piece | workload | " + " | ".join(KERNELS) + " |\n")
            f.write("|---|---|" + "---|" * len(KERNELS) + "\n")
            for piece, label, cells in heap_rows:
                f.write(f"| {piece} | {label} | " + " | ".join(c.split(" ", 1)[1] for c in cells) + " |\n")

    # The workloads' own figures.
    wb = {}
    for name, kernel, idx, rc in bl:
        for m in re.finditer(r"^sched_rust: wbench (\S+) (\S+) ([0-9.]+) (higher|lower)$",
                             console(rdir, name), re.M):
            wb.setdefault((m.group(2), m.group(4)), {}).setdefault(kernel, []).append(float(m.group(3)))
    if wb:
        print("Workloads (TCG wall time, every round of every boot; 95 % t interval of the mean;")
        print(f"ratio of the means with Welch's TOST at +-{MARGIN_WORKLOAD:.0%}, 90 % interval):")
        for (metric, better), per in sorted(wb.items()):
            line = f"  {metric} ({better} is better):"
            for kernel in KERNELS:
                v = per.get(kernel, [])
                if len(v) >= 2:
                    ci = stats.t_interval(v)
                    line += f" {kernel} {ci.est:.3g} [{ci.lo:.3g}, {ci.hi:.3g}] n={len(v)};"
                elif v:
                    line += f" {kernel} {v[0]:.3g} n=1;"
            print(line)
            for a, b in [x for x in PAIRS if x != ("stock", "prod")]:
                t = stats.tost_welch(per.get(a, []), per.get(b, []), MARGIN_WORKLOAD)
                if t:
                    print(f"    {b}/{a} {t.est:.3f}, difference [{t.lo:+.1%}, {t.hi:+.1%}]: {t}")
        print()

    # Selftests per kernel.
    cases = {}
    for name, kernel, idx, rc in bl:
        con = console(rdir, name)
        for m in re.finditer(r"^sched_rust: ksft_ktap # # figure: test_cpu (\S+): prod passed (\d+) of (\d+)",
                             con, re.M):
            ok, runs = int(m.group(2)), int(m.group(3))
            cases.setdefault(m.group(1), {}).setdefault(kernel, []).extend([True] * ok + [False] * (runs - ok))
        for m in re.finditer(r"^sched_rust: ksft_ktap # # figure: stress: selftest (\S+): prod rc (\d+)", con, re.M):
            cases.setdefault(m.group(1), {}).setdefault(kernel, []).append(m.group(2) == "0")
    if cases:
        print("Kernel selftests (passed/runs per kernel; where a =y kernel and its =n differ (GCC's =y:")
        print("GCC's =n), the exact 95 % interval of each pass rate and Fisher's exact test):")
        for case, per in sorted(cases.items()):
            cells = " ".join(f"{k}={sum(per.get(k, []))}/{len(per.get(k, []))}" for k in KERNELS)
            for k in KERNELS:
                fig(f"selftest.{case}.{k}", f"{sum(per.get(k, []))}/{len(per.get(k, []))}")
            for k, label, key in (("prod", "=y", "p"), ("outline", "outline", "p_outline"),
                                  ("gcc-prod", "GCC =y", "p_gcc")) + tuple((b, b, f"p_{b}") for _, b in VARIANT_PAIRS):
                p, o = per.get(k, []), per.get(REFERENCE[k], [])
                if p and o and sum(p) * len(o) != sum(o) * len(p):
                    ip, io = stats.rate_interval(sum(p), len(p)), stats.rate_interval(sum(o), len(o))
                    pv = stats.rates_p(sum(p), len(p), sum(o), len(o))
                    fig(f"selftest.{case}.{key}", f"{pv:.3f}")
                    cells += (f"  {label} [{ip.lo:.2f}, {ip.hi:.2f}], {SHORT[REFERENCE[k]]} [{io.lo:.2f}, {io.hi:.2f}],"
                              f" Fisher p={pv:.3f}")
            flag = ""
            for k in ("prod", "outline", "gcc-prod") + tuple(b for _, b in VARIANT_PAIRS):
                p, o = per.get(k, []), per.get(REFERENCE[k], [])
                if p and o and not any(p) and all(o):
                    flag += f"  FAILS ONLY ON {k}"
                    problems.append(f"selftest {case} fails on every {k} boot and passes on every {REFERENCE[k]} boot")
            print(f"  {case:28s} {cells}{flag}")
        print()
    else:
        problems.append("no selftest result on any boot")

    with open(os.path.join(rdir, "figures.tsv"), "w") as f:
        for k, v in FIG.items():
            f.write(f"{k}\t{v}\n")
    # The table README.md copies (scripts/check-claims.py checks the copy).
    with open(os.path.join(rdir, "table.md"), "w") as f:
        f.write("| piece (function) | `=y` paths (share) | `=n` paths (share) | stock paths (share) "
                "| medians `=y` / `=n` / stock | means, `=y`/`=n` against the same-code gap |\n")
        f.write("|---|---|---|---|---|---|\n")
        for piece, r in ROW.items():
            cell = [r.get(k, ("", 0)) for k in KERNELS]
            noise = r.get("noise", "no same-code control (the C patches change its paths)")
            f.write(f"| {piece} (`{r['fn']}()`) | {cell[2][0]} | {cell[1][0]} | {cell[0][0]} "
                    f"| {cell[2][1]} / {cell[1][1]} / {cell[0][1]} | {noise} |\n")
    # The out-of-line kernel's table (README.md copies it too).
    if "outline" in KERNELS:
        with open(os.path.join(rdir, "table-outline.md"), "w") as f:
            f.write("| piece (function) | out-of-line `=y` paths (share) | medians out of line / `=y` / `=n` "
                    "| means, out of line/`=n` | means, out of line/`=y` |\n")
            f.write("|---|---|---|---|---|\n")
            for piece, r in ROW.items():
                o = r.get("outline", ("", 0))
                orow = OROW.get(piece, {})
                f.write(f"| {piece} (`{r['fn']}()`) | {o[0]} | {o[1]} / {r.get('prod', ('', 0))[1]} / "
                        f"{r.get('off', ('', 0))[1]} | {orow.get('outline/off', '')} "
                        f"| {orow.get('outline/prod', '')} |\n")
    # The GCC pair's table (README.md copies it too).
    if "gcc-prod" in KERNELS and "gcc-off" in KERNELS:
        with open(os.path.join(rdir, "table-gcc.md"), "w") as f:
            f.write("| piece (function) | GCC `=y` paths (share) | GCC `=n` paths (share) "
                    "| medians GCC `=y` / GCC `=n` | means, GCC `=y`/GCC `=n` |\n")
            f.write("|---|---|---|---|---|\n")
            for piece, r in ROW.items():
                gy, gn = r.get("gcc-prod", ("", 0)), r.get("gcc-off", ("", 0))
                f.write(f"| {piece} (`{r['fn']}()`) | {gy[0]} | {gn[0]} | {gy[1]} / {gn[1]} "
                        f"| {GROW.get(piece, {}).get('gcc-prod/gcc-off', '')} |\n")
    # The shape variants' table: each beside its =n, piece by piece.
    if VARIANT_PAIRS:
        with open(os.path.join(rdir, "table-variants.md"), "w") as f:
            f.write("| piece (function) | variant | its paths (share) | its `=n`'s paths (share) "
                    "| medians variant / `=n` | means, variant/`=n` |\n")
            f.write("|---|---|---|---|---|---|\n")
            for piece, r in ROW.items():
                for a, b in VARIANT_PAIRS:
                    v, o = r.get(b, ("", 0)), r.get(a, ("", 0))
                    f.write(f"| {piece} (`{r['fn']}()`) | `{b}` | {v[0]} | {o[0]} | {v[1]} / {o[1]} "
                            f"| {VROW.get(piece, {}).get(f'{b}/{a}', '')} |\n")
    if problems:
        print("PROBLEMS:")
        for p in problems:
            print(f"  {p}")
        return 1
    print("result: every boot passed its checks; every piece measured on every kernel")
    return 0


if __name__ == "__main__":
    sys.exit(main())
