# SPDX-License-Identifier: GPL-2.0
# Shared setup for rocetune.ko selftests (sourced inside a lab guest or on
# a real RoCE host).

. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/kernel.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tree.sh"

CFS=/sys/kernel/config
RT=$CFS/rocetune

# Everything these tests do needs root and the module built for this
# kernel: the tree's build (or ROCETUNE_KO), or in an installed tree the
# module modprobe finds (lib/tree.sh).
rtune_require() {
	local vermagic
	[ "$(id -u)" -eq 0 ] || tap_skip_all "must run as root"
	if [ -n "$RTUNE_KO" ]; then
		[ -f "$RTUNE_KO" ] || tap_skip_all "$RTUNE_KO not built (run make)"
		vermagic=$(modinfo -F vermagic "$RTUNE_KO" 2>/dev/null)
	else
		vermagic=$(modinfo -F vermagic rocetune 2>/dev/null) ||
			tap_skip_all "rocetune.ko is not installed for $(uname -r) (rocetune-dkms, DKMS, or ROCETUNE_KO=PATH)"
	fi
	[ "${vermagic%% *}" = "$(uname -r)" ] ||
		tap_skip_all "rocetune.ko was built for another kernel than $(uname -r)"
	modprobe configfs 2>/dev/null || true
	mountpoint -q $CFS || mount -t configfs none $CFS
	modprobe rdma_rxe || tap_skip_all "rdma_rxe not available"
	kernel_log_mark
}

# rtune_load [PARAM=VALUE...]: the tree's build (insmod) or the installed
# module (modprobe), with the module parameters given.
rtune_load() {
	if [ -n "$RTUNE_KO" ]; then
		insmod "$RTUNE_KO" "$@"
	else
		modprobe rocetune "$@"
	fi
}

# rtune_require_test_build PARAM: skip the suite unless the module
# rtune_load loads has the test build's parameter PARAM (kmod/fault.c).
rtune_require_test_build() {
	modinfo -p "${RTUNE_KO:-rocetune}" | grep -q "^$1:" ||
		tap_skip_all "${RTUNE_KO:-rocetune} is not a test build (make SANITIZE=1): no $1"
}
rtune_unload() { rmmod rocetune; }
rtune_loaded() { [ -d /sys/module/rocetune ]; }

# The first netdev that is up and is not lo.
rtune_netdev() {
	ip -o link show up | awk -F': ' '$2 != "lo" { sub(/@.*/, "", $2); print $2; exit }'
}

RTUNE_OBJECTS=/sys/kernel/debug/rocetune/objects

# rtune_objects_mark: the objects rocetune.ko holds right after a load,
# before the suite adds a device: those of the host's own RDMA devices (a
# node's NICs; none in a lab guest), which rtune_objects_zero leaves out.
RTUNE_OBJECTS_BASE=
rtune_objects_mark() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	RTUNE_OBJECTS_BASE=$(cat $RTUNE_OBJECTS 2>/dev/null)
}

# rtune_objects_zero: every object rocetune.ko counts for what the suite
# did is freed: each count is zero, or what rtune_objects_mark saw (RCU
# frees complete within a grace period, so poll briefly). Prints the
# counts on failure.
rtune_objects_zero() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	[ -r $RTUNE_OBJECTS ] || { echo "no $RTUNE_OBJECTS"; return 1; }
	wait_for _rtune_objects_at_base && return 0
	cat $RTUNE_OBJECTS
	[ -n "$RTUNE_OBJECTS_BASE" ] && printf 'expected:\n%s\n' "$RTUNE_OBJECTS_BASE"
	return 1
}

_rtune_objects_at_base() {
	awk 'NR == FNR { base[$1] = $2; next } $2 != base[$1] + 0 { exit 1 }' \
		<(printf '%s\n' "$RTUNE_OBJECTS_BASE") $RTUNE_OBJECTS
}

# rtune_write FILE VALUE: write VALUE exactly (no newline added) in one
# write(2); returns the write's success.
rtune_write() { { printf "%s" "$2" >"$1"; } 2>/dev/null; }
