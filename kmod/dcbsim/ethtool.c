// SPDX-License-Identifier: GPL-2.0
/*
 * dcbsim: ethtool_ops, and the link knobs in debugfs.
 *
 * The device looks like one port of a 100G NIC on a copper cable (QSFP28
 * DAC): it advertises 100000baseCR4 and the slower modes such a port can
 * fall back to, and reports the mode its link "trained" to, which the
 * link_speed knob can lower (a port that trained down: the speed below the
 * best advertised mode, and fewer lanes). Statistics come from the
 * simulated wire's counters (counters.c) under the names and in the
 * standard groups real drivers use:
 *
 *   get_pause_stats     PFC frames sent and received, all priorities
 *   get_eth_phy_stats   SymbolErrorDuringCarrier (5.13+)
 *   get_eth_mac_stats   FrameCheckSequenceErrors, frames and octets (5.13+)
 *   get_eth_ctrl_stats  MAC control frames: the PFC frames (5.13+)
 *   get_link_ext_stats  link_down_events (6.2+)
 *   ethtool -S          rx_prio<N>_pause, tx_prio<N>_pause (N 0-7),
 *                       rx_crc_errors_phy, rx_symbol_err_phy,
 *                       link_down_events_phy,
 *                       tx_pause_storm_warning_events,
 *                       tx_pause_storm_error_events (mlx5's names)
 *
 * and the tunable ETHTOOL_PFC_PREVENTION_TOUT with mlx5's rules.
 *
 *   <ifindex>/link_speed   the speed in Mb/s the link trained to; write
 *                          one of the port's speeds to retrain
 *   <ifindex>/link_flap    write N: the link went down and up N times
 *   <ifindex>/link_down    1: the link is down (carrier off), 0: up again
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/ethtool.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/string.h>

#include "dcbsim.h"

/* The port's link modes, best first; the link trains to one of them. */
static const struct dcbsim_link_mode {
	u32 speed;	/* Mb/s */
	u32 lanes;
	enum ethtool_link_mode_bit_indices bit;
} dcbsim_link_modes[] = {
	{ SPEED_100000, 4, ETHTOOL_LINK_MODE_100000baseCR4_Full_BIT },
	{ SPEED_50000, 2, ETHTOOL_LINK_MODE_50000baseCR2_Full_BIT },
	{ SPEED_40000, 4, ETHTOOL_LINK_MODE_40000baseCR4_Full_BIT },
	{ SPEED_25000, 1, ETHTOOL_LINK_MODE_25000baseCR_Full_BIT },
};

/*
 * The PFC storm prevention timeout, as mlx5 takes it: 0 disables it,
 * PFC_STORM_PREVENTION_AUTO means 100 ms, anything else must lie in
 * 80..8000 ms. The default, 8 s, is the ConnectX firmware default that
 * public notes report (mlx5 reads the value from the firmware).
 */
#define DCBSIM_PFC_TOUT_MIN_MS		80
#define DCBSIM_PFC_TOUT_MAX_MS		8000
#define DCBSIM_PFC_TOUT_AUTO_MS		100
#define DCBSIM_PFC_TOUT_DEFAULT_MS	8000

/* A link flap knob write adds at most this many down events at once. */
#define DCBSIM_LINK_FLAP_MAX		1000000

static struct dcbsim_priv *dcbsim_priv(struct net_device *dev)
{
	return netdev_priv(dev);
}

void dcbsim_link_init(struct dcbsim_link *link)
{
	link->mode = 0;
	link->pfc_prevention_tout = DCBSIM_PFC_TOUT_DEFAULT_MS;
}

static void dcbsim_get_drvinfo(struct net_device *dev,
			       struct ethtool_drvinfo *info)
{
	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
}

/* Link settings */

static int dcbsim_get_link_ksettings(struct net_device *dev,
				     struct ethtool_link_ksettings *ks)
{
	struct dcbsim_priv *priv = dcbsim_priv(dev);
	const struct dcbsim_link_mode *mode;
	int i;

	ethtool_link_ksettings_zero_link_mode(ks, supported);
	ethtool_link_ksettings_zero_link_mode(ks, advertising);
	ethtool_link_ksettings_zero_link_mode(ks, lp_advertising);
	for (i = 0; i < ARRAY_SIZE(dcbsim_link_modes); i++) {
		__set_bit(dcbsim_link_modes[i].bit, ks->link_modes.supported);
		__set_bit(dcbsim_link_modes[i].bit, ks->link_modes.advertising);
	}
	ethtool_link_ksettings_add_link_mode(ks, supported, Autoneg);
	ethtool_link_ksettings_add_link_mode(ks, advertising, Autoneg);
	ks->base.autoneg = AUTONEG_ENABLE;
	ks->base.port = PORT_DA;

