#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest tests of `rocetune apply` through Broadcom's out-of-tree
# bnxt_re surface, the configfs group bnxt_re/<ibdev>/ports/1/cc/ made
# with mkdir and staged until `apply`, against rocetune_hwsim.ko's copy of
# it: the configfs subsystem rtune_hwsim_bnxt_re (Documentation/
# hardware.rst). rxe0 plays the bnxt_re RDMA device (ROCETUNE_TEST_SURFACE);
# ROCETUNE_TEST_BNXT_RE_CONFIGFS stands for /sys/kernel/config/bnxt_re.
#
# Checks, with cat and the device's "groups" and fault/writes counters:
# the surface behaves as bnxt_re's (unknown names refused, "%#x" reads,
# hex stores with or without 0x, stores staged until apply, cat apply
# showing the firmware, the driver's refusals, the group pinning the
# module); the example applies with one apply, reads back from the
# firmware, and leaves no group; a second apply writes nothing; a refused
# apply, an apply the firmware ignores and a refused store each roll back
# to byte-identical files and firmware values, a persisting failure is
# reported as not restorable; unsupported parameters are refused with
# nothing written; a VF (no cc/) is refused with the reason; a change
# someone staged and did not apply is reported; a group the user made is
# used and left.
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/hwsim/bnxt_re_oot.sh [--keep] [--out DIR]

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 300 "$@" \
		--script "1=$here/bnxt_re_oot.sh"
fi

. "$here/hwsim_lib.sh"

DEV=$ROOT/bnxt_re_oot/rxe0
FAULT=$DEV/fault
CFS=/sys/kernel/config/rtune_hwsim_bnxt_re
GRP=$CFS/rxe0
CC=$GRP/ports/1/cc
export ROCETUNE_TEST_BNXT_RE_CONFIGFS=$CFS
export ROCETUNE_TEST_SURFACE="rxe0=bnxt_re_oot/rxe0"

FILES="ecn_enable ecn_marking cc_mode cnp_dscp cnp_prio roce_dscp roce_prio g init_cr
init_tr inact_th nph_per_state time_pph pkts_pph rtt tcp_cp disable_prio_vlan_tx"

groups() { cat "$DEV/groups"; }
writes() { cat "$FAULT/writes"; }
# Every file and the firmware's view (cat apply), read as the driver
# allows: mkdir, cat, rmdir.
snapshot() {
	local f
	mkdir "$GRP" || return 1
	for f in $FILES; do
		printf '%s ' "$f"
		od -An -c "$CC/$f" | tr -s ' '
	done
	cat "$CC/apply"
	rmdir "$GRP"
}
peek() {	# FILE...: their values, space-separated
	local f out=""
	mkdir "$GRP" || return 1
	for f in "$@"; do out+="$(cat "$CC/$f") "; done
	rmdir "$GRP"
	echo "${out% }"
}
fw() {		# KEY: its value in cat apply
	local v
	mkdir "$GRP" || return 1
	v=$(sed -n "s/.*($1)[[:space:]]*: //p" "$CC/apply")
	rmdir "$GRP"
	echo "$v"
}
fresh() {	# [vf]
	echo "bnxt_re_oot rxe0" > "$ROOT/del_device" 2>/dev/null
	echo "bnxt_re_oot rxe0 ${1:-}" > "$ROOT/new_device"
}

hwsim_setup
fresh

# ------------------------------------------------------- the surface itself
tap_ok "the configfs subsystem is there" test -d "$CFS"
tap_notok "mkdir of a name bnxt_re does not know is refused (ENODEV)" mkdir "$CFS/nosuch"
tap_ok "mkdir of the device's name makes its group" mkdir "$GRP"
# shellcheck disable=SC2086 # FILES is a word list
tap_eq "ports/1/cc/ has apply and the 17 base files" \
	"$(printf '%s\n' apply $FILES | sort | xargs)" "$(find "$CC" -mindepth 1 -printf '%f\n' | sort | xargs)"
tap_eq "reads print %#x" "0x30" "$(cat "$CC/cnp_dscp")"
tap_ok "a store takes hex without 0x (2e)" sh -c "echo 2e > '$CC/cnp_dscp'"
tap_eq "the file shows the staged value at once" "0x2e" "$(cat "$CC/cnp_dscp")"
tap_eq "the firmware does not have it yet (cat apply)" 48 \
	"$(sed -n 's/.*(cnp_dscp)[[:space:]]*: //p' "$CC/apply")"
tap_ok "echo 0x1 > apply" sh -c "echo 0x1 > '$CC/apply'"
tap_eq "now the firmware has it" 46 "$(sed -n 's/.*(cnp_dscp)[[:space:]]*: //p' "$CC/apply")"
tap_notok "cnp_dscp above 0x3f is refused" sh -c "echo 0x40 > '$CC/cnp_dscp'"
tap_notok "ecn_marking 3 is refused" sh -c "echo 0x3 > '$CC/ecn_marking'"
tap_notok "time_pph 0 is refused" sh -c "echo 0x0 > '$CC/time_pph'"
tap_eq "one live group" 1 "$(groups)"
tap_notok "the device cannot be removed while the group exists" \
	sh -c "echo 'bnxt_re_oot rxe0' > '$ROOT/del_device'"
tap_notok "nor the module unloaded" rmmod rocetune_hwsim
tap_ok "rmdir removes the group" rmdir "$GRP"
tap_eq "values outlive the group" 0x2e "$(peek cnp_dscp)"
fresh

# ------------------------------------------------------------- the example
EX=$W/bnxt-re-oot.conf
sed 's/^rdma_device = .*/rdma_device = rxe0/' \
	"$PROFILES/hardware/bnxt-re-oot.conf" > "$EX"
