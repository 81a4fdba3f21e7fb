// SPDX-License-Identifier: GPL-2.0
/*
 * dcbsim: a DCB-capable software netdev for rocetune's tests, in the
 * spirit of netdevsim. This file holds the network device itself.
 *
 *   ip link add dcbsim0 type dcbsim
 *	standalone: transmit counts and frees packets, nothing is received.
 *   ip link add link eth0 name dcb0 type dcbsim
 *	stacked, like macvlan in passthru mode: dcb0 takes eth0's MAC
 *	address, transmits through eth0 and, while up, receives every frame
 *	that arrives on eth0 (an rx_handler), so rdma_rxe can run on dcb0.
 *
 * Devices live in the initial network namespace only: their debugfs
 * directories are named by ifindex, which is unique per namespace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/net_namespace.h>
#include <net/rtnetlink.h>

#include "dcbsim.h"

#define DCBSIM_MAX_MTU	9000

#define DCBSIM_FEATURES	(NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_HIGHDMA | \
			 NETIF_F_FRAGLIST | NETIF_F_GSO_SOFTWARE)

static const struct net_device_ops dcbsim_netdev_ops;
static struct rtnl_link_ops dcbsim_link_ops;

/* Data path */

static netdev_tx_t dcbsim_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct dcbsim_priv *priv = netdev_priv(dev);
	struct net_device *lower = READ_ONCE(priv->lower);
	unsigned int len = skb->len;
	int ret;

	if (!lower) {
		rtune_compat_sw_netstats_tx_add(dev, 1, len);
		consume_skb(skb);
		return NETDEV_TX_OK;
	}

	skb->dev = lower;
	ret = dev_queue_xmit(skb);
	if (likely(ret == NET_XMIT_SUCCESS || ret == NET_XMIT_CN))
		rtune_compat_sw_netstats_tx_add(dev, 1, len);
	else
		rtune_compat_tx_dropped_inc(dev);
	return NETDEV_TX_OK;
}

/* Runs on the lower device's receive path, under RCU. */
static rx_handler_result_t dcbsim_handle_frame(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct dcbsim_priv *priv = rcu_dereference(skb->dev->rx_handler_data);
	struct net_device *dev = priv->dev;

	/* While the upper device is down the lower keeps its own traffic;
	 * frames the lower looped back to itself stay there too.
	 */
	if (!netif_running(dev) || skb->pkt_type == PACKET_LOOPBACK)
		return RX_HANDLER_PASS;

	skb = skb_share_check(skb, GFP_ATOMIC);
	if (unlikely(!skb)) {
		rtune_compat_rx_dropped_inc(dev);
		return RX_HANDLER_CONSUMED;
	}

	dev_sw_netstats_rx_add(dev, skb->len + ETH_HLEN);
	skb->dev = dev;
	*pskb = skb;
	return RX_HANDLER_ANOTHER;
}

/* Stacked mode: link to and unlink from the lower device (under RTNL) */

static struct dcbsim_priv *dcbsim_priv_of_lower(const struct net_device *dev)
{
	if (rcu_access_pointer(dev->rx_handler) != dcbsim_handle_frame)
		return NULL;
	return rtnl_dereference(dev->rx_handler_data);
}

static int dcbsim_check_lower(const struct net_device *dev,
			      const struct net_device *lower,
			      struct nlattr *tb[],
			      struct netlink_ext_ack *extack)
{
	if (!lower) {
		NL_SET_ERR_MSG(extack, "Unknown lower device");
		return -ENODEV;
	}
	if (!net_eq(dev_net(lower), dev_net(dev))) {
		NL_SET_ERR_MSG(extack, "Lower device is in another network namespace");
		return -EINVAL;
	}
	if (lower->type != ARPHRD_ETHER || (lower->flags & IFF_LOOPBACK)) {
		NL_SET_ERR_MSG(extack, "Lower device is not an Ethernet device");
		return -EINVAL;
	}
	if (tb[IFLA_ADDRESS]) {
		NL_SET_ERR_MSG(extack, "A stacked device uses its lower device's MAC address");
		return -EINVAL;
	}
	return 0;
}

