#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What a typical RoCE host script does for bench.profile.in, device by
# device: ip link, dcb (iproute2), and configfs writes. It does not read
# first (that is the usual script), so a re-run repeats every write.
#   script-equivalent.sh IBDEV DEV...
ib=$1; shift
map=$(for d in $(seq 0 63); do printf '%d:%d ' "$d" $((d >> 3)); done)
for dev in "$@"; do
	ip link set dev "$dev" mtu 4200
	dcb ets set dev "$dev" willing off prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0 \
		tc-tsa 0:ets 1:strict 2:strict 3:ets 4:strict 5:strict 6:strict 7:strict \
		tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0
	dcb pfc set dev "$dev" prio-pfc all:off 3:on
	# shellcheck disable=SC2086
	dcb app replace dev "$dev" dscp-prio $map
done
if [[ -n $ib ]]; then
	c=/sys/kernel/config/rdma_cm/$ib
	mkdir -p "$c"
	echo "RoCE v2" > "$c/ports/1/default_roce_mode"
	echo 106 > "$c/ports/1/default_roce_tos"
	rmdir "$c"
	cc=/sys/kernel/config/rocetune/$ib/ports/1/cc
	if [[ -d $cc ]]; then
		echo connectx > "$cc/preset"
		for p in ecn_enabled_prios rp_enabled_prios np_enabled_prios; do
			echo 3 > "$cc/staged/$p"
		done
		echo 48 > "$cc/staged/np_cnp_dscp"
		echo 6 > "$cc/staged/np_cnp_prio"
		echo 1 > "$cc/commit"
	fi
fi
exit 0
