#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The analysis of bench/taillat on made-up lab output
# (selftests/host/taillat_synth.py, figures known in advance): the table's
# medians and spreads, the p99 ratio to the unloaded run, the bulk
# utilisation from the bottleneck's own counter in the small flow's window
# (its bytes subtracted; a lossy capture flagged without changing it), the target's verdict with and
# without DCQCN, the plot drawn, the fixed-rate reference scenario's row,
# verdict and place in the plot; and each kind of empty or broken
# measurement refused with exit 1, the file named and no table printed (a
# run that measured nothing must not become a row of zeros).
# bench/incast/analyze.py reads flowcap's new four-field bins as it read
# the three-field ones.

# shellcheck disable=SC2317 # the t_* checks run through tap_ok
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"
command -v python3 >/dev/null || tap_skip_all "python3 not installed"
# The interpreter itself, resolved once: through a version manager's shim
# each of the dozen runs below costs a second.
PY=$(python3 -c 'import sys; print(sys.executable)') || tap_skip_all "python3 does not run"
[ -f "$TOP/bench/taillat/analyze.py" ] || tap_skip_all "no bench/ (installed tests)"

A=$TOP/bench/taillat/analyze.py
SYNTH=$TOP/selftests/host/taillat_synth.py
T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-taillat.XXXXXX")
trap 'rm -rf "$T"' EXIT

tap_header
"$PY" "$SYNTH" "$T" noresult uncal emptycap nobulk capnobulk noqueue nowin nomarks outside nosent \
	stuck gap backwards lossy capshort fixed fixedgone codel kinds badkinds || tap_bail "taillat_synth.py failed"
"$PY" "$A" --command "made up" "$T/good" "$T/plot" >"$T/table" 2>"$T/err"
good_rc=$?

t_good() {
	[ "$good_rc" -eq 0 ] || { echo "exit $good_rc"; cat "$T/err"; return 1; }
	[ ! -s "$T/err" ] || { echo "unexpected stderr:"; cat "$T/err"; return 1; }
}
tap_ok "a whole run: exit 0, nothing on stderr" t_good

# cell SCENARIO COLUMN [TABLE]: one cell of the table ($T/table unless
# named; cells are "median [min-max]").
cell() {
	awk -v s="$1" -v c="$2" '
		$1 == "scenario" { for (i = 1; i <= NF; i++) col[$i] = i }
		$1 == s { n = split($0, f, /  +/); for (i = 1; i <= n; i++) if (i == col[c]) print f[i] }' "${3:-$T/table}"
}
# cells TABLE: each "SCENARIO COLUMN expected cell" line on stdin must be
# what TABLE has.
cells() {
	local s c want got
	while read -r s c want; do
		got=$(cell "$s" "$c" "$1")
		[ "$got" = "$want" ] || { echo "$s $c: got '$got', expected '$want'"; return 1; }
	done
}
t_cells() {
	cells "$T/table" <<-EOF
	alone p99_ms 1.00 [0.90-1.10]
	off p99_ms 50.00 [45.00-55.00]
	on p99_ms 1.50 [1.35-1.65]
	on p999_ms 3.00 [2.70-3.30]
	alone p99_x -
	off p99_x 50.0 [50.0-50.0]
	on p99_x 1.5 [1.5-1.5]
	alone bulk_util -
	off bulk_util 0.999 [0.999-0.999]
	on bulk_util 0.950 [0.950-0.950]
	on win_s 7.5 [7.5-7.5]
	off small_Mbps 0.32 [0.32-0.32]
	alone small_Mbps 0.32 [0.32-0.32]
	on cap_frac 1.00 [1.00-1.00]
	off q50_ms 105.0 [105.0-105.0]
	on q99_ms 5.0 [5.0-5.0]
	on ce 100 [100-100]
	on flows 5 [5-5]
	EOF
}
tap_ok "medians [min-max] of perftest's percentiles, p99 over the unloaded p99, bulk utilisation, queue" t_cells

