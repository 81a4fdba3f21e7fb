/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ethtool netlink (generic netlink family "ethtool", libnl-genl-3): link
 * speed, lanes and advertised modes, link-down count, pause frame
 * statistics and the IEEE 802.3 standard statistics groups (eth-phy,
 * eth-mac), read-only; and the PFC storm prevention tunable, read and
 * set (ioctl: the tunables have no netlink message). ethtool_gstats.c
 * reads a few of the driver's own statistics (`ethtool -S`) by name,
 * through the ETHTOOL_GSTATS ioctl: netlink carries their names but not
 * their values.
 */
#ifndef ROCETUNE_ETHTOOL_H
#define ROCETUNE_ETHTOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>

/* Newer than Debian 12's UAPI (Linux 6.2): the link-down counter, after
 * EXT_SUBSTATE (6, a u8) in the LINKSTATE enum. The kernel sends it only
 * to a request with ETHTOOL_FLAG_STATS (ethtool -I), which 6.1 refuses
 * for LINKSTATE. */
#define RTUNE_ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT 7

/* ETH_GSTRING_LEN: the fixed size of one `ethtool -S` name, NUL-padded
 * (not NUL-terminated when the name fills it). */
#define RTUNE_ETH_GSTRING_LEN 32

/*
 * Driver statistics (`ethtool -S`) rocetune reads, by the driver's name
 * for them (ethtool_gstats.c has the table of names):
 *   STORM_WARN  the NIC sent pauses for longer than its warning watermark
 *               (mlx5 tx_pause_storm_warning_events)
 *   STORM_ERR   ... for longer than its storm prevention timeout, and
 *               stopped sending pauses: a storm prevented, drops possible
 *               (mlx5 tx_pause_storm_error_events)
 */
enum rtune_eth_drv { RTUNE_ETH_STORM_WARN, RTUNE_ETH_STORM_ERR, RTUNE_ETH_DRV_COUNT };

/*
 * What one netdev reported. Each value has a "has" flag: a kernel or
 * driver that does not report it leaves it unset, never 0. The *_err
 * fields say why a group is missing (a positive errno; EOPNOTSUPP when the
 * kernel or driver lacks the message or the op).
 */
struct rtune_eth {
	bool has_speed;
	uint32_t speed_mbps;
	bool has_lanes;		/* the lanes the link runs on (5.11+ drivers) */
	uint32_t lanes;
	/* The fastest mode advertised, from the modes' names ("100000baseCR4/Full":
	 * 100000 Mb/s, 4 lanes); adv_lanes 0 when the name gives none. */
	bool has_adv;
	uint32_t adv_speed_mbps, adv_lanes;
	bool has_link_down;
	uint64_t link_down;
	bool has_pause_tx, has_pause_rx;
	uint64_t pause_tx, pause_rx;	/* 802.3x pause frames (all priorities) */
	bool has_fcs_err, has_sym_err;
	uint64_t fcs_err, sym_err;
	int linkmodes_err, linkstate_err, pause_err, stats_err;
	/* ethtool -S: the counters of enum rtune_eth_drv the driver has,
	 * with the driver's name for each (NUL-terminated) */
	bool has_drv[RTUNE_ETH_DRV_COUNT];
	uint64_t drv[RTUNE_ETH_DRV_COUNT];
	char drv_name[RTUNE_ETH_DRV_COUNT][RTUNE_ETH_GSTRING_LEN + 1];
	/* ethtool -S: per priority, the time PFC paused it, in microseconds
	 * (mlx5 rx_prio<N>_pause_duration: pauses received, the port held
	 * back; tx_prio<N>_pause_duration: pauses sent). Bit N of a mask: that
	 * priority's value was read (mlx5 lists PFC-enabled priorities only). */
	uint8_t pause_us_rx_mask, pause_us_tx_mask;
	uint64_t pause_us_rx[8], pause_us_tx[8];
	int gstats_err;		/* EOPNOTSUPP: none of them (or no ethtool -S) */
};

/* A generic netlink socket with the "ethtool" family resolved. */
struct rtune_ethtool {
	struct nl_sock *sk;
	int family;		/* < 0: no ethtool netlink (the negative errno) */
};

int rtune_ethtool_open(struct rtune_ethtool *et);
void rtune_ethtool_close(struct rtune_ethtool *et);
/* Fill @out for @ifname; groups that fail leave their err set. */
void rtune_ethtool_read(struct rtune_ethtool *et, const char *ifname, struct rtune_eth *out);

/*
 * The PFC storm prevention timeout (ETHTOOL_PFC_PREVENTION_TOUT) in ms,
 * 0 when disabled. 0 or a negative errno (-EOPNOTSUPP: no such tunable).
 */
int rtune_ethtool_pfc_tout(const char *ifname, uint16_t *ms);
/*
 * Set it: 0 (off), PFC_STORM_PREVENTION_AUTO (the driver's default) or ms.
 * 0 or the driver's negative errno: -EINVAL for a value outside its range
 * (mlx5, dcbsim: 80..8000 ms), -EOPNOTSUPP without the tunable.
 */
int rtune_ethtool_set_pfc_tout(const char *ifname, uint16_t ms);

/*
 * The driver's statistics of enum rtune_eth_drv and the per-priority
 * pause durations (ETHTOOL_GSSET_INFO, GSTRINGS, GSTATS ioctls). Fills
 * has_drv/drv/drv_name and pause_us_*; 0 or a negative errno
 * (-EOPNOTSUPP: no ethtool -S, or none of the names).
 */
int rtune_ethtool_gstats(const char *ifname, struct rtune_eth *e);
/*
 * Pick them from one reading: @names, @nnames names of
 * RTUNE_ETH_GSTRING_LEN bytes each, and @nvals values (untrusted: the
 * counts must agree; a name need not be NUL-terminated). 0 or -EPROTO.
 */
int rtune_eth_gstats_pick(const char *names, uint32_t nnames, const uint64_t *vals,
			  uint32_t nvals, struct rtune_eth *e);

/* A link mode's name: its speed in Mb/s and lanes (0: not in the name).
 * False when the name starts with no speed. */
bool rtune_linkmode_parse(const char *name, uint32_t *speed, uint32_t *lanes);

/* Reply parsers (untrusted input; the fuzz harness calls them). Each takes
 * a generic netlink message of the ethtool family and returns 0 or -EPROTO. */
int eth_parse_linkmodes(struct nlmsghdr *h, void *arg);
int eth_parse_linkstate(struct nlmsghdr *h, void *arg);
int eth_parse_pause(struct nlmsghdr *h, void *arg);
int eth_parse_stats(struct nlmsghdr *h, void *arg);

#endif
