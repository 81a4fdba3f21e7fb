#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dcbsim's counters and link as the real tools see them, one guest:
#   a clean device reads zero everywhere;
#   counters/<name>/add and value: dcb's PFC requests/indications,
#     ethtool -S (mlx5's names, the pause-storm events included), ethtool
#     -I -a (pause statistics) and the 802.3 groups agree with what was
#     injected;
#   counters/<name>/rate: a pause storm and an error rate rise at about
#     the injected rate over a measured window;
#   link_speed: ethtool shows a port that trained down; link_flap;
#   the pfc-prevention-tout tunable round-trips and refuses what mlx5
#     refuses, leaving the stored value as it was.
#
# Run as root in a lab guest: selftests/dcbsim/run.sh counters does it.

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ds_require
command -v ethtool >/dev/null || tap_skip_all "ethtool missing (scripts/install-deps.sh installs it)"

D=dcbsim0
D2=dcbsim1
cleanup() { ds_loaded && ds_unload; }
trap cleanup EXIT

# A rate is measured from two readings WINDOW seconds apart, each timed
# around the run of the tool that read it. The counter was read somewhere
# inside each run, so the true rate lies between the count over the
# longest and over the shortest interval the timing allows; the injected
# rate must lie in those bounds, widened by SLACK_PCT for the clock and
# rounding. Bounds wider than MAX_SPREAD_PCT (the tools took too long to
# run) say too little, and fail.
WINDOW=4
SLACK_PCT=2
MAX_SPREAD_PCT=15

tap_plan 57

ds_load && ip link add $D type dcbsim && ip link set $D up ||
	tap_bail "cannot create $D"
have() { grep -qsx "$1" "$DS_DBG/features"; }

toolout() { python3 "$DS_HERE/toolout.py" "$@"; }
ctr() { echo "$(ds_knob "$1" counters)/$2"; }
ctr_write() { { printf '%s' "$4" >"$(ctr "$1" "$2")/$3"; } 2>/dev/null; }

pfc_raw() { dcb -j -s pfc show dev "$1"; }
# ethtool 6.1 has no JSON for the driver's statistics (-S without
# --groups): "--json -S" is refused. toolout.py reads the text.
stats_raw() { ethtool -S "$1"; }
pause_raw() { ethtool --json -I -a "$1"; }
groups_raw() { ethtool --json -S "$1" --groups eth-phy eth-mac eth-ctrl; }

# pfc_all DEV FIELD: the eight values of requests or indications.
pfc_all() {
	local raw i out=
	raw=$(pfc_raw "$1")
	for i in 0 1 2 3 4 5 6 7; do
		out+="$(toolout "$2" $i <<<"$raw" || echo missing) "
	done
	echo "${out% }"
}

# stat DEV NAME: one ethtool -S counter ("missing" if absent).
stat() { stats_raw "$1" | toolout "$2" || echo missing; }

# rate READER KEY [INDEX]: "LO MID HI", a counter's rate per second: the
# bounds the timing allows and the estimate from the middles of the runs.
rate() {
	local reader=$1 a0 a1 b0 b1 r0 r1 v0 v1 d
	shift
	a0=$(date +%s%N); r0=$($reader $D); a1=$(date +%s%N)
	sleep $WINDOW
	b0=$(date +%s%N); r1=$($reader $D); b1=$(date +%s%N)
	if ! v0=$(toolout "$@" <<<"$r0") || ! v1=$(toolout "$@" <<<"$r1"); then
		echo unreadable
		return
	fi
	d=$((v1 - v0))
	echo "$((d * 1000000000 / (b1 - a0))) $((d * 1000000000 / ((b0 + b1) / 2 - (a0 + a1) / 2))) $((d * 1000000000 / (b0 - a1)))"
}

# in_band DESC WANT "LO MID HI": WANT within [LO, HI] widened by SLACK_PCT,
# and the bounds no wider than MAX_SPREAD_PCT of WANT either side.
in_band() {
	local lo mid hi
	read -r lo mid hi <<<"$3"
	if ! [[ $lo$mid$hi =~ ^[0-9]+$ ]]; then
		tap_fail "$1" "no measurement: '$3'"
	elif ((lo * (100 - SLACK_PCT) > $2 * 100 || $2 * 100 > hi * (100 + SLACK_PCT))); then
		tap_fail "$1" "injected $2/s, measured $mid/s, possible $lo-$hi/s"
	elif (((hi - lo) * 100 > 2 * MAX_SPREAD_PCT * $2)); then
		tap_fail "$1" "the reads were too slow to tell: possible $lo-$hi/s"
	else
		tap_pass "$1: $mid/s, possible $lo-$hi/s (injected $2/s)"
	fi
}