t_smallbytes() {
	if ! grep -qx "# bulk_util: bytes RED on ifb0 sent in the window (its own counter) less the small flow's 1000 x (138 + 62) B, over 8 Mbit/s x win_s" "$T/table" ||
		! grep -qx "# the small flow alone through the bottleneck, RED's counter over those bytes: 1.000 \[1.000-1.000\]" "$T/table"; then
		grep '^# [bt]' "$T/table"
		return 1
	fi
}
tap_ok "the small flow's bytes (64-byte write 138 B, ACK 62 B) checked against the alone runs' counter" t_smallbytes

t_target() {
	if ! grep -qx '# target (with DCQCN): p99 within 2x of the unloaded p99: 1.5x; bulk keeps >= 0.90 of the bottleneck: 0.950; met' "$T/table" ||
		! grep -qx '# the same criteria without DCQCN: p99 within 2x of the unloaded p99: 50.0x; bulk keeps >= 0.90 of the bottleneck: 0.999; not met' "$T/table"; then
		grep "^# t" "$T/table"
		return 1
	fi
}
tap_ok "target verdicts: met with DCQCN (1.5x, 0.95), not met without (50x)" t_target

# drawn PLOTDIR: plot.gp draws a PNG (PLOTDIR.png) from analyze.py's plot
# data in PLOTDIR; nothing to check without gnuplot.
drawn() {
	command -v gnuplot >/dev/null || return 0
	gnuplot -e "dir='$1'; png='$1.png'" "$TOP/bench/taillat/plot.gp" 2>"$1.gp.err" ||
		{ cat "$1.gp.err"; return 1; }
	[ "$(head -c 4 "$1.png" | od -An -c | tr -d ' ')" = '211PNG' ] || { echo "$1.png: not a PNG"; return 1; }
}

# analysed NAME: the analysis of the made-up run NAME succeeds; its table
# in $T/table-NAME, its plot data in $T/plot-NAME.
analysed() {
	local rc
	"$PY" "$A" --command "made up" "$T/$1" "$T/plot-$1" >"$T/table-$1" 2>"$T/$1.err"
	rc=$?
	[ "$rc" -eq 0 ] || { echo "exit $rc"; cat "$T/$1.err"; return 1; }
}

t_plot() {
	local n
	n=$(grep -c . "$T/plot/lat-on.dat")
	# 999 exchanges and a comment line
	[ "$n" -eq 1000 ] || { echo "lat-on.dat: $n lines"; return 1; }
	drawn "$T/plot"
}
tap_ok "plot data (every exchange of the typical run) and the PNG (if gnuplot is installed)" t_plot

# The fixed-rate reference: a fourth row, its own verdict, a fourth place
# in the plot; a run without it (params without fixed_kbps, as before the
# scenario existed) has three rows.
t_fixed() {
	analysed fixed || return 1
	cells "$T/table-fixed" <<-EOF || return 1
	fixed p99_ms 2.50 [2.25-2.75]
	fixed p99_x 2.5 [2.5-2.5]
	fixed bulk_util 0.920 [0.920-0.920]
	fixed q99_ms 1.0 [1.0-1.0]
	on p99_x 1.5 [1.5-1.5]
	EOF
	grep -qx '# fixed: the preset with every bulk QP held at 1840 kb/s (rp_min_rate_kbps = rp_max_rate_kbps), no congestion control at work: a reference' "$T/table-fixed" ||
		{ echo "no description of the fixed scenario"; return 1; }
	grep -qx '# the same criteria for the fixed allocation (reference): p99 within 2x of the unloaded p99: 2.5x; bulk keeps >= 0.90 of the bottleneck: 0.920; not met' "$T/table-fixed" ||
		{ grep '^# the same' "$T/table-fixed"; return 1; }
	grep -q '^# 3 repetitions of (alone, off, on, fixed), interleaved' "$T/table-fixed" ||
		{ echo "the repetitions line does not name fixed"; return 1; }
	if [ -n "$(cell fixed p99_ms)" ] || grep -q 'fixed' "$T/table"; then
		echo "a run without the scenario has a fixed row or line"
		return 1
	fi
	[ "$(grep -c ' fixed ' "$T/plot-fixed/pct.dat")" -eq 3 ] || { echo "pct.dat: not 3 fixed points"; return 1; }
	drawn "$T/plot-fixed"
}
tap_ok "the fixed-rate reference: its row and verdict (2.5x, 0.92: not met), a fourth place in the plot" t_fixed

