#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The stock pick of the evaluation kernels is 7.3's, mechanically.

The debug option keeps Linux 7.3's vruntime_eligible() and pick_eevdf()
as they were before the series (kernel/sched/rust/debug/fair_debug.c:
vruntime_eligible_stock(), pick_eevdf_stock()): the oracle of the parity
suites and the shadow check, and the third side of the benchmarks. This
script extracts both functions from the pristine fair.c and from the copy,
applies the copy's only edits (the names; entity_eligible(cfs_rq, se)
spelled as the vruntime_eligible_stock() of se->vruntime that it is; the
static qualifiers) to the pristine text, and compares the two without
comments and whitespace. Any other difference fails, with a diff.

  check-stock.py PRISTINE_FAIR_C FAIR_DEBUG_C
"""

import difflib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module  # noqa: E402

definitions = import_module("check-mirrors").definitions

# pristine name -> the copy's
PAIRS = {"vruntime_eligible": "vruntime_eligible_stock", "pick_eevdf": "pick_eevdf_stock"}


def code(text):
    """Tokens of C text without comments: one per line, for a readable diff."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.findall(r"[A-Za-z_]\w*|\d\w*|->|==|!=|>=|<=|&&|\|\||<<|>>|\S", text)


def edit(text):
    """The copy's edits, applied to the pristine definition."""
    text = re.sub(r"\bentity_eligible\(cfs_rq, ([^()]*(?:\([^()]*\))?[^()]*)\)",
                  r"vruntime_eligible_stock(cfs_rq, \1->vruntime)", text)
    for old, new in PAIRS.items():
        text = re.sub(r"\b%s\(" % old, new + "(", text)
    return re.sub(r"^static\s+", "static __maybe_unused ", text, count=1)


def one(defs, name, where):
    if len(defs) != 1:
        sys.exit(f"check-stock: {where}: {len(defs)} definitions of {name}, expected 1")
    return defs[0]


def main():
    pristine, copy = open(sys.argv[1]).read(), open(sys.argv[2]).read()
    bad = 0
    for old, new in PAIRS.items():
        want = code(edit(one(definitions(pristine, old), old, sys.argv[1])))
        have = code(one(definitions(copy, new), new, sys.argv[2]))
        if want != have:
            bad += 1
            print(f"check-stock: {new}() is not 7.3's {old}() (pristine, with the copy's edits applied):")
            for line in difflib.unified_diff(want, have, "pristine", "copy", lineterm="", n=4):
                print("  " + line)
    if bad:
        print("check-stock: update the copy in kernel/sched/rust/debug/fair_debug.c from the pristine fair.c")
        return 1
    print(f"check-stock: {len(PAIRS)} functions identical to 7.3's (tokens, without comments)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
