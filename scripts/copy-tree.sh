#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Copy the source tree to DST as a release would have it, plus untracked
# work (tracked and untracked files, not the ignored ones: no build
# output). scripts/kernel-matrix.sh and scripts/kernel-check.sh build for
# another kernel in such a copy, so the checkout stays built for its own.
#
#   scripts/copy-tree.sh DST      (DST is emptied first)

set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
[[ $# -eq 1 && -n $1 ]] || { echo "usage: $0 DST" >&2; exit 2; }
dst=$1
rm -rf "$dst"
mkdir -p "$dst"
# shellcheck disable=SC2016 # the inner sh expands them
if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$TOP" ls-files -z --cached --others --exclude-standard |
		(cd "$TOP" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
		(cd "$TOP" && tar --null -T - -cf -) | tar -xf - -C "$dst"
else
	tar -C "$TOP" --exclude=./build -cf - . | tar -xf - -C "$dst"
fi
