#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest tests of `rocetune apply` through MLNX_OFED's mlx5 surface,
# /sys/class/net/<netdev>/ecn/, against rocetune_hwsim.ko's copy of it
# under <hwsim root>/mlx5_ofed/eth0/ecn/ (Documentation/hardware.rst). rxe0
# plays the mlx5 RDMA device: the test-only ROCETUNE_TEST_SURFACE maps it
# to the surface and ROCETUNE_TEST_SYSFS_NET stands for /sys/class/net.
#
# Checks, each against the files read with cat, not with rocetune: the
# driver's formats (sscanf "%d", EPERM on enabling an enabled priority,
# field widths); the example profile applies, per-priority switches
# included, and reads back; a second apply writes nothing; a refused
# write (EINVAL), silently ignored writes and a failure after N writes
# each leave every file byte-identical, and a failure that persists is
# reported as not restorable; unsupported parameters and values are
# refused and change nothing; a virtual function (read-only files) is
# refused cleanly; with the upstream debugfs tree present as well, the
# OFED tree is the one used, and show says so.
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/hwsim/mlx5_ofed.sh [--keep] [--out DIR]

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 400 "$@" \
		--script "1=$here/mlx5_ofed.sh"
fi

. "$here/hwsim_lib.sh"

DEV=$ROOT/mlx5_ofed/eth0
ECN=$DEV/ecn
RP=$ECN/roce_rp
NP=$ECN/roce_np
FAULT=$DEV/fault
export ROCETUNE_TEST_SYSFS_NET=$ROOT/mlx5_ofed
export ROCETUNE_TEST_DEBUGFS=$ROOT
export ROCETUNE_TEST_SURFACE="rxe0=mlx5_ofed/eth0"

# Every file of ecn/ as "path bytes", read with cat.
snapshot() {
	local f
	(cd "$ECN" && find . -type f | sort) | while read -r f; do
		printf '%s ' "$f"
		cat "$ECN/$f" | od -An -c | tr -s ' '
	done
}
val() { cat "$ECN/$1"; }
prios() {	# DIR: the priorities that read 1, as "0 1 ..."
	local p out=""
	for p in 0 1 2 3 4 5 6 7; do
		[[ $(cat "$1/enable/$p") == 1 ]] && out+="$p "
	done
	echo "${out% }"
}
writes() { cat "$FAULT/writes"; }
fresh() {	# [vf]
	echo "mlx5_ofed eth0" > "$ROOT/del_device" 2>/dev/null
	echo "mlx5_ofed eth0 ${1:-}" > "$ROOT/new_device"
}

hwsim_setup
fresh

# ------------------------------------------------------- the surface itself
tap_eq "roce_rp: 16 parameters and enable/0..7, mode 0644" "16 8 644" \
	"$(find "$RP" -maxdepth 1 -type f | wc -l) $(ls "$RP/enable" | wc -l) $(stat -c %a "$RP"/* "$RP"/enable/* 2>/dev/null | grep -v '^755$' | sort -u | xargs)"
tap_eq "roce_np: 3 parameters and enable/0..7" "cnp_802p_prio cnp_dscp min_time_between_cnps 8" \
	"$(find "$NP" -maxdepth 1 -type f -printf '%f\n' | sort | xargs) $(ls "$NP/enable" | wc -l)"
tap_eq "reads print %d and a newline" "$(printf '300\n')" "$(val roce_rp/rpg_time_reset)"
tap_eq "every priority enabled at the start (firmware default)" "0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7" \
	"$(prios "$RP") $(prios "$NP")"
printf 0x10 > "$RP/rpg_threshold"
tap_eq "writes parse sscanf %d: 0x10 stores 0" 0 "$(val roce_rp/rpg_threshold)"
tap_notok "enabling an enabled priority fails (EPERM, as en_ecn.c)" \
	sh -c "echo 1 > '$RP/enable/3'"
tap_ok "disabling it works" sh -c "echo 0 > '$RP/enable/3'"
tap_ok "and enabling it again" sh -c "echo 1 > '$RP/enable/3'"
echo 70 > "$NP/cnp_dscp"
tap_eq "cnp_dscp keeps its 6 bits (70 -> 6)" 6 "$(val roce_np/cnp_dscp)"
fresh

# ------------------------------------------------------------- the example
EX=$W/connectx-ofed.conf
sed 's/^rdma_device = .*/rdma_device = rxe0/' \
	"$PROFILES/hardware/connectx-ofed.conf" > "$EX"
