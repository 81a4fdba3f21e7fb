#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/hwnode/cc-roundtrip.sh runs on real RoCE nodes only; here (no
# RDMA hardware) its skip path is what can be checked: it must say why
# and exit 4 with a "1..0 # SKIP" plan, never fail and never touch a
# device, for a node with no RDMA device, one with only Soft-RoCE (no
# PCI driver), and a named device that is not there. A fake
# /sys/class/infiniband (HWNODE_SYSFS_IB) stands for the node.

# shellcheck disable=SC2317 # the t_* checks run through tap_ok
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

S=$TOP/selftests/hwnode/cc-roundtrip.sh
[ -x "$S" ] || tap_skip_all "no selftests/hwnode/cc-roundtrip.sh (installed tests)"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

tap_plan 3

# skips SYSFS EXPECT [ARGS]: exit 4, the SKIP plan, EXPECT in the reason
skips() {
	local sys=$1 want=$2 out rc
	shift 2
	out=$(HWNODE_SYSFS_IB=$sys "$S" "$@" 2>&1)
	rc=$?
	[ "$rc" -eq 4 ] && [ "$(printf '%s\n' "$out" | sed -n 2p)" = "1..0 # SKIP $want" ] ||
		{ printf 'rc %s, output: %s\n' "$rc" "$out"; return 1; }
}

mkdir -p "$W/none" "$W/rxe/rxe0" "$W/mlx/mlx5_0/device" "$W/drv/mlx5_core"
ln -s "$W/drv/mlx5_core" "$W/mlx/mlx5_0/device/driver"
tap_ok "no RDMA device: skips, saying so" skips "$W/none" \
	"no mlx5, bnxt_re, irdma or ionic RDMA device on this node (RDMA devices: none)"
tap_ok "Soft-RoCE only: skips, naming the device it found" skips "$W/rxe" \
	"no mlx5, bnxt_re, irdma or ionic RDMA device on this node (RDMA devices: rxe0)"
tap_ok "a named device that is not there: skips, naming it" skips "$W/mlx" \
	"no mlx5, bnxt_re, irdma or ionic RDMA device named mlx5_9 on this node (RDMA devices: mlx5_0)" mlx5_9
tap_done
