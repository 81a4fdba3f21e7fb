/* SPDX-License-Identifier: GPL-2.0 */
/*
 * net_device flags that moved: "lockless transmit" and "cannot change
 * network namespace" were the features NETIF_F_LLTX and
 * NETIF_F_NETNS_LOCAL; 6.11 and 6.12 made them the bits netdev->lltx and
 * netdev->netns_local. The probes in conftest.sh decide, each separately.
 */
#ifndef _ROCETUNE_COMPAT_NETDEV_H
#define _ROCETUNE_COMPAT_NETDEV_H

#include <linux/netdevice.h>

#include "compat_generated.h"

/* @dev's ndo_start_xmit needs no tx lock. Call from the setup function. */
static inline void rtune_compat_netdev_set_lltx(struct net_device *dev)
{
#if RTUNE_HAVE_NETDEV_LLTX
	dev->lltx = true;
#else
	dev->features |= NETIF_F_LLTX;
#endif
}

/* @dev stays in the namespace it was created in. */
static inline void rtune_compat_netdev_set_netns_local(struct net_device *dev)
{
#if RTUNE_HAVE_NETDEV_NETNS_LOCAL
	dev->netns_local = true;
#else
	dev->features |= NETIF_F_NETNS_LOCAL;
#endif
}

#endif /* _ROCETUNE_COMPAT_NETDEV_H */
