// SPDX-License-Identifier: GPL-2.0
/*
 * ethtool netlink, read-only, through libnl-genl-3 for the family lookup
 * and message header, and rocetune's strict reply loop (nl.c) for the
 * replies. Every reply is parsed with bounds checks (nl.h accessors);
 * selftests/fuzz/fuzz_ethtool.c feeds these parsers arbitrary bytes.
 *
 * A kernel without the family, without a message (older than the message's
 * introduction) or a driver without the op answers with an error; the
 * group is then "not reported" (its *_err set), never a failure.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include "ethtool.h"
#include "nl.h"
#include "state.h"

int rtune_ethtool_open(struct rtune_ethtool *et)
{
	et->family = -ENOENT;
	et->sk = rtune_nl_open(NETLINK_GENERIC);
	if (!et->sk)
		return et->family = -errno;
	et->family = genl_ctrl_resolve(et->sk, ETHTOOL_GENL_NAME);
	if (et->family < 0)
		et->family = -EOPNOTSUPP;	/* kernel without ethtool netlink */
	return et->family < 0 ? et->family : 0;
}

void rtune_ethtool_close(struct rtune_ethtool *et)
{
	if (et->sk)
		nl_socket_free(et->sk);
	et->sk = NULL;
}

/* The attributes of a generic netlink message, into tb[0..max]. */
static int genl_table(struct nlmsghdr *h, const struct nlattr **tb, int max)
{
	if (h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EPROTO;
	return rtune_nla_table((const char *)nlmsg_data(h) + GENL_HDRLEN,
			       (int)h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, tb, max);
}

bool rtune_linkmode_parse(const char *name, uint32_t *speed, uint32_t *lanes)
{
	uint64_t sp = 0;
	const char *s = name, *end;

	while (*s >= '0' && *s <= '9' && sp <= UINT32_MAX)
		sp = sp * 10 + (uint64_t)(*s++ - '0');
	if (s == name || sp > UINT32_MAX || strncmp(s, "base", 4))
		return false;
	/* the medium ends at '/' (duplex) or the end: "CR4", "KR", "T" */
	s += 4;
	end = strchr(s, '/');
	if (!end)
		end = s + strlen(s);
	*speed = (uint32_t)sp;
	*lanes = 0;
	if (end > s && end[-1] >= '1' && end[-1] <= '9' && !(end - 1 > s && end[-2] >= '0' && end[-2] <= '9'))
		*lanes = (uint32_t)(end[-1] - '0');
	else if (end > s)
		*lanes = 1;	/* "CR", "SR", "T": one lane */
	return true;
}

/* A verbose bitset (ETHTOOL_A_BITSET_BITS): the fastest bit set in the value. */
static int fastest_mode(const struct nlattr *set, struct rtune_eth *e)
{
	const struct nlattr *tb[ETHTOOL_A_BITSET_MAX + 1], *bit;
	int rem;

	if (rtune_nla_table(nla_data(set), nla_len(set), tb, ETHTOOL_A_BITSET_MAX))
		return -EPROTO;
	if (!tb[ETHTOOL_A_BITSET_BITS])
		return 0;	/* compact: not asked for */
	nla_for_each_nested(bit, (struct nlattr *)tb[ETHTOOL_A_BITSET_BITS], rem) {
		const struct nlattr *bt[ETHTOOL_A_BITSET_BIT_MAX + 1];
		char name[ETH_GSTRING_LEN];
		uint32_t sp, ln;

		if (nla_type(bit) != ETHTOOL_A_BITSET_BITS_BIT)
			continue;
		if (rtune_nla_table(nla_data(bit), nla_len(bit), bt, ETHTOOL_A_BITSET_BIT_MAX))
			return -EPROTO;
		if (!bt[ETHTOOL_A_BITSET_BIT_VALUE] || !bt[ETHTOOL_A_BITSET_BIT_NAME])
			continue;	/* supported, not advertised */
		if (rtune_nla_str(bt[ETHTOOL_A_BITSET_BIT_NAME], name, sizeof(name)))
			return -EPROTO;
		if (!rtune_linkmode_parse(name, &sp, &ln))
			continue;	/* "Autoneg", "Pause", FEC modes */
		if (!e->has_adv || sp > e->adv_speed_mbps ||
		    (sp == e->adv_speed_mbps && ln > e->adv_lanes)) {
			e->has_adv = true;
			e->adv_speed_mbps = sp;
			e->adv_lanes = ln;
		}
	}
	return rtune_nla_end_ok(rem);
}

int eth_parse_linkmodes(struct nlmsghdr *h, void *arg)
{
	struct rtune_eth *e = arg;
	const struct nlattr *tb[ETHTOOL_A_LINKMODES_MAX + 1];
	uint32_t speed;

	if (genl_table(h, tb, ETHTOOL_A_LINKMODES_MAX))
		return -EPROTO;
	if (tb[ETHTOOL_A_LINKMODES_OURS] && fastest_mode(tb[ETHTOOL_A_LINKMODES_OURS], e))
		return -EPROTO;
	if (tb[ETHTOOL_A_LINKMODES_LANES]) {
		if (rtune_nla_u32(tb[ETHTOOL_A_LINKMODES_LANES], &e->lanes))
			return -EPROTO;
		e->has_lanes = e->lanes != 0 && e->lanes != (uint32_t)-1;
	}
	if (!tb[ETHTOOL_A_LINKMODES_SPEED])
		return 0;
	if (rtune_nla_u32(tb[ETHTOOL_A_LINKMODES_SPEED], &speed))
		return -EPROTO;
	/* SPEED_UNKNOWN (-1) and 0 are "no speed" (link down, or unknown) */
	if (speed && speed != (uint32_t)SPEED_UNKNOWN) {
		e->has_speed = true;
		e->speed_mbps = speed;
	}
	return 0;
}

int eth_parse_linkstate(struct nlmsghdr *h, void *arg)
{
	struct rtune_eth *e = arg;
	const struct nlattr *tb[RTUNE_ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT + 1];
	uint32_t v32;

	if (genl_table(h, tb, RTUNE_ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT))
		return -EPROTO;
	if (!tb[RTUNE_ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT])
		return 0;
	/* u32 in the UAPI; accept a u64 too */
	if (nla_len(tb[RTUNE_ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT]) >= 8) {
		if (rtune_nla_u64(tb[RTUNE_ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT], &e->link_down))
			return -EPROTO;
	} else {
		if (rtune_nla_u32(tb[RTUNE_ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT], &v32))
			return -EPROTO;
		e->link_down = v32;
	}
	e->has_link_down = true;
	return 0;
}

int eth_parse_pause(struct nlmsghdr *h, void *arg)
{
	struct rtune_eth *e = arg;
	const struct nlattr *tb[ETHTOOL_A_PAUSE_MAX + 1];
	const struct nlattr *st[ETHTOOL_A_PAUSE_STAT_MAX + 1];

	if (genl_table(h, tb, ETHTOOL_A_PAUSE_MAX))
		return -EPROTO;
	if (!tb[ETHTOOL_A_PAUSE_STATS])
		return 0;
	if (rtune_nla_table(nla_data(tb[ETHTOOL_A_PAUSE_STATS]), nla_len(tb[ETHTOOL_A_PAUSE_STATS]),
			    st, ETHTOOL_A_PAUSE_STAT_MAX))
		return -EPROTO;
	if (st[ETHTOOL_A_PAUSE_STAT_TX_FRAMES]) {
		if (rtune_nla_u64(st[ETHTOOL_A_PAUSE_STAT_TX_FRAMES], &e->pause_tx))
			return -EPROTO;
		e->has_pause_tx = true;
	}
	if (st[ETHTOOL_A_PAUSE_STAT_RX_FRAMES]) {
		if (rtune_nla_u64(st[ETHTOOL_A_PAUSE_STAT_RX_FRAMES], &e->pause_rx))
			return -EPROTO;
		e->has_pause_rx = true;
	}
	return 0;
}

/* One ETHTOOL_A_STATS_GRP nest: its id, then GRP_STAT nests of one u64 each. */
static int parse_group(const struct nlattr *grp, struct rtune_eth *e)
{
	const struct nlattr *a;
	uint32_t id = UINT32_MAX;
	int rem;

	/* the id may come after the stats: find it first */
	nla_for_each_nested(a, (struct nlattr *)grp, rem)
		if (nla_type(a) == ETHTOOL_A_STATS_GRP_ID && rtune_nla_u32(a, &id))
			return -EPROTO;
	if (rtune_nla_end_ok(rem))
		return -EPROTO;
	nla_for_each_nested(a, (struct nlattr *)grp, rem) {
		const struct nlattr *s;
		uint64_t v;

		if (nla_type(a) != ETHTOOL_A_STATS_GRP_STAT)
			continue;
		/* exactly one attribute inside: its type is the stat's index */
		if (nla_len(a) < NLA_HDRLEN)
			return -EPROTO;
		s = nla_data(a);
		if (s->nla_len < NLA_HDRLEN || s->nla_len > nla_len(a) || rtune_nla_u64(s, &v))
			return -EPROTO;
		if (id == ETHTOOL_STATS_ETH_PHY && nla_type(s) == ETHTOOL_A_STATS_ETH_PHY_5_SYM_ERR) {
			e->sym_err = v;
			e->has_sym_err = true;
		} else if (id == ETHTOOL_STATS_ETH_MAC &&
			   nla_type(s) == ETHTOOL_A_STATS_ETH_MAC_6_FCS_ERR) {
			e->fcs_err = v;
			e->has_fcs_err = true;
		}
	}
	return rtune_nla_end_ok(rem);
}

int eth_parse_stats(struct nlmsghdr *h, void *arg)
{
	struct rtune_eth *e = arg;
	const struct nlattr *a;
	int rem, err;

	if (h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EPROTO;
	/* several ETHTOOL_A_STATS_GRP: walk them all, not a last-wins table */
	nla_for_each_attr(a, (struct nlattr *)((char *)nlmsg_data(h) + GENL_HDRLEN),
			  (int)h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, rem) {
		if (nla_type(a) != ETHTOOL_A_STATS_GRP)
			continue;
		err = parse_group(a, e);
		if (err)
			return err;
	}
	return rtune_nla_end_ok(rem);
}

static struct nl_msg *eth_req(const struct rtune_ethtool *et, int cmd, int hdr_attr,
			      const char *ifname, uint32_t flags)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *hdr;

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, et->family, 0, NLM_F_REQUEST | NLM_F_ACK,
			 (uint8_t)cmd, ETHTOOL_GENL_VERSION))
		goto fail;
	hdr = nla_nest_start(msg, hdr_attr);
	if (!hdr || nla_put_string(msg, ETHTOOL_A_HEADER_DEV_NAME, ifname) < 0 ||
	    (flags && nla_put_u32(msg, ETHTOOL_A_HEADER_FLAGS, flags) < 0))
		goto fail;
	nla_nest_end(msg, hdr);
	return msg;
