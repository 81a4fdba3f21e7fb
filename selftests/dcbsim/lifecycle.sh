#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dcbsim device lifecycle, one guest: create and delete standalone and
# stacked devices, debugfs directories that follow them, MTU bounds,
# transmit in standalone mode, stacked traffic over a veth pair into a
# network namespace, deleting the lower device, rmmod with devices present.
#
#   dcb0 (dcbsim) -- veth0 ====== veth1 [netns dsns]
#   198.18.201.1/24               198.18.201.2/24
#
# Run as root in a lab guest: selftests/dcbsim/run.sh does it.

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ds_require
modprobe veth || tap_skip_all "no veth module"

NS=dsns
cleanup() {
	ip netns del $NS 2>/dev/null
	ip link del veth0 2>/dev/null
	ds_loaded && ds_unload
}
trap cleanup EXIT

tap_plan 40

# --- standalone ------------------------------------------------------------
tap_ok "insmod rocetune_dcbsim.ko" ds_load
tap_ok "debugfs root with a features file" test -f "$DS_DBG/features"
tap_ok "ip link add dcbsim0 type dcbsim" ip link add dcbsim0 type dcbsim
tap_ok "link kind is dcbsim" \
	bash -c 'ip -d link show dcbsim0 | grep -qw dcbsim'

t_dir() {
	local idx f
	idx=$(cat /sys/class/net/dcbsim0/ifindex) || return 1
	for f in name pfc_cap; do
		[ -f "$DS_DBG/$idx/$f" ] || { echo "no $f"; return 1; }
	done
	for f in ets pfc app apptrust maxrate buffer dcbx; do
		for k in fail_next ignore calls sets; do
			[ -f "$DS_DBG/$idx/${k}_$f" ] || { echo "no ${k}_$f"; return 1; }
		done
	done
}
tap_ok "debugfs directory named by ifindex has every knob" t_dir
tap_eq "debugfs name file" dcbsim0 "$(ds_read dcbsim0 name)"

ip link set dcbsim0 name dcbren
tap_eq "name file follows a rename" dcbren "$(ds_read dcbren name)"
ip link set dcbren name dcbsim0

tap_ok "dcbnl ops answer (dcb pfc show)" dcb pfc show dev dcbsim0

tap_ok "standalone MTU 9000 accepted" ip link set dcbsim0 mtu 9000
tap_notok "standalone MTU 9001 rejected" ip link set dcbsim0 mtu 9001
tap_notok "MTU 67 rejected" ip link set dcbsim0 mtu 67
tap_eq "MTU still 9000" 9000 "$(cat /sys/class/net/dcbsim0/mtu)"
tap_notok "MTU 9001 at creation rejected too" \
	ip link add dcbsim1 mtu 9001 type dcbsim
tap_ok "standalone MAC address can be changed" \
	ip link set dcbsim0 address 02:00:00:00:02:01

# Standalone transmit counts and frees: send 5 datagrams to a permanent
# neighbour, so no ARP is needed and nothing can answer.
t_sink() {
	local before after i
	ip link set dcbsim0 up &&
	ip addr add 198.18.200.1/24 dev dcbsim0 &&
	ip neigh add 198.18.200.2 lladdr 02:00:00:00:02:02 dev dcbsim0 nud permanent || return 1
	before=$(ds_counter dcbsim0 tx_packets)
	for i in 1 2 3 4 5; do
		echo "dcbsim $i" >/dev/udp/198.18.200.2/9 || return 1
	done
	after=$(ds_counter dcbsim0 tx_packets)
	echo "tx_packets $before -> $after"
	[ $((after - before)) -ge 5 ]
}
tap_ok "standalone transmit counts packets" t_sink

t_gone() { # IFINDEX: debugfs directory gone
	[ ! -e "$DS_DBG/$1" ]
}
idx=$(cat /sys/class/net/dcbsim0/ifindex)
tap_ok "ip link del dcbsim0" ip link del dcbsim0
tap_ok "its debugfs directory is gone" t_gone "$idx"

# An APP entry lives in the DCB core's table, keyed by ifindex: it must not
# outlive the device.
t_app_flushed() {
	ip link add dcbsim0 type dcbsim &&
	dcb_write app add dev dcbsim0 dscp-prio 26:3 &&
	ip link del dcbsim0 &&
	ip link add dcbsim0 type dcbsim || return 1
	[ "$(ds_get dcbsim0 app)" = "" ]
}
tap_ok "APP table does not outlive the device" t_app_flushed
ip link del dcbsim0 2>/dev/null

