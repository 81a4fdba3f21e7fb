#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dcbsim's debugfs fault injection, one guest:
#   fail_next_<kind>  the next set of <kind> fails with that errno, once
#   ignore_<kind>     sets of <kind> succeed but store nothing
#   calls_<kind>      set calls that reached the driver
#   sets_<kind>       set calls that changed the state
#   dcbx_mode         host or lld: the DCBX mode getdcbx reports
# Errors are read with dcbnl.py, which reports the driver's errno.
#
# Run as root in a lab guest: selftests/dcbsim/run.sh does it.

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ds_require

D=dcbsim0
cleanup() { ds_loaded && ds_unload; }
trap cleanup EXIT

ds_load && ip link add $D type dcbsim || tap_bail "cannot create $D"

# The optional kinds, from the loaded module's features (the file exists
# only once it is loaded: read before, apptrust and rewr were never tested).
KINDS="ets pfc app maxrate buffer dcbx"
grep -qsx apptrust "$DS_DBG/features" && KINDS+=" apptrust"
grep -qsx rewr "$DS_DBG/features" && KINDS+=" rewr"
nkinds=$(wc -w <<<"$KINDS")

tap_plan $((3 * nkinds + 27))

# A valid set of each kind that changes the default state.
valid_set() {
	case $1 in
	ets) echo "set $D ets tc_tsa=2,2,0,0,0,0,0,0 tc_tx_bw=50,50,0,0,0,0,0,0" ;;
	pfc) echo "set $D pfc pfc_en=0x08" ;;
	app) echo "app-add $D dscp:26:3" ;;
	maxrate) echo "set $D maxrate tc_maxrate=1000,0,0,0,0,0,0,0" ;;
	buffer) echo "set $D buffer buffer_size=1000,0,0,0,0,0,0,0" ;;
	dcbx) echo "dcbx $D 0x19" ;;
	apptrust) echo "apptrust $D dscp" ;;
	rewr) echo "rewr-add $D dscp:3:26" ;;
	esac
}

# --- fail_next_<kind>, for every kind ---------------------------------------
for k in $KINDS; do
	# shellcheck disable=SC2046 # valid_set prints words on purpose
	set -- $(valid_set $k)
	want=EIO
	[ $k = dcbx ] && want=REFUSED	# setdcbx returns a u8, not an errno

	before=$(dcbnl show $D)
	calls=$(ds_read $D calls_$k) sets=$(ds_read $D sets_$k)
	ds_write $D fail_next_$k 5
	got=$(ds_errno "$@")
	after=$(dcbnl show $D)
	if [ "$got" != $want ]; then
		tap_fail "fail_next_$k=5: the next $k set fails with $want" "got $got"
	elif [ "$before" != "$after" ]; then
		tap_fail "fail_next_$k=5: the next $k set fails with $want" \
			"state changed: $before -> $after"
	else
		tap_pass "fail_next_$k=5: the next $k set fails with $want, nothing stored"
	fi
	tap_eq "fail_next_$k is back to 0; calls_$k +1, sets_$k +0" \
		"0 $((calls + 1)) $sets" \
		"$(ds_read $D fail_next_$k) $(ds_read $D calls_$k) $(ds_read $D sets_$k)"

	got=$(ds_errno "$@")
	after2=$(dcbnl show $D)
	if [ "$got" != OK ] || [ "$after2" = "$after" ] ||
	   [ "$(ds_read $D sets_$k)" != $((sets + 1)) ]; then
		tap_fail "the following $k set succeeds and is stored" \
			"got $got, sets_$k $(ds_read $D sets_$k), state $after2"
	else
		tap_pass "the following $k set succeeds and is stored (sets_$k +1)"
	fi
done

# --- fail_next details ------------------------------------------------------
ds_write $D fail_next_pfc 16
tap_eq "fail_next_pfc=16 fails the set with EBUSY" EBUSY \
	"$(ds_errno set $D pfc pfc_en=0x10)"
tap_notok "fail_next above MAX_ERRNO (4096) refused" ds_write $D fail_next_pfc 4096
tap_eq "... and the knob is unchanged" 0 "$(ds_read $D fail_next_pfc)"

ds_write $D fail_next_pfc 5
tap_eq "an armed fail_next_pfc does not touch ETS sets" OK \
	"$(ds_errno set $D ets tc_tx_bw=40,60,0,0,0,0,0,0)"
tap_eq "... and stays armed" 5 "$(ds_read $D fail_next_pfc)"
# Input checks come first: a set the driver rejects never reaches the
# (simulated) hardware, so it does not use up the armed failure.
tap_eq "invalid input still gets EINVAL with a failure armed" EINVAL \
	"$(ds_errno set $D pfc mbc=2)"
