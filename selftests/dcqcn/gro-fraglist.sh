#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every packet of a GRO-merged skb reaches the notification point (issue 9,
# finding 11; Documentation/datapath.rst, "Merged packets"). Two lab
# guests, rocetune loaded; ib_write_bw -q 1 from host2 to host1, then the
# client is stopped (SIGSTOP), leaving both QPs live and silent. host1
# turns rx-gro-list on for eth0 (UDP GRO then merges datagrams with a
# non-zero UDP checksum into one fraglist skb before netfilter's LOCAL_IN)
# and holds GRO packets across NAPI polls (gro_flush_timeout); host2, the
# QP's peer, sends bursts of CE-marked RoCEv2 packets naming host1's QP,
# each with a correct non-zero UDP checksum and a wrong ICRC, so that rxe
# drops them after the hook (forge_roce.py ce-csum): the notification
# point counts CE on a known QP without the ICRC.
# host1 checks, against an nftables counter in the filter table (which
# runs just before rocetune's hook and counts skbs and their bytes), that
# the bursts were merged (fewer skbs than packets) and that ce_rcvd counts
# every packet that arrived, not every skb. host2 resumes its stopped
# client only after host1 has read: the client's -D ran out while it
# was stopped, so it ends at once, and the server destroys the QP.
#
# Run on the host:   selftests/dcqcn/gro-fraglist.sh [lab-run options]

# shellcheck disable=SC2154 # LAB_* come from /run/lab/env
set -uo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 2 --timeout 400 "$@" \
		--script "1,2=$here/gro-fraglist.sh"
fi

. "$here/../lib/lab-guest.sh"
. "$here/../kmod/lib.sh"
. "$here/qp-lib.sh"
lab_hosts 2 || tap_skip_all "$LAB_WHY: forged RoCE packets between two guests"
P=$RT/rxe0/ports/1
PORT=18535
BURSTS=${GRO_BURSTS:-4}
BURST=${GRO_BURST:-64}
# A forged packet: IPv4 20 + UDP 8 + BTH 12 + 16 zero bytes + ICRC 4. A
# merged skb of k of them is 28 + 32 * k bytes long at LOCAL_IN.
HDR=28
SEG=32

tap_header
rtune_require
command -v ib_write_bw >/dev/null || tap_skip_all "perftest not installed"
command -v nft >/dev/null || tap_skip_all "nft not installed: no count of skbs"
command -v ethtool >/dev/null || tap_skip_all "ethtool not installed: no rx-gro-list"
lab_rxe_up || tap_bail "rxe0 on eth0 and the peer reachable"
gid=$LAB_GID
tap_ok "insmod rocetune.ko" rtune_load
wait_for test -d "$P" || tap_bail "no configfs tree"
lab_barrier up 120 || tap_bail "peer not up"

# nft_field packets|bytes: the forged flow's counter in host1's filter table.
nft_field() {
	nft list chain inet rtune_gro input |
		awk -v f="$1" '/counter packets/ {for (i=1;i<NF;i++) if ($i==f) print $(i+1)}'
}

# -D 200: the QP must outlive both rounds (it ended 60-70 s in with -D 60).
lab_perf_start --port "$PORT" --timeout 260 --grace 0 \
	perf -- ib_write_bw -d rxe0 -x "$gid" -s 4096 -t 16 -q 1 -D 200 -F -u 18 ||
	tap_fail "ib_write_bw started"
qpn=$(live_qpn) || tap_bail "no live QP"
tap_diag "live QP $qpn, peer $(col peer_qpn)"
if ((LAB_HOST == 2)); then
	client=$(pgrep -x ib_write_bw) || tap_bail "no ib_write_bw process"
	kill -STOP "$client"
