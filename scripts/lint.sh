#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Style gates. First those that need no kernel build (LINT_QUICK=1 stops
# after them; CI runs them so): shellcheck on the harness's bash scripts
# (.shellcheckrc), pyflakes on its Python, the commit subjects' width,
# check-claims on the documents' figures (scripts/check-claims.py) and
# docutils on the two documents. Then rustfmtcheck on the overlaid tree, a
# CLIPPY=1 build of the bench kernel (warnings in the project's files
# fail), checkpatch.pl on the exported patch series
# (scripts/export-patches.sh), the misuse snippets
# (scripts/check-unsound.sh), the harness's own tests (tests/harness/run.sh)
# and a build of the Rust code with the kernel's minimum rustc
# (scripts/check-rust-min.sh).

. "$(dirname "$0")/common.sh"

EXTRA_DEB_PKGS="shellcheck python3-pyflakes" "$TOP/scripts/setup.sh"
log "shellcheck (warnings fail) on scripts/*.sh, tests/harness/run.sh, tests/boot/init and tests/selftests/sched_rust/"
(cd "$TOP" && shellcheck -S warning scripts/*.sh tests/harness/run.sh evaluation/bench/native/run.sh tests/boot/init tests/selftests/sched_rust/*.sh) || fail "shellcheck found problems"
log "pyflakes on scripts/*.py"
/usr/bin/python3 -m pyflakes "$TOP"/scripts/*.py || fail "pyflakes found problems"
"$TOP/scripts/check-subjects.sh" || fail "commit subjects over 75 columns"
log "check-claims: the documents' figures against the committed results"
/usr/bin/python3 "$TOP/scripts/check-claims.py" || fail "a quoted figure does not match its result (above)"

log "reStructuredText of the two documents (docutils, warnings fail; the upstream one at most 80 columns)"
/usr/bin/python3 - "$TOP/Documentation/scheduler/sched-rust-cfs.rst" "$TOP/evaluation/evaluation.rst" <<'EOP' || fail "the documents have reStructuredText problems"
import io, sys
import docutils.core
bad = []
for path in sys.argv[1:]:
    err = io.StringIO()
    docutils.core.publish_string(open(path).read(), writer_name='html',
                                 settings_overrides={'warning_stream': err, 'report_level': 2})
    if err.getvalue():
        bad.append(err.getvalue())
long = [f'{sys.argv[1]}:{n}: {len(l)} columns' for n, l in enumerate(open(sys.argv[1]), 1)
        if len(l.rstrip('\n')) > 80]
if bad or long:
    sys.exit('\n'.join(bad + long))
EOP
if [ "${LINT_QUICK:-0}" = 1 ]; then
	log "lint (the gates without a kernel build) clean"
	exit 0
fi

"$TOP/scripts/overlay.sh"
B=$CACHE/build-bench
[ -f "$B/.config" ] || "$TOP/scripts/build.sh" bench

log "rustfmtcheck"
kmake -s O="$B" rustfmtcheck

log "CLIPPY=1 build"
kmake O="$B" CLIPPY=1 -j"$(nproc)" bzImage > "$B/clippy.log" 2>&1 ||
	{ tail -n 40 "$B/clippy.log"; fail "CLIPPY=1 build failed"; }
# A diagnostic's location line (" --> path:line:col") names the file; the
# stock tree has a few warnings of its own with this clippy.
if grep -qE '^ *--> .*(kernel/sched/rust/|rust/kernel/sched)' "$B/clippy.log"; then
	grep -B3 -A12 -E '^ *--> .*(kernel/sched/rust/|rust/kernel/sched)' "$B/clippy.log" | head -n 80
	fail "clippy warnings in the project's files"
fi
grep -qE '^(warning|error)' "$B/clippy.log" &&
	log "clippy: warnings in stock kernel files only: $(grep -E '^ *--> ' "$B/clippy.log" | sed 's/:.*//; s|.*/src/work/||' | sort -u | tr '\n' ' ')"

log "checkpatch on the exported series"
rc=0
out=$("$TOP/scripts/export-patches.sh" 2>&1) || rc=$?
printf '%s\n' "$out" | grep -E '^(checkpatch |total|WARNING|ERROR|CHECK)'
[ "$(printf '%s\n' "$out" | grep -c '^checkpatch .*: ok')" -ge 10 ] ||
	fail "the exported series has no checkpatch verdicts"
[ $rc = 0 ] || fail "checkpatch found problems in the exported series"
log "misuse snippets against the bench kernel's crate (check-unsound)"
# Its own status: 1 a snippet did not fail as expected, 2 a harness problem.
"$TOP/scripts/check-unsound.sh" bench
log "the harness's own tests (check-harness)"
rc=0
"$TOP/tests/harness/run.sh" || rc=$?
# 4: no make test boot to check against, which lint does not need;
# otherwise its own status.
[ $rc = 0 ] || [ $rc = 4 ] || exit $rc
log "build with the kernel's minimum rustc"
"$TOP/scripts/check-rust-min.sh"
log "lint clean"
