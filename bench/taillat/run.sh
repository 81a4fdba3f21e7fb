#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tail latency of a small-message flow (gradient synchronisation, say) that
# shares the ECN bottleneck of bench/incast with N bulk QPs, in two lab
# guests, in one run, each scenario repeated REPS times, interleaved
# (alone, off, on, fixed, alone, off, ...) so that a slow phase of the
# machine hits them all alike:
#
#   alone  the small flow alone through the bottleneck: the unloaded
#          baseline
#   off    the small flow while N bulk QPs (ib_write_bw -q N) fill the
#          bottleneck, without rocetune
#   on     the same with rocetune's DCQCN (the lab preset of
#          selftests/dcqcn/lab-preset.sh) on both hosts
#   fixed  the same with each bulk QP paced by rocetune at one fixed
#          rate (the preset with rp_min_rate_kbps = rp_max_rate_kbps =
#          TAILLAT_FIXED), so that no congestion control moves it: a
#          reference, the latency an allocation that is perfect and
#          steady at that utilisation gets in this lab; what DCQCN
#          reaches at the same utilisation can be no better
#
# The small flow is ib_write_lat -s SIZE -n ITERS -U from host2 to host1
# (perftest's one-way figure: half the round trip; its writes and their
# acknowledgements from host2 cross host1's ingress bottleneck, the
# replies do not). The bulk QPs start WARM seconds before it, run until it
# ended and are then stopped, so every latency sample is a loaded one.
#
#   bench/taillat/run.sh [lab-run options]     (on the host; ~35 min)
#   Environment: TAILLAT_REPS (default 3), TAILLAT_N (bulk QPs, 4),
#                TAILLAT_SIZE (small message bytes, 64), TAILLAT_ITERS
#                (small flow exchanges, 1000), TAILLAT_WARM (s of bulk
#                before the small flow, 5), TAILLAT_LATMAX (s a small flow
#                may take, 700: without DCQCN an exchange waits ~0.5 s),
#                TAILLAT_FIXED (kb/s of each bulk QP in
#                the fixed scenario; default 0.92 of BN_MBIT over
#                TAILLAT_N; 0 leaves the scenario out), TAILLAT_KINDS
#                (the scenarios to run, in this order; alone and one
#                more at least; default "alone off on fixed": "alone on"
#                tries a setting in minutes, off taking most of the
#                time), BN_MBIT (8),
#                ROCE_MTU (1024), BN_AQM and BN_CE_MS (how the
#                bottleneck marks: codel, CoDel's ce_threshold of 3 ms;
#                red for RED_MIN, RED_MAX (bytes) and RED_BURST, with
#                lab-preset.sh's defaults), RTUNE_EXTRA (lab preset
#                overrides), TAILLAT_RESULTS (the table, default
#                bench/taillat/results.txt; the plot goes next to it with
#                .png for .txt).
#
# Why 1024 bytes and marking at 3 ms of queue, not bench/incast's 256
# bytes and RED (Documentation/datapath.rst, "Tail latency behind bulk
# QPs"): at 256 bytes rxe's per-packet work on the guests' one vCPU
# alone keeps the small flow's p99 at 3x its unloaded one, with no
# queue at all (the fixed reference, results.txt); and a switch marks
# RoCE on its instantaneous egress queue, as ce_threshold does, where
# RED's moving average lets a queue grow for many packets first.
#
# What the bulk QPs moved is counted by the bottleneck itself: host1
# samples the marking qdisc's bytes sent on ifb0 with its backlog every 50 ms
# (qsample.py --sent) and marks the small flow's window from its server's
# log (marks.py), inside marks of its own around it (after the warm-up
# and before the server starts, after it ended and before the bulk QPs
# are stopped); the analysis takes the counter's growth in the window
# less the small flow's own bytes. A per-QP capture on ifb0
# (bench/incast/flowcap.py) gives what needs per-QP detail (the small
# flow's rate, the plot's rates); it loses packets on a busy vCPU, and
# the table says how much it saw.
#
# The guests only measure; the host analyses the share afterwards
# (bench/taillat/analyze.py) and draws the plot (plot.gp, gnuplot). A
# perftest that fails (no connection, no result, bulk traffic that ended
# before the small flow did) ends the lab run on both guests, and any
# empty sample (no latency figures, no window marks, no counter sample
# near either end of the window, counters that did not move, no bulk
# bytes, nothing captured on ifb0) fails the analysis: either way the
# last line is "not ok 1 taillat: REASON", the exit status 1, and the
# results are left as they were. Columns: see analyze.py.

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} ]]; then
	res=${TAILLAT_RESULTS:-$here/results.txt}
	png=${res%.txt}.png
	nok() { echo "not ok 1 taillat: $*"; exit 1; }
	command -v gnuplot >/dev/null || nok "gnuplot not found (make deps installs gnuplot-nox)"
	cmd="TAILLAT_REPS=${TAILLAT_REPS:-3} TAILLAT_N=${TAILLAT_N:-4} TAILLAT_SIZE=${TAILLAT_SIZE:-64}"
	cmd+=" TAILLAT_ITERS=${TAILLAT_ITERS:-1000} TAILLAT_WARM=${TAILLAT_WARM:-5}"
	# The fixed scenario's rate: 0.92 of the bottleneck over the bulk QPs,
	# just above the target's 0.90 (the qdisc's counter counts the headers the
	# pacing counts, so the share is the utilisation).
	fixed=${TAILLAT_FIXED-$(awk -v b="${BN_MBIT:-8}" -v n="${TAILLAT_N:-4}" \
		'BEGIN { if (n > 0) printf "%d", b * 920 / n }')}
	[[ $fixed =~ ^[0-9]+$ ]] || nok "TAILLAT_FIXED='$fixed' is not a rate in kb/s (0: no fixed scenario)"
	cmd+=" TAILLAT_FIXED=$fixed"
	kinds=
	read -ra ks <<<"${TAILLAT_KINDS:-alone off on fixed}"
	for k in "${ks[@]}"; do
		case $k in
		alone | off | on | fixed) ;;
		*) nok "TAILLAT_KINDS: '$k' is not a scenario (alone, off, on, fixed)" ;;
		esac
		[[ " $kinds " == *" $k "* ]] && nok "TAILLAT_KINDS: $k twice"
		[[ $k == fixed ]] && ((fixed == 0)) && continue
		kinds+="${kinds:+ }$k"
	done
	[[ " $kinds " == *" alone "* && $kinds == *" "* ]] ||
		nok "TAILLAT_KINDS='${TAILLAT_KINDS:-}': alone (the baseline) and a loaded scenario are needed"
	cmd+=" TAILLAT_KINDS='$kinds'"
	# The bottleneck's RED (selftests/dcqcn/lab-preset.sh's defaults),
	# used when BN_AQM=red.
	red_min=${RED_MIN:-30000} red_max=${RED_MAX:-90000} red_burst=${RED_BURST:-45}
	latmax=${TAILLAT_LATMAX:-700} aqm=${BN_AQM:-codel} ce_ms=${BN_CE_MS:-3}
	[[ $aqm == codel || $aqm == red ]] || nok "BN_AQM='$aqm' is neither codel nor red"
	[[ $latmax =~ ^[1-9][0-9]*$ ]] || nok "TAILLAT_LATMAX='$latmax' is not a number of seconds"
	[[ ${TAILLAT_REPS:-3} =~ ^[1-9][0-9]?$ ]] || nok "TAILLAT_REPS='${TAILLAT_REPS:-}' is not 1-99"
	[[ $ce_ms =~ ^[1-9][0-9]*$ ]] || nok "BN_CE_MS='$ce_ms' is not a whole number of ms"
	cmd+=" TAILLAT_LATMAX=$latmax BN_MBIT=${BN_MBIT:-8} ROCE_MTU=${ROCE_MTU:-1024}"
	cmd+=" BN_AQM=$aqm BN_CE_MS=$ce_ms RED_MIN=$red_min RED_MAX=$red_max RED_BURST=$red_burst"
	cmd+=" RTUNE_EXTRA='${RTUNE_EXTRA:-}' bench/taillat/run.sh${*:+ $*}"
	out=$(mktemp -d /tmp/rocetune-taillat.XXXXXX) || nok "mktemp"
	t0=$SECONDS
	# Each repetition's scenarios may take their LATMAX (in practice off
	# alone comes near it) and ~5 min besides.
	"$here/../../selftests/lab/lab-run" --hosts 2 \
		--timeout $((600 + ${TAILLAT_REPS:-3} * (latmax + 300))) --out "$out/run" \
		--env TAILLAT_REPS="${TAILLAT_REPS:-3}" --env TAILLAT_N="${TAILLAT_N:-4}" \
		--env TAILLAT_SIZE="${TAILLAT_SIZE:-64}" --env TAILLAT_ITERS="${TAILLAT_ITERS:-1000}" \
		--env TAILLAT_WARM="${TAILLAT_WARM:-5}" --env TAILLAT_LATMAX="$latmax" \
		--env TAILLAT_FIXED="$fixed" --env TAILLAT_KINDS="$kinds" \
		--env BN_MBIT="${BN_MBIT:-8}" --env ROCE_MTU="${ROCE_MTU:-1024}" \
		--env RED_MIN="$red_min" --env RED_MAX="$red_max" --env RED_BURST="$red_burst" \
		--env RTUNE_EXTRA="${RTUNE_EXTRA:-}" --env BN_AQM="$aqm" \
		--env BN_CE_MS="$ce_ms" "$@" \
		--script "1,2=$here/run.sh"
	rc=$?
	echo "# lab output: $out/run (lab wall time $((SECONDS - t0)) s)" >&2
	((rc == 0)) || nok "lab run failed (exit $rc); $res left as it was"
	python3 "$here/analyze.py" --command "$cmd" "$out/run/share" "$out/plot" \
		>"$out/results.txt" 2>"$out/analyze.err"
	rc=$?
	sed 's/^/# /' "$out/analyze.err"
	((rc == 0)) || nok "analysis refused the run (above); $res left as it was"
	gnuplot -e "dir='$out/plot'; png='$out/results.png'" "$here/plot.gp" \
		>"$out/gnuplot.log" 2>&1 || nok "gnuplot: $(head -3 "$out/gnuplot.log")"
	[[ -s $out/results.png ]] || nok "gnuplot wrote no plot"
	{ cp "$out/results.txt" "$res" && cp "$out/results.png" "$png"; } || nok "cannot write $res or $png"
	cat "$res"
	echo "ok 1 taillat: $res, $png"
	exit 0
