#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One host of `make lab`: load rocetune.ko, create rxe0 on eth0, show the
# configfs tree, then show rxe0's counters live while perftest runs
# between the two hosts (host 2 writes to host 1).

set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/lab-guest.sh"
RT=/sys/kernel/config/rocetune
DUR=${DEMO_SECONDS:-20}

say() { printf '[host%s] %s\n' "$LAB_HOST" "$*"; }

modprobe rdma_rxe
insmod "$TOP/kmod/rocetune.ko" || { say "insmod failed"; exit 1; }
rdma link add rxe0 type rxe netdev eth0 || exit 1
for _ in $(seq 50); do [ -d $RT/rxe0 ] && break; sleep 0.1; done

say "rocetune $(cat $RT/version) attached to rxe0 on eth0 ($LAB_ADDR_eth0)"
say "configfs tree:"
(cd $RT && find rxe0 -maxdepth 4 | sort | sed 's/^/    /')
say "in effect on rxe0 port 1 (cc/active):"
for f in $RT/rxe0/ports/1/cc/active/*; do
	printf '    %-30s %s\n' "${f##*/}" "$(cat "$f")"
done

GID=$(lab_roce_gid_index rxe0 "$LAB_ADDR_eth0")
lab_barrier ready
CTR=$RT/rxe0/ports/1/counters
if [ "$LAB_HOST" = 1 ]; then
	timeout $((DUR + 60)) ib_write_bw -d rxe0 -x "$GID" -D "$DUR" -s 65536 \
		>/tmp/perf.out 2>&1 &
else
	sleep 2
	timeout $((DUR + 60)) ib_write_bw -d rxe0 -x "$GID" -D "$DUR" -s 65536 \
		"$LAB_PEER_eth0" >/tmp/perf.out 2>&1 &
fi
perf=$!
say "live counters of rxe0 (deltas per 2 s) while ib_write_bw runs:"
sort $CTR >/tmp/ctr.prev
while kill -0 $perf 2>/dev/null; do
	sleep 2
	sort $CTR >/tmp/ctr.cur
	# name value pairs: print the ones that moved, with their delta.
	line=$(join /tmp/ctr.prev /tmp/ctr.cur |
		awk '$3 != $2 { printf "%s +%d  ", $1, $3 - $2 }')
	say "  ${line:-(idle)}"
	mv /tmp/ctr.cur /tmp/ctr.prev
done
wait $perf
rc=$?
say "ib_write_bw exit $rc; result:"
sed -n '/#bytes/,$p' /tmp/perf.out | sed 's/^/    /'
say "counters at the end:"
sed 's/^/    /' $CTR
say "software DCQCN datapath: pacing $(cat $RT/rxe0/ports/1/pacing); per-QP state (qp_stats):"
sed 's/^/    /' $RT/rxe0/ports/1/qp_stats
lab_barrier done
exit $rc
