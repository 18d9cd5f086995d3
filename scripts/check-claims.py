# SPDX-License-Identifier: GPL-2.0
"""make check-claims: every figure the documents quote, against the result it
comes from.

The files of evaluation/bench/claims/ name the sources (result directories), the
documents and, for every figure a document quotes, where it comes from:

    source <name> <directory>
    document <path>
    version <token>         a token that is a version wherever it stands (7.3)
    recompute <name> <command>
    analysis <name> <path>...
    <document> | <figure> | <anchor> | <name>:<key>
    <document> | <figure> | <anchor> | in <path>: <text of that file>
    <document> | <figure> | <anchor> | const: <why it is not a measurement>
    <document> | <figure> | <anchor> | bound <name>:<key> [<key>...]

A document may also hold a block generated from a result,

    <!-- from <name>:<file> -->  ...  <!-- end -->

whose text must be that file of the source's directory, verbatim; its
figures are covered by it.

<anchor> is text of the document that holds <figure> (whitespace is
collapsed on both sides); <key> is a key of the source's figures.tsv, or
min(<glob>), max(<glob>), count(<glob>) over its keys. A numeric figure must
equal the key's value rounded to the figure's own decimals (thousands
separators and a trailing % are read as written); any other must be part of
the value's text. "timing: <what, where>" marks a wall time of the
harness itself (how long a make target or a boot took on the reference
machine), quoted as guidance: it is counted apart, not checked against a
result. "in" ties a parameter to the code that sets it (the file
must hold the text, and the text the figure's numbers; a percentage may be
a fraction there); "const" is for what is not measured at all. "bound"
ties a percentage that bounds ratios ("under 1.5 %", "within 1.6 % either
way") to them: the figure X must hold the keys' farthest distance from 1,
d (in percent), with d <= X < d + 0.5.

"recompute" gives the command that computes a source's figures again from
its committed data with the present analysis code ({dir}: the source's
directory; {out}: a scratch copy of it, where the command writes its
figures.tsv); "analysis" names that code: the paths the recomputation
checks instead of the history. A recomputation's output is kept in the
cache (claims-recompute/) under the hash of its command, the source's
files and the analysis code, and reused while all three are unchanged
(CLAIMS_NO_MEMO=1 redoes it): the scale source's takes two minutes.

The check fails on:
- a source without provenance.txt written by its run, without a commit, with
  a tree dirty in a file it measures (or in files it does not list), with a
  commit that is not an ancestor of HEAD, or whose
  commit's copy of the paths it measures ("measures:") differs from HEAD's:
  the kernel tree the series builds, file by kernel path (whichever folder
  of the repository holds it; with "patches" among the paths, every file the
  series places in a kernel build, rust/helpers/ too, or, where the run
  recorded "built-from:" (the placed files its kernels' objects were
  compiled from, by Kbuild's dependency lists), those; the files the patches change as the patches,
  applied to the cache's kernel source, leave them, else the diffs as text:
  a commit message, a patch's number or the cover letter is not code), any other file by its
  content (a file moved is compared at its new path, and a reference to a
  moved file or folder is not a change); for .rs, .c and .h
  files, the code (comments and blank lines are not); its analysis paths
  left out;
- a source whose recomputed figures.tsv (or table.md, table-outline.md, table-gcc.md,
  table-variants.md, routes.md) differs from the committed one;
- a claim whose anchor is not in its document, whose figure is not in its
  anchor, or whose source does not hold the figure;
- a figure of a listed document that no claim covers: decimals (0.84, not a
  version such as 7.3.4), numbers with thousands separators, percentages,
  slash lists (58/82/88), "N of M" and "N against M", and whole numbers with
  a unit of time, size or count (30 s, 512 kB, 5 boots, 84 groups; markdown
  code blocks and a patch's diff are not read).
It prints how many figures it checked in how many documents.
"""

import fnmatch
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLAIMS = os.path.join(TOP, "evaluation/bench/claims")
# The files of a result that its recomputation writes again.
GENERATED = ("figures.tsv", "table.md", "table-outline.md", "table-gcc.md", "table-variants.md", "routes.md")