static int dcbsim_link_lower(struct dcbsim_priv *priv,
			     struct net_device *lower,
			     struct netlink_ext_ack *extack)
{
	struct net_device *dev = priv->dev;
	int err;

	err = netdev_rx_handler_register(lower, dcbsim_handle_frame, priv);
	if (err) {
		NL_SET_ERR_MSG(extack, "Lower device is taken (bridge, bond, macvlan...)");
		return err;
	}

	err = netdev_upper_dev_link(lower, dev, extack);
	if (err)
		goto err_rx_handler;

	rtune_compat_netdev_hold(lower, &priv->lower_tracker);
	WRITE_ONCE(priv->lower, lower);
	netif_stacked_transfer_operstate(lower, dev);
	return 0;

err_rx_handler:
	netdev_rx_handler_unregister(lower);
	return err;
}

/* Only once the device is closed: the transmit path reads priv->lower. */
static void dcbsim_unlink_lower(struct dcbsim_priv *priv)
{
	struct net_device *lower = priv->lower;

	if (!lower)
		return;

	netdev_upper_dev_unlink(lower, priv->dev);
	netdev_rx_handler_unregister(lower);	/* waits for the handler */
	WRITE_ONCE(priv->lower, NULL);
	rtune_compat_netdev_put(lower, &priv->lower_tracker);
}

/* net_device_ops */

static int dcbsim_dev_init(struct net_device *dev)
{
	struct dcbsim_priv *priv = netdev_priv(dev);

	dev->tstats = netdev_alloc_pcpu_stats(struct pcpu_sw_netstats);
	if (!dev->tstats)
		return -ENOMEM;

	dcbsim_dcb_init(&priv->dcb);
	dcbsim_counters_init(&priv->counters);
	dcbsim_link_init(&priv->link);
	dcbsim_fault_init(&priv->fault);
	return 0;
}

static void dcbsim_dev_uninit(struct net_device *dev)
{
	struct dcbsim_priv *priv = netdev_priv(dev);

	dcbsim_fault_unregister(priv);
	dcbsim_rewr_flush(dev);
	dcbsim_unlink_lower(priv);
	free_percpu(dev->tstats);
}

/* After unregistration, without RTNL (netdev_run_todo), before the free. */
static void dcbsim_dev_destructor(struct net_device *dev)
{
	dcbsim_devlink_release(netdev_priv(dev), true);
}

static int dcbsim_open(struct net_device *dev)
{
	struct dcbsim_priv *priv = netdev_priv(dev);
	struct net_device *lower = priv->lower;
	int err;

	if (!lower)
		return 0;

	if (dev->flags & IFF_ALLMULTI) {
		err = dev_set_allmulti(lower, 1);
		if (err)
			return err;
	}
	if (dev->flags & IFF_PROMISC) {
		err = dev_set_promiscuity(lower, 1);
		if (err)
			goto err_allmulti;
	}
	netif_stacked_transfer_operstate(lower, dev);
	return 0;

err_allmulti:
	if (dev->flags & IFF_ALLMULTI)
		dev_set_allmulti(lower, -1);
	return err;
}

static int dcbsim_stop(struct net_device *dev)
{
	struct dcbsim_priv *priv = netdev_priv(dev);
	struct net_device *lower = priv->lower;

	if (!lower)
		return 0;

	dev_uc_unsync(lower, dev);
	dev_mc_unsync(lower, dev);
	if (dev->flags & IFF_ALLMULTI)
		dev_set_allmulti(lower, -1);
	if (dev->flags & IFF_PROMISC)
		dev_set_promiscuity(lower, -1);
	return 0;
}

static void dcbsim_change_rx_flags(struct net_device *dev, int change)
{
	struct dcbsim_priv *priv = netdev_priv(dev);
	struct net_device *lower = priv->lower;

	/* dcbsim_open() and dcbsim_stop() handle the flags of a closed device */
	if (!lower || !(dev->flags & IFF_UP))
		return;

	if (change & IFF_ALLMULTI)
		dev_set_allmulti(lower, dev->flags & IFF_ALLMULTI ? 1 : -1);
	if (change & IFF_PROMISC)
		dev_set_promiscuity(lower, dev->flags & IFF_PROMISC ? 1 : -1);
}