t_fixedgone() {
	local out rc
	out=$("$PY" "$A" "$T/fixedgone" "$T/plot-fixedgone" 2>"$T/fixedgone.err")
	rc=$?
	if [ "$rc" -ne 1 ] || [ -n "$out" ]; then
		echo "exit $rc, output: $out"
		return 1
	fi
	if ! grep -q 'lat-fixed-2.log' "$T/fixedgone.err" ||
		! grep -q '1 of 12 measurements refused: no table' "$T/fixedgone.err"; then
		cat "$T/fixedgone.err"
		return 1
	fi
}
tap_ok "refused: a fixed-rate run without its perftest log (1 of 12)" t_fixedgone

# A run marked by CoDel's ce_threshold (the bench's default) names it, and
# its counters, where a RED run names RED; the figures do not change.
t_codel() {
	analysed codel || return 1
	grep -qx '# bottleneck: host1 ingress ifb0, HTB 8 Mbit/s + CoDel ce_threshold 3 ms (marks at dequeue), limit 560 packets;' "$T/table-codel" ||
		{ grep '^# bottleneck' "$T/table-codel"; return 1; }
	grep -qx "# the small flow alone through the bottleneck, CoDel's counter over those bytes: 1.000 \[1.000-1.000\]" "$T/table-codel" ||
		{ grep "^# the small flow alone" "$T/table-codel"; return 1; }
	if grep -q 'RED' "$T/table-codel"; then
		echo "a CoDel run names RED:"
		grep 'RED' "$T/table-codel"
		return 1
	fi
	diff <(grep -v '^#' "$T/table") <(grep -v '^#' "$T/table-codel") || { echo "the figures changed"; return 1; }
}
tap_ok "a CoDel-marked run: its bottleneck and counter named, not RED's; the same figures" t_codel

# TAILLAT_KINDS="alone on": the two rows, the one verdict and the queue
# of what ran, and a plot of two panels; the figures of those two as in
# the whole run. A kind the bench does not have is refused.
t_kinds() {
	analysed kinds || return 1
	[ "$(grep -cE '^(alone|off|on|fixed) ' "$T/table-kinds")" -eq 2 ] || { echo "not 2 rows"; cat "$T/table-kinds"; return 1; }
	diff <(grep -E '^(scenario|alone|on) ' "$T/table" | tr -s ' ') <(grep -v '^#' "$T/table-kinds" | tr -s ' ') ||
		{ echo "the rows changed"; return 1; }
	grep -q '^# 3 repetitions of (alone, on), interleaved' "$T/table-kinds" || { echo "repetitions line"; return 1; }
	grep -q '^# target (with DCQCN): .*; met$' "$T/table-kinds" || { echo "no verdict"; return 1; }
	if grep -q 'without DCQCN' "$T/table-kinds"; then
		echo "an off verdict or queue without an off run:"
		grep 'without DCQCN' "$T/table-kinds"
		return 1
	fi
	grep -qE '^# queue delay at the bottleneck \(backlog / rate\), median of the q50s: [0-9.]+ ms with DCQCN; unloaded p99 ' "$T/table-kinds" ||
		{ grep '^# queue' "$T/table-kinds"; return 1; }
	[ ! -e "$T/plot-kinds/rates-off.dat" ] || { echo "off plot data without an off run"; return 1; }
	grep -qx 'npanels = 2' "$T/plot-kinds/meta.gp" || { cat "$T/plot-kinds/meta.gp"; return 1; }
	drawn "$T/plot-kinds"
}
tap_ok "TAILLAT_KINDS='alone on': two rows, one verdict, two plot panels, the same figures" t_kinds