FIGURE = re.compile(
    r"(?<![\w.,/])(?<![A-Za-z_]-)(?:"
    r"\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)+"   # 58/82/88, 0.58/0.82
    r"|\d[\d,]*\s+(?:out\s+of|of|against)\s+\d+(?:,\d{3})*"  # 61 of 64, 13,239 against 13,248
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?"    # 13,239
    r"|\d+\.\d+(?! ?%)"                 # 0.84, 0.74-1.35, 1.5ms
    r"|\d+(?:\.\d+)? ?%"                # 42 %
    r"|\d+ ?(?:ns|ms|s|kB|MB|minutes|instructions|calls|boots|builds|reps|runs"
    r"|states|updates|checks|scans|groups|times)\b(?!-)"  # 5 boots, 30 s
    r")(?!\d|[.,]\d|/\d)")


def git(*args):
    return subprocess.run(["git", "-C", TOP, *args], capture_output=True, text=True)


def norm(text):
    return re.sub(r"\s+", " ", text)


def readable(path):
    """The text of a document that the check reads, with the other parts
    blanked (offsets kept): markdown code blocks, a patch's diff."""
    text = open(os.path.join(TOP, path)).read()
    if path.endswith(".patch"):
        m = re.search(r"^---$", text, re.M)
        if m:
            text = text[:m.start()]
    if path.endswith(".md"):
        text = re.sub(r"```.*?```", lambda m: re.sub(r"[^\n]", " ", m[0]), text, flags=re.S)
    return text


def strip_comments(t):
    """C or Rust source without its comments and blank lines, whitespace
    runs made one space and lines joined (but for preprocessor directives,
    each a line of its own with its continuations): what the compiler sees
    of it, for the staleness test (a comment, a blank line or a line
    wrapped differently is not code). String and character literals are
    kept whole; a Rust lifetime ('a) is not a literal."""
    out, i, n = [], 0, len(t)
    while i < n:
        c = t[i]
        if t.startswith("//", i):
            j = t.find("\n", i)
            i = n if j < 0 else j
        elif t.startswith("/*", i):
            j = t.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif c == '"':
            j = i + 1
            while j < n and t[j] != '"':
                j += 2 if t[j] == "\\" else 1
            out.append(t[i:j + 1])
            i = j + 1
        elif c == "'" and re.match(r"'(\\.[^']*|[^\\'])'", t[i:i + 12]):
            m = re.match(r"'(\\.[^']*|[^\\'])'", t[i:i + 12])
            out.append(m[0])
            i += len(m[0])
        else:
            out.append(c)
            i += 1
    lines = (re.sub(r"\s+", " ", l).strip() for l in "".join(out).split("\n"))
    res, code, cont = [], [], False
    for l in (l for l in lines if l):
        if cont:
            res[-1] += " " + l
        elif l.startswith("#"):
            if code:
                res.append(" ".join(code))
                code = []
            res.append(l)
        else:
            code.append(l)
            continue
        cont = l.endswith("\\")
    if code:
        res.append(" ".join(code))
    return "\n".join(res)


def strip_kconfig_text(t):
    """A Kconfig file without what no build reads: comments, blank lines,
    help texts and the prompts' words (a symbol's type, its prompt's
    condition, defaults, dependencies and selects are kept), for the
    staleness test: a reworded help or prompt builds the same kernel."""
    out, helping, indent = [], False, 0
    for line in t.split("\n"):
        body = line.split("#", 1)[0] if '"' not in line else line
        if not body.strip():
            continue
        width = len(line.expandtabs()) - len(line.expandtabs().lstrip())
        if helping:
            if width > indent:
                continue
            helping = False
        word = body.split()[0]
        if word in ("help", "---help---"):
            helping, indent = True, width
            continue
        if word in ("bool", "tristate", "string", "hex", "int", "prompt"):
            body = re.sub(r'"(?:[^"\\]|\\.)*"', '""', body, count=1)
        out.append(re.sub(r"\s+", " ", body).strip())
    return "\n".join(out)


