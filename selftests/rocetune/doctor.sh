#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest tests of `rocetune doctor` on a rocetune_dcbsim device carrying
# rxe, with rocetune.ko: the host made clean (profiles/soft-roce-lab.conf
# applied, fq as the root qdisc) is reported clean, with and without the
# profile; then each fault, injected alone and undone after, is reported
# as exactly its finding, with its evidence: a pause storm (dcbsim's
# debugfs rate), a storm seen only by the NIC's storm counter
# (tx_pause_storm_error_events in ethtool -S, which stats reads the same as
# ethtool), storm prevention off (the ethtool tunable), a speed drop
# (link_speed), a link below the profile's [link] expect_speed (the port's
# best mode, and a speed drop, against it), rising FCS and symbol errors,
# the link going down (6.2+: 6.1 has no link-down count), an MTU that
# is not the profile's (and an MTU where rxe's active MTU, read through
# libibverbs, differs from the one the kernel's iboe_get_mtu() derives), ECN
# off and the CNP DSCP on another priority (rocetune.ko's configfs), the
# RDMA-CM ToS on a priority without PFC, pacing inactive (pfifo_fast),
# lldpad running (a process of that name), DCBX reported LLD-managed
# (dcbsim's dcbx_mode). The clean host is clean again at the end. The
# JSON validates against Documentation/schema/rocetune-doctor.v1.json.
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/rocetune/doctor.sh [--keep] [--out DIR]

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 400 "$@" \
		--script "1=$here/doctor.sh"
fi

. "$here/../lib/tap.sh"
. "$here/../lib/tree.sh"
. "$here/../lib/lab-guest.sh"

RT=$RTUNE_TOOL
DCBSIM=$RTUNE_DCBSIM_KO
RTKO=$RTUNE_KO
SCHEMA=$here/stats_schema.py
W=$(mktemp -d /run/rocetune-doctor.XXXXXX)
DBG=/sys/kernel/debug/rocetune_dcbsim
CC=/sys/kernel/config/rocetune/rxe0/ports/1
CM=/sys/kernel/config/rdma_cm/rxe0
LLDPAD=

[[ -n $DCBSIM ]] ||
	tap_skip_all "needs the rocetune_dcbsim test device, a lab module that an installed tree does not have (DCBSIM_KO=PATH)"
[[ -n $RT && -x $RT ]] || tap_skip_all "rocetune not built (make -C tools/rocetune) or not in PATH"
[[ -f $DCBSIM ]] || tap_skip_all "rocetune_dcbsim.ko not built"

cleanup() {
	[[ -n $LLDPAD ]] && kill "$LLDPAD" 2>/dev/null
	rmdir "$CM" 2>/dev/null
	rdma link delete rxe0 2>/dev/null
	ip link del dcb0 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

setup() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	insmod "$DCBSIM" || return 1
	modprobe rdma_rxe && modprobe rdma_cm || return 1
	modprobe ib_uverbs 2>/dev/null	# the port's active MTU (libibverbs)
	if [[ -n $RTKO ]]; then
		[[ -f $RTKO ]] && insmod "$RTKO" || return 2
	else
		modprobe rocetune 2>/dev/null || return 2
	fi
	ip link set eth0 up
}

mkdevs() {
	ip link add link eth0 name dcb0 type dcbsim || return 1
	ip link set dcb0 up || return 1
	rdma link add rxe0 type rxe netdev dcb0 || return 1
	for _ in $(seq 50); do
		[[ -f $CC/pacing ]] && return 0
		sleep 0.1
	done
	return 1
}

setup
case $? in
0) ;;
2) tap_skip_all "needs rocetune.ko (the ECN, CNP and pacing checks read its configfs)";;
*) tap_skip_all "cannot load dcbsim/rxe/rdma_cm in this guest";;
esac
mkdevs || tap_bail "cannot create the dcbsim and rxe test devices"
D=$DBG/$(cat /sys/class/net/dcb0/ifindex)
P=$W/soft-roce-lab.conf
cp "$RTUNE_SRC/profiles/soft-roce-lab.conf" "$P" 2>/dev/null ||
	cp "$here/profiles/soft-roce-lab.conf" "$P" || tap_bail "no profiles/soft-roce-lab.conf"

