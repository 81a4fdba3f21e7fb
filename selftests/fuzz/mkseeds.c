// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the hand-built seeds of the netlink and packet harnesses into
 * corpus/<harness>/ (`make seeds`): valid replies as the kernel sends them
 * (dcbnl, RDMA NLDEV, rtnetlink link, a reply stream with ACK/DONE/error)
 * and RoCEv2 packets with a correct ICRC. The profile seeds are the
 * example profiles, copied by run.sh; the captured rxe packet comes from
 * selftests/unit/data/icrc_rxe.inc.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/dcbnl.h>
#include "../../tools/rocetune/irdma_load.h"
#include <linux/pkt_sched.h>
#include <rdma/rdma_netlink.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include "../../tools/rocetune/dcbnl_compat.h"
#include "../../kmod/core/icrc.h"

static const char *top;

static void put(const char *h, const char *name, const void *pre, size_t plen,
		const void *p, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", top, h, name);
	f = fopen(path, "wb");
	if (!f || (plen && fwrite(pre, 1, plen, f) != plen) ||
	    (len && fwrite(p, 1, len, f) != len) || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* The whole message, as it would be received. */
static void put_msg(const char *h, const char *name, int sel, struct nl_msg *m)
{
	unsigned char b = (unsigned char)sel;
	struct nlmsghdr *nh = nlmsg_hdr(m);

	put(h, name, &b, sel >= 0, nh, nh->nlmsg_len);
	nlmsg_free(m);
}

static struct nl_msg *dcb_reply(int cmd)
{
	struct dcbmsg dm = { .dcb_family = AF_UNSPEC, .cmd = (uint8_t)cmd };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_GETDCB, 0);

	nlmsg_hdr(m)->nlmsg_seq = 1;
	nlmsg_append(m, &dm, sizeof(dm), NLMSG_ALIGNTO);
	return m;
}

static struct nl_msg *dcb_get_reply(void)
{
	struct nl_msg *m = dcb_reply(DCB_CMD_IEEE_GET);
	struct ieee_ets ets = { .willing = 1, .ets_cap = 8 };
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = 0x08 };
	struct dcb_app apps[] = {
		{ IEEE_8021QAZ_APP_SEL_DSCP, 3, 26 },
		{ IEEE_8021QAZ_APP_SEL_DSCP, 6, 48 },
		{ IEEE_8021QAZ_APP_SEL_ETHERTYPE, 3, 0x8915 },
	};
	struct nlattr *ie, *tab;
	unsigned int i;

	ets.prio_tc[3] = 1;
	ets.tc_tsa[0] = IEEE_8021QAZ_TSA_ETS;
	ets.tc_tsa[1] = IEEE_8021QAZ_TSA_ETS;
	ets.tc_tx_bw[0] = 50;
	ets.tc_tx_bw[1] = 50;
	nla_put_string(m, DCB_ATTR_IFNAME, "eth0");
	ie = nla_nest_start(m, DCB_ATTR_IEEE);
	nla_put(m, DCB_ATTR_IEEE_ETS, sizeof(ets), &ets);
	nla_put(m, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	tab = nla_nest_start(m, DCB_ATTR_IEEE_APP_TABLE);
	for (i = 0; i < sizeof(apps) / sizeof(apps[0]); i++)
		nla_put(m, DCB_ATTR_IEEE_APP, sizeof(apps[i]), &apps[i]);
	nla_nest_end(m, tab);
	tab = nla_nest_start(m, RTUNE_DCB_ATTR_DCB_APP_TRUST_TABLE);
	nla_put_u8(m, RTUNE_DCB_ATTR_DCB_APP, IEEE_8021QAZ_APP_SEL_DSCP);
	nla_put_u8(m, RTUNE_DCB_ATTR_DCB_APP, 255);	/* PCP */
	nla_nest_end(m, tab);
	nla_nest_end(m, ie);
	nla_put_u8(m, DCB_ATTR_DCBX, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	return m;
}

/* The rewrite table (6.3): DSCP entries as DCB_ATTR_IEEE_APP, PCP ones
 * as DCB_ATTR_DCB_APP; .priority the priority, .protocol its value. */
static struct nl_msg *dcb_rewr_reply(void)
{
	struct nl_msg *m = dcb_reply(DCB_CMD_IEEE_GET);
	struct dcb_app dscp[] = {
		{ IEEE_8021QAZ_APP_SEL_DSCP, 3, 26 },
		{ IEEE_8021QAZ_APP_SEL_DSCP, 6, 48 },
	};
	struct dcb_app pcp = { RTUNE_DCB_APP_SEL_PCP, 3, 3 };
	struct nlattr *ie, *tab;
	unsigned int i;

	nla_put_string(m, DCB_ATTR_IFNAME, "eth0");
	ie = nla_nest_start(m, DCB_ATTR_IEEE);
	tab = nla_nest_start(m, RTUNE_DCB_ATTR_DCB_REWR_TABLE);
	for (i = 0; i < sizeof(dscp) / sizeof(dscp[0]); i++)
		nla_put(m, DCB_ATTR_IEEE_APP, sizeof(dscp[i]), &dscp[i]);
	nla_put(m, RTUNE_DCB_ATTR_DCB_APP, sizeof(pcp), &pcp);
	nla_nest_end(m, tab);
	nla_nest_end(m, ie);
	return m;
}

static struct nl_msg *dcb_set_reply(int8_t status)
{
	struct nl_msg *m = dcb_reply(DCB_CMD_IEEE_SET);

	nla_put_u8(m, DCB_ATTR_IEEE, (uint8_t)status);
	return m;
}

static void dcb(void)
{
	put_msg("dcb", "get-full", 0, dcb_get_reply());
	put_msg("dcb", "get-empty", 0, dcb_reply(DCB_CMD_IEEE_GET));
	put_msg("dcb", "get-rewr", 0, dcb_rewr_reply());
	put_msg("dcb", "set-ok", 1, dcb_set_reply(0));
	put_msg("dcb", "set-eopnotsupp", 1, dcb_set_reply(-EOPNOTSUPP));
}

static struct nl_msg *nldev(int cmd)
{
	return nlmsg_alloc_simple(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), NLM_F_MULTI);
}

static void rdma(void)
{
	struct nl_msg *m = nldev(RDMA_NLDEV_CMD_GET);

	nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
	nla_put_string(m, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	nla_put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	put_msg("rdma", "dev", 0, m);
	m = nldev(RDMA_NLDEV_CMD_PORT_GET);
	nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
	nla_put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nla_put_string(m, RDMA_NLDEV_ATTR_NDEV_NAME, "eth0");
	nla_put_u32(m, RDMA_NLDEV_ATTR_NDEV_INDEX, 2);
	put_msg("rdma", "port", 1, m);
}

/* A reply stream: the messages back to back, as one recv() returns them. */
static void stream(const char *name, int flags, struct nl_msg **ms, int n)
{
	unsigned char buf[8192];
	size_t len = 0;
	int i;

	for (i = 0; i < n; i++) {
		struct nlmsghdr *h = nlmsg_hdr(ms[i]);

		memcpy(buf + len, h, h->nlmsg_len);
		len += NLMSG_ALIGN(h->nlmsg_len);
		nlmsg_free(ms[i]);
	}
	put("nl", name, &(unsigned char){ (unsigned char)flags }, 1, buf, len);
}

static struct nl_msg *ctl(int type, int error)
{
	struct nl_msg *m = nlmsg_alloc_simple(type, 0);
	struct nlmsgerr e = { .error = error };

	nlmsg_hdr(m)->nlmsg_seq = 1;
	if (type == NLMSG_ERROR)
		nlmsg_append(m, &e, sizeof(e), NLMSG_ALIGNTO);
	else
		nlmsg_append(m, &e.error, sizeof(e.error), NLMSG_ALIGNTO);
	return m;
}

/* RTM_NEWQDISC of a root qdisc as tc_fill_qdisc() sends it in a dump;
 * fq's options with its orphan mask */
static struct nl_msg *qdisc_reply(int ifindex, const char *kind, uint32_t mask)
{
	struct tcmsg t = { .tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex,
			   .tcm_handle = 0x80010000, .tcm_parent = TC_H_ROOT };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWQDISC, NLM_F_MULTI);
	struct nlattr *o;

	nlmsg_hdr(m)->nlmsg_seq = 1;
	nlmsg_append(m, &t, sizeof(t), NLMSG_ALIGNTO);
	nla_put_string(m, TCA_KIND, kind);
	if (!strcmp(kind, "fq")) {
		o = nla_nest_start(m, TCA_OPTIONS);
		nla_put_u32(m, TCA_FQ_PLIMIT, 10000);
		nla_put_u32(m, TCA_FQ_ORPHAN_MASK, mask);
		nla_nest_end(m, o);
	}
	return m;
}

static void nl(void)
{
	struct nl_msg *ms[4];

	/* fuzz_nl.c flags: 0 ACK, 1 DUMP, 2 neither, 3 DUMP|ACK */
	ms[0] = dcb_get_reply();
	ms[1] = ctl(NLMSG_ERROR, 0);
	stream("get-ack", 0, ms, 2);
	ms[0] = ctl(NLMSG_ERROR, -ENODEV);
	stream("error-enodev", 0, ms, 1);
	ms[0] = dcb_get_reply();
	nlmsg_hdr(ms[0])->nlmsg_flags |= NLM_F_MULTI;
	ms[1] = dcb_get_reply();
	nlmsg_hdr(ms[1])->nlmsg_flags |= NLM_F_MULTI;
	ms[2] = ctl(NLMSG_DONE, 0);
	stream("dump-done", 1, ms, 3);
	ms[0] = ctl(NLMSG_ERROR, 0);
	nlmsg_hdr(ms[0])->nlmsg_seq = 7;	/* stale ACK, skipped */
	ms[1] = dcb_get_reply();
	stream("stale-then-reply", 2, ms, 2);
	/* flag 4: rtune_root_qdisc_read() for ifindex 7 */
	ms[0] = qdisc_reply(2, "fq_codel", 0);
	ms[1] = qdisc_reply(7, "fq", 1023);
	ms[2] = ctl(NLMSG_DONE, 0);
	stream("qdisc-dump", 4 | 1, ms, 3);
}

static void link(void)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 2,
				 .ifi_flags = 0x1043 };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWLINK, 0);

	nlmsg_append(m, &ifi, sizeof(ifi), NLMSG_ALIGNTO);
	nla_put_string(m, IFLA_IFNAME, "eth0");
	nla_put_u32(m, IFLA_MTU, 9000);
	nla_put_u32(m, IFLA_TXQLEN, 1000);
	nla_put(m, IFLA_ADDRESS, 6, "\x52\x54\x00\x12\x34\x56");
	put_msg("link", "eth0-9000", -1, m);
}

