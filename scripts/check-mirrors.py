#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The C that the Rust re-implements, guarded against changes.

The Rust pieces re-implement C functions that stay in the kernel: fair.c's
own implementation of each piece (the =n kernel's, and the specification of
the Rust), and helpers that C keeps using to maintain the state the Rust
reads (avg_vruntime_weight(), entity_before(), protect_slice(), ...). A
change to one of them in the kernel source (a new 7.3.x, a fix upstream)
would leave the =y kernel silently computing the old thing. scripts/mirrors.txt
records, for each, a hash of its definition in the pristine tree and the
Rust that mirrors it; this script recomputes the hashes and fails, naming
the Rust to update, when one differs or a definition is gone.

  check-mirrors.py PRISTINE MIRRORS            check
  check-mirrors.py PRISTINE MIRRORS --update   record the current hashes
                                               (after updating the Rust)
"""

import hashlib
import re
import sys


def definitions(text, name):
    """Every definition of the function or macro `name` in `text`: a
    function from its first declaration line (at column 0) to the closing
    brace at column 0, a macro from its #define to the last continued line.
    Declarations (ending in ';') are not definitions."""
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"#\s*define\s+" + re.escape(name) + r"\b", line):
            j = i
            while lines[j].endswith("\\"):
                j += 1
            found.append("\n".join(lines[i:j + 1]))
            i = j + 1
            continue
        if line and not line[0].isspace() and line[0] not in "#/*" and \
                re.search(r"(^|[\s*])" + re.escape(name) + r"\s*\(", line):
            # The declarator may run over several lines; a definition's body
            # starts with a line "{" (kernel style) or a "{" ending the line.
            j = i
            while j < len(lines) and "{" not in lines[j] and not lines[j].rstrip().endswith(";"):
                j += 1
            if j < len(lines) and "{" not in lines[j]:
                i = j + 1
                continue
            if j < len(lines) and lines[j].count("{") == lines[j].count("}"):
                # A definition on one line, "f(...) {}" or "{ return x; }".
                found.append("\n".join(lines[i:j + 1]))
                i = j + 1
                continue
            if j + 1 < len(lines) and lines[j + 1] == "{":
                j += 1
            k = j
            while k < len(lines) and lines[k] != "}":
                k += 1
            found.append("\n".join(lines[i:k + 1]))
            i = k + 1
            continue
        i += 1
    return found


def digest(defs):
    # Whitespace is not meaning: a re-indented definition is the same one.
    norm = "\n----\n".join(re.sub(r"[ \t]+", " ", d).strip() for d in defs)
    return hashlib.sha256(norm.encode()).hexdigest()[:16]


def main():
    pristine, mirrors = sys.argv[1], sys.argv[2]
    update = "--update" in sys.argv[3:]
    out, problems, n = [], [], 0
    for line in open(mirrors):
        if not line.strip() or line.startswith("#"):
            out.append(line.rstrip("\n"))
            continue
        path, name, recorded, rust = line.rstrip("\n").split(None, 3)
        defs = definitions(open(f"{pristine}/{path}").read(), name)
        if not defs:
            problems.append(f"{path}: no definition of {name} (mirrored by {rust})")
            out.append(line.rstrip("\n"))
            continue
        now = digest(defs)
        n += 1
        if now != recorded:
            problems.append(f"{path}: {name} changed (hash {recorded} recorded, {now} now): "
                            f"update {rust}, then record it with scripts/check-mirrors.py --update")
        out.append(f"{path} {name} {now} {rust}")
    if update:
        with open(mirrors, "w") as f:
            f.write("\n".join(out) + "\n")
        print(f"check-mirrors: {n} definitions recorded in {mirrors}")
        return 0
    if problems:
        print("check-mirrors: the C that the Rust re-implements changed:", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        return 1
    if n == 0:
        print("check-mirrors: no definition checked: the list is empty", file=sys.stderr)
        return 1
    print(f"check-mirrors: {n} C definitions the Rust re-implements, unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
