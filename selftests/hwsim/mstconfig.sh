#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest tests of mlx5's live against persistent (next boot) values:
# `rocetune show` and `diff` run `mstconfig -d <BDF> query`, and here a
# test-only fake of it (fake-mstconfig/mstconfig, first on PATH in this
# script only) prints the layout of Debian 12's mstflint 4.21.0 with
# values this script chooses, against rocetune_hwsim.ko's simulated mlx5
# debugfs cc_params/ (Documentation/hardware.rst, "Live and persistent
# values"). rxe0 plays the mlx5 RDMA device, as in mlx5.sh.
#
# Checks: NVconfig equal to the live files: "the live values match", and
# the _P1 names are read for function .0 (port 2 holds other values);
# a live value changed with echo: "live differs from persistent" in text
# and JSON, and diff's cc-not-persistent warning with the values after
# the plan; function .1 reads the _P2 names; mstconfig missing, an -E-
# line, a failed-TLV error, a non-zero exit without -E-, garbage and
# oversized output each give show's documented "not read: <why>" note,
# the same exit status, and leave every file and the write counter as
# they were.
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/hwsim/mstconfig.sh [--keep] [--out DIR]
# Needs: tools/rocetune/rocetune and kmod/hwsim/rocetune_hwsim.ko built.

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 300 "$@" \
		--script "1=$here/mstconfig.sh"
fi

. "$here/hwsim_lib.sh"

BDF=0000:fe:00.0
BDF1=0000:fe:00.1
export ROCETUNE_TEST_DEBUGFS=$ROOT
export ROCETUNE_TEST_SURFACE="rxe0=mlx5/$BDF"
unset ROCETUNE_TEST_MSTCONFIG
export MSTCONFIG_FAKE_DEV=$BDF MSTCONFIG_FAKE_NV=$W/nv MSTCONFIG_FAKE_LOG=$W/mstconfig.log
FAKEPATH=$here/fake-mstconfig:$PATH

# NVconfig name, cc_params file, B for a boolean (printed True(1)/False(0))
MAP="CLAMP_TGT_RATE rp_clamp_tgt_rate B
CLAMP_TGT_RATE_AFTER_TIME_INC rp_clamp_tgt_rate_ati B
RPG_TIME_RESET rp_time_reset -
RPG_BYTE_RESET rp_byte_reset -
RPG_THRESHOLD rp_threshold -
RPG_MAX_RATE rp_max_rate -
RPG_AI_RATE rp_ai_rate -
RPG_HAI_RATE rp_hai_rate -
RPG_GD rp_gd -
RPG_MIN_DEC_FAC rp_min_dec_fac -
RPG_MIN_RATE rp_min_rate -
RATE_TO_SET_ON_FIRST_CNP rp_rate_to_set_on_first_cnp -
DCE_TCP_G rp_dce_tcp_g -
DCE_TCP_RTT rp_dce_tcp_rtt -
RATE_REDUCE_MONITOR_PERIOD rp_rate_reduce_monitor_period -
INITIAL_ALPHA_VALUE rp_initial_alpha_value -
MIN_TIME_BETWEEN_CNPS np_min_time_between_cnps -
CNP_802P_PRIO np_cnp_prio -
CNP_RES_PRIO_MODE np_cnp_prio_mode B
CNP_DSCP np_cnp_dscp -"

cc_dir() { echo "$ROOT/mlx5/$1/cc_params"; }
fmt() { if [[ $2 == B ]]; then (($1)) && echo "True(1)" || echo "False(0)"; else echo "$1"; fi; }

# nv_from BDF PORT: $W/nv as mstconfig's rows, port PORT equal to BDF's
# live files, the other port different in every value.
nv_from() {
	local cc name f b v other=$((3 - $2)) p
	cc=$(cc_dir "$1")
	: > "$W/nv"
	for p in 1 2; do
		echo "ROCE_CC_PRIO_MASK_P$p 255" >> "$W/nv"
		echo "ROCE_CC_ALGORITHM_P$p ECN(0)" >> "$W/nv"
	done
	while read -r name f b; do
		v=$(cat "$cc/$f")
		echo "${name}_P$2 $(fmt "$v" "$b")" >> "$W/nv"
		[[ $b == B ]] && v=$((!v)) || v=$(((v + 1) % 64))
		echo "${name}_P$other $(fmt "$v" "$b")" >> "$W/nv"
	done <<< "$MAP"
	sort -o "$W/nv" "$W/nv"	# _P1 and _P2 rows interleaved, as mstconfig does
}

