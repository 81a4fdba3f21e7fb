#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The transmit hook's idle fast path (Documentation/datapath.rst, "Paced
# egress") must not outlive a change. Two lab guests, no bottleneck, fq on
# the sender, rocetune with its defaults (rp_max_rate_kbps 0: a QP at the
# maximum is not paced, so an uncongested QP is marked idle and its packets
# skip the lock). ib_write_bw -q 1 from host2 to host1, and while it runs:
#   1. the QP is live and paced nothing (it is on the fast path);
#   2. qp_ctl rate_cap_kbps=5000: the QP is paced, within 10 % of 5 Mbit/s
#      (IP level, on the wire) - qp_ctl must clear the idle mark;
#   3. cap removed, then a commit of rp_max_rate_kbps=7000: paced again,
#      within 10 % of 7 Mbit/s - a commit must end the idle mark too;
#   4. qp_ctl rate_cap_kbps=100 while the QP has packets queued in fq
#      (rxe keeps up to 64 in flight, about 80 ms at 7 Mbit/s): in the
#      next second eth0 sends at most 250 kbit/s - the new rate holds for
#      the queued packets too (they leave at the socket's pacing rate as
#      fq dequeues them). It fails when the cut does not reach the socket
#      at once, and when the QP did not send at 7 Mbit/s before the cut
#      (a quiet second after a dead link is no evidence). It does not
#      tell pacing by departure times (the module
#      before 2026-12-03) from it: that module passed too (0.09 Mbit/s),
#      as too few of its packets were stamped ahead at 7 Mbit/s.
# On a kernel whose rxe frees a destroyed QP's objects under its queued
# packets (before 6.1; ports/1/pacing reads "unavailable old-rxe"), the
# module must hold no packet: the capped QP is not paced, its packets
# count in unpaced_pkts, the two rate checks are skips that say why, and
# the QP's teardown with the cap in force leaves the kernel log clean
# (with packets held, 5.10 warned in rxe_qp_do_cleanup() and panicked).
#
# Run on the host:   selftests/dcqcn/idle-pacing.sh [lab-run options]

# shellcheck disable=SC2154 # LAB_* come from /run/lab/env
set -uo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# On the host, from a source tree: start the lab. An installed tree has
# no lab; there the suite skips below.
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 2 --timeout 400 "$@" \
		--script "1,2=$here/idle-pacing.sh"
fi

. "$here/../lib/lab-guest.sh"
. "$here/../kmod/lib.sh"
. "$here/qp-lib.sh"
lab_hosts 2 || tap_skip_all "$LAB_WHY: paced traffic between two guests"
P=$RT/rxe0/ports/1
PORT=18515
# ib_write_bw's duration: far more than host2's steps take (about 30 s,
# 90 s on a loaded 5.10 guest), since a server that ends by itself
# destroys its QP while the client still sends, which 5.10's rxe does not
# survive (Documentation/kernels.rst, "Paced egress on 5.10"). Host2
# stops it when its steps are done.
SECS=200

qp_suite_up
lab_fq eth0 || tap_bail "fq"
tap_ok "insmod rocetune.ko (defaults)" rtune_load
wait_for test -d "$P" || tap_bail "no configfs tree"
lab_barrier up 120 || tap_bail "peer not up"

# The traffic runs while host2 measures; host2 stops it when done.
lab_perf_start --port "$PORT" --timeout $((SECS + 40)) --grace 0 \
	perf -- ib_write_bw -d rxe0 -x "$gid" -s 65536 -q 1 -D "$SECS" -F -u 18 ||
	tap_fail "ib_write_bw started"
t_perf=$SECONDS
if ((LAB_HOST == 1)); then
	if lab_perf_stop perf; then
		tap_pass "ib_write_bw ran until host2 stopped it"
	else
		tap_fail "ib_write_bw ran until host2 stopped it"
	fi
	tap_ok "rmmod rocetune" rtune_unload
	tap_ok "kernel log clean" kernel_log_clean
	tap_done
fi