def code_of(commit, path):
    """The content a result measured: a patch's diff only (a patch without
    one: nothing); a C or Rust file without its comments and blank lines."""
    r = git("show", f"{commit}:{path}")
    if r.returncode:
        return None
    t = r.stdout
    if path.endswith((".rs", ".c", ".h")):
        return strip_comments(t)
    if os.path.basename(path).startswith("Kconfig"):
        return strip_kconfig_text(t)
    if path.startswith("patches/") and not path.endswith(".patch"):
        return ""   # the cover letter: text (the series: see series_of())
    if path.startswith("patches/") and path.endswith(".patch"):
        # The diff: from the first file header after the message's "---".
        m = re.search(r"^--- (?:a/|/dev/null)", t, re.M)
        return t[m.start():] if m else ""
    return t


def series_of(commit):
    """patches/series at the commit: the patches in order, and the file map
    as the series ends (kernel path -> repository path, or @NAME for a stage
    the export generates): what the overlay places in the kernel tree."""
    names, files = [], {}
    for line in git("show", f"{commit}:patches/series").stdout.split("\n"):
        if not line.strip() or line.startswith("#"):
            continue
        if not line[0].isspace():
            names.append(line.strip())
            continue
        item = line.strip()
        src, dst = item.split(":", 1) if ":" in item else (item, item)
        files[dst] = src
    return names, files


