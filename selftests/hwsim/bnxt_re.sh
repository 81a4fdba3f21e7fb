#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest tests of `rocetune apply` through the bnxt_re congestion-control
# surface, against rocetune_hwsim.ko's copy of debugfs
# bnxt_re/<BDF>/cc_config/ (Documentation/hardware.rst). rxe0 plays the
# bnxt_re device (ROCETUNE_TEST_SURFACE, test only).
#
# Checks, reading the files with cat: the driver's formats (mode 0400,
# "%d", tx_queue refused both ways, long writes refused); the markings
# applied and read back; a second apply writes nothing; a write the
# firmware refuses (which bnxt_re reports as success) caught by the
# read-back and rolled back byte-identical; lockdown (reads work, writes
# refused) rolled back; DCQCN rate parameters refused with nothing written.
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
	"14 400" "$(ls "$CC" | wc -l) $(stat -c %a "$CC"/* | sort -u | xargs)"
tap_notok "reading tx_queue fails" cat "$CC/tx_queue"
tap_notok "writing tx_queue fails" sh -c "echo 1 > '$CC/tx_queue'"
tap_notok "a 16-byte write is refused" sh -c "printf 0000000000000001 > '$CC/rtt'"
tap_ok "writes parse base 0 (0x10)" sh -c "printf 0x10 > '$CC/rtt'"
tap_eq "reads print %d and a newline" "$(printf '16\n')" "$(val rtt)"
fresh

P=$W/mark.conf
printf '[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 46\nnp_cnp_prio = 5\necn_codepoint = 1\n' > "$P"
out=$("$RT" --json apply "$P"); rc=$?
tap_eq "markings: apply changes the host (exit 2)" 2 "$rc"
[[ $rc -eq 2 ]] || printf '%s\n' "$out" | sed 's/^/#   /'
tap_eq "markings: read back with cat" "46 5 1" \
	"$(val alt_vlan_dscp) $(val alt_vlan_pcp) $(val tos_ecn)"
w0=$(writes)
out=$("$RT" --json apply "$P"); rc=$?
tap_eq "markings: second apply exits 0" 0 "$rc"
tap_eq "markings: no write reached the surface the second time" "$w0" "$(writes)"

# fault DESC KNOBS WHY
fault() {
	local desc=$1 knobs=$2 why=$3 before rc k
	fresh
	before=$(snapshot)
	for k in $knobs; do echo "${k#*=}" > "$FAULT/${k%%=*}"; done
	out=$("$RT" --json apply "$P"); rc=$?
	printf '%s' "$out" > "$W/fault.json"
	echo 0 > "$FAULT/lockdown"
	echo -1 > "$FAULT/fail_after"
	echo 0 > "$FAULT/fail_sticky"
	tap_eq "$desc: apply fails and rolls back (exit 1)" 1 "$rc"
	tap_ok "$desc: the error says why (...$why...)" grep -q -- "$why" "$W/fault.json"
	tap_eq "$desc: every file byte-identical to the snapshot" "$before" "$(snapshot)"
}
fault "firmware refuses once, driver reports success" "fail_after=1" \
	"read-back: alt_vlan_pcp reads 0 after writing 5"
fault "lockdown (reads work, writes refused)" "lockdown=1" "Operation not permitted"

fresh
before=$(snapshot); w0=$(writes)
printf '[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 46\nrp_additive_increase_kbps = 40000\n' > "$W/u.conf"
"$RT" --json apply "$W/u.conf" > "$W/u.json"; rc=$?
tap_eq "a DCQCN rate parameter is refused (exit 1)" 1 "$rc"
tap_ok "the error is cc-unsupported with the reason" sh -c \
	"grep -q cc-unsupported '$W/u.json' && grep -q 'own algorithm' '$W/u.json'"
tap_eq "nothing written, every file unchanged" "$w0 $before" "$(writes) $(snapshot)"

echo "bnxt_re $BDF" > "$ROOT/del_device"
hwsim_done
tap_done
