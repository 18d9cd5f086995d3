#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make rust-analyzer, make compile_commands.json: the kernel's own targets,
# run on a build of the cache's tree (FLAVOUR=, test by default: the one
# that compiles every file of the project), their output written to the
# repository's top with every file the series places in the kernel named by
# its repository path, so that an editor opened on the repository edits the
# repository's files.
#
# rust-project.json: the kernel's generate_rust_analyzer.py covers the
# crates of samples/ and drivers/ only; the crate of kernel/sched/rust/ is
# added as that script adds one (the kernel's crates as dependencies, the
# configuration's cfgs). The `kernel` crate's root is the kernel tree's
# rust/kernel/lib.rs, so its modules (rust/kernel/sched/, percpu/) open as
# the cache's copies: edit the repository's (make says which it refused).
#
# Usage: scripts/editor.sh rust-analyzer|compile_commands.json

. "$(dirname "$0")/common.sh"

what=${1:?usage: editor.sh rust-analyzer|compile_commands.json}
flavour=${FLAVOUR:-test}
B=$(bdir "$flavour")
# A build of the present tree: the overlay and the objects the compile
# database is made from (ccache makes a warm one quick).
"$TOP/scripts/build.sh" "$flavour" >&2 || fail "the $flavour build failed"
case $what in
rust-analyzer)
	kmake O="$B" rust-analyzer > /dev/null || fail "make rust-analyzer failed in $B"
	src=$B/rust-project.json out=$TOP/rust-project.json ;;
compile_commands.json)
	kmake O="$B" compile_commands.json > /dev/null || fail "make compile_commands.json failed in $B"
	src=$B/compile_commands.json out=$TOP/compile_commands.json ;;
*) die "unknown target $what" ;;
esac
[ -s "$src" ] || fail "the kernel's target wrote no $src"

map=$(series_map)
/usr/bin/python3 - "$what" "$src" "$out" "$WORK" "$TOP" "$map" "$B" <<'EOP' || fail "cannot write $out"
import json, os, sys
what, src, out, work, top, series, objtree = sys.argv[1:8]
# Each placed file, from its kernel path to its repository path.
places = {}
for line in series.splitlines():
    s, d = line.split()
    places[f"{work}/{d}"] = f"{top}/{s}"
def mapped(text):
    for k in sorted(places, key=len, reverse=True):
        text = text.replace(k, places[k])
    return text
data = json.load(open(src))
if what == "rust-analyzer":
    crates = data["crates"]
    index = {c["display_name"]: i for i, c in enumerate(crates)}
    kernel = crates[index["kernel"]]
    deps = [{"crate": index[n], "name": n}
            for n in ("core", "kernel", "pin_init", "zerocopy", "zerocopy_derive") if n in index]
    if "sched_rust" not in index:
        crates.append({
            "display_name": "sched_rust",
            "root_module": f"{work}/kernel/sched/rust/sched_rust.rs",
            "is_workspace_member": True,
            "deps": deps,
            "cfg": kernel["cfg"],
            "edition": kernel.get("edition", "2021"),
            "env": {"RUST_MODFILE": "This is only for rust-analyzer"},
        })
    for c in crates:
        c["root_module"] = mapped(c["root_module"])
    placed = sum(c["root_module"].startswith(top + "/") for c in crates)
    print(f"rust-project.json: {len(crates)} crates, {placed} rooted in the repository")
else:
    # fair.o is the c-rust-inline rule's (fair.c's bitcode linked with the
    # crate's): the kernel's script finds no compile of fair.c in its
    # command. The bitcode's compile is fair.c's, with its flags.
    fair = f"{work}/kernel/sched/fair.c"
    cmd = os.path.join(objtree, "kernel/sched/.fair.bc.cmd")
    if not any(e["file"] == fair for e in data) and os.path.exists(cmd):
        line = open(cmd).readline()
        data.append({"directory": objtree, "file": fair,
                     "command": line.split(":=", 1)[1].strip()})
    for e in data:
        e["file"] = mapped(e["file"])
        for k in ("command", "arguments"):
            if k in e:
                e[k] = mapped(e[k]) if isinstance(e[k], str) else [mapped(a) for a in e[k]]
    placed = sum(e["file"].startswith(top + "/") for e in data)
    print(f"compile_commands.json: {len(data)} files, {placed} of them the repository's,"
          f" fair.c {'in' if any(e['file'] == fair for e in data) else 'NOT in'} it")
    if not placed:
        sys.exit("no entry names a repository file")
json.dump(data, open(out, "w"), indent=1, sort_keys=True)
EOP
log "wrote $out (from $src)"
