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
#
# Exit status 1 (with the installed kernels on stderr) when nothing fits.

set -u

MODDIR=${RTUNE_MODDIR:-/lib/modules}

# has_build RELEASE: its build tree is there and looks usable.
has_build() {
	[ -f "$MODDIR/$1/build/Makefile" ]
}

# The release a build tree is for: the /lib/modules entry whose build link
# leads to it (Debian's trees say "6.1.192" in include/config/
# kernel.release, not the "6.1.0-57-amd64" that names the kernel), else
# what the tree itself says.
release_of() {
	d=$(cd "$1" 2>/dev/null && pwd -P) || return 1
	for r in "$MODDIR"/*; do
		[ "$(cd "$r/build" 2>/dev/null && pwd -P)" = "$d" ] || continue
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
		[ -r "/boot/vmlinuz-$r" ] && notes="$notes, image" || notes="$notes, no image"
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
		echo "$KVER $MODDIR/$KVER/build KVER=$KVER was given"
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
'') choose ;;
*) echo "usage: $0 [--kver|--list]" >&2; exit 2 ;;
esac
