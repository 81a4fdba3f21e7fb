#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile RoCEv2 packets against a host with a live QP (issue 9, "Proof":
# hostile packets; finding: no entry from a packet whose ICRC fails). Two
# lab guests; host2 sends from a second address, ALT, with roce_storm.c
# (AF_PACKET, sendmmsg; built here), host1 holds a live RC QP (qp_hold.c)
# whose peer is host2's own address:
#   1. STORM_BAD (default 20000) packets (SEND Only and CNPs, alternately)
#      naming made-up QPNs with a wrong ICRC: no entry is made for any (qps,
#      evicted_unconfirmed and learn_refused_full do not move), and each
#      packet that reached the datapath (an nftables counter) is counted in
#      learn_refused_bad_icrc or cnp_rejected_bad_icrc;
#   2. STORM_COUNT (default 200000) packets of 11 kinds, IPv4 and IPv6:
#      truncated BTHs, every opcode, bad UDP lengths, CNPs and CE marks
#      naming the live QP from ALT, CNPs from ::ffff:<its peer>, CE marks
#      to the broadcast address, bad ICRCs, random QPNs. The live QP keeps
#      its state, peer and rate (no rate cut); the rejections are counted;
#      packets of each family reached host1's filter table (host1 gets a
#      link-local address for the IPv6 ones: the lab's guests have none);
#      the table stays within its bounds; the module's QP objects and the
#      kernel's unreclaimable slab are sampled and their peaks reported;
#   3. while the worker re-fits the live QP's entry to a new peer, held in
#      the grace period's window by a test-only delay (debugfs), the QP is
#      destroyed without waiting: the re-fit holds no restrack reference.
# Panics, WARNs and splats fail the run (lab-run, panic_on_warn).
#
# Run on the host:   selftests/dcqcn/storm.sh [lab-run options]
#   STORM_COUNT=1000000 for the figure in Documentation/testing.rst.

# shellcheck disable=SC2154 # LAB_* come from /run/lab/env
set -uo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 2 --timeout 500 "$@" \
		--script "1,2=$here/storm.sh"
fi

. "$here/../lib/lab-guest.sh"
. "$here/../kmod/lib.sh"
. "$here/qp-lib.sh"
lab_hosts 2 || tap_skip_all "$LAB_WHY: hostile packets sent from one guest to another"
P=$RT/rxe0/ports/1
ALT=198.18.1.103
DQPN=291
BAD=${STORM_BAD:-20000}
COUNT=${STORM_COUNT:-200000}
LL6=fe80::198:18:0:1

tap_header
rtune_require
command -v cc >/dev/null && [[ -r /usr/include/infiniband/verbs.h && -r /usr/include/zlib.h ]] ||
	tap_skip_all "qp_hold.c and roce_storm.c need a C compiler, libibverbs-dev and zlib1g-dev"
command -v nft >/dev/null || tap_skip_all "the packets are counted with nftables (nft not installed)"
lab_rxe_up || tap_bail "rxe0 on eth0 and the peer reachable"
gid=$LAB_GID
tap_ok "load rocetune.ko (default bounds)" rtune_load
wait_for test -d "$P" || tap_bail "no configfs tree"
if ((LAB_HOST == 2)); then
	ip addr add "$ALT/24" dev eth0 || tap_bail "second address"
	cc -std=c11 -Wall -Wextra -Werror -O2 -o /tmp/roce_storm "$here/roce_storm.c" -lz \
		2>/tmp/roce_storm.err || tap_bail "cannot build roce_storm: $(head -3 /tmp/roce_storm.err)"
else
	lab_put mac "$(cat /sys/class/net/eth0/address)"
	# The lab's guests make no link-local address (lab-stage2 sets
	# addr_gen_mode 1 before the NICs exist), and the IPv6 kinds must go
	# to one of host1's own addresses to reach its input path: give eth0
	# one (no DAD, usable at once). Link-local only, as the lab allows.
	tap_ok "link-local address $LL6 on eth0" ip -6 addr add "$LL6/64" dev eth0 scope link nodad
	lab_put ll6 "$(ip -6 -o addr show dev eth0 scope link | awk '{sub(/\/.*/, "", $4); print $4; exit}')"