# pacing_is WORD: wait (rocetune.ko looks at the qdisc every second) until
# the port's pacing state starts with WORD.
pacing_is() {
	for _ in $(seq 40); do
		[[ $(cat "$CC/pacing") == "$1"* ]] && return 0
		sleep 0.1
	done
	return 1
}

"$RT" apply "$P" > "$W/apply.out" 2>&1
rc=$?
lab_fq dcb0
if ! { [[ $rc -eq 0 || $rc -eq 2 ]] && pacing_is active; }; then
	sed 's/^/# /' "$W/apply.out"
	tap_bail "cannot make the host clean: apply exit $rc, pacing '$(cat "$CC/pacing")'"
fi

# doc [ARGS]: run `rocetune -j doctor --interval 0.5 ARGS PROFILE` into
# $W/doc.json; prints "RC CODES", CODES the sorted findings as
# code[@priority] or "clean".
doc() {
	"$RT" -j doctor --interval 0.5 "$@" > "$W/doc.json" 2> "$W/doc.err"
	local rc=$?
	echo "$rc $(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
f = sorted(x["code"] + ("" if x["priority"] is None else "@%d" % x["priority"]) for x in d.get("findings", []))
print(" ".join(f) if f else d["result"])' "$W/doc.json" 2>&1)"
}

# ev CODE KEY: the evidence KEY of the finding CODE in $W/doc.json
ev() {
	python3 -c 'import json,sys
for x in json.load(open(sys.argv[1]))["findings"]:
    if x["code"] == sys.argv[2]:
        v = x["evidence"].get(sys.argv[3])
        print("%g" % v if isinstance(v, (int, float)) else v)' "$W/doc.json" "$1" "$2"
}

# within V LO HI
within() { python3 -c 'import sys; v, lo, hi = map(float, sys.argv[1:]); sys.exit(not lo <= v <= hi)' "$1" "$2" "$3" 2>/dev/null; }

# rate_fault CTR RATE WHAT WANT CODE KEY LO HI EVWHAT [EKEY EVAL]: a rising
# counter. Sets dcbsim's counter CTR rising at RATE/s, then two checks:
# `doc "$P"` prints WANT (test WHAT), and the finding CODE's evidence KEY is
# within LO..HI, and its evidence EKEY is EVAL if given (test EVWHAT, which
# is printed with KEY's value in front). The rate stays on: the caller
# checks more, then ends it with `rate_fault_end CTR`.
rate_fault() {
	local ctr=$1 rate=$2 what=$3 want=$4 code=$5 key=$6 lo=$7 hi=$8 evwhat=$9
	local ekey=${10:-} eval=${11:-} r e=

	echo "$rate" > "$D/counters/$ctr/rate"
	tap_eq "$what" "$want" "$(doc "$P")"
	r=$(ev "$code" "$key")
	[[ -n $ekey ]] && e=$(ev "$code" "$ekey")
	if within "$r" "$lo" "$hi" && [[ -z $ekey || $e == "$eval" ]]; then
		tap_pass "$code evidence: $key $r ($lo..$hi)${ekey:+, $ekey $e}: $evwhat"
	else
		tap_fail "$code evidence: $evwhat" "$key '$r' (want $lo..$hi)${ekey:+, $ekey '$e' (want $eval)}"
	fi
}

rate_fault_end() { echo 0 > "$D/counters/$1/rate"; }

# operstate_is WORD...: wait (the link watch is asynchronous) until
# dcb0's operstate is one of WORDs.
operstate_is() {
	local o

	for _ in $(seq 50); do
		o=$(cat /sys/class/net/dcb0/operstate)
		for w; do
			[[ $o == "$w" ]] && return 0
		done
		sleep 0.1
	done
	return 1
}

# ------------------------------------------------------------ clean
tap_eq "clean host, with the profile: exit 0, no findings" "0 clean" "$(doc "$P")"
tap_ok "the clean document validates against rocetune-doctor.v1.json" \
	sh -c "python3 '$SCHEMA' rocetune-doctor.v1.json < '$W/doc.json'"
tap_eq "clean host, without a profile: exit 0, no findings" "0 clean" "$(doc)"
out=$("$RT" doctor --interval 0.2 "$P" 2>&1)
tap_eq "text output says clean" "clean: no findings" "$(printf '%s\n' "$out" | tail -1)"

