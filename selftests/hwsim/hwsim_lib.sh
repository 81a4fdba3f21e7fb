#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What every hwsim suite does first, sourced after it started itself in a
# lab guest: TAP and the tree (selftests/lib/), the tool and the test
# module found or the whole suite skipped with the reason, a scratch
# directory, and hwsim_setup to load rocetune_hwsim and give the guest a
# Soft-RoCE device rxe0 on eth0 that the suites map to a vendor surface.
#
#   . "$here/hwsim_lib.sh"
#   RT, KO, PROFILES, ROOT (hwsim's debugfs root), W (scratch, removed by
#   hwsim_done), ROCETUNE_STATE_DIR exported.
#   hwsim_setup             load the module and rdma_rxe, add rxe0; skips
#                           the suite when that fails
#   hwsim_done              remove rxe0, rmmod (a TAP check) and W
#   jfield EXPR <json       one field of the JSON on stdin (python3)
#   fault_reset DIR         every fault knob in DIR back to off
#   first_note FILE CODE [TEXT...]
#                           true if the first error of apply's JSON in FILE
#                           has code CODE (or, CODE a warning, there is a
#                           note with that code) and its message has each
#                           TEXT

. "$here/../lib/tap.sh"
. "$here/../lib/tree.sh"

RT=$RTUNE_TOOL
if [[ -n $RTUNE_SRC ]]; then
	KO=${HWSIM_KO:-$RTUNE_SRC/kmod/hwsim/rocetune_hwsim.ko}
	PROFILES=$RTUNE_SRC/profiles
else
	KO=${HWSIM_KO:-}
	PROFILES=$here/profiles
fi
ROOT=/sys/kernel/debug/rocetune_hwsim

[[ -n $KO ]] ||
	tap_skip_all "needs the rocetune_hwsim test module, a lab module that an installed tree does not have (HWSIM_KO=PATH)"
[[ -n $RT && -x $RT ]] || tap_skip_all "rocetune not built (make -C tools/rocetune) or not in PATH"
[[ -f $KO ]] || tap_skip_all "rocetune_hwsim.ko not built (make module)"
modinfo -F vermagic "$KO" 2>/dev/null | grep -q "^$(uname -r) " ||
	tap_skip_all "$KO was built for another kernel than $(uname -r)"

W=$(mktemp -d /run/rocetune-hwsim.XXXXXX)
export ROCETUNE_STATE_DIR=$W/state

jfield() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

fault_reset() {
	echo 0 > "$1/ignore_writes"
	echo 0 > "$1/fail_sticky"
	echo -1 > "$1/fail_after"
	echo 0 > "$1/lockdown"
	echo 0 > "$1/delay_ms"
}

first_note() {
	python3 - "$@" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
code, texts = sys.argv[2], sys.argv[3:]
notes = d["host_notes"] + [x for v in d["devices"] for x in v["notes"]]
errs = [x for x in notes if x["severity"] == "error"]
n = [x for x in notes if x["code"] == code]
pick = errs[0] if errs and errs[0]["code"] == code else (n[0] if n and not errs else None)
if pick is None or not all(t in pick["message"] for t in texts):
    print("# notes:", notes)
    sys.exit(1)
EOP
}

# hwsim_unsupported DESC KEY=VALUE WHY...: a profile that sets np_cnp_dscp
# and KEY=VALUE, on a fresh device, is refused before any write: exit 1,
# error cc-unsupported naming every WHY, and the suite's hw_state (what it
# can see change: writes, files, groups) the same after as before. The
# suite defines fresh and hw_state.
hwsim_unsupported() {
	local desc=$1 kv=$2 before rc
	shift 2
	fresh
	before=$(hw_state)
	printf '[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 46\n%s\n' "$kv" > "$W/u.conf"
	"$RT" --json apply "$W/u.conf" > "$W/u.json"; rc=$?
	tap_eq "$desc: refused (exit 1)" 1 "$rc"
	tap_ok "$desc: error cc-unsupported with the reason" first_note "$W/u.json" cc-unsupported "$@"
	tap_eq "$desc: nothing written, nothing changed" "$before" "$(hw_state)"
}

hwsim_setup() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	# the module registers a configfs subsystem (irdma): configfs first
	modprobe configfs 2>/dev/null
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	insmod "$KO" &&
		modprobe rdma_rxe &&
		ip link set eth0 up &&
		rdma link add rxe0 type rxe netdev eth0 ||
		tap_skip_all "cannot load rocetune_hwsim/rdma_rxe in this guest"
}

hwsim_done() {
	rdma link delete rxe0
	tap_ok "rmmod rocetune_hwsim" rmmod rocetune_hwsim
	rm -rf "$W"
}
