#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages (Documentation/packaging.rst): dpkg-buildpackage
# builds rocetune and rocetune-dkms from a copy of the tree; lintian is
# clean; both packages hold what they should (the tools with their bash
# completion); DKMS builds the packaged module source. Then, in a lab
# guest, dpkg -i installs both (the DKMS postinst installs the module),
# modprobe rocetune loads it, the installed example soft-roce-lab.conf
# applies to an rxe device, the installed boot unit's command and the udev
# rule do their part, and dpkg -r removes it all. A second guest boots
# systemd with the package installed (lab-run --init systemd): the units
# and the rule run for real (selftests/deb/systemd-guest.sh).
#
# The module is compiled on the host: under TCG a guest needs more than
# 9 minutes for it. The postinst gets it through DKMS's own prebuilt path
# (/usr/share/rocetune-dkms/rocetune-VERSION.dkms.tar.gz, from
# `dkms mktarball`), loads it with ldtarball and installs it with DKMS in
# the guest. The rxe device sits on a rocetune_dcbsim netdev (DCB for the
# profile's [trust] and [pfc]) from this tree's build (make module).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

[ "$(id -u)" -eq 0 ] || tap_skip_all "needs root (dpkg-buildpackage, dkms)"
for c in dpkg-buildpackage dh dh_dkms dkms; do
	command -v $c >/dev/null ||
		tap_skip_all "$c not installed (apt-get install dpkg-dev debhelper dh-dkms dkms)"
done
# The kernel the rest of the tree builds for (scripts/kernel.sh), never
# "the newest under /lib/modules" (a 7.2 chroot's link would win).
K=${LAB_KVER:-$("$TOP/scripts/kernel.sh" --kver 2>/dev/null)}
[ -n "$K" ] && [ -d "/lib/modules/$K/build" ] || tap_skip_all "no kernel headers installed"
VER=$(cat "$TOP/VERSION")
start=$(date +%s)

T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-deb.XXXXXX")
trap 'rm -rf "$T"' EXIT
SRC=$T/build/rocetune-$VER

tap_plan 13
tap_diag "version $VER, kernel $K"

# The tree as a release would ship it (tracked and new files, nothing
# ignored: no build output), built out of the checkout.
mkdir -p "$SRC"
(cd "$TOP" && git ls-files -z -co --exclude-standard 2>/dev/null | xargs -0 tar -cf -) |
	tar -xf - -C "$SRC"
[ -f "$SRC/debian/control" ] || cp -a "$TOP/." "$SRC"	# not a git checkout
t_build() {
	(cd "$SRC" && dpkg-buildpackage -us -uc -b) >"$T/build.log" 2>&1 ||
		{ tail -20 "$T/build.log"; return 1; }
}
b0=$(date +%s)
tap_ok "dpkg-buildpackage -us -uc -b" t_build
tap_diag "package build: $(($(date +%s) - b0)) s"
DEB=$T/build/rocetune_${VER}_$(dpkg --print-architecture).deb
DKMSDEB=$T/build/rocetune-dkms_${VER}_all.deb
[ -f "$DEB" ] && [ -f "$DKMSDEB" ] || {
	tap_bail "no packages: $(ls "$T/build")"
}

t_versions() {
	[ "$(dpkg-deb -f "$DEB" Version)" = "$VER" ] &&
	[ "$(dpkg-deb -f "$DKMSDEB" Version)" = "$VER" ]
}
tap_ok "both packages have version $VER (VERSION)" t_versions

# has DEB PATH...: every PATH is in the package
has() {
	local deb=$1 p list
	list=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|; s|/$||')
	shift
	for p; do
		grep -qx -- "$p" <<<"$list" || { echo "missing: $p"; return 1; }
	done
}
tap_ok "rocetune: tools, man pages, units, udev rule, example profiles" has "$DEB" \
	/usr/sbin/rocetune /usr/bin/dcqcn-sim /usr/libexec/rocetune/rocetune-apply-all \
	/usr/share/man/man8/rocetune.8.gz /usr/share/man/man5/rocetune.conf.5.gz \
	/usr/share/man/man1/dcqcn-sim.1.gz \
	/lib/systemd/system/rocetune.service /lib/systemd/system/rocetune@.service \
	/lib/systemd/system/rocetune-watch.service \
	/lib/udev/rules.d/90-rocetune.rules /etc/rocetune \
	/usr/share/doc/rocetune/examples/soft-roce-lab.conf \
	/usr/share/doc/rocetune/examples/lossless-roce.conf \
	/usr/share/doc/rocetune/examples/lossy-roce-ecn.conf

