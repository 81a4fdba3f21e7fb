#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest tests of `rocetune apply` through the mlx5 congestion-control
# surface, against rocetune_hwsim.ko's copy of debugfs mlx5/<BDF>/cc_params/
# (Documentation/hardware.rst). rxe0 plays the mlx5 RDMA device: the
# test-only ROCETUNE_TEST_SURFACE maps it to the simulated BDF and
# ROCETUNE_TEST_DEBUGFS points the tool at hwsim's root.
#
# Checks, each against the files read with cat, not with rocetune:
# the surface reproduces the driver's formats and the np_cnp_prio side
# effect; the example profile applies and reads back; a second apply
# writes nothing; a refused write (EINVAL), lockdown (EPERM), silently
# ignored writes and a failure after N writes each leave the files
# byte-identical, and a failure that persists is reported as not
# restorable; unsupported parameters and values are refused with a clear
# error and change nothing.
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/hwsim/mlx5.sh [--keep] [--out DIR]
# Needs: tools/rocetune/rocetune and kmod/hwsim/rocetune_hwsim.ko built.

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 400 "$@" \
		--script "1=$here/mlx5.sh"
fi

. "$here/hwsim_lib.sh"

BDF=0000:fe:00.0
DEV=$ROOT/mlx5/$BDF
CC=$DEV/cc_params
FAULT=$DEV/fault
export ROCETUNE_TEST_DEBUGFS=$ROOT
export ROCETUNE_TEST_SURFACE="rxe0=mlx5/$BDF"

FILES="rp_clamp_tgt_rate rp_clamp_tgt_rate_ati rp_time_reset rp_byte_reset
rp_threshold rp_ai_rate rp_max_rate rp_hai_rate rp_min_dec_fac rp_min_rate
rp_rate_to_set_on_first_cnp rp_dce_tcp_g rp_dce_tcp_rtt
rp_rate_reduce_monitor_period rp_initial_alpha_value rp_gd
np_min_time_between_cnps np_cnp_dscp np_cnp_prio_mode np_cnp_prio"

# Every file as "name value", read with cat (the bytes, newline included).
snapshot() {
	local f
	for f in $FILES; do
		printf '%s ' "$f"
		cat "$CC/$f" | od -An -c | tr -s ' '
	done
}
val() { cat "$CC/$1"; }
writes() { cat "$FAULT/writes"; }

# A fresh simulated device: the start values, every knob off.
fresh() {
	echo "mlx5 $BDF" > "$ROOT/del_device" 2>/dev/null
	echo "mlx5 $BDF" > "$ROOT/new_device"
}

hwsim_setup
fresh

# ------------------------------------------------------- the surface itself
tap_eq "20 files, mode 0600, as cong.c creates them" \
	"20 600" "$(ls "$CC" | wc -l) $(stat -c %a "$CC"/* | sort -u | tr '\n' ' ' | xargs)"
tap_eq "reads print %u and a newline" "$(printf '300\n')" "$(val rp_time_reset)"
tap_ok "writes parse base 0 (0x1f)" sh -c "printf 0x1f > '$CC/rp_threshold'"
tap_eq "0x1f read back as 31" 31 "$(val rp_threshold)"
tap_notok "a non-number is refused" sh -c "printf five > '$CC/rp_threshold'"
tap_ok "np_cnp_prio_mode is 1 at the start" test "$(val np_cnp_prio_mode)" = 1
echo 3 > "$CC/np_cnp_prio"
tap_eq "writing np_cnp_prio forces np_cnp_prio_mode to 0" "3 0" \
	"$(val np_cnp_prio) $(val np_cnp_prio_mode)"
echo 70 > "$CC/np_cnp_dscp"
tap_eq "np_cnp_dscp keeps its 6 bits, as MLX5_SET does (70 -> 6)" 6 "$(val np_cnp_dscp)"
fresh

# ------------------------------------------------------------- the example
EX=$W/connectx-upstream.conf
sed 's/^rdma_device = .*/rdma_device = rxe0/' \
	"$PROFILES/hardware/connectx-upstream.conf" > "$EX"