fail:
	nlmsg_free(msg);
	return NULL;
}

/* 0 or a positive errno for the *_err fields. */
static int eth_do(struct rtune_ethtool *et, struct nl_msg *msg, rtune_nl_cb cb, void *arg)
{
	if (!msg)
		return ENOMEM;
	return -rtune_nl_transact(et->sk, msg, cb, arg);
}

void rtune_ethtool_read(struct rtune_ethtool *et, const char *ifname, struct rtune_eth *out)
{
	struct nl_msg *msg;
	struct nlattr *grp;
	int err;

	memset(out, 0, sizeof(*out));
	/* ethtool -S by ioctl: there with or without ethtool netlink */
	out->gstats_err = -rtune_ethtool_gstats(ifname, out);
	if (et->family < 0) {
		out->linkmodes_err = out->linkstate_err = out->pause_err = out->stats_err =
			-et->family;
		return;
	}
	out->linkmodes_err = eth_do(et, eth_req(et, ETHTOOL_MSG_LINKMODES_GET,
						ETHTOOL_A_LINKMODES_HEADER, ifname, 0),
				    eth_parse_linkmodes, out);
	/* with the statistics (the link-down count, 6.2+); a kernel whose
	 * LINKSTATE takes no flags (6.1: EINVAL) is asked again without */
	out->linkstate_err = eth_do(et, eth_req(et, ETHTOOL_MSG_LINKSTATE_GET,
						ETHTOOL_A_LINKSTATE_HEADER, ifname,
						ETHTOOL_FLAG_STATS),
				    eth_parse_linkstate, out);
	if (out->linkstate_err == EINVAL || out->linkstate_err == EOPNOTSUPP)
		out->linkstate_err = eth_do(et, eth_req(et, ETHTOOL_MSG_LINKSTATE_GET,
							ETHTOOL_A_LINKSTATE_HEADER, ifname, 0),
					    eth_parse_linkstate, out);
	out->pause_err = eth_do(et, eth_req(et, ETHTOOL_MSG_PAUSE_GET, ETHTOOL_A_PAUSE_HEADER,
					    ifname, ETHTOOL_FLAG_STATS),
				eth_parse_pause, out);

	/* STATS_GET for the eth-phy and eth-mac groups, as a compact bitset */
	msg = eth_req(et, ETHTOOL_MSG_STATS_GET, ETHTOOL_A_STATS_HEADER, ifname, 0);
	err = ENOMEM;
	if (msg) {
		uint32_t groups = (1u << ETHTOOL_STATS_ETH_PHY) | (1u << ETHTOOL_STATS_ETH_MAC);

		grp = nla_nest_start(msg, ETHTOOL_A_STATS_GROUPS);
		if (!grp || nla_put_flag(msg, ETHTOOL_A_BITSET_NOMASK) < 0 ||
		    nla_put_u32(msg, ETHTOOL_A_BITSET_SIZE, ETHTOOL_STATS_ETH_MAC + 1) < 0 ||
		    nla_put(msg, ETHTOOL_A_BITSET_VALUE, sizeof(groups), &groups) < 0) {
			nlmsg_free(msg);
			msg = NULL;
		} else {
			nla_nest_end(msg, grp);
		}
		err = eth_do(et, msg, eth_parse_stats, out);
	}
	out->stats_err = err;
	if (!out->stats_err && !out->has_fcs_err && !out->has_sym_err)
		out->stats_err = EOPNOTSUPP;	/* answered, but the driver fills neither */
	if (!out->pause_err && !out->has_pause_tx && !out->has_pause_rx)
		out->pause_err = EOPNOTSUPP;
}