out=$("$RT" --json apply "$EX"); rc=$?
tap_eq "example: apply changes the host (exit 2)" 2 "$rc"
[[ $rc -eq 2 ]] || printf '%s\n' "$out" | sed 's/^/#   /'
expect="1019 1 4 1023 11 50 1 0 0 300 32767 1 40 200 4 48 6"
got=""
for f in dce_tcp_g dce_tcp_rtt rate_reduce_monitor_period initial_alpha_value rpg_gd \
	rpg_min_dec_fac clamp_tgt_rate_after_time_inc clamp_tgt_rate rpg_max_rate \
	rpg_time_reset rpg_byte_reset rpg_threshold rpg_ai_rate rpg_hai_rate; do
	got+="$(val roce_rp/$f) "
done
got+="$(val roce_np/min_time_between_cnps) $(val roce_np/cnp_dscp) $(val roce_np/cnp_802p_prio)"
tap_eq "example: the parameters read back as declared (cat)" "$expect" "$got"
tap_eq "example: congestion control on priority 3 only, both points" "3 3" \
	"$(prios "$RP") $(prios "$NP")"
tap_eq "example: 16 writes (rpg_ai_rate, rpg_hai_rate, 7 + 7 priorities)" 16 "$(writes)"

w0=$(writes)
out=$("$RT" --json apply "$EX"); rc=$?
tap_eq "example: second apply exits 0 (no change)" 0 "$rc"
tap_eq "example: second apply counts no write" 0 "$(printf '%s' "$out" | jfield 'd["writes"]')"
tap_eq "example: no write reached the surface the second time" "$w0" "$(writes)"
tap_ok "example: diff shows nothing to do" "$RT" diff "$EX"

# A profile that changes more files, priorities included, for the failures.
BIG=$W/big.conf
cat > "$BIG" <<EOC
[match]
rdma_device = rxe0
[cc]
rp_additive_increase_kbps = 20000
rp_hyper_increase_kbps = 100000
rp_min_rate_kbps = 2000
rp_alpha_gain_1024ths = 16
np_cnp_dscp = 46
np_cnp_prio = 5
rp_enabled_prios = 3-4
np_enabled_prios = 3-4
EOC

# fault_case DESC KNOBS EXPECT_RC EXPECT_WHY: inject, apply BIG, check.
fault_case() {
	local desc=$1 knobs=$2 erc=$3 why=$4 before after rc k
	fresh
	before=$(snapshot)
	for k in $knobs; do echo "${k#*=}" > "$FAULT/${k%%=*}"; done
	out=$("$RT" --json apply "$BIG"); rc=$?
	printf '%s' "$out" > "$W/fault.json"
	echo 0 > "$FAULT/ignore_writes"
	echo 0 > "$FAULT/fail_sticky"
	echo -1 > "$FAULT/fail_after"
	after=$(snapshot)
	tap_eq "$desc: apply fails (exit $erc)" "$erc" "$rc"
	tap_ok "$desc: the error says why (...$why...)" grep -q -- "$why" "$W/fault.json"
	if [[ $erc -eq 1 ]]; then
		tap_eq "$desc: every file byte-identical to the snapshot" "$before" "$after"
	fi
}

fault_case "refused write (EINVAL)" "fail_errno=22 fail_after=0 fail_sticky=1" \
	1 "Invalid argument"
tap_ok "refused write: reported as rolled back" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["result"] == "failed-rolled-back" and d["rollback"]["complete"], d["result"]
' "$W/fault.json"

fault_case "silently ignored writes" "ignore_writes=1" 1 \
	"read-back: roce_rp/rpg_ai_rate reads 5 after writing 20"

fault_case "half-applied (the 4th write fails, once)" "fail_after=3" 1 \
	"Input/output error (after 3 of"
tap_ok "half-applied: the three applied writes were restored" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rb = d["rollback"]
assert d["result"] == "failed-rolled-back" and rb["complete"], d
assert rb["actions"] and all(a["status"] == "restored" for a in rb["actions"]), rb
' "$W/fault.json"

fault_case "half-applied, failure persists" "fail_after=3 fail_sticky=1" 3 \
	"failed-not-rolled-back"
tap_ok "persisting failure: the files not restored are reported" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rb = d["rollback"]
assert not rb["complete"], rb
f = [a for a in rb["actions"] if a["status"] == "failed"]
assert f and "roce_rp/rpg_ai_rate 20 -> 5" in f[0]["change"] and f[0]["error"], rb
' "$W/fault.json"
tap_eq "persisting failure: the files are as the report says (rpg_ai_rate 20)" \
	20 "$(val roce_rp/rpg_ai_rate)"