static void dcbsim_set_rx_mode(struct net_device *dev)
{
	struct dcbsim_priv *priv = netdev_priv(dev);
	struct net_device *lower = priv->lower;

	if (!lower)
		return;

	dev_uc_sync(lower, dev);
	dev_mc_sync(lower, dev);
}

static int dcbsim_set_mac_address(struct net_device *dev, void *addr)
{
	struct dcbsim_priv *priv = netdev_priv(dev);

	if (priv->lower)
		return -EBUSY;	/* follows the lower device's address */
	return eth_mac_addr(dev, addr);
}

static int dcbsim_get_iflink(const struct net_device *dev)
{
	const struct dcbsim_priv *priv = netdev_priv(dev);
	const struct net_device *lower = READ_ONCE(priv->lower);

	return lower ? lower->ifindex : dev->ifindex;
}

static const struct net_device_ops dcbsim_netdev_ops = {
	.ndo_init		= dcbsim_dev_init,
	.ndo_uninit		= dcbsim_dev_uninit,
	.ndo_open		= dcbsim_open,
	.ndo_stop		= dcbsim_stop,
	.ndo_start_xmit		= dcbsim_xmit,
	.ndo_change_rx_flags	= dcbsim_change_rx_flags,
	.ndo_set_rx_mode	= dcbsim_set_rx_mode,
	.ndo_set_mac_address	= dcbsim_set_mac_address,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_get_stats64	= rtune_compat_get_tstats64,
	.ndo_get_iflink		= dcbsim_get_iflink,
};

/* rtnl_link_ops */

static void dcbsim_setup(struct net_device *dev)
{
	struct dcbsim_priv *priv = netdev_priv(dev);

	ether_setup(dev);
	priv->dev = dev;

	dev->netdev_ops = &dcbsim_netdev_ops;
	dev->ethtool_ops = &dcbsim_ethtool_ops;
	dev->dcbnl_ops = &dcbsim_dcbnl_ops;
	dev->needs_free_netdev = true;
	dev->priv_destructor = dcbsim_dev_destructor;

	dev->priv_flags |= IFF_NO_QUEUE | IFF_LIVE_ADDR_CHANGE;
	/* Stacked mode hands the skb on to the lower device. */
	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	dev->features |= DCBSIM_FEATURES;
	rtune_compat_netdev_set_lltx(dev);
	rtune_compat_netdev_set_netns_local(dev);
	dev->hw_features |= DCBSIM_FEATURES;

	/* The real maximum depends on the mode; dcbsim_newlink() sets it. */
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU;
}

static int dcbsim_validate(struct nlattr *tb[], struct nlattr *data[],
			   struct netlink_ext_ack *extack)
{
	if (tb[IFLA_ADDRESS]) {
		if (nla_len(tb[IFLA_ADDRESS]) != ETH_ALEN) {
			NL_SET_ERR_MSG(extack, "Invalid MAC address length");
			return -EINVAL;
		}
		if (!is_valid_ether_addr(nla_data(tb[IFLA_ADDRESS]))) {
			NL_SET_ERR_MSG(extack, "Invalid MAC address");
			return -EADDRNOTAVAIL;
		}
	}
	return 0;
}

/*
 * dcbsim's newlink. Its name is compat/netdev.h's: the op in
 * dcbsim_link_ops, rtune_compat_newlink_op(), has the type this kernel
 * wants and calls it.
 */
int rtune_compat_do_newlink(struct net *src_net, struct net_device *dev,
			    struct nlattr *tb[], struct nlattr *data[],
			    struct netlink_ext_ack *extack)
{
	struct dcbsim_priv *priv = netdev_priv(dev);
	struct net_device *lower = NULL;
	int err;

	if (!net_eq(dev_net(dev), &init_net)) {
		NL_SET_ERR_MSG(extack, "dcbsim devices only live in init_net");
		return -EOPNOTSUPP;
	}

