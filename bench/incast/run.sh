#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Incast benchmark of rocetune's software DCQCN in two lab guests, with
# and without it, side by side in one run:
#
#  1. Hook cost without congestion: 64-byte ib_write_bw message rate (one
#     QP, no bottleneck, fq on the sender), module not loaded vs loaded
#     with CC on (module defaults), alternated COST_REPS times; medians and
#     their ratio.
#  2. Incast: N = 1, 4, 16 QPs of ib_write_bw -s 65536 from host2 into one
#     ECN-marking bottleneck (HTB $BN_MBIT Mbit/s + RED ecn on host1's
#     ingress, selftests/dcqcn/lab-preset.sh), for each N first without
#     rocetune, then with it (lab preset).
#
# The path MTU is 256 bytes: rxe lets a QP have 128 packets
# unacknowledged, and all of them can wait in the bottleneck's queue, so
# N QPs can fill it with N x 128 packets before any rate matters (1024-byte
# packets: 4 QPs about 550 kB, 0.55 s at 8 Mbit/s; 256-byte: 160 kB, and
# 16 QPs 640 kB). That queue is also the feedback delay: a CE mark waits
# it out before the receiver sees it (Documentation/datapath.rst).
#
# With rocetune the QPs start at 500 kb/s, N = 16's share, and double
# every period until a CNP to any QP of theirs to host1 (INCAST_START;
# Documentation/dcqcn.rst, "Start"); while that path is congested, a QP
# more than 10 % above the mean rate of the QPs to host1 takes no
# increase, and a start-up stops doubling at that mean (dcqcn.rst,
# "Path share"); the QP timeout is 2.1 s, because a
# QP paced that low outlasts 0.54 s before rxe's next ACK
# (Documentation/datapath.rst, "A preset for the QEMU lab").
#
#   bench/incast/run.sh [lab-run options]     (on the host; ~15 min)
#   Environment: INCAST_SECS (per run, default 15), COST_REPS (default 5;
#                0 skips the hook cost), COST_SECS (default 4), BN_MBIT
#                (default 8), INCAST_NS (default "1 4 16"), INCAST_REPS
#                (runs of each N without and with rocetune, interleaved;
#                the table gives their median and range; default 3), ROCE_MTU
#                (perftest's path MTU, default 256), QP_TIMEOUT (perftest's
#                -u, the QP's local ACK timeout 4.096 us * 2^value, default
#                19: 2.1 s), INCAST_START (the QPs' start, staged after the
#                lab preset; default "rp_initial_rate_kbps=500
#                rp_additive_increase_kbps=60 rp_path_share_pct=10", ""
#                for the preset's),
#                RTUNE_EXTRA (lab preset overrides after that, "name=value
#                ..."), BN_AQM and BN_CE_MS (the
#                bottleneck's marking, selftests/dcqcn/lab-preset.sh;
#                default red), INCAST_RESULTS (where the table goes,
#                default bench/incast/results.txt).
#
# Writes bench/incast/results.txt (host1's table; the lab's output
# directory, named on stderr, keeps every log and sample). A perftest run
# that fails (no connection, a non-zero exit, no result line) or an empty
# sample (no message rate, goodput, captured flow, utilisation window or
# queue sample) ends the bench on both guests: "not ok 1 bench: REASON",
# exit 1, and the results file is left as it was. Columns:
#   util     bytes that left the bottleneck (its RED qdisc's own "Sent"
#            counter, sampled with the backlog by qsample.py --sent; the
#            per-QP capture on ifb0, bench/incast/flowcap.py, loses packets
#            in a busy guest) / its rate, over the transfer less its first
#            2 s and last 1 s (bench/incast/analyze.py); the transfer ends
#            when the receiver's perftest printed its result (below)
#   gput     ib_write_bw's average (payload) in Mb/s
#   drops    RED drops (tail drops at its limit, or hard drops) on ifb0
#   ce       packets RED marked CE
#   rexmit   rxe duplicate_request + out_of_seq_request + rcvd_seq_err +
#            completer_retry_err, both hosts
#   q50/q99  ifb0 RED backlog in bytes, sampled every 0.05 s (selftests/dcqcn/qsample.py),
#            over the window of util (steady state; RED marks every packet
#            above its max, RED_MAX)
#   qmax_B   the largest backlog sample from the first packet on: the
#            start-up transient
#   jain     Jain's index of the QPs' bytes over the util window
#   conv_s   time from the first packet until every later 1 s window has
#            Jain >= 0.9 and util >= 0.8 ("-": never)
# and, for each N with DCQCN, how many of its runs met every one of
# N = 4's targets (util >= 0.95, no drops, q99 < RED_MAX, Jain >= 0.99)
# and how many met each (table.py).

