#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The routes of the measured pieces, found by their source lines in a
kernel's code (make bench-prod's per-call plugin sets a route's bit in the
calls that run it: evaluation/bench/percall.c, "route").

  routes.py <table> <kernel> <source tree> <vmlinux> <function>... > <conf lines>

<table> (evaluation/bench/routes.txt) has one line per decision and code:

  <pieces> <decision> <bit> <kernels> <file> <function> | <source text>

<pieces>: the measured pieces (comma-separated, as make bench-prod's
pieces.txt names them) whose calls the decision is one of: the plugin
sets its bit in their calls only (a dequeue's line that runs inside a
pick marks the dequeue, not the pick);

<kernels>: the kernels (comma-separated) whose code has this source text;
a shape variant of make bench-prod, off+<shape> or gcc-off+<shape> (the
off or gcc-off kernel with evaluation/bench/shapes/<shape>.patch applied
to its fair.c), takes its base kernel's rows, but for the decisions of a
piece that a row names it for (its own rows, where the shape changes the
line that marks the decision);
<file> and <function>: where the text stands (the function's definition
in that file of <source tree>; its name as it is written there, up to its
opening parenthesis); <source text>: a fragment of one line, unique in the
function, whose code runs exactly when the decision is taken. <bit> < 24:
a decision (its bit is set in the calls that run any instruction the line
table gives that line); 24 and up: a count, one per load from memory
among the line's instructions (a mov whose source is memory: for the heap
search's step, its read of ->rb_left, once per node visited, where the
line's tests and branches may be split, duplicated or rotated into
several runs of code). x86_64 only, like bench-prod's routes.

