#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages rocetune needs to build, run its QEMU lab and
# its tests. Idempotent: packages already installed are left alone, and
# the script says what it installs. Run as root (CI is root).
#
#   scripts/install-deps.sh            everything for `make lab` / `make check`
#   scripts/install-deps.sh --lint     also linux-source (checkpatch.pl)
#   scripts/install-deps.sh --kernels "6.12 5.10"
#                                      also these kernels (image + headers)
#                                      for the matrix, see
#                                      Documentation/kernels.rst
#
# Extra kernels never change Debian's default kernel (the one the
# linux-image-amd64 metapackage depends on, 6.1 on Debian 12): they are
# installed by their versioned package names, from these suites:
#   6.12  bookworm-backports   (installs on Debian 12 as it is)
#   5.10  bullseye             (pinned to priority 100, so it only
#                               supplies what is asked for by name)
#   7.2   sid, in a chroot     (its kbuild tools and compiler need sid's
#                               userland), see install_sid_chroot below
# Each suite gets one deb822 file in /etc/apt/sources.list.d/ (same mirror
# and keyring as Debian 12's entry). trixie is never added: its pahole and
# libelf packages conflict with Debian 12's.
set -eu

PKGS="
make gcc libc6-dev pkg-config kmod cpio xz-utils
linux-image-amd64 linux-headers-amd64
qemu-system-x86 busybox-static
rdma-core ibverbs-utils rdmacm-utils perftest infiniband-diags nftables
libibverbs-dev librdmacm-dev libnl-3-dev libnl-route-3-dev libnl-genl-3-dev libncurses-dev libssl-dev
iproute2 ethtool dkms sparse python3 python3-docutils python3-jsonschema python3-pyte gnuplot-nox
dpkg-dev debhelper dh-dkms bash-completion lintian
clang libclang-rt-14-dev prometheus
"
KERNELS=
while [ $# -gt 0 ]; do
	case $1 in
	--lint) PKGS="$PKGS linux-source-6.1" ;;
	--kernels) [ $# -ge 2 ] || { echo "install-deps: --kernels needs a list" >&2; exit 2; }
		KERNELS="$KERNELS $2"; shift ;;
	--kernels=*) KERNELS="$KERNELS ${1#*=}" ;;
	*) echo "usage: $0 [--lint] [--kernels \"6.12 5.10\"]" >&2; exit 2 ;;
	esac
	shift
done

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}

need_root() {
	[ "$(id -u)" -eq 0 ] && return 0
	echo "install-deps: $1" >&2
	echo "install-deps: run as root (or: sudo $0)" >&2
	exit 1
}

export DEBIAN_FRONTEND=noninteractive
# A CI machine (CI=true) is thrown away after its run and boots none of
# the kernels it installs: the lab boots each image with an initramfs of
# its own (selftests/lab/mkinitramfs). Debian's kernel hook
# (/etc/kernel/postinst.d/initramfs-tools) would make another for every
# image installed, 6.1's and each --kernels one: about 2 minutes of CPU
# each (mkinitramfs for 6.12 here, 2026-12-04). INITRD=No is that hook's
# own switch to skip it. Anywhere else the images get their initramfs, as
# a machine that may boot them needs.
if [ "${CI:-}" = true ]; then
	export INITRD=No
fi
updated=

apt_update() {
	[ -n "$updated" ] && return 0
	apt-get update -qq
	updated=1
}

missing=
for p in $PKGS; do
	installed "$p" || missing="$missing $p"
done

if [ -z "$missing" ]; then
	echo "install-deps: all $(echo $PKGS | wc -w) packages present"
else
	need_root "missing packages:$missing"
	echo "install-deps: installing:$missing"
	apt_update
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
	for p in $missing; do
		installed "$p" || { echo "install-deps: $p failed to install" >&2; exit 1; }
	done
	echo "install-deps: done"
fi

[ -n "$KERNELS" ] || exit 0

# --- extra kernels -----------------------------------------------------------
SOURCES_DIR=/etc/apt/sources.list.d
PREFS_DIR=/etc/apt/preferences.d

# The mirror and keyring of Debian 12's own entry.
debian_uri() {
	awk '/^URIs:/ && $2 ~ /debian\/?$/ { print $2; exit }' \
		"$SOURCES_DIR/debian.sources" 2>/dev/null
}