out=$("$RT" --json apply "$EX"); rc=$?
tap_eq "example: apply changes the host (exit 2)" 2 "$rc"
[[ $rc -eq 2 ]] || printf '%s\n' "$out" | sed 's/^/#   /'
printf '%s' "$out" > "$W/ex.json"
tap_ok "example: the preset's values mlx5 has no knob for are a warning" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = [x for x in (d["host_notes"] + [x for v in d["devices"] for x in v["notes"]]) if x["code"] == "cc-not-set"]
assert n and n[0]["severity"] == "warning" and "rp_enabled_prios" in n[0]["message"], (d["host_notes"] + [x for v in d["devices"] for x in v["notes"]])
' "$W/ex.json"
# What the profile asks for, in mlx5's units (hardware.rst's table), and
# the start values for everything else.
expect="rp_clamp_tgt_rate 0
rp_clamp_tgt_rate_ati 1
rp_time_reset 300
rp_byte_reset 32767
rp_threshold 1
rp_ai_rate 40
rp_max_rate 0
rp_hai_rate 200
rp_min_dec_fac 50
rp_min_rate 1
rp_rate_to_set_on_first_cnp 0
rp_dce_tcp_g 1019
rp_dce_tcp_rtt 1
rp_rate_reduce_monitor_period 4
rp_initial_alpha_value 1023
rp_gd 11
np_min_time_between_cnps 4
np_cnp_dscp 48
np_cnp_prio_mode 0
np_cnp_prio 6"
got=$(for f in $FILES; do echo "$f $(val "$f")"; done)
tap_eq "example: every file reads back as declared (cat)" "$expect" "$got"
tap_eq "example: three writes (rp_ai_rate, rp_hai_rate, np_cnp_prio)" 3 "$(writes)"

w0=$(writes)
out=$("$RT" --json apply "$EX"); rc=$?
tap_eq "example: second apply exits 0 (no change)" 0 "$rc"
tap_eq "example: second apply counts no write" 0 "$(printf '%s' "$out" | jfield 'd["writes"]')"
tap_eq "example: no write reached the surface the second time" "$w0" "$(writes)"
tap_ok "example: diff shows nothing to do" "$RT" diff "$EX"

# A profile that changes more files, for the failures.
BIG=$W/big.conf
cat > "$BIG" <<EOF
[match]
rdma_device = rxe0
[cc]
rp_additive_increase_kbps = 20000
rp_hyper_increase_kbps = 100000
rp_min_rate_kbps = 2000
rp_alpha_gain_1024ths = 16
np_cnp_dscp = 46
np_cnp_prio = 5
EOF

# fault_case DESC KNOBS EXPECT_RC EXPECT_WHY: inject, apply BIG, check.
fault_case() {
	local desc=$1 knobs=$2 erc=$3 why=$4 before after rc k
	fresh
	before=$(snapshot)
	for k in $knobs; do echo "${k#*=}" > "$FAULT/${k%%=*}"; done
	out=$("$RT" --json apply "$BIG"); rc=$?
	printf '%s' "$out" > "$W/fault.json"
	echo 0 > "$FAULT/lockdown"
	echo 0 > "$FAULT/ignore_writes"
	echo 0 > "$FAULT/fail_sticky"
	echo -1 > "$FAULT/fail_after"
	after=$(snapshot)
	tap_eq "$desc: apply fails (exit $erc)" "$erc" "$rc"
	tap_ok "$desc: the error says why (...$why...)" \
		grep -q -- "$why" "$W/fault.json"
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

fault_case "lockdown (EPERM on open)" "lockdown=1" 1 "lockdown"
tap_eq "lockdown: refused before any write" 0 "$(writes)"
tap_ok "lockdown: said plainly: precondition failed, surface unavailable" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = [x for x in (d["host_notes"] + [x for v in d["devices"] for x in v["notes"]]) if x["code"] == "no-cc-surface"]
assert d["result"] == "precondition-failed" and n and "EPERM" in n[0]["message"], d
' "$W/fault.json"

fault_case "silently ignored writes" "ignore_writes=1" 1 "read-back: rp_ai_rate reads 5 after writing 20"

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
assert f and "rp_ai_rate 20 -> 5" in f[0]["change"] and f[0]["error"], rb
' "$W/fault.json"
tap_eq "persisting failure: the files are as the report says (rp_ai_rate 20)" \
	20 "$(val rp_ai_rate)"

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
unsupported "no knob (rp_enabled_prios)" "rp_enabled_prios = 3" "ROCE_CC_PRIO_MASK_P1"
unsupported "value out of mlx5's range (rp_rate_cut_shift 3)" "rp_rate_cut_shift = 3" "rp_gd is 10..11"
unsupported "rate not in whole Mb/s (rp_min_rate_kbps 1500)" "rp_min_rate_kbps = 1500" "whole Mb/s"

# ------------------------------------------------------------- show
fresh
tap_ok "show names the surface and its values" sh -c \
	"'$RT' show dev rxe0 | grep -q 'cc (mlx5-debugfs)' && '$RT' --json show dev rxe0 | grep -q '\"rp_additive_increase_kbps\":5000'"

echo "mlx5 $BDF" > "$ROOT/del_device"
hwsim_done
tap_ok "a clean kernel log" sh -c "! dmesg | grep -E 'BUG|WARNING|Oops|rocetune_hwsim.*(leak|error)'"
tap_done
