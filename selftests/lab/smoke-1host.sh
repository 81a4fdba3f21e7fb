#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lab smoke test, one guest: the guest boots with the host's tools, configfs
# is mounted, modules load from the host's /lib/modules, and rxe binds to the
# guest's one NIC (which has no peer).
#
# Run on the host: it starts itself in a lab guest through lab-run, passing
# its arguments to lab-run (e.g. --keep, --out DIR):
#     selftests/lab/smoke-1host.sh
# Inside the guest (LAB_HOST set) it runs the checks and prints TAP.

# shellcheck disable=SC2154 # the LAB_* variables come from /run/lab/env
set -uo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# On the host, from a source tree: start the lab. An installed tree has
# no lab; there the suite skips below.
if [[ -z ${LAB_HOST:-} && -x $here/lab-run ]]; then
	exec "$here/lab-run" --hosts 1 --timeout 300 "$@" --script "1=$here/smoke-1host.sh"
fi

# shellcheck source-path=SCRIPTDIR source=../lib/lab-guest.sh
. "$here/../lib/lab-guest.sh"
# shellcheck source=../lib/tap.sh
. "$here/../lib/tap.sh"
lab_hosts 1 || tap_skip_all "$LAB_WHY: it checks the lab harness itself"

n=0
failed=0
# check DESCRIPTION COMMAND...: one TAP line; the command's output becomes
# diagnostics when it fails.
check() {
	local desc=$1 out
	shift
	n=$((n + 1))
	if out=$("$@" 2>&1); then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		[[ -n $out ]] && printf '%s\n' "$out" | sed 's/^/# /'
		failed=$((failed + 1))
	fi
}

eth0_addresses() {
	local a
	a=$(ip -o addr show dev eth0)
	grep -q " $LAB_ADDR_eth0/24 " <<<"$a" && grep -q " $LAB_ADDR6_eth0/64 " <<<"$a"
}
clean_network() {
	# Every address on every NIC is in the lab ranges (lo aside: 127/8, ::1),
	# including no IPv6 link-local, and there is no default route.
	local a
	for a in $(ip -o addr show | awk '$2 != "lo" {sub("/.*", "", $4); print $4}'); do
		lab_addr_ok "$a" || { echo "unexpected address $a"; return 1; }
	done
	[[ -z $(ip route show default; ip -6 route show default) ]] || { echo "default route present"; return 1; }
}
port_active() {
	local s
	for _ in $(seq 50); do
		s=$(</sys/class/infiniband/rxe0/ports/1/state)
		[[ $s == *ACTIVE* ]] && return 0
		sleep 0.2
	done
	echo "rxe0 port 1 state: $s"
	return 1
}
gid_found() {
	local i
	i=$(lab_roce_gid_index rxe0 "$LAB_ADDR_eth0") || return 1
	echo "# RoCE v2 GID index for $LAB_ADDR_eth0: $i" >&2
}
# The NIC has no peer, but what it sends must still leave it: virtio_net
# counts a frame in its transmit statistics only when the device hands it
# back (free_old_xmit), and with byte queue limits (from 6.11) it also
# holds the bytes not handed back as inflight. A hub that held the first
# frame forever left both stuck, and 6.12 guests logged NETDEV WATCHDOG.
# Five UDP broadcasts (no ARP first), then the count.
tx_completes() {
	local before after bql=/sys/class/net/eth0/queues/tx-0/byte_queue_limits/inflight
	before=$(</sys/class/net/eth0/statistics/tx_packets)
	python3 - "${LAB_ADDR_eth0%.*}.255" <<'PY' || return 1
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
for _ in range(5):
    s.sendto(b"lab", (sys.argv[1], 9))
PY
	sleep 1
	after=$(</sys/class/net/eth0/statistics/tx_packets)
	((after - before >= 5)) || { echo "eth0 handed back $((after - before)) of 5 frames"; return 1; }
	[[ ! -r $bql || $(<"$bql") == 0 ]] || { echo "eth0 tx-0: $(<"$bql") bytes inflight"; return 1; }
	! dmesg | grep -m1 'NETDEV WATCHDOG'
}
kv_roundtrip() {
	lab_put smoke "hello world" && [[ $(lab_get "$LAB_HOST" smoke 5) == "hello world" ]]
}

echo "TAP version 13"
echo "1..13"
check "environment from /run/lab/env" test "$LAB_HOST" = 1 -a "$LAB_IFACES" = eth0 -a -r /run/lab/env
check "lsmod works" lsmod
check "configfs mounted on /sys/kernel/config" grep -q '^configfs /sys/kernel/config configfs ' /proc/mounts
check "eth0 has $LAB_ADDR_eth0/24 and $LAB_ADDR6_eth0/64" eth0_addresses
check "only lab addresses, no default route" clean_network
check "eth0 completes what it sends (no peer)" tx_completes
check "lab_put/lab_get round trip" kv_roundtrip
check "lab_barrier with one host" lab_barrier smoke 10
check "modprobe rdma_rxe" modprobe rdma_rxe
check "rdma link add rxe0 type rxe netdev eth0" rdma link add rxe0 type rxe netdev eth0
check "rxe0 port 1 is ACTIVE" port_active
check "rxe0 has a RoCE v2 GID for $LAB_ADDR_eth0" gid_found
check "rdma link delete rxe0" rdma link delete rxe0

echo "# $((n - failed))/$n passed"
((failed == 0))
