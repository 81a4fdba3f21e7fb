/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ethtool_ops interfaces rocetune_dcbsim uses that differ between
 * kernels. Standard pause statistics (get_pause_stats, 5.10) are
 * required; the lane count of a link (5.11) goes through the wrappers
 * below. The IEEE 802.3 PHY/MAC/MAC control statistics (5.13) and the extended link
 * statistics (6.2) are whole ops that a kernel has or has not: dcbsim
 * compiles them under RTUNE_HAVE_ETHTOOL_ETH_STATS and
 * RTUNE_HAVE_ETHTOOL_LINK_EXT_STATS, as it does its APP trust ops. The
 * probes in conftest.sh decide, each separately.
 */
#ifndef _ROCETUNE_COMPAT_ETHTOOL_H
#define _ROCETUNE_COMPAT_ETHTOOL_H

#include <linux/ethtool.h>

#include "compat_generated.h"

#if !RTUNE_HAVE_ETHTOOL_PAUSE_STATS
#error "rocetune_dcbsim needs ethtool's get_pause_stats (Linux 5.10 or later)"
#endif

/*
 * In an ethtool_ops initialiser: the driver reports the lane count, which
 * ethtool otherwise drops (ksettings.lanes, 5.11). Empty before 5.11.
 */
#if RTUNE_HAVE_ETHTOOL_LINK_LANES
#define RTUNE_COMPAT_ETHTOOL_CAP_LANES	.cap_link_lanes_supported = true,
#else
#define RTUNE_COMPAT_ETHTOOL_CAP_LANES
#endif

/* The link uses @lanes lanes; the kernel has no field for it before 5.11. */
static inline void
rtune_compat_ksettings_set_lanes(struct ethtool_link_ksettings *ks, u32 lanes)
{
#if RTUNE_HAVE_ETHTOOL_LINK_LANES
	ks->lanes = lanes;
#endif
}

#endif /* _ROCETUNE_COMPAT_ETHTOOL_H */