# --- stacked on veth0 ------------------------------------------------------
ip link add veth0 type veth peer name veth1
ip netns add $NS
ip link set veth1 netns $NS
tap_notok "no dcbsim device in another network namespace" \
	ip -n $NS link add dcbsim9 type dcbsim
ip link add dcbsim9 type dcbsim
tap_notok "a dcbsim device cannot move to another namespace" \
	ip link set dcbsim9 netns $NS
ip link del dcbsim9
tap_ok "ip link add link veth0 name dcb0 type dcbsim" \
	ip link add link veth0 name dcb0 type dcbsim
tap_eq "stacked device has the lower's MAC" \
	"$(cat /sys/class/net/veth0/address)" "$(cat /sys/class/net/dcb0/address)"
tap_eq "iflink is the lower's ifindex" \
	"$(cat /sys/class/net/veth0/ifindex)" "$(cat /sys/class/net/dcb0/iflink)"
tap_notok "a second dcbsim on the same lower is refused" \
	ip link add link veth0 name dcb1 type dcbsim
tap_notok "a stacked device refuses a MAC address" \
	ip link add link veth0 name dcb1 address 02:00:00:00:02:03 type dcbsim
tap_notok "stacked MAC address cannot be changed" \
	ip link set dcb0 address 02:00:00:00:02:04
# veth's maximum is 65535: above the standalone 9000, the lower's bound.
tap_ok "stacked MTU 9216 accepted (lower's max, not 9000)" ip link set dcb0 mtu 9216
tap_notok "stacked MTU 65536 rejected" ip link set dcb0 mtu 65536
ip link set dcb0 mtu 1500

t_stacked_ping() {
	local rx tx
	ip link set veth0 up &&
	ip link set dcb0 up &&
	ip addr add 198.18.201.1/24 dev dcb0 &&
	ip -n $NS link set veth1 up &&
	ip -n $NS addr add 198.18.201.2/24 dev veth1 || return 1
	rx=$(ds_counter dcb0 rx_packets) tx=$(ds_counter dcb0 tx_packets)
	wait_for busybox ping -c 1 -W 1 198.18.201.2 >/dev/null || return 1
	busybox ping -c 3 -W 2 198.18.201.2 || return 1
	echo "dcb0 rx_packets $rx -> $(ds_counter dcb0 rx_packets)," \
		"tx_packets $tx -> $(ds_counter dcb0 tx_packets)"
	[ "$(ds_counter dcb0 rx_packets)" -ge $((rx + 3)) ] &&
		[ "$(ds_counter dcb0 tx_packets)" -ge $((tx + 3)) ]
}
tap_ok "stacked: ping through dcb0 -> veth0 -> peer, counted on dcb0" t_stacked_ping

t_operstate() { # the upper follows the lower's carrier
	ip link set veth0 down &&
		wait_for bash -c '! grep -qx up /sys/class/net/dcb0/operstate' || return 1
	echo "dcb0 is $(cat /sys/class/net/dcb0/operstate) with veth0 down"
	ip link set veth0 up &&
		wait_for grep -qx up /sys/class/net/dcb0/operstate
}
tap_ok "stacked device follows the lower's operstate" t_operstate

t_lower_back() { # with dcb0 down, veth0 gets its frames back
	ip link set dcb0 down &&
	ip addr add 198.18.202.1/24 dev veth0 &&
	ip -n $NS addr add 198.18.202.2/24 dev veth1 || return 1
	wait_for busybox ping -c 1 -W 1 198.18.202.2 >/dev/null
}
tap_ok "while dcb0 is down, the lower keeps its traffic" t_lower_back

idx=$(cat /sys/class/net/dcb0/ifindex)
tap_ok "deleting the lower (veth0)" ip link del veth0
tap_ok "... deletes the stacked device" wait_for test ! -e /sys/class/net/dcb0
tap_ok "... and its debugfs directory" t_gone "$idx"

# --- rmmod with devices present -------------------------------------------
ip link add veth0 type veth peer name veth1
ip link add dcbsim0 type dcbsim
tap_ok "stacked MTU 9216 at creation accepted" \
	ip link add link veth0 name dcb0 mtu 9216 type dcbsim
ip link set dcb0 up
tap_ok "rmmod with a standalone and a stacked device present" ds_unload
tap_ok "devices are gone" \
	bash -c '! ip link show dcbsim0 2>/dev/null && ! ip link show dcb0 2>/dev/null'
tap_ok "debugfs root is gone" test ! -e "$DS_DBG"
tap_ok "the lower survives, free again (macvlan can take it)" \
	bash -c 'ip link add link veth0 name mv0 type macvlan mode passthru && ip link del mv0'

tap_ok "no warnings in the kernel log" kernel_log_clean
tap_done