Z8="0 0 0 0 0 0 0 0"

# --- a clean device reads zero ---------------------------------------------
tap_eq "clean: dcb -s pfc show: requests all 0" "$Z8" "$(pfc_all $D requests)"
tap_eq "clean: dcb -s pfc show: indications all 0" "$Z8" "$(pfc_all $D indications)"
raw=$(stats_raw $D)
names="" vals=""
for p in 0 1 2 3 4 5 6 7; do names+=" rx_prio${p}_pause tx_prio${p}_pause"; done
names+=" rx_crc_errors_phy rx_symbol_err_phy link_down_events_phy"
names+=" tx_pause_storm_warning_events tx_pause_storm_error_events"
for n in $names; do vals+="$(toolout "$n" <<<"$raw" || echo "$n:missing") "; done
tap_eq "clean: ethtool -S: the 21 counters are there and 0" \
	"$(for n in $names; do printf '0 '; done)" "$vals"
raw=$(pause_raw $D)
tap_eq "clean: ethtool -I -a: tx/rx_pause_frames 0" "0 0" \
	"$(toolout tx_pause_frames <<<"$raw") $(toolout rx_pause_frames <<<"$raw")"
if have eth_stats; then
	raw=$(groups_raw $D)
	tap_eq "clean: eth-phy/mac/ctrl groups: symbol, FCS, MAC control 0" "0 0 0 0" \
		"$(for k in SymbolErrorDuringCarrier FrameCheckSequenceErrors \
			MACControlFramesTransmitted MACControlFramesReceived; do
			toolout $k <<<"$raw" || echo "$k:missing"; done | tr '\n' ' ' | sed 's/ $//')"
else
	tap_skip "clean: eth-phy/mac/ctrl groups" "kernel has no 802.3 statistics groups (5.13+)"
fi

# --- add and value ------------------------------------------------------------
ctr_write $D pause_rx_prio3 add 1000
ctr_write $D pause_tx_prio3 add 250
ctr_write $D pause_tx_prio5 add 7
tap_eq "add: dcb indications" "0 0 0 1000 0 0 0 0" "$(pfc_all $D indications)"
tap_eq "add: dcb requests" "0 0 0 250 0 7 0 0" "$(pfc_all $D requests)"
raw=$(stats_raw $D)
tap_eq "add: ethtool -S rx_prio3_pause tx_prio3_pause tx_prio5_pause rx_prio5_pause" \
	"1000 250 7 0" \
	"$(for n in rx_prio3_pause tx_prio3_pause tx_prio5_pause rx_prio5_pause; do
		toolout $n <<<"$raw" || echo missing; done | tr '\n' ' ' | sed 's/ $//')"
raw=$(pause_raw $D)
tap_eq "add: ethtool -I -a: tx_pause_frames 257, rx_pause_frames 1000 (sums over priorities)" \
	"257 1000" \
	"$(toolout tx_pause_frames <<<"$raw") $(toolout rx_pause_frames <<<"$raw")"
ctr_write $D fcs_errors add 42
ctr_write $D symbol_errors add 9
ctr_write $D pause_storm_warning_events add 4
ctr_write $D pause_storm_error_events add 1
raw=$(stats_raw $D)
tap_eq "add: ethtool -S rx_crc_errors_phy 42, rx_symbol_err_phy 9" "42 9" \
	"$(toolout rx_crc_errors_phy <<<"$raw") $(toolout rx_symbol_err_phy <<<"$raw")"
tap_eq "add: ethtool -S tx_pause_storm_warning_events 4, tx_pause_storm_error_events 1" "4 1" \
	"$(toolout tx_pause_storm_warning_events <<<"$raw") $(toolout tx_pause_storm_error_events <<<"$raw")"
if have eth_stats; then
	raw=$(groups_raw $D)
	tap_eq "add: groups: SymbolErrorDuringCarrier 9, FrameCheckSequenceErrors 42, MACControlFrames tx 257 rx 1000" \
		"9 42 257 1000" \
		"$(for k in SymbolErrorDuringCarrier FrameCheckSequenceErrors \
			MACControlFramesTransmitted MACControlFramesReceived; do
			toolout $k <<<"$raw" || echo "$k:missing"; done | tr '\n' ' ' | sed 's/ $//')"
else
	tap_skip "add: eth-phy/mac/ctrl groups" "kernel has no 802.3 statistics groups (5.13+)"
