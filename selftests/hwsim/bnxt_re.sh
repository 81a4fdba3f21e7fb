#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest tests of `rocetune apply` through the bnxt_re congestion-control
# surface, against rocetune_hwsim.ko's copy of debugfs
# bnxt_re/<BDF>/cc_config/ (Documentation/hardware.rst). rxe0 plays the
# bnxt_re device (ROCETUNE_TEST_SURFACE, test only).
#
# Checks, reading the files with cat: the driver's formats (mode 0400,
# "%d", tx_queue refused both ways, long writes refused); the example
# profile (profiles/hardware/bnxt-re-upstream.conf) applied, read back with
# cat and by diff, every other file untouched; a second apply writes
# nothing; each injected failure, a write the firmware refuses (which
# bnxt_re reports as success), writes the firmware silently ignores, and
# lockdown (reads work, writes refused), caught and rolled back
# byte-identical; a failure that persists through the rollback reported as
# not restorable (exit 3) with the file and its value; every parameter the
# surface cannot express refused with the reason and nothing written; the
# node test selftests/hwnode/cc-roundtrip.sh passing on the device.
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/hwsim/bnxt_re.sh [--keep] [--out DIR]

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 300 "$@" \
		--script "1=$here/bnxt_re.sh"
fi

. "$here/hwsim_lib.sh"

BDF=0000:fd:00.0
CC=$ROOT/bnxt_re/$BDF/cc_config
FAULT=$ROOT/bnxt_re/$BDF/fault
export ROCETUNE_TEST_DEBUGFS=$ROOT
export ROCETUNE_TEST_SURFACE="rxe0=bnxt_re/$BDF"

FILES="enable_cc run_avg_weight_g num_phase_per_state init_cr init_tr tos_ecn
tos_dscp alt_vlan_pcp alt_vlan_dscp rtt cc_mode tcp_cp inactivity_cp"

snapshot() {
	local f
	for f in $FILES; do
		printf '%s ' "$f"
		od -An -c "$CC/$f" | tr -s ' '
	done
}
val() { cat "$CC/$1"; }
writes() { cat "$FAULT/writes"; }
fresh() {
	echo "bnxt_re $BDF" > "$ROOT/del_device" 2>/dev/null
	echo "bnxt_re $BDF" > "$ROOT/new_device"
}

hwsim_setup
fresh

# ------------------------------------------------------- the surface itself
tap_eq "14 files, mode 0400, as debugfs.c creates them" \
	"14 400" "$(find "$CC" -mindepth 1 | wc -l) $(stat -c %a "$CC"/* | sort -u | xargs)"
tap_notok "reading tx_queue fails" cat "$CC/tx_queue"
tap_notok "writing tx_queue fails" sh -c "echo 1 > '$CC/tx_queue'"
tap_notok "a 16-byte write is refused" sh -c "printf 0000000000000001 > '$CC/rtt'"
tap_ok "writes parse base 0 (0x10)" sh -c "printf 0x10 > '$CC/rtt'"
tap_eq "reads print %d and a newline" "$(printf '16\n')" "$(val rtt)"
fresh

# ------------------------------------------------------------- the example
EX=$W/bnxt-re-upstream.conf
sed 's/^rdma_device = .*/rdma_device = rxe0/' \
	"$PROFILES/hardware/bnxt-re-upstream.conf" > "$EX"
before=$(snapshot)
out=$("$RT" --json apply "$EX"); rc=$?
tap_eq "example: apply changes the host (exit 2)" 2 "$rc"
[[ $rc -eq 2 ]] || printf '%s\n' "$out" | sed 's/^/#   /'
tap_eq "example: tos_ecn, alt_vlan_dscp, alt_vlan_pcp read back with cat" "2 48 6" \
	"$(val tos_ecn) $(val alt_vlan_dscp) $(val alt_vlan_pcp)"
tap_eq "example: three writes, every other file as it was" \
	"3 $(grep -Ev '^(tos_ecn|alt_vlan_dscp|alt_vlan_pcp) ' <<< "$before")" \
	"$(writes) $(snapshot | grep -Ev '^(tos_ecn|alt_vlan_dscp|alt_vlan_pcp) ')"
tap_ok "example: diff finds nothing to do" "$RT" diff "$EX"
w0=$(writes)
out=$("$RT" --json apply "$EX"); rc=$?
tap_eq "example: second apply exits 0 and counts no write" "0 0" \
	"$rc $(printf '%s' "$out" | jfield 'd["writes"]')"
tap_eq "example: no write reached the surface the second time" "$w0" "$(writes)"

# ------------------------------------------------------------- failures
P=$W/mark.conf
printf '[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 46\nnp_cnp_prio = 5\necn_codepoint = 1\n' > "$P"