	/* As a NIC does: no speed while the link is down. */
	if (!netif_running(dev) || !netif_carrier_ok(dev)) {
		ks->base.speed = SPEED_UNKNOWN;
		ks->base.duplex = DUPLEX_UNKNOWN;
		return 0;
	}
	mode = &dcbsim_link_modes[READ_ONCE(priv->link.mode)];
	ks->base.speed = mode->speed;
	ks->base.duplex = DUPLEX_FULL;
	rtune_compat_ksettings_set_lanes(ks, mode->lanes);
	return 0;
}

/* Link-level pause is off: the device does PFC. Statistics are PFC's. */
static void dcbsim_get_pauseparam(struct net_device *dev,
				  struct ethtool_pauseparam *pause)
{
	pause->autoneg = AUTONEG_DISABLE;
	pause->rx_pause = 0;
	pause->tx_pause = 0;
}

/* Statistics */

static u64 dcbsim_pause_total(const struct dcbsim_ctr_snapshot *snap,
			      int first)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++)
		sum += snap->val[first + i];
	return sum;
}

/* Every simulated PFC frame pauses one priority, so the frames on the
 * wire are the sum of the per-priority counts.
 */
static void dcbsim_get_pause_stats(struct net_device *dev,
				   struct ethtool_pause_stats *stats)
{
	struct dcbsim_ctr_snapshot snap;

	dcbsim_counters_read(&dcbsim_priv(dev)->counters, &snap);
	stats->tx_pause_frames = dcbsim_pause_total(&snap, DCBSIM_CTR_PAUSE_TX);
	stats->rx_pause_frames = dcbsim_pause_total(&snap, DCBSIM_CTR_PAUSE_RX);
}

/* ethtool -S: mlx5's names for the same counters. */
#define DCBSIM_NUM_PRIO_STATS	(2 * IEEE_8021QAZ_MAX_TCS)

static const char * const dcbsim_port_stat_names[] = {
	"rx_crc_errors_phy",
	"rx_symbol_err_phy",
	"link_down_events_phy",
	"tx_pause_storm_warning_events",
	"tx_pause_storm_error_events",
};

static const int dcbsim_port_stat_ctrs[] = {
	DCBSIM_CTR_FCS_ERRORS,
	DCBSIM_CTR_SYMBOL_ERRORS,
	DCBSIM_CTR_LINK_DOWN,
	DCBSIM_CTR_STORM_WARN,
	DCBSIM_CTR_STORM_ERR,
};

static_assert(ARRAY_SIZE(dcbsim_port_stat_names) ==
	      ARRAY_SIZE(dcbsim_port_stat_ctrs));

#define DCBSIM_NUM_STATS \
	(DCBSIM_NUM_PRIO_STATS + ARRAY_SIZE(dcbsim_port_stat_names))

static int dcbsim_get_sset_count(struct net_device *dev, int sset)
{
	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return DCBSIM_NUM_STATS;
}

static void dcbsim_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	int prio, i, n = 0;

	if (sset != ETH_SS_STATS)
		return;
	for (prio = 0; prio < IEEE_8021QAZ_MAX_TCS; prio++) {
		snprintf(data + n++ * ETH_GSTRING_LEN, ETH_GSTRING_LEN,
			 "rx_prio%d_pause", prio);
		snprintf(data + n++ * ETH_GSTRING_LEN, ETH_GSTRING_LEN,
			 "tx_prio%d_pause", prio);
	}
	for (i = 0; i < ARRAY_SIZE(dcbsim_port_stat_names); i++)
		strscpy(data + n++ * ETH_GSTRING_LEN,
			dcbsim_port_stat_names[i], ETH_GSTRING_LEN);
}

static void dcbsim_get_ethtool_stats(struct net_device *dev,
				     struct ethtool_stats *stats, u64 *data)
{
	struct dcbsim_ctr_snapshot snap;
	int prio, i, n = 0;

	dcbsim_counters_read(&dcbsim_priv(dev)->counters, &snap);
	for (prio = 0; prio < IEEE_8021QAZ_MAX_TCS; prio++) {
		data[n++] = snap.val[DCBSIM_CTR_PAUSE_RX + prio];
		data[n++] = snap.val[DCBSIM_CTR_PAUSE_TX + prio];
	}
	for (i = 0; i < ARRAY_SIZE(dcbsim_port_stat_ctrs); i++)
		data[n++] = snap.val[dcbsim_port_stat_ctrs[i]];
}

/* IEEE 802.3 statistics groups (5.13): exist or not as a whole. */
#if RTUNE_HAVE_ETHTOOL_ETH_STATS
static void dcbsim_get_eth_phy_stats(struct net_device *dev,
				     struct ethtool_eth_phy_stats *stats)
{
	struct dcbsim_ctr_snapshot snap;