CACHE = os.environ.get("RUST_SCHED_CFS_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "rust-sched-cfs")
PRISTINE = os.path.join(CACHE, "src/pristine")


def patched(commit, names, files=None):
    """The kernel files the series' patches change, as the series leaves
    them ("kernel:<path>": the patches applied in order to the pristine
    tree's copies, or for a file the series places (files: kernel path ->
    repository path) to the repository's, "placed:<path>" in the view,
    whether measured() takes it deciding; not Documentation/, tools/testing/ and MAINTAINERS,
    which no kernel build reads: a run that runs the selftests names their
    repository folder in its "measures:"), where the cache has the kernel source; else the diffs,
    in order, as one item (stricter: a hunk moved from one patch to another
    counts as a change). Either way a patch's number or message is not code."""
    files = {d: src for d, src in (files or {}).items() if not src.startswith("@")}
    texts = [git("show", f"{commit}:patches/{n}.patch").stdout for n in names]
    if not os.path.isfile(os.path.join(PRISTINE, "Makefile")):
        return {"patches: the diffs": "".join(code_of(commit, f"patches/{n}.patch") or "" for n in names)}
    # Every file the patches touch is patched (a hunk that finds no file
    # fails the whole series); Documentation/, tools/testing/ and
    # MAINTAINERS, which do not reach the kernel's image, are left out of
    # the view.
    touched = sorted({f for t in texts for f in re.findall(r"^\+\+\+ b/(\S+)", t, re.M)})
    view = {}
    with tempfile.TemporaryDirectory() as tree:
        for f in touched:
            os.makedirs(os.path.dirname(os.path.join(tree, f)), exist_ok=True)
            if f in files:
                r = git("show", f"{commit}:{files[f]}")
                if not r.returncode:
                    with open(os.path.join(tree, f), "w") as o:
                        o.write(r.stdout)
            elif os.path.exists(os.path.join(PRISTINE, f)):
                shutil.copy(os.path.join(PRISTINE, f), os.path.join(tree, f))
        for n, t in zip(names, texts):
            if re.search(r"^\+\+\+ b/", t, re.M) and subprocess.run(
                    ["patch", "-s", "-p1", "-d", tree, "--no-backup-if-mismatch", "-r", "-"],
                    input=t, text=True, capture_output=True).returncode:
                # Never equal to another commit's view: a series that does
                # not apply is a change, which stale() names first.
                return {f"patches/{n}.patch": f"does not apply at {commit} to {PRISTINE}"}
        kept = [f for f in touched
                if not f.startswith(("Documentation/", "tools/testing/")) and f != "MAINTAINERS"]
        for f in sorted(set(kept) | (set(touched) & set(files))):
            try:
                t = open(os.path.join(tree, f)).read()
            except OSError:
                t = None
            if t and f.endswith((".c", ".h", ".rs")):
                t = strip_comments(t)
            elif t and os.path.basename(f).startswith("Kconfig"):
                t = strip_kconfig_text(t)
            view[("placed:" if f in files else "kernel:") + f] = t
    return view


def under(path, prefixes):
    return any(path == p or path.startswith(p.rstrip("/") + "/") for p in prefixes)


def measured(commit, paths, renamed=None, extra=(), built_from=None):
    """What a result measured, at a commit, as {key: code}. The kernel tree
    the overlay builds, by kernel path ("kernel:<path>": a repository file
    the series places there, whichever repository folder holds it; with
    built_from, the kernel paths the run's kernels were compiled from, only
    those of them); the kernel files the series' patches change, as they
    leave them (see patched()); any other file under the paths (and the
    extra files) by its path, or by the path renamed gives it at HEAD (a
    move is no change, an edit is)."""
    names, files = series_of(commit)
    renamed = renamed or {}
    view, placed = {}, set()
    # The patches' view first: a file the series places and a later patch
    # changes is measured as the patches leave it.
    pview = patched(commit, names, files) if under("patches", paths) else {}
    for dst, src in files.items():
        if src.startswith("@"):
            continue    # an intermediate stage: the series ends at a repository file
        placed.add(src)
        # A run that measured the series measured every file it places in
        # a kernel build (rust/helpers/ too), as patched() its diffs; one
        # that recorded what its kernels were compiled from, those files.
        kernel = not dst.startswith(("Documentation/", "tools/testing/"))
        if built_from is not None and kernel:
            take = dst in built_from
        else:
            take = (under("patches", paths) and kernel) or under(dst, paths) or under(src, paths)
        if take:
            view["kernel:" + dst] = pview["placed:" + dst] if "placed:" + dst in pview else code_of(commit, src)
    view.update({k: v for k, v in pview.items() if not k.startswith("placed:")})
    listed = git("ls-tree", "-r", "--name-only", commit, "--", *paths).stdout.split()
    for f in listed + list(extra):
        if f in placed or f.startswith("patches/"):
            continue
        view[renamed.get(f, f)] = code_of(commit, f)
    return view


def stale(commit, paths, built_from=None):
    """The measured items that differ between the commit and HEAD."""
    # A file moved in the repository (git's rename detection; the code is
    # then compared) is compared with itself at its new path, and a
    # reference to a moved file or folder is no change: HEAD's text is read
    # with each new path put back to the old one.
    renamed, back = {}, {}
    for line in git("diff", "--name-status", "-M50%", commit, "HEAD").stdout.split("\n"):
        f = line.split("\t")
        if len(f) != 3 or not f[0].startswith("R"):
            continue
        if under(f[1], paths):
            renamed[f[1]] = f[2]
        back[f[2]] = f[1]
        # A folder that moved (none of it left at its old path): a
        # reference to it is no change either. One file moved out of a
        # folder that stays does not move the folder.
        old, new = os.path.dirname(f[1]), os.path.dirname(f[2])
        if (os.path.basename(f[1]) == os.path.basename(f[2]) and old and new
                and not git("ls-tree", "--name-only", "HEAD", "--", old + "/").stdout.strip()):
            back[new + "/"] = old + "/"
    then = measured(commit, paths, renamed, built_from=built_from)
    now = measured("HEAD", paths, extra=sorted(renamed.values()), built_from=built_from)
    if back:
        pat = re.compile("|".join(re.escape(k) for k in sorted(back, key=len, reverse=True)))
        now = {k: v if v is None else pat.sub(lambda m: back[m[0]], v) for k, v in now.items()}
    # A patch that does not apply (at either commit) first: it hides the rest.
    return sorted((k for k in set(then) | set(now) if then.get(k) != now.get(k)),
                  key=lambda k: (not k.startswith("patches/"), k))


class Source:
    def __init__(self, name, path):
        self.name, self.path, self.errors, self.fig, self.prov = name, path, [], {}, {}
        full = os.path.join(TOP, path)
        try:
            for line in open(os.path.join(full, "provenance.txt")):
                k, _, v = line.partition(": ")
                self.prov.setdefault(k.strip(), v.strip())
        except OSError:
            self.errors.append(f"{path}: no provenance.txt: a result without its provenance is refused")
            return
        commit = self.prov.get("commit", "")
        if not self.prov.get("recorded", "").startswith("yes"):
            self.errors.append(f"{path}/provenance.txt: not recorded by the run")
        if not re.fullmatch(r"[0-9a-f]{40}", commit):
            self.errors.append(f"{path}/provenance.txt: no commit")
            return
        dirty = self.prov.get("dirty", "")
        if dirty != "no":
            # A tree dirty only in files the run does not measure (another
            # run's results written beside it) measured clean code; the
            # files are listed, so that this can be checked.
            files = dirty[len("yes: "):].split() if dirty.startswith("yes: ") else []
            measures = self.prov.get("measures", "").split()
            if not files or not measures or any(under(f, measures) for f in files):
                self.errors.append(f"{path}/provenance.txt: measured a dirty tree ({dirty})")
        here = not git("cat-file", "-e", commit + "^{commit}").returncode
        if not here:
            if git("rev-parse", "--is-shallow-repository").stdout.strip() == "true":
                # A shallow clone (a CI checkout) cannot tell: said, not failed.
                print(f"WARNING: {path}: commit {commit[:12]} is beyond this shallow clone's history:"
                      " its staleness is not checked here")
            else:
                self.errors.append(f"{path}/provenance.txt: commit {commit[:12]} is not in this repository's history")
                return
        elif git("merge-base", "--is-ancestor", commit, "HEAD").returncode:
            self.errors.append(f"{path}/provenance.txt: commit {commit[:12]} is not an ancestor of HEAD")
        self.here = here
        try:
            for line in open(os.path.join(full, "figures.tsv")):
                k, _, v = line.rstrip("\n").partition("\t")
                self.fig[k] = v
        except OSError:
            self.errors.append(f"{path}: no figures.tsv")

    def check(self, analysis, recompute):
        """The history of the measured code, and the recomputation."""
        if not self.prov or self.errors:
            return
        commit = self.prov["commit"]
        measures = self.prov.get("measures", "").split()
        if not measures:
            self.errors.append(f"{self.path}/provenance.txt: no 'measures:' paths")
        built_from = None
        if "built-from" in self.prov:
            built_from = set(self.prov["built-from"].split(": ", 1)[-1].split())
            if not built_from:
                self.errors.append(f"{self.path}/provenance.txt: 'built-from:' lists no file")
        changed = [f for f in (stale(commit, measures, built_from) if self.here else [])
                   if f not in analysis]
        if changed:
            self.errors.append(f"{self.path}: measured {commit[:12]}, and the code it measures changed since: "
                               + " ".join(changed[:8]) + (" ..." if len(changed) > 8 else ""))
        if not recompute:
            self.errors.append(f"{self.path}: no recompute command (evaluation/bench/claims/)")
            return
        # A recomputation depends only on the command, the committed data
        # and the analysis code: its output is kept under their hash, so
        # that a second run on the same inputs (check-harness runs this
        # script many times) does not redo it. CLAIMS_NO_MEMO=1: always redo.
        h = hashlib.sha256(recompute.encode())
        src = os.path.join(TOP, self.path)
        for f in sorted(os.listdir(src)) + sorted(analysis):
            p = os.path.join(src, f) if not f.startswith("scripts/") else os.path.join(TOP, f)
            if os.path.basename(p) in GENERATED and p.startswith(src) or not os.path.isfile(p):
                continue
            h.update(f.encode() + b"\0" + open(p, "rb").read() + b"\0")
        memo = os.path.join(os.environ.get("RUST_SCHED_CFS_CACHE") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "rust-sched-cfs"),
            "claims-recompute", h.hexdigest())
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            cmd = recompute.replace("{dir}", self.path).replace("{out}", out)
            if os.path.isdir(memo) and not os.environ.get("CLAIMS_NO_MEMO"):
                out = memo
            else:
                shutil.copytree(src, out)
                for f in GENERATED:
                    if os.path.exists(os.path.join(out, f)):
                        os.unlink(os.path.join(out, f))
                r = subprocess.run(cmd, shell=True, cwd=TOP, capture_output=True, text=True)
                if r.returncode != 0:
                    self.errors.append(f"{self.path}: the recomputation failed ({cmd}): {r.stderr.strip()[-300:]}")
                    return
                try:
                    os.makedirs(memo + ".tmp", exist_ok=True)
                    for f in GENERATED:
                        if os.path.exists(os.path.join(out, f)):
                            shutil.copy(os.path.join(out, f), memo + ".tmp")
                    os.replace(memo + ".tmp", memo)
                except OSError:
                    pass
            for f in GENERATED:
                mine = os.path.join(src, f)
                if not os.path.exists(mine):
                    continue
                again = os.path.join(out, f)
                if not os.path.exists(again) or open(again).read() != open(mine).read():
                    self.errors.append(f"{self.path}/{f}: the present analysis code does not give it again"
                                       f" from the committed data ({cmd})")
        self.recomputed = True

    def value(self, key):
        m = re.fullmatch(r"(min|max|count)\((.+)\)", key)
        if not m:
            return self.fig.get(key)
        keys = [k for k in self.fig if fnmatch.fnmatchcase(k, m[2])]
        if not keys:
            return None
        if m[1] == "count":
            return str(len(keys))
        vals = [float(self.fig[k]) for k in keys]
        return repr(min(vals) if m[1] == "min" else max(vals))


