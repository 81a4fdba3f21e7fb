#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# On a real RoCE node (not in the lab): the [cc] round trip through the
# device's vendor surface, for each RDMA device driven by mlx5_core
# (ConnectX), bnxt_en (Broadcom), ice (E810, irdma) or ionic (AMD Pensando,
# out-of-tree driver), or the one named:
#
#   1. the device's congestion-control state is read (`rocetune -j show`);
#   2. the example profile for its surface (profiles/hardware/) is applied
#      to it alone;
#   3. `rocetune diff` finds nothing: every value reads back through the
#      adapter as declared;
#   4. a second apply makes no write (exit 0, "writes": 0);
#   5. a profile of the values read in 1 is applied, and the device reads
#      as in 1 again (restored).
#
# TAP; skips (exit 4) with the reason when the node has no such device,
# when not root, or without the tool. It changes the live DCQCN settings
# of the device for a few seconds: run it on a node out of service.
# Documentation/hardware.rst ("Checking a node") has the commands.
#
#     selftests/hwnode/cc-roundtrip.sh [IBDEV]

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/tree.sh"

RT=$RTUNE_TOOL
PROFILES=${RTUNE_SRC:+$RTUNE_SRC/profiles}
PROFILES=${PROFILES:-$here/profiles}
SYSIB=${HWNODE_SYSFS_IB:-/sys/class/infiniband}

# The devices to test: IBDEV=DRIVER per line.
devices() {
	local d drv
	for d in "$SYSIB"/*; do
		[[ -e $d ]] || continue
		[[ $# -eq 0 || ${d##*/} == "$1" ]] || continue
		drv=$(basename "$(readlink "$d/device/driver" 2>/dev/null)" 2>/dev/null)
		case $drv in
		mlx5_core|bnxt_en|ice|ionic) echo "${d##*/}=$drv";;
		esac
	done
}

found=$(find "$SYSIB" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort | paste -sd ' ')
mapfile -t DEVS < <(devices "$@")
[[ ${#DEVS[@]} -gt 0 ]] ||
	tap_skip_all "no mlx5, bnxt_re, irdma or ionic RDMA device${1:+ named $1} on this node (RDMA devices: ${found:-none})"
[[ $(id -u) -eq 0 ]] || tap_skip_all "must run as root (the surfaces are root's)"
[[ -n $RT && -x $RT ]] || tap_skip_all "rocetune not built (make -C tools/rocetune) or not in PATH"
command -v python3 >/dev/null || tap_skip_all "python3 missing"

W=$(mktemp -d /run/rocetune-hwnode.XXXXXX)
trap 'rm -rf "$W"' EXIT

# cc_state IBDEV: the device's backend and [cc] values as `show -j` reads
# them, one JSON line (raw values: priority lists as masks).
cc_state() {
	"$RT" -j show dev "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
cc = [v["cc"] for v in d["state"] if v.get("cc")]
if not cc:
    sys.exit("no cc state for the device")
print(json.dumps(cc[0], sort_keys=True))'
}

# profile_of IBDEV SHOWTEXT: a [cc] profile of the values `show` printed
# (as text, the profile's own format). A file with no neutral value is not
# printed, never written, and not compared. show starts a new line before
# each parameter whose index is a multiple of 4, so the first values can
# follow the "cc (<backend>):" heading on its own line (bnxt_re's
# ecn_codepoint, np_cnp_dscp, np_cnp_prio are all there).
profile_of() {
	python3 - "$1" "$2" <<'EOP'
import sys
lines = open(sys.argv[2]).read().splitlines()
print("[match]\nrdma_device = %s\n[cc]" % sys.argv[1])
on = False
for l in lines:
    if l.startswith("    cc ("):
        if "): unavailable:" in l:
            break
        on = True
        rest = l.rpartition("):")[2]
    elif on and l.startswith("        "):
        rest = l
    elif on:
        break
    else:
        continue
    t = rest.split()
    for k, v in zip(t[0::2], t[1::2]):
        print("%s = %s" % (k, v))
EOP
}

# same_as_before BEFORE AFTER: the backend, and every value BEFORE has,
# equal in AFTER.
# shellcheck disable=SC2317 # run through tap_ok
same_as_before() {
	python3 - "$1" "$2" <<'EOP'
import json, sys
b, a = (json.load(open(f)) for f in sys.argv[1:3])
if b.get("backend") != a.get("backend"):
    sys.exit("backend %s, now %s" % (b.get("backend"), a.get("backend")))
ba, aa = b.get("active") or {}, a.get("active") or {}
bad = ["%s %s, now %s" % (k, v, aa.get(k)) for k, v in sorted(ba.items()) if aa.get(k) != v]
if bad:
    sys.exit("; ".join(bad))
EOP
}

# only_after BEFORE AFTER: the values AFTER has and BEFORE had not, which
# a profile of BEFORE could not restore (mlx5: np_cnp_prio, unreadable
# while np_cnp_prio_mode was 1; bnxt_re: ecn_codepoint, while tos_ecn was
# 0, Not-ECT); comma-separated, empty if none.
only_after() {
	python3 - "$1" "$2" <<'EOP'
import json, sys
b, a = (json.load(open(f)) for f in sys.argv[1:3])
print(", ".join(sorted(set(a.get("active") or {}) - set(b.get("active") or {}))))
EOP
}

example_for() {
	case $1 in
	*mlx5-ofed*) echo connectx-ofed.conf;;
	*mlx5*) echo connectx-upstream.conf;;
	*bnxt_re-configfs*) echo bnxt-re-oot.conf;;
	*bnxt_re-debugfs*) echo bnxt-re-upstream.conf;;
	*irdma*) echo e810-irdma.conf;;
	*ionic*) echo ionic.conf;;
	esac
}

