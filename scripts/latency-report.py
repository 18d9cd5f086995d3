#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-latency's verdict, from the console of its boot (evaluation/bench/guest.sh,
sched_rust.mode=latency).

Usage: latency-report.py <console.log> <pairs> <cc_pairs>

Every round printed "sched_rust: lat <pair|cc> <i> <rust|c|c2> low_ms X other_ms Y
over1s A over5s B open N open_unknown U tasks T clocks K spawn P start S end E":
the largest wait
of a task of the lowest-weight leaf (low_ms) and of the other tasks
(other_ms), in milliseconds. For each metric, the pairs give paired ratios
Rust / C; their geometric mean with a 95 % t-interval on the log ratios and
a two-sided sign test say whether Rust's waits differ, and an equivalence
test (TOST on the log ratios, margin stats.MARGIN["latency"]) whether the
run could tell them apart from no difference: "equivalent", "different" or
"inconclusive: the test could not detect less than X" (scripts/stats.py).
The C / C pairs (c2 / c) show what the same comparison gives with no
difference at all.

RCU stall reports (the boot runs with RCU's default 21 s timeout) are
assigned to the round during which they were printed, and to the round in
which the stalled grace period began (21 s earlier).

Exit status: 0 Rust is not significantly worse on any metric; 1 it is, or
the data is incomplete (a round missing, a round that read fewer tasks than
it started, no rq clock read); 2 the console cannot be read.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats  # noqa: E402

STALL_TIMEOUT = 21.0
METRICS = ("low_ms", "other_ms")
# A wait of 0 (a task that never waited) is counted as 1 ms, the
# resolution that matters here, so that the ratio is defined.
FLOOR_MS = 1.0


def paired(a, b):
    """Geometric mean of a/b with its 95 % t interval, the sign test, and
    the equivalence test against MARGIN["latency"]."""
    r = stats.paired_ratio(a, b, floor=FLOOR_MS)
    wins = sum(1 for x, y in zip(a, b) if x > y)
    losses = sum(1 for x, y in zip(a, b) if x < y)
    v = stats.tost_ratio(a, b, stats.MARGIN["latency"], floor=FLOOR_MS)
    return r.est, r.lo, r.hi, wins, losses, stats.sign_test(wins, losses), v


def main():
    if len(sys.argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    path, want_pairs, want_cc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        text = open(path, errors="replace").read()
    except OSError as e:
        print(f"latency: cannot read {path}: {e}", file=sys.stderr)
        return 2

    rounds = {}
    order = []
    problems = []
    tasks_expected = None
    for line in text.splitlines():
        line = re.sub(r"^\[ *[0-9.]+\] ", "", line.strip("\r"))
        m = re.match(r"sched_rust: latency pairs (\d+) cc_pairs (\d+) round_seconds (\d+) low_leaf (\S+)", line)
        if m:
            print(f"latency: {m.group(1)} pairs, {m.group(2)} C/C pairs, {m.group(3)} s per round, "
                  f"lowest-weight leaf {m.group(4)}")
            continue
        m = re.match(r"sched_rust: cgroups \d+ leaves (\d+)", line)
        if m:
            tasks_expected = 2 * int(m.group(1))
        if not line.startswith("sched_rust: lat "):
            continue
        f = line.split()
        kind, idx, side = f[2], int(f[3]), f[4]
        kv = dict(zip(f[5::2], f[6::2]))
        try:
            r = {k: float(kv[k]) for k in ("low_ms", "other_ms", "over1s", "over5s",
                                           "open", "tasks", "clocks", "start", "end")}
        except (KeyError, ValueError):
            problems.append(f"unreadable round line: {line}")
            continue
        r["open_unknown"] = float(kv.get("open_unknown", 0))
        rounds[(kind, idx, side)] = r
        order.append((kind, idx, side))

    stalls = []
    for m in re.finditer(r"^\[ *([0-9.]+)\] rcu: INFO: (rcu_\w+) detected stalls", text, re.M):
        stalls.append(float(m.group(1)))

    def where(t):
        for key in order:
            r = rounds[key]
            if r["start"] <= t <= r["end"] + 20:
                return key
        return None

    # Completeness: every round of every pair, each with all its tasks read.
    for i in range(want_pairs):
        for side in ("rust", "c"):
            if ("pair", i, side) not in rounds:
                problems.append(f"pair {i}: no round on {side}")
    for i in range(want_cc):
        for side in ("c", "c2"):
            if ("cc", i, side) not in rounds:
                problems.append(f"C/C pair {i}: no round {side}")
    for key, r in rounds.items():
        if r["tasks"] < 2 or (tasks_expected and r["tasks"] != tasks_expected):
            problems.append(f"round {key}: read {int(r['tasks'])} tasks, expected {tasks_expected}")
        if r["clocks"] < 1:
            problems.append(f"round {key}: no rq clock read (open waits unknown)")

    def series(kind, side, metric, n):
        return [rounds[(kind, i, side)][metric] for i in range(n) if (kind, i, side) in rounds]

    worse = []
    print()
    print(f"{'metric':<10} {'pairs':<6} {'median a':>9} {'median b':>9} {'ratio a/b':>9} "
          f"{'95 % interval':>17} {'a>b':>4} {'a<b':>4} {'sign p':>7}  "
          f"equivalence (TOST, margin {stats.MARGIN['latency']:.0%})")
    for kind, a_side, b_side, n, label in (("pair", "rust", "c", want_pairs, "Rust/C"),
                                           ("cc", "c2", "c", want_cc, "C/C")):
        if n == 0:
            continue
        for metric in METRICS:
            a = series(kind, a_side, metric, n)
            b = series(kind, b_side, metric, n)
            if len(a) != len(b) or len(a) < 2:
                problems.append(f"{label} {metric}: {len(a)} and {len(b)} rounds, cannot compare")
                continue
            g, lo, hi, w, l, p, v = paired(a, b)
            med = lambda v: sorted(v)[len(v) // 2]
            print(f"{metric:<10} {label:<6} {med(a):9.1f} {med(b):9.1f} {g:9.3f} "
                  f"  [{lo:6.3f}, {hi:6.3f}] {w:4d} {l:4d} {p:7.3f}  {v}")
            if kind == "pair" and lo > 1.0 and p < 0.05:
                worse.append(f"{metric}: Rust/C {g:.3f} [{lo:.3f}, {hi:.3f}], sign test p={p:.3f}")

    print()
    for side in ("rust", "c"):
        rs = [rounds[("pair", i, side)] for i in range(want_pairs) if ("pair", i, side) in rounds]
        if not rs:
            continue
        print(f"{side:<5} rounds {len(rs)}: largest wait {max(r['other_ms'] for r in rs) / 1000:.1f} s "
              f"(other tasks), {max(r['low_ms'] for r in rs) / 1000:.1f} s (lowest-weight leaf); "
              f"task-rounds waiting over 1 s: {int(sum(r['over1s'] for r in rs))}, "
              f"over 5 s: {int(sum(r['over5s'] for r in rs))}; open waits read "
              f"{int(sum(r['open'] for r in rs))}, unknown (migrated while waiting) "
              f"{int(sum(r['open_unknown'] for r in rs))}")
    for line in re.findall(r"sched_rust: lat_evidence .*", text):
        print("  " + line[len("sched_rust: "):])

    print(f"\nRCU stalls (timeout {STALL_TIMEOUT:.0f} s): {len(stalls)}")
    for t in stalls:
        now, began = where(t), where(t - STALL_TIMEOUT)
        print(f"  at {t:.1f} s: printed during {now or 'no round'}, grace period began during "
              f"{began or 'no round'}")

    for p in problems:
        print(f"FAIL: {p}")
    for w in worse:
        print(f"FAIL: Rust waits significantly longer: {w}")
    ok = not problems and not worse
    print(f"\nlatency: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