# The test build links the tools with ASan/UBSan; the package must not.
t_nosan() {
	mkdir -p "$T/root" && dpkg-deb -x "$DEB" "$T/root" || return 1
	local b n
	for b in "$T/root/usr/sbin/rocetune" "$T/root/usr/bin/dcqcn-sim"; do
		n=$(LC_ALL=C readelf -d "$b" | grep NEEDED) || return 1
		if grep -Eq 'libasan|libubsan' <<<"$n"; then
			echo "$b: $n"
			return 1
		fi
	done
	"$T/root/usr/sbin/rocetune" --version
}
tap_ok "rocetune: binaries built without sanitizers, and they run" t_nosan

# Bash completion where bash-completion's loader looks for it (by the
# command's name), the tree's file, and it registers a completion for
# rocetune when sourced.
BC=/usr/share/bash-completion/completions/rocetune
t_completion() {
	has "$DEB" "$BC" || return 1
	cmp "$TOP/tools/rocetune/rocetune.bash-completion" "$T/root$BC" || return 1
	bash -c '. "$1" && complete -p rocetune' _ "$T/root$BC" | grep -q ' rocetune$'
}
tap_ok "rocetune: bash completion in $BC, registers rocetune" t_completion

S=/usr/src/rocetune-$VER
t_dkmsdeb() {
	local l bad
	has "$DKMSDEB" "$S/dkms.conf" "$S/Kbuild" "$S/Makefile" "$S/VERSION" \
		"$S/scripts/kernel.sh" \
		"$S/kmod/main.c" "$S/kmod/core/dcqcn.c" "$S/kmod/compat/conftest.sh" || return 1
	l=$(dpkg-deb -c "$DKMSDEB" | awk '{print $6}')
	bad=$(grep -E '\.(o|ko|cmd|mod|mod\.c)$|compat_generated\.h$' <<<"$l")
	[ -z "$bad" ] || { echo "build output shipped: $bad"; return 1; }
	mkdir -p "$T/dkmsroot" && dpkg-deb -x "$DKMSDEB" "$T/dkmsroot" &&
	[ "$(. "$T/dkmsroot$S/dkms.conf" && echo "$PACKAGE_VERSION")" = "$VER" ]
}
tap_ok "rocetune-dkms: module source and dkms.conf ($VER), no build output" t_dkmsdeb

t_scripts() {
	dpkg-deb -e "$DKMSDEB" "$T/ctl-dkms" && dpkg-deb -e "$DEB" "$T/ctl" &&
	grep -q common.postinst "$T/ctl-dkms/postinst" &&
	grep -q 'dkms remove' "$T/ctl-dkms/prerm" &&
	grep -q 'deb-systemd-helper' "$T/ctl/postinst"
}
tap_ok "maintainer scripts: DKMS add/build/install and remove, unit enabled" t_scripts

if command -v lintian >/dev/null; then
	t_lintian() {
		lintian --fail-on error,warning,info,pedantic -I --pedantic \
			"$T"/build/rocetune_"${VER}"_*.changes
	}
	tap_ok "lintian (pedantic, overrides explained in debian/)" t_lintian
else
	tap_skip "lintian" "lintian not installed"
fi

