#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run a command inside a kernel chroot made by scripts/install-deps.sh
# (7.2, from sid: its kbuild tools and compiler need sid's userland), with
# host directories bind-mounted at the same paths:
#
#   scripts/chroot-run.sh ROOT DIR[:DIR...] CMD [ARG...]
#
# The working directory is kept, so it must lie in one of the DIRs. The
# tree is bind-mounted, not copied, so that M=, the objects, the .ko and
# the compiler's messages all carry the real paths and an incremental
# build stays incremental. The mounts live in a private mount namespace
# (unshare), so they vanish with the command and nothing is left mounted
# on the host. Needs root (as every kernel chroot does).
set -eu

[ $# -ge 3 ] || { echo "usage: $0 ROOT DIR[:DIR...] CMD [ARG...]" >&2; exit 2; }
root=$1 dirs=$2
shift 2
[ -f "$root/etc/rocetune-chroot" ] ||
	{ echo "chroot-run: $root is not a rocetune kernel chroot (scripts/install-deps.sh --kernels 7.2)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "chroot-run: the $root chroot needs root" >&2; exit 2; }

# In the new namespace: bind each DIR, /proc and /dev, then chroot, cd
# back to the working directory and exec the command.
exec unshare --mount --propagation private sh -eu -c '
root=$1 dirs=$2 cwd=$3
shift 3
IFS=:
for d in $dirs; do
	[ -d "$d" ] || { echo "chroot-run: $d: no such directory" >&2; exit 2; }
	mkdir -p "$root$d"
	mount --bind "$d" "$root$d"
done
unset IFS
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
exec chroot "$root" sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
' sh "$root" "$dirs" "$(pwd)" "$@"
