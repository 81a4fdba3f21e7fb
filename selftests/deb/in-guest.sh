#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The in-guest half of selftests/host/deb.sh, which starts it in a lab
# guest as
#     in-guest.sh ROCETUNE.deb ROCETUNE-DKMS.deb DKMS-TARBALL DCBSIM.ko
# dpkg -i writes into the guest's tmpfs overlay of the host root. The
# rocetune-dkms postinst loads the module DKMS built on the host from
# DKMS-TARBALL (put where the postinst looks for a prebuilt one) and
# installs it with DKMS; then the installed tools, units and rule are used
# as a node would use them, and dpkg -r takes it all away again.

set -u
top=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
. "$top/selftests/lib/tap.sh"

[ -n "${LAB_HOST:-}" ] || tap_skip_all "runs in a lab guest (selftests/host/deb.sh starts it)"
[ $# -eq 4 ] || tap_bail "usage: $0 DEB DKMSDEB TARBALL DCBSIM"
DEB=$1 DKMSDEB=$2 TARBALL=$3 DCBSIM=$4
K=$(uname -r)
VER=$(dpkg-deb -f "$DKMSDEB" Version)
EX=/usr/share/doc/rocetune/examples
CM=/sys/kernel/config/rdma_cm/rxe0/ports/1

tap_plan 16

# Only this kernel: the postinst builds for the running kernel and for the
# newest one in /boot, and the guest sees the host's /boot, where other
# kernels may be installed; building for them is not this test's business.
for c in /boot/config-*; do
	[ "$c" = "/boot/config-$K" ] || rm -f "$c"
done
mkdir -p /usr/share/rocetune-dkms
cp "$TARBALL" "/usr/share/rocetune-dkms/rocetune-$VER.dkms.tar.gz"

# man-db's trigger re-indexes every manual page, which over 9p under TCG
# takes minutes; /var/lib/man-db/auto-update is its documented switch.
rm -f /var/lib/man-db/auto-update

export DEBIAN_FRONTEND=noninteractive
t0=$(date +%s)
tap_ok "dpkg -i rocetune rocetune-dkms" dpkg -i "$DEB" "$DKMSDEB"
tap_diag "dpkg -i: $(($(date +%s) - t0)) s"
tap_ok "dkms status: rocetune/$VER installed for $K" \
	bash -c "dkms status -m rocetune -v $VER -k $K | grep -q ': installed'"
ko=$(modinfo -n rocetune 2>/dev/null)
tap_eq "modprobe finds the DKMS-installed module" "/lib/modules/$K/updates/dkms" "${ko%/*}"
t_modprobe() {
	modprobe rocetune && [ -d /sys/kernel/config/rocetune ] &&
	[ "$(cat /sys/module/rocetune/version)" = "$VER" ]
}
tap_ok "modprobe rocetune: version $VER, configfs subsystem present" t_modprobe

# rxe0 on a DCB-capable test netdev, as the lab profile expects.
mkdevs() {
	insmod "$DCBSIM" && modprobe rdma_rxe && modprobe rdma_cm || return 1
	ip link add link eth0 name dcb0 type dcbsim && ip link set dcb0 up &&
	rdma link add rxe0 type rxe netdev dcb0 || return 1
	for _ in $(seq 50); do
		[ -d /sys/kernel/config/rocetune/rxe0 ] && return 0
		sleep 0.1
	done
	return 1
}
t_udev_rxe() {
	udevadm test --action=add /sys/class/infiniband/rxe0 2>&1 |
		grep -Eq '^SYSTEMD_WANTS=(.* )?rocetune@rxe0\.service( |$)'
}
t_udev_eth() {
	! udevadm test --action=add /sys/class/net/eth0 2>&1 | grep -q 'rocetune@'
}
tos() { # the rdma_cm default ToS of rxe0 port 1, read or written
	local v
	mkdir -p "${CM%/ports/1}" || return 1
	if [ $# -eq 1 ]; then
		echo "$1" >"$CM/default_roce_tos"
	else
		v=$(cat "$CM/default_roce_tos")
	fi
	rmdir "${CM%/ports/1}"
	[ $# -eq 1 ] || echo "$v"
}
pfc3() { dcb pfc show dev dcb0 prio-pfc | grep -Eq '(^| )3:on( |$)'; }
ecnprios() { cat /sys/kernel/config/rocetune/rxe0/ports/1/cc/active/ecn_enabled_prios; }

# Everything that needs rxe0 on dcb0.
devtests() {
	tap_ok "udevadm test: a new rxe0 wants rocetune@rxe0.service" t_udev_rxe
	tap_ok "udevadm test: a virtio netdev (no RoCE) wants nothing of rocetune" t_udev_eth

	rocetune apply "$EX/soft-roce-lab.conf" >/tmp/apply.out 2>&1
	tap_eq "rocetune apply $EX/soft-roce-lab.conf: changes made (exit 2)" 2 $?
	[ "$TAP_FAIL" -eq 0 ] || sed 's/^/#   /' /tmp/apply.out
	tap_eq "read back: rdma_cm ToS 106, PFC on priority 3, ECN on priority 3" \
		"106 pfc3 3" "$(tos) $(pfc3 && echo pfc3) $(ecnprios)"
	rocetune apply "$EX/soft-roce-lab.conf" >/dev/null 2>&1
	tap_eq "second apply: nothing to change (exit 0)" 0 $?

	# The boot-time apply: the installed unit's own command, with a profile for
	# this host, one for hardware it lacks, and a setting changed behind
	# rocetune's back.
	cp "$EX/soft-roce-lab.conf" "$EX/lossless-roce.conf" /etc/rocetune/
	tos 0
	boot=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/rocetune.service)
	$boot >/tmp/boot.out 2>&1
	tap_eq "rocetune.service's ExecStart: exit 0 (lossless-roce.conf matches nothing here)" 0 $?
	sed 's/^/#   /' /tmp/boot.out
	tap_eq "... and the ToS changed behind its back is 106 again" 106 "$(tos)"

	inst=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/rocetune@.service)
	tos 0
	${inst//%I/eth0} >/dev/null 2>&1
	tap_eq "rocetune@eth0.service's command: exit 0, rxe0's profile not applied" "0 0" "$? $(tos)"
	${inst//%I/rxe0} >/dev/null 2>&1
	tap_eq "rocetune@rxe0.service's command: exit 0, rxe0's profile applied" "0 106" "$? $(tos)"

	rdma link delete rxe0
	ip link del dcb0
	rmmod rocetune_dcbsim
}
if [ -f "$DCBSIM" ] && mkdevs; then
	devtests
else
	for _ in $(seq 9); do
		tap_skip "udev rule and apply on rxe0" "no rxe0 on a dcbsim netdev ($DCBSIM: make module)"
	done
fi

tap_ok "rmmod rocetune" rmmod rocetune
t0=$(date +%s)
tap_ok "dpkg -r rocetune-dkms rocetune" dpkg -r rocetune-dkms rocetune
tap_diag "dpkg -r: $(($(date +%s) - t0)) s"
t_gone() {
	! modinfo -n rocetune >/dev/null 2>&1 && [ ! -e /usr/sbin/rocetune ] &&
	! dkms status -m rocetune | grep -q .
}
tap_ok "the module, the tool and the DKMS entry are gone" t_gone
tap_done
