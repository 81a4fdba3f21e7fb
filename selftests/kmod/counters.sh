#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Port counters move with traffic: two hosts, rxe on each, perftest
# ib_write_bw between them. The counters file is checked against the
# driver's own sysfs hw_counters, an independent reader of the same
# counters. Run with lab-run --hosts 2 on both hosts.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lib/lab-guest.sh"

lab_hosts 2 || tap_skip_all "$LAB_WHY: perftest between two hosts"
rtune_require
command -v ib_write_bw >/dev/null || tap_skip_all "perftest not installed"

ND=eth0
IB=rtc0
ITERS=2000
PORT=18515
CTR=$RT/$IB/ports/1/counters
SYS=/sys/class/infiniband/$IB/ports/1/hw_counters

# counter NAME: a counter's value from rocetune's table.
counter() { awk -v n="$1" '$1 == n { print $2; f = 1 } END { exit !f }' "$CTR"; }

tap_plan 11

rtune_loaded && rtune_unload
tap_ok "insmod rocetune.ko" rtune_load
rdma link add $IB type rxe netdev $ND
tap_ok "device directory appears" wait_for test -d "$RT/$IB"

t_names() {
	local f
	# Every driver counter is listed under its own name.
	for f in "$SYS"/*; do
		# lifespan is sysfs's cache setting, not a counter.
		[ "${f##*/}" = lifespan ] && continue
		grep -q "^${f##*/} [0-9][0-9]*$" "$CTR" || { echo "missing ${f##*/}"; return 1; }
	done
}
tap_ok "counters lists every driver hw_counter under its own name" t_names

GID=$(lab_roce_gid_index $IB "$LAB_ADDR_eth0")
sent0=$(counter sent_pkts); rcvd0=$(counter rcvd_pkts)
lab_barrier ready

QPS=$RT/$IB/ports/1/qp_stats
SNAP=$(mktemp)
# Server on host 1, client on host 2 (lab_perf_start: it returns with the
# server listening, or the client connected).
lab_perf_start --port $PORT --timeout 120 perf -- \
	ib_write_bw -d $IB -x "$GID" -n $ITERS -s 4096
# While traffic flows, keep the first qp_stats that shows a live QP (the
# QPs go when perftest exits, and the datapath forgets them).
while lab_perf_alive perf; do
	cat "$QPS" >"$SNAP.new" 2>/dev/null
	if awk 'NR > 1 && $3 == "live" { f = 1 } END { exit !f }' "$SNAP.new"; then
		mv "$SNAP.new" "$SNAP"
		break
	fi
	sleep 0.2
done
# This host's own perftest (server or client) must end with status 0.
lab_perf_wait perf
rc=$(lab_perf_exit perf)
tap_eq "ib_write_bw over rxe completes" 0 "$rc"
[ "$rc" = 0 ] || sed 's/^/#   /' "$LAB_HOST_DIR/perf.log"
lab_barrier done

sent1=$(counter sent_pkts); rcvd1=$(counter rcvd_pkts)
tap_diag "sent_pkts $sent0 -> $sent1, rcvd_pkts $rcvd0 -> $rcvd1"
# The client writes ITERS messages of one 4 KiB packet (MTU 4096 needs a
# larger netdev MTU, so each is several packets); the server acks them.
if [ "$LAB_HOST" = 2 ]; then
	tap_ok "sent_pkts grew by at least $ITERS on the writer" test $((sent1 - sent0)) -ge $ITERS
	tap_ok "rcvd_pkts grew on the writer (acks)" test $((rcvd1 - rcvd0)) -gt 0
else
	tap_ok "rcvd_pkts grew by at least $ITERS on the target" test $((rcvd1 - rcvd0)) -ge $ITERS
	tap_ok "sent_pkts grew on the target (acks)" test $((sent1 - sent0)) -gt 0
fi
# Monotonic and consistent with sysfs: read sysfs, then ours; ours >= sysfs.
t_matches_sysfs() {
	local s c
	s=$(cat "$SYS/sent_pkts"); c=$(counter sent_pkts)
	[ "$c" -ge "$s" ] && [ "$s" -ge "$sent1" ]
}
tap_ok "counters agree with sysfs hw_counters" t_matches_sysfs

# The software datapath tracked the QPs: the bulk read is whole text
# (configfs hands userspace the full buffer it sized: no NUL, no
# garbage), one header and one 17-field line per QP.
t_qp_stats_text() {
	local raw=$SNAP
	[ -s "$raw" ] || { echo "no qp_stats with a live QP was seen during traffic"; return 1; }
	if [ "$(tr -d '\000' <"$raw" | wc -c)" -ne "$(wc -c <"$raw")" ]; then
		echo "NUL bytes in qp_stats"; return 1
	fi
	if grep -qv '^[[:print:]]*$' "$raw"; then
		echo "non-printable bytes in qp_stats"; return 1
	fi
	head -1 "$raw" | grep -q '^qpn peer_qpn state ' || { echo "no header"; return 1; }
	awk 'NR > 1 && !/^#/ && NF != 17 { print "bad line " NR ": " $0; bad = 1 } END { exit bad }' "$raw"
}
tap_ok "qp_stats is whole text: a header and 17-field lines" t_qp_stats_text
t_qp_stats_qps() {
	# ib_write_bw uses one RC QP per side; the hooks saw its packets.
	[ "$(awk 'NR > 1 && !/^#/ && $3 == "live"' "$SNAP" | wc -l)" -ge 1 ]
}
tap_ok "qp_stats listed the live QP while it carried traffic" t_qp_stats_qps
t_qp_gone() { wait_for awk 'NR > 1 && !/^#/ { exit 1 }' "$QPS"; }
tap_ok "the QP leaves qp_stats once perftest destroyed it" t_qp_gone

rdma link delete $IB
rtune_unload
tap_ok "kernel log has no BUG/WARNING/Oops" kernel_log_clean
tap_done
