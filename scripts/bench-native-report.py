# SPDX-License-Identifier: GPL-2.0
"""make bench-native's report: time per call on the host CPU, C against Rust,
with the build as the unit of replication.

Input: one results file per build of the UML kernel (evaluation/bench/native/run.sh:
"# layout: ..." and "# cpu-mhz: ..." in its head, then "sched_rust: raw <rep> <case>
<side> <calls> <ns of each batch>..."). The builds differ only in where the code
lies (scripts/bench-native.sh: a padding object linked before fair.o).

Per build, rep, case and side: the time per call is the median of the rep's
batches (robust to a host interrupt landing in a batch). Every rep is used:
- gross: the time per call as measured (the loop, the call, the clock reads
  included), and per build the geometric mean over the reps of Rust / C;
- net: the same minus the empty case's (the loop calling a function that
  returns its argument), per build the mean over every rep of each side, and
  their ratio; a case whose net time is within RESOLUTION_CYCLES of the empty
  loop on either side, in any build, is "below resolution": it gets no net
  ratio.
Over the builds: the geometric mean of the builds' ratios with its 95 % t
interval (builds - 1 degrees of freedom). The margin for "equivalent" is the
same-code control's largest distance from 1 over the builds (control_: fair.c's
C group allocation against a copy of itself at another address); a case is
"not above C" when the one-sided 95 % upper bound of its ratio is at most
1 + margin. Ratio is side 1 / side 0: Rust / C, or, for stock_ cases, fair.c's
C / 7.3.4's stock C; dispatch_ cases through the debug option's switch.

--figures <file> also writes every figure as "key<TAB>value" for
scripts/check-claims.py.
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

RESOLUTION_CYCLES = 2


def lines(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", errors="replace")
    return open(path, errors="replace")


class Build:
    def __init__(self, path):
        self.path, self.head, self.layout, self.mhz = path, [], None, None
        self.raw = {}       # case -> rep -> side -> median ns per call
        for line in lines(path):
            line = line.rstrip("\n")
            if line.startswith("# "):
                self.head.append(line[2:])
                if line.startswith("# layout: "):
                    self.layout = line[len("# layout: "):]
                elif line.startswith("# cpu-mhz: "):
                    self.mhz = float(line.split()[2])
                continue
            m = re.match(r"sched_rust: raw (\d+) (\S+) ([01]) (\d+) (.*)", line)
            if m:
                rep, case, side, calls = int(m[1]), m[2], int(m[3]), int(m[4])
                ns = [int(x) / calls for x in m[5].split()]
                self.raw.setdefault(case, {}).setdefault(rep, {})[side] = statistics.median(ns)
        if self.layout is None or self.mhz is None:
            sys.exit(f"FAIL: {path}: no '# layout:' or '# cpu-mhz:' line (a run of the present bench-native.sh)")
        if "empty" not in self.raw:
            sys.exit(f"FAIL: {path}: no batches of the empty case")
        self.reps = sorted(r for r, s in self.raw["empty"].items() if len(s) == 2)

    def case(self, case):
        """Gross and net times per rep of one case, every complete rep."""
        g0, g1, n0, n1 = [], [], [], []
        for rep in self.reps:
            s = self.raw.get(case, {}).get(rep, {})
            if len(s) != 2:
                return None
            e = self.raw["empty"][rep]
            g0.append(s[0])
            g1.append(s[1])
            n0.append(s[0] - e[0])
            n1.append(s[1] - e[1])
        return g0, g1, n0, n1


def over_builds(ratios):
    """Geometric mean of the builds' ratios, its 95 % t interval, and the
    one-sided 95 % upper bound."""
    iv = stats.paired_ratio(ratios, [1.0] * len(ratios))
    lr = [math.log(r) for r in ratios]
    if len(lr) < 2 or statistics.stdev(lr) == 0:
        up = math.exp(statistics.mean(lr))
    else:
        up = math.exp(statistics.mean(lr) + sps.t.ppf(1 - stats.ALPHA, len(lr) - 1)
                      * statistics.stdev(lr) / math.sqrt(len(lr)))
    return iv, up


def main():
    args = sys.argv[1:]
    figures = None
    if args[:1] == ["--figures"]:
        figures, args = args[1], args[2:]
    if not args:
        sys.exit("usage: bench-native-report.py [--figures <file>] <results of each build>...")
    builds = [Build(p) for p in args]
    fig = {}
    reps = min(len(b.reps) for b in builds)
    mhz = min(b.mhz for b in builds)
    res_ns = RESOLUTION_CYCLES * 1000 / mhz
    for h in builds[0].head:
        if not h.startswith(("layout:", "load ")):
            print(h)
    print(f"{len(builds)} builds, the code layout the only difference; reps per build: "
          + ", ".join(str(len(b.reps)) for b in builds) + " (every rep used)")
    for i, b in enumerate(builds):
        print(f"  build {i + 1}: {b.layout}")
    fig["builds"] = len(builds)
    fig["reps_min"] = reps
    fig["resolution_ns"] = f"{res_ns:.2f}"
    cases = [c for c in builds[0].raw if c != "empty"]
    per = {}
    for case in cases:
        rows = []
        for b in builds:
            d = b.case(case)
            if d is None:
                sys.exit(f"FAIL: {b.path}: case {case} misses a side in some rep")
            g0, g1, n0, n1 = d
            rows.append({
                "g0": statistics.mean(g0), "g1": statistics.mean(g1),
                "gross": stats.paired_ratio(g1, g0).est,
                "n0": statistics.mean(n0), "n1": statistics.mean(n1),
            })
        per[case] = rows
    # The control's spread over the builds is the margin.
    ctl = per.get("control_tg_alloc_free")
    if not ctl:
        sys.exit("FAIL: no control_tg_alloc_free case: no margin for 'equivalent'")
    margin = max(abs(r["n1"] / r["n0"] - 1) for r in ctl)
    margin = math.ceil(margin * 1000) / 1000
    fig["margin"] = f"{margin:.3f}"
    print(f"margin for 'equivalent' and 'not above': +-{margin:.1%}, the largest distance from 1 of"
          " control_tg_alloc_free (the same C at two addresses) over the builds")
    print(f"resolution: a net time under {res_ns:.2f} ns ({RESOLUTION_CYCLES} cycles at the host's"
          f" {mhz:.0f} MHz) in any build is below resolution: no net ratio")
    print()
    print(f"{'case':23} {'gross C':>8} {'gross R':>8} {'gross':>6} {'net C':>8} {'net R':>8}"
          f" {'net':>6} {'95 % over builds':>17} {'builds':>13}  verdict")
    below, verdicts = [], {}
    for case in cases:
        rows = per[case]
        giv, _ = over_builds([r["gross"] for r in rows])
        g0 = statistics.mean(r["g0"] for r in rows)
        g1 = statistics.mean(r["g1"] for r in rows)
        n0 = statistics.mean(r["n0"] for r in rows)
        n1 = statistics.mean(r["n1"] for r in rows)
        k = case
        fig[f"{k}.gross_c"], fig[f"{k}.gross_rust"] = f"{g0:.2f}", f"{g1:.2f}"
        fig[f"{k}.gross"] = f"{giv.est:.3f}"
        fig[f"{k}.gross_lo"], fig[f"{k}.gross_hi"] = f"{giv.lo:.3f}", f"{giv.hi:.3f}"
        fig[f"{k}.net_c"], fig[f"{k}.net_rust"] = f"{n0:.2f}", f"{n1:.2f}"
        if any(min(r["n0"], r["n1"]) < res_ns for r in rows):
            below.append(case)
            fig[f"{k}.net"] = "below resolution"
            print(f"{case:23} {g0:8.2f} {g1:8.2f} {giv.est:6.3f} {n0:8.2f} {n1:8.2f} {'-':>6}"
                  f" {'below resolution':>17} {'':>13}  gross [{giv.lo:.3f}, {giv.hi:.3f}]")
            continue
        ratios = [r["n1"] / r["n0"] for r in rows]
        iv, up = over_builds(ratios)
        v = stats.tost_ratio(ratios, [1.0] * len(ratios), margin)
        if v.kind == "equivalent":
            text = f"equivalent within +-{margin:.1%}"
        elif v.kind == "different":
            text = f"different ({stats.fmt_p(v.p)}), " + ("below C" if iv.hi < 1 else "above C")
        else:
            text = f"inconclusive: could not detect less than {v.detect:.1%}"
        # Non-inferiority: the one-sided upper bound within the margin.
        text += f"; {'not above C' if up <= 1 + margin else 'may be above C'} (upper {up:.3f})"
        verdicts[case] = text
        fig[f"{k}.net"] = f"{iv.est:.3f}"
        fig[f"{k}.lo"], fig[f"{k}.hi"] = f"{iv.lo:.3f}", f"{iv.hi:.3f}"
        fig[f"{k}.upper"] = f"{up:.3f}"
        fig[f"{k}.min"], fig[f"{k}.max"] = f"{min(ratios):.3f}", f"{max(ratios):.3f}"
        fig[f"{k}.verdict"] = text
        print(f"{case:23} {g0:8.2f} {g1:8.2f} {giv.est:6.3f} {n0:8.2f} {n1:8.2f} {iv.est:6.3f}"
              f" [{iv.lo:6.3f}, {iv.hi:6.3f}] {min(ratios):6.3f}-{max(ratios):6.3f}  {text}")
    print()
    print("gross: ns per call as measured, and the geometric mean over the builds of each build's"
          " geometric mean over its reps of Rust/C")
    print("net: minus the empty loop, each side's mean over every rep; the ratio of those means per"
          " build, then over the builds: geometric mean, 95 % t interval, range")
    print(f"below resolution ({len(below)}): " + (" ".join(below) if below else "none"))
    fig["below_resolution"] = " ".join(below) if below else "none"
    fig["below_resolution_count"] = len(below)
    main_cases = [c for c in verdicts if not c.startswith(("stock_", "dispatch_", "control_"))]
    above = [c for c in main_cases if "may be above C" in verdicts[c]]
    fig["rust_cases"] = len(main_cases)
    fig["rust_not_above"] = len(main_cases) - len(above)
    fig["rust_above"] = " ".join(above) if above else "none"
    print(f"Rust/C cases with a net ratio: {len(main_cases)}; upper bound within 1 + margin (not above C):"
          f" {fig['rust_not_above']}; the others: {fig['rust_above']}")
    if figures:
        with open(figures, "w") as f:
            for k, v in fig.items():
                f.write(f"{k}\t{v}\n")


main()
