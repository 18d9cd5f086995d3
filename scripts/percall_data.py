# SPDX-License-Identifier: GPL-2.0
"""The output of the per-call plugin (evaluation/bench/percall.c) as
scripts/bench-report.py and scripts/bench-scale-report.py read it.

A run of the guest is announced on the console ("sched_rust: pcrun <side>
<workload>") and is one segment of the plugin's records; the last run, "end
end", and what follows it are not measured. percall.log has one summary line
per segment and piece (the calls left out: lost and disturbed), raw/ every
recorded call of segment k and a piece in raw/<k>.<piece>.
"""
import array
import os
import re

import stats

# A raw record: instructions, data lines, instruction lines, L1D misses, L2
# misses, measured calls made inside the call.
RECORD = 6


def pct(sorted_v, p):
    """Nearest-rank percentile of a sorted list."""
    if not sorted_v:
        return 0
    return sorted_v[min(len(sorted_v) - 1, int(p / 100 * len(sorted_v)))]


# A pair_ piece's disturbed call, which the plugin records with every field
# UINT32_MAX to keep its place among the calls.
HOLE = 0xFFFFFFFF


def load(raw_dir, console, log, pieces, ordered=None, routes=None):
    """Returns (runs, records, excluded, problem): the runs as [side, workload],
    records[(piece, workload, side)] the list of each recorded call's RECORD
    fields, excluded[(piece, workload, side)] the calls left out, and problem
    why nothing was loaded (None if it was). With `ordered` (a dict), it also
    gets, per (piece, workload, side) of a pair_ piece, its calls in the order
    they ended, a disturbed one as None. With `routes` (a dict), it also gets,
    per (piece, workload, side), the route word of each recorded call, in the
    order of records (the plugin's <segment>.<piece>.routes; None for a piece
    whose run has no such file)."""
    runs = [l.split()[2:4] for l in console.splitlines() if l.startswith("sched_rust: pcrun ")]
    segs = re.search(r"^percall_segments (\d+)", log, re.M)
    if not runs or runs[-1] != ["end", "end"]:
        return runs, {}, {}, "no complete per-call run (no 'sched_rust: pcrun end end' on the console)"
    if not segs or int(segs.group(1)) != len(runs) + 1:
        return runs, {}, {}, (f"the percall plugin saw {segs.group(1) if segs else 'no'} segments, "
                              f"expected {len(runs) + 1} (one per run and the boot)")
    excluded = {}
    for l in log.splitlines():
        f = l.split()
        if f[:1] == ["percall"] and 1 <= int(f[1]) < len(runs):
            side, wl = runs[int(f[1]) - 1]
            excluded[(f[2], wl, side)] = excluded.get((f[2], wl, side), 0) + int(f[6]) + int(f[8])
    records = {}
    for k, (side, wl) in enumerate(runs[:-1], start=1):
        for piece in pieces:
            path = os.path.join(raw_dir, f"{k}.{piece}")
            if not os.path.exists(path):
                continue
            a = array.array("I")
            with open(path, "rb") as f:
                a.frombytes(f.read())
            recs = [tuple(a[i:i + RECORD]) for i in range(0, len(a), RECORD)]
            holes = [r[0] == HOLE and r[-1] == HOLE for r in recs]
            records.setdefault((piece, wl, side), []).extend(
                r for r, h in zip(recs, holes) if not h)
            if routes is not None:
                words = None
                if os.path.exists(path + ".routes"):
                    w = array.array("I")
                    with open(path + ".routes", "rb") as f:
                        w.frombytes(f.read())
                    if len(w) != len(recs):
                        return runs, {}, {}, (f"{path}.routes has {len(w)} route words for "
                                              f"{len(recs)} records")
                    words = [x for x, h in zip(w, holes) if not h]
                routes.setdefault((piece, wl, side), []).extend(
                    words if words is not None else [None] * sum(not h for h in holes))
            if ordered is not None and piece.startswith("pair_"):
                ordered.setdefault((piece, wl, side), []).extend(
                    None if h else r for r, h in zip(recs, holes))
    return runs, records, excluded, None


def paths(values, share=0.05):
    """The instruction counts that `share` of the calls or more take, sorted:
    a piece's paths, compared like for like where its median moves with the
    mix of paths a run's state gives each side (stats.path_mix() with the
    calls and shares)."""
    return [v for v, _, _ in stats.path_mix(values, share)]


