#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rocetune_dcbsim's devlink instance and `rocetune apply`'s [devlink], one
# guest: iproute2's `devlink` (Debian 12: 6.1) and the tool read the same
# enable_roce and enable_iwarp; apply writes enable_roce's driverinit
# value and says it needs a reload, a second apply writes nothing, the
# value takes effect on `devlink dev reload`, which is refused while a
# dcbsim netdev holds a port and re-creates the ports (as a NIC's driver
# must: from 6.7 the core WARNs otherwise); runtime enable_iwarp applies
# at once; injected refusals and silently ignored writes roll back; the
# port function's roce capability is applied where the kernel has it and
# refused with a clear error where it does not; the node test
# selftests/hwnode/devlink-roce.sh passes on the device, and fails when the
# driver refuses the write; rmmod leaves a clean log.
#
# Run as root in a lab guest (selftests/run_tests.sh devlink, or lab-run
# --script 1=selftests/dcbsim/devlink.sh).

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=../lib/apply-json.sh
. "$(dirname "$0")/../lib/apply-json.sh"

ds_require
command -v devlink >/dev/null || tap_skip_all "iproute2 devlink missing"
RT=$RTUNE_TOOL
[ -x "$RT" ] || tap_skip_all "the rocetune tool is not built ($RT)"
grep -qsx devlink "$DS_DBG/features" 2>/dev/null ||
	{ ds_load && grep -qsx devlink "$DS_DBG/features"; } ||
	tap_skip_all "this kernel has no devlink_alloc() with a device (5.15+): no devlink instance"
ds_loaded && ds_unload

D=dcbsim0
DL=platform/rocetune_dcbsim
KN=$DS_DBG/devlink
TMP=$(mktemp -d)
cleanup() { ds_loaded && ds_unload; rm -rf "$TMP"; }
trap cleanup EXIT

tap_plan 35

ds_load && ip link add $D type dcbsim || tap_bail "cannot create $D"

# iproute2's value of parameter $1 in cmode $2: true, false or none.
ipr() {
	devlink -j dev param show $DL name "$1" 2>/dev/null | python3 -c '
import json, sys
cm = sys.argv[1]
try:
    d = json.load(sys.stdin)["param"]
except (ValueError, KeyError):
    print("none"); sys.exit()
for ps in d.values():
    for p in ps:
        for v in p.get("values", []):
            if v.get("cmode") == cm:
                print("true" if v.get("value") else "false"); sys.exit()
print("none")' "$2"
}

# The tool's value: devlink.$1.$2 of `rocetune -j show dev $D`.
tool() {
	"$RT" -j show dev $D 2>/dev/null | python3 -c '
import json, sys
def find(o):
    if isinstance(o, dict):
        if isinstance(o.get("devlink"), dict):
            return o["devlink"]
        for v in o.values():
            r = find(v)
            if r is not None:
                return r
    if isinstance(o, list):
        for v in o:
            r = find(v)
            if r is not None:
                return r
    return None
dl = find(json.load(sys.stdin)) or {}
v = dl
for k in sys.argv[1:]:
    v = v.get(k) if isinstance(v, dict) else None
print("none" if v is None else str(v).lower())' "$@"
}

profile() {	# profile NAME KEY=VALUE...: a [devlink] profile for $D
	local f=$TMP/$1.conf kv
	shift
	printf '[match]\nnetdev = %s\n[devlink]\n' $D >"$f"
	for kv in "$@"; do
		case $kv in
		pfc=*) printf '[pfc]\npriorities = %s\n' "${kv#pfc=}" >>"$f" ;;
		*) printf '%s = %s\n' "${kv%%=*}" "${kv#*=}" >>"$f" ;;
		esac
	done
	echo "$f"
}

apply() {	# apply OUT PROFILE: rocetune -j apply, JSON to OUT; its exit status
	"$RT" -j apply "$2" >"$1" 2>/dev/null
}

# reload: `devlink dev reload` as an operator of a NIC sees it: the netdev
# goes (here: deleted first, dcbsim cannot re-create it) and comes back,
# its port free again. The status is devlink's.
reload() {
	local rc
	ip link del $D || return 1
	devlink dev reload $DL
	rc=$?
	ip link add $D type dcbsim || return 1
	return $rc
}

# --- the instance, as iproute2 and the tool see it -------------------------
tap_ok "devlink dev show lists $DL" sh -c "devlink dev show | grep -qx $DL"
# Before 6.2 dcbsim ties the netdev to its port from a work item.
tap_ok "devlink port show: a port of $DL has netdev $D" \
	wait_for sh -c "devlink port show | grep -q '^$DL/[0-9]*: type eth netdev $D '"
