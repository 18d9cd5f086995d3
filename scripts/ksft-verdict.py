#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The verdict on a boot's kselftests: the runner's KTAP, as kunit.py parse
read it (its --json output), held against the tests the boot's mode runs.

Usage: ksft-verdict.py <mode> <ksft.json> <kernel .config> <cpus> <tests>

<mode>: the boot's (prod-short: make test's short production boot,
sched_rust.short=1); <cpus>: the CPUs QEMU was given; <tests>: the guest's
"sched_rust: ksft_tests" line (the tests /init gave the runner, in order).

Prints one problem per line and exits 1 when there is one, 0 when there is
none, 2 when the input cannot be read. A problem is:
- the guest ran other tests than the mode's, or the KTAP lacks one of them
  or holds one twice;
- a test or case that failed, crashed, or whose KTAP has an error (kunit.py
  counts a plan that does not match the cases reported as one: lost output
  is not a pass);
- a skip the kernel's configuration or the machine does not explain: each
  test's allowed skips are listed below (SKIPS), by what the kernel lacks;
  on the debug kernel, which has every option, none applies;
- a test with no case at all.
"""
import json
import re
import sys

# The tests of each mode, in the order /init runs them (tests/boot/init).
TESTS = {
    "test": "switch.sh cgroup_tree.sh group_churn.sh llc_occupancy.sh cgroup_test_cpu.sh "
            "stress.sh kernel_suites.sh workloads.sh cross_checks.sh kmemleak.sh",
    "prod": "switch.sh cgroup_tree.sh group_churn.sh llc_occupancy.sh hotplug.sh workloads.sh "
            "kernel_suites.sh cgroup_test_cpu.sh cross_checks.sh kmemleak.sh",
    "prod-short": "switch.sh cgroup_tree.sh group_churn.sh llc_occupancy.sh hotplug.sh "
                  "workloads.sh kernel_suites.sh cross_checks.sh kmemleak.sh",
    "stress": "stress.sh kernel_suites.sh workloads.sh cross_checks.sh kmemleak.sh",
    "selftests": "kernel_suites.sh",
    "prodbench": "cgroup_test_cpu.sh kernel_suites.sh",
}

# Allowed skips: (test, a pattern of the case's name or None for the whole
# test, the condition under which it may skip, why). The condition reads the
# kernel's options (cfg) and the machine (cpus). Every other skip is a
# problem.
SKIPS = [
    ("switch.sh", None, lambda c, n: not c("SCHED_RUST_CFS_DEBUG"), "no runtime switch without the debug option"),
    ("switch.sh", r".", lambda c, n: not c("SCHED_RUST_CFS_DEBUG"), "no runtime switch without the debug option"),
    ("cross_checks.sh", r".", lambda c, n: not c("SCHED_RUST_CFS_SHADOW"), "no shadow checks without CONFIG_SCHED_RUST_CFS_SHADOW"),
    ("cross_checks.sh", r"^llc_", lambda c, n: not c("SCHED_CACHE"), "no LLC checks without CONFIG_SCHED_CACHE"),
    ("llc_occupancy.sh", r".", lambda c, n: not c("SCHED_CACHE"), "no LLC piece without CONFIG_SCHED_CACHE"),
    ("llc_occupancy.sh", r"preferred LLC|counters back to 0", lambda c, n: not c("SCHED_RUST_CFS_DEBUG"),
     "the LLC state is a file of the debug option"),
    ("kmemleak.sh", None, lambda c, n: not c("DEBUG_KMEMLEAK"), "no kmemleak"),
    ("kmemleak.sh", r".", lambda c, n: not c("DEBUG_KMEMLEAK"), "no kmemleak"),
    ("kernel_suites.sh", r"^\w+: test_cpuset_prs ", lambda c, n: n < 8, "test_cpuset_prs.sh needs 8 CPUs"),
    ("workloads.sh", r"route statistics", lambda c, n: not c("SCHED_RUST_CFS_STATS"),
     "the route statistics are a file of CONFIG_SCHED_RUST_CFS_STATS"),
    ("hotplug.sh", r".", lambda c, n: n < 2 or not c("HOTPLUG_CPU"), "no second CPU to take offline"),
    ("cgroup_test_cpu.sh", r".", lambda c, n: not c("FAIR_GROUP_SCHED"), "no group state without CONFIG_FAIR_GROUP_SCHED"),
    ("stress.sh", r"^op hotplug ran|^every CPU back online", lambda c, n: not c("HOTPLUG_CPU") or n < 2,
     "no CPU hotplug, or one CPU"),
    ("stress.sh", r"^op partition ran", lambda c, n: not c("CPUSETS") or n < 2, "no cpusets, or one CPU"),
    ("stress.sh", r"^op flip_", lambda c, n: not c("SCHED_RUST_CFS_DEBUG"), "no runtime switch without the debug option"),
    ("stress.sh", r"^op flip_tg_state", lambda c, n: not c("FAIR_GROUP_SCHED"), "no group state without CONFIG_FAIR_GROUP_SCHED"),
    ("stress.sh", r"^op flip_llc", lambda c, n: not c("SCHED_CACHE"), "no LLC piece without CONFIG_SCHED_CACHE"),
    ("stress.sh", r"^\w+: fail-nth",
     lambda c, n: not all(c(o) for o in ("FAULT_INJECTION", "FAILSLAB", "FAIL_PAGE_ALLOC", "FAULT_INJECTION_DEBUG_FS")),
     "no fail-nth fault injection"),
    ("stress.sh", r"fail-nth: slab grew", lambda c, n: c("KASAN"), "KASAN's quarantine keeps freed objects: kmemleak judges"),
    ("stress.sh", r"^the LLC counters back to 0", lambda c, n: not c("SCHED_RUST_CFS_DEBUG") or not c("SCHED_CACHE"),
     "llc_state is a file of the debug option"),
    ("kernel_suites.sh", r"^\w+: cpu-on-off-test ", lambda c, n: not c("HOTPLUG_CPU") or n < 2, "no CPU hotplug, or one CPU"),
    ("kernel_suites.sh", r"^\w+: test_core |as many cases as their plans", lambda c, n: not c("MEMCG"),
     "test_core needs the memory controller"),
    ("kernel_suites.sh", r"^\w+: test_stress ", lambda c, n: not c("MEMCG") or not c("CPUSETS"), "test_stress.sh needs memcg and cpusets"),
    ("kernel_suites.sh", r"^\w+: test_cpuset_prs ", lambda c, n: not c("CPUSETS"), "no cpusets"),
]


def config(path):
    opts = set()
    with open(path) as f:
        for line in f:
            m = re.match(r"^CONFIG_(\w+)=[ym]$", line)
            if m:
                opts.add(m.group(1))
    return lambda name: name in opts


def allowed(test, case, cfg, cpus):
    for t, pat, cond, why in SKIPS:
        if t != test or not cond(cfg, cpus):
            continue
        if (pat is None and case is None) or (pat is not None and case is not None and re.search(pat, case)):
            return why
    return None


def verdict(mode, data, cfg, cpus, ran):
    problems = []
    want = TESTS[mode].split()
    if ran != want:
        problems.append(f"the guest ran the tests '{' '.join(ran)}', the {mode} mode's are '{' '.join(want)}'")
    top = data.get("sub_groups", []) + [dict(name=c["name"], status=c["status"], whole=True)
                                        for c in data.get("test_cases", [])]
    seen = {}
    for g in top:
        m = re.match(r"^selftests: sched_rust: (\S+)$", g["name"])
        if not m:
            problems.append(f"a test of the KTAP that is not this collection's: '{g['name']}'")
            continue
        seen.setdefault(m.group(1), []).append(g)
    for t in want:
        n = len(seen.get(t, []))
        if n != 1:
            problems.append(f"{t}: {n} results in the runner's KTAP, expected 1")
    for t, gs in seen.items():
        if t not in want:
            problems.append(f"{t}: in the runner's KTAP, not a test of the {mode} mode")
        for g in gs:
            if g.get("whole"):
                # A test with no case of its own: skipped whole, or failed
                # before its plan.
                if g["status"] == "SKIP":
                    if not allowed(t, None, cfg, cpus):
                        problems.append(f"{t}: skipped whole, which this kernel and machine do not explain")
                else:
                    problems.append(f"{t}: {g['status']} without a single case")
                continue
            misc = g.get("misc", {})
            for k in ("failed", "crashed", "errors"):
                if misc.get(k):
                    problems.append(f"{t}: {k} {misc[k]} (kunit.py's count)")
            cases = g.get("test_cases", [])
            if not cases:
                problems.append(f"{t}: no case")
            for c in cases:
                if c["status"] == "SKIP":
                    if not allowed(t, c["name"], cfg, cpus):
                        problems.append(f"{t}: case skipped, which this kernel and machine do not explain: {c['name']}")
                elif c["status"] != "PASS":
                    problems.append(f"{t}: {c['status']}: {c['name']}")
            for s in g.get("sub_groups", []):
                problems.append(f"{t}: a nested test in the KTAP, where its cases were expected: {s['name']}")
    return problems


def main():
    a = sys.argv[1:]
    if len(a) != 5 or a[0] not in TESTS:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    mode, js, cfgpath, cpus, ran = a
    try:
        with open(js) as f:
            data = json.load(f)
        cfg = config(cfgpath)
        cpus = int(cpus)
    except (OSError, ValueError) as e:
        print(f"ksft-verdict: {e}", file=sys.stderr)
        return 2
    problems = verdict(mode, data, cfg, cpus, ran.split())
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