def one_side_only(diff, common, far=100):
    """Of the per-event differences Rust - C of a SEQUENTIAL piece, the
    events whose difference is over `far` instructions from the common one:
    a path one side's call met and the other's did not. Returns (on Rust's,
    on C's, mean size of the path, exact McNemar p that the split is
    chance)."""
    x = [d for d in diff if abs(d - common) > far]
    on_rust, on_c = sum(d > 0 for d in x), sum(d < 0 for d in x)
    return on_rust, on_c, mean([abs(d) for d in x]), stats.discordant_p(on_rust, on_c)


# The shadow check's out-of-line sides (kernel/sched/rust/debug/fair_shadow.c),
# counted as the pair_<piece>_<side> pieces in the runs of side "shadow":
# every live call of a piece runs each side once on the same state.
PAIRS = {"pick": ("c", "rust", "stock"), "llc_enqueue": ("c", "rust"),
         "llc_dequeue": ("c", "rust"), "occupancy": ("c", "rust"),
         "tg_alloc": ("c", "rust"), "tg_free": ("c", "rust")}
PAIR_PIECES = [f"pair_{p}_{s}" for p, sides in PAIRS.items() for s in sides]
# The pieces whose sides one task runs, one event after the other: the k-th
# call of each side is the same event's (the group state's; the picks' and
# the LLC functions' sides run on every CPU at once, in no common order).
SEQUENTIAL = ("tg_alloc", "tg_free")


def pairs(records, excluded, workloads=None, ordered=None):
    """Returns (figures, problems): figures[piece][side] = (instructions of
    every recorded call, sorted; calls left out) over the shadow runs of
    `workloads` (all if None), and what is wrong with them: a side with no
    call, or sides whose calls (recorded and left out) differ by more than
    the calls a segment mark can cut (one per vCPU and mark, at most 1 %).

    With `ordered` (from load()), for a SEQUENTIAL piece whose sides have the
    same number of calls in a run: the k-th calls are one event's, so a call
    left out on one side (an allocation that slept or was interrupted)
    leaves the event out on every side, and figures[piece]["diff"] is the
    sorted list of Rust's instructions minus C's per event. The other
    pieces' sides are never left out (they run under their locks with
    interrupts off): their figures are over the same calls as they are."""
    figures, problems = {}, []
    for piece, sides in PAIRS.items():
        figures[piece] = {}
        keys = sorted({(wl, s) for (p, wl, s) in list(records) + list(excluded)
                       if p.startswith(f"pair_{piece}_") and s == "shadow"
                       and (workloads is None or wl in workloads)})
        ins = {side: [] for side in sides}
        excl = {side: 0 for side in sides}
        diff, paired = [], piece in SEQUENTIAL and ordered is not None
        for wl, s in keys:
            seq = [(ordered or {}).get((f"pair_{piece}_{side}", wl, s)) for side in sides]
            if paired and all(q is not None for q in seq) and len({len(q) for q in seq}) == 1:
                for calls in zip(*seq):
                    if all(c is not None for c in calls):
                        for side, c in zip(sides, calls):
                            ins[side].append(c[0])
                        diff.append(calls[sides.index("rust")][0] - calls[sides.index("c")][0])
                    else:
                        for side in sides:
                            excl[side] += 1
                # The lost calls (never returned on their vCPU): none expected.
                for side, q in zip(sides, seq):
                    excl[side] += excluded.get((f"pair_{piece}_{side}", wl, s), 0) - q.count(None)
                continue
            paired = False
            for side in sides:
                name = f"pair_{piece}_{side}"
                ins[side].extend(r[0] for r in records.get((name, wl, s), []))
                excl[side] += excluded.get((name, wl, s), 0)
        for side in sides:
            figures[piece][side] = (sorted(ins[side]), excl[side])
            if not ins[side]:
                problems.append(f"pair_{piece}_{side}: no call of the shadow check's {side} side of "
                                f"{piece} in the shadow runs")
        if paired and diff:
            figures[piece]["diff"] = sorted(diff)
        n = [len(figures[piece][side][0]) + figures[piece][side][1] for side in sides]
        if min(n) and max(n) - min(n) > max(8, min(n) // 100):
            problems.append(f"pair_{piece}: the sides ran {'/'.join(map(str, n))} times in the shadow "
                            "runs, where each live call runs each side once")
    return figures, problems


def mean(v):
    return sum(v) / len(v) if v else 0