# within MBPS TARGET: MBPS is within 10 % of TARGET.
within() { awk -v m="$1" -v c="$2" 'BEGIN {exit !(m >= 0.9 * c && m <= 1.1 * c)}'; }
# capped WHAT MBPS TARGET: the rate check of step WHAT, or with pacing
# unavailable, the check that nothing was held (paced_pkts still 0, and
# unpaced_pkts grew since step 1) and a skip for the rate.
capped() {
	if [[ $pstate != unavailable ]]; then
		tap_ok "$1: QP within 10% of $3 Mbit/s ($2)" within "$2" "$3"
		return
	fi
	tap_eq "$1, pacing unavailable: the QP's packets are not held (paced_pkts)" 0 "$(col paced_pkts)"
	tap_ok "$1, pacing unavailable: its packets count in unpaced_pkts" \
		test "$(dpc unpaced_pkts)" -gt "$unpaced0"
	tap_skip "$1: QP within 10% of $3 Mbit/s ($2)" \
		"pacing unavailable ($pwhy): this kernel's rxe frees a destroyed QP's CQs and PD while its packets may wait in a qdisc (Linux before 6.1)"
}

read -r pstate pwhy <"$P/pacing"
tap_diag "pacing: $pstate $pwhy"
unpaced0=$(dpc unpaced_pkts)

qpn=$(live_qpn)
tap_eq "the QP is live in qp_stats" 1 "$([[ -n $qpn ]] && echo 1 || echo 0)"
sleep 3
tap_diag "unpaced: $(lab_tx_mbps eth0 2) Mbit/s"
tap_eq "at the maximum rate with no ceiling the QP is not paced" 0 "$(col paced_pkts)"

printf '%s rate_cap_kbps=5000' "$qpn" >"$P/qp_ctl"
sleep 3
m=$(lab_tx_mbps eth0 4)
tap_diag "capped at 5000 kb/s: $m Mbit/s, paced_pkts $(col paced_pkts)"
capped "qp_ctl ends the idle path (cap 5000 kb/s)" "$m" 5

printf '%s rate_cap_kbps=0' "$qpn" >"$P/qp_ctl"
sleep 2
printf 7000 >"$P/cc/staged/rp_max_rate_kbps" && printf 1 >"$P/cc/commit" ||
	tap_diag "commit: $(cat "$P/cc/last_error")"
sleep 3
m7=$(lab_tx_mbps eth0 4)
tap_diag "rp_max_rate_kbps 7000: $m7 Mbit/s, paced_pkts $(col paced_pkts)"
capped "a commit ends the idle path (rp_max_rate_kbps 7000)" "$m7" 7

# Step 4: the cut and the measurement back to back; the sleep of
# lab_tx_mbps starts within a few ms of the write.
printf '%s rate_cap_kbps=100' "$qpn" >"$P/qp_ctl"
m=$(lab_tx_mbps eth0 1)
tap_diag "the second after a cut from 7000 to 100 kb/s: $m Mbit/s"
if [[ $pstate == unavailable ]]; then
	tap_skip "a cut holds for the packets already queued" \
		"pacing unavailable ($pwhy): no packet is held"
elif ! within "$m7" 7; then
	# A quiet second says nothing of a QP that was not sending at 7.
	tap_fail "a cut holds for the packets already queued: not measured, the QP sent $m7 Mbit/s before the cut, not 7"
else
	tap_ok "a cut holds for the packets already queued (at most 0.25 Mbit/s in the next second: $m)" \
		awk -v m="$m" 'BEGIN {exit !(m <= 0.25)}'
fi
printf '%s rate_cap_kbps=0' "$qpn" >"$P/qp_ctl"

# The server started first: with its duration spent, the steps measured
# a transfer that had ended.
el=$((SECONDS - t_perf))
tap_ok "the steps took $el s, within ib_write_bw's $SECS s less 20" test "$el" -lt $((SECS - 20))
if lab_perf_stop perf; then
	tap_pass "ib_write_bw ran until stopped"
else
	tap_fail "ib_write_bw ran until stopped"
fi
tap_ok "rmmod rocetune" rtune_unload
tap_ok "kernel log clean" kernel_log_clean
tap_done
