/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ethtool netlink (generic netlink family "ethtool", libnl-genl-3): link
 * speed, link-down count, pause frame statistics and the IEEE 802.3
 * standard statistics groups (eth-phy, eth-mac), read-only.
 */
#ifndef ROCETUNE_ETHTOOL_H
#define ROCETUNE_ETHTOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>

/* Newer than Debian 12's UAPI (Linux 6.2): the link-down counter. */
#define RTUNE_ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT 6

/*
 * What one netdev reported. Each value has a "has" flag: a kernel or
 * driver that does not report it leaves it unset, never 0. The *_err
 * fields say why a group is missing (a positive errno; EOPNOTSUPP when the
 * kernel or driver lacks the message or the op).
 */
struct rtune_eth {
	bool has_speed;
	uint32_t speed_mbps;
	bool has_link_down;
	uint64_t link_down;
	bool has_pause_tx, has_pause_rx;
	uint64_t pause_tx, pause_rx;	/* 802.3x pause frames (all priorities) */
	bool has_fcs_err, has_sym_err;
	uint64_t fcs_err, sym_err;
	int linkmodes_err, linkstate_err, pause_err, stats_err;
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

/* Reply parsers (untrusted input; the fuzz harness calls them). Each takes
 * a generic netlink message of the ethtool family and returns 0 or -EPROTO. */
int eth_parse_linkmodes(struct nlmsghdr *h, void *arg);
int eth_parse_linkstate(struct nlmsghdr *h, void *arg);
int eth_parse_pause(struct nlmsghdr *h, void *arg);
int eth_parse_stats(struct nlmsghdr *h, void *arg);

#endif
