#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One host of `make lab` (selftests/lab/demo.sh runs it on both guests and
# prints what it leaves in the share, host by host). Host 2 writes to
# host 1 through the lab's ECN bottleneck on host 1's ingress:
#
#   host2 dcb0@eth0 (fq) --- link --- eth0 -> ifb0 (HTB + RED ecn) -> dcb0 host1
#
# rxe runs on a DCB-capable test netdev (rocetune_dcbsim, dcb0 on eth0) so
# that the whole Soft-RoCE profile, PFC and DSCP trust included, applies.
#
# Sections, each written whole as $LAB_HOST_DIR/sec-NAME (demo.sh prints
# them in this order, host1's then host2's):
#   state      before: devices, qdisc, `rocetune show`
#   diff       `rocetune diff profiles/soft-roce-lab.conf`
#   apply      `rocetune apply profiles/soft-roce-lab.conf`
#   show       `rocetune show` after it
#   setup      the bottleneck, fq, the lab DCQCN preset, DCQCN off
# Then the same incast twice, "off" (DCQCN disabled for the profile's RoCE
# priority) and "on": host 2 writes live-PHASE (per-QP rates from qp_stats
# every 2 s, with host 1's queue) while it runs and live-PHASE.done after;
# both keep qp-PHASE, the last qp_stats table with every QP live. Host 1
# writes results (one line per phase, measured here) and the samples the
# plot is drawn from (flows-PHASE, q-PHASE). A failure writes "error".
#
# Environment: DEMO_SECS (seconds of traffic per phase, default 15).

# shellcheck disable=SC2154 # LAB_* come from /run/lab/env
set -u
TOP=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
. "$TOP/selftests/lib/lab-guest.sh"
# A bottleneck buffer smaller than the four QPs' windows, as in
# selftests/dcqcn/ecn-bottleneck.sh: without congestion control it overflows.
# shellcheck disable=SC2034 # read by lab-preset.sh
RED_LIMIT=100000
. "$TOP/selftests/dcqcn/lab-preset.sh"

RTN=$TOP/tools/rocetune/rocetune
PROFILE=$TOP/profiles/soft-roce-lab.conf
RT=/sys/kernel/config/rocetune
P=$RT/rxe0/ports/1
HW=/sys/class/infiniband/rxe0/ports/1/hw_counters
SECS=${DEMO_SECS:-15}
PORT=18515
D=$LAB_HOST_DIR
PEERDIR=$LAB_RUN_DIR/host$((3 - LAB_HOST))

die() {
	echo "host$LAB_HOST: $*" >"$D/error"
	echo "demo-guest: $*" >&2
	exit 1
}

# section NAME: stdin becomes $D/sec-NAME, all at once.
section() { cat >"$D/.sec-$1" && mv "$D/.sec-$1" "$D/sec-$1"; }

