#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the kernel's checkpatch.pl over rocetune's kernel sources. The
# script comes from Debian's linux-source package (installed by
# install-deps.sh --lint) and is unpacked into build/, never into the tree.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
CP=$TOP/build/checkpatch
"$TOP/scripts/install-deps.sh" --lint >/dev/null
if [ ! -x "$CP/scripts/checkpatch.pl" ]; then
	tarball=$(ls /usr/src/linux-source-*.tar.xz | sort -V | tail -1)
	mkdir -p "$CP"
	tar -xJf "$tarball" -C "$CP" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
fi
cd "$TOP"
# Kernel code only: kmod/ (including the code shared with userspace).
files=$(git ls-files 'kmod/*.c' 'kmod/*.h' 2>/dev/null || find kmod -name '*.[ch]')
# shellcheck disable=SC2086
exec "$CP/scripts/checkpatch.pl" --no-tree --strict --terse --show-types \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $files