fi

. "$here/../lib/lab-bench.sh"
REPS=${TAILLAT_REPS:-3}
N=${TAILLAT_N:-4}
SIZE=${TAILLAT_SIZE:-64}
ITERS=${TAILLAT_ITERS:-1000}
WARM=${TAILLAT_WARM:-5}
LATMAX=${TAILLAT_LATMAX:-700}
FIXED=${TAILLAT_FIXED:-0}
# Checked on the host (above).
KINDS=${TAILLAT_KINDS:-alone off on}
MTU=${ROCE_MTU:-1024}
BULK_PORT=18515
LAT_PORT=18516
D=$LAB_HOST_DIR

bench_setup || bench_fail "rxe0 on eth0, or the peer, did not come up"
bench_bottleneck
if ((LAB_HOST == 1)); then
	# What the analysis on the host needs to know about this run.
	printf '%s\n' "kernel $(uname -r)" "bn_mbit $BN_MBIT" "red $RED_MIN $RED_MAX $RED_LIMIT" \
		"reps $REPS" "n $N" "size $SIZE" "iters $ITERS" "warm $WARM" "mtu $MTU" \
		"red_burst $RED_BURST" "aqm $BN_AQM $BN_CE_MS $BN_CODEL_LIMIT" \
		"fixed_kbps $FIXED" "kinds $KINDS" >"$D/params"
