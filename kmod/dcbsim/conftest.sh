#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Feature probes for dcbsim: compile tiny programs against the target
# kernel's headers and print a C header that defines each DCBSIM_HAVE_*
# macro to 1 (found) or 0. Kbuild runs this with the compiler and flags it
# uses for the module (see Kbuild), so the answer is about the kernel being
# built against, whatever its version number says.
#
#   DCBSIM_CC="gcc" DCBSIM_CFLAGS="..." sh <this script> > <header>

set -u

: "${DCBSIM_CC:?}"
: "${DCBSIM_CFLAGS:?}"

# probe CODE: does CODE compile? A function of the wrong type is an error.
probe() {
	printf '%s\n' "$1" |
		$DCBSIM_CC $DCBSIM_CFLAGS -Werror=incompatible-pointer-types \
			-fsyntax-only -x c - \
			>/dev/null 2>&1
}

# A probe that cannot compile anything would silently turn every feature
# off: check first that the headers are usable at all.
if ! probe '#include <net/dcbnl.h>'; then
	echo "$0: cannot compile against the kernel headers:" >&2
	printf '#include <net/dcbnl.h>\n' |
		$DCBSIM_CC $DCBSIM_CFLAGS -fsyntax-only -x c - >&2
	exit 1
fi

echo '/* Generated from the kernel headers by the feature probes. */'

# have NAME CODE: define DCBSIM_HAVE_NAME to 1 if CODE compiles, else 0.
have() {
	if probe "$2"; then
		echo "#define DCBSIM_HAVE_$1 1"
	else
		echo "#define DCBSIM_HAVE_$1 0"
	fi
}

# struct dcbnl_rtnl_ops gained dcbnl_setapptrust/getapptrust in Linux 6.2.
have APPTRUST '
#include <net/dcbnl.h>
static int set(struct net_device *d, u8 *s, int n) { return 0; }
static int get(struct net_device *d, u8 *s, int *n) { return 0; }
const struct dcbnl_rtnl_ops probe_ops = {
	.dcbnl_setapptrust = set,
	.dcbnl_getapptrust = get,
};'

# The PCP APP selector (DCB_APP_SEL_PCP) came with them.
have APP_SEL_PCP '
#include <net/dcbnl.h>
int probe_sel = DCB_APP_SEL_PCP;'
