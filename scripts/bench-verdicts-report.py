#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-verdicts' report: from verdicts.tsv (one line per run:
kernel, boot, case, run, result), each case's pass rate per kernel with its
exact (Clopper-Pearson) 95 % interval; =y against =n and =n against stock
with Fisher's exact test (two-sided), and what the test could have
detected: the lowest pass rate below the reference kernel's observed one
that the runs would not have told apart from it with 80 % power. Skipped
runs count as neither.

Exit 1 when a line names no case, kernel or run, when a kernel has no
passed or failed run of a case (every run skipped counts as none), or when
a case passes less often on =y than on =n at p < 0.05 (a change the Rust
pieces made, to be found).

    bench-verdicts-report.py <verdicts.tsv> [--figures <figures.tsv>]
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats  # noqa: E402

KERNELS = ("stock", "off", "prod")
NAMES = {"stock": "stock", "off": "=n", "prod": "=y"}
PAIRS = (("prod", "off"), ("off", "stock"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tsv")
    ap.add_argument("--figures")
    a = ap.parse_args()
    runs, boots, skips = {}, {}, {}
    figs, problems = [], []
    with open(a.tsv) as f:
        for n, row in enumerate(csv.DictReader(f, delimiter="\t"), 2):
            if not row.get("case") or row.get("kernel") not in KERNELS or not (row.get("run") or "").isdigit():
                problems.append(f"{a.tsv}:{n}: a run that names no case, kernel or run: {row}")
                continue
            if row["result"] == "skip":
                skips.setdefault(row["case"], {}).setdefault(row["kernel"], 0)
                skips[row["case"]][row["kernel"]] += 1
                continue
            runs.setdefault(row["case"], {}).setdefault(row["kernel"], []).append(row["result"] == "ok")
            boots.setdefault((row["case"], row["kernel"], row["boot"]), []).append(row["result"] == "ok")
    # A case that only skipped on a kernel has no verdict there.
    for case in skips:
        runs.setdefault(case, {})

    def fig(k, v):
        figs.append((k, v))

    if not runs:
        problems.append(f"{a.tsv}: no run")
    print("Kernel selftest cases run again (make bench-verdicts): passed/runs per kernel with the")
    print("exact 95 % interval of the pass rate; Fisher's exact test (two-sided) of =y against =n")
    print("and of =n against stock, and the lowest pass rate the runs would not have told from the")
    print("reference kernel's observed one (80 % power at 0.05): \"not told apart\" is not \"equal\".")
    for case in sorted(runs):
        per = runs[case]
        print()
        print(f"{case}")
        for k in KERNELS:
            r = per.get(k, [])
            if not r:
                problems.append(f"{case}: no run on {NAMES[k]}"
                                f" ({skips.get(case, {}).get(k, 0)} skipped)")
                print(f"  {NAMES[k]:6s} no run")
                continue
            iv = stats.rate_interval(sum(r), len(r))
            by_boot = " ".join(f"{sum(v)}/{len(v)}" for (c, kk, b), v in sorted(boots.items())
                               if c == case and kk == k)
            print(f"  {NAMES[k]:6s} {sum(r):3d}/{len(r):<3d} rate {iv.est:.2f} [{iv.lo:.2f}, {iv.hi:.2f}]"
                  f"  (per boot: {by_boot})")
            fig(f"verdict.{case}.{k}", f"{sum(r)}/{len(r)}")
            fig(f"verdict.{case}.{k}.lo", f"{iv.lo:.2f}")
            fig(f"verdict.{case}.{k}.hi", f"{iv.hi:.2f}")
        for x, ref in PAIRS:
            rx, rr = per.get(x, []), per.get(ref, [])
            if not rx or not rr:
                continue
            p = stats.rates_p(sum(rx), len(rx), sum(rr), len(rr))
            pref = sum(rr) / len(rr)
            low = stats.detectable_rate(len(rx), pref)
            fig(f"verdict.{case}.{x}_{ref}.p", f"{p:.3f}")
            fig(f"verdict.{case}.{x}_{ref}.ref_rate", f"{pref:.2f}")
            fig(f"verdict.{case}.{x}_{ref}.detectable", "none" if low is None else f"{low:.2f}")
            if p < stats.ALPHA:
                worse = sum(rx) / len(rx) < pref
                verdict = f"different (p={p:.3f}): {NAMES[x]} passes {'less' if worse else 'more'} often"
                if worse and (x, ref) == ("prod", "off"):
                    problems.append(f"{case} passes less often on =y than on =n (p={p:.3f})")
            elif low is None:
                verdict = (f"not told apart (p={p:.3f}); {len(rx)} runs detect no drop from"
                           f" {pref:.2f} with 80 % power")
            else:
                verdict = (f"not told apart (p={p:.3f}); the runs detect a drop from {pref:.2f} to"
                           f" {low:.2f} or below (80 % power)")
            print(f"  {NAMES[x]} against {NAMES[ref]}: {verdict}")
    print()
    if problems:
        print("problems:")
        for p in problems:
            print(f"  {p}")
    else:
        print("result: every case ran on every kernel; none passes less often on =y than on =n")
    if a.figures:
        with open(a.figures, "w") as f:
            for k, v in figs:
                f.write(f"{k}\t{v}\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
