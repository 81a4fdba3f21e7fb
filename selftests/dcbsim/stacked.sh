#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stacked dcbsim carries RoCE: two lab guests, each with dcb0 stacked on
# eth0 and the lab address moved from eth0 to dcb0, rxe0 on dcb0, then ping
# and a short ib_write_bw between them. Traffic must show in dcb0's
# counters, and after dcb0 is deleted eth0 must work on its own again.
#
#   host1                                                  host2
#   rxe0 -> dcb0 198.18.1.1                    198.18.1.2 dcb0 <- rxe0
#           eth0 ======== link 1 (qemu UDP socket) ======== eth0
#
# Run as root in both guests of a two-host lab: selftests/dcbsim/run.sh.

# shellcheck disable=SC2154 # the LAB_* variables come from /run/lab/env

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=../lib/lab-guest.sh
. "$DS_HERE/../lib/lab-guest.sh"

lab_hosts 2 || tap_skip_all "$LAB_WHY (selftests/dcbsim/run.sh)"
ds_require
command -v ib_write_bw >/dev/null || tap_skip_all "perftest not installed"
modprobe rdma_rxe || tap_skip_all "no rdma_rxe module"

LO=eth0
UP=dcb0
IB=rxe0
ADDR=$LAB_ADDR_eth0
PEER=$LAB_PEER_eth0
SIZE=4096
ITERS=1000
PORT=18515
LOG=$LAB_HOST_DIR/perf.log

cleanup() {
	rdma link delete $IB 2>/dev/null
	ds_loaded && ds_unload
}
trap cleanup EXIT

tap_plan 14

tap_ok "insmod rocetune_dcbsim.ko" ds_load
t_setup() {
	ip link add link $LO name $UP type dcbsim &&
	ip addr flush dev $LO scope global &&
	ip addr add "$ADDR/24" dev $UP &&
	ip link set $UP up
}
tap_ok "dcb0 on eth0, $ADDR moved to dcb0" t_setup
t_dcb() {
	dcb_write pfc set dev $UP prio-pfc 3:on && [ "$(ds_get $UP pfc.pfc_en)" = 8 ]
}
tap_ok "DCB works on the stacked device (PFC prio 3)" t_dcb

rx0=$(ds_counter $UP rx_packets) tx0=$(ds_counter $UP tx_packets)
tap_ok "ping $PEER through dcb0" lab_wait_ping "$PEER" 60
tap_ok "rdma link add $IB type rxe netdev $UP" \
	rdma link add $IB type rxe netdev $UP
gid=$(lab_roce_gid_index $IB "$ADDR")
tap_ok "RoCE v2 GID for $ADDR on $IB" test -n "$gid"

lab_barrier rxe-up 180 || tap_bail "peer never got rxe0 up"

# Server on host 1, client on host 2 (lab_perf_*, log in $LOG); each host
# checks its own perftest's exit status.
started=0
lab_perf_start --port "$PORT" --timeout 240 perf -- \
	ib_write_bw -d "$IB" -x "$gid" -s "$SIZE" -n "$ITERS" -F && started=1
if [ "$LAB_HOST" -eq 1 ]; then
	tap_eq "ib_write_bw server listening" 1 "$started"
else
	tap_eq "ib_write_bw server is ready" 1 "$started"
fi
lab_perf_wait perf
rc=$(lab_perf_exit perf)
sed 's/^/# /' "$LOG"
if [ "$LAB_HOST" -eq 1 ]; then
	tap_eq "ib_write_bw server exit status" 0 "$rc"
else
	tap_eq "ib_write_bw client exit status" 0 "$rc"
fi

# The writes go one way (SIZE/1024 packets each: rxe's MTU is 1024 on a
# 1500-byte netdev) and the acks the other; the pings are a handful.
rx=$(($(ds_counter $UP rx_packets) - rx0))
tx=$(($(ds_counter $UP tx_packets) - tx0))
min=$((ITERS * SIZE / 1024))
tap_diag "dcb0: rx_packets +$rx, tx_packets +$tx"
tap_ok "RoCE went through dcb0 (rx + tx packets >= $min)" \
	test $((rx + tx)) -ge $min
tap_ok "the rxe device is bound to dcb0" \
	bash -c "rdma link show $IB/1 | grep -qw 'netdev $UP'"

lab_barrier perf-done 240 || tap_bail "peer did not finish ib_write_bw"
rdma link delete $IB
tap_ok "ip link del dcb0" ip link del $UP
t_lower_alone() {
	ip addr add "$ADDR/24" dev $LO &&
	lab_barrier eth0-again 120 &&
	lab_wait_ping "$PEER" 60
}
tap_ok "eth0 works on its own again (ping $PEER)" t_lower_alone
tap_ok "rmmod" ds_unload
lab_barrier finished 120
tap_ok "no warnings in the kernel log" kernel_log_clean
tap_done
