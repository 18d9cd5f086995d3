# SPDX-License-Identifier: GPL-2.0
"""The statistics of every report, on scipy.stats (Debian's python3-scipy,
which scripts/setup.sh installs; run the reports with /usr/bin/python3).

No report computes an interval or a p-value itself: it calls this module.

- Continuous paired samples (wall times, usages, shares, the rounds'
  largest waits): a t interval of the mean difference, or of the ratio
  (the geometric mean of the paired ratios: a t interval of the mean log
  ratio), with n - 1 degrees of freedom, never z = 1.96.
- A claim of no difference is an equivalence test (TOST, two one-sided
  t-tests at ALPHA, i.e. the 1 - 2 ALPHA interval inside the margin)
  against a margin stated in advance (MARGIN, below): "equivalent",
  "different" (the two-sided test rejects no difference and the interval
  is not inside the margin) or "inconclusive: the test could not detect
  less than X", X the smallest margin the data could have shown
  equivalent at ALPHA.
- The bootstrap only for continuous data (it refuses samples that ties
  dominate).
- Discrete instruction counts get no interval: a piece's calls take a few
  paths, each with its own count, and a median or an interval says which
  path a statistic fell on, not how uncertain it is. Their figure is the
  path mix (which counts, how often, per side); a path met on one side
  only, in calls paired on the same state, is tested as chance by the
  exact McNemar test (the binomial test of the discordant pairs).
"""
import math

import numpy as np
from scipy import stats

ALPHA = 0.05

# The equivalence margins, stated before the runs, in one place.
MARGIN = {
    # make bench-latency: Rust/C of the rounds' largest waits (a ratio). 5 %: a
    # wait that much longer is the smallest a scheduler user would notice
    # among waits of seconds under TCG; the C/C control shows how far the
    # run's noise is from it.
    "latency": 0.05,
    # Wall-time figures of the workloads (make bench, make bench-prod):
    # Rust/C of the figure. 2 %: the size of difference a scheduler change
    # is asked about on such workloads (hackbench, pipe, perf bench).
    "workload": 0.02,
    # make bench-weights: Rust - C of l0 / (l1 + l2), in the share's own units
    # (C measures about 0.72). 0.05: a third of test_cpu's 15 % tolerance,
    # a difference that cannot move its verdict much.
    "weights": 0.05,
    # make bench-cpumax: Rust - C of usage / expected (about 1.2 on both sides).
    # 0.05: half of test_cpu's 10 % tolerance.
    "cpumax": 0.05,
    # make bench-prod: per-call means of instructions, =y/=n per set of
    # boots. 1 %: the size of difference the series claims it does not
    # add (a few instructions in hundreds).
    "call": 0.01,
    # make bench-native: Rust/C of the nanoseconds per call on the host CPU,
    # the same state on both sides. 2 %: the bound the native comparison is
    # asked to stay under (make bench-native); timing a call of 2-50 ns closer than
    # that needs more reps than a host's frequency steps allow.
    "native": 0.02,
}


class Interval:
    """An estimate with its interval: `est`, `lo`, `hi`, `n` pairs or
    values, `df` degrees of freedom, `conf` the confidence."""

    def __init__(self, est, lo, hi, n, df, conf):
        self.est, self.lo, self.hi, self.n, self.df, self.conf = est, lo, hi, n, df, conf


def _t_interval(v, conf):
    n = len(v)
    m = float(np.mean(v))
    if n < 2:
        return m, -math.inf, math.inf
    sem = float(stats.sem(v))
    if sem == 0:
        return m, m, m
    lo, hi = stats.t.interval(conf, n - 1, loc=m, scale=sem)
    return m, float(lo), float(hi)


def t_interval(values, conf=1 - ALPHA):
    """The mean of `values` with its t interval (n - 1 degrees of freedom)."""
    m, lo, hi = _t_interval(list(values), conf)
    return Interval(m, lo, hi, len(values), len(values) - 1, conf)


def paired_difference(a, b, conf=1 - ALPHA):
    """Mean of a[i] - b[i] with its paired t interval."""
    d = [x - y for x, y in zip(a, b)]
    m, lo, hi = _t_interval(d, conf)
    return Interval(m, lo, hi, len(d), len(d) - 1, conf)


def log_ratios(a, b, floor=0.0):
    """log(a[i] / b[i]), each value at least `floor` (a wait of 0 as 1 ms)."""
    return [math.log(max(x, floor) / max(y, floor)) for x, y in zip(a, b)]


