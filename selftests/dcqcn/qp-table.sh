#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The software datapath's QP table under abuse and over a QP's life
# (Documentation/datapath.rst, "Per-QP state"). Two lab guests; host2 also
# has a second address, ALT, on the link. On host1, qp_hold (qp_hold.c,
# built here) holds RC QPs in chosen states:
#   1. a qp_ctl cap set on a QP still in INIT (before RTR) survives more
#      than the "new" entries' time limit of idleness (new_qp_ttl_s, set
#      to 2 s where the module has it, else 35 s of waiting), and is in
#      effect once the QP reaches RTR and is live;
#   2. the QP is reset and reconnected to another peer (ALT, another QPN):
#      its entry shows the new peer QPN, CNPs from ALT are accepted and
#      CNPs from the old peer rejected; peer_changed counts it;
#   3. host2 floods host1 from ALT with FLOOD (default 50000) RoCEv2
#      packets (correct ICRC), each naming another made-up QPN: the table
#      (max_qps=64, max_unconfirmed_qps=32) stays within its bounds (entries, and
#      allocated entries, <= qps_max + qps_unconfirmed_max), a qp_ctl
#      write for a real QP made during the flood succeeds, and every
#      flood packet that reached the
#      datapath (an nftables counter) is accounted for: refused
#      (learn_refused_full, learn_refused_nomem) or tracked and then
#      evicted as unconfirmed (evicted_unconfirmed), the table back to
#      what it held before;
#   4. a perftest connection made after the flood gets CC: its 4 QPs are
#      live in qp_stats on both hosts;
#   5. an unprivileged user cannot read qp_stats, qp_watch or qp_ctl (QPNs
#      and their peers: what forging packets takes), and can read the
#      aggregate dp_counters and counters.
#
# Run on the host:   selftests/dcqcn/qp-table.sh [lab-run options]

# shellcheck disable=SC2154 # LAB_* come from /run/lab/env
set -uo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 2 --timeout 400 "$@" \
		--script "1,2=$here/qp-table.sh"
fi

. "$here/../lib/lab-guest.sh"
. "$here/../kmod/lib.sh"
. "$here/qp-lib.sh"
lab_hosts 2 || tap_skip_all "$LAB_WHY: forged RoCE floods and QPs reconnected between two guests"
P=$RT/rxe0/ports/1
PORT=18525
FLOOD=${QPT_FLOOD:-50000}
ALT=198.18.1.102
OLD_DQPN=291	# 0x123
NEW_DQPN=1110	# 0x456
TTL_KNOB=/sys/module/rocetune/parameters/new_qp_ttl_s

tap_header
rtune_require
command -v ib_write_bw >/dev/null || tap_skip_all "perftest not installed"
command -v cc >/dev/null && [[ -r /usr/include/infiniband/verbs.h ]] ||
	tap_skip_all "qp_hold.c needs a C compiler and libibverbs-dev"
command -v nft >/dev/null || tap_skip_all "the flood is counted with nftables (nft not installed)"
lab_rxe_up || tap_bail "rxe0 on eth0 and the peer reachable"
gid=$LAB_GID
# A small bound on confirmed QPs (max_qps, per device here, global in
# older modules): a flood must not take real QPs' room in it.
# And where the module has it, a small bound on unconfirmed entries, so
# that the flood outruns it and refusals are counted too.
QMAX=${QPT_MAX_QPS:-64}
UMAX=${QPT_MAX_UNCONFIRMED:-32}
params=("max_qps=$QMAX")
modinfo -p "${RTUNE_KO:-rocetune}" 2>/dev/null | grep -q '^max_unconfirmed_qps:' &&
	params+=("max_unconfirmed_qps=$UMAX")
load_small() {
	if [[ -n $RTUNE_KO ]]; then
		insmod "$RTUNE_KO" "${params[@]}"
	else
		modprobe rocetune "${params[@]}"
	fi
}
tap_ok "insmod rocetune.ko ${params[*]}" load_small
wait_for test -d "$P" || tap_bail "no configfs tree"
if ((LAB_HOST == 2)); then
	ip addr add "$ALT/24" dev eth0 || tap_bail "second address"
fi
lab_barrier up 120 || tap_bail "peer not up"

live_count() { awk 'NR>1 && $3=="live"' "$P/qp_stats" | wc -l; }
objs_qp() { awk '$1=="qp" {print $2}' "$RTUNE_OBJECTS"; }

