#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make lab`: boot the two-host Soft-RoCE lab, apply the Soft-RoCE profile
# with rocetune on both hosts, then run the same incast through the lab's
# ECN bottleneck without and with rocetune's DCQCN, and show what changed:
# live per-QP rates, a side-by-side table, a plot. Each host's part is
# printed as a section of its own, host1's then host2's, as the guests
# finish it (selftests/lab/demo-guest.sh writes them into the run's share).
#
# Writes (paths printed at the end):
#   build/lab/demo-results.txt   the table
#   build/lab/demo.png           per-QP rates and the bottleneck queue over
#                                time, without and with DCQCN (gnuplot)
#   build/lab/demo/              the lab run: logs, every sample, consoles
# Exit 0 only if every step worked and both runs measured something.
#
# Environment: DEMO_SECS (seconds of traffic per run, default 15).

set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
LABDIR=$TOP/build/lab
OUT=$LABDIR/demo
S=$OUT/share
TABLE=$LABDIR/demo-results.txt
PNG=$LABDIR/demo.png
SECS=${DEMO_SECS:-15}
export DEMO_SECS=$SECS

rm -rf "$OUT" "$OUT.log" "$TABLE" "$PNG"
# The log sits beside the run directory; on a fresh clone neither exists.
mkdir -p "$LABDIR" || exit 1

. "$TOP/selftests/lab/console.sh"

lab=
fail() {
	local f stall
	echo
	echo "rocetune lab: FAILED: $*"
	for f in "$S"/host*/error; do
		[ -s "$f" ] && echo "  $(cat "$f")"
	done
	if [ -n "$lab" ] && kill -0 "$lab" 2>/dev/null; then
		kill -TERM "$lab" 2>/dev/null
		wait "$lab" 2>/dev/null
	fi
	echo "  lab log: $OUT.log; guest output: $S/host*/out.tap; consoles in $OUT/"
	tail -4 "$OUT.log" 2>/dev/null | sed 's/^/  /'
	# The lab's own emulated NIC may be what stopped (lab.rst, "Lab faults").
	for f in "$OUT"/host*.console; do
		stall=$(nic_stall "$f") || continue
		echo "  lab fault: $(basename "$f" .console)'s virtio NIC stopped transmitting:"
		echo "    ${stall:0:160}"
		echo "  that is the lab's emulated hardware, not rocetune; run it again (Documentation/lab.rst)"
	done
	exit 1
}
command -v gnuplot >/dev/null || fail "gnuplot not found (make deps installs gnuplot-nox)"

T0=$SECONDS
elapsed() { printf '%d:%02d' $(((SECONDS - T0) / 60)) $(((SECONDS - T0) % 60)); }
banner() { printf '\n=== %s  [%s]\n' "$*" "$(elapsed)"; }

echo "rocetune lab: two QEMU guests (TCG), Soft-RoCE (rxe) between them; about 3 minutes."
echo "Output directory: $OUT"
"$TOP/selftests/lab/lab-run" --hosts 2 --timeout 420 --out "$OUT" --keep \
	--env DEMO_SECS --script all="$TOP/selftests/lab/demo-guest.sh" >"$OUT.log" 2>&1 &
lab=$!

# wait_for FILE...: until every FILE exists; fails if the lab ends first.
wait_for() {
	local f missing
	while :; do
		missing=
		for f; do [ -e "$f" ] || missing=1; done
		[ -z "$missing" ] && return 0
		ls "$S"/host*/error >/dev/null 2>&1 && fail "a guest gave up"
		kill -0 "$lab" 2>/dev/null || { sleep 1; for f; do [ -e "$f" ] || fail "the lab ended before writing ${f#"$OUT"/}"; done; return 0; }
		sleep 0.5
	done
}

# section NAME TITLE: host1's and host2's section NAME, one after the other.
section() {
	local h
	wait_for "$S/host1/sec-$1" "$S/host2/sec-$1"
	for h in 1 2; do
		printf '\n--- host%s: %s\n' "$h" "$2"
		sed 's/^/  /' "$S/host$h/sec-$1"
	done
}