	if (tb[IFLA_LINK]) {
		lower = __dev_get_by_index(src_net, nla_get_u32(tb[IFLA_LINK]));
		err = dcbsim_check_lower(dev, lower, tb, extack);
		if (err)
			return err;

		eth_hw_addr_set(dev, lower->dev_addr);
		if (!tb[IFLA_MTU])
			dev->mtu = lower->mtu;
		/* 0 is "no limit" for the lower (dummy does that) */
		dev->max_mtu = lower->max_mtu ?: ETH_MAX_MTU;
		rtune_compat_inherit_tso_max(dev, lower);
	} else {
		if (!tb[IFLA_ADDRESS])
			eth_hw_addr_random(dev);
		dev->max_mtu = DCBSIM_MAX_MTU;
	}
	if (dev->mtu > dev->max_mtu) {
		NL_SET_ERR_MSG(extack, "MTU is above the maximum");
		return -EINVAL;
	}

	dcbsim_devlink_claim(priv);
	err = register_netdevice(dev);
	if (err) {
		dcbsim_devlink_release(priv, false);
		return err;
	}
	dcbsim_devlink_bind(priv);

	if (lower) {
		err = dcbsim_link_lower(priv, lower, extack);
		if (err)
			goto err_unregister;
	}

	dcbsim_fault_register(priv);
	return 0;

err_unregister:
	unregister_netdevice(dev);
	return err;
}

static struct rtnl_link_ops dcbsim_link_ops __read_mostly = {
	.kind		= DCBSIM_LINK_KIND,
	.priv_size	= sizeof(struct dcbsim_priv),
	.setup		= dcbsim_setup,
	.validate	= dcbsim_validate,
	.newlink	= rtune_compat_newlink_op,
};

/* Events: our own renames, and everything that happens to a lower device */

static int dcbsim_netdev_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct dcbsim_priv *priv;

	if (dev->netdev_ops == &dcbsim_netdev_ops && event == NETDEV_CHANGENAME)
		dcbsim_fault_rename(netdev_priv(dev));

	priv = dcbsim_priv_of_lower(dev);
	if (!priv)
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		netif_stacked_transfer_operstate(dev, priv->dev);
		break;
	case NETDEV_CHANGEADDR:
		eth_hw_addr_set(priv->dev, dev->dev_addr);
		call_netdevice_notifiers(NETDEV_CHANGEADDR, priv->dev);
		break;
	case NETDEV_UNREGISTER:
		/* The upper device goes with its lower. If both are already
		 * being unregistered together, the upper is closed by now:
		 * just let go of the lower.
		 */
		if (priv->dev->reg_state == NETREG_REGISTERED)
			unregister_netdevice(priv->dev);
		else
			dcbsim_unlink_lower(priv);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block dcbsim_notifier = {
	.notifier_call = dcbsim_netdev_event,
};

static int __init dcbsim_module_init(void)
{
	int err;

	dcbsim_debugfs_init();

	err = dcbsim_devlink_init();
	if (err)
		goto err_debugfs;

	err = register_netdevice_notifier(&dcbsim_notifier);
	if (err)
		goto err_devlink;

	err = rtnl_link_register(&dcbsim_link_ops);
	if (err)
		goto err_notifier;

	return 0;

err_notifier:
	unregister_netdevice_notifier(&dcbsim_notifier);
err_devlink:
	dcbsim_devlink_exit();
err_debugfs:
	dcbsim_debugfs_exit();
	return err;
}

static void __exit dcbsim_module_exit(void)
{
	/* Deletes every dcbsim device, which removes its debugfs directory. */
	rtnl_link_unregister(&dcbsim_link_ops);
	unregister_netdevice_notifier(&dcbsim_notifier);
	dcbsim_devlink_exit();
	dcbsim_debugfs_exit();
}

module_init(dcbsim_module_init);
module_exit(dcbsim_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("DCB-capable software netdev for testing (rocetune)");
MODULE_ALIAS_RTNL_LINK(DCBSIM_LINK_KIND);