# ------------------------------------------------------------ pause storm
rate_fault pause_rx_prio3 20000 \
	"pause storm (20000 PFC frames/s received on priority 3): exit 3, pause-storm@3 only" \
	"3 pause-storm@3" pause-storm received_per_s 18000 22000 \
	"pause storm: frames received per second, pfc-prevention-tout 8000 ms" \
	pfc_prevention_tout_ms 8000
tap_ok "the findings document validates against rocetune-doctor.v1.json" \
	sh -c "python3 '$SCHEMA' rocetune-doctor.v1.json < '$W/doc.json'"
rate_fault_end pause_rx_prio3
tap_eq "pause storm over: clean again (the totals stay, the rate is 0)" "0 clean" "$(doc "$P")"

# ------------------------------------------- the NIC's own storm counters
# Storm error events alone (mlx5's tx_pause_storm_error_events, which
# dcbsim lists in ethtool -S), no pause frames: the doctor finds the storm
# from the counter and names it, with how much it rose in the window.
SE=$D/counters/pause_storm_error_events
if [[ -d $SE ]] && ethtool -S dcb0 2>/dev/null | grep -q 'tx_pause_storm_error_events:'; then
	rate_fault pause_storm_error_events 10 \
		"storm error events only (10/s, no pause frames): exit 3, pause-storm only, port-wide" \
		"3 pause-storm" pause-storm storm_error_increase 3 12 \
		"storm counter: the rise in the window (10/s over about 0.5 s), the driver's name" \
		storm_error_counter tx_pause_storm_error_events
	rate_fault_end pause_storm_error_events
	"$RT" -j stats --interval 0 dev dcb0 > "$W/st.json" 2>/dev/null
	tap_eq "stats' pause_storm_error_events (non-zero) equals ethtool -S tx_pause_storm_error_events" \
		"$(ethtool -S dcb0 | awk '$1 == "tx_pause_storm_error_events:" { print $2 }')" \
		"$(python3 -c 'import json,sys
v = json.load(open(sys.argv[1]))["ports"][0]["counters"]["pause_storm_error_events"]["total"]
print(v if v else "zero or null: %r" % v)' "$W/st.json" 2>&1)"
	tap_eq "storm events over: clean again (the total stays, it no longer rises)" \
		"0 clean" "$(doc "$P")"
else
	for t in "storm error events only: pause-storm" "storm counter evidence" \
		"stats' pause_storm_error_events equals ethtool -S" "storm events over: clean"; do
		tap_skip "$t" "rocetune_dcbsim has no pause_storm_error_events counter in ethtool -S"
	done
fi

# ------------------------------------------------ storm prevention off
if ethtool --set-tunable dcb0 pfc-prevention-tout 0 2>/dev/null; then
	tap_eq "pfc-prevention-tout 0 with PFC on: exit 2, storm-prevention-off only" \
		"2 storm-prevention-off" "$(doc "$P")"
	ethtool --set-tunable dcb0 pfc-prevention-tout 8000	# dcbsim's default
else
	tap_skip "storm prevention off" "ethtool cannot set the pfc-prevention-tout tunable"
fi

# ------------------------------------------------------------ speed drop
echo 50000 > "$D/link_speed"
tap_eq "link trained down to 50000 Mb/s: exit 2, slow-link only" "2 slow-link" "$(doc "$P")"
tap_eq "slow-link evidence: speed 50000, advertised 100000" "50000 100000" \
	"$(ev slow-link speed_mbps) $(ev slow-link advertised_speed_mbps)"
echo 100000 > "$D/link_speed"

# ------------------------------------- the profile's expected link speed
# [link] expect_speed / expect_lanes: an expectation the doctor checks,
# never applied. The port's best mode is 100000baseCR4.
PX=$W/expect-100g.conf
PY=$W/expect-200g.conf
sed 's/^roce_mtu = 1024$/&\nexpect_speed = 100G\nexpect_lanes = 4/' "$P" > "$PX"
sed 's/^roce_mtu = 1024$/&\nexpect_speed = 200G/' "$P" > "$PY"
tap_eq "profile expects 100G on 4 lanes, link 100000 Mb/s on 4: exit 0, clean" "0 clean" "$(doc "$PX")"
tap_eq "profile expects 200G, the port's best mode is 100G: exit 2, slow-link only" \
	"2 slow-link" "$(doc "$PY")"
tap_eq "slow-link evidence names the profile: expected 200000, speed 100000, advertised 100000" \
	"200000 100000 100000" \
	"$(ev slow-link profile_expect_speed_mbps) $(ev slow-link speed_mbps) $(ev slow-link advertised_speed_mbps)"
