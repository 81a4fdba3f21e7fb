#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dcbsim's IEEE dcbnl ops, one guest: what iproute2's dcb sets is what it
# reads back (and what the raw dcbnl client reads back: a second reader);
# invalid input is rejected with EINVAL and leaves the state unchanged.
#
# Invalid input goes through dcbnl.py, because dcb refuses some of it
# before it reaches the kernel (e.g. ETS bandwidths that do not sum to 100),
# which would make those checks pass without testing the driver.
#
# Run as root in a lab guest: selftests/dcbsim/run.sh does it.

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ds_require

D=dcbsim0
cleanup() { ds_loaded && ds_unload; }
trap cleanup EXIT

tap_plan 66

ds_load && ip link add $D type dcbsim || tap_bail "cannot create $D"

# dcb_json OBJ EXPR: evaluate the Python expression EXPR on the JSON object
# `dcb -j OBJ show dev $D` prints (bound to j).
dcb_json() {
	dcb -j "$1" show dev $D |
		python3 -c "import json, sys; j = json.load(sys.stdin); print($2)"
}

# t_rejected DESC EXPECTED-ERRNO DCBNL-ARGS...: the set fails with the
# expected errno and the whole DCB state is unchanged.
t_rejected() {
	local desc=$1 want=$2 before after got
	shift 2
	before=$(dcbnl show $D)
	got=$(ds_errno "$@")
	after=$(dcbnl show $D)
	if [ "$got" != "$want" ]; then
		tap_fail "$desc" "expected $want, got $got"
	elif [ "$before" != "$after" ]; then
		tap_fail "$desc" "state changed: $before -> $after"
	else
		tap_pass "$desc"
	fi
}

# --- PFC -------------------------------------------------------------------
tap_eq "PFC default: nothing enabled" 0 "$(ds_get $D pfc.pfc_en)"
tap_ok "dcb pfc set dev $D prio-pfc 3:on" dcb_write pfc set dev $D prio-pfc 3:on
tap_eq "dcb pfc show reads back prio 3 only" \
	"[False, False, False, True, False, False, False, False]" \
	"$(dcb_json pfc 'j["prio_pfc"]')"
tap_eq "raw read: pfc_en is 0x08" 8 "$(ds_get $D pfc.pfc_en)"
tap_ok "dcb pfc set dev $D delay 4096" dcb_write pfc set dev $D delay 4096
tap_eq "dcb pfc show reads back delay 4096, prio 3 kept" "4096 True" \
	"$(dcb_json pfc 'j["delay"], j["prio_pfc"][3]' | tr -d '(),')"
tap_eq "pfc_cap is the device's (8)" 8 "$(dcb_json pfc 'j["pfc_cap"]')"
tap_ok "raw set with pfc_cap 1: accepted, the device keeps its own cap" \
	dcbnl set $D pfc pfc_cap=1 pfc_en=0x18
tap_eq "... pfc_cap still 8, pfc_en 0x18" "8 24" \
	"$(ds_get $D pfc.pfc_cap) $(ds_get $D pfc.pfc_en)"
t_rejected "PFC mbc 2 rejected" EINVAL set $D pfc mbc=2

# pfc_cap (a debugfs knob) bounds how many priorities may have PFC at once.
tap_ok "pfc_cap knob set to 2" ds_write $D pfc_cap 2
t_rejected "PFC on 3 priorities with pfc_cap 2 rejected" EINVAL \
	set $D pfc pfc_en=0x07
tap_ok "PFC on 2 priorities with pfc_cap 2 accepted" \
	dcbnl set $D pfc pfc_en=0x09
tap_notok "pfc_cap below the enabled count refused" ds_write $D pfc_cap 1
tap_ok "pfc_cap knob back to 8" ds_write $D pfc_cap 8

# --- ETS -------------------------------------------------------------------
tap_ok "dcb ets set: TC0/TC1 ETS 60/40, prio 3 -> TC1" \
	dcb_write ets set dev $D tc-tsa all:strict 0:ets 1:ets tc-bw all:0 0:60 1:40 \
		prio-tc all:0 3:1
tap_eq "dcb ets show reads back tc-bw" "[60, 40, 0, 0, 0, 0, 0, 0]" \
	"$(dcb_json ets 'j["tc_bw"]')"
tap_eq "dcb ets show reads back tc-tsa" \
	"['ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict']" \
	"$(dcb_json ets 'j["tc_tsa"]')"