tap_eq "enable_roce runtime: tool agrees with iproute2" "$(ipr enable_roce runtime)" \
	"$(tool enable_roce runtime)"
tap_eq "enable_roce driverinit: tool agrees with iproute2" "$(ipr enable_roce driverinit)" \
	"$(tool enable_roce driverinit)"
tap_eq "enable_iwarp runtime: tool agrees with iproute2 (false)" "false false" \
	"$(ipr enable_iwarp runtime) $(tool enable_iwarp runtime)"

# --- driverinit: written, reported as needing a reload, applied on reload ---
off=$(profile off enable_roce=false)
"$RT" -j diff "$off" >"$TMP/diff.json" 2>/dev/null
tap_eq "diff: one change, reported as needing a reload" "1 yes" \
	"$(rtune_jget "$TMP/diff.json" actions) $(rtune_jget "$TMP/diff.json" has:devlink-reload)"
apply "$TMP/a1.json" "$off"; rc=$?
# apply exits 2 when it made changes, 0 when nothing needed changing
tap_eq "apply enable_roce=false: exit 2 (changed), one write" "2 1" "$rc $(rtune_jget "$TMP/a1.json" writes)"
tap_eq "driverinit is false, runtime still true (iproute2)" "false true" \
	"$(ipr enable_roce driverinit) $(ipr enable_roce runtime)"
tap_eq "apply says the change needs devlink dev reload" yes "$(rtune_jget "$TMP/a1.json" has:devlink-reload)"
apply "$TMP/a2.json" "$off"; rc=$?
tap_eq "re-apply: exit 0, no write, reload still pending" "0 0 yes" \
	"$rc $(rtune_jget "$TMP/a2.json" writes) $(rtune_jget "$TMP/a2.json" has:devlink-reload)"
tap_notok "devlink dev reload while $D holds a port: refused" devlink dev reload $DL
tap_eq "... RoCE still on, $D still on its port" "true yes" \
	"$(ipr enable_roce runtime) $(devlink port show | grep -q " netdev $D " && echo yes)"
tap_ok "$D deleted, devlink dev reload $DL, $D made again" reload
tap_eq "the reload re-created the 4 ports, $D on one of them" "4 yes" \
	"$(devlink port show | grep -c "^$DL/") $(wait_for sh -c "devlink port show | grep -q ' netdev $D '" && echo yes)"
tap_eq "after the reload RoCE is off (iproute2 and tool)" "false false" \
	"$(ipr enable_roce runtime) $(tool enable_roce runtime)"
apply "$TMP/a3.json" "$off"
tap_eq "after the reload: no write, no reload note" "0 no" \
	"$(rtune_jget "$TMP/a3.json" writes) $(rtune_jget "$TMP/a3.json" has:devlink-reload)"

# --- runtime enable_iwarp: silently ignored, then applied ------------------
iw=$(profile iw enable_roce=false enable_iwarp=true)
echo Y >"$KN/ignore_param"
apply "$TMP/a4.json" "$iw"; rc=$?
echo N >"$KN/ignore_param"
tap_eq "an ignored enable_iwarp write is caught by the read-back (exit != 0)" "fail false" \
	"$([ $rc -ne 0 ] && echo fail || echo ok) $(ipr enable_iwarp runtime)"
apply "$TMP/a5.json" "$iw"; rc=$?
tap_eq "apply enable_iwarp=true: exit 2, runtime true at once, no reload" "2 true no" \
	"$rc $(ipr enable_iwarp runtime) $(rtune_jget "$TMP/a5.json" has:devlink-reload)"
on=$(profile on enable_roce=true enable_iwarp=false)
apply "$TMP/a6.json" "$on"; rc=$?
tap_eq "back to RoCE: iWARP off at once, enable_roce driverinit true" "2 false true" \
	"$rc $(ipr enable_iwarp runtime) $(ipr enable_roce driverinit)"
reload >/dev/null 2>&1
tap_eq "after a reload RoCE is on again" true "$(ipr enable_roce runtime)"

# --- refusals roll back -----------------------------------------------------
calls=$(cat "$KN/calls_param")
echo 95 >"$KN/fail_next_param"	# EOPNOTSUPP
apply "$TMP/a7.json" "$off"; rc=$?
tap_eq "a refused enable_roce write: exit != 0, driverinit unchanged" "fail true" \
	"$([ $rc -ne 0 ] && echo fail || echo ok) $(ipr enable_roce driverinit)"
