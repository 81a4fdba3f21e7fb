#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lab smoke test, two guests on one link: each adds rxe0 on eth0, host1 runs
# an ib_write_bw server and host2 the client, over RoCEv2/IPv4 between
# 198.18.1.2 and 198.18.1.1.
#
#   host1 eth0 198.18.1.1 <--- link 1 (qemu UDP socket) ---> 198.18.1.2 eth0 host2
#
# Run on the host: it starts itself in two lab guests through lab-run,
# passing its arguments to lab-run (e.g. --keep, --out DIR):
#     selftests/lab/smoke-2host.sh
# Inside a guest (LAB_HOST set) it runs its side and prints TAP.
#
# Environment: SMOKE_SIZE (message size, default 8192), SMOKE_ITERS
# (default 2000).  Under TCG rxe moves ~7-10 MB/s, so the defaults move
# 16 MB in a few seconds.

# shellcheck disable=SC2154 # the LAB_* variables come from /run/lab/env
set -uo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# On the host, from a source tree: start the lab. An installed tree has
# no lab; there the suite skips below.
if [[ -z ${LAB_HOST:-} && -x $here/lab-run ]]; then
	envs=()
	for v in SMOKE_SIZE SMOKE_ITERS; do
		[[ -n ${!v:-} ]] && envs+=(--env "$v")
	done
	exec "$here/lab-run" --hosts 2 --timeout 300 "${envs[@]}" "$@" --script "1,2=$here/smoke-2host.sh"
fi

# shellcheck source-path=SCRIPTDIR source=../lib/lab-guest.sh
. "$here/../lib/lab-guest.sh"
# shellcheck source=../lib/tap.sh
. "$here/../lib/tap.sh"
lab_hosts 2 || tap_skip_all "$LAB_WHY: it checks the lab harness itself"

size=${SMOKE_SIZE:-8192}
iters=${SMOKE_ITERS:-2000}
perf_port=18515		# perftest's default out-of-band TCP port
n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; failed=$((failed + 1)); }
diag() { sed 's/^/# /'; }
bail() { # the rest cannot run; report what we have
	echo "Bail out! $*"
	exit 1
}

echo "TAP version 13"
echo "1..6"
echo "# host$LAB_HOST: eth0 $LAB_ADDR_eth0, peer host$LAB_PEERHOST_eth0 $LAB_PEER_eth0"

if out=$(modprobe rdma_rxe 2>&1 && rdma link add rxe0 type rxe netdev eth0 2>&1); then
	ok "rdma link add rxe0 type rxe netdev eth0"
else
	not_ok "rdma link add rxe0 type rxe netdev eth0"
	diag <<<"$out"
	bail "no rxe0"
fi

if gid=$(lab_roce_gid_index rxe0 "$LAB_ADDR_eth0" 2>&1); then
	ok "RoCE v2 GID index for $LAB_ADDR_eth0 is $gid"
else
	not_ok "RoCE v2 GID index for $LAB_ADDR_eth0"
	diag <<<"$gid"
	bail "no GID"
fi

if out=$(lab_wait_ping "$LAB_PEER_eth0" 60 2>&1); then
	ok "ping $LAB_PEER_eth0"
else
	not_ok "ping $LAB_PEER_eth0"
	diag <<<"$out"
fi

# Both sides have rxe0 before any RDMA traffic starts.
if lab_barrier rxe-up 120; then
	ok "barrier rxe-up"
else
	not_ok "barrier rxe-up"
	bail "peer never got ready"
fi

# Host1 starts the server and tells host2 once its port listens; host2
# then connects (lab_perf_start). Each host checks its own perftest's exit
# status (lab_perf_exit) once the client has ended (lab_perf_wait).
log=$LAB_HOST_DIR/perf.log
started=0
lab_perf_start --port "$perf_port" --timeout 180 perf -- \
	ib_write_bw -d rxe0 -x "$gid" -s "$size" -n "$iters" -F --report_gbits && started=1

if ((LAB_HOST == 1)); then
	if ((started)); then
		ok "ib_write_bw server listening on port $perf_port"
	else
		not_ok "ib_write_bw server listening on port $perf_port"
	fi
	lab_perf_wait perf
	rc=$(lab_perf_exit perf)
	diag <"$log"
	if [[ $rc == 0 ]]; then
		ok "ib_write_bw server (size $size, $iters iterations)"
	else
		not_ok "ib_write_bw server exit $rc"
	fi
else
	if ((started)); then
		ok "server is ready"
	else
		not_ok "server is ready"
	fi
	lab_perf_wait perf
	rc=$(lab_perf_exit perf)
	diag <"$log"
	# The result row: bytes, iterations, peak, average (Gb/s), Mpps.
	bw=$(lab_perf_result perf 4)
	if [[ $rc == 0 && -n $bw ]]; then
		ok "ib_write_bw client to $LAB_PEER_eth0: $bw Gb/s average"
	else
		not_ok "ib_write_bw client to $LAB_PEER_eth0 (exit $rc)"
	fi
fi

# Do not tear down while the peer may still be sending.
lab_barrier finished 120 || true
rdma link delete rxe0 || true

echo "# $((n - failed))/$n passed"
((failed == 0))
