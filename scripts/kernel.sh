#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Which kernel rocetune builds for and the lab boots: the one place that
# decides (the top-level Makefile, selftests/lab/lab-run,
# selftests/host/dkms.sh and scripts/kernel-matrix.sh all ask it).
# Documentation/kernels.rst explains the rules; in order:
#
#   1. KDIR=/path/to/build   that build tree (its release from the tree);
#                            with KVER too, both must name the same kernel
#   2. KVER=<release>        /lib/modules/<release>/build
#   3. the running kernel, if it has a build tree
#   4. Debian's default kernel: the release the installed linux-headers-amd64
#      (or linux-image-amd64) metapackage depends on -- 6.1 on Debian 12,
#      whatever else is installed beside it
#   5. the only kernel with a build tree, if there is exactly one
#
#   scripts/kernel.sh            print "KVER KDIR REASON..." (one line)
#   scripts/kernel.sh --kver     print the release only
#   scripts/kernel.sh --list     the installed kernels, one a line
#   scripts/kernel.sh --image REL   the kernel image the lab boots for REL
#   scripts/kernel.sh --root KDIR   the kernel chroot KDIR lies in (empty
#                                   for the host's own kernels)
#
# A kernel installed in a chroot by scripts/install-deps.sh (7.2 from sid,
# whose kbuild needs sid's userland) is linked into the host as
# /lib/modules/<release> -> <chroot>/usr/lib/modules/<release>; its build
# tree and image are the chroot's (<chroot>/usr/src/..., <chroot>/boot/),
# and the Makefile runs kbuild for it inside the chroot
# (scripts/chroot-run.sh).
#
# Exit status 1 (with the installed kernels on stderr) when nothing fits.

set -u

MODDIR=${RTUNE_MODDIR:-/lib/modules}

# chroot_of RELEASE: the kernel chroot /lib/modules/RELEASE leads into
# (marked etc/rocetune-chroot by install-deps.sh); fails for host kernels.
chroot_of() {
	co_p=$(readlink -f "$MODDIR/$1" 2>/dev/null) || return 1
	case $co_p in
	*/usr/lib/modules/"$1") co_r=${co_p%/usr/lib/modules/"$1"} ;;
	*/lib/modules/"$1") co_r=${co_p%/lib/modules/"$1"} ;;
	*) return 1 ;;
	esac
	[ -n "$co_r" ] && [ -f "$co_r/etc/rocetune-chroot" ] && echo "$co_r"
}

# root_of DIR: the kernel chroot DIR lies in, if any.
root_of() {
	ro_d=$(readlink -f "$1" 2>/dev/null) || return 1
	while [ -n "$ro_d" ] && [ "$ro_d" != / ]; do
		[ -f "$ro_d/etc/rocetune-chroot" ] && { echo "$ro_d"; return 0; }
		ro_d=$(dirname "$ro_d")
	done
	return 1
}

# build_dir RELEASE: its build tree as the host sees it (a chroot's build
# link is absolute, so it is followed inside the chroot).
build_dir() {
	if [ -f "$MODDIR/$1/build/Makefile" ]; then
		echo "$MODDIR/$1/build"
		return 0
	fi
	bd_r=$(chroot_of "$1") || return 1
	bd_l=$(readlink "$bd_r/usr/lib/modules/$1/build") || return 1
	case $bd_l in /*) ;; *) bd_l=/usr/lib/modules/$1/$bd_l ;; esac
	[ -f "$bd_r$bd_l/Makefile" ] && echo "$bd_r$bd_l"
}

# image RELEASE: the kernel image to boot, /boot's or the chroot's.
image() {
	if [ -r "/boot/vmlinuz-$1" ]; then
		echo "/boot/vmlinuz-$1"
	elif im_r=$(chroot_of "$1") && [ -r "$im_r/boot/vmlinuz-$1" ]; then
		echo "$im_r/boot/vmlinuz-$1"
	else
		return 1
	fi
}

# has_build RELEASE: its build tree is there and looks usable.
has_build() {
	build_dir "$1" >/dev/null
}

# The release a build tree is for: the /lib/modules entry whose build link
# leads to it (Debian's trees say "6.1.192" in include/config/
# kernel.release, not the "6.1.0-57-amd64" that names the kernel), else
# what the tree itself says.
release_of() {
	d=$(cd "$1" 2>/dev/null && pwd -P) || return 1
	for r in "$MODDIR"/*; do
		b=$(build_dir "$(basename "$r")") || continue
		[ "$(cd "$b" 2>/dev/null && pwd -P)" = "$d" ] || continue
		basename "$r"
		return 0
	done
	f=$d/include/config/kernel.release
	[ -r "$f" ] && cat "$f"
}

# Debian's default kernel release: what the metapackage depends on.
debian_default() {
	for meta in linux-headers-amd64 linux-image-amd64; do
		dep=$(dpkg-query -W -f='${Status} ${Depends}\n' "$meta" 2>/dev/null |
			sed -n 's/^install ok installed //p') || continue
		rel=$(printf '%s\n' "$dep" | tr ',' '\n' |
			sed -n "s/^ *${meta%-amd64}-\([0-9][^ ]*-amd64\).*/\1/p" | head -n 1)
		[ -n "$rel" ] && { echo "$rel"; return 0; }
	done
	return 1
}

