#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest tests of `rocetune apply` through Intel's out-of-tree irdma
# surface, a configfs group irdma/<ibdev>/ made with mkdir, against
# rocetune_hwsim.ko's copy of it: the configfs subsystem
# rtune_hwsim_irdma (Documentation/hardware.rst). rxe0 plays the irdma
# RDMA device (ROCETUNE_TEST_SURFACE); ROCETUNE_TEST_IRDMA_CONFIGFS stands
# for /sys/kernel/config/irdma.
#
# Checks, with cat and the device's "groups" count: the surface behaves as
# irdma's (unknown names refused, kstrtobool, the group pins the module,
# values outlive the group); the example applies, warns that only new QPs
# get it, reads back, and leaves no group; a second apply writes nothing;
# a refused and a silently ignored write roll back and leave no group (a
# half-applied change cannot happen: rocetune writes one file here); the
# DCQCN tuning (module parameters) is refused with the reason, nothing
# written; a group the user made is used and left; an apply killed in the
# middle of a write leaves its group, and the next rocetune removes it;
# show and diff compare the live switch with the module parameters irdma
# was loaded with (a copy of /sys/module/irdma/parameters).
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/hwsim/irdma.sh [--keep] [--out DIR]

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 300 "$@" \
		--script "1=$here/irdma.sh"
fi

. "$here/hwsim_lib.sh"

DEV=$ROOT/irdma/rxe0
FAULT=$DEV/fault
CFS=/sys/kernel/config/rtune_hwsim_irdma
GRP=$CFS/rxe0
export ROCETUNE_TEST_IRDMA_CONFIGFS=$CFS
export ROCETUNE_TEST_SURFACE="rxe0=irdma/rxe0"

groups() { cat "$DEV/groups"; }
writes() { cat "$FAULT/writes"; }
# A value, read the way the driver allows: mkdir, cat, rmdir.
peek() {
	local v
	mkdir "$GRP" || return 1
	v=$(cat "$GRP/$1")
	rmdir "$GRP"
	echo "$v"
}
fresh() {
	echo "irdma rxe0" > "$ROOT/del_device" 2>/dev/null
	echo "irdma rxe0" > "$ROOT/new_device"
}

hwsim_setup
fresh

# ------------------------------------------------------- the surface itself
tap_ok "the configfs subsystem is there" test -d "$CFS"
tap_notok "mkdir of a name irdma does not know is refused (ENODEV)" mkdir "$CFS/nosuch"
tap_ok "mkdir of the device's name makes its group" mkdir "$GRP"
tap_eq "the group's files" "cnp_up_override roce_dcqcn_enable roce_dctcp_enable roce_timely_enable" \
	"$(ls "$GRP" | xargs)"
tap_eq "reads print %d and a newline; DCQCN off at the start" "$(printf '0\n')" \
	"$(cat "$GRP/roce_dcqcn_enable")"
tap_ok "kstrtobool: y enables" sh -c "echo y > '$GRP/roce_dcqcn_enable'"
tap_notok "kstrtobool: maybe is refused" sh -c "echo maybe > '$GRP/roce_dcqcn_enable'"
tap_notok "cnp_up_override above 0x3f is refused" sh -c "echo 0x40 > '$GRP/cnp_up_override'"
tap_eq "one live group" 1 "$(groups)"
tap_notok "the device cannot be removed while the group exists" \
	sh -c "echo 'irdma rxe0' > '$ROOT/del_device'"
tap_notok "nor the module unloaded" rmmod rocetune_hwsim
tap_ok "rmdir removes the group" rmdir "$GRP"
tap_eq "no live group" 0 "$(groups)"
tap_eq "the value outlives the group" 1 "$(peek roce_dcqcn_enable)"
fresh

# ------------------------------------------------------------- the example
EX=$W/e810-irdma.conf
sed 's/^rdma_device = .*/rdma_device = rxe0/' \
	"$PROFILES/hardware/e810-irdma.conf" > "$EX"
