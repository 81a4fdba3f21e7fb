# SPDX-License-Identifier: GPL-2.0
# Minimal TAP 13 helpers for rocetune's shell selftests, in the kselftest
# dialect (ok/not ok, "# SKIP reason", exit 4 when everything skipped).
#
#   . "$(dirname "$0")/../lib/tap.sh"
#   tap_plan 3
#   tap_ok "tree appears" test -d /sys/kernel/config/rocetune/rxe0
#   tap_result "value unchanged" [ "$before" = "$after" ]
#   tap_skip "needs two hosts"
#   tap_done
#
# tap_ok/tap_result run the command; its exit status is the verdict, so a
# check can only pass if the command really succeeds.

TAP_N=0
TAP_PASS=0
TAP_FAIL=0
TAP_SKIP=0
TAP_PLAN=
TAP_HEADER_DONE=

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

tap_header() {
	[ -n "$TAP_HEADER_DONE" ] && return 0
	TAP_HEADER_DONE=1
	echo "TAP version 13"
}

tap_plan() {
	TAP_PLAN=$1
	tap_header
	echo "1..$1"
}

tap_diag() { printf '# %s\n' "$*"; }

tap_pass() {
	TAP_N=$((TAP_N + 1)); TAP_PASS=$((TAP_PASS + 1))
	echo "ok $TAP_N $1"
}

tap_fail() {
	TAP_N=$((TAP_N + 1)); TAP_FAIL=$((TAP_FAIL + 1))
	echo "not ok $TAP_N $1"
	shift
	[ $# -gt 0 ] && tap_diag "$@"
	return 0
}

# tap_skip DESCRIPTION REASON
tap_skip() {
	TAP_N=$((TAP_N + 1)); TAP_SKIP=$((TAP_SKIP + 1))
	echo "ok $TAP_N $1 # SKIP ${2:-no reason given}"
}

# tap_ok DESCRIPTION CMD [ARGS...]: pass iff CMD exits 0; CMD's output is
# kept as diagnostics so a failure shows why.
tap_ok() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1) && rc=0 || rc=$?
	if [ "$rc" -eq 0 ]; then
		tap_pass "$desc"
	else
		tap_fail "$desc" "command failed (rc=$rc): $*"
		[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/#   /'
	fi
	return 0
}

# tap_notok DESCRIPTION CMD [ARGS...]: pass iff CMD fails (exit != 0).
tap_notok() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1) && rc=0 || rc=$?
	if [ "$rc" -ne 0 ]; then
		tap_pass "$desc"
	else
		tap_fail "$desc" "command unexpectedly succeeded: $*"
		[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/#   /'
	fi
	return 0
}

# tap_eq DESCRIPTION EXPECTED ACTUAL
tap_eq() {
	if [ "$2" = "$3" ]; then
		tap_pass "$1"
	else
		tap_fail "$1" "expected '$2', got '$3'"
	fi
}

# tap_bail REASON: abort the whole program (kselftest "Bail out!").
tap_bail() {
	echo "Bail out! $*"
	exit $KSFT_FAIL
}

# tap_skip_all REASON: nothing can run here.
tap_skip_all() {
	tap_header
	echo "1..0 # SKIP $*"
	exit $KSFT_SKIP
}

# tap_done: closing totals; exit 1 on any failure or plan mismatch,
# 4 if everything was skipped, else 0.
tap_done() {
	[ -n "$TAP_PLAN" ] || { tap_header; echo "1..$TAP_N"; }
	echo "# Totals: pass:$TAP_PASS fail:$TAP_FAIL skip:$TAP_SKIP"
	if [ -n "$TAP_PLAN" ] && [ "$TAP_PLAN" -ne "$TAP_N" ]; then
		echo "# planned $TAP_PLAN tests but ran $TAP_N"
		exit $KSFT_FAIL
	fi
	[ "$TAP_FAIL" -eq 0 ] || exit $KSFT_FAIL
	[ "$TAP_N" -gt 0 ] && [ "$TAP_SKIP" -eq "$TAP_N" ] && exit $KSFT_SKIP
	exit $KSFT_PASS
}
