# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The "lab" DCQCN parameter set and ECN bottleneck shared by
# selftests/dcqcn/*.sh and bench/incast/run.sh (sourced in a lab guest).
# Documented in Documentation/datapath.rst ("A preset for the QEMU lab").
#
# The paper's values assume microsecond RTTs and 40 Gb/s links. In the
# TCG lab rxe moves a few tens of Mb/s, a CE mark reaches the sender only
# after the bottleneck queue (tens of ms) and a cut only shows on the wire
# after the packets already stamped in fq (up to 64 per QP), so the
# feedback delay is ~100-300 ms: at most one cut per feedback delay, and
# increases small enough that the sum of the QPs' steps is a small part
# of the bottleneck rate.

# Bottleneck on the receiver's ingress (ifb0): HTB rate and RED ecn
# (bytes; RED_BURST in packets of avpkt 1100). The environment may
# override them for an experiment (bench/taillat passes them on).
BN_MBIT=${BN_MBIT:-8}
RED_MIN=${RED_MIN:-30000}
RED_MAX=${RED_MAX:-90000}
RED_LIMIT=${RED_LIMIT:-600000}
RED_BURST=${RED_BURST:-45}
# BN_AQM: how the RoCE class marks. "red" (the default): RED ecn, which
# marks at enqueue by its average queue. "codel": CoDel's ce_threshold,
# which marks at dequeue every ECT packet that waited longer than BN_CE_MS,
# as a switch marking on its egress queue does, so a mark leaves with the
# packet instead of waiting out the queue behind it; CoDel's own dropping
# is set out of reach (target 5 s), and its limit is RED_LIMIT in packets
# of ROCE_MTU (256 unless the caller set it) and 44 bytes of headers, so
# that either qdisc holds about as many bytes at most.
BN_AQM=${BN_AQM:-red}
BN_CE_MS=${BN_CE_MS:-30}
BN_CODEL_LIMIT=$((RED_LIMIT / (${ROCE_MTU:-256} + 44)))

# name=value, written to cc/staged/ then committed. Why each value:
# Documentation/datapath.rst, "A preset for the QEMU lab".
RTUNE_LAB_PRESET=(
	rp_max_rate_kbps=20000
	rp_min_rate_kbps=125
	rp_rate_on_first_cnp_kbps=0
	rp_initial_alpha_1024ths=1024
	rp_alpha_gain_1024ths=32
	rp_alpha_update_period_us=100000
	rp_rate_cut_shift=1
	rp_rate_reduce_period_us=300000
	rp_clamp_target_rate=1
	rp_rate_increase_timer_us=300000
	rp_byte_counter_bytes=0
	rp_fast_recovery_stages=1
	rp_additive_increase_kbps=125
	rp_hyper_increase_kbps=250
	np_min_cnp_interval_us=20000
)
# Experiments: RTUNE_EXTRA="name=value ..." is staged after the preset.
# shellcheck disable=SC2206 # name=value words
RTUNE_LAB_PRESET+=(${RTUNE_EXTRA:-})

# rtune_lab_bottleneck: ifb0 behind eth0's ingress, HTB $BN_MBIT. RoCEv2 (UDP
# 4791) has its own class with RED ecn, as it has its own queue in a
# switch; everything else (ARP, perftest's TCP exchange) shares the rate
# through a plain FIFO. In one RED queue those non-ECT packets are dropped
# whenever RED marks, and RED under HTB never sees itself go idle (HTB
# stops dequeueing an empty class), so its average stays as the last
# burst left it: ARP and SYNs were then dropped for minutes after a
# congested transfer, and the next perftest could not connect.
rtune_lab_bottleneck() {
	ip link add ifb0 type ifb && ip link set ifb0 up &&
	tc qdisc add dev eth0 handle ffff: ingress &&
	tc filter add dev eth0 parent ffff: matchall action mirred egress redirect dev ifb0 &&
	tc qdisc add dev ifb0 root handle 1: htb default 20 &&
	tc class add dev ifb0 parent 1: classid 1:1 htb rate "${BN_MBIT}mbit" \
		burst 64k cburst 64k &&
	tc class add dev ifb0 parent 1:1 classid 1:10 htb rate "${BN_MBIT}mbit" \
		burst 64k cburst 64k prio 1 &&
	tc class add dev ifb0 parent 1:1 classid 1:20 htb rate 1mbit \
		ceil "${BN_MBIT}mbit" prio 0 &&
	tc qdisc add dev ifb0 parent 1:20 handle 20: pfifo limit 1000 &&
	tc filter add dev ifb0 parent 1: protocol ip prio 1 u32 \
		match ip protocol 17 0xff match ip dport 4791 0xffff flowid 1:10 &&
	tc filter add dev ifb0 parent 1: protocol ipv6 prio 2 u32 \
		match ip6 protocol 17 0xff match ip6 dport 4791 0xffff flowid 1:10 &&
	rtune_lab_red add
}