t_badkinds() {
	local out rc
	out=$("$PY" "$A" "$T/badkinds" "$T/plot-badkinds" 2>"$T/badkinds.err")
	rc=$?
	[ "$rc" -eq 1 ] && [ -z "$out" ] || { echo "exit $rc, output: $out"; return 1; }
	grep -q 'params: kinds "alone on of": not alone and other scenarios' "$T/badkinds.err" ||
		{ cat "$T/badkinds.err"; return 1; }
}
tap_ok "refused: a kinds line naming a scenario the bench does not have" t_badkinds

# refused FAULT WHAT: exit 1, WHAT on stderr, nothing on stdout.
refused() {
	local out rc
	out=$("$PY" "$A" "$T/$1" "$T/plot-$1" 2>"$T/$1.err")
	rc=$?
	[ "$rc" -eq 1 ] || { echo "exit $rc"; return 1; }
	[ -z "$out" ] || { echo "a table was printed:"; printf '%s\n' "$out"; return 1; }
	grep -q -- "$2" "$T/$1.err" || { echo "expected '$2' on stderr:"; cat "$T/$1.err"; return 1; }
	grep -q '1 of 9 measurements refused: no table' "$T/$1.err" || { cat "$T/$1.err"; return 1; }
}
tap_ok "refused: a perftest log without a result line" refused noresult "lat-on-2.log:.*no result line"
tap_ok "refused: perftest could not calibrate (inf)" refused uncal "lat-alone-1.log:.*could not calibrate"
tap_ok "refused: an empty capture of the bottleneck" refused emptycap "flows-off-1: nothing left the bottleneck"
tap_ok "refused: a loaded run whose counter grew by the small flow's bytes only" refused nobulk "q-on-3: no bulk traffic"
tap_ok "refused: a loaded run whose capture holds no bulk QP" refused capnobulk "flows-on-3: the capture holds no bulk QP"
tap_ok "refused: no queue sample" refused noqueue "q-off-2: no queue sample"
tap_ok "refused: no marks of host1's window" refused nowin "off-3: no window marks"
tap_ok "refused: no end mark of the small flow" refused nomarks "alone-2: the window marks are incomplete"
tap_ok "refused: small flow marks outside host1's window" refused outside "marks-on-3: the small flow's marks .* are not inside host1's"
tap_ok "refused: queue samples without the sent counters" refused nosent "q-on-2:1: not \"time backlog bytes packets\""
tap_ok "refused: a counter that did not move (zero bytes)" refused stuck "q-off-1: the bottleneck sent nothing in the window (0 bytes"
tap_ok "refused: no counter sample near the window's end (failed reads)" refused gap "q-on-1: no counter sample within 1 s after the small flow's end"
tap_ok "refused: a counter that went backwards" refused backwards "q-off-3: RED's counters went backwards"

# lossy SHARE CAP_FRAC_CELL: not refused; on-1 flagged, bulk_util from the
# counter unchanged.
lossy() {
	local out
	out=$("$PY" "$A" "$T/$1" "$T/plot-$1") || return 1
	grep -qx "# small_Mbps, flows and the plot's per-QP rates are lower bounds: the capture on ifb0 lost packets (cap_frac < 0.95, or fewer packets than RED marked CE) in on-1" <<<"$out" ||
		{ printf '%s\n' "$out"; return 1; }
	grep -q "^on .*  0\.950 \[0\.950-0\.950\]  7\.5 \[7\.5-7\.5\]  0\.32 \[0\.32-0\.32\]  $2  " <<<"$out" ||
		{ grep '^on ' <<<"$out"; return 1; }
	! grep -q 'lower bounds' "$T/table" || { echo "flagged without cause"; return 1; }
}
tap_ok "a capture that saw fewer packets than RED marked: flagged, bulk_util unchanged" lossy lossy "1\.00 \[1\.00-1\.00\]"
tap_ok "a capture that saw 80 % of the bulk bytes: cap_frac 0.81, flagged, bulk_util unchanged" lossy capshort "1\.00 \[0\.81-1\.00\]"

