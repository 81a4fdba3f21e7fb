#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The IB-vs-RoCE comparator, selftests/baseline/rtune_baseline.py, on the
# host (Documentation/baselines.rst): every bad baseline file of
# selftests/unit/data/baseline/bad/ is refused with exit 2 and the
# FILE:LINE error its "# expect:" line names; the good ones and the
# shipped files (lab limits, references) are accepted; compare's verdicts
# (pass, fail naming exactly the metrics outside their limits, nothing to
# compare, a limit of the wrong kind, a zero baseline without a floor);
# capture round trip; perftest logs parsed (medians, jitter, figures run
# together, each malformed log refused); a bounded mutation fuzz of both
# parsers.

# shellcheck disable=SC2317 # the checks run through tap_ok
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"
command -v python3 >/dev/null || tap_skip_all "python3 not installed"

B=$TOP/selftests/baseline
TOOL=$B/rtune_baseline.py
D=$TOP/selftests/unit/data/baseline
T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-baseline.XXXXXX")
trap 'rm -rf "$T"' EXIT
tool() { python3 "$TOOL" "$@"; }

tap_header
# bad FILE: exit 2, one line on stderr naming the file, the expected error.
bad() {
	local f=$1 e out rc
	e=$(sed -n '1s/^# expect: //p' "$f")
	[ -n "$e" ] || { echo "$f has no '# expect:' line"; return 1; }
	out=$(tool check "$f" 2>&1) && rc=0 || rc=$?
	[ "$rc" -eq 2 ] || { echo "exit $rc: $out"; return 1; }
	[[ $out == "rtune_baseline: $f"* ]] || { echo "does not name the file: $out"; return 1; }
	[[ $out == *"$e"* ]] || { echo "expected '$e', got: $out"; return 1; }
}
for f in "$D"/bad/*.baseline; do
	tap_ok "refused: bad/${f##*/}" bad "$f"
