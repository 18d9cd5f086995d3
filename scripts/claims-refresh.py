#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""After a rerun: the source's new figures into the documents.

    scripts/claims-refresh.py <repository> <source>

For every claim of evaluation/bench/claims/ tied to <source> (a name its
"source" lines give) whose figure no longer holds its key's value, writes
the value in the figure's form (its decimals, thousands separators and
percent sign) where the claim's anchor holds it, then the claim's figure
and anchor, and the anchors of other claims that held the old figure.
Prints each change, and what it leaves to be done by hand: a figure of a
form it cannot write, an anchor not found once, a figure not found once in
its anchor. It changes figures, not the sentences around them: read the
diff before committing, as a sentence that compared two figures may no
longer hold (make check-claims checks the figures, not the words).
"""
import importlib.util
import os
import re
import sys

repo, src = sys.argv[1:3]
spec = importlib.util.spec_from_file_location("cc", os.path.join(repo, "scripts/check-claims.py"))
cc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc)
cdir = os.path.join(repo, "evaluation/bench/claims")
srcdir = None
for f in os.listdir(cdir):
    for line in open(os.path.join(cdir, f)):
        m = re.match(r"^source (\S+) (\S+)$", line.strip())
        if m and m[1] == src:
            srcdir = m[2]
fig = {}
for line in open(os.path.join(repo, srcdir, "figures.tsv")):
    if "\t" in line:
        k, v = line.rstrip("\n").split("\t", 1)
        fig[k] = v


def value(key):
    m = re.fullmatch(r"(min|max|count)\((.+)\)", key)
    if not m:
        return fig.get(key)
    import fnmatch
    keys = [k for k in fig if fnmatch.fnmatchcase(k, m[2])]
    if not keys:
        return None
    if m[1] == "count":
        return str(len(keys))
    vals = [float(fig[k]) for k in keys]
    return repr(min(vals) if m[1] == "min" else max(vals))


def render(figure, v):
    f, dec = cc.number(figure)
    if f is None:
        return v if re.fullmatch(r"[A-Za-z -]+", v or "") else None
    x, _ = cc.number(v)
    if x is None:
        return None
    if figure.strip().endswith("%") and "%" not in v and abs(x) <= 1:
        x *= 100
    s = f"{x:.{dec}f}"
    if "," in figure:
        ip, _, fp = s.partition(".")
        s = f"{int(ip):,}" + ("." + fp if fp else "")
    if figure.strip().endswith("%"):
        s += "%" if figure.strip().endswith("%") and not figure.strip().endswith(" %") else " %"
    return s


def pattern(anchor):
    return r"\s+".join(re.escape(w) for w in anchor.split())


changed = problems = 0
subs = {}
renamed = {}   # (document, anchor) -> the anchor a change rewrote it to
for cf in sorted(os.listdir(cdir)):
    path = os.path.join(cdir, cf)
    lines = open(path).read().split("\n")
    for n, line in enumerate(lines):
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) != 4 or not parts[3].startswith(src + ":"):
            continue
        doc, figure, anchor, key = parts
        # An anchor an earlier claim rewrote (several figures in one anchor).
        while (doc, anchor) in renamed:
            anchor = renamed[(doc, anchor)]
        if anchor != parts[2]:
            lines[n] = f"{doc} | {figure} | {anchor} | {key}"
        key = key.split(":", 1)[1]
        v = value(key)
        if v is None or cc.holds(figure, v):
            continue
        new = render(figure, v)
        if new is None:
            print(f"MANUAL {cf}:{n + 1}: {figure} -> {v} ({key})")
            problems += 1
            continue
        dpath = os.path.join(repo, doc)
        text = open(dpath).read()
        ms = list(re.finditer(pattern(anchor), text))
        if len(ms) != 1:
            print(f"MANUAL {cf}:{n + 1}: anchor found {len(ms)} times: {anchor}")
            problems += 1
            continue
        span = ms[0]
        seg = text[span.start():span.end()]
        occ = [o for o in re.finditer(r"(?<![\d.])" + re.escape(figure) + r"(?![\d]|\.\d)", seg)]
        if len(occ) != 1:
            print(f"MANUAL {cf}:{n + 1}: {figure} found {len(occ)} times in its anchor: {anchor}")
            problems += 1
            continue
        o = occ[0]
        seg2 = seg[:o.start()] + new + seg[o.end():]
        text = text[:span.start()] + seg2 + text[span.end():]
        open(dpath, "w").write(text)
        a2 = " ".join(seg2.split())
        lines[n] = f"{doc} | {new} | {a2} | {src}:{key}"
        renamed[(doc, anchor)] = a2
        subs.setdefault(doc, []).append((figure, new))
        print(f"{doc}: {figure} -> {new} ({key})")
        changed += 1
    open(path, "w").write("\n".join(lines))
# Claims whose anchors held a figure that changed: the same substitutions.
for cf in sorted(os.listdir(cdir)):
    path = os.path.join(cdir, cf)
    lines = open(path).read().split("\n")
    for n, line in enumerate(lines):
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) != 4 or parts[0] not in subs:
            continue
        text = open(os.path.join(repo, parts[0])).read()
        if re.search(pattern(parts[2]), text):
            continue
        a = parts[2]
        for old, new in subs[parts[0]]:
            if re.search(r"(?<![\d.])" + re.escape(old) + r"(?![\d]|\.\d)", a):
                a = re.sub(r"(?<![\d.])" + re.escape(old) + r"(?![\d]|\.\d)", new, a, count=1)
                if re.search(pattern(a), text):
                    break
        if re.search(pattern(a), text):
            parts[2] = a
            lines[n] = " | ".join(parts)
        else:
            print(f"MANUAL {cf}:{n + 1}: anchor lost: {parts[2]}")
            problems += 1
    open(path, "w").write("\n".join(lines))
print(f"refresh: {changed} figures changed, {problems} to do by hand")