tap_plan $((6 * ${#DEVS[@]}))

for e in "${DEVS[@]}"; do
	dev=${e%%=*}
	"$RT" show dev "$dev" >"$W/$dev.show" 2>&1
	backend=$(sed -n 's/.*cc (\([^;)]*\).*/\1/p' "$W/$dev.show" | head -n 1)
	ex=$(example_for "$backend")
	tap_diag "$dev (${e#*=}): backend '${backend:-none}', example '${ex:-none}'"
	if [[ -z $ex ]]; then
		for t in "state read" "example applied" "read back" "no write" "restored" "read back after restore"; do
			tap_skip "$dev: $t" "no example profile for backend '${backend:-none}' ($(grep -m1 'cc' "$W/$dev.show"))"
		done
		continue
	fi
	tap_ok "$dev: congestion-control state read through $backend" cc_state "$dev"
	cc_state "$dev" >"$W/$dev.before" 2>/dev/null

	sed "s/^rdma_device = .*/rdma_device = $dev/; s/^netdev = .*//" \
		"$PROFILES/hardware/$ex" >"$W/$dev.conf"
	"$RT" -j apply "$W/$dev.conf" >"$W/$dev.apply1" 2>&1
	rc=$?
	tap_ok "$dev: $ex applied (exit $rc: 0 in sync already, 2 changed)" test "$rc" -eq 0 -o "$rc" -eq 2
	[[ $rc -le 2 ]] || sed 's/^/#   /' "$W/$dev.apply1"
	tap_ok "$dev: diff finds nothing: every value reads back as declared" "$RT" diff "$W/$dev.conf"
	"$RT" -j apply "$W/$dev.conf" >"$W/$dev.apply2" 2>&1
	rc=$?
	writes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["writes"])' "$W/$dev.apply2" 2>/dev/null)
	tap_ok "$dev: a second apply makes no write (exit $rc, writes ${writes:-?})" \
		test "$rc" -eq 0 -a "${writes:-x}" = 0

	profile_of "$dev" "$W/$dev.show" >"$W/$dev.restore.conf"
	"$RT" -j apply "$W/$dev.restore.conf" >"$W/$dev.apply3" 2>&1
	rc=$?
	tap_ok "$dev: the values read first applied again (exit $rc)" test "$rc" -eq 0 -o "$rc" -eq 2
	cc_state "$dev" >"$W/$dev.after" 2>/dev/null
	tap_ok "$dev: every value read before the test reads the same again" \
		same_as_before "$W/$dev.before" "$W/$dev.after"
	new=$(only_after "$W/$dev.before" "$W/$dev.after" 2>/dev/null)
	[[ -z $new ]] || tap_diag "$dev: readable now, not before (not restored): $new"
done
tap_done