echo 50000 > "$D/link_speed"
tap_eq "expect_speed 100G, link trained down to 50000 Mb/s: exit 2, slow-link only" \
	"2 slow-link" "$(doc "$PX")"
tap_eq "slow-link evidence: expected 100000 on 4 lanes, 50000 on 2" "100000 4 50000 2" \
	"$(ev slow-link profile_expect_speed_mbps) $(ev slow-link profile_expect_lanes) $(ev slow-link speed_mbps) $(ev slow-link lanes)"
echo 100000 > "$D/link_speed"
"$RT" -j apply "$PX" > "$W/apply-x.json" 2> "$W/apply-x.err"
rc=$?
tap_eq "apply ignores expect_speed/expect_lanes: exit 0, no write" "0 0" \
	"$rc $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["writes"])' "$W/apply-x.json" 2>&1)"

# ------------------------------------------------------------ FCS errors
rate_fault fcs_errors 100 "FCS errors rising (100/s): exit 3, link-errors only" \
	"3 link-errors" link-errors fcs_errors_per_s 80 120 "FCS errors per second"
rate_fault_end fcs_errors

# ------------------------------------------------------------ symbol errors
rate_fault symbol_errors 50 "symbol errors rising (50/s): exit 3, link-errors only" \
	"3 link-errors" link-errors symbol_errors_per_s 40 60 "symbol errors per second, no FCS errors" \
	fcs_errors_per_s 0
rate_fault_end symbol_errors

