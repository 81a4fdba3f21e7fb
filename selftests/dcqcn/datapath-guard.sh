#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the software DCQCN datapath must not take from anyone but rxe and a
# QP's peer (Documentation/datapath.rst, "Who may steer a QP"). Two lab
# guests, fq on both, rocetune loaded; host2 (rp_max_rate_kbps 20000, so
# every packet of its QP is paced and counted) runs ib_write_bw -q 1 to
# host1, then stops the client process (SIGSTOP), leaving both QPs live and
# silent:
#   1. host2: an unprivileged user's UDP datagrams to host1:4791 whose BTH
#      names host2's QP's peer QPN do not touch that QP (paced_pkts) and are
#      not ECT-marked; tx_not_rxe_pkts counts them;
#   2. host1: CE-marked packets naming its live QP from a host that is not
#      the QP's peer, and from the peer to the link's broadcast address,
#      are neither counted (ce_rcvd) nor answered (cnp_sent);
#      ce_rejected_not_peer / ce_rejected_not_unicast count them;
#   5. host1: forged CNPs that an nftables filter-table rule drops never
#      reach the datapath (cnp_rejected_unknown_qp stays), while the same
#      CNPs from an address the rule lets through do;
#   8. host2: the client resumes; qp_ctl rate_cap_kbps=1 (a 1 kB packet is
#      8 s at 1 kb/s, longer than fq's 1 s limit per packet): fq drops
#      none (its drop count), pacing_clamped_pkts counts the packets fq
#      sends sooner than their rate (when pacing stamped departure times
#      without a ceiling, fq dropped them beyond its horizon, rxe resent
#      each at once, 8 s further ahead, and host2 livelocked);
#  11. a second ib_write_bw with $GUARD_QPS QPs, each capped through qp_ctl
#      on host2: reading qp_ctl gives whole lines only, every capped QP or a
#      closing "# truncated" line.
#
# Run on the host:   selftests/dcqcn/datapath-guard.sh [lab-run options]

# shellcheck disable=SC2154 # LAB_* come from /run/lab/env
set -uo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# On the host, from a source tree: start the lab. An installed tree has
# no lab; there the suite skips below.
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 2 --timeout 500 "$@" \
		--script "1,2=$here/datapath-guard.sh"
fi

. "$here/../lib/lab-guest.sh"
. "$here/../kmod/lib.sh"
. "$here/qp-lib.sh"
lab_hosts 2 || tap_skip_all "$LAB_WHY: forged and hostile RoCE packets between two guests"
P=$RT/rxe0/ports/1
PORT=18515
QPS=${GUARD_QPS:-150}

qp_suite_up
lab_fq eth0 || tap_bail "fq"
tap_ok "insmod rocetune.ko" rtune_load
wait_for test -d "$P" || tap_bail "no configfs tree"
if ((LAB_HOST == 2)); then
	printf 20000 >"$P/cc/staged/rp_max_rate_kbps" && printf 1 >"$P/cc/commit" ||
		tap_bail "commit: $(cat "$P/cc/last_error")"
fi
lab_barrier up 120 || tap_bail "peer not up"

# stable FIELD: wait until the live QP's FIELD stops moving for 1 s.
stable() {
	local a b _
	b=$(col "$1")
	for _ in $(seq 30); do
		sleep 1
		a=$b
		b=$(col "$1")
		[[ $a == "$b" ]] && return 0
	done
	return 1
}
# fq_dropped: what eth0's root qdisc (fq) dropped so far, from "Sent ...
# (dropped N, ...)"; fq counts its horizon drops there (iproute2 6.1 prints
# no separate horizon_drops). Empty if tc printed no such field.
fq_dropped() {
	tc -s qdisc show dev eth0 | awk '{for (i=1;i<NF;i++) if ($i=="(dropped") {v=$(i+1); sub(/,$/,"",v); print v; exit}}'
}

lab_perf_start --port "$PORT" --timeout 120 --grace 0 \
	perf -- ib_write_bw -d rxe0 -x "$gid" -s 4096 -t 16 -q 1 -D 90 -F -u 18 ||
	tap_fail "ib_write_bw started"