fi
tap_eq "the debugfs values read back the same" "1000 250 7 42 9" \
	"$(for c in pause_rx_prio3 pause_tx_prio3 pause_tx_prio5 fcs_errors symbol_errors; do
		cat "$(ctr $D $c)/value"; done | tr '\n' ' ' | sed 's/ $//')"
tap_eq "another device stays clean" "$Z8 $Z8" \
	"$(ip link add $D2 type dcbsim && ip link set $D2 up &&
	   echo "$(pfc_all $D2 requests) $(pfc_all $D2 indications)")"
tap_ok "value: writing 0 resets pause_tx_prio5" ctr_write $D pause_tx_prio5 value 0
tap_eq "... dcb requests[5] 0, ethtool -S tx_prio5_pause 0" "0 0" \
	"$(pfc_raw $D | toolout requests 5) $(stat $D tx_prio5_pause)"

# --- rates --------------------------------------------------------------------
# A pause storm on priority 3: 20000 PFC frames/s received, 5000/s sent.
tap_ok "rate: pause_rx_prio3 20000/s" ctr_write $D pause_rx_prio3 rate 20000
tap_ok "rate: pause_tx_prio3 5000/s" ctr_write $D pause_tx_prio3 rate 5000
in_band "dcb indications[3] rises" 20000 "$(rate pfc_raw indications 3)"
in_band "ethtool -S tx_prio3_pause rises" 5000 "$(rate stats_raw tx_prio3_pause)"
in_band "ethtool -I -a rx_pause_frames rises" 20000 "$(rate pause_raw rx_pause_frames)"
# One report reads every counter at one instant: a total from ethtool -I -a
# lies between the sums of two ethtool -S readings around it.
sum_tx() {
	local raw p s=0
	raw=$(stats_raw $D)
	for p in 0 1 2 3 4 5 6 7; do s=$((s + $(toolout tx_prio${p}_pause <<<"$raw"))); done
	echo $s
}
s0=$(sum_tx); t=$(pause_raw $D | toolout tx_pause_frames); s1=$(sum_tx)
if ((s0 <= t && t <= s1 && s0 < s1)); then
	tap_pass "tx_pause_frames ($t) lies between the per-priority sums around it ($s0, $s1)"
else
	tap_fail "tx_pause_frames lies between the per-priority sums around it" \
		"sums $s0 and $s1, total $t"
fi
tap_eq "the rate knob reads back" "20000 5000" \
	"$(cat "$(ctr $D pause_rx_prio3)/rate") $(cat "$(ctr $D pause_tx_prio3)/rate")"
tap_notok "a rate above 4294967295/s is refused" ctr_write $D pause_rx_prio3 rate 4294967296
tap_eq "... and the rate is unchanged" 20000 "$(cat "$(ctr $D pause_rx_prio3)/rate")"
ctr_write $D pause_rx_prio3 rate 0
ctr_write $D pause_tx_prio3 rate 0
v0=$(pfc_all $D indications); sleep 1; v1=$(pfc_all $D indications)
if [ "$v0" = "$v1" ] && [ "$(cut -d' ' -f4 <<<"$v1")" -gt 20000 ]; then
	tap_pass "rate 0: the storm ends, indications[3] stays at $(cut -d' ' -f4 <<<"$v1")"
else
	tap_fail "rate 0: the storm ends and the count stays" "$v0 then $v1"
fi
ctr_write $D fcs_errors rate 1000
in_band "ethtool -S rx_crc_errors_phy rises" 1000 "$(rate stats_raw rx_crc_errors_phy)"
ctr_write $D fcs_errors rate 0
ctr_write $D symbol_errors rate 500
if have eth_stats; then
	in_band "eth-phy SymbolErrorDuringCarrier rises" 500 \
		"$(rate groups_raw SymbolErrorDuringCarrier)"
else
	in_band "ethtool -S rx_symbol_err_phy rises" 500 \
		"$(rate stats_raw rx_symbol_err_phy)"
fi
ctr_write $D symbol_errors rate 0

# --- link settings --------------------------------------------------------------
# link_modes KIND: the words of ethtool's "KIND link modes:" block.
link_modes() {
	ethtool $D | awk -v k="$1 link modes:" '
		index($0, k) { on = 1; sub(".*" k, ""); print; next }
		on && /:/ { on = 0 }
		on { print }' | tr -s ' \t' '\n' | grep -v '^$' | sort | tr '\n' ' '
}
lanes() { if have link_lanes; then ethtool $D | toolout Lanes; else echo -; fi; }
want_lanes() { if have link_lanes; then echo "$1"; else echo -; fi; }
tap_eq "ethtool: speed, lanes, duplex of the trained link" \
	"100000Mb/s $(want_lanes 4) Full" \
	"$(ethtool $D | toolout Speed) $(lanes) $(ethtool $D | toolout Duplex)"
