# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Runs installed rocetune selftests, one program at a time, in the
# kselftest runner's dialect; sourced by run_kselftest.sh, which sets
# BASE_DIR (the install directory). Semantics as the kernel's
# tools/testing/selftests/kselftest/runner.sh has them:
#
# - each collection's "settings" file (lines NAME=VALUE, '#' comments)
#   may set timeout=SECONDS, the time limit of each of its programs
#   (default 45, as kselftest's); KSFT_TIMEOUT overrides every one;
# - a program runs in its collection's directory, stdout and stderr
#   together, and its output is nested behind "# " (or, with
#   KSFT_LOGFILE set, appended there instead);
# - its result is one test point: "ok N selftests: COLLECTION: PROG" for
#   exit 0, "... # SKIP" for exit 4 (kselftest's KSFT_SKIP; followed by the
#   reason the program gave in its "1..0 # SKIP reason" plan, so that the
#   summary says why), "not ok ... # TIMEOUT N seconds" when the limit
#   killed it, else "not ok ... # exit=RC".

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4
KSFT_DEFAULT_TIMEOUT=45
KSFT_LOGFILE=${KSFT_LOGFILE:-}
KSFT_TIMEOUT=${KSFT_TIMEOUT:-}

KSFT_NUM=0
KSFT_CNT_PASS=0
KSFT_CNT_FAIL=0
KSFT_CNT_SKIP=0

# ksft_timeout COLLECTION: the time limit of its programs.
ksft_timeout() {
	local line t=$KSFT_DEFAULT_TIMEOUT
	if [[ -r $BASE_DIR/$1/settings ]]; then
		while IFS= read -r line; do
			case $line in
			timeout=*) t=${line#timeout=} ;;
			esac
		done <"$BASE_DIR/$1/settings"
	fi
	[[ -n $KSFT_TIMEOUT ]] && t=$KSFT_TIMEOUT
	if ! [[ $t =~ ^[0-9]+$ ]] || ((t < 1)); then
		echo "# $1/settings: bad timeout '$t', using $KSFT_DEFAULT_TIMEOUT" >&2
		t=$KSFT_DEFAULT_TIMEOUT
	fi
	echo "$t"
}

# ksft_nest: a program's output as TAP diagnostics, where it belongs.
ksft_nest() {
	if [[ -n $KSFT_LOGFILE ]]; then
		sed -u 's/^/# /' >>"$KSFT_LOGFILE"
	else
		sed -u 's/^/# /'
	fi
}

# ksft_run_one COLLECTION PROG: run it, print its result line.
ksft_run_one() {
	local coll=$1 prog=$2 dir=$BASE_DIR/$1 hdr tmo out rc t0 reason
	hdr="selftests: $coll: $prog"
	KSFT_NUM=$((KSFT_NUM + 1))
	echo "# $hdr"
	if [[ ! -f $dir/$prog || ! -x $dir/$prog ]]; then
		echo "# $dir/$prog is missing or not executable"
		echo "not ok $KSFT_NUM $hdr"
		KSFT_CNT_FAIL=$((KSFT_CNT_FAIL + 1))
		return
	fi
	tmo=$(ksft_timeout "$coll")
	out=$(mktemp "${TMPDIR:-/tmp}/ksft-out.XXXXXX")
	t0=$SECONDS
	# timeout(1) in its default mode signals the program's whole process
	# group, helpers it started included; -k: SIGKILL 10 s after SIGTERM.
	(cd "$dir" && timeout -k 10 "$tmo" "./$prog" </dev/null 2>&1) |
		tee "$out" | ksft_nest
	rc=${PIPESTATUS[0]}
	reason=$(sed -n 's/^1\.\.0 *# *SKIP *//p' "$out" | tail -n 1)
	rm -f "$out"
	if ((rc == KSFT_PASS)); then
		echo "ok $KSFT_NUM $hdr"
		KSFT_CNT_PASS=$((KSFT_CNT_PASS + 1))
	elif ((rc == KSFT_SKIP)); then
		echo "ok $KSFT_NUM $hdr # SKIP${reason:+ $reason}"
		KSFT_CNT_SKIP=$((KSFT_CNT_SKIP + 1))
	elif ((rc == 124 || (rc == 137 && SECONDS - t0 >= tmo))); then
		echo "not ok $KSFT_NUM $hdr # TIMEOUT $tmo seconds"
		KSFT_CNT_FAIL=$((KSFT_CNT_FAIL + 1))
	else
		echo "not ok $KSFT_NUM $hdr # exit=$rc"
		KSFT_CNT_FAIL=$((KSFT_CNT_FAIL + 1))
	fi
}

# ksft_run_many COLLECTION:PROG...: the TAP header and plan, every
# program in the order given, the totals.
ksft_run_many() {
	local t coll last=
	echo "TAP version 13"
	echo "1..$#"
	for t in "$@"; do
		coll=${t%%:*}
		if [[ $coll != "$last" ]]; then
			# Where a node's kernel log shows what ran when.
			{ echo "kselftest: Running tests in $coll" >/dev/kmsg; } 2>/dev/null
			last=$coll
		fi
		ksft_run_one "$coll" "${t#*:}"
	done
	echo "# Totals: pass:$KSFT_CNT_PASS fail:$KSFT_CNT_FAIL xfail:0 xpass:0 skip:$KSFT_CNT_SKIP error:0"
}