# shellcheck disable=SC2154
set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} ]]; then
	out=$(mktemp -d /tmp/rocetune-incast.XXXXXX)
	"$here/../../selftests/lab/lab-run" --hosts 2 --timeout 2400 --out "$out/run" \
		--env INCAST_SECS="${INCAST_SECS:-15}" --env COST_REPS="${COST_REPS:-5}" \
		--env COST_SECS="${COST_SECS:-4}" --env BN_MBIT="${BN_MBIT:-8}" \
		--env INCAST_NS="${INCAST_NS:-1 4 16}" --env INCAST_REPS="${INCAST_REPS:-3}" --env ROCE_MTU="${ROCE_MTU:-256}" --env QP_TIMEOUT="${QP_TIMEOUT:-19}" \
		--env INCAST_START="${INCAST_START-rp_initial_rate_kbps=500 rp_additive_increase_kbps=60 rp_path_share_pct=10}" \
		--env RTUNE_EXTRA="${RTUNE_EXTRA:-}" --env BN_AQM="${BN_AQM:-red}" \
		--env BN_CE_MS="${BN_CE_MS:-30}" "$@" \
		--script "1,2=$here/run.sh"
	rc=$?
	echo "# lab output: $out/run" >&2
	if ((rc != 0)); then
		echo "# bench failed (lab exit $rc): ${INCAST_RESULTS:-$here/results.txt} left as it was" >&2
	elif [[ -s $out/run/share/host1/results.txt ]]; then
		cp "$out/run/share/host1/results.txt" "${INCAST_RESULTS:-$here/results.txt}"
		cat "$out/run/share/host1/results.txt"
	else
		echo "# bench wrote no results" >&2
		rc=1
	fi
	exit $rc
fi

# The start goes before the caller's overrides (lab-preset.sh stages
# RTUNE_EXTRA after its own set).
EXTRA=${RTUNE_EXTRA:-}
RTUNE_EXTRA="${INCAST_START:-} $EXTRA"
. "$here/../lib/lab-bench.sh"
P=$BENCH_PORT
HW=/sys/class/infiniband/rxe0/ports/1/hw_counters
SECS=${INCAST_SECS:-15}
REPS=${COST_REPS:-5}
CSECS=${COST_SECS:-4}
NS=${INCAST_NS:-1 4 16}
IREPS=${INCAST_REPS:-3}
MTU=${ROCE_MTU:-256}
QPTO=${QP_TIMEOUT:-19}
PORT=18515
R=$LAB_HOST_DIR/results.txt

bench_setup || exit 1

hwsum() { local s=0 c; for c in duplicate_request out_of_seq_request rcvd_seq_err completer_retry_err; do s=$((s + $(cat $HW/$c))); done; echo $s; }

# one [--tolerate-close] NAME ARGS...: one perftest run (server host1,
# client host2, lab_perf_run); a failed run ends the bench on both hosts.
one() {
	local opt=()
	[[ $1 == --tolerate-close ]] && { opt+=("$1"); shift; }
	local name=$1
	shift
	lab_perf_run --port "$PORT" --timeout $((SECS + 120)) --grace 20 "${opt[@]}" "$name" -- \
		ib_write_bw -d rxe0 -x "$LAB_GID" -F --report_gbits -u "$QPTO" -m "$MTU" "$@" ||
		bench_fail "perftest run $name failed (see $name.log)"
}
avg() { lab_perf_result "$1" 4; }
mrate() { lab_perf_result "$1" 5; }

