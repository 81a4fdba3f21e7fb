#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Incast-style benchmark of rocetune's software DCQCN in two lab guests:
# N = 1, 4, 16 QPs of ib_write_bw from host2 into one 20 Mbit/s ECN-marking
# bottleneck (HTB + RED ecn on host1's ingress, as in
# selftests/dcqcn/ecn-bottleneck.sh), without and with rocetune, side by
# side; then the hook cost: 64-byte ib_write_bw message rate with no
# bottleneck, module not loaded vs loaded with CC on.
#
#   bench/incast/run.sh [--out DIR]        (on the host; ~15 min under TCG)
#
# Writes bench/incast/results.txt (a copy of host1's table). Columns:
# util = perftest average / 20 Mbit/s; drops = RED drops; ce = CE marks;
# rexmit = rxe duplicate_request + out_of_seq_request + rcvd_seq_err +
# completer_retry_err over both hosts; q50/q99 = ifb0 RED backlog (bytes)
# sampled every 0.2 s. Jain's index and convergence time are not measured
# yet (no per-QP receive counters without rocetune).

# shellcheck disable=SC2154
set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} ]]; then
	out=$(mktemp -d /tmp/rocetune-incast.XXXXXX)
	"$here/../../selftests/lab/lab-run" --hosts 2 --timeout 1800 --out "$out/run" "$@" \
		--script "1,2=$here/run.sh"
	rc=$?
	cp "$out/run/share/host1/results.txt" "$here/results.txt" 2>/dev/null &&
		cat "$here/results.txt"
	exit $rc
fi

. "$here/../../selftests/lib/lab-guest.sh"
KMOD=$here/../../kmod/rocetune.ko
P=/sys/kernel/config/rocetune/rxe0/ports/1
HW=/sys/class/infiniband/rxe0/ports/1/hw_counters
SECS=${INCAST_SECS:-10}
PORT=18515
R=$LAB_HOST_DIR/results.txt

modprobe configfs; mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
modprobe rdma_rxe; modprobe sch_fq; modprobe ifb; modprobe sch_red; modprobe sch_htb
rdma link add rxe0 type rxe netdev eth0 || exit 1
gid=$(lab_roce_gid_index rxe0 "$LAB_ADDR_eth0") || exit 1
lab_wait_ping "$LAB_PEER_eth0" 60 || exit 1
((LAB_HOST == 2)) && tc qdisc replace dev eth0 root fq

hwsum() { local s=0 c; for c in duplicate_request out_of_seq_request rcvd_seq_err completer_retry_err; do s=$((s + $(cat $HW/$c))); done; echo $s; }
# redstat KEY: a number of the RED qdisc's statistics (dropped, marked, backlog).
redstat() { tc -s qdisc show dev ifb0 | awk -v k="$1" '/^qdisc red/ {r=1} r {for (i=1;i<=NF;i++) {t=$i; sub(/^\(/,"",t); if (t==k) {v=$(i+1); gsub(/[,b)]/,"",v); print v+0; exit}}}'; }

bottleneck() {
	ip link add ifb0 type ifb; ip link set ifb0 up
	tc qdisc add dev eth0 handle ffff: ingress
	tc filter add dev eth0 parent ffff: matchall action mirred egress redirect dev ifb0
	tc qdisc add dev ifb0 root handle 1: htb default 1
	tc class add dev ifb0 parent 1: classid 1:1 htb rate 20mbit
	tc qdisc add dev ifb0 parent 1:1 handle 10: red limit 120000 min 15000 max 45000 \
		avpkt 1000 burst 20 probability 0.2 bandwidth 20mbit ecn
}
load() {
	insmod "$KMOD"
	for _ in $(seq 100); do [[ -d $P ]] && break; sleep 0.1; done
	local kv
	for kv in rp_max_rate_mbps=100 rp_alpha_gain_1024ths=64 rp_alpha_update_period_us=5000 \
		rp_rate_reduce_period_us=2000 rp_rate_increase_timer_us=10000 rp_byte_counter_bytes=0 \
		rp_additive_increase_mbps=1 rp_hyper_increase_mbps=2 np_min_cnp_interval_us=1000; do
		printf '%s' "${kv#*=}" >"$P/cc/staged/${kv%%=*}"
	done
	printf 1 >"$P/cc/commit"
}