# stream FILE DONE: print FILE's complete lines as they arrive, until DONE.
stream() {
	local n=0 total fin
	while :; do
		fin=
		[ -e "$2" ] && fin=1
		if [ -f "$1" ]; then
			total=$(wc -l <"$1")
			if [ "$total" -gt "$n" ]; then
				sed -n "$((n + 1)),${total}p" "$1" | sed 's/^/  /'
				n=$total
			fi
		fi
		[ -n "$fin" ] && break
		ls "$S"/host*/error >/dev/null 2>&1 && fail "a guest gave up"
		kill -0 "$lab" 2>/dev/null || fail "the lab ended during the run"
		sleep 0.5
	done
	[ "$n" -gt 0 ] || fail "no per-QP rates were sampled (${1#"$OUT"/} is empty)"
}

banner "1. Each host as it boots (rocetune.ko loaded, rxe0 on dcb0, a DCB-capable test netdev on eth0)"
section state "state before"
banner "2. What 'rocetune apply profiles/soft-roce-lab.conf' would change"
section diff "rocetune diff"
banner "3. Applying the profile (every write read back; all or nothing)"
section apply "rocetune apply"
section show "rocetune show after it"
banner "4. An incast: host2 -> host1 over 4 QPs, through a bottleneck on host1 that marks ECN"
section setup "set-up"
read -r BN RL <"$S/host1/bottleneck" || fail "no bottleneck parameters from host1"

live() {
	echo
	echo "  live, every 2 s: bottleneck queue (host1), and per QP (host2, from configfs qp_stats):"
	echo "  Mb/s sent / DCQCN rate (Mb/s); ${SECS} s of traffic"
	stream "$S/host2/live-$1" "$S/host2/live-$1.done"
}
banner "5. Run 1: without DCQCN (the NICs send at full speed; nobody reacts to the CE marks)"
live off
section dcqcn-on "switching DCQCN on"
banner "6. Run 2: with rocetune's DCQCN (host1 answers CE marks with CNPs, host2's QPs slow down)"
live on

wait "$lab"
rc=$?
lab=
[ "$rc" -eq 0 ] || fail "lab-run exit $rc"

# ---- the per-QP table, while the QPs existed
banner "7. Per-QP state at the end of run 2 (configfs qp_stats, last sample with every QP live)"
for h in 2 1; do
	f=$S/host$h/qp-on
	if [ ! -s "$f" ] || ! awk 'NR > 1 && $3 == "live" {n++} END {exit !n}' "$f"; then
		fail "host$h: no per-QP table with live QPs"
	fi
	printf '\n--- host%s (%s)\n' "$h" "$([ $h = 2 ] && echo "sender: the reaction point" || echo "receiver: the notification point")"
	column -t "$f" | sed 's/^/  /'
done

# ---- the table: every number measured in this run, else no table
R=$S/host1/results
[ -s "$R" ] || fail "no results from host1"
# name perf_rc gbps drops marked rexmit util jain q50 q99 qmax flows qsamples
check() {
	awk -v p="$1" '
		$1 == p {
			seen = 1
			if ($2 != 0) { print "ib_write_bw failed (exit " $2 ")"; exit }
			if (!($3 > 0)) { print "ib_write_bw reported no bandwidth"; exit }
			if ($12 < 1) { print "no RoCE flow was seen at the bottleneck"; exit }
			if ($13 < 20) { print "the queue was sampled " $13 " times"; exit }
			if (!($7 > 0)) { print "utilisation not measured"; exit }
		}
		END { if (!seen) print "no result line" }' "$R"
}
for p in off on; do
	why=$(check $p)
	if [ -n "$why" ] && grep -qs 'Correlation coefficient' "$S/host2/perf-$p-again.log"; then
		why="$why (perftest could not calibrate its clock, in two runs)"
	fi
	[ -z "$why" ] || fail "run '$p' measured nothing: $why"