tap_eq "raw read: prio_tc" "0 0 0 1 0 0 0 0" "$(ds_get $D ets.prio_tc)"
t_rejected "ETS bandwidths summing to 90 rejected" EINVAL \
	set $D ets tc_tx_bw=50,40,0,0,0,0,0,0
t_rejected "ETS bandwidths summing to 110 rejected" EINVAL \
	set $D ets tc_tx_bw=70,40,0,0,0,0,0,0
t_rejected "ETS bandwidth on a strict TC rejected (ETS TCs sum to 100)" \
	EINVAL set $D ets tc_tx_bw=60,40,10,0,0,0,0,0
t_rejected "ETS unknown TSA 3 rejected" EINVAL \
	set $D ets tc_tsa=2,2,3,0,0,0,0,0
t_rejected "ETS priority mapped to TC 8 rejected" EINVAL \
	set $D ets prio_tc=0,0,0,8,0,0,0,0
t_rejected "ETS recommendation summing to 50 rejected" EINVAL \
	set $D ets tc_reco_tsa=2,0,0,0,0,0,0,0 tc_reco_bw=50,0,0,0,0,0,0,0
t_rejected "ETS willing 2 rejected" EINVAL set $D ets willing=2
tap_ok "ETS all strict, no bandwidth: accepted" \
	dcbnl set $D ets tc_tsa=0,0,0,0,0,0,0,0 tc_tx_bw=0,0,0,0,0,0,0,0
tap_eq "raw read: ets_cap is the device's (8)" 8 "$(ds_get $D ets.ets_cap)"

# --- APP, with DSCP --------------------------------------------------------
tap_ok "dcb app add dev $D dscp-prio 26:3" dcb_write app add dev $D dscp-prio 26:3
tap_eq "dcb app show reads it back" "dscp-prio AF31:3" \
	"$(dcb app show dev $D dscp-prio | sed 's/ *$//')"
tap_eq "raw read: one DSCP entry (selector 5, 26, prio 3)" "[5, 26, 3]" \
	"$(ds_get $D app)"
tap_eq "adding it again: EEXIST" EEXIST "$(ds_errno app-add $D dscp:26:3)"
tap_ok "two entries in one message" dcbnl app-add $D dscp:46:5 dgram:4791:3
tap_eq "raw read: three entries" 3 "$(ds_get $D app | wc -w | awk '{print $1 / 3}')"
tap_ok "dcb app del dev $D dscp-prio 26:3" dcb_write app del dev $D dscp-prio 26:3
tap_eq "dcb app show no longer lists it" "" \
	"$(dcb app show dev $D dscp-prio | grep -o '\bAF31:3')"
tap_eq "deleting it again: ENOENT" ENOENT "$(ds_errno app-del $D dscp:26:3)"
t_rejected "APP DSCP 64 rejected" EINVAL app-add $D dscp:64:3
t_rejected "APP priority 8 rejected" EINVAL app-add $D dscp:10:8
t_rejected "APP selector 0 rejected" EINVAL app-add $D 0:10:1
t_rejected "APP EtherType below 0x600 rejected" EINVAL app-add $D ethtype:0x5ff:1

# --- max rate (kbit/s), buffers ----------------------------------------------
tap_ok "dcb maxrate set dev $D tc-maxrate 0:10gbit 3:1gbit" \
	dcb_write maxrate set dev $D tc-maxrate 0:10gbit 3:1gbit
tap_eq "dcb maxrate show reads it back" \
	"tc-maxrate 0:10Gbit 1:0bit 2:0bit 3:1Gbit 4:0bit 5:0bit 6:0bit 7:0bit" \
	"$(dcb maxrate show dev $D | sed 's/ *$//')"
tap_ok "raw maxrate set (kbit/s)" \
	dcbnl set $D maxrate tc_maxrate=25000000,0,0,100000,0,0,0,0
tap_eq "raw read: exact values" "25000000 0 0 100000 0 0 0 0" \
	"$(ds_get $D maxrate.tc_maxrate)"

tap_ok "dcb buffer set: prio 3 -> buffer 1, 100K and 200K" \
	dcb_write buffer set dev $D prio-buffer all:0 3:1 buffer-size 0:100K 1:200K
tap_eq "raw read: buffer sizes, total_size unchanged" \
	"102400 204800 0 0 0 0 0 0/1048576" \
	"$(ds_get $D buffer.buffer_size)/$(ds_get $D buffer.total_size)"