# one NAME ARGS...: one perftest run; prints the client's average Gb/s on host2.
one() {
	local name=$1; shift
	if ((LAB_HOST == 1)); then
		stdbuf -oL timeout $((SECS + 120)) ib_write_bw -d rxe0 -x "$gid" -F --report_gbits -p $PORT -u 18 "$@" >"$LAB_HOST_DIR/$name.log" 2>&1 &
		local srv=$!
		for _ in $(seq 300); do [[ -n $(ss -Hltn "sport = :$PORT") ]] && break; sleep 0.2; done
		lab_put "ready-$name" 1
		lab_get 2 "done-$name" $((SECS + 150)) >/dev/null
		for _ in $(seq 100); do kill -0 $srv 2>/dev/null || break; sleep 0.2; done
		kill $srv 2>/dev/null; wait $srv
	else
		lab_get 1 "ready-$name" 150 >/dev/null
		for _ in $(seq 10); do
			sleep 1
			stdbuf -oL timeout $((SECS + 90)) ib_write_bw -d rxe0 -x "$gid" -F --report_gbits -p $PORT -u 18 "$@" "$LAB_PEER_eth0" >"$LAB_HOST_DIR/$name.log" 2>&1
			grep -q "Couldn't connect" "$LAB_HOST_DIR/$name.log" || break
		done
		lab_put "done-$name" 1
	fi
}
avg() { awk '$1 ~ /^[0-9]+$/ && NF >= 5 {v=$4} END {print v+0}' "$LAB_HOST_DIR/$1.log"; }
mrate() { awk '$1 ~ /^[0-9]+$/ && NF >= 5 {v=$5} END {print v+0}' "$LAB_HOST_DIR/$1.log"; }

# Hook cost first, before any bottleneck.
one cost-off -s 64 -q 1 -D "$SECS"
((LAB_HOST == 2)) && lab_put mr-off "$(mrate cost-off)"
lab_barrier cost-off-done 200
load
lab_barrier cost-loaded 120
one cost-on -s 64 -q 1 -D "$SECS"
((LAB_HOST == 2)) && lab_put mr-on "$(mrate cost-on)"
lab_barrier cost-on-done 200
rmmod rocetune
((LAB_HOST == 1)) && bottleneck
lab_barrier bottleneck 120

for mode in off on; do
	[[ $mode == on ]] && load
	lab_barrier "mode-$mode" 120
	for n in 1 4 16; do
		name=$mode-$n
		h0=$(hwsum); d0=0; c0=0
		if ((LAB_HOST == 1)); then
			d0=$(redstat dropped); c0=$(redstat marked)
			( while :; do redstat backlog 2>/dev/null || true; sleep 0.2; done ) >"$LAB_HOST_DIR/q-$name" &
			mon=$!
		fi
		one "$name" -s 65536 -q "$n" -D "$SECS" --tclass=2
		h1=$(hwsum)
		if ((LAB_HOST == 1)); then
			kill $mon; wait $mon 2>/dev/null
			lab_put "hw-$name" $((h1 - h0))
			peer=$(lab_get 2 "hw2-$name" 60)
			q=$(sort -n "$LAB_HOST_DIR/q-$name" | awk '{v[NR]=$1} END {if (!NR) {print "0 0"; exit} print v[int((NR-1)*0.5)+1], v[int((NR-1)*0.99)+1]}')
			bw=$(lab_get 2 "bw-$name" 60)
			echo "$mode $n $bw $(awk -v b="$bw" 'BEGIN{printf "%.2f", b*1000/20}') $(( $(redstat dropped) - d0 )) $(( $(redstat marked) - c0 )) $(( h1 - h0 + peer )) $q" >>"$LAB_HOST_DIR/rows"
		else
			lab_put "hw2-$name" $((h1 - h0))
			lab_put "bw-$name" "$(avg "$name")"
		fi
		lab_barrier "done2-$name" 200
	done
done

if ((LAB_HOST == 1)); then
	{
		echo "# rocetune incast benchmark: 2 TCG guests (1 vCPU), one 20 Mbit/s HTB+RED(ecn) bottleneck,"
		echo "# ib_write_bw -s 65536 -D $SECS -u 18 --tclass=2 from host2; $(date -u +%F) kernel $(uname -r)"
		echo "# command: bench/incast/run.sh"
		printf '%-5s %4s %10s %6s %7s %8s %8s %8s %8s\n' cc qps gbps util drops ce rexmit q50_B q99_B
		while read -r mode n bw util drops ce rex q50 q99; do
			printf '%-5s %4s %10s %6s %7s %8s %8s %8s %8s\n' "$mode" "$n" "$bw" "$util" "$drops" "$ce" "$rex" "$q50" "$q99"
		done <"$LAB_HOST_DIR/rows"
		echo "# hook cost (64 B ib_write_bw, no bottleneck), Mpps: module not loaded $(lab_get 2 mr-off 5) / loaded with CC $(lab_get 2 mr-on 5)"
	} >"$R"
fi
lab_barrier end 300
echo "1..1"; echo "ok 1 bench done"