fi

# run KIND NAME: one measurement; KIND alone, off, on or fixed.
run() {
	local kind=$1 name=$2 mon cap mk a b
	local -a preset
	if [[ $kind == on ]]; then
		bench_load preset || bench_fail "$name: rocetune with the lab preset did not load"
	elif [[ $kind == fixed ]]; then
		# The preset, then one rate for every bulk QP: a cut cannot go
		# below rp_min_rate_kbps nor an increase above rp_max_rate_kbps.
		preset=("${RTUNE_LAB_PRESET[@]}")
		RTUNE_LAB_PRESET+=("rp_max_rate_kbps=$FIXED" "rp_min_rate_kbps=$FIXED")
		bench_load preset || bench_fail "$name: rocetune at a fixed $FIXED kb/s a QP did not load"
		RTUNE_LAB_PRESET=("${preset[@]}")
	fi
	if ((LAB_HOST == 1)); then
		# A new RED: every run starts from an empty average
		# (lab-preset.sh). CoDel keeps no average; either's counters
		# are read as differences (red0-, red1-).
		rtune_lab_red replace || bench_fail "RED reset before $name"
		echo "$(rtune_lab_redstat dropped) $(rtune_lab_redstat marked)" >"$D/red0-$name"
		# The backlog, and the qdisc's bytes and packets sent (the bottleneck's
		# own counters), every 50 ms, each on the time of its read.
		python3 "$BENCH_TOP/selftests/dcqcn/qsample.py" --sent ifb0 "$BN_AQM" 0.05 "$D/q-$name" &
		mon=$!
		python3 "$BENCH_TOP/bench/incast/flowcap.py" ifb0 $((LATMAX + WARM + 200)) "$D/flows-$name" &
		cap=$!
		# Python takes seconds to start in a TCG guest: the window must
		# not open before the first sample of the counters.
		for _ in $(seq 300); do [[ -s $D/q-$name ]] && break; sleep 0.1; done
		[[ -s $D/q-$name ]] || bench_fail "$name: no sample of the bottleneck's counters within 30 s"
	fi
	bench_bar "start-$name"
	if [[ $kind != alone ]]; then
		# Longer than the small flow can take: stopped when it ended.
		# At nice 19: perftest polls its completion queue without pause,
		# and a TCG guest has one vCPU, which ib_write_lat (polling too)
		# would otherwise share with it; what is measured is the queue,
		# not the CPU. Bulk needs little CPU of its own: 128 WRs of 64 kB
		# outstanding per QP keep the bottleneck busy for seconds.
		lab_perf_start --port $BULK_PORT --timeout $((LATMAX + WARM + 120)) --grace 0 \
			"bulk-$name" -- nice -n 19 ib_write_bw -d rxe0 -x "$LAB_GID" -F --report_gbits -u 17 \
			-m "$MTU" -s 65536 -q "$N" -D $((LATMAX + WARM + 60)) --tclass=2
		a=$?
		# A client that could not start tells only its own host; host1
		# would otherwise serve a small flow nobody loads.
		if ((LAB_HOST == 2)); then
			lab_put "bulk-$name" "$a"
		else
			b=$(lab_get 2 "bulk-$name" 200) || b=1
			((b == 0)) || a=$b
		fi
		((a == 0)) || bench_fail "bulk-$name did not start (see bulk-$name.log)"
		((LAB_HOST == 2)) && sleep "$WARM"
	fi
	# The window, on the clock of host1's counter samples: the small
	# flow's own, from its server's log (marks.py: the header perftest
	# prints before its first exchange, the samples it prints after its
	# last), inside host1's marks around it: after the warm-up, before the
	# server starts; after it ended, before the bulk QPs are stopped
	# (barrier below).
	bench_bar "lat-$name" 200
	if ((LAB_HOST == 1)); then
		echo "$EPOCHREALTIME" >"$D/win-$name"
		python3 "$here/marks.py" "$D/lat-$name.log" "$D/marks-$name" $((LATMAX + 100)) &
		mk=$!
		# A line is timed when marks.py reads it: it must run first.
		for _ in $(seq 300); do [[ -e $D/marks-$name ]] && break; sleep 0.1; done
		[[ -e $D/marks-$name ]] || bench_fail "$name: marks.py did not start within 30 s"
	fi
	# -u 17 as for the bulk QPs: a round trip through a full queue takes
	# longer than the default QP timeout (Documentation/datapath.rst).
	# ECT (--tclass=2), so that the qdisc marks it rather than drops it.
	lab_perf_run --calibrated --port $LAT_PORT --timeout "$LATMAX" --grace 20 "lat-$name" -- \
		ib_write_lat -d rxe0 -x "$LAB_GID" -F -u 17 -m "$MTU" --tclass=2 \
		-s "$SIZE" -n "$ITERS" -U ||
		bench_fail "small flow lat-$name failed (see lat-$name.log)"
	if ((LAB_HOST == 1)); then
		wait "$mk" || bench_fail "$name: no start and end of the small flow in lat-$name.log (marks.py)"
		echo "$EPOCHREALTIME" >>"$D/win-$name"
	fi
	bench_bar "latdone-$name" 200
	if [[ $kind != alone ]]; then
		lab_perf_stop "bulk-$name" ||
			bench_fail "bulk-$name ended before the small flow did: some latency samples are unloaded"
	fi
	if ((LAB_HOST == 1)); then
		kill "$mon"; wait "$mon" 2>/dev/null
		kill -TERM "$cap"; wait "$cap"
		echo "$(rtune_lab_redstat dropped) $(rtune_lab_redstat marked)" >"$D/red1-$name"
	fi
	if [[ $kind == on || $kind == fixed ]]; then
		bench_unload || bench_fail "$name: rmmod rocetune failed"
	fi
	bench_bar "done-$name" 200
}

for i in $(seq "$REPS"); do
	for kind in $KINDS; do
		run "$kind" "$kind-$i"
	done
done
bench_bar end 300
echo "1..1"
echo "ok 1 bench: $REPS x (${KINDS// /, }) measured"
