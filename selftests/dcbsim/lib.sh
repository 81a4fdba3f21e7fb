# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared setup for the dcbsim selftests. Source it after nothing else; it
# sources tap.sh. The tests run as root inside a lab guest (or any scratch
# machine running the kernel the module was built for).

DS_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib/tap.sh
. "$DS_HERE/../lib/tap.sh"
# shellcheck source=../lib/kernel.sh
. "$DS_HERE/../lib/kernel.sh"
# shellcheck source=../lib/tree.sh
. "$DS_HERE/../lib/tree.sh"
# shellcheck source=../lib/dcb-write.sh
. "$DS_HERE/../lib/dcb-write.sh"

DS_KO=$RTUNE_DCBSIM_KO
DS_MOD=rocetune_dcbsim
DS_DBG=/sys/kernel/debug/$DS_MOD

# Skip (not fail) when this machine cannot run the tests at all.
ds_require() {
	[ "$(id -u)" -eq 0 ] || tap_skip_all "must run as root"
	[ -n "$DS_KO" ] ||
		tap_skip_all "needs the rocetune_dcbsim test device, a lab module that an installed tree does not have (DCBSIM_KO=PATH)"
	[ -f "$DS_KO" ] || tap_skip_all "$DS_KO not built (make -C kmod/dcbsim KDIR=...)"
	modinfo -F vermagic "$DS_KO" 2>/dev/null | grep -q "^$(uname -r) " ||
		tap_skip_all "$DS_KO was built for another kernel than $(uname -r)"
	command -v python3 >/dev/null || tap_skip_all "python3 missing"
	command -v dcb >/dev/null || tap_skip_all "iproute2 dcb missing"
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	# A clean slate: no devices left over from an earlier script.
	ds_loaded && rmmod $DS_MOD
	kernel_log_mark
}

ds_loaded() { [ -d /sys/module/$DS_MOD ]; }
ds_load() { insmod "$DS_KO"; }
ds_unload() { rmmod $DS_MOD; }

# ds_knob DEV FILE: path of a debugfs file of device DEV (by ifindex).
ds_knob() { echo "$DS_DBG/$(cat "/sys/class/net/$1/ifindex")/$2"; }
ds_read() { cat "$(ds_knob "$1" "$2")"; }
# ds_write DEV FILE VALUE: one write(2); returns its success.
ds_write() { { printf '%s' "$3" >"$(ds_knob "$1" "$2")"; } 2>/dev/null; }

# dcbnl ARGS...: the raw dcbnl client (see dcbnl.py).
dcbnl() { python3 "$DS_HERE/dcbnl.py" "$@"; }

# ds_errno ARGS...: run a dcbnl.py command; print OK, or the error name
# (EINVAL, EIO, ...) it failed with.
ds_errno() {
	local out
	if out=$(dcbnl "$@" 2>&1); then
		echo OK
	else
		sed -n '1s/^dcbnl: \([A-Z0-9_]*\):.*/\1/p' <<<"$out"
	fi
}

# ds_get DEV OBJ.FIELD: one field as the kernel reports it.
ds_get() { dcbnl get "$1" "$2"; }

# ds_counter DEV NAME: an interface counter from sysfs.
ds_counter() { cat "/sys/class/net/$1/statistics/$2"; }