/* An RC SEND, IPv4 (optionally with options) or IPv6, with its ICRC. */
static void packet(const char *name, int v6, int opts, size_t payload)
{
	uint8_t p[256] = { 0 };
	size_t ip = v6 ? 40 : 20 + (size_t)opts * 4, len;
	uint32_t icrc;

	len = ip + 8 + 12 + payload;
	if (v6) {
		p[0] = 0x60;
		p[4] = (uint8_t)((len - 40) >> 8);
		p[5] = (uint8_t)(len - 40);
		p[6] = 17;
		p[7] = 64;
		p[23] = 1;
		p[39] = 2;
	} else {
		p[0] = (uint8_t)(0x40 | (ip / 4));
		p[1] = 0x02;			/* ECT(0) */
		p[2] = (uint8_t)((len + 4) >> 8);
		p[3] = (uint8_t)(len + 4);
		p[8] = 64;
		p[9] = 17;
		memcpy(p + 12, "\xc6\x12\x01\x01\xc6\x12\x01\x02", 8);
	}
	p[ip + 2] = 0x12;			/* dport 4791 */
	p[ip + 3] = 0xb7;
	p[ip + 5] = (uint8_t)(len - ip + 4);
	p[ip + 8] = 0x04;			/* BTH: RC SEND only */
	p[ip + 10] = 0xff;
	p[ip + 11] = 0xff;
	p[ip + 15] = 0x11;			/* dest QP */
	memset(p + ip + 20, 0xab, payload);
	rtune_icrc_compute(p, len, &icrc);
	rtune_icrc_put(p + len, icrc);
	put("icrc", name, NULL, 0, p, len + 4);
}

