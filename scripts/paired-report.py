#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The summaries of make bench-weights and make bench-cpumax (scripts/boot.sh prints
them in its report), from the console of their boot.

Usage: paired-report.py weights|cpumax <console.log>

weights: every round printed "sched_rust: weights <c|rust> <pair> usage <l0> <l1>
<l2> ..."; per side the share l0 / (l1 + l2) (1 is fair; test_cpu accepts
0.7391-1.3529), then the paired difference Rust - C with its 95 % t
interval and the equivalence test at stats.MARGIN["weights"].

cpumax: every round printed "sched_rust: cpucg_max <c|rust> <pair> kind <k> key
value ..."; per kind and side the test's verdict (usage within 10 % of the
sum of usage and expected), usage over the expectation (the quota of every
period of the sleep) and where the excess arose: by the end of the sleep,
between the sleep and exit() and during exit() (each over the quota of the
periods it took); per kind the paired difference Rust - C of
usage/expected with its 95 % t interval and the equivalence test at
stats.MARGIN["cpumax"].

The intervals and tests are scripts/stats.py's. Whether every round was
measured is boot.sh's check. Exit status: 0, or 2 when the console
cannot be read.
"""
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats  # noqa: E402


def paired(x, what):
    """x[side][pair] -> "..., mean, t interval, rust higher in N; TOST"
    over the pairs measured on both sides; None under two pairs."""
    pairs = sorted(set(x.get("rust", {})) & set(x.get("c", {})))
    if len(pairs) < 2:
        return None
    a = [x["rust"][p] for p in pairs]
    b = [x["c"][p] for p in pairs]
    d = stats.paired_difference(a, b)
    v = stats.tost_difference(a, b, stats.MARGIN[what])
    higher = sum(1 for u, w in zip(a, b) if u > w)
    return (f"{d.n} pairs, mean {d.est:+.3f}, 95% t interval [{d.lo:+.3f}, {d.hi:+.3f}], "
            f"rust higher in {higher}; equivalence (TOST, margin +-{v.margin}): {v}")


def sd(v):
    return statistics.stdev(v) if len(v) > 1 else 0.0


def weights(text):
    share = {}
    for m in re.finditer(r"^sched_rust: weights (c|rust) (\d+) usage (\d+) (\d+) (\d+)", text, re.M):
        l0, l1, l2 = (int(m.group(i)) for i in (3, 4, 5))
        share.setdefault(m.group(1), {})[int(m.group(2))] = l0 / (l1 + l2)
    out = []
    for side in sorted(share):
        v = list(share[side].values())
        ok = sum(1 for r in v if 0.7391 <= r <= 1.3529)
        out.append(f"{side}: {len(v)} rounds, l0/(l1+l2) mean {sum(v) / len(v):.3f} sd {sd(v):.3f} "
                   f"min {min(v):.3f} max {max(v):.3f}, within test_cpu's 15 %: {ok}")
    p = paired(share, "weights")
    if p:
        out.append(f"paired rust - c: {p}")
    return out


def cpumax(text):
    rows = {}    # (kind, side) -> list of figures per round
    ratio = {}   # kind -> side -> pair -> usage / expected
    for line in text.splitlines():
        if not re.match(r"sched_rust: cpucg_max (c|rust) \d+ kind ", line):
            continue
        f = line.split()
        side, pair = f[2], int(f[3])
        v = dict(zip(f[4::2], f[5::2]))
        kind, q = v["kind"], float(v["quota_us"])
        d = float(v["seconds"]) * 1000000
        periods = int(d / 100000)
        rem = d - periods * 100000
        e = periods * q + min(rem, q)
        u = float(v["usage_end"])
        exit_us, reaped_us = float(v["exit_us"]), float(v["reaped_us"])
        rows.setdefault((kind, side), []).append((
            abs(u - e) <= int((u + e) / 100) * 10,
            u / e,
            float(v["usage_sleep"]) - e,
            float(v["usage_exit"]) - float(v["usage_sleep"]) - q * (exit_us - d) / 100000,
            u - float(v["usage_exit"]) - q * (reaped_us - exit_us) / 100000,
            (exit_us - d) / 1000,
            (reaped_us - exit_us) / 1000))
        ratio.setdefault(kind, {}).setdefault(side, {})[pair] = u / e
    out = []
    for (kind, side), r in rows.items():
        n = len(r)
        s = [sum(x[i] for x in r) for i in range(1, 7)]
        out.append(f"{kind} {side}: {n} rounds, test passes {sum(x[0] for x in r)}, usage/expected "
                   f"{s[0] / n:.3f}; excess (us): by the sleep's end {s[1] / n:+.0f}, to exit() "
                   f"{s[2] / n:+.0f} in {s[4] / n:.0f} ms, in exit() {s[3] / n:+.0f} in {s[5] / n:.0f} ms")
    for kind, x in ratio.items():
        p = paired(x, "cpumax")
        if p:
            out.append(f"{kind} paired usage/expected rust - c: {p}")
    return sorted(out)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("weights", "cpumax"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        with open(sys.argv[2], errors="replace") as f:
            text = f.read()
    except OSError as e:
        print(f"paired-report: cannot read {sys.argv[2]}: {e}", file=sys.stderr)
        return 2
    for line in (weights if sys.argv[1] == "weights" else cpumax)(text):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
