# SPDX-License-Identifier: GPL-2.0
"""make kunit-spec's figures: sched_rust_spec's own lines, one log per
arithmetic (int128.log: the 128-bit product of x86_64 and arm64;
mul_overflow.log: check_mul_overflow(), UML's x86_64 as it ships), read into
"key<TAB>value" lines (figures.tsv) and a report.

    kunit-spec-report.py [--figures <figures.tsv>] <dir>

Keys, per arithmetic A: A.scope (the scope the log says it ran), A.arith
(the eligibility arithmetic it names), A.states, A.runqueues, A.queries,
A.ms, A.distinct_states, A.distinct_trees, A.pick_states, A.pick_trees;
A.scope.<name>.{states,distinct,trees,pick,pick_trees,sets}; per class C
(in_domain, term_beyond, sum_beyond) A.C.{states,pick_bad,elig_bad,
parity_bad,null_picks,tree_bad}; A.mul_overflow, A.approx_states,
A.warn_missed, A.ineligible, A.ineligible_bad, A.prop.<P>, A.prop_bad;
A.llc.{sequences,steps,prefixes}, A.decay.{updates,fractions,far}; and
A.test.<case> = ok or not ok, A.tests_ok = the cases that passed of those
run. A log without its summary lines fails (exit 1): a run that stopped
early is not a run.
"""

import re
import sys

ARITHS = ("int128", "mul_overflow")
CLASSES = {"in the domain": "in_domain", "a term beyond 2^62": "term_beyond",
           "the sum beyond s64": "sum_beyond"}


def parse(text, a):
    f = {}
    m = re.search(r"exhaustive_test: (\w+) scope \(sched_rust_spec_full=\d\), PICK_BUDDY \d, "
                  r"eligibility by (.*)$", text, re.M)
    if m:
        f[f"{a}.scope"] = m[1]
        f[f"{a}.arith"] = m[2]
    for m in re.finditer(r"scope (\w+): up to \d+ entities, (\d+) states; distinct: (\d+) \((\d+) trees\), "
                         r"as the pick sees them \(slices and colours aside\) (\d+) \((\d+) trees\); "
                         r"(\d+) sets of entities", text):
        for k, v in zip(("states", "distinct", "trees", "pick", "pick_trees", "sets"), m.groups()[1:]):
            f[f"{a}.scope.{m[1]}.{k}"] = v
    m = re.search(r"exhaustive_test: (\d+) states \((\d+) runqueues built, (\d+) eligibility queries\) "
                  r"in (\d+) ms; distinct: (\d+) states on (\d+) trees, as the pick sees them (\d+) on (\d+)",
                  text)
    if m:
        for k, v in zip(("states", "runqueues", "queries", "ms", "distinct_states", "distinct_trees",
                         "pick_states", "pick_trees"), m.groups()):
            f[f"{a}.{k}"] = v
    for name, key in CLASSES.items():
        m = re.search(re.escape(name) + r": (\d+) states; spec disagreements: (\d+) picks, (\d+) eligibility; "
                      r"implementations differ: (\d+); NULL picks: (\d+); tree: (\d+)", text)
        if m:
            for k, v in zip(("states", "pick_bad", "elig_bad", "parity_bad", "null_picks", "tree_bad"),
                            m.groups()):
                f[f"{a}.{key}.{k}"] = v
    for pat, key in ((r"beyond s64 \(check_mul_overflow\(\) without int128\): (\d+) queries", "mul_overflow"),
                     (r"sum_shift > 0: (\d+) states", "approx_states"),
                     (r"WARN misses: (\d+)", "warn_missed"),
                     (r"ineligible_vruntime\(\): (\d+) states", "ineligible"),
                     (r"ineligible_vruntime\(\): \d+ states, (\d+) not the spec's", "ineligible_bad"),
                     (r"picks that break a property: (\d+)", "prop_bad")):
        m = re.search(pat, text)
        if m:
            f[f"{a}.{key}"] = m[1]
    for m in re.finditer(r"property (\w+) \(.*\): applied to (\d+) picks", text):
        f[f"{a}.prop.{m[1]}"] = m[2]
    m = re.search(r"llc_test: (\d+) sequences, (\d+) steps checked \((\d+) distinct prefixes\)", text)
    if m:
        for k, v in zip(("sequences", "steps", "prefixes"), m.groups()):
            f[f"{a}.llc.{k}"] = v
    m = re.search(r"decay_test: (\d+) updates checked in \d+ ms \((\d+) fractions\), (\d+) after", text)
    if m:
        for k, v in zip(("updates", "fractions", "far"), m.groups()):
            f[f"{a}.decay.{k}"] = v
    cases = re.findall(r"^\s*(ok|not ok) \d+ (sched_rust_spec_\w+)", text, re.M)
    for verdict, case in cases:
        f[f"{a}.test.{case[len('sched_rust_spec_'):]}"] = verdict
    f[f"{a}.tests_ok"] = f"{sum(v == 'ok' for v, _ in cases)} of {len(cases)}"
    return f


def main(argv):
    out = None
    if argv[:1] == ["--figures"]:
        out, argv = argv[1], argv[2:]
    if len(argv) != 1:
        sys.exit(__doc__)
    d = argv[0]
    figs, missing = {}, []
    for a in ARITHS:
        try:
            text = open(f"{d}/{a}.log").read()
        except OSError:
            missing.append(f"{a}.log: absent")
            continue
        f = parse(text, a)
        for need in ("states", "distinct_states", "in_domain.states", "llc.steps", "decay.updates"):
            if f"{a}.{need}" not in f:
                missing.append(f"{a}.log: no {need}")
        # The arithmetic the log names is the one its name says.
        said = f.get(f"{a}.arith", "")
        if ("int128)" in said and "no int128" not in said) != (a == "int128"):
            missing.append(f"{a}.log: the run's eligibility arithmetic is {said or 'not named'}")
        figs.update(f)
    with open(out, "w") if out else sys.stdout as fh:
        for k, v in figs.items():
            print(f"{k}\t{v}", file=fh)
    if not out:
        return 1 if missing else 0
    for a in ARITHS:
        if f"{a}.states" not in figs:
            continue
        print(f"{a} ({figs.get(a + '.arith', '?')}), {figs.get(a + '.scope', '?')} scope: "
              f"{figs[a + '.states']} states in {figs[a + '.ms']} ms, {figs[a + '.distinct_states']} distinct "
              f"({figs[a + '.pick_states']} as the pick sees them); tests {figs[a + '.tests_ok']}")
        for c in CLASSES.values():
            if f"{a}.{c}.states" in figs:
                print(f"  {c}: {figs[f'{a}.{c}.states']} states, disagreements {figs[f'{a}.{c}.pick_bad']} picks "
                      f"{figs[f'{a}.{c}.elig_bad']} eligibility, implementations differ {figs[f'{a}.{c}.parity_bad']}")
    for m in missing:
        print(f"FAIL: {m}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