# DKMS builds the packaged source (as the postinst would), on private
# trees so the machine's /var/lib/dkms and /lib/modules stay untouched.
O=(--sourcetree "$T/dkmsroot/usr/src" --dkmstree "$T/dkms" --installtree "$T/inst" --no-depmod)
t_dkms() {
	mkdir -p "$T/dkms" "$T/inst/$K"
	dkms add -m rocetune -v "$VER" "${O[@]}" &&
	dkms build -m rocetune -v "$VER" -k "$K" "${O[@]}" &&
	dkms mktarball -m rocetune -v "$VER" -k "$K" "${O[@]}" || return 1
	TARBALL=$(ls "$T"/dkms/rocetune/"$VER"/tarball/*.dkms.tar.gz) && [ -f "$TARBALL" ]
}
b0=$(date +%s)
TARBALL=
t_dkms >"$T/dkms.log" 2>&1 && rc=0 || rc=$?
TARBALL=$(ls "$T"/dkms/rocetune/"$VER"/tarball/*.dkms.tar.gz 2>/dev/null)
if [ $rc -eq 0 ] && [ -n "$TARBALL" ]; then
	tap_pass "dkms add, build -k $K and mktarball of the packaged source"
else
	tap_fail "dkms add, build -k $K and mktarball of the packaged source"
	tail -15 "$T/dkms.log" | sed 's/^/#   /'
fi
tap_diag "dkms build: $(($(date +%s) - b0)) s"

DCBSIM=$TOP/kmod/dcbsim/rocetune_dcbsim.ko
if [ ! -x "$TOP/selftests/lab/lab-run" ] || [ -z "$TARBALL" ]; then
	tap_skip "install and use in a guest" "lab harness or DKMS tarball missing"
	tap_skip "remove in a guest" "lab harness or DKMS tarball missing"
	tap_skip "the guest's own checks" "lab harness or DKMS tarball missing"
	tap_skip "units and udev rule under systemd in a guest" "lab harness or DKMS tarball missing"
	tap_done
fi

g0=$(date +%s)
LAB_KVER=$K "$TOP/selftests/lab/lab-run" --hosts 1 --timeout 480 \
	--out "$T/lab" --script 1="$TOP/selftests/deb/in-guest.sh" \
	"$DEB" "$DKMSDEB" "$TARBALL" "$DCBSIM" >"$T/lab.log" 2>&1
rc=$?
tap_diag "guest: $(($(date +%s) - g0)) s"
sed 's/^/#   /' "$T/lab/share/host1/out.tap" 2>/dev/null
[ "$rc" -eq 0 ] || tail -5 "$T/lab.log" | sed "s/^/#   lab: /"
grep -q '^ok [0-9]* dpkg -i' "$T/lab/share/host1/out.tap" 2>/dev/null
tap_eq "dpkg -i in a guest, the DKMS postinst installs the module" 0 $?
grep -q '^ok [0-9]* dpkg -r' "$T/lab/share/host1/out.tap" 2>/dev/null
tap_eq "dpkg -r in a guest removes the packages and the module" 0 $?
tap_eq "every check in the guest passed (lab exit)" 0 "$rc"

# A second guest boots systemd with the package installed: the boot-time
# apply, udev coldplug and hotplug, and the watch unit's journal, for real
# (selftests/deb/systemd-guest.sh).
KO=$TOP/kmod/rocetune.ko
if [ -f "$KO" ] && [ -f "$DCBSIM" ] && [ -x /lib/systemd/systemd ]; then
	g0=$(date +%s)
	LAB_KVER=$K "$TOP/selftests/lab/lab-run" --hosts 1 --timeout 480 --init systemd \
		--out "$T/lab-systemd" --script 1="$TOP/selftests/deb/systemd-guest.sh" \
		"$DEB" "$KO" "$DCBSIM" >"$T/lab-systemd.log" 2>&1
	rc=$?
	tap_diag "systemd guest: $(($(date +%s) - g0)) s"
	sed 's/^/#   /' "$T/lab-systemd/share/host1/out.tap" 2>/dev/null
	if [ "$rc" -ne 0 ]; then
		tail -5 "$T/lab-systemd.log" | sed "s/^/#   lab: /"
		# What the boot was doing: the console goes with $T.
		tail -n 60 "$T/lab-systemd/host1.console" 2>/dev/null | sed "s/^/#   console: /"
	fi
	tap_eq "units and udev rule under systemd in a guest: every check passed (lab exit)" 0 "$rc"
else
	tap_skip "units and udev rule under systemd in a guest" \
		"needs kmod/rocetune.ko, $DCBSIM (make module) and systemd on this root"
fi
tap_diag "wall time: $(($(date +%s) - start)) s"
tap_done