tap_eq "the refused write reached the driver once" $((calls + 1)) "$(cat "$KN/calls_param")"
ifi=$(cat /sys/class/net/$D/ifindex)
echo 5 >"$DS_DBG/$ifi/fail_next_pfc"
both=$(profile both enable_roce=false pfc=3)
apply "$TMP/a8.json" "$both"; rc=$?
tap_eq "enable_roce written, then PFC refused: exit != 0" fail \
	"$([ $rc -ne 0 ] && echo fail || echo ok)"
tap_eq "rollback restored enable_roce driverinit true" true "$(ipr enable_roce driverinit)"
tap_eq "the rollback's one action restored enable_roce" devlink-roce=restored \
	"$(rtune_jget "$TMP/a8.json" rb:)"
echo 95 >"$KN/fail_next_reload"
tap_notok "an injected reload failure fails devlink dev reload" reload
tap_eq "... and leaves the 4 ports registered" 4 "$(devlink port show | grep -c "^$DL/")"

# --- the port function's roce capability -----------------------------------
fn=$(profile fn port_fn_roce=false)
if grep -qsx devlink_port_fn_roce "$DS_DBG/features"; then
	apply "$TMP/a9.json" "$fn"; rc=$?
	# exit 2: changed (the capability was on)
	tap_eq "port_fn_roce=false applies: exit 2, read back false" "2 false" "$rc $(tool port_fn_roce)"
	apply "$TMP/a10.json" "$fn"
	tap_eq "re-apply port_fn_roce: no write" 0 "$(rtune_jget "$TMP/a10.json" writes)"
else
	apply "$TMP/a9.json" "$fn"; rc=$?
	tap_eq "no port function caps in this kernel: clear error, nothing written" \
		"fail yes 0" "$([ $rc -ne 0 ] && echo fail || echo ok) $(rtune_jget "$TMP/a9.json" has:no-port-fn-roce) $(rtune_jget "$TMP/a9.json" writes)"
	tap_skip "re-apply port_fn_roce" "the kernel has no DEVLINK_PORT_FN_CAP_ROCE (before 6.5 for dcbsim)"
fi

# --- the node test, on dcbsim ------------------------------------------------
# selftests/hwnode/devlink-roce.sh as an operator runs it, against $D.
HWNODE=$(dirname "$0")/../hwnode/devlink-roce.sh
# ipr_all: every enable_roce/enable_iwarp value iproute2 reads
ipr_all() { echo "$(ipr enable_roce runtime) $(ipr enable_roce driverinit) $(ipr enable_iwarp runtime)"; }
# counts OUT: "passed skipped failed" of a TAP output
counts() {
	echo "$(grep -c '^ok [0-9]* [^#]*$' <<<"$1") $(grep -c '^ok .*# SKIP' <<<"$1") $(grep -c '^not ok ' <<<"$1")"
}
if [[ -x $HWNODE ]]; then
	before=$(ipr_all)
	out=$(HWNODE_CHANGE=1 "$HWNODE" $D 2>&1); rc=$?
	tap_eq "devlink-roce.sh $D, HWNODE_CHANGE=1: exit 0, 6 passed" "0 6 0 0" "$rc $(counts "$out")"
	[[ $rc -eq 0 ]] || sed 's/^/#   /' <<<"$out"
	tap_eq "... and every value iproute2 reads is as before" "$before" "$(ipr_all)"
	out=$("$HWNODE" $D 2>&1); rc=$?
	tap_eq "without HWNODE_CHANGE: 4 passed, the 2 changes skipped" "0 4 2 0" "$rc $(counts "$out")"
	# (a driverinit value is the devlink core's to keep: ignore_param,
	# which acts in the driver's set op, cannot touch it; its validate op
	# can refuse it)
	echo 95 >"$KN/fail_next_param"
	out=$(HWNODE_CHANGE=1 "$HWNODE" $D 2>&1); rc=$?
	echo 0 >"$KN/fail_next_param"
	tap_eq "a driver refusing the write fails it (check 5), nothing changed" \
		"fail yes $before" \
		"$([ $rc -ne 0 ] && echo fail || echo ok) $(grep -q '^not ok 5 ' <<<"$out" && echo yes) $(ipr_all)"
else
	for t in "6 passed" "as before" "changes skipped" "refused write"; do
		tap_skip "devlink-roce.sh: $t" "no selftests/hwnode/ beside this suite (installed tests)"
	done
fi

# --- teardown ---------------------------------------------------------------
ip link del $D
tap_ok "rmmod with the devlink instance registered" ds_unload
tap_ok "kernel log clean" kernel_log_clean
tap_done
