#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest tests of `rocetune apply` through AMD Pensando's out-of-tree
# ionic surface, the sysfs tree /sys/class/infiniband/<ibdev>/dcqcn/ of
# DCQCN profiles, against rocetune_hwsim.ko's copy of it under
# <hwsim root>/ionic/<ibdev>/dcqcn/ (Documentation/hardware.rst). rxe0
# plays the ionic RDMA device (ROCETUNE_TEST_SURFACE);
# ROCETUNE_TEST_SYSFS_IB stands for /sys/class/infiniband.
#
# Checks, with cat, the fault/writes counter and hwsim's view of the
# firmware (<dev>/firmware, not in the driver's tree): the surface behaves
# as ionic's ("%d\n" reads, base-0 stores, range errors, the
# rate_to_set_on_first_cnp 0 it shows and refuses, a failed firmware
# command that the store does not return and the kernel log shows);
# match_default 0 is refused with the reason; the example applies to the
# profile match_default names, reads back, reaches the firmware; a second
# apply writes nothing; another device's failure logged during the apply
# does not count; a firmware failure, once or for good, is found in
# the kernel log, and the apply rolls back to byte-identical files and
# firmware, or says what is not rolled back; a snapshot value that cannot
# be written back is reported not restorable; unsupported parameters and
# rules that send QPs elsewhere are refused with nothing written; a
# firmware that keeps nothing and says nothing is not seen (the limit
# hardware.rst states).
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/hwsim/ionic.sh [--keep] [--out DIR]

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 300 "$@" \
		--script "1=$here/ionic.sh"
fi

. "$here/hwsim_lib.sh"

DEV=$ROOT/ionic/rxe0
FAULT=$DEV/fault
DCQ=$DEV/dcqcn
P1=$DCQ/profiles/1
export ROCETUNE_TEST_SYSFS_IB=$ROOT/ionic
export ROCETUNE_TEST_SURFACE="rxe0=ionic/rxe0"

NP="icnp_802p_prio cnp_dscp"
RP="token_bucket_size initial_alpha_value dce_tcp_g dce_tcp_rtt rate_reduce_monitor_period
rate_to_set_on_first_cnp min_rate gd min_dec_fac clamp_tgt_rate clamp_tgt_rate_ati threshold
time_reset qp_rate byte_reset ai_rate hai_rate"

writes() { cat "$FAULT/writes"; }
# Every file of profile 1 byte for byte, match_default, and the firmware.
snapshot() {
	local f
	for f in $NP; do printf 'np/%s ' "$f"; od -An -c "$P1/roce_np/$f" | tr -s ' '; done
	for f in $RP; do printf 'rp/%s ' "$f"; od -An -c "$P1/roce_rp/$f" | tr -s ' '; done
	cat "$DCQ/match_default" "$DCQ/match_rules" "$DEV/firmware"
}
fw() {		# DIR/NAME [PROFILE]: the firmware's value
	sed -n "s|^${2:-1} $1 ||p" "$DEV/firmware"
}
fresh() {	# [match_default]
	echo "ionic rxe0" > "$ROOT/del_device" 2>/dev/null
	echo "ionic rxe0" > "$ROOT/new_device"
	[[ -z ${1:-} ]] || echo "$1" > "$DCQ/match_default"
}
logged() {	# TEXT: the kernel log has it since the mark
	dmesg | sed -n "/rocetune-ionic-mark-$mark/,\$p" | grep -q -- "$1"
}
mark=0
set_mark() { mark=$((mark + 1)); echo "rocetune-ionic-mark-$mark" > /dev/kmsg; }

hwsim_setup
fresh

# ------------------------------------------------------- the surface itself
tap_eq "dcqcn/ has match_default, match_rules and profiles 1 and 2" \
	"match_default match_rules profiles 1 2" \
	"$(find "$DCQ" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | xargs) $(find "$DCQ/profiles" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | xargs)"