def paired_ratio(a, b, conf=1 - ALPHA, floor=0.0):
    """Geometric mean of a[i] / b[i] with its paired t interval (on the
    log ratios, back-transformed)."""
    m, lo, hi = _t_interval(log_ratios(a, b, floor), conf)
    return Interval(math.exp(m), math.exp(lo), math.exp(hi), len(a), len(a) - 1, conf)


class Verdict:
    """A TOST's outcome: `kind` ("equivalent", "different", "inconclusive"),
    `text` (what the reports print), `detect` (the smallest margin the data
    could have shown equivalent at ALPHA), `p` (the two-sided test of no
    difference) and `lo`, `hi` (the 1 - 2 ALPHA interval)."""

    def __init__(self, kind, text, detect, p, lo, hi):
        self.kind, self.text, self.detect, self.p, self.lo, self.hi = kind, text, detect, p, lo, hi

    def __str__(self):
        return self.text


def _tost(v, low, high, shown):
    """TOST of the mean of `v` inside (low, high); `shown(x)` maps a bound
    on v's scale to the reported one (a ratio's distance from 1)."""
    n = len(v)
    if n < 2:
        return Verdict("inconclusive", f"inconclusive: {n} pair(s), no test", math.inf, 1.0, -math.inf, math.inf)
    m, lo, hi = _t_interval(v, 1 - 2 * ALPHA)
    if lo == hi:   # no spread: the one value is the difference
        p = 0.0 if m != 0 else 1.0
    else:
        p = float(stats.ttest_1samp(v, 0.0).pvalue)
    detect = max(shown(hi), shown(lo))
    if low < lo and hi < high:
        # The same as both one-sided tests rejecting at ALPHA.
        return Verdict("equivalent", "equivalent", detect, p, lo, hi)
    if p < ALPHA:
        return Verdict("different", f"different ({fmt_p(p)})", detect, p, lo, hi)
    return Verdict("inconclusive", "inconclusive", detect, p, lo, hi)


def tost_difference(a, b, margin, fmt="{:.3f}"):
    """TOST of the paired differences a[i] - b[i] within +-margin (the
    margin in the data's units)."""
    v = _tost([x - y for x, y in zip(a, b)], -margin, margin, abs)
    v.margin = fmt.format(margin)
    if v.kind == "equivalent":
        v.text = f"equivalent within +-{v.margin}"
    elif v.kind == "inconclusive" and v.detect != math.inf:
        v.text = f"inconclusive: the test could not detect less than {fmt.format(v.detect)}"
    return v


def tost_ratio(a, b, margin, floor=0.0):
    """TOST of the paired ratios a[i] / b[i] (their geometric mean) within
    1 +- margin; `detect` is a fraction (0.073 for 7.3 %)."""
    v = _tost(log_ratios(a, b, floor), math.log(1 - margin), math.log(1 + margin),
              lambda x: abs(math.exp(x) - 1))
    v.margin = f"{margin:.0%}"
    if v.kind == "equivalent":
        v.text = f"equivalent within +-{v.margin}"
    elif v.kind == "inconclusive" and v.detect != math.inf:
        v.text = f"inconclusive: the test could not detect less than {v.detect:.1%}"
    return v


