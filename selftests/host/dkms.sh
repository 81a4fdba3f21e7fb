#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms.conf works: dkms add, build, install and remove succeed against the
# kernel the build uses (scripts/kernel.sh: KVER=, KDIR=, else the running
# or Debian's default kernel), and in a lab guest running that kernel the
# module DKMS installed is found by depmod and loaded by modprobe, its
# dependencies with it. DKMS runs on private trees
# (--sourcetree/--dkmstree/--installtree, --no-depmod) so the machine's own
# /usr/src, /var/lib/dkms and /lib/modules are left alone; the guest copies
# the installed module into its own /lib/modules (a tmpfs overlay that
# vanishes with it) at the path DKMS chose, and runs depmod there.
# `make matrix` runs this once per installed kernel (KVER=...).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

[ "$(id -u)" -eq 0 ] || tap_skip_all "dkms needs root"
K=$("$TOP/scripts/kernel.sh" --kver 2>/dev/null) || tap_skip_all "no kernel headers installed"
# A kernel kept in a chroot (7.2 from sid, Documentation/kernels.rst) is
# built there by the chroot's own dkms, as on a sid machine: dkms runs in
# the chroot with $T bind-mounted at the same path.
KD=$("$TOP/scripts/kernel.sh" | cut -d' ' -f2)
KROOT=$("$TOP/scripts/kernel.sh" --root "$KD")
dk() {
	if [ -n "$KROOT" ]; then
		(cd "$T" && "$TOP/scripts/chroot-run.sh" "$KROOT" "$T" dkms "$@")
	else
		dkms "$@"
	fi
}
if [ -n "$KROOT" ]; then
	[ -x "$KROOT/usr/sbin/dkms" ] || tap_skip_all "dkms not installed in $KROOT (scripts/install-deps.sh --kernels)"
else
	command -v dkms >/dev/null || tap_skip_all "dkms not installed (make deps)"
fi
VER=$(cat "$TOP/VERSION")

T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-dkms.XXXXXX")
trap 'rm -rf "$T"' EXIT
SRC=$T/src/rocetune-$VER
O=(--sourcetree "$T/src" --dkmstree "$T/dkms" --installtree "$T/inst" --no-depmod)
# dkms 3.2 (sid's) looks for the headers under --installtree: name them.
KS=(--kernelsourcedir "/lib/modules/$K/build")
mkdir -p "$SRC" "$T/dkms" "$T/inst/$K"

tap_plan 9
tap_diag "kernel $K, version $VER${KROOT:+, dkms in the chroot $KROOT}"

conf_ver=$(. "$TOP/dkms.conf" && echo "$PACKAGE_VERSION")
tap_eq "dkms.conf PACKAGE_VERSION matches VERSION" "$VER" "$conf_ver"

# The source as a release would ship it: tracked files only, no build output.
if git -C "$TOP" ls-files --error-unmatch dkms.conf >/dev/null 2>&1; then
	(cd "$TOP" && git ls-files -z | xargs -0 tar -cf -) | tar -xf - -C "$SRC"
else
	cp -a "$TOP/." "$SRC"	# not a git checkout (make matrix's copies)
fi
tap_ok "dkms add" dk add -m rocetune -v "$VER" "${O[@]}"
tap_ok "dkms build -k $K" dk build -m rocetune -v "$VER" -k "$K" "${O[@]}" "${KS[@]}"
tap_ok "dkms install -k $K" dk install -m rocetune -v "$VER" -k "$K" "${O[@]}" "${KS[@]}"
KO=$(find "$T/inst/$K" -name 'rocetune.ko*' | head -1)
t_modinfo() {
	[ -n "$KO" ] &&
	modinfo -F vermagic "$KO" | grep -q "^$K " &&
	[ "$(modinfo -F version "$KO")" = "$VER" ]
}
tap_ok "installed module has vermagic $K and version $VER" t_modinfo
t_status() { dk status "${O[@]}" | grep -q "rocetune/$VER, $K, .*: installed"; }
tap_ok "dkms status shows installed" t_status

# Load what DKMS installed, the way an installed package is loaded, in a
# guest booting kernel $K.
if [ -x "$TOP/selftests/lab/lab-run" ] && [ -n "$KO" ]; then
	REL=${KO#"$T/inst/$K/"}
	cat >"$T/guest.sh" <<GUEST
#!/bin/bash
. "$TOP/selftests/lib/tap.sh"
tap_plan 4
M=/lib/modules/$K/$REL
mkdir -p "\$(dirname "\$M")" && cp "$KO" "\$M" && depmod -a "$K"
tap_eq "depmod finds the DKMS-installed module" "\$M" "\$(modinfo -k "$K" -n rocetune 2>&1)"
tap_ok "modprobe rocetune (ib_core, configfs from modules.dep)" modprobe rocetune
tap_eq "the loaded module is the DKMS-built one (srcversion)" \
	"\$(modinfo -F srcversion "$KO")" "\$(cat /sys/module/rocetune/srcversion 2>&1)"
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
tap_ok "its configfs subsystem appears" test -d /sys/kernel/config/rocetune
tap_done
GUEST
	chmod +x "$T/guest.sh"
	# The caller holds the lab lock, or (make matrix) passes it open as
	# RTUNE_DKMS_LAB_LOCK_FD, to be taken now that the DKMS build, which
	# needs no lab, is over; it stays the caller's when this script exits.
	if [ -n "${RTUNE_DKMS_LAB_LOCK_FD:-}" ]; then
		flock "$RTUNE_DKMS_LAB_LOCK_FD"
	fi
	LAB_KVER=$K "$TOP/selftests/lab/lab-run" --hosts 1 --timeout 300 \
		--out "$T/lab" --script 1="$T/guest.sh" >"$T/lab.log" 2>&1
	rc=$?
	sed 's/^/#   /' "$T/lab/share/host1/out.tap" 2>/dev/null
	[ "$rc" -eq 0 ] || tail -5 "$T/lab.log" | sed "s/^/#   lab: /"
	tap_eq "DKMS-installed module loads with modprobe in a guest running $K" 0 "$rc"
else
	tap_skip "DKMS-installed module loads with modprobe in a guest" "lab harness not available"
fi

tap_ok "dkms remove --all" dk remove -m rocetune -v "$VER" --all "${O[@]}"
t_removed() {
	[ -z "$(find "$T/inst" -name 'rocetune.ko*')" ] &&
	! dk status "${O[@]}" | grep -q rocetune
}
tap_ok "module and DKMS entry gone after remove" t_removed
tap_done