# fault DESC KNOBS EXPECT_RC WHY: inject, apply P (three writes, in file
# order: tos_ecn, alt_vlan_pcp, alt_vlan_dscp), check.
fault() {
	local desc=$1 knobs=$2 erc=$3 why=$4 before rc k
	fresh
	before=$(snapshot)
	for k in $knobs; do echo "${k#*=}" > "$FAULT/${k%%=*}"; done
	out=$("$RT" --json apply "$P"); rc=$?
	printf '%s' "$out" > "$W/fault.json"
	fault_reset "$FAULT"
	tap_eq "$desc: apply fails (exit $erc)" "$erc" "$rc"
	tap_ok "$desc: the error says why (...$why...)" grep -q -- "$why" "$W/fault.json"
	if [[ $erc -eq 1 ]]; then
		tap_eq "$desc: every file byte-identical to the snapshot" "$before" "$(snapshot)"
	fi
}
fault "firmware refuses the 2nd write, driver reports success" "fail_after=1" 1 \
	"read-back: alt_vlan_pcp reads 0 after writing 5"
tap_ok "refused write: the write that did land (tos_ecn) restored, rollback complete" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rb = d["rollback"]
assert d["result"] == "failed-rolled-back" and rb["complete"], d
assert [a for a in rb["actions"] if a["status"] == "restored" and "tos_ecn 1 -> 0" in a["change"]], rb
' "$W/fault.json"
fault "every write silently ignored" "ignore_writes=1" 1 \
	"read-back: tos_ecn reads 0 after writing 1"
fault "lockdown (reads work, writes refused)" "lockdown=1" 1 "Operation not permitted"
fault "failure persists through the rollback" "fail_after=1 fail_sticky=1" 3 \
	"failed-not-rolled-back"
tap_ok "persisting failure: the file not restored is reported with its values" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rb = d["rollback"]
assert not rb["complete"], rb
f = [a for a in rb["actions"] if a["status"] == "failed"]
assert f and "tos_ecn 1 -> 0" in f[0]["change"] and "tos_ecn reads 1" in f[0]["error"], rb
' "$W/fault.json"
tap_eq "persisting failure: the files are as the report says (tos_ecn 1, the rest 0)" \
	"1 0 0" "$(val tos_ecn) $(val alt_vlan_pcp) $(val alt_vlan_dscp)"

# ---------------------------------------------------------- unsupported
hw_state() { echo "writes $(writes) files $(snapshot)"; }
hwsim_unsupported "a DCQCN rate parameter" "rp_additive_increase_kbps = 40000" \
	rp_additive_increase_kbps "own algorithm"
hwsim_unsupported "a per-priority enable" "rp_enabled_prios = 0-7" \
	rp_enabled_prios "one device-wide enable_cc"
hwsim_unsupported "np_cnp_ecn" "np_cnp_ecn = 1" np_cnp_ecn "out-of-tree driver's configfs only"
hwsim_unsupported "np_min_cnp_interval_us" "np_min_cnp_interval_us = 4" \
	np_min_cnp_interval_us "out-of-tree driver's configfs only"

# ------------------------------------------------- the node test, on hwsim
# selftests/hwnode/cc-roundtrip.sh as an operator runs it, against a fake
# /sys/class/infiniband whose rxe0 has the PCI driver bnxt_en.
HWNODE=$here/../hwnode/cc-roundtrip.sh
mkdir -p "$W/sysib/rxe0/device" "$W/drv/bnxt_en"
ln -s "$W/drv/bnxt_en" "$W/sysib/rxe0/device/driver"
roundtrip() { HWNODE_SYSFS_IB=$W/sysib "$HWNODE" 2>&1; }
# all6 RC OUT: exit 0, six checks passed, none failed or skipped
# shellcheck disable=SC2317 # run through tap_ok
all6() {
	[[ $1 -eq 0 && $(grep -c '^ok ' <<< "$2") -eq 6 ]] &&
		! grep -q -e '^not ok ' -e SKIP <<< "$2" && return 0
	printf '%s\n' "$2"
	return 1
}
if [[ -x $HWNODE ]]; then
	fresh
	echo 1 > "$CC/tos_ecn"
	before=$(snapshot)
	out=$(roundtrip); rc=$?
	tap_ok "cc-roundtrip.sh: 6/6 with bnxt-re-upstream.conf (exit 0)" all6 "$rc" "$out"
	tap_eq "cc-roundtrip.sh: every file byte-identical after its restore" "$before" "$(snapshot)"
	fresh
	out=$(roundtrip); rc=$?
	tap_ok "cc-roundtrip.sh: a device at tos_ecn 0 (no neutral value) passes too" all6 "$rc" "$out"
	tap_ok "cc-roundtrip.sh: and names ecn_codepoint as not restored" \
		grep -q "not restored.*ecn_codepoint" <<< "$out"
	tap_eq "cc-roundtrip.sh: which stays at the example's tos_ecn 2" 2 "$(val tos_ecn)"
else
	for t in "6/6" "byte-identical" "tos_ecn 0 passes" "names ecn_codepoint" "tos_ecn 2"; do
		tap_skip "cc-roundtrip.sh: $t" "no selftests/hwnode/ beside this suite (installed tests)"
	done
fi

echo "bnxt_re $BDF" > "$ROOT/del_device"
hwsim_done
tap_ok "a clean kernel log" sh -c "! dmesg | grep -E 'BUG|WARNING|Oops|rocetune_hwsim.*(leak|error)'"
tap_done