# ------------------------------------------------------------ link going down
# The link-down count comes from ethtool netlink's LINKSTATE
# (ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT, Linux 6.2+): on older kernels stats
# reports it null and the doctor cannot see flaps.
"$RT" -j stats --interval 0 dev dcb0 > "$W/st.json" 2>/dev/null
ld=$(python3 -c 'import json,sys
print(json.load(open(sys.argv[1]))["ports"][0]["counters"]["link_down_events"]["total"])' "$W/st.json" 2>&1)
if [[ $ld =~ ^[0-9]+$ ]]; then
	rate_fault link_down_events 4 "link going down (4 events/s): exit 3, link-errors only" \
		"3 link-errors" link-errors link_down_per_s 2 6 "link-down events per second"
	rate_fault_end link_down_events
else
	for t in "link going down: link-errors" "link-errors evidence: link-down events/s"; do
		tap_skip "$t" "no link-down count on $(uname -r) (ethtool netlink's ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT is Linux 6.2+; stats reports link_down_events $ld)"
	done
fi

# ------------------------------------------------------------ link down
# A down RoCE port is a finding even though its configured speed is what
# the profile expects ($PX: 100G on 4 lanes, dcbsim's link_speed 100000):
# down, it reports no speed, so slow-link cannot see it. dcbsim's
# link_down knob drops the carrier (a pulled cable) and counts one
# link-down event; then the port is set down by hand.
cc0=$(cat /sys/class/net/dcb0/carrier_changes)
"$RT" -j stats --interval 0 dev dcb0 > "$W/st.json" 2>/dev/null
ld=$(python3 -c 'import json,sys
print(json.load(open(sys.argv[1]))["ports"][0]["counters"]["link_down_events"]["total"])' "$W/st.json" 2>&1)
echo 1 > "$D/link_down"
operstate_is down lowerlayerdown || tap_diag "dcb0 operstate $(cat /sys/class/net/dcb0/operstate) after link_down 1"
tap_eq "link down (no carrier), the profile expects 100G, link_speed 100000: exit 3, link-down only" \
	"3 link-down" "$(doc "$PX")"
o=$(ev link-down operstate)
if [[ $o == down || $o == lowerlayerdown ]] &&
	[[ "$(ev link-down carrier) $(ev link-down admin_state)" == "0 up" ]] &&
	(( $(ev link-down carrier_changes) > cc0 )); then
	tap_pass "link-down evidence: operstate $o, carrier 0, admin up, carrier changes $(ev link-down carrier_changes) > $cc0"
else
	tap_fail "link-down evidence" "operstate '$o', carrier '$(ev link-down carrier)', admin_state '$(ev link-down admin_state)', carrier_changes '$(ev link-down carrier_changes)' (before: $cc0)"
fi
if [[ $ld =~ ^[0-9]+$ ]]; then
	ld1=$(ev link-down link_down_events_total)
	tap_eq "link-down evidence: ethtool's link-down count grew by the one event" \
		"$((ld + 1))" "$ld1"
else
	tap_eq "link-down evidence: the link-down count said not reported on $(uname -r)" \
		"not reported" "$(ev link-down link_down_events_total | cut -c1-12)"
fi
echo 0 > "$D/link_down"
operstate_is up || tap_diag "dcb0 operstate $(cat /sys/class/net/dcb0/operstate) after link_down 0"
ip link set dcb0 down
tap_eq "link set down (ip link set dcb0 down): exit 3, link-down only" "3 link-down" "$(doc "$P")"
tap_eq "link-down evidence: admin_state down, the fix brings it up" "down yes" \
	"$(ev link-down admin_state) $(python3 -c 'import json,sys
f = [x for x in json.load(open(sys.argv[1]))["findings"] if x["code"] == "link-down"][0]["fix"]
print("yes" if "ip link set dev dcb0 up" in f else f)' "$W/doc.json" 2>&1)"
ip link set dcb0 up
operstate_is up || tap_diag "dcb0 operstate $(cat /sys/class/net/dcb0/operstate) after ip link set up"
lab_fq dcb0
pacing_is active || tap_diag "pacing did not come back to active: $(cat "$CC/pacing")"
tap_eq "link up again: clean, exit 0" "0 clean" "$(doc "$PX")"

# ------------------------------------------------------------ MTU
ip link set dcb0 mtu 1400
tap_eq "MTU 1400, the profile says 1500: exit 3, mtu-mismatch only" "3 mtu-mismatch" "$(doc "$P")"
tap_eq "mtu-mismatch evidence: netdev 1400, profile 1500, RoCE MTU 1024" "1400 1500 1024" \
	"$(ev mtu-mismatch netdev_mtu) $(ev mtu-mismatch profile_mtu) $(ev mtu-mismatch roce_mtu)"
tap_eq "without the profile the MTU is no finding" "0 clean" "$(doc)"
# 1110: rxe gives the port 1110 - 80 -> 1024, iboe_get_mtu() 1110 - 96 -> 512;
# the evidence must carry the active MTU the port reports
ip link set dcb0 mtu 1110
tap_eq "MTU 1110, the profile says 1500: exit 3, mtu-mismatch only" "3 mtu-mismatch" "$(doc "$P")"
tap_eq "mtu-mismatch evidence: netdev 1110, the port's active MTU read (1024), the derived one 512" \
	"1110 1024 512" \
	"$(ev mtu-mismatch netdev_mtu) $(ev mtu-mismatch roce_active_mtu) $(ev mtu-mismatch roce_mtu)"
tap_eq "MTU 1110 without the profile: rxe's 1024 fits with its headers, no finding" "0 clean" "$(doc)"
ip link set dcb0 mtu 1500

# ------------------------------------------------------------ CC via configfs
# stage PARAM VALUE: stage one value and commit it
stage() { echo "$2" > "$CC/cc/staged/$1" && echo 1 > "$CC/cc/commit"; }

stage ecn_enabled_prios none
tap_eq "ECN off (ecn_enabled_prios none): exit 3, ecn-off@3 only" "3 ecn-off@3" "$(doc "$P")"
tap_eq "ecn-off evidence: ecn_enabled_prios none, RoCE priority 3" "none 3" \
	"$(ev ecn-off ecn_enabled_prios) $(ev ecn-off roce_priority)"
stage ecn_enabled_prios 3

stage np_cnp_dscp 40
tap_eq "CNP DSCP 40 (priority 5 by the map) while CNPs are priority 6: exit 3, cnp-dscp-unmapped@6 only" \
	"3 cnp-dscp-unmapped@6" "$(doc "$P")"
tap_eq "cnp-dscp-unmapped evidence: DSCP 40, mapped to 5" "40 5" \
	"$(ev cnp-dscp-unmapped np_cnp_dscp) $(ev cnp-dscp-unmapped mapped_priority)"
stage np_cnp_dscp 48

# ------------------------------------------------------------ RDMA-CM ToS
mkdir -p "$CM"	# rdma_cm's group exists while held; the ToS outlives it
tos=$(cat "$CM/ports/1/default_roce_tos")
echo 0 > "$CM/ports/1/default_roce_tos"
tap_eq "RDMA-CM ToS 0 (DSCP 0, priority 0, no PFC): exit 3, cm-tos-lossy@0 only" \
	"3 cm-tos-lossy@0" "$(doc "$P")"
tap_ok "cm-tos-lossy fix names a ToS of priority 3 (DSCP 24-31)" \
	sh -c "python3 -c 'import json,sys
f = [x for x in json.load(open(sys.argv[1]))[\"findings\"] if x[\"code\"] == \"cm-tos-lossy\"][0][\"fix\"]
sys.exit(0 if \"priority 3\" in f else f)' '$W/doc.json'"
echo "$tos" > "$CM/ports/1/default_roce_tos"

# ------------------------------------------------------------ pacing
tc qdisc replace dev dcb0 root pfifo_fast
if pacing_is inactive; then
	tap_eq "root qdisc pfifo_fast: exit 2, pacing-inactive only" "2 pacing-inactive" "$(doc "$P")"
	tap_eq "pacing-inactive evidence: the qdisc" "pfifo_fast" "$(ev pacing-inactive root_qdisc)"
else
	tap_fail "pacing inactive with pfifo_fast" "rocetune.ko's pacing reads '$(cat "$CC/pacing")'"
fi
# the doctor's own fix, run as printed, must make pacing active again
fixcmd=$(python3 -c 'import json,sys
print([x for x in json.load(open(sys.argv[1]))["findings"] if x["code"] == "pacing-inactive"][0]["fix"])' \
	"$W/doc.json" 2>/dev/null)
if [[ $fixcmd == "tc qdisc "* ]] && sh -c "$fixcmd" 2>"$W/fix.err" && pacing_is active; then
	tap_pass "pacing-inactive fix, run as printed, makes pacing active: $fixcmd"
else
	tap_fail "pacing-inactive fix, run as printed, makes pacing active" \
		"fix '$fixcmd': $(cat "$W/fix.err" 2>/dev/null); pacing '$(cat "$CC/pacing")'"
	lab_fq dcb0
fi

# ------------------------------------------------------------ fq's orphan mask
# a new fq has fq's default mask (replace on an fq would keep the wide one)
tc qdisc del dev dcb0 root && tc qdisc add dev dcb0 root fq
pacing_is active || tap_diag "pacing not active under a new fq: $(cat "$CC/pacing")"
tap_eq "fq with its default orphan_mask: exit 2, pacing-shared-flows only" \
	"2 pacing-shared-flows" "$(doc "$P")"
tap_eq "pacing-shared-flows evidence: orphan_mask 0x3ff, 1024 flows" "0x3ff 1024" \
	"$(ev pacing-shared-flows orphan_mask) $(ev pacing-shared-flows flows)"
fixcmd=$(python3 -c 'import json,sys
print([x for x in json.load(open(sys.argv[1]))["findings"] if x["code"] == "pacing-shared-flows"][0]["fix"])' \
	"$W/doc.json" 2>/dev/null)
if [[ $fixcmd == "tc qdisc "* ]] && sh -c "$fixcmd" 2>"$W/fix.err"; then
	tap_eq "pacing-shared-flows fix, run as printed: clean, exit 0" "0 clean" "$(doc "$P")"
else
	tap_fail "pacing-shared-flows fix, run as printed: clean, exit 0" \
		"fix '$fixcmd': $(cat "$W/fix.err" 2>/dev/null)"
	lab_fq dcb0
fi

# ------------------------------------------------------------ lldpad
cp "$(command -v sleep)" "$W/lldpad"
"$W/lldpad" 60 &
LLDPAD=$!
sleep 0.2
tap_eq "a process named lldpad: exit 2, lldpad-running only" "2 lldpad-running" "$(doc "$P")"
kill "$LLDPAD"
wait "$LLDPAD" 2>/dev/null
LLDPAD=

# ------------------------------------------------------------ DCBX
echo lld > "$D/dcbx_mode"
tap_eq "DCBX reported LLD-managed: exit 2, dcbx-not-host only" "2 dcbx-not-host" "$(doc "$P")"
echo host > "$D/dcbx_mode"

# ------------------------------------------------------------ clean again
tap_eq "every fault undone: clean again, exit 0" "0 clean" "$(doc "$P")"
tap_eq "a bad profile: exit 1, result invalid-profile" "1 invalid-profile" \
	"$(printf '[link]\nmtu = 9\n' > "$W/bad.conf"; doc "$W/bad.conf")"
tap_done
