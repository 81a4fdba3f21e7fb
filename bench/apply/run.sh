#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark: `rocetune apply` on 1, 16 and 64 DCB test devices (first the
# full apply onto fresh devices, then a no-op apply), against the equivalent
# script of ip link / dcb / configfs writes (script-equivalent.sh), in the
# same guest and run. One device is rocetune_dcbsim stacked on eth0 with
# rxe0 on it (so rdma_cm and rocetune.ko configfs are part of the work), the
# others are standalone dcbsim devices. Median of REPS runs per cell.
# Targets: no-op apply on 64 devices faster than the script; full apply no
# slower than the script.
#
# On the host: bench/apply/run.sh [lab-run args]; results are printed as
# TAP diagnostics and written to bench/apply/results.txt.
set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
top=$(cd "$here/../.." && pwd)
if [[ -z ${LAB_HOST:-} ]]; then
	out=$(mktemp -d /tmp/rocetune-bench.XXXXXX)
	"$top/selftests/lab/lab-run" --hosts 1 --timeout 1500 --out "$out/run" "$@" \
		--script "1=$here/run.sh"
	rc=$?
	tap=$out/run/share/host1/out.tap
	[[ -f $tap ]] && { cat "$tap"; { echo "# $(date -u +%FT%TZ) one lab guest (QEMU TCG, Debian 6.1 kernel), median of ${REPS:-3}"; grep "^# bench" "$tap"; } > "$here/results.txt"; }
	exit $rc
fi
. "$top/selftests/lib/tap.sh"

RT=$top/tools/rocetune/rocetune
REPS=${REPS:-3}
W=$(mktemp -d /run/rocetune-bench.XXXXXX)
export ROCETUNE_STATE_DIR=$W/state
sed 's/^#.*//' "$here/bench.profile.in" > "$W/bench.conf"

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
insmod "$top/kmod/dcbsim/rocetune_dcbsim.ko" || tap_skip_all "no dcbsim"
modprobe rdma_rxe && modprobe rdma_cm || tap_skip_all "no rxe/rdma_cm"
if [[ -f $top/kmod/rocetune.ko ]]; then
	insmod "$top/kmod/rocetune.ko"
else
	sed -i '/^\[cc\]/,$d' "$W/bench.conf"
	tap_diag "rocetune.ko absent: benchmark without [cc]"
fi
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
		[[ -d /sys/kernel/config/rocetune/rxe0 || ! -f $top/kmod/rocetune.ko ]] && break
		sleep 0.1
	done
}

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

tap_plan 9
for n in 1 16 64; do
	rf=(); rn=(); sf=(); sn=(); ok=1
	for ((r = 0; r < REPS; r++)); do
		mkdevs "$n"
		t0=$(now); "$RT" apply "$W/bench.conf" >/dev/null 2>&1; rc1=$?; t1=$(now)
		"$RT" apply "$W/bench.conf" >/dev/null 2>&1; rc2=$?; t2=$(now)
		[[ $rc1 == 2 && $rc2 == 0 ]] || ok=0
		rf+=("$(ms "$t0" "$t1")"); rn+=("$(ms "$t1" "$t2")")
		mkdevs "$n"
		t0=$(now); "$here/script-equivalent.sh" rxe0 "${devs[@]}" >/dev/null 2>&1; t1=$(now)
		"$here/script-equivalent.sh" rxe0 "${devs[@]}" >/dev/null 2>&1; t2=$(now)
		sf+=("$(ms "$t0" "$t1")"); sn+=("$(ms "$t1" "$t2")")
		# the script must have produced the declared state too
		"$RT" diff "$W/bench.conf" >/dev/null 2>&1 || ok=2
	done
	RF=$(median "${rf[@]}"); RN=$(median "${rn[@]}"); SF=$(median "${sf[@]}"); SN=$(median "${sn[@]}")
	echo "# bench devices=$n reps=$REPS rocetune_full_ms=$RF script_full_ms=$SF rocetune_noop_ms=$RN script_rerun_ms=$SN"
	tap_eq "devices=$n: rocetune exits 2 then 0, and the script reaches the same state" 1 "$ok"
	tap_result() { if [[ $1 -eq 1 ]]; then tap_pass "$2"; else tap_fail "$2" "$3"; fi; }
	tap_result "$((RN < SN))" "devices=$n: no-op apply ($RN ms) faster than the script re-run ($SN ms)" ""
	tap_result "$((RF <= SF))" "devices=$n: full apply ($RF ms) no slower than the script ($SF ms)" ""
done
rdma link delete rxe0 2>/dev/null
for i in "${devs[@]}"; do ip link del "$i" 2>/dev/null; done
tap_done
