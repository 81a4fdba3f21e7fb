/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The net_device interfaces rocetune_dcbsim uses that differ between
 * kernels: flags that moved ("lockless transmit" and "cannot change
 * network namespace" were the features NETIF_F_LLTX and
 * NETIF_F_NETNS_LOCAL; 6.11 and 6.12 made them the bits netdev->lltx and
 * netdev->netns_local, later renamed netns_immutable), the
 * rtnl_link_ops.newlink arguments, reference tracking of a held device,
 * the drop counters, the per-CPU software statistics and TSO limits. The probes in
 * conftest.sh decide, each separately.
 */
#ifndef _ROCETUNE_COMPAT_NETDEV_H
#define _ROCETUNE_COMPAT_NETDEV_H

#include <linux/netdevice.h>
#include <net/rtnetlink.h>

#include "compat_generated.h"

/*
 * rtnl_link_ops.newlink of this kernel's type: rtune_compat_newlink_op()
 * calls rtune_compat_do_newlink(), which the module using it defines with
 * the op's type up to 6.12 at least. On 7.2 the op takes the device first
 * and the rest in struct rtnl_newlink_params.
 */
int rtune_compat_do_newlink(struct net *src_net, struct net_device *dev,
			    struct nlattr *tb[], struct nlattr *data[],
			    struct netlink_ext_ack *extack);

#if RTUNE_HAVE_RTNL_NEWLINK_PARAMS
static inline int rtune_compat_newlink_op(struct net_device *dev,
					  struct rtnl_newlink_params *p,
					  struct netlink_ext_ack *extack)
{
	return rtune_compat_do_newlink(p->src_net, dev, p->tb, p->data, extack);
}
#else
static inline int rtune_compat_newlink_op(struct net *src_net,
					  struct net_device *dev,
					  struct nlattr *tb[],
					  struct nlattr *data[],
					  struct netlink_ext_ack *extack)
{
	return rtune_compat_do_newlink(src_net, dev, tb, data, extack);
}
#endif

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
#if RTUNE_HAVE_NETDEV_NETNS_IMMUTABLE
	dev->netns_immutable = true;
#elif RTUNE_HAVE_NETDEV_NETNS_LOCAL
	dev->netns_local = true;
#else
	dev->features |= NETIF_F_NETNS_LOCAL;
#endif
}

/*
 * A reference on another net_device, tracked where the kernel tracks them
 * (netdev_hold(), 6.0); before, a plain dev_hold() and no tracker.
 */
struct rtune_compat_netdev_tracker {
#if RTUNE_HAVE_NETDEV_HOLD
	netdevice_tracker tracker;
#endif
};

static inline void
rtune_compat_netdev_hold(struct net_device *dev,
			 struct rtune_compat_netdev_tracker *tracker)
{
#if RTUNE_HAVE_NETDEV_HOLD
	netdev_hold(dev, &tracker->tracker, GFP_KERNEL);
#else
	dev_hold(dev);
#endif
}

static inline void
rtune_compat_netdev_put(struct net_device *dev,
			struct rtune_compat_netdev_tracker *tracker)
{
#if RTUNE_HAVE_NETDEV_HOLD
	netdev_put(dev, &tracker->tracker);
#else
	dev_put(dev);
#endif
}

/* A packet the device dropped on transmit or receive. */
static inline void rtune_compat_tx_dropped_inc(struct net_device *dev)
{
#if RTUNE_HAVE_DEV_CORE_STATS_INC
	dev_core_stats_tx_dropped_inc(dev);
#else
	atomic_long_inc(&dev->tx_dropped);
#endif
}

static inline void rtune_compat_rx_dropped_inc(struct net_device *dev)
{
#if RTUNE_HAVE_DEV_CORE_STATS_INC
	dev_core_stats_rx_dropped_inc(dev);
#else
	atomic_long_inc(&dev->rx_dropped);
#endif
}

/* Count @packets transmitted, @len bytes, in dev->tstats. */
static inline void rtune_compat_sw_netstats_tx_add(struct net_device *dev,
						   unsigned int packets,
						   unsigned int len)
{
#if RTUNE_HAVE_DEV_SW_NETSTATS_TX_ADD
	dev_sw_netstats_tx_add(dev, packets, len);
#else
	struct pcpu_sw_netstats *tstats = this_cpu_ptr(dev->tstats);

	u64_stats_update_begin(&tstats->syncp);
	tstats->tx_bytes += len;
	tstats->tx_packets += packets;
	u64_stats_update_end(&tstats->syncp);
#endif
}

/* ndo_get_stats64 for a device that counts in dev->tstats. */
#if RTUNE_HAVE_DEV_GET_TSTATS64
#define rtune_compat_get_tstats64 dev_get_tstats64
#else
static inline void rtune_compat_get_tstats64(struct net_device *dev,
					     struct rtnl_link_stats64 *s)
{
	netdev_stats_to_stats64(s, &dev->stats);
	dev_fetch_sw_netstats(s, dev->tstats);
}
#endif

/* @dev passes its packets on to @lower: take over its TSO/GSO limits. */
static inline void rtune_compat_inherit_tso_max(struct net_device *dev,
						const struct net_device *lower)
{
#if RTUNE_HAVE_NETIF_INHERIT_TSO_MAX
	netif_inherit_tso_max(dev, lower);
#else
	netif_set_gso_max_size(dev, lower->gso_max_size);
	dev->gso_max_segs = lower->gso_max_segs;
#endif
}

#endif /* _ROCETUNE_COMPAT_NETDEV_H */
