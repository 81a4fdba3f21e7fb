#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages rocetune needs to build, run its QEMU lab and
# its tests. Idempotent: packages already installed are left alone, and
# the script says what it installs. Run as root (CI is root).
#
#   scripts/install-deps.sh            everything for `make lab` / `make check`
#   scripts/install-deps.sh --lint     also linux-source (checkpatch.pl)
set -eu

PKGS="
make gcc libc6-dev pkg-config kmod cpio
linux-image-amd64 linux-headers-amd64
qemu-system-x86 busybox-static
rdma-core ibverbs-utils rdmacm-utils perftest infiniband-diags
libibverbs-dev librdmacm-dev libnl-3-dev libnl-route-3-dev
iproute2 dkms sparse python3
clang libclang-rt-14-dev
"
[ "${1:-}" = "--lint" ] && PKGS="$PKGS linux-source-6.1 xz-utils"

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}

missing=
for p in $PKGS; do
	installed "$p" || missing="$missing $p"
done

if [ -z "$missing" ]; then
	echo "install-deps: all $(echo $PKGS | wc -w) packages present"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing" >&2
	echo "install-deps: run as root (or: sudo $0)" >&2
	exit 1
fi

echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
for p in $missing; do
	installed "$p" || { echo "install-deps: $p failed to install" >&2; exit 1; }
done
echo "install-deps: done"