qpn=$(live_qpn) || tap_bail "no live QP"
tap_diag "live QP $qpn, peer $(col peer_qpn)"

if ((LAB_HOST == 2)); then
	paced() { (($(col paced_pkts) > 0)); }
	wait_for paced
	tap_ok "rxe's own packets are paced (paced_pkts $(col paced_pkts))" paced
	client=$(pgrep -x ib_write_bw) || tap_bail "no ib_write_bw process"
	kill -STOP "$client"
	stable paced_pkts || tap_diag "paced_pkts still moving"
	lab_put peer_qpn "$(col peer_qpn)"
fi
lab_barrier quiet 120 || tap_bail "peer not quiet"

# --- (1) a local user's packets are not rxe's
if ((LAB_HOST == 2)); then
	peer=$(col peer_qpn)
	p0=$(col paced_pkts) e0=$(dpc ect_marked_pkts) n0=$(dpc tx_not_rxe_pkts)
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		/usr/bin/python3 "$here/forge_roce.py" udp "$LAB_PEER_eth0" "$peer" 50 ||
		tap_diag "forge_roce.py udp failed"
	sleep 1
	tap_eq "a user's UDP naming the QP's peer leaves its pacing alone (paced_pkts +0)" \
		0 "$(since paced_pkts "$p0")"
	tap_eq "a user's UDP to 4791 is not ECT-marked (ect_marked_pkts +0)" \
		0 $(($(dpc ect_marked_pkts) - e0))
	tap_eq "tx_not_rxe_pkts counts the user's 50 datagrams" 50 $(($(dpc tx_not_rxe_pkts) - n0))
fi
lab_barrier user-done 120 || tap_bail "peer lost"

# --- (2) CE marks count only from the QP's peer, to a unicast address
# round NAME SRC DST COUNTER: host2 forges 20 CE-marked packets naming
# host1's QP; host1 checks that they were counted in COUNTER only.
round() {
	local name=$1 src=$2 dst=$3 counter=$4 c0 s0 r0
	if ((LAB_HOST == 1)); then
		c0=$(col ce_rcvd) s0=$(col cnp_sent) r0=$(dpc "$counter")
		lab_barrier "$name-ready" 60
		lab_barrier "$name-sent" 60
		sleep 1
		tap_eq "CE $name: not counted (ce_rcvd +0)" 0 "$(since ce_rcvd "$c0")"
		tap_eq "CE $name: not answered (cnp_sent +0)" 0 "$(since cnp_sent "$s0")"
		tap_eq "CE $name: $counter counts 20" 20 $(($(dpc "$counter") - r0))
	else
		lab_barrier "$name-ready" 60
		python3 "$here/forge_roce.py" ce "$src" "$dst" "$(lab_get 2 peer_qpn)" 20 ||
			tap_diag "forge_roce.py ce failed"
		lab_barrier "$name-sent" 60
	fi
}
round from-stranger 198.18.1.99 "$LAB_PEER_eth0" ce_rejected_not_peer
round to-broadcast "$LAB_ADDR_eth0" 198.18.1.255 ce_rejected_not_unicast

# --- (5) the filter table comes first
if ((LAB_HOST == 1)); then
	if ! command -v nft >/dev/null; then
		tap_skip "nftables drops reach no hook" "nft not installed"
		lab_barrier fw-ready 60
		lab_barrier fw-sent 60
	else
		nft add table inet rtune_guard &&
			nft add chain inet rtune_guard input '{ type filter hook input priority 0; }' &&
			nft add rule inet rtune_guard input ip saddr 198.18.1.98 udp dport 4791 counter drop ||
			tap_diag "nft set-up failed"
		u0=$(dpc cnp_rejected_unknown_qp)
		lab_barrier fw-ready 60
		lab_barrier fw-sent 60
		sleep 1
		dropped=$(nft list chain inet rtune_guard input | awk '/counter packets/ {for (i=1;i<NF;i++) if ($i=="packets") print $(i+1)}')
		tap_eq "nftables dropped the 10 CNPs from 198.18.1.98" 10 "${dropped:-0}"
		tap_eq "only the 10 CNPs nftables let through reached the datapath" \
			10 $(($(dpc cnp_rejected_unknown_qp) - u0))
		nft delete table inet rtune_guard
	fi