/* ethtool netlink replies (family id 21 as on the lab kernel; not checked). */
static struct nl_msg *eth_reply(int cmd)
{
	struct genlmsghdr g = { .cmd = (uint8_t)cmd, .version = 1 };
	struct nl_msg *m = nlmsg_alloc_simple(21, 0);

	nlmsg_hdr(m)->nlmsg_seq = 1;
	nlmsg_append(m, &g, sizeof(g), NLMSG_ALIGNTO);
	return m;
}

static void ethtool(void)
{
	struct nl_msg *m;
	struct nlattr *n, *s;

	m = eth_reply(ETHTOOL_MSG_LINKMODES_GET_REPLY);
	nla_put_u8(m, ETHTOOL_A_LINKMODES_AUTONEG, 1);
	nla_put_u32(m, ETHTOOL_A_LINKMODES_SPEED, 100000);
	nla_put_u8(m, ETHTOOL_A_LINKMODES_DUPLEX, 1);
	put_msg("ethtool", "linkmodes", 0, m);
	/* a port trained down: 50G on 2 lanes, advertising 100G on 4 (verbose bitset) */
	m = eth_reply(ETHTOOL_MSG_LINKMODES_GET_REPLY);
	nla_put_u32(m, ETHTOOL_A_LINKMODES_SPEED, 50000);
	nla_put_u32(m, ETHTOOL_A_LINKMODES_LANES, 2);
	n = nla_nest_start(m, ETHTOOL_A_LINKMODES_OURS);
	nla_put_u32(m, ETHTOOL_A_BITSET_SIZE, 100);
	s = nla_nest_start(m, ETHTOOL_A_BITSET_BITS);
	{
		static const char *const names[] = { "100000baseCR4/Full", "50000baseCR2/Full",
						     "Autoneg" };
		unsigned int k;

		for (k = 0; k < 3; k++) {
			struct nlattr *b = nla_nest_start(m, ETHTOOL_A_BITSET_BITS_BIT);

			nla_put_u32(m, ETHTOOL_A_BITSET_BIT_INDEX, k);
			nla_put_string(m, ETHTOOL_A_BITSET_BIT_NAME, names[k]);
			nla_put_flag(m, ETHTOOL_A_BITSET_BIT_VALUE);
			nla_nest_end(m, b);
		}
	}
	nla_nest_end(m, s);
	nla_nest_end(m, n);
	put_msg("ethtool", "linkmodes-ours", 0, m);
	m = eth_reply(ETHTOOL_MSG_LINKSTATE_GET_REPLY);
	nla_put_u8(m, ETHTOOL_A_LINKSTATE_LINK, 1);
	nla_put_u8(m, 6, 2);	/* ETHTOOL_A_LINKSTATE_EXT_SUBSTATE */
	nla_put_u32(m, 7, 3);	/* ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT (6.2) */
	put_msg("ethtool", "linkstate", 1, m);
	m = eth_reply(ETHTOOL_MSG_PAUSE_GET_REPLY);
	nla_put_u8(m, ETHTOOL_A_PAUSE_RX, 1);
	n = nla_nest_start(m, ETHTOOL_A_PAUSE_STATS);
	nla_put_u64(m, ETHTOOL_A_PAUSE_STAT_TX_FRAMES, 7);
	nla_put_u64(m, ETHTOOL_A_PAUSE_STAT_RX_FRAMES, 9);
	nla_nest_end(m, n);
	put_msg("ethtool", "pause", 2, m);
	m = eth_reply(ETHTOOL_MSG_STATS_GET_REPLY);
	n = nla_nest_start(m, ETHTOOL_A_STATS_GRP);
	nla_put_u32(m, ETHTOOL_A_STATS_GRP_ID, ETHTOOL_STATS_ETH_PHY);
	nla_put_u32(m, ETHTOOL_A_STATS_GRP_SS_ID, 0);
	s = nla_nest_start(m, ETHTOOL_A_STATS_GRP_STAT);
	nla_put_u64(m, ETHTOOL_A_STATS_ETH_PHY_5_SYM_ERR, 2);
	nla_nest_end(m, s);
	nla_nest_end(m, n);
	n = nla_nest_start(m, ETHTOOL_A_STATS_GRP);
	nla_put_u32(m, ETHTOOL_A_STATS_GRP_ID, ETHTOOL_STATS_ETH_MAC);
	s = nla_nest_start(m, ETHTOOL_A_STATS_GRP_STAT);
	nla_put_u64(m, ETHTOOL_A_STATS_ETH_MAC_6_FCS_ERR, 4);
	nla_nest_end(m, s);
	nla_nest_end(m, n);
	put_msg("ethtool", "stats", 3, m);
}