t_noshare() {
	local rc
	"$PY" "$A" "$T/nothing" "$T/plot-x" >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 1 ] || { echo "no share: exit $rc"; return 1; }
	"$PY" "$A" "$T/good" >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 2 ] || { echo "one argument: exit $rc"; return 1; }
}
tap_ok "a share without params exits 1; usage errors exit 2" t_noshare

t_incast() {
	local a b
	awk '{ print $1, $2, $3 }' "$T/good/host1/flows-on-1" >"$T/f3"
	cp "$T/good/host1/flows-on-1.t0" "$T/f3.t0"
	a=$("$PY" "$TOP/bench/incast/analyze.py" "$T/good/host1/flows-on-1" 5 8 "$T/good/host1/q-on-1") || return 1
	b=$("$PY" "$TOP/bench/incast/analyze.py" "$T/f3" 5 8 "$T/good/host1/q-on-1") || return 1
	[ "$a" = "$b" ] || { echo "4 fields: $a; 3 fields: $b"; return 1; }
}
tap_ok "bench/incast/analyze.py: the same figures from flowcap's 3- and 4-field bins" t_incast

# The utilisation comes from the qdisc's Sent counter when the samples
# carry it (qsample.py --sent): a counter growing at half of 8 Mbit/s is
# 0.500 whatever the capture saw; one that does not move measured nothing.
t_incast_sent() {
	local t0 u
	t0=$(cat "$T/good/host1/flows-on-1.t0")
	awk -v t0="$t0" 'BEGIN { for (i = 0; i < 1200; i++)
		printf "%.3f 1000 %d %d\n", t0 + i * 0.05, i * 25000, i * 20 }' >"$T/q-sent"
	u=$("$PY" "$TOP/bench/incast/analyze.py" "$T/good/host1/flows-on-1" 5 8 "$T/q-sent" | cut -d' ' -f1) || return 1
	[ "$u" = 0.500 ] || { echo "util $u from a counter at half the bottleneck rate"; return 1; }
	awk '{ print $1, $2, 7000, 5 }' "$T/q-sent" >"$T/q-flat"
	u=$("$PY" "$TOP/bench/incast/analyze.py" "$T/good/host1/flows-on-1" 5 8 "$T/q-flat" | cut -d' ' -f1) || return 1
	[ "$u" = 0.000 ] || { echo "util $u from a counter that did not move"; return 1; }
}
tap_ok "bench/incast/analyze.py: utilisation from the qdisc's Sent counter (0.500 at half the rate; 0 when it does not move)" t_incast_sent

# The transfer ends when the receiver's perftest exited (FLOWCAP.end),
# not at the last packet: a queue that builds after it (the sender's
# leftovers, no QP to draw a CNP) is not in q99; without .end it is.
t_incast_end() {
	local a b
	awk 'BEGIN { for (i = 0; i < 40; i++) for (p = 1; p <= 4; p++)
		printf "%.1f %d 25000 80\n", i * 0.5, 50000 + p }' >"$T/fe"
	echo 1000.0 >"$T/fe.t0"
	awk 'BEGIN { for (i = 0; i < 500; i++)
		printf "%.3f %d %d 5\n", 1000 + i * 0.05, (i < 320 ? 1000 : 400000), i * 50000 }' >"$T/qe"
	a=$("$PY" "$TOP/bench/incast/analyze.py" "$T/fe" 4 8 "$T/qe") || return 1
	[ "$(echo "$a" | cut -d' ' -f6)" = 400000 ] || { echo "no end: $a"; return 1; }
	echo 1016.5 >"$T/fe.end"
	b=$("$PY" "$TOP/bench/incast/analyze.py" "$T/fe" 4 8 "$T/qe") || return 1
	[ "$(echo "$b" | cut -d' ' -f6)" = 1000 ] || { echo "end at 16.5 s: $b"; return 1; }
	echo 1030 >"$T/fe.end"
	b=$("$PY" "$TOP/bench/incast/analyze.py" "$T/fe" 4 8 "$T/qe") || return 1
	[ "$a" = "$b" ] || { echo "an end after the last packet changed $a to $b"; return 1; }
}
tap_ok "bench/incast/analyze.py: the transfer ends when the receiver did (q99 1000 B, not the 400 kB after it)" t_incast_end

