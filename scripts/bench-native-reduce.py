#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-native's reduction of a build's results for the repository:
each side's batches of a rep replaced by their median batch (the statistic
scripts/bench-native-report.py takes, so that the committed file gives the
same figures), gzipped. A run's provenance lists this file among the code it
measured: the committed data are what it wrote.

  scripts/bench-native-reduce.py <results-N.txt> <results-N.txt.gz>
"""
import gzip
import re
import sys


def reduce(src, dst):
    with open(src, errors="replace") as inp, gzip.open(dst, "wt") as out:
        for line in inp:
            m = re.match(r"(sched_rust: raw \d+ \S+ [01] \d+) (.*)", line)
            if m:
                v = sorted(int(x) for x in m[2].split())
                if len(v) % 2 == 0:
                    sys.exit(f"FAIL: {src}: an even number of batches has no median batch")
                line = f"{m[1]} {v[len(v) // 2]}\n"
            out.write(line)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    reduce(sys.argv[1], sys.argv[2])