# rtune_lab_red add|replace: the RoCE class's marking qdisc (BN_AQM).
# "replace" starts a measurement afresh: a new RED has an empty average.
rtune_lab_red() {
	if [[ $BN_AQM == codel ]]; then
		tc qdisc "$1" dev ifb0 parent 1:10 handle 10: codel limit "$BN_CODEL_LIMIT" \
			target 5s interval 100s ce_threshold "${BN_CE_MS}ms"
		return
	fi
	tc qdisc "$1" dev ifb0 parent 1:10 handle 10: red limit "$RED_LIMIT" min "$RED_MIN" \
		max "$RED_MAX" avpkt 1100 burst "$RED_BURST" probability 0.2 bandwidth "${BN_MBIT}mbit" ecn
}

# rtune_lab_aqm_desc: the RoCE class's marking in words, for a results
# header.
rtune_lab_aqm_desc() {
	if [[ $BN_AQM == codel ]]; then
		echo "CoDel ce_threshold $BN_CE_MS ms (marks at dequeue), limit $BN_CODEL_LIMIT packets"
	else
		echo "RED ecn min $RED_MIN max $RED_MAX limit $RED_LIMIT B"
	fi
}

# rtune_lab_redstat KEY: a number from the RoCE class's qdisc statistics
# on ifb0 (dropped, marked, backlog; "K" suffixes expanded). CoDel calls
# its threshold marks ce_mark, and tc leaves that field out while it is
# 0: for it alone, a missing field reads 0.
rtune_lab_redstat() {
	local k=$1
	[[ $BN_AQM == codel && $k == marked ]] && k=ce_mark
	tc -s qdisc show dev ifb0 | awk -v k="$k" -v q="^qdisc $BN_AQM " '$0 ~ q {r=1} r {for (i=1;i<=NF;i++) {t=$i; sub(/^\(/,"",t); if (t==k) {v=$(i+1); gsub(/[,b)]/,"",v); if (v ~ /K$/) {sub(/K$/,"",v); v*=1000} print v+0; f=1; exit}}} END {if (!f && r && k == "ce_mark") print 0}'
}

# rtune_lab_preset PORTDIR: stage the lab preset on PORTDIR/cc and commit.
rtune_lab_preset() {
	local kv
	for kv in "${RTUNE_LAB_PRESET[@]}"; do
		printf '%s' "${kv#*=}" >"$1/cc/staged/${kv%%=*}" || return 1
	done
	printf 1 >"$1/cc/commit" || { cat "$1/cc/last_error" >&2; return 1; }
}

# rtune_lab_dump IBDEV: the state a stalled transfer leaves behind, as TAP
# diagnostics: QPs, rxe's counters, the qdiscs and where perftest sleeps.
rtune_lab_dump() {
	local c p
	{
		echo "QPs:"; rdma res show qp link "$1/1" 2>&1
		echo "counters:"
		for c in /sys/class/infiniband/"$1"/ports/1/hw_counters/*; do
			printf ' %s=%s' "${c##*/}" "$(cat "$c")"
		done
		echo
		echo "qdiscs:"; tc -s qdisc show 2>&1
		echo "TCP:"; ss -tani 2>&1
		nstat -az TcpActiveOpens TcpPassiveOpens TcpRetransSegs TcpExtTCPSynRetrans \
			TcpExtListenDrops 2>&1
		echo "perftest:"
		for p in $(pgrep -x ib_write_bw); do
			ps -o pid=,stat=,wchan:32=,args= -p "$p"
			sed 's/^/  /' "/proc/$p/stack" 2>/dev/null
		done
	} | while IFS= read -r c; do tap_diag "$c"; done
}
