# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the two-guest benchmarks (bench/incast, bench/taillat) share, sourced
# in a lab guest: the rxe device with fq at its root, the ECN bottleneck of
# selftests/dcqcn/lab-preset.sh on host1's ingress, loading rocetune with
# or without the lab preset, and how a bench ends when something fails.
# Host 1 runs the perftest servers and has the bottleneck, host 2 the
# clients (selftests/lib/lab-guest.sh). Changes no shell options.
#
#   bench_setup             modules, rxe0 (LAB_GID: its RoCE v2 GID index),
#                           the peer answering ping, fq on eth0
#   bench_bottleneck        host1: ifb0 with HTB + RED ecn; host2 waits for
#                           it; both meet at barrier "bottleneck"
#   bench_load [preset]     insmod rocetune; the lab preset if asked, else
#                           the module defaults
#   bench_unload            rmmod rocetune
#   bench_fail REASON       stop this host's background jobs; "1..1",
#                           "not ok 1 bench: REASON", exit 1
#   bench_bar NAME [TIMEOUT] lab_barrier, or bench_fail
#   bench_positive VALUE    true if VALUE is a number above zero
#   bench_median            the median of the numbers on stdin

BENCH_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$BENCH_TOP/selftests/lib/lab-guest.sh"
. "$BENCH_TOP/selftests/dcqcn/lab-preset.sh"
BENCH_KMOD=$BENCH_TOP/kmod/rocetune.ko
BENCH_PORT=/sys/kernel/config/rocetune/rxe0/ports/1

bench_setup() {
	modprobe configfs
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	modprobe rdma_rxe; modprobe sch_fq; modprobe ifb; modprobe sch_red; modprobe sch_codel; modprobe sch_htb
	lab_rxe_up || return 1
	# rocetune paces in fq (Documentation/datapath.rst, "Paced egress");
	# the runs without it have fq too, so that only rocetune differs.
	lab_fq eth0
}

# fail REASON: end the bench on this host with a TAP failure. A bench makes
# every check on both hosts (a perftest verdict reaches both; a sample is
# passed to the other host before it is judged), so both end at the same
# point and no table is written. The samplers the bench left running in
# the background (queue, capture, QP rates, a loop waiting for a result
# that will not come) are stopped first: they hold the script's output
# open, and lab-stage2's tee, and with it the guest, would wait for them
# until the guest's timeout.
bench_fail() {
	local jobs
	jobs=$(jobs -p)
	# shellcheck disable=SC2086 # one PID per word
	[[ -z $jobs ]] || kill $jobs 2>/dev/null
	echo "1..1"
	echo "not ok 1 bench: $*"
	exit 1
}

bench_bar() {
	lab_barrier "$1" "${2:-120}" || bench_fail "barrier $1: the other host did not arrive (see its out.tap)"
}

bench_positive() { awk -v v="$1" 'BEGIN {exit !(v ~ /^[0-9.e+-]+$/ && v + 0 > 0)}'; }

bench_median() {
	sort -g | awk '{v[NR]=$1} END {if (!NR) {print 0; exit} print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'
}

bench_load() {
	insmod "$BENCH_KMOD" || return 1
	for _ in $(seq 100); do [[ -d $BENCH_PORT ]] && break; sleep 0.1; done
	[[ ${1:-} == preset ]] && { rtune_lab_preset "$BENCH_PORT" || return 1; }
	return 0
}

bench_unload() { rmmod rocetune; }

bench_bottleneck() {
	if ((LAB_HOST == 1)); then
		rtune_lab_bottleneck || { lab_put bottleneck fail; bench_fail "bottleneck setup"; }
		lab_put bottleneck ok
	else
		[[ $(lab_get 1 bottleneck 120) == ok ]] || bench_fail "host1 could not set up the bottleneck"
	fi
	bench_bar bottleneck
}