out=$("$RT" --json apply "$EX"); rc=$?
printf '%s' "$out" > "$W/ex.json"
tap_eq "example: apply changes the host (exit 2)" 2 "$rc"
[[ $rc -eq 2 ]] || printf '%s\n' "$out" | sed 's/^/#   /'
tap_ok "example: says that only new QPs get it (warning cc-new-qps-only)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = [x for x in (d["host_notes"] + [x for v in d["devices"] for x in v["notes"]]) if x["code"] == "cc-new-qps-only"]
assert n and n[0]["severity"] == "warning" and "new QPs only" in n[0]["message"], d
' "$W/ex.json"
tap_eq "example: no group left behind" 0 "$(groups)"
tap_eq "example: one write" 1 "$(writes)"
tap_eq "example: roce_dcqcn_enable reads 1 (cat)" 1 "$(peek roce_dcqcn_enable)"
w0=$(writes)
"$RT" apply "$EX" > /dev/null; rc=$?
tap_eq "example: second apply exits 0 (no change)" 0 "$rc"
tap_eq "example: no write the second time, no group left" "$w0 0" "$(writes) $(groups)"

# ------------------------------------------------------------- failures
fault_case() {	# DESC KNOBS WHY
	local desc=$1 knobs=$2 why=$3 rc k
	fresh
	for k in $knobs; do echo "${k#*=}" > "$FAULT/${k%%=*}"; done
	out=$("$RT" --json apply "$EX"); rc=$?
	printf '%s' "$out" > "$W/fault.json"
	fault_reset "$FAULT"
	tap_eq "$desc: apply fails and rolls back (exit 1)" 1 "$rc"
	tap_ok "$desc: the error says why (...$why...)" grep -q -- "$why" "$W/fault.json"
	tap_eq "$desc: no group left behind, roce_dcqcn_enable still 0" "0 0" \
		"$(groups) $(peek roce_dcqcn_enable)"
}
fault_case "refused write (EINVAL)" "fail_errno=22 fail_after=0 fail_sticky=1" "Invalid argument"
fault_case "silently ignored write" "ignore_writes=1" \
	"read-back: roce_dcqcn_enable reads 0 after writing 1"

# ---------------------------------------------------------- unsupported
unsupported() {	# DESC KEY=VALUE WHY
	local desc=$1 kv=$2 why=$3 w0 rc
	fresh
	w0=$(writes)
	printf '[match]\nrdma_device = rxe0\n[cc]\nrp_enabled_prios = 0-7\n%s\n' "$kv" > "$W/u.conf"
	out=$("$RT" --json apply "$W/u.conf"); rc=$?
	printf '%s' "$out" > "$W/u.json"
	tap_eq "$desc: refused (exit 1)" 1 "$rc"
	tap_ok "$desc: error cc-unsupported naming the parameter and why" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = [x for x in (d["host_notes"] + [x for v in d["devices"] for x in v["notes"]]) if x["severity"] == "error"]
assert n and n[0]["code"] == "cc-unsupported", n
assert sys.argv[2] in n[0]["message"] and sys.argv[3] in n[0]["message"], n[0]
' "$W/u.json" "${kv%% *}" "$why"
	tap_eq "$desc: no write, no group, DCQCN still off" "$w0 0 0" \
		"$(writes) $(groups) $(peek roce_dcqcn_enable)"
}
unsupported "a DCQCN module parameter (rp_fast_recovery_stages)" \
	"rp_fast_recovery_stages = 5" "needs a reload"
unsupported "another (rp_rate_increase_timer_us)" "rp_rate_increase_timer_us = 55" "dcqcn_T"
printf '[match]\nrdma_device = rxe0\n[cc]\nrp_enabled_prios = 3\n' > "$W/p3.conf"
"$RT" apply "$W/p3.conf" > "$W/p3.out" 2>&1; rc=$?
tap_eq "one priority only: refused (exit 1)" 1 "$rc"
tap_ok "one priority only: says there is one switch" grep -q "one switch for every priority" "$W/p3.out"

# ---------------------------------------------------------- the user's group
fresh
mkdir "$GRP"
"$RT" apply "$EX" > /dev/null; rc=$?
tap_eq "a group the user made: apply works (exit 2)" 2 "$rc"
tap_ok "a group the user made: left in place" test -d "$GRP"
tap_eq "a group the user made: the value through it" 1 "$(cat "$GRP/roce_dcqcn_enable")"
rmdir "$GRP"

