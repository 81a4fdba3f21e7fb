#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The installed units and udev rule under a real systemd: the guest half
# of selftests/host/deb.sh's second boot, started as
#     lab-run --init systemd --script 1=systemd-guest.sh DEB KO DCBSIM
#
# LAB_PHASE=pre-init (stage 2, before systemd): install the rocetune
# package (tools, units, rule: dpkg -i enables rocetune.service and
# rocetune-watch.service), rocetune.ko where modprobe finds it, the
# Soft-RoCE lab profile in /etc/rocetune, and rxe0 on a DCB-capable test
# netdev, so the RDMA device exists at boot as a NIC's would. rocetune.ko
# and rdma_cm are not loaded: the boot-time apply must do it.
#
# LAB_PHASE=systemd (lab-script.service, after multi-user.target): what
# the boot did, then a hotplug and a drift, all through systemd and udev.

set -u
top=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
. "$top/selftests/lib/tap.sh"
. "$top/selftests/lib/dcb-write.sh"

[ -n "${LAB_HOST:-}" ] || tap_skip_all "runs in a lab guest (selftests/host/deb.sh starts it)"
[ $# -eq 3 ] || tap_bail "usage: $0 DEB KO DCBSIM"
DEB=$1 KO=$2 DCBSIM=$3
K=$(uname -r)
PROFILE=/etc/rocetune/soft-roce-lab.conf
CM=/sys/kernel/config/rdma_cm/rxe0/ports/1

# pre-init: diagnostics only (the TAP plan is the systemd phase's); any
# failure stops the boot, and lab-run reports this phase's exit status.
if [ "${LAB_PHASE:-}" = pre-init ]; then
	set -e
	export DEBIAN_FRONTEND=noninteractive
	# man-db's trigger re-indexes every page over 9p: minutes under TCG.
	rm -f /var/lib/man-db/auto-update
	dpkg -i "$DEB" >/tmp/dpkg.log 2>&1 || { cat /tmp/dpkg.log; exit 1; }
	echo "# pre-init: dpkg -i $(basename "$DEB")"
	install -D -m 644 "$KO" "/lib/modules/$K/updates/rocetune.ko"
	depmod -a "$K"
	echo "# pre-init: rocetune.ko installed for modprobe"
	cp /usr/share/doc/rocetune/examples/soft-roce-lab.conf "$PROFILE"
	insmod "$DCBSIM"
	ip link add link eth0 name dcb0 type dcbsim
	ip link set dcb0 up
	modprobe rdma_rxe
	rdma link add rxe0 type rxe netdev dcb0
	echo "# pre-init: rxe0 on dcb0; booting systemd"
	exit 0
fi

[ "${LAB_PHASE:-}" = systemd ] || tap_skip_all "needs lab-run --init systemd (LAB_PHASE=${LAB_PHASE:-unset})"

tap_plan 14

prop() { # UNIT PROPERTY: its value
	systemctl show -p "$2" --value "$1"
}
tos() { # rxe0's rdma_cm default ToS (the rdma_cm directory is made and removed)
	local v
	mkdir -p "${CM%/ports/1}" 2>/dev/null || return 1
	if [ $# -eq 1 ]; then
		echo "$1" >"$CM/default_roce_tos"
	else
		v=$(cat "$CM/default_roce_tos")
	fi
	rmdir "${CM%/ports/1}"
	[ $# -eq 1 ] || echo "$v"
}
# wait_until SECS CMD...: poll CMD every half second.
wait_until() {
	local n=$(($1 * 2))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.5
		n=$((n - 1))
	done
	return 1
}

pid1=$(readlink /proc/1/exe)
tap_eq "PID 1 is systemd" systemd "${pid1##*/}"
# Booted: multi-user.target is active, and the only job left is this
# script's own service (so the system state still says "starting").
t_booted() {
	local jobs
	systemctl is-active multi-user.target || return 1
	jobs=$(systemctl list-jobs --plain --no-legend | awk '{print $2}' | grep -v '^lab-script\.service$')
	[ -z "$jobs" ] || { echo "jobs still queued: $jobs"; return 1; }
}
tap_ok "the boot reached multi-user.target" t_booted
tap_diag "failed units: $(systemctl list-units --failed --plain --no-legend | awk '{print $1}' | xargs)"

# Boot-time apply: rocetune.service (WantedBy=multi-user.target).
t_boot_apply() {
	[ "$(prop rocetune.service ActiveState)" = active ] &&
	[ "$(prop rocetune.service Result)" = success ] &&
	[ "$(prop rocetune.service ExecMainStatus)" = 0 ] ||
		{ systemctl status --no-pager rocetune.service; journalctl -b -u rocetune.service --no-pager; return 1; }
}
tap_ok "rocetune.service ran at boot and succeeded" t_boot_apply
tap_ok "boot-time apply loaded rocetune.ko and rdma_cm" test -d /sys/module/rocetune -a -d /sys/module/rdma_cm
tap_eq "the profile holds after boot: rxe0's ToS 106" 106 "$(tos)"
rocetune diff "$PROFILE" >/tmp/diff.out 2>&1
tap_eq "the profile holds after boot: rocetune diff has nothing to change (exit 0)" 0 $?
[ "$TAP_FAIL" -eq 0 ] || sed 's/^/#   /' /tmp/diff.out

# Coldplug: udev's "add" for rxe0 started rocetune@rxe0.service, ordered
# after the boot-time apply (After=rocetune.service).
t_coldplug() {
	local inst=rocetune@rxe0.service
	[ -n "$(prop $inst InvocationID)" ] && [ "$(prop $inst ExecMainStatus)" = 0 ] &&
	[ "$(prop $inst ExecMainStartTimestampMonotonic)" -ge \
	  "$(prop rocetune.service ExecMainExitTimestampMonotonic)" ] ||
		{ systemctl status --no-pager $inst; return 1; }
}
tap_ok "udev coldplug ran rocetune@rxe0.service after rocetune.service, exit 0" t_coldplug
tap_ok "rocetune-watch.service is running" systemctl is-active rocetune-watch.service

# Hotplug: the RDMA device goes and comes back (a NIC reset); its settings
# went with it, and udev's event must bring the profile back.
before=$(prop rocetune@rxe0.service InvocationID)
rdma link delete rxe0
rdma link add rxe0 type rxe netdev dcb0
t_reran() {
	local id
	id=$(prop rocetune@rxe0.service InvocationID)
	[ -n "$id" ] && [ "$id" != "$before" ] &&
	[ "$(prop rocetune@rxe0.service ActiveState)" = inactive ]
}
tap_ok "rdma link add rxe0 again: udev started rocetune@rxe0.service again, and it ended" \
	wait_until 90 t_reran
tap_eq "... exit 0, rxe0's ToS 106 again" "0 106" "$(prop rocetune@rxe0.service ExecMainStatus) $(tos)"
rocetune diff "$PROFILE" >/tmp/diff.out 2>&1
tap_eq "... and rocetune diff has nothing to change (exit 0)" 0 $?
[ "$TAP_FAIL" -eq 0 ] || sed 's/^/#   /' /tmp/diff.out

# Drift under the packaged watch unit: PFC turned off behind rocetune's
# back is in the journal, and back in sync after `systemctl reload
# rocetune` (its ExecReload applies every profile again).
journal() { journalctl -b -u rocetune-watch.service -o cat --no-pager; }
t_drift() { journal | grep -Eq "drift dcb0 .*pfc\.priorities is 'none', the profile wants '3'"; }
t_again() { journal | grep -Eq "dcb0 .*pfc\.priorities is '3' again"; }
dcb_write pfc set dev dcb0 prio-pfc 3:off
tap_ok "PFC off behind rocetune's back: rocetune-watch's journal reports the drift" wait_until 60 t_drift
systemctl reload rocetune.service
tap_ok "systemctl reload rocetune: the watch's journal says PFC is as declared again" wait_until 60 t_again
[ "$TAP_FAIL" -eq 0 ] || journal | tail -20 | sed 's/^/#   /'

t_no_failed() {
	! systemctl list-units --failed --plain --no-legend | grep -q rocetune
}
tap_ok "no rocetune unit failed" t_no_failed
tap_done