list() {
	def=$(debian_default 2>/dev/null) || def=
	run=$(uname -r)
	found=
	for d in "$MODDIR"/*; do
		[ -d "$d" ] || continue
		r=$(basename "$d")
		found=1
		notes=
		has_build "$r" && notes="headers" || notes="no headers"
		image "$r" >/dev/null && notes="$notes, image" || notes="$notes, no image"
		c=$(chroot_of "$r") && notes="$notes, chroot $c"
		[ "$r" = "$def" ] && notes="$notes, Debian default"
		[ "$r" = "$run" ] && notes="$notes, running"
		printf '  %-28s %s\n' "$r" "$notes"
	done
	[ -n "$found" ] || echo "  (none under $MODDIR)"
}

fail() {
	{
		echo "rocetune: $*"
		echo "rocetune: installed kernels:"
		list
		echo "rocetune: pick one with KVER=<release> (or KDIR=<build tree>);"
		echo "rocetune: scripts/install-deps.sh --kernels installs more (Documentation/kernels.rst)"
	} >&2
	exit 1
}

choose() {
	if [ -n "${KDIR:-}" ]; then
		[ -f "$KDIR/Makefile" ] || fail "KDIR=$KDIR is not a kernel build tree"
		kver=$(release_of "$KDIR") || kver=unknown
		if [ -n "${KVER:-}" ] && [ "$KVER" != "$kver" ]; then
			fail "KVER=$KVER and KDIR=$KDIR (kernel $kver) disagree: set one"
		fi
		echo "$kver $KDIR KDIR=$KDIR was given"
		return 0
	fi
	if [ -n "${KVER:-}" ]; then
		has_build "$KVER" || fail "KVER=$KVER: no build tree $MODDIR/$KVER/build (linux-headers-$KVER not installed?)"
		echo "$KVER $(build_dir "$KVER") KVER=$KVER was given"
		return 0
	fi
	run=$(uname -r)
	if has_build "$run"; then
		echo "$run $MODDIR/$run/build it is the running kernel"
		return 0
	fi
	if def=$(debian_default); then
		if has_build "$def"; then
			echo "$def $MODDIR/$def/build it is Debian's default kernel (linux-headers-amd64); the running $run has no build tree"
			return 0
		fi
	fi
	only=
	n=0
	for d in "$MODDIR"/*/build; do
		[ -f "$d/Makefile" ] || continue
		only=$(basename "$(dirname "$d")")
		n=$((n + 1))
	done
	if [ "$n" -eq 1 ]; then
		echo "$only $MODDIR/$only/build it is the only kernel with a build tree"
		return 0
	fi
	fail "no kernel to build for: the running $run has no build tree, Debian's default kernel ${def:-(no linux-headers-amd64)} none either, and $n others have one"
}

case ${1:-} in
--list) list ;;
--kver) c=$(choose) || exit 1; echo "${c%% *}" ;;
--image) [ $# -eq 2 ] || { echo "usage: $0 --image RELEASE" >&2; exit 2; }
	image "$2" || { echo "rocetune: no kernel image for $2 (/boot/vmlinuz-$2)" >&2; exit 1; } ;;
--root) [ $# -eq 2 ] || { echo "usage: $0 --root KDIR" >&2; exit 2; }
	root_of "$2" || true ;;
'') choose ;;
*) echo "usage: $0 [--kver|--list|--image RELEASE|--root KDIR]" >&2; exit 2 ;;
esac
