#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rmmod rocetune while DCQCN traffic runs: two lab guests, the lab
# bottleneck (HTB + RED ecn on host1's ingress, fq on host2, lab preset;
# see lab-preset.sh), ib_write_bw -q 4 from host2 to host1.
#
# Round 1: with CNPs flowing (checked in qp_stats), both hosts rmmod the
#   module in the middle of the transfer. It must succeed, or be refused
#   cleanly (EBUSY) and succeed once retried; the transfer completes.
# Round 2: the module is loaded again in the middle of a transfer (it
#   must pick up the running QPs), then the rxe device is deleted after the
#   transfer: every rocetune object is freed (debugfs rocetune/objects back
#   to zero) before rmmod, and the kernel log has no warnings.
# Round 3 (order): no bottleneck, every QP paced at 2 Mb/s, so that each
#   one has packets held in fq. host2 (the sender) rmmods: the pacing is
#   released, and the packets rxe sends after the hooks are gone must not
#   overtake the ones fq still holds (rxe's responder would see them out
#   of order: its out_of_seq_request counter, read on host1, stays put).
#   When pacing stamped departure times, such overtakes broke round 1 now
#   and then (Failed status 9 at the client).
#
# Run on the host:   selftests/dcqcn/rmmod-traffic.sh [lab-run options]

# shellcheck disable=SC2154 # LAB_* come from /run/lab/env
set -uo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# On the host, from a source tree: start the lab. An installed tree has
# no lab; there the suite skips below.
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 2 --timeout 600 "$@" \
		--script "1,2=$here/rmmod-traffic.sh"
fi

. "$here/../lib/lab-guest.sh"
. "$here/../kmod/lib.sh"
lab_hosts 2 || tap_skip_all "$LAB_WHY: DCQCN traffic through a bottleneck between two guests"
. "$here/lab-preset.sh"
P=$RT/rxe0/ports/1
PORT=18515
SECS=20

tap_header
rtune_require
command -v ib_write_bw >/dev/null || tap_skip_all "perftest not installed"
modprobe sch_fq; modprobe ifb; modprobe sch_red; modprobe sch_htb
lab_rxe_up || tap_bail "rxe0 on eth0 and the peer reachable"
gid=$LAB_GID
if ((LAB_HOST == 1)); then
	rtune_lab_bottleneck || tap_bail "bottleneck"
fi
if true; then
	lab_fq eth0 || tap_bail "fq"
fi
load() { rtune_load && wait_for test -d "$P" && rtune_lab_preset "$P"; }
tap_ok "insmod rocetune.ko, lab preset" load
lab_barrier up 120 || tap_bail "peer not up"

# start NAME: perftest in the background, connected (lab_perf_start).
# Each round has its own port: a round-1 server hung in its final
# handshake may still hold the previous one.
start() {
	local secs=${2:-$SECS}
	PORT=$((PORT + 1))
	lab_perf_start --port "$PORT" --timeout $((secs + 40)) --grace 30 --tolerate-close \
		"$1" -- ib_write_bw -d rxe0 -x "$gid" -s 65536 -q 4 -D "$secs" -F --tclass=2 -u 18
}
# finish NAME: wait for the transfer; the client's verdict on both hosts.
# Completed = the client printed its result: after a collapse perftest can
# then hang in its final handshake (--tolerate-close), and the server gets
# 30 s after the client is done (--grace).
finish() { lab_perf_wait "$1"; }
# hw NAME: one of rxe0's hw_counters.
hw() { cat "/sys/class/infiniband/rxe0/ports/1/hw_counters/$1"; }
col() { awk -v f="$1" 'NR==1 {for (i=1;i<=NF;i++) c[$i]=i; next} $3=="live" {s+=$c[f]} END {print s+0}' "$P/qp_stats" 2>/dev/null; }
# cnps: CNPs sent (host1) or accepted (host2) so far.
cnps() { if ((LAB_HOST == 1)); then col cnp_sent; else col cnp_rcvd; fi; }
# unload: rmmod; EBUSY is a clean refusal, retried; anything else fails.
unload() {
	local i err
	for i in $(seq 20); do
		err=$(rmmod rocetune 2>&1) && { tap_diag "rmmod succeeded (attempt $i)"; return 0; }
		tap_diag "rmmod attempt $i refused: $err"
		[[ $err == *"in use"* || $err == *"busy"* || $err == *"Resource temporarily"* ]] || return 1
		sleep 0.5
	done
	return 1
}

