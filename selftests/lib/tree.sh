# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # the variables are for the suites
#
# Where a suite finds what it tests. A suite runs either from the source
# tree (the QEMU lab: selftests/run_tests.sh, lab-run) or from a kselftest
# install (`make -C selftests install INSTALL_PATH=DIR`, then
# DIR/run_kselftest.sh on a node), where nothing of the build is beside it.
# Source it; it changes no shell options and only sets these:
#
#   RTUNE_SRC         the source tree's top directory; empty when installed
#   RTUNE_VERSION     the version these tests come from (VERSION)
#   RTUNE_KO          rocetune.ko to insmod; empty: `modprobe rocetune`,
#                     the module the node has installed (DKMS, rocetune-dkms)
#   RTUNE_DCBSIM_KO   the rocetune_dcbsim test module; empty when there is
#                     none (an installed tree: it is a lab device)
#   RTUNE_TOOL        the rocetune tool; empty when there is none
#
# The environment overrides each: ROCETUNE_KO, DCBSIM_KO and ROCETUNE
# (paths). In a source tree the defaults are the tree's build (kmod/,
# kmod/dcbsim/, tools/rocetune/), built or not: the suites say so when a
# file is missing. Installed, the tool is `rocetune` from PATH.

_rtune_selftests=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# run_tests.sh and the lab harness are never installed.
if [[ -f $_rtune_selftests/run_tests.sh && -d $_rtune_selftests/../kmod ]]; then
	RTUNE_SRC=$(cd "$_rtune_selftests/.." && pwd)
	RTUNE_VERSION=$(cat "$RTUNE_SRC/VERSION" 2>/dev/null)
	RTUNE_KO=${ROCETUNE_KO:-$RTUNE_SRC/kmod/rocetune.ko}
	RTUNE_DCBSIM_KO=${DCBSIM_KO:-$RTUNE_SRC/kmod/dcbsim/rocetune_dcbsim.ko}
	RTUNE_TOOL=${ROCETUNE:-$RTUNE_SRC/tools/rocetune/rocetune}
else
	RTUNE_SRC=
	RTUNE_VERSION=$(cat "$_rtune_selftests/VERSION" 2>/dev/null)
	RTUNE_KO=${ROCETUNE_KO:-}
	RTUNE_DCBSIM_KO=${DCBSIM_KO:-}
	RTUNE_TOOL=${ROCETUNE:-$(command -v rocetune 2>/dev/null)}
fi
unset _rtune_selftests