else
	lab_barrier fw-ready 60
	python3 "$here/forge_cnp.py" 198.18.1.98 "$LAB_PEER_eth0" 0xfffff0 10
	python3 "$here/forge_cnp.py" 198.18.1.97 "$LAB_PEER_eth0" 0xfffff0 10
	lab_barrier fw-sent 60
fi

# --- (8) a rate far below one packet a second
if ((LAB_HOST == 2)); then
	kill -CONT "$client"
	h0=$(fq_dropped) c0=$(dpc pacing_clamped_pkts) p0=$(col paced_pkts)
	[[ -n $h0 ]] || tap_bail "no drop count in tc -s qdisc show dev eth0"
	printf '%s rate_cap_kbps=1' "$qpn" >"$P/qp_ctl"
	sleep 4
	tap_diag "at 1 kb/s: paced_pkts +$(($(col paced_pkts) - p0)), fq: $(tc -s qdisc show dev eth0 | tr '\n' ' ')"
	tap_eq "a 1 kb/s cap: fq drops nothing (dropped +0)" \
		0 $(($(fq_dropped) - h0))
	tap_ok "pacing_clamped_pkts counts the packets over fq's 1 s" test $(($(dpc pacing_clamped_pkts) - c0)) -gt 0
	printf '%s rate_cap_kbps=0' "$qpn" >"$P/qp_ctl"
fi
lab_perf_stop perf
tap_diag "first ib_write_bw: verdict $? (not asserted: a 1 kb/s cap may end it)"

# --- (11) qp_ctl lists whole lines, never a cut one
lab_perf_start --port $((PORT + 1)) --timeout 120 --grace 0 \
	many -- ib_write_bw -d rxe0 -x "$gid" -s 4096 -t 16 -q "$QPS" -D 60 -F -u 18 ||
	tap_fail "ib_write_bw -q $QPS started"
if ((LAB_HOST == 2)); then
	all_live() { (($(awk 'NR>1 && $3=="live"' "$P/qp_stats" | wc -l) >= QPS)); }
	wait_for all_live || wait_for all_live || tap_diag "not all $QPS QPs live"
	n=0
	for q in $(awk 'NR>1 && $3=="live" {print $1}' "$P/qp_stats"); do
		printf '%s rate_cap_kbps=4000000' "$q" >"$P/qp_ctl" && n=$((n + 1))
	done
	tap_diag "capped $n live QPs through qp_ctl"
	cat "$P/qp_ctl" >"$LAB_HOST_DIR/qp_ctl.txt"
	tap_diag "qp_ctl: $(wc -c <"$LAB_HOST_DIR/qp_ctl.txt") bytes, $(wc -l <"$LAB_HOST_DIR/qp_ctl.txt") lines"
	tap_ok "qp_ctl ends with a newline" test "$(tail -c 1 "$LAB_HOST_DIR/qp_ctl.txt" | od -An -c | tr -d ' ')" = '\n'
	bad=$(awk '!/^[0-9]+ cc_enable=[01] rate_cap_kbps=[0-9]+$/ && !/^# truncated: /' "$LAB_HOST_DIR/qp_ctl.txt" | head -3)
	tap_eq "qp_ctl: every line whole" "" "$bad"
	listed=$(grep -c rate_cap_kbps=4000000 "$LAB_HOST_DIR/qp_ctl.txt")
	if grep -q '^# truncated: ' "$LAB_HOST_DIR/qp_ctl.txt"; then
		tap_ok "qp_ctl: the truncation line is last" test "$(tail -n 1 "$LAB_HOST_DIR/qp_ctl.txt" | cut -c1-12)" = "# truncated:"
		more=$(tail -n 1 "$LAB_HOST_DIR/qp_ctl.txt" | awk '{print $3}')
		tap_eq "qp_ctl: listed + left out = every capped QP" "$n" $((listed + more))
	else
		tap_eq "qp_ctl lists every capped QP" "$n" "$listed"
	fi
fi
lab_perf_stop many
tap_diag "second ib_write_bw: verdict $?"

tap_ok "rmmod rocetune" rtune_unload
tap_ok "kernel log clean" kernel_log_clean
tap_done