out=$("$RT" --json apply "$EX"); rc=$?
tap_eq "example: apply changes the host (exit 2)" 2 "$rc"
[[ $rc -eq 2 ]] || printf '%s\n' "$out" | sed 's/^/#   /'
tap_eq "example: the files read back (cat)" "0x1 0x2 0x30 0x6" \
	"$(peek ecn_enable ecn_marking cnp_dscp cnp_prio)"
tap_eq "example: the firmware has them (cat apply)" "Enabled ECT(0) 48 6" \
	"$(fw ecn_enable) $(fw ecn_marking) $(fw cnp_dscp) $(fw cnp_prio)"
tap_eq "example: two stores and one apply, no group left" "3 0" "$(writes) $(groups)"
w0=$(writes)
"$RT" apply "$EX" > /dev/null; rc=$?
tap_eq "example: second apply exits 0 (no change)" 0 "$rc"
tap_eq "example: no write the second time, no group left" "$w0 0" "$(writes) $(groups)"

# ------------------------------------------------------------- failures
P=$W/mark.conf
printf '[match]\nrdma_device = rxe0\n[cc]\necn_codepoint = 2\nnp_cnp_dscp = 46\nnp_cnp_prio = 5\n' > "$P"

fault_case() {	# DESC KNOBS EXPECT_RC WHY
	local desc=$1 knobs=$2 erc=$3 why=$4 before rc k
	fresh
	before=$(snapshot)
	for k in $knobs; do echo "${k#*=}" > "$FAULT/${k%%=*}"; done
	out=$("$RT" --json apply "$P"); rc=$?
	printf '%s' "$out" > "$W/fault.json"
	fault_reset "$FAULT"
	tap_eq "$desc: apply fails (exit $erc)" "$erc" "$rc"
	tap_ok "$desc: the error says why (...$why...)" grep -q -- "$why" "$W/fault.json"
	[[ $erc -eq 1 ]] &&
		tap_eq "$desc: files and firmware byte-identical to the snapshot" "$before" "$(snapshot)"
	tap_eq "$desc: no group left behind" 0 "$(groups)"
}
fault_case "apply refused (EINVAL after 3 stores)" "fail_after=3" 1 \
	"writing ports/1/cc/apply 0x1: Invalid argument"
fault_case "apply ignored by the firmware" "ignore_writes=1" 1 \
	"read-back of ports/1/cc/apply: ports/1/cc/ecn_marking: the firmware has 1, the file 2"
fault_case "a store refused (the 2nd)" "fail_after=1" 1 "Input/output error (after 1 of 3"
fault_case "persisting failure" "fail_after=3 fail_sticky=1" 3 "failed-not-rolled-back"
tap_ok "persisting failure: the files not restored are reported" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rb = d["rollback"]
assert not rb["complete"] and any(a["status"] == "failed" for a in rb["actions"]), rb
' "$W/fault.json"

# ---------------------------------------------------------- unsupported
# fresh leaves no group: the same count after means none was left
hw_state() { echo "writes $(writes) groups $(groups) files+firmware $(snapshot)"; }
hwsim_unsupported "a DCQCN rate parameter" "rp_additive_increase_kbps = 40000" \
	rp_additive_increase_kbps "own algorithm"
hwsim_unsupported "np_enabled_prios" "np_enabled_prios = 0-7" "one switch for both points"
hwsim_unsupported "one priority only" "rp_enabled_prios = 3" "0-7 or none only"
hwsim_unsupported "CNP marking with CC off" "rp_enabled_prios = none" "resets cnp_dscp"
hwsim_unsupported "np_cnp_ecn" "np_cnp_ecn = 1" "P5/P7"

# ---------------------------------------------------------- a virtual function
fresh vf
tap_notok "VF: no cc/ in its group" sh -c "mkdir '$GRP' && test -d '$CC'; r=\$?; rmdir '$GRP'; exit \$r"
"$RT" --json apply "$EX" > "$W/vf.json"; rc=$?
tap_eq "VF: the example is refused (exit 1)" 1 "$rc"
tap_ok "VF: error no-cc-surface naming the VF" first_note "$W/vf.json" no-cc-surface \
	"virtual function" "PF"
tap_eq "VF: no write, no group left" "0 0" "$(writes) $(groups)"

# ---------------------------------------------------------- staged by someone
fresh
mkdir "$GRP"
echo 0x28 > "$CC/cnp_dscp"
"$RT" --json diff "$EX" > "$W/st.json"
tap_ok "a value staged and not applied: diff warns cc-not-in-firmware" \
	first_note "$W/st.json" cc-not-in-firmware "cnp_dscp: the firmware has 48, the file 40"
"$RT" apply "$EX" > /dev/null; rc=$?
tap_eq "a group the user made: apply works (exit 2)" 2 "$rc"
tap_ok "a group the user made: left in place" test -d "$GRP"
tap_eq "and the firmware has the example's DSCP" 48 \
	"$(sed -n 's/.*(cnp_dscp)[[:space:]]*: //p' "$CC/apply")"
rmdir "$GRP"

# ------------------------------------------------------------- discovery, show
fresh
out=$(ROCETUNE_TEST_SURFACE="rxe0=bnxt_re/0000:fd:00.0" "$RT" show dev rxe0)
tap_ok "a bnxt_en device with the out-of-tree driver's configfs uses it" \
	grep -q "cc (bnxt_re-configfs)" <<< "$out"
tap_eq "show leaves no group" 0 "$(groups)"

echo "bnxt_re_oot rxe0" > "$ROOT/del_device"
hwsim_done
tap_ok "a clean kernel log" sh -c "! dmesg | grep -E 'BUG|WARNING|Oops|rocetune_hwsim.*(leak|error)'"
tap_done
