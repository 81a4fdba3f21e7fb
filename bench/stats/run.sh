#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark: one sample of `rocetune stats` (JSON, and Prometheus to a
# file; --interval 0) on 1, 16 and 64 DCB test devices, against the loop of
# commands that reads the same counters (dcb -s -j pfc show, ethtool,
# ethtool -I -a, ethtool -S --groups, ip -s link per netdev; rdma link and
# rdma statistic for the RDMA port), in the same guest and run. One device
# is rocetune_dcbsim stacked on eth0 with rxe0 on it, the others are
# standalone. Median of REPS runs per cell, and the ratio loop/rocetune.
# A run whose outputs do not cover every device measured nothing: it fails.
#
# On the host: bench/stats/run.sh [lab-run args]; results are printed as
# TAP diagnostics and written to bench/stats/results.txt.
set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
top=$(cd "$here/../.." && pwd)
if [[ -z ${LAB_HOST:-} ]]; then
	out=$(mktemp -d /tmp/rocetune-bench.XXXXXX)
	"$top/selftests/lab/lab-run" --hosts 1 --timeout 1500 --out "$out/run" "$@" \
		--script "1=$here/run.sh"
	rc=$?
	tap=$out/run/share/host1/out.tap
	[[ -f $tap ]] && cat "$tap"
	# A failed run measured nothing: the last results stay as they were.
	((rc == 0)) && [[ -f $tap ]] && { { echo "# $(date -u +%FT%TZ) one lab guest (QEMU TCG, Debian 6.1 kernel), median of ${REPS:-5}"; grep "^# bench" "$tap"; } > "$here/results.txt"; }
	exit $rc
fi
. "$top/selftests/lib/tap.sh"

RT=$top/tools/rocetune/rocetune
REPS=${REPS:-5}
W=$(mktemp -d /run/rocetune-bench.XXXXXX)

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
insmod "$top/kmod/dcbsim/rocetune_dcbsim.ko" || tap_bail "no dcbsim: nothing to measure"
modprobe rdma_rxe || tap_bail "no rxe: nothing to measure"
[[ -f $top/kmod/rocetune.ko ]] && insmod "$top/kmod/rocetune.ko"
ip link set eth0 up

devs=()
mkdevs() {	# N
	local i
	rdma link delete rxe0 2>/dev/null
	for i in "${devs[@]}"; do ip link del "$i" 2>/dev/null; done
	devs=(bdcb0)
	ip link add link eth0 name bdcb0 type dcbsim && ip link set bdcb0 up
	for ((i = 1; i < $1; i++)); do
		ip link add "bdcb$i" type dcbsim && ip link set "bdcb$i" up
		devs+=("bdcb$i")
	done
	rdma link add rxe0 type rxe netdev bdcb0
	for i in $(seq 50); do
		[[ -e /sys/class/infiniband/rxe0/ports/1/state ]] && break
		sleep 0.1
	done
}

# The command loop: what an operator's script runs for the same counters.
loop() {
	local d
	for d in "${devs[@]}"; do
		dcb -s -j pfc show dev "$d"
		ethtool "$d"
		ethtool --json -I -a "$d"
		ethtool --json -S "$d" --groups eth-phy eth-mac
		ip -s -j link show dev "$d"
	done 2>/dev/null
	rdma -j link show rxe0/1
	rdma -j statistic show link rxe0/1
}

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

tap_plan 6
for n in 1 16 64; do
	mkdevs "$n"
	rj=(); rp=(); sl=(); ok=1
	for ((r = 0; r < REPS; r++)); do
		t0=$(now); "$RT" -j stats --interval 0 > "$W/s.json" 2>/dev/null; t1=$(now)
		"$RT" stats --interval 0 --prometheus "$W/s.prom" >/dev/null 2>&1; t2=$(now)
		loop > "$W/loop.out"; t3=$(now)
		rj+=("$(ms "$t0" "$t1")"); rp+=("$(ms "$t1" "$t2")"); sl+=("$(ms "$t2" "$t3")")
		# every device in each output, else nothing was measured
		np=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["ports"]))' "$W/s.json" 2>/dev/null)
		nprom=$(grep -c '^rocetune_pfc_enabled{.*priority="0"}' "$W/s.prom" 2>/dev/null)
		nloop=$(grep -c '"prio_pfc"' "$W/loop.out")
		[[ $np == "$n" && $nprom == "$n" && $nloop == "$n" ]] || ok=0
	done
	RJ=$(median "${rj[@]}"); RP=$(median "${rp[@]}"); SL=$(median "${sl[@]}")
	ratio=$(awk -v a="$SL" -v b="$RJ" 'BEGIN { printf "%.1f", b ? a / b : 0 }')
	echo "# bench devices=$n reps=$REPS stats_json_ms=$RJ stats_prometheus_ms=$RP command_loop_ms=$SL loop_over_stats=$ratio"
	tap_eq "devices=$n: stats JSON, Prometheus and the loop each cover all $n devices" 1 "$ok"
	if ((RJ > 0 && SL > 0)); then
		tap_pass "devices=$n: measured: stats $RJ ms, loop $SL ms (x$ratio)"
	else
		tap_fail "devices=$n: measured nothing" "stats $RJ ms, loop $SL ms"
	fi
done
rdma link delete rxe0 2>/dev/null
for i in "${devs[@]}"; do ip link del "$i" 2>/dev/null; done
rm -rf "$W"
tap_done