# ---------------------------------------------------------- unsupported
unsupported() {	# DESC KEY=VALUE WHY
	local desc=$1 kv=$2 why=$3 before w0 rc
	fresh
	before=$(snapshot); w0=$(writes)
	printf '[match]\nrdma_device = rxe0\n[cc]\nrp_additive_increase_kbps = 20000\n%s\n' \
		"$kv" > "$W/unsup.conf"
	out=$("$RT" --json apply "$W/unsup.conf"); rc=$?
	printf '%s' "$out" > "$W/unsup.json"
	tap_eq "$desc: refused (exit 1)" 1 "$rc"
	tap_ok "$desc: error cc-unsupported naming the parameter and why" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = [x for x in (d["host_notes"] + [x for v in d["devices"] for x in v["notes"]]) if x["severity"] == "error"]
assert n and n[0]["code"] == "cc-unsupported", n
assert sys.argv[2] in n[0]["message"] and sys.argv[3] in n[0]["message"], n[0]
' "$W/unsup.json" "${kv%% *}" "$why"
	tap_eq "$desc: no write, every file unchanged" "$w0 $before" "$(writes) $(snapshot)"
}
unsupported "no knob (ecn_codepoint)" "ecn_codepoint = 1" "no knob"
unsupported "no knob (ecn_enabled_prios)" "ecn_enabled_prios = 3" "roce_rp/enable"
unsupported "value out of mlx5's range (rp_rate_cut_shift 3)" "rp_rate_cut_shift = 3" "rpg_gd is 10..11"
unsupported "above a signed int (rp_byte_counter_bytes 3000000000)" \
	"rp_byte_counter_bytes = 3000000000" "signed int"

# ---------------------------------------------------------- a virtual function
fresh vf
tap_eq "VF: the files are 0444" 444 \
	"$(stat -c %a "$RP"/rpg_ai_rate "$RP"/enable/* "$NP"/cnp_dscp | sort -u | xargs)"
tap_notok "VF: root cannot write them either (EACCES)" sh -c "echo 7 > '$RP/rpg_ai_rate'"
before=$(snapshot); w0=$(writes)
out=$("$RT" --json apply "$EX"); rc=$?
printf '%s' "$out" > "$W/vf.json"
tap_eq "VF: the example is refused (exit 1)" 1 "$rc"
tap_ok "VF: error cc-read-only, naming the VF and the PF" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = [x for x in (d["host_notes"] + [x for v in d["devices"] for x in v["notes"]]) if x["severity"] == "error"]
assert n and n[0]["code"] == "cc-read-only", n
assert "virtual function" in n[0]["message"] and "PF" in n[0]["message"], n[0]
' "$W/vf.json"
tap_eq "VF: no write, every file unchanged" "$w0 $before" "$(writes) $(snapshot)"
printf '[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 48\n' > "$W/same.conf"
"$RT" apply "$W/same.conf" > /dev/null; rc=$?
tap_eq "VF: a profile it already matches applies (exit 0)" 0 "$rc"
tap_ok "VF: show says read-only" sh -c "'$RT' show dev rxe0 | grep -q 'mlx5-ofed-sysfs, read-only'"

# ---------------------------------------------------------- both trees
fresh
BDF=0000:fe:00.0
echo "mlx5 $BDF" > "$ROOT/new_device"
cc0=$(cat "$ROOT/mlx5/$BDF/cc_params/rp_ai_rate" "$ROOT/mlx5/$BDF/fault/writes")
out=$(ROCETUNE_TEST_SURFACE="rxe0=mlx5/$BDF" "$RT" show dev rxe0)
tap_ok "both trees: show uses MLNX_OFED's and names the debugfs one as not used" \
	grep -q "cc (mlx5-ofed-sysfs; not used: mlx5 debugfs cc_params/ of $BDF" <<< "$out"
ROCETUNE_TEST_SURFACE="rxe0=mlx5/$BDF" "$RT" apply "$EX" > /dev/null; rc=$?
tap_eq "both trees: the example applies (exit 2)" 2 "$rc"
tap_eq "both trees: through ecn/ (rpg_ai_rate 40, priority 3 only)" "40 3" \
	"$(val roce_rp/rpg_ai_rate) $(prios "$RP")"
tap_eq "both trees: debugfs cc_params/ untouched" "$cc0" \
	"$(cat "$ROOT/mlx5/$BDF/cc_params/rp_ai_rate" "$ROOT/mlx5/$BDF/fault/writes")"
echo "mlx5 $BDF" > "$ROOT/del_device"

# ------------------------------------------------------------- show
fresh
tap_ok "show names the surface and its values" sh -c \
	"'$RT' show dev rxe0 | grep -q 'cc (mlx5-ofed-sysfs)' && '$RT' --json show dev rxe0 | grep -q '\"rp_enabled_prios\":255'"

echo "mlx5_ofed eth0" > "$ROOT/del_device"
hwsim_done
tap_ok "a clean kernel log" sh -c "! dmesg | grep -E 'BUG|WARNING|Oops|rocetune_hwsim.*(leak|error)'"
tap_done