/* One ETHTOOL_[GS]TUNABLE ioctl of the u16 PFC storm prevention timeout. */
static int pfc_tout_ioctl(const char *ifname, uint32_t cmd, uint16_t *ms)
{
	/* struct ethtool_tunable ends in a flexible array: the u16 follows it */
	union {
		struct ethtool_tunable t;
		uint8_t b[sizeof(struct ethtool_tunable) + sizeof(uint16_t)];
	} req = { .t = { .cmd = cmd, .id = ETHTOOL_PFC_PREVENTION_TOUT,
			 .type_id = ETHTOOL_TUNABLE_U16, .len = sizeof(uint16_t) } };
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return -ENODEV;
	if (cmd == ETHTOOL_STUNABLE)
		memcpy(req.b + sizeof(req.t), ms, sizeof(*ms));
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&req;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		err = -errno;
	close(fd);
	if (!err && cmd == ETHTOOL_GTUNABLE)
		memcpy(ms, req.b + sizeof(req.t), sizeof(*ms));
	return err;
}

int rtune_ethtool_pfc_tout(const char *ifname, uint16_t *ms)
{
	int err = pfc_tout_ioctl(ifname, ETHTOOL_GTUNABLE, ms);

	/* drivers without this tunable say EINVAL, the core EOPNOTSUPP */
	return err == -EINVAL ? -EOPNOTSUPP : err;
}

int rtune_ethtool_set_pfc_tout(const char *ifname, uint16_t ms)
{
	rtune_writes++;
	return pfc_tout_ioctl(ifname, ETHTOOL_STUNABLE, &ms);
}