tap_eq "ethtool: supported link modes" \
	"100000baseCR4/Full 25000baseCR/Full 40000baseCR4/Full 50000baseCR2/Full " \
	"$(link_modes Supported)"
tap_ok "link_speed=50000" ds_write $D link_speed 50000
tap_eq "trained down: ethtool shows 50000Mb/s and 2 lanes" \
	"50000Mb/s $(want_lanes 2)" "$(ethtool $D | toolout Speed) $(lanes)"
tap_eq "... while advertising 100000baseCR4/Full" 1 \
	"$(link_modes Advertised | grep -c '100000baseCR4/Full')"
tap_notok "link_speed takes only the port's speeds (10000 refused)" ds_write $D link_speed 10000
tap_eq "... and the speed is unchanged" "50000 50000Mb/s" \
	"$(ds_read $D link_speed) $(ethtool $D | toolout Speed)"
ds_write $D link_speed 25000
tap_eq "link_speed=25000: 1 lane" "25000Mb/s $(want_lanes 1)" \
	"$(ethtool $D | toolout Speed) $(lanes)"
ds_write $D link_speed 100000
ip link set $D down
tap_eq "a device that is down has no speed" "Unknown!" "$(ethtool $D | toolout Speed)"
ip link set $D up
tap_eq "up again, trained up: 100000Mb/s" 100000Mb/s "$(ethtool $D | toolout Speed)"

# --- link flaps -----------------------------------------------------------------
cdc=$(cat /sys/class/net/$D/carrier_down_count)
tap_ok "link_flap=3" ds_write $D link_flap 3
tap_eq "... ethtool -S link_down_events_phy 3, one carrier drop" "3 $((cdc + 1))" \
	"$(stat $D link_down_events_phy) $(cat /sys/class/net/$D/carrier_down_count)"
wait_for grep -qx 1 /sys/class/net/$D/carrier
tap_eq "... and the carrier is back" 1 "$(cat /sys/class/net/$D/carrier)"
if ! have link_ext_stats; then
	tap_skip "ethtool -I: Link Down Events" "kernel has no get_link_ext_stats (6.2+)"
elif ! ethtool -I $D | grep -q 'Link Down Events'; then
	tap_skip "ethtool -I: Link Down Events" "this ethtool does not print them"
else
	tap_eq "ethtool -I: Link Down Events 3" 3 "$(ethtool -I $D | toolout 'Link Down Events')"
fi
tap_notok "link_flap=0 is refused" ds_write $D link_flap 0

# --- the PFC storm prevention tunable ------------------------------------------
tout() {
	local v
	v=$(ethtool --get-tunable $D pfc-prevention-tout 2>&1 | toolout pfc-prevention-tout) ||
		{ echo unreadable; return; }
	[ "$v" = off ] && v=0
	echo "$v"
}
# stout MS: set it; ethtool's messages go to stderr, out of the way of $(...)
stout() { ethtool --set-tunable $D pfc-prevention-tout "$1" >&2; }
tap_eq "pfc-prevention-tout defaults to 8000 ms" 8000 "$(tout)"
tap_ok "set 500" stout 500
tap_eq "... reads back 500" 500 "$(tout)"
tap_ok "set 65535 (auto)" stout 65535
tap_eq "... auto reads back as 100 ms" 100 "$(tout)"
tap_notok "79 ms is refused (below 80)" stout 79
tap_notok "8001 ms is refused (above 8000)" stout 8001
tap_eq "... the stored value is unchanged" 100 "$(tout)"
tap_eq "the bounds 80 and 8000 are taken" "80 8000" "$(stout 80 && tout) $(stout 8000 && tout)"
tap_eq "0 turns it off" 0 "$(stout 0 && tout)"
tap_eq "the other device kept its default" 8000 \
	"$(ethtool --get-tunable $D2 pfc-prevention-tout 2>&1 | toolout pfc-prevention-tout)"

# --- removal ----------------------------------------------------------------------
ctr_write $D pause_rx_prio0 rate 1000
tap_ok "rmmod with devices and a running storm" ds_unload
tap_eq "the debugfs tree is gone" absent "$([ -e "$DS_DBG" ] && echo present || echo absent)"
tap_ok "no warnings in the kernel log" kernel_log_clean
tap_done
