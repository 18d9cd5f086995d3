# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The boot test's check bookkeeping, sourced by scripts/boot.sh (the host's
# suite, sched_rust_boot): each check is a KTAP test case. check <name>
# opens one (and closes the previous one; check "" closes without opening);
# it passes when it added nothing to problems[]. ktap_cases prints the cases with the kselftest KTAP helpers,
# which the caller has sourced: per case its problems as diagnostics, then
# its result.

problems=()
cases=()	# "ok<TAB>name" or "not ok<TAB>name<TAB>problem<US>problem..."
_case= _np=0
check() {
	local n
	if [ -n "$_case" ]; then
		n=$(( ${#problems[@]} - _np ))
		if [ $n = 0 ]; then
			cases+=("ok	$_case")
		else
			cases+=("not ok	$_case	$(printf '%s\x1f' "${problems[@]:_np}")")
		fi
	fi
	_case=$1 _np=${#problems[@]}
}
ktap_cases() {
	local c res name probs
	for c in "${cases[@]}"; do
		IFS=$'\t' read -r res name probs <<< "$c"
		if [ "$res" = ok ]; then
			ktap_test_pass "$name"
		else
			tr '\037' '\n' <<< "$probs" | sed '/^$/d; s/^/# /'
			ktap_test_fail "$name"
		fi
	done
}