if ((LAB_HOST == 1)); then
	# qp_hold, built for this guest (the tree is read-only here).
	QPH=/tmp/rtune-qp_hold
	cc -std=c11 -Wall -Wextra -Werror -o "$QPH" "$here/qp_hold.c" -libverbs 2>/tmp/qp_hold.err ||
		tap_bail "cannot build qp_hold: $(head -3 /tmp/qp_hold.err)"
	coproc QPH_P { exec "$QPH" rxe0 "$gid" 2>&1; }
	# qph CMD...: one command to qp_hold, its answer on stdout.
	qph() {
		local reply
		echo "$*" >&"${QPH_P[1]}"
		read -r -t 30 -u "${QPH_P[0]}" reply || reply="err no answer"
		echo "$reply"
	}
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
fi

# --- (1) qp_ctl on a QP before RTR outlives the "new" time limit
if ((LAB_HOST == 1)); then
	r=$(qph create)
	[[ $r == "qpn "* ]] || tap_bail "qp_hold create: $r"
	q1=${r#qpn }
	if [[ -w $TTL_KNOB ]]; then
		echo 2 >"$TTL_KNOB"
		idle=6
	else
		idle=35
		tap_diag "no $TTL_KNOB: waiting the fixed 30 s limit out"
	fi
	tap_ok "qp_ctl caps QP $q1 (INIT, no packet yet)" \
		rtune_write "$P/qp_ctl" "$q1 rate_cap_kbps=3000"
	sleep "$idle"
	tap_ok "after ${idle}s idle before RTR, qp_ctl still lists QP $q1's cap" \
		grep -qx "$q1 cc_enable=1 rate_cap_kbps=3000" "$P/qp_ctl"
	r=$(qph connect "$q1" "$LAB_PEER_eth0" "$OLD_DQPN")
	tap_eq "QP $q1 reaches RTR towards $LAB_PEER_eth0 QP $OLD_DQPN" ok "$r"
	# A module that lost the entry gets it back here, so that (2) tests
	# only what it is about.
	rtune_write "$P/qp_ctl" "$q1 cc_enable=1"
	is_live() { [[ $(qcol "$q1" state) == live && $(qcol "$q1" peer_qpn) == "$1" ]]; }
	wait_for is_live "$OLD_DQPN"
	tap_ok "QP $q1 is live with peer QPN $OLD_DQPN" is_live "$OLD_DQPN"
	tap_eq "the cap set before RTR is in effect on the live QP" 3000 "$(qcol "$q1" rate_cap_kbps)"
	[[ -w $TTL_KNOB ]] && echo 30 >"$TTL_KNOB"
	lab_put q1 "$q1"
fi

# --- (2) a live QP reset and reconnected to another peer
# cnp_round NAME SRC: host2 sends 10 CNPs from SRC naming host1's QP;
# host1 prints "RCVD REJECTED", the deltas of that QP's two counters.
cnp_round() {
	local name=$1 src=$2 a0 r0
	if ((LAB_HOST == 1)); then
		a0=$(qcol "$q1" cnp_rcvd) r0=$(qcol "$q1" cnp_rejected)
		lab_barrier "$name-ready" 60 >&2
		lab_barrier "$name-sent" 60 >&2
		sleep 1
		echo "$(($(qcol "$q1" cnp_rcvd) - a0)) $(($(qcol "$q1" cnp_rejected) - r0))"
	else
		lab_barrier "$name-ready" 60
		python3 "$here/forge_cnp.py" "$src" "$LAB_PEER_eth0" "$(lab_get 1 q1)" 10 ||
			tap_diag "forge_cnp.py failed"
		lab_barrier "$name-sent" 60
	fi
}
r=$(cnp_round old-peer "$LAB_ADDR_eth0")
((LAB_HOST == 1)) && tap_eq "CNPs from the peer are accepted (cnp_rcvd +10, rejected +0)" "10 0" "$r"
if ((LAB_HOST == 1)); then
	c0=$(dpc peer_changed)
	r=$(qph connect "$q1" "$ALT" "$NEW_DQPN")
	tap_eq "QP $q1 reset and reconnected to $ALT QP $NEW_DQPN" ok "$r"
	# The worker re-queries live QPs once a second.
	sleep 3
	tap_eq "QP $q1's entry names the new peer QPN" "live $NEW_DQPN" \
		"$(qcol "$q1" state) $(qcol "$q1" peer_qpn)"
	tap_ok "peer_changed counts the reconnection" test "$(dpc peer_changed)" -gt "$c0"
fi
r=$(cnp_round new-peer "$ALT")
((LAB_HOST == 1)) && tap_eq "CNPs from the new peer are accepted (cnp_rcvd +10, rejected +0)" "10 0" "$r"
r=$(cnp_round stale-peer "$LAB_ADDR_eth0")
((LAB_HOST == 1)) && tap_eq "CNPs from the old peer are rejected (cnp_rcvd +0, rejected +10)" "0 10" "$r"

# --- (3) a flood of made-up QPNs from ALT
if ((LAB_HOST == 1)); then
	r=$(qph create)
	[[ $r == "qpn "* ]] || tap_bail "qp_hold create: $r"
	q2=${r#qpn }
	nft add table inet rtune_qpt &&
		nft add chain inet rtune_qpt input '{ type filter hook input priority 0; }' &&
		nft add rule inet rtune_qpt input ip saddr "$ALT" udp dport 4791 counter ||
		tap_bail "nft counter"
	qmax=$(dpc qps_max) umax=$(dpc qps_unconfirmed_max)
	q0=$(dpc qps)
	f0=$(dpc learn_refused_full) m0=$(dpc learn_refused_nomem) e0=$(dpc evicted_unconfirmed)
	tap_diag "before the flood: qps $q0, qps_max $qmax, qps_unconfirmed_max $umax, qp objects $(objs_qp)"
	lab_barrier flood-ready 60
	hi=0 hobj=0 ctl='' polls=0
	while [[ ! -e $LAB_RUN_DIR/host2/kv/flood-done ]]; do
		n=$(dpc qps) o=$(objs_qp)
		((n > hi)) && hi=$n
		((o > hobj)) && hobj=$o
		# Early in the flood, a real QP gets an entry through qp_ctl.
		if ((++polls == 2)); then
			if rtune_write "$P/qp_ctl" "$q2 rate_cap_kbps=2000"; then
				ctl=ok
			else
				ctl="failed (qps $(dpc qps))"
			fi
		fi
		sleep 0.2
	done
	sleep 3
	got=$(nft list chain inet rtune_qpt input | awk '/counter packets/ {for (i=1;i<NF;i++) if ($i=="packets") print $(i+1)}')
	nft delete table inet rtune_qpt
	f=$(($(dpc learn_refused_full) - f0)) m=$(($(dpc learn_refused_nomem) - m0))
	e=$(($(dpc evicted_unconfirmed) - e0))
	tap_diag "flood: $got of $FLOOD packets reached host1; refused full $f, nomem $m, evicted unconfirmed $e; peaks: qps $hi, qp objects $hobj"
	tap_ok "much of the flood reached the datapath (>= 20 %)" test "${got:-0}" -ge $((FLOOD / 5))
	tap_eq "every flood packet is counted: refused or evicted as unconfirmed" \
		"${got:-0}" $((f + m + e))
	tap_ok "tracked QPs stayed within the bounds ($hi <= $qmax + $umax)" \
		test "$hi" -le $((qmax + umax))
	tap_ok "allocated entries stayed bounded ($hobj <= $qmax + $umax)" \
		test "$hobj" -le $((qmax + umax))
	tap_eq "a qp_ctl write for a real QP during the flood succeeds" ok "${ctl:-not tried}"
	tap_eq "after the flood the table holds what it did, plus that QP" $((q0 + 1)) "$(dpc qps)"
	qph quit >/dev/null
	wait "$QPH_P_PID" 2>/dev/null
else
	lab_barrier flood-ready 60
	t0=$SECONDS
	python3 "$here/forge_roce.py" flood "$ALT" "$LAB_PEER_eth0" "$FLOOD" ||
		tap_diag "forge_roce.py flood failed"
	tap_diag "flood of $FLOOD packets sent in $((SECONDS - t0)) s"
	lab_put flood-done 1
fi
lab_barrier flooded 120 || tap_bail "peer lost after the flood"

# --- (4) a perftest connection after the flood gets CC
lab_perf_start --port "$PORT" --timeout 120 --grace 0 \
	perf -- ib_write_bw -d rxe0 -x "$gid" -s 4096 -q 4 -D 10 -F ||
	tap_fail "ib_write_bw started"
four_live() { (($(live_count) >= 4)); }
wait_for four_live || wait_for four_live
tap_ok "the perftest connection's 4 QPs are live ($(live_count) live)" four_live
lab_perf_stop perf
tap_diag "ib_write_bw: verdict $?"

# --- (5) who may read the QPs: root only where a file names QPs and peers
if ((LAB_HOST == 1)); then
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	for f in qp_stats qp_watch qp_ctl; do
		tap_notok "an unprivileged user cannot read $f" nobody cat "$P/$f"
	done
	tap_ok "an unprivileged user reads dp_counters" nobody cat "$P/dp_counters"
	tap_ok "an unprivileged user reads counters" nobody cat "$P/counters"
fi

tap_ok "rmmod rocetune" rtune_unload
tap_ok "kernel log clean" kernel_log_clean
tap_done