tap_eq "... the failure stays armed for the next valid set" "5 EIO 0" \
	"$(ds_read $D fail_next_pfc) $(ds_errno set $D pfc pfc_en=0x10) $(ds_read $D fail_next_pfc)"

# iproute2 6.1's dcb may report success here (an ACK left in its socket
# buffer hides the error); shown for information, not checked.
ds_write $D fail_next_pfc 5
dcb_write pfc set dev $D prio-pfc 6:on >/dev/null 2>&1
tap_diag "dcb pfc set with fail_next_pfc armed: exit status $?," \
	"knob now $(ds_read $D fail_next_pfc)"

# --- ignore_<kind> -----------------------------------------------------------
pfc_en=$(ds_get $D pfc.pfc_en)
calls=$(ds_read $D calls_pfc) sets=$(ds_read $D sets_pfc)
tap_ok "ignore_pfc=Y" ds_write $D ignore_pfc Y
# The set's status comes from dcbnl.py: iproute2 6.1's dcb can report
# success for a set that failed.
tap_eq "a set turning prio 5 on reports success" OK \
	"$(ds_errno set $D pfc pfc_en=$((pfc_en | 0x20)))"
tap_eq "... but dcb pfc show reads back prio 5 off" False \
	"$(dcb -j pfc show dev $D | python3 -c 'import json,sys; print(json.load(sys.stdin)["prio_pfc"][5])')"
tap_eq "... raw read: pfc_en unchanged" "$pfc_en" "$(ds_get $D pfc.pfc_en)"
tap_eq "... calls_pfc +1, sets_pfc +0" "$((calls + 1)) $sets" \
	"$(ds_read $D calls_pfc) $(ds_read $D sets_pfc)"
tap_eq "invalid input is still rejected while ignored" EINVAL \
	"$(ds_errno set $D pfc mbc=2)"
ds_write $D ignore_pfc N
tap_ok "ignore_pfc=N: dcb pfc set dev $D prio-pfc 5:on" \
	dcb_write pfc set dev $D prio-pfc 5:on
tap_eq "... is stored" $((pfc_en | 0x20)) "$(ds_get $D pfc.pfc_en)"

ds_write $D ignore_app Y
tap_eq "ignore_app=Y: app-add dscp 10 succeeds" OK "$(ds_errno app-add $D dscp:10:1)"
tap_eq "... but the APP table lacks it" "" \
	"$(ds_get $D app | grep -o '\[5, 10, 1\]')"
ds_write $D ignore_app N

# --- calls_<kind> and sets_<kind> -------------------------------------------
tap_ok "counters can be reset" \
	bash -c "printf 0 >$(ds_knob $D calls_pfc) && printf 0 >$(ds_knob $D sets_pfc)"
dcb_write pfc set dev $D prio-pfc 2:on
dcb_write pfc set dev $D prio-pfc 2:on
tap_eq "dcb pfc set twice with the same value: calls_pfc 2, sets_pfc 1" "2 1" \
	"$(ds_read $D calls_pfc) $(ds_read $D sets_pfc)"
calls=$(ds_read $D calls_app) sets=$(ds_read $D sets_app)
dcb_write app add dev $D dscp-prio 34:4
dcb_write app add dev $D dscp-prio 34:4 2>/dev/null
dcb_write app del dev $D dscp-prio 34:4
tap_eq "app add, add again (EEXIST), del: calls_app +3, sets_app +2" \
	"$((calls + 3)) $((sets + 2))" \
	"$(ds_read $D calls_app) $(ds_read $D sets_app)"

# --- dcbx_mode ---------------------------------------------------------------
# DCB_CAP_DCBX_HOST 0x01, LLD_MANAGED 0x02, VER_IEEE 0x08 (stored mode now
# 0x19 = static, IEEE, host, from the dcbx sets above)
m=$(ds_get $D dcbx)
tap_eq "dcbx_mode is host by default; getdcbx reports the host bit" \
	"host 1 0" "$(ds_read $D dcbx_mode) $((m & 1)) $((m & 2))"
tap_ok "dcbx_mode=lld" ds_write $D dcbx_mode lld
tap_eq "... getdcbx reports LLD-managed instead of host, the rest as stored" \
	"lld $(((m & ~1) | 2))" "$(ds_read $D dcbx_mode) $(ds_get $D dcbx)"
tap_notok "dcbx_mode takes only host or lld" ds_write $D dcbx_mode firmware
tap_ok "dcbx_mode=host" ds_write $D dcbx_mode host
tap_eq "... getdcbx reports the stored mode again" \
	"host $m" "$(ds_read $D dcbx_mode) $(ds_get $D dcbx)"

tap_ok "no warnings in the kernel log" kernel_log_clean
tap_done