# shellcheck disable=SC2086 # word lists
tap_eq "a profile has reset, roce_np/ (2 files) and roce_rp/ (17 files)" \
	"$(printf '%s\n' reset roce_np roce_rp $NP $RP | sort | xargs)" \
	"$(find "$P1" -mindepth 1 -printf '%f\n' | sort | xargs)"
tap_eq "modes: parameters 0644, reset 0200" "644 200" \
	"$(stat -c %a "$P1/roce_rp/ai_rate") $(stat -c %a "$P1/reset")"
tap_eq "reads are \"%d\\n\"" "   4   8  \n" "$(od -An -c "$P1/roce_np/cnp_dscp")"
tap_eq "match_default starts at 0 (no profile)" 0 "$(cat "$DCQ/match_default")"
tap_ok "a store takes base 0 (0x2e)" sh -c "echo 0x2e > '$P1/roce_np/cnp_dscp'"
tap_eq "and pushes the whole profile to the firmware" "46 46" \
	"$(cat "$P1/roce_np/cnp_dscp") $(fw roce_np/cnp_dscp)"
tap_notok "cnp_dscp 64 is refused (EINVAL)" sh -c "echo 64 > '$P1/roce_np/cnp_dscp'"
tap_notok "time_reset 0 is refused" sh -c "echo 0 > '$P1/roce_rp/time_reset'"
tap_eq "rate_to_set_on_first_cnp reads 0" 0 "$(cat "$P1/roce_rp/rate_to_set_on_first_cnp")"
tap_notok "and refuses 0 (1..INT_MAX)" sh -c "echo 0 > '$P1/roce_rp/rate_to_set_on_first_cnp'"
tap_notok "match_default 3 is refused (2 profiles)" sh -c "echo 3 > '$DCQ/match_default'"
tap_ok "match_rules takes \"prio 0xc 2\"" sh -c "echo 'prio 0xc 2' > '$DCQ/match_rules'"
tap_eq "and shows it \"%s %d %d\"" "prio 12 2" "$(cat "$DCQ/match_rules")"
tap_notok "an unknown rule is refused" sh -c "echo 'vlan 3 1' > '$DCQ/match_rules'"
tap_ok "a rule without a newline is taken" sh -c "printf 'gid 2 1' > '$DCQ/match_rules'"
tap_notok "a rule cut short is refused" sh -c "printf 'gid 2' > '$DCQ/match_rules'"
tap_eq "the rules are the last good ones" "gid 2 1" "$(cat "$DCQ/match_rules")"
set_mark
echo 1 > "$FAULT/fail_after"
tap_ok "a failed firmware command: the first store still succeeds" \
	sh -c "echo 40 > '$P1/roce_np/cnp_dscp'"
tap_ok "the second store still succeeds" sh -c "echo 41 > '$P1/roce_np/cnp_dscp'"
tap_eq "the file shows it, the firmware has the one before" "41 40" \
	"$(cat "$P1/roce_np/cnp_dscp") $(fw roce_np/cnp_dscp)"
tap_ok "the kernel log has the driver's line" logged "rxe0: dcqcn profile 1 not set, error -5"
fault_reset "$FAULT"
tap_ok "reset restores the defaults" sh -c "echo 1 > '$P1/reset'"
tap_eq "in the files and the firmware" "48 48" "$(cat "$P1/roce_np/cnp_dscp") $(fw roce_np/cnp_dscp)"

# ------------------------------------------------------------- the example
EX=$W/ionic.conf
sed 's/^rdma_device = .*/rdma_device = rxe0/' "$PROFILES/hardware/ionic.conf" > "$EX"
fresh
"$RT" --json apply "$EX" > "$W/md0.json"; rc=$?
tap_eq "match_default 0: the example is refused (exit 1)" 1 "$rc"
tap_ok "match_default 0: no-cc-surface with the reason" first_note "$W/md0.json" no-cc-surface \
	"match_default is 0" "echo N > match_default"