# table.py: each figure the median [min..max] of the runs; '-' above all
t_incast_table() {
	printf '%s\n' "4 on 1 0.900 0.99 1.0 4 6.0 0 10 0 1 100 200" \
		"4 on 2 0.950 0.98 - 4 6.5 2 20 1 2 300 400" \
		"4 on 3 0.920 0.97 2.0 4 6.2 1 30 0 3 200 300" >"$T/rows"
	"$PY" "$TOP/bench/incast/table.py" "$T/rows" | awk 'NR == 2' >"$T/table" || return 1
	grep -q '^4 *on *3 0.920 \[0.900..0.950\] *0.980 \[0.970..0.990\] *2.0 \[1.0..-\] *6.20 \[6.00..6.50\]' "$T/table" ||
		{ cat "$T/table"; return 1; }
	printf '%s\n' "4 on 1 0.9" >"$T/rows-bad"
	! "$PY" "$TOP/bench/incast/table.py" "$T/rows-bad" >/dev/null 2>&1 || { echo "a short row was taken"; return 1; }
}
tap_ok "bench/incast/table.py: medians and [min..max] ranges; a short row refused" t_incast_table

# table.py QMAX_B: per N with DCQCN, the runs that met all of N = 4's
# targets; each run here misses at most one, at its boundary.
t_incast_targets() {
	printf '%s\n' "16 off 1 1.000 0.999 - 16 6.5 0 9 0 1 400000 500000" \
		"16 on 1 0.950 0.990 - 16 6.5 0 9 0 1 89999 90000" \
		"16 on 2 0.990 0.995 - 16 6.5 0 9 0 1 90000 95000" \
		"16 on 3 0.990 0.989 - 16 6.5 0 9 0 1 50000 60000" \
		"16 off 2 1.000 0.999 - 16 6.5 0 9 0 1 400000 500000" \
		"16 off 3 1.000 0.999 - 16 6.5 0 9 0 1 400000 500000" >"$T/rows-t"
	"$PY" "$TOP/bench/incast/table.py" "$T/rows-t" 90000 >"$T/tt" || return 1
	grep -qx '#   N = 16: 1 of 3 (each: util 3, drops 3, q99 2, jain 2)' "$T/tt" ||
		{ cat "$T/tt"; return 1; }
	[ "$(grep -c '^#   N = ' "$T/tt")" = 1 ] || { echo "a line for the runs without DCQCN"; return 1; }
	grep -q 'queue p99 < 90000 B, Jain >= 0.99' "$T/tt" || { echo "the targets are not named"; return 1; }
	"$PY" "$TOP/bench/incast/table.py" "$T/rows-t" >"$T/tt" || return 1
	! grep -q '^#' "$T/tt" || { echo "a targets line without QMAX_B"; return 1; }
	! "$PY" "$TOP/bench/incast/table.py" "$T/rows-t" 90k >"$T/tt" 2>/dev/null || { echo "90k taken"; return 1; }
	[ ! -s "$T/tt" ] || { echo "a table printed before the bad QMAX_B was refused"; return 1; }
}
tap_ok "bench/incast/table.py: runs meeting all of N = 4's targets counted, each at its boundary" t_incast_targets
tap_done