	dcbsim_counters_read(&dcbsim_priv(dev)->counters, &snap);
	stats->SymbolErrorDuringCarrier = snap.val[DCBSIM_CTR_SYMBOL_ERRORS];
}

/* Frames and octets are the device's own (its netdev statistics). */
static void dcbsim_get_eth_mac_stats(struct net_device *dev,
				     struct ethtool_eth_mac_stats *stats)
{
	struct dcbsim_ctr_snapshot snap;
	struct rtnl_link_stats64 st;

	dev_get_stats(dev, &st);
	dcbsim_counters_read(&dcbsim_priv(dev)->counters, &snap);
	stats->FramesTransmittedOK = st.tx_packets;
	stats->FramesReceivedOK = st.rx_packets;
	stats->OctetsTransmittedOK = st.tx_bytes;
	stats->OctetsReceivedOK = st.rx_bytes;
	stats->FrameCheckSequenceErrors = snap.val[DCBSIM_CTR_FCS_ERRORS];
}

/* PFC frames are MAC control frames; the device sends no other kind. */
static void dcbsim_get_eth_ctrl_stats(struct net_device *dev,
				      struct ethtool_eth_ctrl_stats *stats)
{
	struct dcbsim_ctr_snapshot snap;

	dcbsim_counters_read(&dcbsim_priv(dev)->counters, &snap);
	stats->MACControlFramesTransmitted =
		dcbsim_pause_total(&snap, DCBSIM_CTR_PAUSE_TX);
	stats->MACControlFramesReceived =
		dcbsim_pause_total(&snap, DCBSIM_CTR_PAUSE_RX);
}
#endif /* RTUNE_HAVE_ETHTOOL_ETH_STATS */

/* Extended link statistics (6.2): exist or not as a whole. */
#if RTUNE_HAVE_ETHTOOL_LINK_EXT_STATS
static void dcbsim_get_link_ext_stats(struct net_device *dev,
				      struct ethtool_link_ext_stats *stats)
{
	struct dcbsim_ctr_snapshot snap;

	dcbsim_counters_read(&dcbsim_priv(dev)->counters, &snap);
	stats->link_down_events = snap.val[DCBSIM_CTR_LINK_DOWN];
}
#endif /* RTUNE_HAVE_ETHTOOL_LINK_EXT_STATS */

/* Tunables: the PFC storm prevention timeout only. Called under RTNL. */

static int dcbsim_get_tunable(struct net_device *dev,
			      const struct ethtool_tunable *tuna, void *data)
{
	struct dcbsim_priv *priv = dcbsim_priv(dev);

	switch (tuna->id) {
	case ETHTOOL_PFC_PREVENTION_TOUT:
		*(u16 *)data = priv->link.pfc_prevention_tout;
		return 0;
	default:
		return -EINVAL;
	}
}

static int dcbsim_set_pfc_prevention_tout(struct net_device *dev, u16 tout)
{
	struct dcbsim_priv *priv = dcbsim_priv(dev);

	if (tout == PFC_STORM_PREVENTION_AUTO)
		tout = DCBSIM_PFC_TOUT_AUTO_MS;
	if (tout != PFC_STORM_PREVENTION_DISABLE &&
	    (tout < DCBSIM_PFC_TOUT_MIN_MS || tout > DCBSIM_PFC_TOUT_MAX_MS)) {
		netdev_err(dev, "PFC storm prevention timeout %u ms not in %u-%u ms (0 off, auto %u ms)\n",
			   tout, DCBSIM_PFC_TOUT_MIN_MS, DCBSIM_PFC_TOUT_MAX_MS,
			   DCBSIM_PFC_TOUT_AUTO_MS);
		return -EINVAL;
	}
	priv->link.pfc_prevention_tout = tout;
	return 0;
}

static int dcbsim_set_tunable(struct net_device *dev,
			      const struct ethtool_tunable *tuna,
			      const void *data)
{
	switch (tuna->id) {
	case ETHTOOL_PFC_PREVENTION_TOUT:
		return dcbsim_set_pfc_prevention_tout(dev, *(const u16 *)data);
	default:
		return -EINVAL;
	}
}

