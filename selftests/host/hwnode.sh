#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tests of selftests/hwnode/ run on real RoCE nodes only; here (no
# RDMA hardware) their skip paths are what can be checked: each must say
# why and exit 4 with a "1..0 # SKIP" plan, never fail and never touch a
# device. cc-roundtrip.sh and qp-counters.sh for a node with no RDMA
# device, one with only Soft-RoCE (no PCI driver) or without the driver
# they need, and a named device that is not there: a fake
# /sys/class/infiniband (HWNODE_SYSFS_IB) stands for the node.
# devlink-roce.sh for a node without iproute2's devlink, with no devlink
# port, with ports whose instance has no RoCE parameter, and a named
# netdev that is not there: a stand-in devlink program (HWNODE_DEVLINK).
# (Their full paths run in the lab: cc-roundtrip.sh in
# selftests/hwsim/bnxt_re.sh, devlink-roce.sh in selftests/dcbsim/devlink.sh.)

# shellcheck disable=SC2317 # the t_* checks run through tap_ok
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

H=$TOP/selftests/hwnode
[ -x "$H/cc-roundtrip.sh" ] || tap_skip_all "no selftests/hwnode/ (installed tests)"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

tap_plan 11

# skips TEST SYSFS EXPECT [ARGS]: exit 4, the SKIP plan, EXPECT the reason
# (the devlink program: $DEVLINK)
skips() {
	local t=$1 sys=$2 want=$3 out rc
	shift 3
	out=$(HWNODE_SYSFS_IB=$sys HWNODE_DEVLINK=${DEVLINK:-devlink} "$H/$t" "$@" 2>&1)
	rc=$?
	[ "$rc" -eq 4 ] && [ "$(printf '%s\n' "$out" | sed -n 2p)" = "1..0 # SKIP $want" ] ||
		{ printf 'rc %s, output: %s\n' "$rc" "$out"; return 1; }
}

mkdir -p "$W/none" "$W/rxe/rxe0" "$W/mlx/mlx5_0/device" "$W/drv/mlx5_core"
ln -s "$W/drv/mlx5_core" "$W/mlx/mlx5_0/device/driver"
tap_ok "cc-roundtrip.sh, no RDMA device: skips, saying so" skips cc-roundtrip.sh "$W/none" \
	"no mlx5, bnxt_re, irdma or ionic RDMA device on this node (RDMA devices: none)"
tap_ok "cc-roundtrip.sh, Soft-RoCE only: skips, naming the device it found" \
	skips cc-roundtrip.sh "$W/rxe" \
	"no mlx5, bnxt_re, irdma or ionic RDMA device on this node (RDMA devices: rxe0)"
tap_ok "cc-roundtrip.sh, a named device that is not there: skips, naming it" \
	skips cc-roundtrip.sh "$W/mlx" \
	"no mlx5, bnxt_re, irdma or ionic RDMA device named mlx5_9 on this node (RDMA devices: mlx5_0)" mlx5_9

# qp-counters.sh: the Ethernet ports of mlx5 devices only
mkdir -p "$W/mlx/mlx5_0/ports/1" "$W/ibm/mlx5_1/ports/1" "$W/ibm/mlx5_1/device"
echo Ethernet >"$W/mlx/mlx5_0/ports/1/link_layer"
echo InfiniBand >"$W/ibm/mlx5_1/ports/1/link_layer"
ln -s "$W/drv/mlx5_core" "$W/ibm/mlx5_1/device/driver"
tap_ok "qp-counters.sh, no RDMA device: skips, saying so" skips qp-counters.sh "$W/none" \
	"no RoCE port of an mlx5 RDMA device on this node (RDMA devices: none)"
tap_ok "qp-counters.sh, Soft-RoCE only: skips, naming the device it found" \
	skips qp-counters.sh "$W/rxe" \
	"no RoCE port of an mlx5 RDMA device on this node (RDMA devices: rxe0)"
tap_ok "qp-counters.sh, mlx5 with an InfiniBand port only: skips" \
	skips qp-counters.sh "$W/ibm" \
	"no RoCE port of an mlx5 RDMA device on this node (RDMA devices: mlx5_1)"
tap_ok "qp-counters.sh, a named device that is not there: skips, naming it" \
	skips qp-counters.sh "$W/mlx" \
	"no RoCE port of an mlx5 RDMA device named mlx5_9 on this node (RDMA devices: mlx5_0)" mlx5_9

# devlink-roce.sh, with a stand-in devlink: the ports of $DL_PORTS
# ("HANDLE/INDEX=NETDEV ..."), enable_roce on the instances of $DL_ROCE
cat >"$W/devlink" <<'EOF'
#!/bin/bash
[[ $1 == -j ]] && { j=1; shift; }
case "$1 $2" in
"port show")
	if [[ -n ${j:-} ]]; then
		printf '{"port":{'
		sep=
		for p in $DL_PORTS; do
			printf '%s"%s":{"type":"eth","netdev":"%s"}' "$sep" "${p%%=*}" "${p#*=}"
			sep=,
		done
		printf '}}\n'
	else
		for p in $DL_PORTS; do echo "${p%%=*}: type eth netdev ${p#*=} flavour physical"; done
	fi ;;
"dev param")
	[[ " $DL_ROCE " == *" $4 "* && $6 == enable_roce ]] || exit 1
	printf '{"param":{"%s":[{"name":"enable_roce","type":"generic","values":[{"cmode":"driverinit","value":true}]}]}}\n' "$4" ;;
*) exit 1 ;;
esac
EOF
chmod +x "$W/devlink"
# dl PORTS ROCE EXPECT [ARGS]
dl() { DEVLINK=$W/devlink DL_PORTS=$1 DL_ROCE=$2 skips devlink-roce.sh "$W/none" "${@:3}"; }
nodl() { DEVLINK=$W/no-devlink skips devlink-roce.sh "$W/none" "iproute2's devlink missing"; }
tap_ok "devlink-roce.sh without iproute2's devlink: skips, saying so" nodl
tap_ok "devlink-roce.sh, no devlink port: skips, saying so" dl "" "" \
	"no netdev on a devlink instance with enable_roce or enable_iwarp (netdevs on devlink ports: none)"
tap_ok "devlink-roce.sh, ports without enable_roce: skips, naming their netdevs" \
	dl "pci/0000:01:00.0/1=eth1 pci/0000:01:00.1/2=eth2" "" \
	"no netdev on a devlink instance with enable_roce or enable_iwarp (netdevs on devlink ports: eth1 eth2)"
tap_ok "devlink-roce.sh, a named netdev that is not there: skips, naming it" \
	dl "pci/0000:01:00.0/1=eth1" "pci/0000:01:00.0" \
	"no netdev named eth9 on a devlink instance with enable_roce or enable_iwarp (netdevs on devlink ports: eth1)" eth9
tap_done