def tost_welch(a, b, margin):
    """TOST of mean(b) / mean(a) within 1 +- margin for two independent
    samples (Welch's t, the difference over mean(a)): for figures that
    are not paired. `est` is mean(b) / mean(a); `lo`, `hi` the 1 - 2 ALPHA
    interval of the relative difference."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if len(a) < 2 or len(b) < 2:
        return None
    ma, mb = a.mean(), b.mean()
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    se = math.sqrt(va + vb)
    if se == 0:
        d = mb / ma - 1
        v = Verdict("equivalent" if abs(d) < margin else "different", "", abs(d), 0.0 if d else 1.0, d, d)
    else:
        df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
        half = float(stats.t.ppf(1 - ALPHA, df)) * se
        lo, hi = (mb - ma - half) / ma, (mb - ma + half) / ma
        p = float(stats.ttest_ind(b, a, equal_var=False).pvalue)
        detect = max(abs(lo), abs(hi))
        kind = ("equivalent" if -margin < lo and hi < margin else "different" if p < ALPHA else "inconclusive")
        v = Verdict(kind, "", detect, p, lo, hi)
    v.est, v.margin = mb / ma, f"{margin:.0%}"
    v.text = {"equivalent": f"equivalent within +-{v.margin}", "different": f"different ({fmt_p(v.p)})",
              "inconclusive": f"inconclusive: the test could not detect less than {v.detect:.1%}"}[v.kind]
    return v


def fmt_p(p):
    """A p-value as the reports print it."""
    return "p<0.001" if p < 0.001 else f"p={p:.3f}"


def sign_test(wins, losses):
    """Two-sided exact binomial p of wins against losses (ties dropped)."""
    n = wins + losses
    return float(stats.binomtest(wins, n, 0.5).pvalue) if n else 1.0


def discordant_p(only_a, only_b):
    """Exact McNemar test: of the paired events in which something happened
    on one side only, `only_a` on a's and `only_b` on b's; the two-sided p
    that a split at least as uneven arises by chance if either side is as
    likely to meet it."""
    return sign_test(only_a, only_b)


def rate_interval(yes, n, conf=1 - ALPHA):
    """How many of n runs did something: the rate with its exact
    (Clopper-Pearson) interval."""
    ci = stats.binomtest(yes, n).proportion_ci(confidence_level=conf)
    return Interval(yes / n, float(ci.low), float(ci.high), n, None, conf)


def rates_p(yes_a, n_a, yes_b, n_b):
    """Two independent rates (how many of a side's runs did something):
    the two-sided p of Fisher's exact test that both sides do it as often."""
    table = [[yes_a, n_a - yes_a], [yes_b, n_b - yes_b]]
    return float(stats.fisher_exact(table).pvalue) if n_a and n_b else 1.0


def fisher_power(n_a, p_a, n_b, p_b, alpha=ALPHA):
    """The exact power of rates_p()'s test at `alpha` when a's runs succeed
    with probability p_a and b's with p_b (every outcome enumerated)."""
    pa = stats.binom.pmf(range(n_a + 1), n_a, p_a)
    pb = stats.binom.pmf(range(n_b + 1), n_b, p_b)
    return float(sum(pa[x] * pb[y] for x in range(n_a + 1) for y in range(n_b + 1)
                     if rates_p(x, n_a, y, n_b) < alpha))


def detectable_rate(n, p_ref, power=0.8, alpha=ALPHA):
    """What n runs per side can detect: the largest rate, in steps of 0.01
    below p_ref, that rates_p() tells from p_ref with the given power, or
    None when even a rate of 0 is not detected so."""
    for k in range(round(p_ref * 100) - 1, -1, -1):
        if fisher_power(n, p_ref, n, k / 100, alpha) >= power:
            return k / 100
    return None


def rank_p(a, b):
    """Two independent samples (times of runs, not paired): the two-sided p
    of the Mann-Whitney U test that neither side's values tend to be larger."""
    if not a or not b:
        return 1.0
    return float(stats.mannwhitneyu(a, b, alternative="two-sided").pvalue)


def _continuous(v):
    # Ties dominate a sample of few distinct values: a discrete one.
    return len(set(v)) * 2 > len(v)


def bootstrap_ratio_of_medians(a, b, conf=1 - ALPHA, resamples=10000, seed=20261124):
    """median(b) / median(a) with its percentile bootstrap interval, each
    sample resampled on its own (scipy.stats.bootstrap). Continuous data
    only: a sample of few distinct values raises ValueError."""
    if not (_continuous(a) and _continuous(b)):
        raise ValueError("bootstrap of discrete data: use path_mix()")

    def ratio(x, y, axis=-1):
        return np.median(y, axis=axis) / np.median(x, axis=axis)

    res = stats.bootstrap((np.asarray(a, float), np.asarray(b, float)), ratio, vectorized=True,
                          paired=False, confidence_level=conf, n_resamples=resamples,
                          method="percentile", random_state=np.random.default_rng(seed))
    est = float(ratio(np.asarray(a, float), np.asarray(b, float)))
    return Interval(est, float(res.confidence_interval.low), float(res.confidence_interval.high),
                    min(len(a), len(b)), None, conf)


def path_mix(values, share=0.05):
    """A discrete sample's paths: [(value, calls, fraction)] for the values
    that `share` of the calls or more take, sorted by value."""
    n = len(values)
    count = {}
    for v in values:
        count[v] = count.get(v, 0) + 1
    return sorted((v, k, k / n) for v, k in count.items() if k >= share * n)


def format_mix(mix):
    """A path mix as the reports print it: "721 63%, 761 5%"."""
    return ", ".join(f"{v} {100 * f:.0f}%" for v, _, f in mix)