# add_suite SUITE [PIN]: one deb822 file per suite; nothing if it exists.
add_suite() {
	suite=$1 pin=${2:-}
	f=$SOURCES_DIR/rocetune-$suite.sources
	[ -f "$f" ] && return 0
	need_root "kernels need the $suite suite in $f"
	uri=$(debian_uri)
	: "${uri:=http://deb.debian.org/debian}"
	cat >"$f" <<EOS
# Added by rocetune scripts/install-deps.sh --kernels (Documentation/kernels.rst)
Types: deb
URIs: $uri
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	if [ -n "$pin" ]; then
		cat >"$PREFS_DIR/rocetune-$suite.pref" <<EOS
# Added by rocetune scripts/install-deps.sh: $suite supplies only the
# packages asked for by name.
Package: *
Pin: release n=$suite
Pin-Priority: $pin
EOS
	fi
	echo "install-deps: added $f"
	updated=
}

# The plain amd64 flavour of SERIES: 6.12.95+deb12-amd64, 5.10.0-32-amd64
# (not -rt-amd64 or -cloud-amd64).
abi_re() {
	echo "^linux-headers-($(echo "$1" | sed 's/\./\\./g')\.[0-9]+(-[0-9]+)?(\+deb[0-9]+)?-amd64)\$"
}

# newest_abi SUITE SERIES: the newest such ABI whose linux-headers SUITE
# itself offers (bookworm-security also carries 6.12 builds; the matrix is
# about the suite named here).
newest_abi() {
	apt-cache pkgnames "linux-headers-$2." 2>/dev/null |
		sed -nE "s/$(abi_re "$2")/\1/p" |
		sort -rV | while read -r a; do
			if apt-cache madison "linux-headers-$a" | grep -q " $1/main "; then
				echo "$a"
				break
			fi
		done
}