else
	lab_put qpn "$qpn"
	tap_ok "rx-gro-list on for eth0" ethtool -K eth0 rx-gro-list on
	tap_diag "$(ethtool -k eth0 | grep -E 'generic-receive-offload|rx-gro-list|rx-udp-gro' | tr -s ' \n' ' ')"
	# Hold GRO packets up to 2 ms across NAPI polls, so that a burst that
	# trickles in under TCG still meets in one GRO list.
	echo 2000000 >/sys/class/net/eth0/gro_flush_timeout &&
		echo 100 >/sys/class/net/eth0/napi_defer_hard_irqs ||
		tap_diag "no gro_flush_timeout / napi_defer_hard_irqs"
	nft add table inet rtune_gro &&
		nft add chain inet rtune_gro input '{ type filter hook input priority 0; }' &&
		nft add rule inet rtune_gro input udp sport 49953 udp dport 4791 counter ||
		tap_bail "nft set-up failed"
fi
lab_barrier quiet 120 || tap_bail "peer not quiet"

# dpc_all: every dp_counters line, one line.
dpc_all() { tr '\n' ' ' <"$P/dp_counters"; }
# round NAME MODE COUNT BURSTS: host2 sends BURSTS bursts of COUNT packets
# (forge_roce.py MODE); host1 sets segs (packets that reached LOCAL_IN),
# skbs (the skbs they came in) and ce (what ce_rcvd counted).
round() {
	local name=$1 mode=$2 count=$3 bursts=$4 k0 b0 c0 c k b _
	if ((LAB_HOST == 1)); then
		k0=$(nft_field packets) b0=$(nft_field bytes) c0=$(col ce_rcvd "$qpn")
		tap_diag "$name: before: $(dpc_all)"
		lab_barrier "$name-ready" 60
		lab_barrier "$name-sent" 120
		sleep 1
		k=$(nft_field packets) b=$(nft_field bytes)
		skbs=$((k - k0))
		segs=$(((b - b0 - HDR * skbs) / SEG))
		c=$(col ce_rcvd "$qpn")
		[[ -n $c ]] || tap_bail "$name: QP $qpn is no longer live: no ce_rcvd to read"
		ce=$((c - c0))
		tap_diag "$name: after: $(dpc_all)"
		tap_diag "$name: sent $((count * bursts)); reached LOCAL_IN: $segs packets in $skbs skbs ($((b - b0)) bytes); ce_rcvd +$ce"
		lab_barrier "$name-read" 60
	else
		lab_barrier "$name-ready" 60
		for _ in $(seq "$bursts"); do
			python3 "$here/forge_roce.py" "$mode" "$LAB_ADDR_eth0" "$LAB_PEER_eth0" \
				"$peerq" "$count" || tap_diag "forge_roce.py $mode failed"
			sleep 0.2
		done
		lab_barrier "$name-sent" 120
		# The client stays stopped until host1 has read: resumed, it
		# ends the run at once (its -D ran out while stopped) and host1's
		# server then destroys the QP.
		lab_barrier "$name-read" 60
	fi
}

((LAB_HOST == 2)) && { peerq=$(lab_get 1 qpn) || tap_bail "no QPN from host1"; }
# Control: UDP checksum 0, as rxe sends: never merged, each counted. A
# wrong ICRC here too: forged packets with a correct one reached the QP
# as SENDs, and it did not survive the test.
round plain ce-badicrc 20 1
if ((LAB_HOST == 1)); then
	tap_eq "plain: 20 packets in 20 skbs" "20 20" "$segs $skbs"
	tap_eq "plain: ce_rcvd counts each" 20 "$ce"
fi
round merged ce-csum "$BURST" "$BURSTS"
if ((LAB_HOST == 1)); then
	tap_ok "merged: the packets reached host1 ($segs of $((BURSTS * BURST)))" test "$segs" -gt 0
	tap_ok "merged: UDP GRO merged them ($segs packets in $skbs skbs)" test "$skbs" -lt "$segs"
	tap_eq "merged: ce_rcvd counts every packet, not every skb" "$segs" "$ce"
	nft delete table inet rtune_gro
	ethtool -K eth0 rx-gro-list off
else
	kill -CONT "$client"
fi
lab_perf_stop perf
tap_diag "ib_write_bw: verdict $? (not asserted: its QP took forged packets)"

tap_ok "rmmod rocetune" rtune_unload
tap_ok "kernel log clean" kernel_log_clean
tap_done