fi
lab_barrier up 120 || tap_bail "peer not up"

objs_qp() { awk '$1=="qp" {print $2}' "$RTUNE_OBJECTS"; }
sunreclaim_kb() { awk '$1=="SUnreclaim:" {print $2}' /proc/meminfo; }
nft_count() {
	nft list chain inet rtune_storm input |
		awk -v t="$1" '$0 ~ t && /counter packets/ {for (i=1;i<NF;i++) if ($i=="packets") print $(i+1)}'
}

if ((LAB_HOST == 1)); then
	QPH=/tmp/rtune-qp_hold
	cc -std=c11 -Wall -Wextra -Werror -o "$QPH" "$here/qp_hold.c" -libverbs 2>/tmp/qp_hold.err ||
		tap_bail "cannot build qp_hold: $(head -3 /tmp/qp_hold.err)"
	coproc QPH_P { exec "$QPH" rxe0 "$gid" 2>&1; }
	qph() {
		local reply
		echo "$*" >&"${QPH_P[1]}"
		read -r -t 30 -u "${QPH_P[0]}" reply || reply="err no answer"
		echo "$reply"
	}
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	r=$(qph create)
	[[ $r == "qpn "* ]] || tap_bail "qp_hold create: $r"
	q1=${r#qpn }
	r=$(qph connect "$q1" "$LAB_PEER_eth0" "$DQPN")
	tap_eq "QP $q1 reaches RTR towards $LAB_PEER_eth0 QP $DQPN" ok "$r"
	# It sends nothing: qp_ctl makes its entry, the worker its peer.
	rtune_write "$P/qp_ctl" "$q1 cc_enable=1"
	is_live() { [[ $(qcol "$q1" state) == live && $(qcol "$q1" peer_qpn) == "$DQPN" ]]; }
	wait_for is_live || wait_for is_live
	tap_ok "QP $q1 is live with peer QPN $DQPN" is_live
	lab_put q1 "$q1"
	nft add table inet rtune_storm &&
		nft add chain inet rtune_storm input '{ type filter hook input priority 0; }' &&
		nft add rule inet rtune_storm input ip saddr "$ALT" udp dport 4791 counter comment '"v4"' &&
		nft add rule inet rtune_storm input meta nfproto ipv6 udp dport 4791 counter comment '"v6"' &&
		nft add rule inet rtune_storm input ip6 saddr "::ffff:$LAB_PEER_eth0" udp dport 4791 \
			counter comment '"mapped"' ||
		tap_bail "nft counters"
fi

# --- (1) bad ICRCs naming made-up QPNs: no entry
if ((LAB_HOST == 1)); then
	q0=$(dpc qps) e0=$(dpc evicted_unconfirmed) f0=$(dpc learn_refused_full)
	b0=$(dpc learn_refused_bad_icrc) c0=$(dpc cnp_rejected_bad_icrc) n0=$(nft_count v4) hi=0
	lab_barrier bad-ready 300 || tap_bail "peer not ready (bad-ready)"
	while [[ ! -e $LAB_RUN_DIR/host2/kv/bad-done ]]; do
		n=$(dpc qps)
		((n > hi)) && hi=$n
		sleep 0.2
	done
	sleep 2
	got=$(($(nft_count v4) - n0)) b=$(($(dpc learn_refused_bad_icrc) - b0))
	c=$(($(dpc cnp_rejected_bad_icrc) - c0))
	tap_diag "bad ICRC: $got of $BAD reached host1; learn_refused_bad_icrc +$b, cnp_rejected_bad_icrc +$c; qps peak $hi (before $q0)"
	tap_ok "much of it reached the datapath (>= 20 %)" test "$got" -ge $((BAD / 5))
	tap_eq "no entry was made: qps peak" "$q0" "$hi"
	tap_eq "nothing to evict or refuse for room: evicted_unconfirmed, learn_refused_full" \
		"$e0 $f0" "$(dpc evicted_unconfirmed) $(dpc learn_refused_full)"
	# Half of them are CNPs, which the reaction point refuses for the ICRC.
	tap_eq "each is counted: learn_refused_bad_icrc + cnp_rejected_bad_icrc" "$got" $((b + c))
else
	lab_barrier bad-ready 300 || tap_bail "peer not ready (bad-ready)"
	t0=$SECONDS
	/tmp/roce_storm -i eth0 -m "$(lab_get 1 mac)" -4 "$ALT,$LAB_PEER_eth0" -n "$BAD" -k badicrc |
		sed 's/^/# /' || tap_diag "roce_storm badicrc failed"
	tap_diag "bad ICRC: $BAD sent in $((SECONDS - t0)) s"
	lab_put bad-done 1
fi
lab_barrier bad-over 120 || tap_bail "peer lost after the bad-ICRC packets"

# --- (2) the storm
if ((LAB_HOST == 1)); then
	rate0=$(qcol "$q1" rate_kbps) rej0=$(qcol "$q1" cnp_rejected) cuts0=$(qcol "$q1" rate_cuts)
	cnp0=$(qcol "$q1" cnp_rcvd)
	declare -A c0
	for k in cnp_rejected_unknown_qp cnp_rejected_bad_icrc ce_rejected_not_peer \
		ce_rejected_not_unicast learn_refused_bad_icrc evicted_unconfirmed; do
		c0[$k]=$(dpc "$k")
	done
	qmax=$(dpc qps_max) umax=$(dpc qps_unconfirmed_max) q0=$(dpc qps)
	s0=$(sunreclaim_kb) o0=$(objs_qp) n0=$(nft_count v4) m0=$(nft_count v6) p0=$(nft_count mapped)
	shi=$s0 ohi=$o0 qhi=$q0
	lab_barrier storm-ready 300 || tap_bail "peer not ready (storm-ready)"
	while [[ ! -e $LAB_RUN_DIR/host2/kv/storm-done ]]; do
		s=$(sunreclaim_kb) o=$(objs_qp) n=$(dpc qps)
		((s > shi)) && shi=$s
		((o > ohi)) && ohi=$o
		((n > qhi)) && qhi=$n
		sleep 0.2
	done
	sleep 3
	got4=$(($(nft_count v4) - n0)) got6=$(($(nft_count v6) - m0)) gotm=$(($(nft_count mapped) - p0))
	tap_diag "storm: $got4 IPv4 + $got6 IPv6 (of which $gotm from ::ffff:$LAB_PEER_eth0) of $COUNT reached host1's filter table"
	tap_diag "peaks: qp objects $ohi (before $o0), qps $qhi, SUnreclaim ${shi} kB (before ${s0} kB, +$((shi - s0)) kB); module core $(awk '$1=="rocetune" {print $2}' /proc/modules) bytes"
	for k in "${!c0[@]}"; do
		tap_diag "$k +$(($(dpc "$k") - c0[$k]))"
	done
	tap_ok "much of the storm reached the datapath (>= 20 %)" test $((got4 + got6)) -ge $((COUNT / 5))
	# Each family on its own: the IPv6 kinds once went over IPv4 unseen
	# (host1 had no link-local address), which must fail, not fall back.
	tap_ok "IPv4 storm packets reached the filter table ($got4)" test "$got4" -gt 0
	tap_ok "IPv6 storm packets reached the filter table ($got6)" test "$got6" -gt 0
	tap_ok "QP $q1 is still live with peer QPN $DQPN" is_live
	tap_eq "QP $q1 kept its rate (no cut)" "$rate0 $cuts0" \
		"$(qcol "$q1" rate_kbps) $(qcol "$q1" rate_cuts)"
	# No CNP of the storm comes from the QP's peer in its family (those
	# from ::ffff:<peer> only look like it): none may be taken.
	tap_eq "QP $q1 took no CNP from the storm (cnp_rcvd)" "$cnp0" "$(qcol "$q1" cnp_rcvd)"
	tap_ok "CNPs naming QP $q1 from ALT were rejected and counted" \
		test "$(qcol "$q1" cnp_rejected)" -gt "$rej0"
	for k in cnp_rejected_unknown_qp cnp_rejected_bad_icrc ce_rejected_not_peer \
		ce_rejected_not_unicast learn_refused_bad_icrc evicted_unconfirmed; do
		tap_ok "$k counted the storm's share" test "$(dpc "$k")" -gt "${c0[$k]}"
	done
	tap_ok "tracked QPs stayed within the bounds ($qhi <= $qmax + $umax)" \
		test "$qhi" -le $((qmax + umax))
	tap_ok "allocated QP objects stayed bounded ($ohi <= $qmax + $umax)" \
		test "$ohi" -le $((qmax + umax))
	gone() { (($(dpc qps) == q0 || $(dpc qps) < q0)); }
	wait_for gone
	tap_ok "the table went back to what it held (made-up QPNs evicted)" gone
	nft delete table inet rtune_storm
else
	ll6=$(lab_get 1 ll6)
	v6=()
	[[ -n $ll6 ]] && v6=(-6 "fe80::bad:1,$ll6")
	# roce_storm sends the IPv6 kinds over IPv4 without -6: a failure here,
	# and host1's IPv6 count, say so.
	tap_eq "host1's link-local address (the IPv6 kinds' destination)" "$LL6" "$ll6"
	# The link's broadcast address, from the prefix (the lab adds its
	# addresses without "brd", so ip shows none).
	bcast=$(python3 -c 'import ipaddress, sys
print(ipaddress.ip_interface(sys.argv[1]).network.broadcast_address)' \
		"$(ip -4 -o addr show dev eth0 | awk '{print $4; exit}')")
	tap_diag "broadcast address: ${bcast:-none}"
	lab_barrier storm-ready 300 || tap_bail "peer not ready (storm-ready)"
	t0=$SECONDS
	/tmp/roce_storm -i eth0 -m "$(lab_get 1 mac)" -4 "$ALT,$LAB_PEER_eth0" "${v6[@]}" \
		${bcast:+-b "$bcast"} -q "$(lab_get 1 q1)" -p "$LAB_ADDR_eth0" -n "$COUNT" -s 7 |
		sed 's/^/# /' || tap_diag "roce_storm mixed failed"
	tap_diag "storm: $COUNT sent in $((SECONDS - t0)) s"
	lab_put storm-done 1
fi
lab_barrier stormed 120 || tap_bail "peer lost after the storm"

# --- (3) the peer re-fit holds no reference to the QP across its grace
# period: with the worker held in it (a test-only debugfs delay), the QP
# is destroyed at once (a restrack reference would make that wait).
if ((LAB_HOST == 1)); then
	K=/sys/kernel/debug/rocetune/withdraw_delay_ms
	D=/sys/kernel/debug/rocetune/withdraw_delays
	if [[ -w $K ]]; then
		echo 3000 >"$K"
		d0=$(cat "$D")
		r=$(qph connect "$q1" "$ALT" 1110)
		tap_eq "QP $q1 reset and reconnected to $ALT" ok "$r"
		entered() { (($(cat "$D") > d0)); }
		wait_for entered
		tap_ok "the worker is in the re-fit's delay (withdraw_delays $(cat "$D"))" entered
		t0=$(date +%s%N)
		qph quit >/dev/null
		wait "$QPH_P_PID" 2>/dev/null
		ms=$((($(date +%s%N) - t0) / 1000000))
		echo 0 >"$K"
		tap_ok "meanwhile the QP was destroyed in ${ms} ms (< 1500: not held)" test "$ms" -lt 1500
	else
		for t in "QP reconnected" "worker in the re-fit's delay" "QP destroyed meanwhile"; do
			tap_skip "$t" "no $K: the re-fit's window cannot be widened"
		done
		qph quit >/dev/null
		wait "$QPH_P_PID" 2>/dev/null
	fi
fi

tap_ok "rmmod rocetune" rtune_unload
tap_ok "kernel log clean" kernel_log_clean
tap_done