done
tap_ok "good files accepted" tool check "$D"/good/*
tap_ok "shipped files accepted: lab-limits.baseline, ref/*" tool check "$B/lab-limits.baseline" "$B"/ref/*.baseline

# verdict BASE MEAS RC "STATUS METRIC..."; the PASS/FAIL/SKIP lines, in order.
verdict() {
	local out rc got
	out=$(tool compare "$1" "$2" 2>&1) && rc=0 || rc=$?
	[ "$rc" -eq "$3" ] || { echo "exit $rc, expected $3: $out"; return 1; }
	got=$(awk '/^(PASS|FAIL|SKIP) / {printf "%s%s %s", sep, $1, $2; sep=","}' <<<"$out")
	[ "$got" = "$4" ] || { echo "got '$got', expected '$4'"; printf '%s\n' "$out"; return 1; }
}
tap_ok "compare: within every limit, exit 0 (no baseline: SKIP)" verdict "$D/good/base.baseline" "$D/good/pass.meas" 0 \
	"PASS lat.write.8.p50,PASS lat.write.8.p99,PASS lat.write.8.p999,SKIP lat.send.4096.p50,PASS bw.write.65536,PASS jitter.write.256"
tap_ok "compare: p99 at ratio 2.007 > 2 and bw at 0.85 < 0.9 fail, exit 1" verdict "$D/good/base.baseline" "$D/good/fail.meas" 1 \
	"PASS lat.write.8.p50,FAIL lat.write.8.p99,PASS lat.write.8.p999,SKIP lat.send.4096.p50,FAIL bw.write.65536,PASS jitter.write.256"
tap_ok "compare: nothing in common, exit 3" verdict "$D/good/base.baseline" "$D/good/nothing.meas" 3 "SKIP lat.write.4096.p50"
t_ratio() {
	tool compare "$D/good/base.baseline" "$D/good/pass.meas" |
		grep -x 'PASS jitter.write.256 measured 0.14 us baseline 0 us (floor 0.05) ratio 2.800 <= 3 margin x1.07 (src=ib1, limit .*base.baseline:15)' >/dev/null
}
tap_ok "compare: the ratio against the floor, margin and limit line printed" t_ratio

printf 'rocetune-baseline 1\nsource s 2026-01-01 t\nvalue bw.write.65536 1000 MB/s src=s\nlimit * max_ratio 2\n' >"$T/kind.baseline"
printf 'rocetune-baseline 1\nsource s 2026-01-01 t\nvalue jitter.write.256 0 us src=s\nlimit jitter.* max_ratio 2\n' >"$T/zero.baseline"
printf 'rocetune-baseline 1\nsource r 2026-01-01 t\nvalue bw.write.65536 900 MB/s src=r\nvalue jitter.write.256 1 us src=r\n' >"$T/m.meas"
printf 'rocetune-baseline 1\nsource s 2026-01-01 t\nvalue bw.write.65536 0 MB/s src=s\nlimit bw.* min_ratio 0.5\n' >"$T/zerobw.baseline"
printf 'rocetune-baseline 1\nsource r 2026-01-01 t\nvalue bw.write.65536 0.00 MB/s src=r\n' >"$T/zerobw.meas"
t_err() { # BASE MESSAGE
	local out rc
	out=$(tool compare "$1" "$T/m.meas" 2>&1) && rc=0 || rc=$?
	if [ "$rc" -ne 2 ] || [[ $out != *"$2"* ]]; then echo "exit $rc: $out"; return 1; fi
}
tap_ok "compare: a max_ratio limit matching bandwidth is an error at its line" \
	t_err "$T/kind.baseline" "kind.baseline:4: max_ratio limit * matches bw.write.65536, which needs min_ratio"
tap_ok "compare: a zero baseline and no floor is an error" \
	t_err "$T/zero.baseline" "zero.baseline:3: jitter.write.256 has baseline 0 and the limit"
tap_ok "compare: a zero bandwidth baseline is an error" \
	t_err "$T/zerobw.baseline" "zerobw.baseline:3: bw.write.65536 has baseline 0: no ratio"
tap_ok "compare: a measured 0.00 MB/s (perftest printed it) fails, exit 1" \
	verdict "$D/good/base.baseline" "$T/zerobw.meas" 1 "FAIL bw.write.65536"
tap_ok "compare: a missing file is an error" t_err "$T/none.baseline" "none.baseline: No such file"

t_capture() {
	tool capture --limits "$D/good/base.baseline" "$D/good/pass.meas" >"$T/cap.baseline" &&
	tool check "$T/cap.baseline" &&
	[ "$(grep -c '^limit ' "$T/cap.baseline")" -eq 4 ] &&
	[ "$(grep -c '^value ' "$T/cap.baseline")" -eq 6 ] &&
	tool compare "$T/cap.baseline" "$D/good/pass.meas" | grep -x 'compared 6: 6 passed, 0 failed, 0 not compared' >/dev/null
}
tap_ok "capture: values and limits, and the measurement passes against itself" t_capture

P=$D/perftest
t_parse_lat() {
	local out
	out=$(tool parse lat write 256 run "$P"/lat-256-1.log "$P"/lat-256-2.log "$P"/lat-256-3.log) || return 1
	[ "$out" = "value lat.write.256.min 380.00 us src=run
value lat.write.256.p50 612.40 us src=run
value lat.write.256.p99 1200.10 us src=run
value lat.write.256.p999 4800.00 us src=run
value jitter.write.256 41.80 us src=run" ] || { echo "$out"; return 1; }
}
tap_ok "parse: three ib_write_lat runs give the smallest min, the medians of p50, p99, p999, and jitter = max - min of p50" t_parse_lat
tap_eq "parse: figures run together (2465.901000.00) are split at two decimals" \
	"value lat.write.8.p99 1000.00 us src=r" "$(tool parse lat write 8 r "$P/lat-8-glued.log" | grep 'p99 ')"
tap_eq "parse: ib_write_bw's BW average" "value bw.write.65536 8.52 MB/s src=r" \
	"$(tool parse bw write 65536 r "$P/bw-65536.log")"
badlog() { # KIND SIZE LOG MESSAGE
	local out rc
	out=$(tool parse "$1" write "$2" r "$P/$3" 2>&1) && rc=0 || rc=$?
	if [ "$rc" -ne 2 ] || [[ $out != *"$P/$3"*"$4"* ]]; then echo "exit $rc: $out"; return 1; fi
}
tap_ok "parse: --report_gbits output refused" badlog bw 65536 bw-gbits.log ":6: BW not in MB/sec"
tap_ok "parse: a header without a result refused" badlog lat 8 lat-noresult.log ":10: no result line after the header"
tap_ok "parse: no header at all refused" badlog lat 8 lat-noheader.log "no perftest latency result header"
tap_ok "parse: a header without percentiles refused" badlog lat 8 lat-nopct.log ":10: no percentiles"
tap_ok "parse: two result lines refused" badlog lat 8 lat-two-results.log ":13: a second result line"
tap_ok "parse: a result for another size refused" badlog lat 256 lat-8.log ":11: result for 8 bytes, expected 256"
tap_ok "parse: bandwidth of a perftest that could not calibrate its clock refused" \
	badlog bw 65536 bw-uncalibrated.log ":8: perftest could not calibrate its clock"
tap_ok "parse: latency of a perftest that could not calibrate its clock (inf) refused" \
	badlog lat 8 lat-uncalibrated.log ":13: perftest could not calibrate its clock"
tap_eq "parse: a perftest that calibrated on its second try has figures" \
	"value lat.write.8.min 400.12 us src=r" \
	"$(tool parse lat write 8 r "$P/lat-calibrated-late.log" | grep 'min ')"
t_usage() {
	local a rc
	for a in "" bogus "compare x" "parse lat write 0 r x" "parse lat read 8 r x" "capture x y"; do
		# shellcheck disable=SC2086 # the words are the arguments
		tool $a 2>/dev/null && rc=0 || rc=$?
		[ "$rc" -eq 2 ] || { echo "'$a': exit $rc"; return 1; }
	done
}
tap_ok "usage errors exit 2" t_usage

n=$(python3 "$TOP/selftests/host/baseline_fuzz.py" "$D" 300 2>&1) && rc=0 || rc=$?
if [ "$rc" -eq 0 ]; then
	tap_pass "fuzz: $n mutants of the seeds through both parsers, every one a result or a FILE:LINE error"
else
	tap_fail "fuzz: mutants through both parsers" "$n"
fi
tap_done