tap_eq "match_default 0: nothing written" 0 "$(writes)"
fresh 1
out=$("$RT" --json apply "$EX"); rc=$?
tap_eq "example: apply changes the host (exit 2)" 2 "$rc"
[[ $rc -eq 2 ]] || printf '%s\n' "$out" | sed 's/^/#   /'
tap_eq "example: the files read back (ai hai rtt time_reset dscp prio)" "40 200 55 1 48 6" \
	"$(cat "$P1/roce_rp/ai_rate" "$P1/roce_rp/hai_rate" "$P1/roce_rp/dce_tcp_rtt" \
		"$P1/roce_rp/time_reset" "$P1/roce_np/cnp_dscp" "$P1/roce_np/icnp_802p_prio" | xargs)"
tap_eq "example: the firmware has them" "40 200 1" \
	"$(fw roce_rp/ai_rate) $(fw roce_rp/hai_rate) $(fw roce_rp/time_reset)"
tap_eq "example: profile 2 untouched" "5 5" "$(fw roce_rp/ai_rate 2) $(fw roce_rp/time_reset 2)"
tap_eq "example: three stores (ai_rate, time_reset, hai_rate)" 3 "$(writes)"
"$RT" apply "$EX" > /dev/null; rc=$?
tap_eq "example: second apply exits 0 (no change)" 0 "$rc"
tap_eq "example: no write the second time" 3 "$(writes)"
out=$("$RT" show dev rxe0)
tap_ok "show names the backend" grep -q "cc (ionic-sysfs)" <<< "$out"

# another device's failure, logged while rxe0's writes are under way, is not rxe0's
echo "ionic ionic9" > "$ROOT/new_device"
echo 0 > "$ROOT/ionic/ionic9/fault/fail_after"
echo 1 > "$ROOT/ionic/ionic9/fault/fail_sticky"
fresh 1
set_mark
echo 400 > "$FAULT/delay_ms"
# ionic9 fails every 0.2 s; each of rxe0's three stores takes 0.4 s
rm -f "$W/stop"
while [[ ! -e $W/stop ]]; do
	echo 47 > "$ROOT/ionic/ionic9/dcqcn/profiles/1/roce_np/cnp_dscp"
	sleep 0.2
done &
"$RT" apply "$EX" > "$W/other.txt"; rc=$?
touch "$W/stop"
wait
fault_reset "$FAULT"
tap_eq "another device's failure during the apply: rxe0's apply stands (exit 2)" 2 "$rc"
tap_ok "and the other device's line was in the log meanwhile" \
	logged "ionic9: dcqcn profile 1 not set"
tap_eq "rxe0's firmware has the example" "40 200 1" \
	"$(fw roce_rp/ai_rate) $(fw roce_rp/hai_rate) $(fw roce_rp/time_reset)"
echo "ionic ionic9" > "$ROOT/del_device"

# ------------------------------------------------------------- failures
P=$W/three.conf
printf '[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 46\nrp_fast_recovery_stages = 3\nrp_additive_increase_kbps = 40000\n' > "$P"

fault_case() {	# DESC PROFILE KNOBS EXPECT_RC WHY...
	local desc=$1 prof=$2 knobs=$3 erc=$4 before rc k
	shift 4
	fresh 1
	before=$(snapshot)
	set_mark
	for k in $knobs; do echo "${k#*=}" > "$FAULT/${k%%=*}"; done
	"$RT" --json apply "$prof" > "$W/fault.json"; rc=$?
	fault_reset "$FAULT"
	tap_eq "$desc: apply fails (exit $erc)" "$erc" "$rc"
	for k in "$@"; do
		tap_ok "$desc: the report says why (...$k...)" grep -q -- "$k" "$W/fault.json"
	done
	[[ $erc -eq 1 ]] &&
		tap_eq "$desc: files and firmware byte-identical to the snapshot" "$before" "$(snapshot)"
	tap_ok "$desc: the driver logged it" logged "rxe0: dcqcn profile 1 not set"
}
fault_case "the firmware refuses the 2nd store" "$P" "fail_after=1" 1 \
	'roce_rp/threshold 3: the driver logged \\"' "the firmware refused it (after 1 of 3"
fault_case "the firmware refuses the 1st store" "$P" "fail_after=0" 1 \
	"roce_np/cnp_dscp 46: the driver logged"