# Round 1.
start r1
for _ in $(seq 300); do (( $(cnps) > 0 )) && break; sleep 0.2; done
tap_diag "round 1: live QPs $(awk 'NR>1 && $3=="live"' "$P/qp_stats" | wc -l), CNPs $(cnps)"
tap_eq "CNPs flow before the rmmod" 1 "$(( $(cnps) > 0 ))"
sleep 2
tap_ok "rmmod under traffic succeeds (or is refused cleanly, then succeeds)" unload
tap_eq "module gone" 0 "$(rtune_loaded && echo 1 || echo 0)"
tap_ok "kernel log clean after rmmod under traffic" kernel_log_clean
finish r1
prc=$?
tap_diag "$(lab_perf_result r1)"
tap_eq "round 1 transfer completed after the rmmod" 0 "$prc"
lab_barrier r1-done 200 || tap_bail "peer lost in round 1"

# Round 2.
start r2
sleep 3
tap_diag "round 2 before insmod: rxe sent_pkts $(hw sent_pkts) rcvd_pkts $(hw rcvd_pkts)"
tap_ok "insmod under traffic, lab preset" load
# (40 s: the state is dumped below while the client, SECS + 40 s, still runs)
for _ in $(seq 200); do (( $(cnps) > 0 )) && break; sleep 0.2; done
tap_diag "round 2: live QPs $(awk 'NR>1 && $3=="live"' "$P/qp_stats" | wc -l), CNPs $(cnps)"
n=$(cnps)
tap_eq "module loaded under traffic picks up the running QPs (CNPs flow)" 1 "$((n > 0))"
((n > 0)) || rtune_lab_dump rxe0
finish r2
prc=$?
tap_eq "round 2 transfer completed" 0 "$prc"
lab_barrier r2-done 200 || tap_bail "peer lost in round 2"

# Round 3: the order of a paced QP's packets across the rmmod.
ORDER_KBPS=2000
# the rate cap: the lab preset's maximum rate (pace_at_max) lowered
cap() { printf %s "$1" >"$P/cc/staged/rp_max_rate_kbps" && printf 1 >"$P/cc/commit"; }
paced() { col paced_pkts; }
if ((LAB_HOST == 1)); then
	tap_ok "order: bottleneck removed" tc qdisc del dev eth0 ingress
else
	tap_ok "order: fq holds each flow to the cap" \
		lab_fq eth0 maxrate ${ORDER_KBPS}kbit
fi
tap_ok "order: every QP paced at $ORDER_KBPS kb/s" cap "$ORDER_KBPS"
lab_barrier r3-setup 120 || tap_bail "peer lost before round 3"
start r3 12
if ((LAB_HOST == 2)); then
	p0=$(paced)
	for _ in $(seq 100); do (( $(paced) > p0 + 200 )) && break; sleep 0.2; done
	tap_diag "order: paced packets before the rmmod: $(( $(paced) - p0 ))"
	tap_eq "order: the QPs are paced before the rmmod" 1 "$(( $(paced) > p0 + 200 ))"
	lab_barrier r3-rmmod 60 || tap_bail "peer lost in round 3"
	tap_ok "order: rmmod while the QPs' packets wait in fq" unload
	tap_diag "order: $(dmesg | grep -o 'pacing of [0-9]* QPs* released' | tail -n 1)"
else
	lab_barrier r3-rmmod 60 || tap_bail "peer lost in round 3"
	o1=$(hw out_of_seq_request) d1=$(hw duplicate_request)
fi
finish r3
prc=$?
tap_eq "order: round 3 transfer completed" 0 "$prc"
if ((LAB_HOST == 1)); then
	o2=$(hw out_of_seq_request)
	tap_diag "order: out_of_seq_request $o1 at the sender's rmmod, $o2 after the transfer;" \
		"duplicate_request $d1, $(hw duplicate_request)"
	tap_eq "order: no packet out of order after the sender's rmmod" 0 "$((o2 - o1))"
else
	tap_ok "order: insmod again, lab preset" load
fi
lab_barrier r3-done 200 || tap_bail "peer lost in round 3"
tap_ok "rdma link delete rxe0" rdma link delete rxe0
tap_ok "objects back to zero after device deletion" rtune_objects_zero
tap_ok "rmmod rocetune" rtune_unload
tap_ok "kernel log clean" kernel_log_clean
tap_done