/* rocetune.ko's counters and qp_stats, as the module writes them. */
static void stats_text(void)
{
	static const char ctr[] = "cnp_sent 12\ncnp_handled 3\nsent_pkts 100\n"
				  "# truncated: 2 more counters; see hw_counters\n";
	static const char qps[] = "qpn peer_qpn state rate_kbps target_kbps alpha_1024ths cnp_sent "
				  "cnp_rcvd cnp_rejected ce_rcvd paced_pkts paced_bytes rate_cuts "
				  "rate_increases since_last_cnp_us cc_enable rate_cap_kbps\n"
				  "17 18 live 40000 40000 1024 3 4 0 5 6 7000 2 1 - 1 0\n"
				  "19 20 live 100 200 512 0 0 0 0 0 0 0 0 1500 0 8000\n";
	unsigned char b = 0;

	put("stats", "counters", &b, 1, ctr, sizeof(ctr) - 1);
	b = 1;
	put("stats", "qp_stats", &b, 1, qps, sizeof(qps) - 1);
	/* irdma's module parameters (fuzz_stats.c: bit 3, the id above it) */
	b = 8 | RTUNE_IRDMA_MP_ENABLE << 4;
	put("stats", "irdma-param-bool", &b, 1, "Y\n", 2);
	b = 8 | RTUNE_IRDMA_MP_B << 4;
	put("stats", "irdma-param-uint", &b, 1, "150000\n", 7);
}

int main(int argc, char **argv)
{
	top = argc > 1 ? argv[1] : "corpus";
	dcb();
	rdma();
	nl();
	link();
	ethtool();
	stats_text();
	packet("v4-send", 0, 0, 16);
	packet("v4-options-send", 0, 3, 8);
	packet("v6-send", 1, 0, 32);
	return 0;
}
