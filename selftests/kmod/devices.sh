#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host's own RoCE devices, read only: on a node its NICs (mlx5,
# bnxt_re, irdma, ...), in a lab guest an rxe0 on the first netdev that is
# up, added as a stand-in because a guest has none. With rocetune.ko
# loaded, every RoCE port the host had has its configfs directory, with
# the netdev `rdma link` shows for it and every counter the driver
# exposes in sysfs hw_counters under its own name; `rocetune --json show`
# (the installed tool) reports each port on that netdev with the active
# CC parameters configfs has. The suite writes no setting: it loads the
# module only if it was not loaded, and unloads only what it loaded.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lib/lab-guest.sh"

rtune_require
command -v rdma >/dev/null || tap_skip_all "iproute2 rdma missing"
command -v python3 >/dev/null || tap_skip_all "python3 missing"

# roce_ports: "IBDEV PORT" for every port whose link layer is Ethernet.
roce_ports() {
	local p
	for p in /sys/class/infiniband/*/ports/*; do
		[ "$(cat "$p/link_layer" 2>/dev/null)" = Ethernet ] || continue
		p=${p#/sys/class/infiniband/}
		echo "${p%%/*} ${p##*/}"
	done
}

added=
if [ -z "$(roce_ports)" ]; then
	lab_hosts 1 || tap_skip_all "no RoCE device on this host"
	ND=$(rtune_netdev)
	[ -n "$ND" ] || tap_skip_all "no netdev that is up"
	rdma link add rtdev0 type rxe netdev "$ND" || tap_bail "rdma link add rtdev0"
	added=rtdev0
	wait_for test -n "$(roce_ports)" || tap_bail "rtdev0 has no RoCE port"
	tap_diag "no RoCE device in this lab guest: rtdev0 (rxe on $ND) stands in"
fi
mapfile -t PORTS < <(roce_ports)
tap_header
tap_diag "RoCE ports (device port): $(printf '[%s] ' "${PORTS[@]}")"

loaded=
if ! rtune_loaded; then
	rtune_load || tap_bail "cannot load rocetune.ko"
	loaded=1
fi

# rdma_netdev DEV PORT: the netdev the RDMA core reports for the port.
rdma_netdev() {
	rdma link show "$1/$2" | sed -n 's/.* netdev \([^ ]*\).*/\1/p'
}

# t_counters DIR SYSFS: each driver counter is listed under its name.
t_counters() {
	local f
	[ -r "$1/counters" ] || { echo "no $1/counters"; return 1; }
	for f in "$2"/*; do
		[ -e "$f" ] || continue
		# lifespan is sysfs's cache setting, not a counter.
		[ "${f##*/}" = lifespan ] && continue
		grep -q "^${f##*/} [0-9][0-9]*$" "$1/counters" || { echo "missing ${f##*/}"; return 1; }
	done
}

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# t_show DEV PORT NETDEV CCDIR: rocetune's JSON has the port on NETDEV,
# and its active CC parameters are configfs's (those that are numbers
# there; some are shown as lists).
t_show() {
	[ "$show_rc" -eq 0 ] || { echo "exit $show_rc"; cat "$W/show.err"; return 1; }
	python3 - "$W/show.json" "$@" <<'EOF'
import json, os, sys
dev, port, netdev, ccdir = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
with open(sys.argv[1]) as f:
    state = json.load(f)["state"]
e = [s for s in state if s["rdma_device"] == dev and s["port"] == port]
if len(e) != 1:
    sys.exit(f"{dev}/{port}: {len(e)} entries in rocetune show")
e = e[0]
if e["netdev"] != netdev:
    sys.exit(f"{dev}/{port}: netdev {e['netdev']}, rdma link says {netdev}")
active = (e.get("cc") or {}).get("active") or {}
if not active:
    sys.exit(f"{dev}/{port}: no active CC parameters in rocetune show")
for name, v in active.items():
    with open(os.path.join(ccdir, "active", name)) as f:
        text = f.read().strip()
    if text.lstrip("-").isdigit() and int(text) != v:
        sys.exit(f"{dev}/{port}: {name} is {v} in rocetune show, {text} in configfs")
EOF
}

for dp in "${PORTS[@]}"; do
	read -r dev port <<<"$dp"
	P=$RT/$dev/ports/$port
	nd=$(rdma_netdev "$dev" "$port")
	tap_ok "$dev/$port: configfs directory" wait_for test -d "$P"
	tap_eq "$dev/$port: netdev is the one rdma link shows" "$nd" "$(cat "$P/netdev" 2>&1)"
	tap_ok "$dev/$port: every sysfs hw_counter in counters" \
		t_counters "$P" "/sys/class/infiniband/$dev/ports/$port/hw_counters"
done

show_rc=1
if [ -n "$RTUNE_TOOL" ] && [ -x "$RTUNE_TOOL" ]; then
	"$RTUNE_TOOL" --json show >"$W/show.json" 2>"$W/show.err"
	show_rc=$?
fi
for dp in "${PORTS[@]}"; do
	read -r dev port <<<"$dp"
	P=$RT/$dev/ports/$port
	nd=$(rdma_netdev "$dev" "$port")
	if [ -n "$RTUNE_TOOL" ] && [ -x "$RTUNE_TOOL" ]; then
		tap_ok "$dev/$port: rocetune show: netdev $nd, configfs's active CC" \
			t_show "$dev" "$port" "$nd" "$P/cc"
	else
		tap_skip "$dev/$port: rocetune show" "no rocetune tool (ROCETUNE=PATH or rocetune in PATH)"
	fi
done

[ -n "$loaded" ] && rtune_unload
[ -n "$added" ] && rdma link delete "$added"
tap_ok "kernel log has no BUG/WARNING/Oops" kernel_log_clean
tap_done