done
{
	echo "# rocetune lab, $(date -u '+%F %H:%M') UTC: ib_write_bw -q 4 -s 65536 -m 256 -u 17 --tclass=106 for ${SECS} s,"
	echo "# host2 -> host1 through HTB $BN Mbit/s + RED ecn (limit $RL B) on host1's ingress."
	printf '%-28s %14s %14s\n' "" "without DCQCN" "with DCQCN"
	awk '
		{ for (i = 2; i <= NF; i++) v[$1, i] = $i }
		function row(label, i, fmt, k) {
			k = k ? k : 1
			printf "%-28s %14s %14s\n", label, sprintf(fmt, v["off", i] * k), sprintf(fmt, v["on", i] * k)
		}
		END {
			row("RED drops (packets)", 4, "%d")
			row("CE marks (packets)", 5, "%d")
			row("retransmissions (rxe)", 6, "%d")
			row("queue p50 (bytes)", 9, "%d")
			row("queue p99 (bytes)", 10, "%d")
			row("utilisation", 7, "%.3f")
			row("fairness (Jain, 4 QPs)", 8, "%.3f")
			row("goodput (Mb/s, perftest)", 3, "%.2f", 1000)
		}' "$R"
	echo "# drops, marks: RED on the bottleneck; retransmissions: rxe duplicate_request +"
	echo "# out_of_seq_request + rcvd_seq_err + completer_retry_err, both hosts; queue: its"
	echo "# backlog every 50 ms; utilisation: bytes the bottleneck's RED qdisc sent (its own"
	echo "# counter) / its rate; fairness: bytes per QP leaving it, captured (bench/incast/"
	echo "# analyze.py); percentiles, utilisation and fairness over the run less its first 2 s"
	echo "# and last 1 s."
} >"$TABLE"
banner "8. Side by side (each number measured in this run)"
cat "$TABLE"

# ---- the plot
G=$OUT/plot
mkdir -p "$G" || fail "mkdir $G"
for p in off on; do
	t0=$(cat "$S/host1/flows-$p.t0" 2>/dev/null) || fail "no start time of run $p"
	# Per-QP Mb/s in 0.5 s bins, one column per QP (UDP source port).
	awk '
		{ b[$1] = 1; s[$2] = 1; v[$1, $2] = $3 }
		END {
			n = 0; for (q in s) p[++n] = q
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (p[j] < p[i]) { t = p[i]; p[i] = p[j]; p[j] = t }
			m = 0; for (t in b) k[++m] = t + 0
			for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (k[j] < k[i]) { t = k[i]; k[i] = k[j]; k[j] = t }
			printf "t"; for (i = 1; i <= n; i++) printf " \"QP %d\"", i; printf "\n"
			for (x = 1; x <= m; x++) {
				printf "%.1f", k[x]
				for (i = 1; i <= n; i++) printf " %.3f", v[sprintf("%.1f", k[x]), p[i]] * 8 / 0.5 / 1e6
				printf "\n"
			}
		}' "$S/host1/flows-$p" >"$G/rates-$p.dat"
	awk -v t0="$t0" '{ printf "%.2f %.1f\n", $1 - t0, $2 / 1000 }' "$S/host1/q-$p" >"$G/queue-$p.dat"
done
# One scale for both runs' rates.
ymax=$(awk 'FNR > 1 {for (i = 2; i <= NF; i++) if ($i > m) m = $i} END {printf "%.1f", m * 1.1 + 0.1}' \
	"$G/rates-off.dat" "$G/rates-on.dat")
cat >"$G/demo.gp" <<EOF
set terminal pngcairo size 1280,800 font ",10"
set output "$PNG"
set multiplot layout 2,2 title "rocetune lab: 4 QPs into an $BN Mbit/s ECN bottleneck, without and with DCQCN"
set grid
set key top right
set xrange [-1:$((SECS + 2))]
set xlabel "s since the first packet"
set ylabel "Mb/s leaving the bottleneck"
set yrange [0:$ymax]
set title "per-QP rate, without DCQCN"
plot for [c=2:5] "$G/rates-off.dat" using 1:c with lines lw 2 title columnheader(c)
set title "per-QP rate, with DCQCN"
plot for [c=2:5] "$G/rates-on.dat" using 1:c with lines lw 2 title columnheader(c)
set ylabel "kB queued"
set yrange [0:$((RL / 1000 + 10))]
set title "bottleneck queue, without DCQCN (RED limit $((RL / 1000)) kB)"
plot "$G/queue-off.dat" using 1:2 with lines lc rgb "red" title "backlog"
set title "bottleneck queue, with DCQCN"
plot "$G/queue-on.dat" using 1:2 with lines lc rgb "red" title "backlog"
unset multiplot
EOF
gnuplot "$G/demo.gp" >"$G/gnuplot.log" 2>&1 || fail "gnuplot: $(head -3 "$G/gnuplot.log")"
[ -s "$PNG" ] || fail "gnuplot wrote no $PNG"

banner "Done"
echo "  table: $TABLE"
echo "  plot:  $PNG"
echo "  every log and sample: $OUT"
echo "  demo time: $(elapsed)"
exit 0