const struct ethtool_ops dcbsim_ethtool_ops = {
	RTUNE_COMPAT_ETHTOOL_CAP_LANES
	.get_drvinfo		= dcbsim_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_link_ksettings	= dcbsim_get_link_ksettings,
	.get_pauseparam		= dcbsim_get_pauseparam,
	.get_pause_stats	= dcbsim_get_pause_stats,
	.get_sset_count		= dcbsim_get_sset_count,
	.get_strings		= dcbsim_get_strings,
	.get_ethtool_stats	= dcbsim_get_ethtool_stats,
	.get_tunable		= dcbsim_get_tunable,
	.set_tunable		= dcbsim_set_tunable,
#if RTUNE_HAVE_ETHTOOL_ETH_STATS
	.get_eth_phy_stats	= dcbsim_get_eth_phy_stats,
	.get_eth_mac_stats	= dcbsim_get_eth_mac_stats,
	.get_eth_ctrl_stats	= dcbsim_get_eth_ctrl_stats,
#endif
#if RTUNE_HAVE_ETHTOOL_LINK_EXT_STATS
	.get_link_ext_stats	= dcbsim_get_link_ext_stats,
#endif
};

/* debugfs: link_speed, link_flap and link_down */

static int dcbsim_link_speed_get(void *data, u64 *val)
{
	struct dcbsim_priv *priv = data;

	*val = dcbsim_link_modes[READ_ONCE(priv->link.mode)].speed;
	return 0;
}

static int dcbsim_link_speed_set(void *data, u64 val)
{
	struct dcbsim_priv *priv = data;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dcbsim_link_modes); i++) {
		if (dcbsim_link_modes[i].speed == val) {
			WRITE_ONCE(priv->link.mode, i);
			return 0;
		}
	}
	return -EINVAL;
}

DEFINE_DEBUGFS_ATTRIBUTE(dcbsim_link_speed_fops, dcbsim_link_speed_get,
			 dcbsim_link_speed_set, "%llu\n");

/*
 * N flaps: link_down_events grows by N and, if the link is up, the carrier
 * goes down and up once (the netdev's carrier_down_count and
 * carrier_changes move as for a real flap; N of them would take N link
 * watch events). The device's knobs are removed, waiting for writers,
 * before it is unregistered, so the device is alive here.
 */
static int dcbsim_link_flap_set(void *data, u64 val)
{
	struct dcbsim_priv *priv = data;
	struct dcbsim_ctr *ctr = &priv->counters.ctr[DCBSIM_CTR_LINK_DOWN];
	struct net_device *dev = priv->dev;

	if (!val || val > DCBSIM_LINK_FLAP_MAX)
		return -EINVAL;

	spin_lock(&ctr->lock);
	ctr->base += val;
	spin_unlock(&ctr->lock);

	if (netif_running(dev) && netif_carrier_ok(dev)) {
		netif_carrier_off(dev);
		netif_carrier_on(dev);
	}
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(dcbsim_link_flap_fops, NULL, dcbsim_link_flap_set,
			 "%llu\n");

/*
 * The link stays down (a pulled cable, a peer port shut): 1 turns the
 * carrier off and counts one link-down event, as a NIC does; 0 turns it
 * back on if the lower device has carrier. Not sticky: the lower device's
 * next state change (NETDEV_UP, DOWN, CHANGE) sets the carrier from its
 * own, as for any stacked device.
 */
static int dcbsim_link_down_get(void *data, u64 *val)
{
	struct dcbsim_priv *priv = data;

	*val = !netif_carrier_ok(priv->dev);
	return 0;
}

static int dcbsim_link_down_set(void *data, u64 val)
{
	struct dcbsim_priv *priv = data;
	struct dcbsim_ctr *ctr = &priv->counters.ctr[DCBSIM_CTR_LINK_DOWN];
	struct net_device *dev = priv->dev;
	struct net_device *lower;

	if (val > 1)
		return -EINVAL;
	if (val) {
		if (!netif_carrier_ok(dev))
			return 0;
		spin_lock(&ctr->lock);
		ctr->base++;
		spin_unlock(&ctr->lock);
		netif_carrier_off(dev);
		return 0;
	}
	/* The lower may be let go meanwhile (it is being unregistered); its
	 * free waits for a grace period after that (synchronize_net()).
	 */
	rcu_read_lock();
	lower = READ_ONCE(priv->lower);
	if (!lower || netif_carrier_ok(lower))
		netif_carrier_on(dev);
	rcu_read_unlock();
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(dcbsim_link_down_fops, dcbsim_link_down_get,
			 dcbsim_link_down_set, "%llu\n");

void dcbsim_link_debugfs(struct dcbsim_priv *priv, struct dentry *dir)
{
	debugfs_create_file_unsafe("link_speed", 0644, dir, priv,
				   &dcbsim_link_speed_fops);
	debugfs_create_file_unsafe("link_flap", 0200, dir, priv,
				   &dcbsim_link_flap_fops);
	debugfs_create_file_unsafe("link_down", 0644, dir, priv,
				   &dcbsim_link_down_fops);
}