# install_kernel SUITE SERIES: image and headers of the newest ABI, unless
# some ABI of SERIES is installed already. Not `apt-get -t SUITE`: that
# would also upgrade the installed linux-image-amd64, linux-headers-amd64
# and linux-libc-dev to SUITE's, changing Debian 12's default kernel and
# userspace headers. PKG/SUITE takes only what is named (and what it
# needs) from SUITE.
install_kernel() {
	suite=$1 series=$2
	for p in $(dpkg-query -W -f='${Package}\n' "linux-headers-$series.*" 2>/dev/null |
		grep -E "$(abi_re "$series")"); do
		abi=${p#linux-headers-}
		if installed "$p" && installed "linux-image-$abi"; then
			echo "install-deps: kernel $abi present"
			return 0
		fi
	done
	apt_update
	abi=$(newest_abi "$suite" "$series")
	[ -n "$abi" ] || { echo "install-deps: no $series kernel in $suite" >&2; exit 1; }
	need_root "kernel $abi is missing"
	echo "install-deps: installing kernel $abi from $suite"
	apt-get install -y -qq --no-install-recommends \
		"linux-image-$abi/$suite" "linux-headers-$abi/$suite" >/dev/null
	for p in "linux-image-$abi" "linux-headers-$abi"; do
		installed "$p" || { echo "install-deps: $p failed to install" >&2; exit 1; }
	done
	echo "install-deps: kernel $abi installed"
}

# --- kernels from sid, in a chroot --------------------------------------------
# sid's kernel needs sid's kbuild tools and compiler, which need sid's
# libc: they cannot be installed on Debian 12, and sid never goes into the
# host's apt sources. So the kernel, its headers, the compiler, sparse and
# dkms go into a chroot of sid made with mmdebstrap (the chroot has its own
# sources.list). The chroot is cached: a second run finds everything and
# changes nothing. The host gets one symlink per kernel,
# /lib/modules/<rel> -> <chroot>/usr/lib/modules/<rel>, which is what
# scripts/kernel.sh and the lab look for (the guests see the host's root,
# so they see the chroot's modules through it). The image stays in the
# chroot's /boot (scripts/kernel.sh --image finds it): put in the host's
# /boot, update-grub would offer it, as the newest, by default.
CHROOT_DIR=${RTUNE_CHROOT_DIR:-/var/cache/rocetune}
SID_PKGS="make gcc libc6-dev kmod sparse dwarves dkms"

in_chroot() {
	r=$1
	shift
	chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"
}

chroot_installed() {
	in_chroot "$1" dpkg-query -W -f='${Status}' "$2" 2>/dev/null | grep -q 'ok installed'
}

# install_sid_chroot SERIES
install_sid_chroot() {
	series=$1
	root=$CHROOT_DIR/chroot-sid
	if [ ! -f "$root/etc/rocetune-chroot" ]; then
		need_root "kernel $series needs the sid chroot $root"
		installed mmdebstrap || {
			apt_update
			apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
		}
		uri=$(debian_uri)
		: "${uri:=http://deb.debian.org/debian}"
		echo "install-deps: creating the sid chroot $root (a few minutes)"
		rm -rf "$root.new"
		mkdir -p "$CHROOT_DIR"
		# The mirror may serve sid as a snapshot whose Release file has
		# expired: its Valid-Until is not checked (in the chroot's apt
		# configuration too). The packages are still verified by the
		# archive keyring.
		mmdebstrap --quiet --variant=minbase \
			--aptopt='APT::Install-Recommends "false"' \
			--aptopt='Acquire::Check-Valid-Until "false"' \
			--include="$(echo $SID_PKGS | tr ' ' ,)" \
			sid "$root.new" "$uri" ||
			{ echo "install-deps: mmdebstrap of sid failed" >&2; exit 1; }
		echo "rocetune kernel chroot (scripts/install-deps.sh --kernels); sid from $uri" \
			>"$root.new/etc/rocetune-chroot"
		mv "$root.new" "$root"
	fi
	abi=
	for p in $(in_chroot "$root" dpkg-query -W -f='${Package}\n' "linux-headers-$series.*" 2>/dev/null |
		grep -E "$(abi_re "$series")"); do
		a=${p#linux-headers-}
		chroot_installed "$root" "$p" && chroot_installed "$root" "linux-image-$a" && abi=$a
	done
	missing=
	for p in $SID_PKGS; do
		chroot_installed "$root" "$p" || missing="$missing $p"
	done
	if [ -z "$abi" ] || [ -n "$missing" ]; then
		need_root "the sid chroot $root lacks kernel $series or:$missing"
		in_chroot "$root" apt-get update -qq
		if [ -z "$abi" ]; then
			abi=$(in_chroot "$root" apt-cache pkgnames "linux-headers-$series." |
				sed -nE "s/$(abi_re "$series")/\1/p" | sort -rV | head -n 1)
			[ -n "$abi" ] || { echo "install-deps: no $series kernel in sid" >&2; exit 1; }
			missing="$missing linux-image-$abi linux-headers-$abi"
		fi
		echo "install-deps: installing in the sid chroot:$missing"
		# shellcheck disable=SC2086
		in_chroot "$root" apt-get install -y -qq -o Dpkg::Use-Pty=false --no-install-recommends $missing >/dev/null ||
			{ echo "install-deps: installing$missing in $root failed" >&2; exit 1; }
	else
		echo "install-deps: kernel $abi present (sid chroot $root)"
	fi
	# The host's link to the chroot's modules (and so to its build tree).
	link=/lib/modules/$abi
	want=$root/usr/lib/modules/$abi
	if [ "$(readlink "$link" 2>/dev/null)" != "$want" ]; then
		[ ! -e "$link" ] && [ ! -L "$link" ] ||
			{ echo "install-deps: $link exists and is not a link to $want: left alone" >&2; exit 1; }
		need_root "kernel $abi needs the link $link"
		ln -s "$want" "$link"
		echo "install-deps: linked $link -> $want"
	fi
}

for k in $KERNELS; do
	case $k in
	6.1) ;;	# Debian 12's own, installed above
	6.12)
		add_suite bookworm-backports
		install_kernel bookworm-backports 6.12
		;;
	5.10)
		add_suite bullseye 100
		install_kernel bullseye 5.10
		;;
	7.2)
		install_sid_chroot 7.2
		;;
	*)
		echo "install-deps: kernel $k: not supported (6.1, 6.12, 5.10, 7.2; see Documentation/kernels.rst)" >&2
		exit 2
		;;
	esac
done