t_rejected "buffer sizes above total_size rejected" EINVAL \
	set $D buffer buffer_size=524288,524289,0,0,0,0,0,0

# --- DCBX, APP trust --------------------------------------------------------
tap_eq "dcb dcbx show: host ieee" "host ieee" \
	"$(dcb dcbx show dev $D | sed 's/ *$//')"
tap_ok "dcb dcbx set dev $D host ieee static" dcb_write dcbx set dev $D host ieee static
tap_eq "dcb dcbx show reads it back" "host ieee static" \
	"$(dcb dcbx show dev $D | sed 's/ *$//')"
t_rejected "DCBX lld-managed refused" REFUSED dcbx $D 0x0a
t_rejected "DCBX CEE refused" REFUSED dcbx $D 0x05

if grep -qx apptrust "$DS_DBG/features"; then
	tap_ok "APP trust: dscp then pcp" dcbnl apptrust $D dscp pcp
	tap_eq "raw read: trust order" "5 255" "$(ds_get $D apptrust)"
	t_rejected "APP trust with a selector twice rejected" EINVAL \
		apptrust $D dscp dscp
else
	for d in "APP trust: dscp then pcp" "raw read: trust order" \
		"APP trust with a selector twice rejected"; do
		tap_skip "$d" "kernel headers have no APP trust ops (Linux < 6.2)"
	done
fi

# --- the rewrite table (Linux 6.3+) -------------------------------------------
# Entries are SEL:PRIO:VALUE (priority PRIO rewritten to PCP or DSCP
# VALUE); the raw read lists [SEL, PRIO, VALUE] sorted, PCP being 255.
# rewr_json DEV: the table as JSON, null when the reply has none.
rewr_json() {
	dcbnl show "$1" |
		python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin).get("rewr")))'
}
rewr_points=("rewrite: prio 3 -> DSCP 26 and PCP 3, one message"
	"raw read: the core's rewrite table"
	"debugfs rewr: the device's own table agrees"
	"rewrite: prio 3 -> DSCP 24 replaces DSCP 26"
	"rewrite: delete prio 3 -> DSCP 24"
	"rewrite DSCP 64 rejected"
	"rewrite selector other than PCP/DSCP rejected"
	"a removed device leaves no rewrite entries to its ifindex"
	"the reply has a rewrite table exactly where the kernel has one")
if grep -qx rewr "$DS_DBG/features"; then
	tap_ok "${rewr_points[0]}" dcbnl rewr-add $D dscp:3:26 pcp:3:3
	tap_eq "${rewr_points[1]}" "[5, 3, 26] [255, 3, 3]" "$(ds_get $D rewr)"
	tap_eq "${rewr_points[2]}" "pcp 3:3/dscp 3:26" \
		"$(ds_read $D rewr | paste -sd/)"
	dcbnl rewr-add $D dscp:3:24
	tap_eq "${rewr_points[3]}" "[5, 3, 24] [255, 3, 3]" "$(ds_get $D rewr)"
	dcbnl rewr-del $D dscp:3:24
	tap_eq "${rewr_points[4]}" "[255, 3, 3]/pcp 3:3/dscp" \
		"$(ds_get $D rewr)/$(ds_read $D rewr | paste -sd/)"
	t_rejected "${rewr_points[5]}" EINVAL rewr-add $D dscp:3:64
	t_rejected "${rewr_points[6]}" EINVAL rewr-add $D stream:3:4791
	# dcbsim deletes its entries at uninit: the core keeps them by ifindex,
	# and a new device can get the same one.
	ip link add dcbsim9 index 4242 type dcbsim &&
		dcbnl rewr-add dcbsim9 dscp:5:40 && ip link del dcbsim9 &&
		ip link add dcbsim9 index 4242 type dcbsim
	tap_eq "${rewr_points[7]}" "[]" "$(rewr_json dcbsim9)"
	ip link del dcbsim9
	tap_eq "${rewr_points[8]}" "[[255, 3, 3]]" "$(rewr_json $D)"
else
	for d in "${rewr_points[@]::8}"; do
		tap_skip "$d" "kernel has no DCB rewrite table (dcbnl_setrewr, Linux < 6.3)"
	done
	# Where the module has no rewrite ops the kernel has no table at all:
	# dcbnl_ieee_fill() sends DCB_ATTR_DCB_REWR_TABLE from 6.3 on.
	tap_eq "${rewr_points[8]}" null "$(rewr_json $D)"
fi

tap_ok "no warnings in the kernel log" kernel_log_clean
tap_done