# 1. Hook cost: off, on, off, on, ... (alternated so drift hits both).
for i in $(seq "$REPS"); do
	for mode in off on; do
		[[ $mode == on ]] && bench_load
		bench_bar "cost-$mode-$i"
		one "cost-$mode-$i" -s 64 -q 1 -D "$CSECS"
		if ((LAB_HOST == 2)); then
			mr=$(mrate "cost-$mode-$i")
			lab_put "mr-$mode-$i" "$mr"
			echo "$mr" >>"$LAB_HOST_DIR/mr-$mode"
		else
			mr=$(lab_get 2 "mr-$mode-$i" 60) || bench_fail "host2 reported no message rate for cost-$mode-$i"
		fi
		bench_positive "$mr" || bench_fail "cost-$mode-$i: no message rate ('$mr')"
		[[ $mode == on ]] && bench_unload
	done
done
if ((LAB_HOST == 2)); then
	touch "$LAB_HOST_DIR/mr-off" "$LAB_HOST_DIR/mr-on"
	lab_put mr "$(tr '\n' ' ' <"$LAB_HOST_DIR/mr-off")|$(tr '\n' ' ' <"$LAB_HOST_DIR/mr-on")"
fi
bench_bottleneck

# 2. Incast, each N without then with rocetune, INCAST_REPS times (off,
# on, off, on, ...: a slow phase of the machine hits both alike).
for n in $NS; do
    for r in $(seq "$IREPS"); do
	for mode in off on; do
		name=$mode-$n-$r
		[[ $mode == on ]] && bench_load preset
		# Every run starts from an empty RED average (see rtune_lab_red);
		# a failure there ends host1, and host2 at the barrier.
		((LAB_HOST == 1)) && { rtune_lab_red replace || bench_fail "RED reset before $name"; }
		bench_bar "start-$name"
		h0=$(hwsum)
		if ((LAB_HOST == 1)); then
			d0=$(rtune_lab_redstat dropped); c0=$(rtune_lab_redstat marked)
			python3 "$here/../../selftests/dcqcn/qsample.py" --sent ifb0 "$BN_AQM" 0.05 "$LAB_HOST_DIR/q-$name" &
			mon=$!
			python3 "$here/flowcap.py" ifb0 $((SECS + 200)) "$LAB_HOST_DIR/flows-$name" &
			cap=$!
		fi
		if [[ $mode == on ]] && ((LAB_HOST == 2)); then
			# The sender's QPs while they run ("epoch_s qpn rate_kbps
			# alpha_1024ths cnp_sent cnp_rcvd ce_rcvd rate_cuts"), a
			# read and 0.25 s of sleep: about one sample a second, as
			# awk and date are slow to start on a busy vCPU. Not
			# on host1: its one vCPU is the bottleneck's, 95-98 % busy
			# at N = 16 (perftest, rxe, the capture), and a process
			# started four times a second there is load on what is
			# measured; host1's CNP totals are in counters-*.
			( while :; do
				awk -v t="$(date +%s.%N)" '$3=="live" {print t, $1, $4, $6, $7, $8, $10, $13}' "$P/qp_stats"
				sleep 0.25
			done ) >"$LAB_HOST_DIR/rates-$name" 2>/dev/null &
			rmon=$!
		fi
		# The transfer ends when the receiver's perftest prints its
		# result: it then destroys its QPs, and what host2 still sends
		# (the work requests it had posted, then their retransmissions,
		# for as long as its client takes to close) reaches no QP and
		# draws no CNP. analyze.py ends the transfer there (guest clock,
		# as its other samples).
		if ((LAB_HOST == 1)); then
			( until lab_perf_result "$name" >/dev/null; do sleep 0.2; done
			  date +%s.%N >"$LAB_HOST_DIR/flows-$name.end" ) &
			endw=$!
		fi
		# Without congestion control a run can collapse: perftest may then
		# hang in its closing handshake, after its result.
		one --tolerate-close "$name" -s 65536 -q "$n" -D "$SECS" --tclass=2
		((LAB_HOST == 1)) && { kill "$endw" 2>/dev/null; wait "$endw" 2>/dev/null; }
		[[ $mode == on ]] && ((LAB_HOST == 2)) && { kill $rmon; wait $rmon 2>/dev/null; }
		# The module was loaded for this run: its counters are the run's
		# (host1's cnp_sent against host2's cnp_handled + cnp_ignored).
		[[ $mode == on ]] && cat "$P/counters" "$P/dp_counters" >"$LAB_HOST_DIR/counters-$name" 2>&1
		h1=$(hwsum)
		if ((LAB_HOST == 1)); then
			kill $mon; wait $mon 2>/dev/null
			kill -TERM $cap; wait $cap
			peer=$(lab_get 2 "hw2-$name" 60)
			gput=$(lab_get 2 "bw-$name" 60)
			read -r util jain conv flows q50 q99 qmax < <(python3 "$here/analyze.py" \
				"$LAB_HOST_DIR/flows-$name" "$n" "$BN_MBIT" "$LAB_HOST_DIR/q-$name")
			# Empty samples (analyze.py prints zeros for them) are a
			# failed run, not a figure.
			bad=
			bench_positive "$gput" || bad+=" no goodput ('$gput');"
			bench_positive "${flows:-0}" || bad+=" no flow captured on ifb0;"
			bench_positive "${util:-0}" || bad+=" no bottleneck utilisation (transfer too short?);"
			[[ -s $LAB_HOST_DIR/q-$name ]] || bad+=" no queue samples;"
			[[ -n $peer ]] || bad+=" no counters from host2;"
			lab_put "row-$name" "${bad:-ok}"
			[[ -z $bad ]] || bench_fail "$name:$bad"
			echo "$n $mode $r $util $jain $conv $flows $(awk -v b="$gput" 'BEGIN{printf "%.2f", b*1000}') $(( $(rtune_lab_redstat dropped) - d0 )) $(( $(rtune_lab_redstat marked) - c0 )) $(( h1 - h0 + peer )) $q50 $q99 $qmax" >>"$LAB_HOST_DIR/rows"
		else
			lab_put "hw2-$name" $((h1 - h0))
			lab_put "bw-$name" "$(avg "$name")"
			[[ $mode == on ]] && cat "$P/qp_stats" >"$LAB_HOST_DIR/qp_stats-$name"
			row=$(lab_get 1 "row-$name" 300) || bench_fail "host1 did not judge $name"
			[[ $row == ok ]] || bench_fail "$name (host1):$row"
		fi
		[[ $mode == on ]] && bench_unload
		bench_bar "done-$name" 200
	done
    done