snapshot() {
	local f
	for f in "$(cc_dir $BDF)"/*; do
		printf '%s ' "${f##*/}"
		od -An -c < "$f" | tr -s ' '
	done
	cat "$ROOT/mlx5/$BDF/fault/writes"
}

# persistent FILE: the JSON of show's cc.persistent of rxe0, as JSON
persistent() {
	python3 - "$1" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
def find(o):
    if isinstance(o, dict):
        if "persistent" in o:
            return o["persistent"]
        o = list(o.values())
    if isinstance(o, list):
        for x in o:
            r = find(x)
            if r is not None:
                return r
    return None
print(json.dumps(find(d), sort_keys=True))
EOP
}

hwsim_setup
echo "mlx5 $BDF" > "$ROOT/new_device"

# ------------------------------------------------- live equals persistent
nv_from $BDF 1
out=$(PATH=$FAKEPATH "$RT" show dev rxe0); rc=$?
tap_eq "show exits 0" 0 "$rc"
tap_ok "NVconfig _P1 as live: \"the live values match\"" \
	grep -qF "persistent (mstconfig -d $BDF, next boot): the live values match" <<< "$out"
[[ $out == *"live values match"* ]] || printf '%s\n' "$out" | sed 's/^/#   /'
tap_ok "what only NVconfig has is shown" \
	grep -qF "next boot only (no live file on mlx5): ROCE_CC_PRIO_MASK_P1 0-7, ROCE_CC_ALGORITHM_P1 ECN" <<< "$out"
tap_eq "mstconfig ran once, as mstconfig -d BDF query" "-d $BDF query" "$(cat "$W/mstconfig.log")"
PATH=$FAKEPATH "$RT" --json show dev rxe0 > "$W/show.json"
tap_eq "show --json: port 1 from the PCI function (no devlink port), nothing differs" \
	'{"differs": [], "error": null, "next_boot_only": {"ROCE_CC_ALGORITHM_P1": 0, "ROCE_CC_PRIO_MASK_P1": 255}, "pci": "0000:fe:00.0", "port": 1, "port_from": "pci-function", "source": "mstconfig"}' \
	"$(persistent "$W/show.json")"

# ------------------------------------------------ a live value changed
# hwsim starts np_cnp_dscp at 48 (NVIDIA's default), and so does NVconfig
tap_eq "NVconfig's CNP_DSCP_P1 is the live start value, 48" "CNP_DSCP_P1 48" \
	"$(grep '^CNP_DSCP_P1 ' "$W/nv")"
echo 26 > "$(cc_dir $BDF)/np_cnp_dscp"
out=$(PATH=$FAKEPATH "$RT" show dev rxe0); rc=$?
tap_eq "show still exits 0" 0 "$rc"
tap_ok "show: live differs from persistent, named" \
	grep -qF "live differs from persistent (mstconfig -d $BDF, next boot): np_cnp_dscp 26 (CNP_DSCP_P1 48); a reboot or firmware reset brings back the next-boot values" <<< "$out"
[[ $out == *"np_cnp_dscp 26 (CNP_DSCP_P1 48);"* ]] || printf '%s\n' "$out" | sed 's/^/#   /'
PATH=$FAKEPATH "$RT" --json show dev rxe0 > "$W/show.json"
tap_eq "show --json: persistent.differs has exactly that file" \
	'[{"file": "np_cnp_dscp", "live": 26, "next_boot": 48, "nvconfig": "CNP_DSCP_P1"}]' \
	"$(persistent "$W/show.json" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["differs"], sort_keys=True))')"

