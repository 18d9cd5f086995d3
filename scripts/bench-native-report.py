# SPDX-License-Identifier: GPL-2.0
"""make bench-native's report: time per call on the host CPU, C against Rust.

Input: the results file of tests/bench/native/run.sh ("RSC: raw <rep> <case>
<side> <calls> <ns of each batch>..."), and make bench's report.txt for the
instruction ratios of the same cases.

Per rep and case, each side's time per call is the median of its batches
(a median is robust to a host interrupt landing in a batch), minus the same
side's median of the "empty" case (the loop, the call of a function that
returns its argument, the clock reads). The ratio is Rust / C (for a stock_
case: fair.c's C / 7.3's stock C; for a control_ case: a copy of fair.c's C,
the same source at another address, / fair.c's C), paired by rep: its geometric mean with the
95 % t interval and the TOST verdict of scripts/stats.py, and the number of
reps the interval would need to be narrower than +-1 % at the reps' spread.
"""

import gzip
import math
import os
import re
import statistics
import sys

from scipy import stats as sps

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats  # noqa: E402

WIDTH = 0.01    # the interval's half-width this bench aims at (make bench-native)


def lines(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", errors="replace")
    return open(path, errors="replace")


def reduce(src, dst):
    """The results with each side's batches of a rep replaced by their median
    (the statistic the report takes, so that it gives the same figures): what
    tests/bench/results-native/ keeps, gzipped."""
    with gzip.open(dst, "wt") as out:
        for line in lines(src):
            m = re.match(r"(RSC: raw \d+ \S+ [01] \d+) (.*)", line)
            if m:
                v = sorted(int(x) for x in m[2].split())
                line = f"{m[1]} {v[len(v) // 2]}\n"
            out.write(line)


def parse(path):
    head, table, raw = [], [], {}
    for line in lines(path):
        line = line.rstrip("\n")
        if line.startswith("# "):
            head.append(line[2:])
            continue
        m = re.match(r"RSC: raw (\d+) (\S+) ([01]) (\d+) (.*)", line)
        if m:
            rep, case, side, calls = int(m[1]), m[2], int(m[3]), int(m[4])
            ns = [int(x) / calls for x in m[5].split()]
            raw.setdefault(case, {}).setdefault(rep, {})[side] = statistics.median(ns)
        elif line.startswith("RSC: bench "):
            table.append(line[len("RSC: bench "):])
        elif line.startswith("RSC: cpus "):
            head.append("guest: " + line[len("RSC: "):])
    return head, table, raw


def icount_ratios(path):
    """Rust/C (direct cases) and C/stock (stock_ cases) from make bench."""
    out = {}
    try:
        text = open(path).read()
    except OSError:
        return out
    mode = None
    for line in text.splitlines():
        f = line.split()
        if line.startswith("case") and "C net" in line:
            mode = "three" if "stock net" in line else "two"
            continue
        if not f or line.startswith("```"):
            mode = None
            continue
        if mode == "two" and len(f) == 4:
            out.setdefault(f[0], float(f[3]))
        elif mode == "three" and len(f) == 7:
            out.setdefault("stock_" + f[0], float(f[4]))
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: bench-native-report.py <results file> [make bench report.txt]")
    if sys.argv[1] == "--reduce":
        reduce(sys.argv[2], sys.argv[3])
        return
    need_only = sys.argv[1] == "--need"
    if need_only:
        del sys.argv[1]
    head, _table, raw = parse(sys.argv[1])
    icount = icount_ratios(sys.argv[2]) if len(sys.argv) > 2 else {}
    if "empty" not in raw:
        sys.exit("FAIL: no batches of the empty case in " + sys.argv[1])
    reps = sorted(raw["empty"])
    needs, used = {}, {}
    if not need_only:
        for h in head:
            print(h)
    out = (lambda *a, **k: None) if need_only else print
    out(f"{len(reps)} reps; per rep the median batch, minus the empty case's; the ratio"
          f" over the reps: geometric mean, 95 % paired t interval (scripts/stats.py),"
          f" TOST within +-{stats.MARGIN['native']:.0%}")
    out(f"{'case':22} {'ns C':>7} {'ns Rust':>7} {'ratio':>6} {'95 % interval':>16}"
          f" {'reps for +-1%':>13} {'icount':>7}  equivalence")
    bad = []
    for case, per in raw.items():
        if case == "empty":
            continue
        a, b = [], []
        for rep in reps:
            if rep not in per or len(per[rep]) != 2:
                continue
            c = per[rep][0] - raw["empty"][rep][0]
            r = per[rep][1] - raw["empty"][rep][1]
            if c <= 0 or r <= 0:
                continue
            a.append(c)
            b.append(r)
        if len(a) < 2:
            bad.append(case)
            continue
        iv = stats.paired_ratio(b, a)
        verdict = stats.tost_ratio(b, a, stats.MARGIN["native"])
        sd = statistics.stdev(stats.log_ratios(b, a))
        tq = sps.t.ppf(0.975, len(a) - 1)
        need = max(2, math.ceil((tq * sd / math.log(1 + WIDTH)) ** 2))
        needs[case] = need
        # Reps where a side's time did not exceed the empty loop's are left
        # out: the interval is over the others, and so is the test of its width.
        used[case] = len(a)
        ic = icount.get(case)
        out(f"{case:22} {statistics.median(a):7.2f} {statistics.median(b):7.2f} {iv.est:6.3f}"
              f" [{iv.lo:6.3f}, {iv.hi:6.3f}] {need:13d} {'' if ic is None else f'{ic:7.3f}':>7}"
              f"  {verdict}")
    if need_only:
        # The reps the Rust/C cases need for +-1 % (the stock_, dispatch_ and
        # control_ cases are context, not the comparison).
        print(max((math.ceil(n * len(reps) / used[c]) for c, n in needs.items()
                   if not c.startswith(("stock_", "dispatch_", "control_"))), default=0))
        return
    wide = sorted(c for c, n in needs.items() if n > used[c] and not c.startswith(("stock_", "dispatch_", "control_")))
    short = [f"{c} {len(reps) - n} of {len(reps)}" for c, n in used.items() if n < len(reps)]
    if short:
        print("reps left out (a side's time at or below the empty loop's): " + ", ".join(short))
    print(f"narrower than +-1 % after {len(reps)} reps: {len(needs) - len(wide)} of {len(needs)} cases"
          + (f"; wider, Rust/C: {' '.join(wide)}" if wide else ""))
    if bad:
        sys.exit("FAIL: fewer than 2 reps with a time above the empty case for: " + " ".join(bad))


main()