fault_case "the firmware refuses for good" "$P" "fail_after=1 fail_sticky=1" 3 \
	"failed-not-rolled-back"
tap_ok "for good: the rollback's own failure is in the report" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rb = d["rollback"]
assert not rb["complete"] and any(a["status"] == "failed" and "the driver logged" in (a.get("error") or "") for a in rb["actions"]), rb
' "$W/fault.json"

# rate_to_set_on_first_cnp 0 -> 100: if the apply fails, 0 cannot be written back
R=$W/first.conf
printf '[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 46\nrp_rate_on_first_cnp_kbps = 100000\nrp_additive_increase_kbps = 40000\n' > "$R"
"$RT" --json diff "$R" > "$W/first-diff.json"
tap_ok "changing rate_to_set_on_first_cnp from 0 warns cc-not-restorable" \
	first_note "$W/first-diff.json" cc-not-restorable "cannot be written back"
fault_case "a failure after rate_to_set_on_first_cnp left 0" "$R" "fail_after=2" 3 \
	"not restorable: roce_rp/rate_to_set_on_first_cnp stays 100, not 0"
tap_eq "not restorable: the rest is back (files, firmware)" "48 5 48 5" \
	"$(cat "$P1/roce_np/cnp_dscp" "$P1/roce_rp/ai_rate" | xargs) $(fw roce_np/cnp_dscp) $(fw roce_rp/ai_rate)"
tap_eq "not restorable: rate_to_set_on_first_cnp left at 100, and said" "100 100" \
	"$(cat "$P1/roce_rp/rate_to_set_on_first_cnp") $(fw roce_rp/rate_to_set_on_first_cnp)"

# the limit: a firmware that keeps nothing and says nothing
fresh 1
echo 1 > "$FAULT/ignore_writes"
"$RT" apply "$P" > /dev/null; rc=$?
fault_reset "$FAULT"
tap_eq "a firmware that keeps nothing silently: not seen (exit 2, hardware.rst's limit)" \
	"2 46 48" "$rc $(cat "$P1/roce_np/cnp_dscp") $(fw roce_np/cnp_dscp)"

# ---------------------------------------------------------- unsupported
unsupported() {	# DESC KEY=VALUE WHY...
	local desc=$1 kv=$2 w0 before rc
	shift 2
	w0=$(writes); before=$(snapshot)
	printf '[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 46\n%s\n' "$kv" > "$W/u.conf"
	"$RT" --json apply "$W/u.conf" > "$W/u.json"; rc=$?
	tap_eq "$desc: refused (exit 1)" 1 "$rc"
	tap_ok "$desc: error cc-unsupported with the reason" first_note "$W/u.json" cc-unsupported "$@"
	tap_eq "$desc: no write, nothing changed" "$w0" "$(writes)"
	tap_eq "$desc: files and firmware unchanged" "$before" "$(snapshot)"
}
fresh 1
unsupported "rp_max_rate_kbps" "rp_max_rate_kbps = 0" "qp_rate"
unsupported "np_min_cnp_interval_us" "np_min_cnp_interval_us = 4" "pacing of the CNPs"
unsupported "one priority" "rp_enabled_prios = 3" "no per-priority switch"
unsupported "the byte counter off" "rp_byte_counter_bytes = 0" "byte counter off"
unsupported "a timer not a multiple of dce_tcp_rtt" "rp_rate_increase_timer_us = 100" \
	"not a whole number of them"
echo "gid 3 2" > "$DCQ/match_rules"
unsupported "a rule sending QPs to profile 2" "" \
	'match_rules gives QPs "gid 3" profile 2'
echo "" > "$DCQ/match_rules"

echo "ionic rxe0" > "$ROOT/del_device"
hwsim_done
# the driver's warnings above are expected; anything else is not
tap_ok "a clean kernel log" sh -c \
	"! dmesg | grep -v 'dcqcn profile [0-9]* not set' | grep -E 'BUG|WARNING|Oops|rocetune_hwsim.*(leak|error)'"
tap_done