done

if ((LAB_HOST == 1)); then
	table=$(python3 "$here/table.py" "$LAB_HOST_DIR/rows" "$RED_MAX") || bench_fail "no table from the rows"
	IFS='|' read -r off on <<<"$(lab_get 2 mr 5)"
	moff=$(printf '%s\n' $off | bench_median)
	mon_=$(printf '%s\n' $on | bench_median)
	{
		echo "# rocetune incast benchmark, $(date -u +%F), kernel $(uname -r), 2 TCG guests (1 vCPU each)"
		echo "# command: INCAST_SECS=$SECS INCAST_REPS=$IREPS COST_REPS=$REPS COST_SECS=$CSECS BN_MBIT=$BN_MBIT INCAST_NS='$NS' ROCE_MTU=$MTU QP_TIMEOUT=$QPTO INCAST_START='${INCAST_START:-}' RTUNE_EXTRA='$EXTRA' BN_AQM=$BN_AQM BN_CE_MS=$BN_CE_MS bench/incast/run.sh"
		echo "# bottleneck: host1 ingress ifb0, HTB ${BN_MBIT} Mbit/s + $(rtune_lab_aqm_desc);"
		echo "# traffic: ib_write_bw -s 65536 -q N -D $SECS -u $QPTO -m $MTU --tclass=2 from host2 (root qdisc fq);"
		echo "# with rocetune: the lab preset of selftests/dcqcn/lab-preset.sh on both hosts${INCAST_START:+, and $INCAST_START}."
		echo "# each figure: the median of the $IREPS runs [min..max] (bench/incast/table.py)"
		echo "$table"
		((REPS > 0)) || echo "# hook cost: not measured (COST_REPS=0)"
		((REPS > 0)) && echo "# hook cost: 64 B ib_write_bw -q 1 -D $CSECS, no bottleneck, message rate in Mpps,"
		((REPS > 0)) && echo "#   alternated $REPS x: not loaded: $off"
		((REPS > 0)) && echo "#   loaded, CC on (module defaults): $on"
		((REPS > 0)) && echo "#   medians: not loaded $moff, loaded $mon_, ratio $(awk -v a="$mon_" -v b="$moff" 'BEGIN {printf "%.3f", b ? a / b : 0}')"
	} >"$R"
fi
bench_bar end 300
echo "1..1"; echo "ok 1 bench done"