P=$W/dscp.conf
printf '[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 46\n' > "$P"
PATH=$FAKEPATH "$RT" --json diff "$P" > "$W/diff.json"
tap_ok "diff: cc-not-persistent with the value after the plan" \
	first_note "$W/diff.json" cc-not-persistent \
	"rxe0/1: after this apply, 1 live value differs from the next-boot firmware config" \
	"np_cnp_dscp 46 (CNP_DSCP_P1 48)"
printf '[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 48\n' > "$P"
PATH=$FAKEPATH "$RT" --json diff "$P" > "$W/diff.json"
tap_notok "diff: no cc-not-persistent when the plan makes them agree" \
	grep -q cc-not-persistent "$W/diff.json"
echo 48 > "$(cc_dir $BDF)/np_cnp_dscp"

# ----------------------------------------- function .1 reads the _P2 names
echo "mlx5 $BDF1" > "$ROOT/new_device"
echo 30 > "$(cc_dir $BDF1)/np_cnp_dscp"
nv_from $BDF1 2
out=$(ROCETUNE_TEST_SURFACE="rxe0=mlx5/$BDF1" MSTCONFIG_FAKE_DEV=$BDF1 PATH=$FAKEPATH \
	"$RT" show dev rxe0)
tap_ok "function .1: NVconfig _P2 as live: \"the live values match\"" \
	grep -qF "persistent (mstconfig -d $BDF1, next boot): the live values match" <<< "$out"
[[ $out == *"live values match"* ]] || printf '%s\n' "$out" | sed 's/^/#   /'
echo "mlx5 $BDF1" > "$ROOT/del_device"

# ------------------------------------------- mstconfig unavailable or failing
nv_from $BDF 1
printf '[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 26\n' > "$P"
# bad_case DESC MODE WHY [PATH]: show's note, exit status, nothing changed
bad_case() {
	local desc=$1 mode=$2 why=$3 path=${4:-$FAKEPATH} before after rc
	before=$(snapshot)
	out=$(MSTCONFIG_FAKE_MODE=$mode PATH=$path "$RT" show dev rxe0); rc=$?
	tap_eq "$desc: show exits 0" 0 "$rc"
	tap_ok "$desc: \"not read: ...$why...\"" \
		grep -qF "persistent (next boot): not read: $why" <<< "$out"
	[[ $out == *"not read: $why"* ]] || printf '%s\n' "$out" | grep persistent | sed 's/^/#   /'
	MSTCONFIG_FAKE_MODE=$mode PATH=$path "$RT" --json diff "$P" > "$W/diff.json"
	tap_ok "$desc: diff warns that the change is live only" \
		first_note "$W/diff.json" cc-persistent-unknown "the [cc] change is live only" "$why"
	after=$(snapshot)
	tap_eq "$desc: every file and the write counter as before" "$before" "$after"
}

if [[ -e /usr/sbin/mstconfig || -e /usr/bin/mstconfig || -e /sbin/mstconfig || -e /bin/mstconfig ]]; then
	for i in 1 2 3 4; do tap_skip "mstconfig missing" "a real mstconfig is installed in this guest"; done
else
	bad_case "mstconfig missing" ok "mstconfig not found in PATH (Debian package mstflint)" "$PATH"
fi
bad_case "-E- line" open "mstconfig -d $BDF query failed (exit 3): -E- Failed to open the device"
bad_case "failed TLVs" tlv \
	"mstconfig -d $BDF query failed (exit 3): -E- Failed to query some of the TLVs: Failed to query the next values of the following TLVs: nv_roce_cc_ecn"
bad_case "non-zero exit, no -E-" exit "mstconfig -d $BDF query failed (exit 1)"
bad_case "garbage" garbage "mstconfig -d $BDF query: no \"Configurations:\" section in mstconfig's output"
bad_case "oversized output" big "$here/fake-mstconfig/mstconfig printed more than 262144 bytes"

echo "mlx5 $BDF" > "$ROOT/del_device"
hwsim_done
tap_ok "a clean kernel log" sh -c "! dmesg | grep -E 'BUG|WARNING|Oops|rocetune_hwsim.*(leak|error)'"
tap_done