def number(s):
    s = s.replace(",", "").replace("%", "").strip()
    try:
        return float(s), (len(s.split(".")[1]) if "." in s else 0)
    except ValueError:
        return None, 0


def holds(figure, value):
    f, dec = number(figure)
    v, _ = number(value) if value is not None else (None, 0)
    # A fraction quoted as a percentage (a margin of 0.006 as 0.6 %).
    if v is not None and figure.strip().endswith("%") and "%" not in value and abs(v) <= 1:
        v *= 100
    if f is not None and v is not None:
        return round(v, dec) == f or f"{v:.{dec}f}" == figure.replace(",", "").replace("%", "").strip()
    # A number against a value's text: the number as a whole token of it.
    if f is not None:
        return value is not None and re.search(
            r"(?<![\d.])" + re.escape(figure.strip()) + r"(?![\d]|\.\d)", value) is not None
    return value is not None and norm(figure) in norm(value)


def main():
    sources, docs, claims, errors, versions = {}, [], [], [], set()
    recompute, analysis = {}, {}
    rows = []
    for name in sorted(os.listdir(CLAIMS)):
        if name.endswith(".txt"):
            rows += [(f"{name}:{n}", line) for n, line in enumerate(open(os.path.join(CLAIMS, name)), 1)]
    for n, line in rows:
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split()
        if f[0] == "source" and len(f) == 3:
            sources[f[1]] = Source(f[1], f[2])
            continue
        if f[0] == "document" and len(f) == 2:
            docs.append(f[1])
            continue
        if f[0] == "version" and len(f) == 2:
            versions.add(f[1])
            continue
        if f[0] == "recompute" and len(f) > 2:
            recompute[f[1]] = line.split(None, 2)[2]
            continue
        if f[0] == "analysis" and len(f) > 2:
            analysis.setdefault(f[1], set()).update(f[2:])
            continue
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) != 4:
            errors.append(f"{n}: not '<document> | <figure> | <anchor> | <source>'")
            continue
        claims.append((n, *parts))
    # A check with nothing to read would pass: it must have both.
    if not docs or not claims:
        errors.append(f"no documents or no claims in {CLAIMS}: nothing was checked")
    for s in sources.values():
        s.check(analysis.get(s.name, set()), recompute.get(s.name))
        errors += s.errors
    texts = {}
    for d in docs:
        try:
            texts[d] = readable(d)
        except OSError:
            errors.append(f"{d}: listed in evaluation/bench/claims/, not found")
    covered = {d: [] for d in texts}
    used, consts, params, blocks, timings = 0, 0, 0, 0, 0
    for d, text in texts.items():
        for m in re.finditer(r"<!-- from (\w+):(\S+) -->\n(.*?)<!-- end -->", text, re.S):
            line = text.count("\n", 0, m.start()) + 1
            s = sources.get(m[1])
            covered[d].append((m.start(), m.end()))
            blocks += 1
            if s is None:
                errors.append(f"{d}:{line}: a block from {m[1]}, which is not a source")
                continue
            try:
                want = open(os.path.join(TOP, s.path, m[2])).read()
            except OSError:
                errors.append(f"{d}:{line}: a block from {s.path}/{m[2]}, which does not exist")
                continue
            if m[3] != want:
                errors.append(f"{d}:{line}: the block differs from {s.path}/{m[2]} (copy it again)")
    for n, doc, figure, anchor, src in claims:
        where = n
        if doc not in texts:
            errors.append(f"{where}: {doc} is not a listed document")
            continue
        text = texts[doc]
        # Find the anchor in the document, whitespace collapsed.
        pat = r"\s+".join(re.escape(w) for w in anchor.split())
        hits = list(re.finditer(pat, text))
        if not hits:
            errors.append(f"{where}: {doc}: anchor not found: \"{anchor}\"")
            continue
        fpat = r"\s+".join(re.escape(w) for w in figure.split())
        spans = []
        for h in hits:
            fm = [m for m in re.finditer(fpat, h[0])]
            if not fm:
                break
            spans += [(h.start() + m.start(), h.start() + m.end()) for m in fm]
        if not spans:
            errors.append(f"{where}: figure {figure} is not in its anchor \"{anchor}\"")
            continue
        covered[doc] += spans
        if src.startswith("const:"):
            if len(src) < len("const: ") + 10:
                errors.append(f"{where}: a const claim says why it is not a measurement")
            consts += 1
            continue
        if src.startswith("timing:"):
            if len(src) < len("timing: ") + 10:
                errors.append(f"{where}: a timing claim says what was timed, where")
            timings += 1
            continue
        m = re.fullmatch(r"bound (\w+):(.+)", src)
        if m:
            s = sources.get(m[1])
            line = text.count("\n", 0, spans[0][0]) + 1
            vals = [s.value(k) for k in m[2].split()] if s else [None]
            f, _ = number(figure)
            if None in vals or f is None or not figure.strip().endswith("%"):
                errors.append(f"{doc}:{line}: {figure}: bound needs a percentage and keys"
                              f" {m[1]} has: {m[2]}")
            else:
                d = round(max(abs(float(v) - 1) for v in vals) * 100, 6)
                if not d <= f < d + 0.5:
                    errors.append(f"{doc}:{line}: {figure}: the farthest of {m[2]} is {d:g} % from 1"
                                  f" ({m[1]}): a bound of it is at least that and under {d + 0.5:g} %")
            used += 1
            continue
        m = re.fullmatch(r"in (\S+): (.+)", src)
        if m:
            try:
                body = norm(open(os.path.join(TOP, m[1])).read())
            except OSError:
                body = None
            if body is None or norm(m[2]) not in body:
                errors.append(f"{where}: {m[1]} does not hold \"{m[2]}\"")
            # The figure's numbers must be the text's (a percentage may be
            # written there as a fraction: 2 % as 0.02).
            text = m[2].replace(",", "")
            for x in re.findall(r"\d+(?:\.\d+)?", figure.replace(",", "")):
                alts = [x] + ([repr(float(x) / 100).rstrip("0")] if "%" in figure else [])
                if not any(re.search(r"(?<![\d.])" + re.escape(a) + r"(?!\d)", text) for a in alts):
                    errors.append(f"{where}: figure {figure}: the code's text \"{m[2]}\" does not hold {x}")
            params += 1
            continue
        name, _, key = src.partition(":")
        s = sources.get(name)
        if s is None:
            errors.append(f"{where}: no source {name}")
            continue
        v = s.value(key)
        line = text.count("\n", 0, spans[0][0]) + 1
        if v is None:
            errors.append(f"{doc}:{line}: {figure}: {name} has no {key} ({s.path}/figures.tsv)")
        elif not holds(figure, v):
            errors.append(f"{doc}:{line}: {figure}: {s.path} says {key} = {v}")
        used += 1
    found = 0
    for d, text in texts.items():
        for m in FIGURE.finditer(text):
            if m[0] in versions:
                continue
            found += 1
            # Covered: the token within one claim's span, or each of its
            # numbers within one ("274 against 264", two claims).
            parts = [(m.start() + n.start(), m.start() + n.end())
                     for n in re.finditer(r"\d[\d,]*(?:\.\d+)?", m[0])]
            if not any(a <= m.start() and m.end() <= b for a, b in covered[d]) and not all(
                    any(a <= x and y <= b for a, b in covered[d]) for x, y in parts):
                line = text.count("\n", 0, m.start()) + 1
                ctx = norm(text[max(0, m.start() - 40):m.end() + 20]).strip()
                errors.append(f"{d}:{line}: {m[0]}: no claim ties it to a result (\"...{ctx}...\")")
    # An estimate with its interval, "x [lo, hi]", must lie inside it:
    # each figure can be tied to its own key and the three still be in
    # the wrong places (a re-tie that replaced one figure by another).
    for d, text in texts.items():
        for m in re.finditer(r"(?<![\d.])(\d+\.\d+)\s+\[(\d+\.\d+),\s+(\d+\.\d+)\]", text):
            x, lo, hi = (float(g) for g in m.groups())
            if not lo <= x <= hi:
                line = text.count("\n", 0, m.start()) + 1
                errors.append(f"{d}:{line}: {norm(m[0]).strip()}: the estimate is outside its interval")
    # A run named with its date, "`make bench-prod`, 2026-12-02 07:31 UTC":
    # the date is the run's own (its provenance's first "date:"), to the
    # minute, when the target is one of the sources'.
    dated = 0
    for d, text in texts.items():
        for m in re.finditer(r"`make ([\w-]+)`, (\d{4}-\d\d-\d\d \d\d:\d\d) UTC", text):
            runs = [s for s in sources.values()
                    if s.prov.get("command", "").split()[:2] == ["make", m[1]]]
            if not runs:
                continue
            dated += 1
            when = runs[0].prov.get("date", "")[:16]
            if when != m[2]:
                line = text.count("\n", 0, m.start()) + 1
                errors.append(f"{d}:{line}: {m[2]} UTC: {runs[0].path} ran at {when} UTC")
    # A run's host named in the text, "make bench-native ... on an AMD EPYC
    # host": the CPU is the one the nearest make target before it (within
    # 400 characters) ran on, its provenance's "host-cpu:".
    hosts = 0
    for d, text in texts.items():
        for m in re.finditer(r"\b((?:Intel|AMD|Ampere|Arm)\s+[\w-]+)\s+host\b", text):
            before = list(re.finditer(r"make ([\w-]+)", text[max(0, m.start() - 400):m.start()]))
            runs = [s for s in sources.values() if before and
                    s.prov.get("command", "").split()[:2] == ["make", before[-1][1]]]
            if not runs:
                continue
            hosts += 1
            cpu = runs[0].prov.get("host-cpu", "")
            # /proc/cpuinfo's model name: "Intel(R) Xeon(R) Processor".
            if not norm(re.sub(r"\((?:R|TM)\)", "", cpu, flags=re.I)).startswith(norm(m[1])):
                line = text.count("\n", 0, m.start()) + 1
                errors.append(f"{d}:{line}: {norm(m[1])} host: {runs[0].path} ran on {cpu or 'a host it does not name'}")
    for e in errors:
        print("FAIL: " + e)
    srcs = ", ".join(f"{s.name} ({s.prov.get('commit', '?')[:12]}, {s.prov.get('date', '?')})"
                     for s in sources.values())
    print(f"check-claims: {found} figures in {len(texts)} documents; {blocks} blocks copied from results,"
          f" {used} claims tied to results,"
          f" {params} to the code that sets them, {consts} declared not measurements,"
          f" {timings} harness wall times quoted as guidance (not committed results),"
          f" {dated} run dates, {hosts} hosts; sources: {srcs}")
    if errors:
        print(f"check-claims: {len(errors)} problem(s)")
        sys.exit(1)


if __name__ == "__main__":
    main()
