# SPDX-License-Identifier: GPL-2.0
# Shared setup for rocetune.ko selftests (sourced inside a lab guest or on
# a real RoCE host).

KMOD_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../kmod" && pwd)
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/kernel.sh"

CFS=/sys/kernel/config
RT=$CFS/rocetune

# Everything these tests do needs root and the module built for this kernel.
rtune_require() {
	[ "$(id -u)" -eq 0 ] || tap_skip_all "must run as root"
	[ -f "$KMOD_DIR/rocetune.ko" ] || tap_skip_all "kmod/rocetune.ko not built (run make)"
	modinfo -F vermagic "$KMOD_DIR/rocetune.ko" 2>/dev/null |
		grep -q "^$(uname -r) " ||
		tap_skip_all "rocetune.ko was built for another kernel than $(uname -r)"
	modprobe configfs 2>/dev/null || true
	mountpoint -q $CFS || mount -t configfs none $CFS
	modprobe rdma_rxe || tap_skip_all "rdma_rxe not available"
}

rtune_load() { insmod "$KMOD_DIR/rocetune.ko"; }
rtune_unload() { rmmod rocetune; }
rtune_loaded() { [ -d /sys/module/rocetune ]; }

# The first netdev that is up and is not lo.
rtune_netdev() {
	ip -o link show up | awk -F': ' '$2 != "lo" { sub(/@.*/, "", $2); print $2; exit }'
}

RTUNE_OBJECTS=/sys/kernel/debug/rocetune/objects

# rtune_objects_zero: every object rocetune.ko counts is freed (RCU frees
# complete within a grace period, so poll briefly). Prints the counts on
# failure.
rtune_objects_zero() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	[ -r $RTUNE_OBJECTS ] || { echo "no $RTUNE_OBJECTS"; return 1; }
	wait_for awk '$2 != 0 { exit 1 }' $RTUNE_OBJECTS && return 0
	cat $RTUNE_OBJECTS
	return 1
}

# rtune_write FILE VALUE: write VALUE exactly (no newline added) in one
# write(2); returns the write's success.
rtune_write() { { printf "%s" "$2" >"$1"; } 2>/dev/null; }