<vmlinux> must have line tables for the objects the routes are in (fair.o
and the sched_rust crate: scripts/build.sh builds them so for bench-prod),
and <function>... are the functions of vmlinux to look in (those of
fair.o and of the crate). Prints one "route <address> <bit> <pieces>" line
per instruction, and on stderr what each route resolved to. Fails (exit 1)
when a route of the kernel resolves to no instruction: the table does not
fit that kernel's code.
"""
import json
import re
import subprocess
import sys


LOAD = re.compile(r"mov\w*\s+(%\w+:)?-?(0x[0-9a-f]+)?\(%")


VARIANT = re.compile(r"^(off|gcc-off)\+[a-z0-9][a-z0-9-]*$")


def base_kernel(kernel):
    """The kernel whose rows a shape variant (off+<shape>, gcc-off+<shape>)
    takes where it has none of its own: off or gcc-off; None for any other
    kernel."""
    return kernel.split("+", 1)[0] if VARIANT.match(kernel) else None


def read_table(path, kernel):
    """The rows of the kernel: (piece, decision, bit, file, function, text,
    line number), and for a shape variant its base kernel's rows of the
    decisions it has no row of its own for, each marked "base": the base
    kernel's name there, else None."""
    own, inherited = [], []
    base = base_kernel(kernel)
    for n, line in enumerate(open(path), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        head, sep, text = line.partition(" | ")
        f = head.split()
        if not sep or len(f) != 6 or not f[2].isdigit() or int(f[2]) > 31:
            sys.exit(f"routes.py: {path}:{n}: not '<piece> <decision> <bit> <kernels> <file> <function> | <text>'")
        piece, decision, bit, kernels, file, fn = f
        row = (piece, decision, int(bit), file, fn, text.strip(), n)
        if kernel in kernels.split(","):
            own.append(row + (None,))
        elif base and base in kernels.split(","):
            inherited.append(row + (base,))
    mine = {(r[0], r[1]) for r in own}
    return sorted(own + [r for r in inherited if (r[0], r[1]) not in mine], key=lambda r: r[6])


def function_span(lines, fn):
    """The lines (0-based, end excluded) of fn's definition: from the line
    that names it followed by "(" and does not end with ";", to the first
    line after it that is "}" at the start; or, for a method of a Rust impl
    block (an indented line "fn <fn>(", after "pub" or "pub(...)" if any,
    not ending with ";" or "}": no declaration, no one-line body), to the
    first line after it that is "}" at that line's indentation (a comment
    after it allowed)."""
    pat = re.compile(r"(^|[^A-Za-z0-9_])" + re.escape(fn) + r"\s*(<[^>]*>)?\s*\(")
    method = re.compile(r"^(\s+)(pub(\([a-z]+\))?\s+)?(unsafe\s+)?fn\s+" + re.escape(fn) + r"\s*(<[^>]*>)?\s*\(")
    spans = []
    for i, l in enumerate(lines):
        m = method.match(l)
        if m and not l.rstrip().endswith((";", "}")):
            end = m.group(1) + "}"
        elif (pat.search(l) and not l.startswith((" ", "\t", "#", "//", " *", "/*"))
              and not l.rstrip().endswith((";", "{}"))):
            end = "}"
        else:
            continue
        for e in range(i + 1, len(lines)):
            if lines[e].startswith("}") if end == "}" else lines[e].split("//")[0].rstrip() == end:
                spans.append((i, e + 1))
                break
    return spans


def source_line(tree, file, fn, text, where):
    lines = open(f"{tree}/{file}").read().split("\n")
    spans = function_span(lines, fn)
    if len(spans) != 1:
        sys.exit(f"routes.py: {where}: {len(spans)} definitions of {fn} in {tree}/{file}, one wanted")
    s, e = spans[0]
    hits = [i for i in range(s, e) if text in lines[i]]
    if len(hits) != 1:
        sys.exit(f"routes.py: {where}: '{text}' is on {len(hits)} lines of {fn} in {file}, one wanted")
    return hits[0] + 1


def line_table(vmlinux, functions):
    """[(address, {(file, line)...}, instruction)] of every instruction of
    the functions, in address order: the source lines of the instruction
    and of every call site it is inlined through (llvm-symbolizer
    --inlining), so that a line stands for the code of what it calls
    inline, too."""
    out = subprocess.run(["llvm-objdump-19", "-d", "--no-show-raw-insn",
                          "--disassemble-symbols=" + ",".join(functions), vmlinux],
                         capture_output=True, text=True, check=True).stdout
    found = re.findall(r"^\s*([0-9a-f]+):\s+(.*)$", out, re.M)
    addrs = [int(a, 16) for a, _ in found]
    text = [t for _, t in found]
    if not addrs:
        return []
    sym = subprocess.run(["llvm-symbolizer-19", "--obj=" + vmlinux, "--inlining", "--output-style=JSON"],
                         input="".join(f"0x{a:x}\n" for a in addrs),
                         capture_output=True, text=True, check=True).stdout
    rows = []
    for a, line, t in zip(addrs, sym.strip().split("\n"), text):
        frames = json.loads(line).get("Symbol", [])
        rows.append((a, {(f["FileName"], f["Line"]) for f in frames if f.get("FileName")}, t))
    return rows


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    table, kernel, tree, vmlinux = sys.argv[1:5]
    rows = read_table(table, kernel)
    if not rows:
        sys.exit(f"routes.py: no route of {kernel} in {table}")
    insns = line_table(vmlinux, sys.argv[5:])
    if not insns:
        sys.exit(f"routes.py: no line table for {' '.join(sys.argv[5:])} in {vmlinux}")
    bad = 0
    for piece, decision, bit, file, fn, text, n, base in rows:
        where = f"{table}:{n}" + (f" ({base}'s row: a row of {kernel}'s own for {piece} {decision}"
                                  " where its shape changes the line)" if base else "")
        ln = source_line(tree, file, fn, text, where)
        mine = [(a, t) for a, where, t in insns if any(f.endswith("/" + file) and l == ln for f, l in where)]
        addrs = [a for a, _ in mine]
        if bit >= 24:
            # A count: the line's loads from memory (AT&T: the source first).
            addrs = [a for a, t in mine if LOAD.match(t)]
        print(f"routes {kernel}: {piece} {decision} (bit {bit}): {file}:{ln} ({fn}), "
              f"{len(addrs)} instruction(s)" + (f" ({base}'s row)" if base else ""), file=sys.stderr)
        if not addrs:
            print(f"routes {kernel}: FAIL: {piece} {decision}: no instruction of {file}:{ln} "
                  f"'{text}' in {' '.join(sys.argv[5:])}", file=sys.stderr)
            bad += 1
        for a in addrs:
            print(f"route {a:x} {bit} {piece}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