# run CMD...: "$ CMD" and its output (stdout and stderr), then its exit
# status on stdout; returns the status.
run() {
	local rc a=("$@")
	a[0]=${a[0]##*/}
	echo "\$ ${a[*]/#$TOP\//}"
	"$@" 2>&1
	rc=$?
	echo "(exit $rc)"
	return $rc
}

# ---- set up: rxe on dcb0, stacked on eth0, with rocetune.ko loaded
modprobe configfs
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
for m in rdma_rxe rdma_cm sch_fq sch_red sch_htb ifb; do
	modprobe $m || die "modprobe $m"
done
insmod "$TOP/kmod/dcbsim/rocetune_dcbsim.ko" || die "insmod rocetune_dcbsim.ko"
insmod "$TOP/kmod/rocetune.ko" || die "insmod rocetune.ko"
ip link add link eth0 name dcb0 type dcbsim || die "ip link add dcb0"
ip addr flush dev eth0 scope global
ip addr add "$LAB_ADDR_eth0/24" dev dcb0 || die "address on dcb0"
ip link set dcb0 up || die "dcb0 up"
rdma link add rxe0 type rxe netdev dcb0 || die "rdma link add rxe0"
for _ in $(seq 100); do [[ -d $P ]] && break; sleep 0.1; done
[[ -d $P ]] || die "no $P"
gid=$(lab_roce_gid_index rxe0 "$LAB_ADDR_eth0") || die "no RoCE v2 GID"
lab_wait_ping "$LAB_PEER_eth0" 60 || die "peer does not answer ping"

# ---- the profile: state, diff, apply, show
{
	echo "rxe0 on dcb0@eth0 ($LAB_ADDR_eth0), rocetune.ko $(cat $RT/version)," \
		"root qdisc $(tc qdisc show dev dcb0 root | awk '{print $2; exit}')"
	run "$RTN" show
} | section state
lab_barrier state 120 || die "peer lost (state)"
run "$RTN" diff "$PROFILE" >"$D/diff.out"
drc=$?
section diff <"$D/diff.out"
[[ $drc == [02] ]] || die "rocetune diff failed (exit $drc)"
run "$RTN" apply "$PROFILE" >"$D/apply.out"
arc=$?
section apply <"$D/apply.out"
[[ $arc == [02] ]] || die "rocetune apply failed (exit $arc)"
run "$RTN" show | section show
lab_barrier applied 120 || die "peer lost (apply)"

# ---- the incast set-up
prios() { printf '%s' "$1" >"$P/cc/staged/np_enabled_prios" &&
	printf '%s' "$1" >"$P/cc/staged/rp_enabled_prios" &&
	printf 1 >"$P/cc/commit"; }
if ((LAB_HOST == 1)); then
	rtune_lab_bottleneck || die "bottleneck"
	echo "$BN_MBIT $RED_LIMIT" >"$D/bottleneck"
fi
# Pacing needs fq on the rxe netdev (rocetune.ko paces a QP through its
# socket's pacing rate, which only fq honours), with an orphan mask wide
# enough that no two QPs share a flow (Documentation/datapath.rst).
lab_fq dcb0 || die "fq on dcb0"
rtune_lab_preset "$P" || die "lab preset: $(cat "$P/cc/last_error")"
prios none || die "DCQCN off: $(cat "$P/cc/last_error")"
{
	if ((LAB_HOST == 1)); then
		echo "receiver. Bottleneck on eth0's ingress: ifb0, HTB ${BN_MBIT} Mbit/s, RoCEv2 into"
		echo "RED ecn (marks CE from ${RED_MIN} B, every packet above ${RED_MAX} B, drops at ${RED_LIMIT} B):"
		tc qdisc show dev ifb0 | sed 's/^/  /'
	else
		echo "sender: 4 QPs of ib_write_bw -s 65536 -m 256 -u 17 --tclass=106 to host1"
		echo "(DSCP 26: priority 3, the profile's RoCE class; ECN ECT(0))"
	fi
	echo "root qdisc of dcb0: fq; rocetune.ko pacing: $(cat "$P/pacing")"
	echo "DCQCN parameters: the profile's, then the lab preset (selftests/dcqcn/lab-preset.sh:"
	echo "TCG moves tens of Mb/s, not 40 Gb/s), e.g. rp_max_rate_kbps=$(cat "$P/cc/active/rp_max_rate_kbps")"
	echo "first run: np_enabled_prios=$(cat "$P/cc/active/np_enabled_prios")" \
		"rp_enabled_prios=$(cat "$P/cc/active/rp_enabled_prios") (DCQCN off)"
} | section setup
lab_barrier setup 120 || die "peer lost (setup)"

hwsum() {
	local s=0 c
	for c in duplicate_request out_of_seq_request rcvd_seq_err completer_retry_err; do
		s=$((s + $(cat "$HW/$c")))
	done
	echo $s
}

# monitor NAME: the last qp_stats with live QPs in $D/qp-NAME; on host 2
# also the live lines, $D/live-NAME (selftests/lab/demo-qpmon.py).
# Run as "monitor NAME &": exec, so that the job's PID is python's and a
# kill stops it (a python left running holds the guest's output open and
# the guest never ends).
monitor() {
	if ((LAB_HOST == 2)); then
		exec python3 "$TOP/selftests/lab/demo-qpmon.py" "$P/qp_stats" "$D/qp-$1" \
			"$D/live-$1" "$PEERDIR/q-$1"
	else
		exec python3 "$TOP/selftests/lab/demo-qpmon.py" "$P/qp_stats" "$D/qp-$1"
	fi
}

# phase NAME LABEL LAST: the incast, server on host 1, client on host 2,
# measured; its files and results under LABEL. perftest times with the
# CPU's cycle counter, which it calibrates against the clock at start; in
# a TCG guest that can fail ("Correlation coefficient r^2 ... < 0.9"), and
# then its Gb/s reads 0.00. Such a run returns 1 and records nothing
# (phase is run again), unless it is the LAST try: then its result stands
# and the table below refuses it.
phase() {
	local name=$1 label=$2 last=$3 h0 h1 d0 m0 mon qmon cap rc peer cal=1
	h0=$(hwsum)
	if ((LAB_HOST == 1)); then
		# A fresh RED average for each run (see rtune_lab_red).
		rtune_lab_red replace || die "RED reset"
		d0=$(rtune_lab_redstat dropped); m0=$(rtune_lab_redstat marked)
		python3 "$TOP/selftests/dcqcn/qsample.py" --sent ifb0 red 0.05 "$D/q-$label" &
		qmon=$!
		python3 "$TOP/bench/incast/flowcap.py" ifb0 $((SECS + 120)) "$D/flows-$label" &
		cap=$!
	fi
	monitor "$label" &
	mon=$!
	lab_barrier "start-$name" 120 || die "peer lost (start $name)"
	# Server on host 1, client on host 2, each logging to $D/perf-NAME.log.
	# After a collapse the server can hang in its final handshake: it gets
	# 10 s after the client. The client's exit status goes into the results.
	lab_perf_run --port "$PORT" --timeout $((SECS + 60)) --grace 10 --tries 5 \
		"perf-$name" -- ib_write_bw -d rxe0 -x "$gid" -s 65536 -q 4 -D "$SECS" -F \
		--report_gbits --tclass=106 -u 17 -m 256
	rc=$(lab_perf_exit "perf-$name")
	kill $mon 2>/dev/null
	wait $mon 2>/dev/null
	h1=$(hwsum)
	if ((LAB_HOST == 2)); then
		lab_perf_uncalibrated "perf-$name" && cal=0
		# ib_write_bw's average (Gb/s) of the line for 65536-byte messages.
		lab_put "p2-$name" "${rc:-1} $(lab_perf_result "perf-$name" 4 || echo 0) $((h1 - h0)) $cal"
		if ((cal || last)); then
			: >"$D/live-$label.done"
		else
			echo "perftest could not calibrate its clock (r^2 < 0.9), so its Gb/s is no figure: the run again" \
				>>"$D/live-$label"
		fi
	else
		kill $qmon; wait $qmon 2>/dev/null
		kill -TERM $cap; wait $cap
		peer=$(lab_get 2 "p2-$name" 60) || die "no result from host2 ($name)"
		read -r rc gbps rx2 cal <<<"$peer"
		read -r util jain conv flows q50 q99 qmax < <(python3 \
			"$TOP/bench/incast/analyze.py" "$D/flows-$label" 4 "$BN_MBIT" "$D/q-$label")
		# name perf_rc gbps drops marked rexmit util jain q50 q99 qmax flows qsamples
		((cal || last)) &&
		echo "$label $rc $gbps $(($(rtune_lab_redstat dropped) - d0))" \
			"$(($(rtune_lab_redstat marked) - m0)) $((h1 - h0 + rx2))" \
			"$util $jain $q50 $q99 $qmax $flows $(wc -l <"$D/q-$label")" >>"$D/results"
		: "$conv"
	fi
	lab_barrier "end-$name" 120 || die "peer lost (end $name)"
	((cal))
}
# measure LABEL: phase LABEL, once more if perftest could not calibrate.
measure() { phase "$1" "$1" 0 || phase "$1-again" "$1" 1 || true; }

measure off
prios 3 || die "DCQCN on: $(cat "$P/cc/last_error")"
{
	echo "np_enabled_prios=$(cat "$P/cc/active/np_enabled_prios")" \
		"rp_enabled_prios=$(cat "$P/cc/active/rp_enabled_prios"): DCQCN on for priority 3"
} | section dcqcn-on
lab_barrier dcqcn-on 120 || die "peer lost (dcqcn on)"
measure on

dmesg | grep -E 'BUG:|WARNING:|Oops' && die "kernel warnings (dmesg)"
exit 0