# ---------------------------------------------------------- a killed apply
fresh
echo 3000 > "$FAULT/delay_ms"
"$RT" apply "$EX" > /dev/null 2>&1 &
pid=$!
# the write is counted when it begins, then takes 3 s
for _ in $(seq 100); do [[ $(writes) == 1 ]] && break; sleep 0.1; done
kill -9 "$pid"; wait "$pid" 2>/dev/null
echo 0 > "$FAULT/delay_ms"
tap_eq "killed apply (SIGKILL in a write): its group is left behind" 1 "$(groups)"
"$RT" show dev rxe0 > /dev/null
tap_eq "killed apply: the next rocetune removes it (its stamp's process is gone)" 0 "$(groups)"
tap_notok "killed apply: no stamp left" sh -c "ls '$ROCETUNE_STATE_DIR' | grep -q cfs-group"

# --------------------------------------------- load-time module parameters
# /sys/module/irdma/parameters as irdma 1.14.33 prints them (bool Y/N,
# the rest decimal); ROCETUNE_TEST_SYSFS_MODULE stands for /sys/module.
MOD=$W/sysmodule
lt_params() {	# DCQCN_ENABLE
	local kv
	rm -rf "$MOD" && mkdir -p "$MOD/irdma/parameters" || return 1
	for kv in "dcqcn_enable $1" "dcqcn_cc_cfg_valid N" "dcqcn_min_dec_factor 1" \
		"dcqcn_min_rate_MBps 0" "dcqcn_F 5" "dcqcn_T 55" "dcqcn_B 150000" \
		"dcqcn_rai_factor 1" "dcqcn_hai_factor 5" "dcqcn_rreduce_mperiod 50"; do
		echo "${kv#* }" > "$MOD/irdma/parameters/${kv%% *}"
	done
}
# notes JSON CODE...: the warning codes of a diff's JSON, sorted, one line
notes() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(x["code"] for x in d["host_notes"] + [x for v in d["devices"] for x in v["notes"]]
                      if x["code"] in ("cc-not-persistent", "cc-firmware-defaults", "cc-persistent-unknown"))))
' "$1"
}
export ROCETUNE_TEST_SYSFS_MODULE=$MOD
fresh
lt_params N
"$RT" apply "$EX" > /dev/null
"$RT" --json show dev rxe0 > "$W/lt.json"
tap_ok "load-time: show --json gives irdma's parameters and the live switch that differs" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
lt = [s for s in d["state"] if s["rdma_device"] == "rxe0"][0]["cc"]["load_time"]
assert lt["error"] is None and lt["params"]["dcqcn_enable"] is False, lt
assert lt["params"]["dcqcn_B"] == 150000 and len(lt["params"]) == 10, lt
assert lt["differs"] == [{"file": "roce_dcqcn_enable", "live": 1, "param": "dcqcn_enable",
                          "load_time": False}], lt
assert lt["dcqcn_params_used"] is False, lt
' "$W/lt.json"
"$RT" --json diff "$EX" > "$W/ltd.json"; rc=$?
tap_eq "load-time: diff after the apply: nothing to do (exit 0)" 0 "$rc"
tap_eq "load-time: loaded without dcqcn_enable: live only, on the firmware's defaults" \
	"cc-firmware-defaults cc-not-persistent" "$(notes "$W/ltd.json")"
lt_params Y
"$RT" --json diff "$EX" > "$W/ltd.json"
tap_eq "load-time: loaded with dcqcn_enable: nothing to warn about" "" "$(notes "$W/ltd.json")"
echo junk > "$MOD/irdma/parameters/dcqcn_enable"
fresh
"$RT" --json diff "$EX" > "$W/ltd.json"
tap_eq "load-time: a dcqcn_enable that is no bool: the change's future unknown, said" \
	"cc-persistent-unknown" "$(notes "$W/ltd.json")"
tap_eq "load-time: these reads leave no group, write nothing" "0 0" "$(groups) $(writes)"
unset ROCETUNE_TEST_SYSFS_MODULE

# ------------------------------------------------------------- show
fresh
tap_ok "show names the surface" sh -c "'$RT' show dev rxe0 | grep -q 'cc (irdma-configfs)'"
tap_eq "show leaves no group" 0 "$(groups)"

echo "irdma rxe0" > "$ROOT/del_device"
hwsim_done
tap_ok "a clean kernel log" sh -c "! dmesg | grep -E 'BUG|WARNING|Oops|rocetune_hwsim.*(leak|error)'"
tap_done
