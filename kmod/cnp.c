// SPDX-License-Identifier: GPL-2.0
/*
 * Building and sending RoCEv2 CNPs (notification point).
 *
 *   IPv4 (DF, ID 0) or IPv6 | UDP to 4791, checksum 0
 *   | BTH: opcode 0x81, P_Key 0xffff, BECN, DestQP = the data sender's
 *     QPN, PSN 0 | 16 reserved zero bytes | ICRC
 *
 * DSCP and ECN come from np_cnp_dscp/np_cnp_ecn, skb->priority from
 * np_cnp_prio. Everything the ICRC covers is final before it is computed:
 * the stack later fills only masked fields (IPv4 checksum) and lengths
 * that are already right.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/route.h>

#include "rocetune.h"
#include "datapath.h"
#include "compat/compat.h"
#include "core/icrc.h"

#define RTUNE_CNP_TTL	64

static struct sk_buff *rtune_cnp_alloc(struct net_device *ndev, unsigned int l3len)
{
	unsigned int hh = LL_RESERVED_SPACE(ndev);
	struct sk_buff *skb;

	skb = alloc_skb(hh + l3len + RTUNE_CNP_L4LEN + ndev->needed_tailroom,
			GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, hh);
	skb_put(skb, l3len + RTUNE_CNP_L4LEN);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, l3len);
	return skb;
}

static int rtune_cnp_send4(struct rtune_dp *dp, const struct rtune_dp_params *p,
			__be32 saddr, __be32 daddr, u32 dqpn, u16 sport)
{
	struct flowi4 fl4 = {
		.daddr = daddr,
		.saddr = saddr,
		.flowi4_oif = dp->ifindex,
		.flowi4_proto = IPPROTO_UDP,
	};
	struct sk_buff *skb;
	struct iphdr *iph;
	struct rtable *rt;
	u32 icrc;
	int err;

	rtune_compat_flowi4_set_tos(&fl4, p->cnp_tos);
	rt = ip_route_output_key(&init_net, &fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	skb = rtune_cnp_alloc(rt->dst.dev, sizeof(*iph));
	if (!skb) {
		ip_rt_put(rt);
		return -ENOMEM;
	}
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) / 4;
	iph->tos = p->cnp_tos;
	iph->tot_len = htons(skb->len);
	iph->id = 0;
	iph->frag_off = htons(IP_DF);
	iph->ttl = RTUNE_CNP_TTL;
	iph->protocol = IPPROTO_UDP;
	iph->check = 0;
	iph->saddr = fl4.saddr;
	iph->daddr = fl4.daddr;
	rtune_cnp_fill_l4(skb_transport_header(skb), sport, dqpn);
	rtune_icrc_compute(skb->data, skb->len - RTUNE_ICRC_LEN, &icrc);
	rtune_icrc_put(skb_tail_pointer(skb) - RTUNE_ICRC_LEN, icrc);

	skb->protocol = htons(ETH_P_IP);
	skb->priority = p->cnp_prio;
	skb->ip_summed = CHECKSUM_NONE;
	skb_dst_set(skb, &rt->dst);
	/* ip_local_out() fills the IPv4 checksum, which the ICRC masks. */
	err = ip_local_out(&init_net, NULL, skb);
	/* net_xmit_eval() evaluates its argument twice. */
	return net_xmit_eval(err);
}

static int rtune_cnp_send6(struct rtune_dp *dp, const struct rtune_dp_params *p,
			const struct in6_addr *saddr,
			const struct in6_addr *daddr, u32 dqpn, u16 sport)
{
	struct flowi6 fl6 = {
		.daddr = *daddr,
		.saddr = *saddr,
		.flowi6_oif = dp->ifindex,
		.flowi6_proto = IPPROTO_UDP,
	};
	struct dst_entry *dst;
	struct ipv6hdr *ip6h;
	struct sk_buff *skb;
	u32 icrc;
	int err;

	dst = ip6_route_output(&init_net, NULL, &fl6);
	if (dst->error) {
		err = dst->error;
		dst_release(dst);
		return err;
	}
	skb = rtune_cnp_alloc(dst->dev, sizeof(*ip6h));
	if (!skb) {
		dst_release(dst);
		return -ENOMEM;
	}
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, p->cnp_tos, 0);
	ip6h->payload_len = htons(RTUNE_CNP_L4LEN);
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = RTUNE_CNP_TTL;
	ip6h->saddr = *saddr;
	ip6h->daddr = *daddr;
	rtune_cnp_fill_l4(skb_transport_header(skb), sport, dqpn);
	rtune_icrc_compute(skb->data, skb->len - RTUNE_ICRC_LEN, &icrc);
	rtune_icrc_put(skb_tail_pointer(skb) - RTUNE_ICRC_LEN, icrc);

	skb->protocol = htons(ETH_P_IPV6);
	skb->priority = p->cnp_prio;
	skb->ip_summed = CHECKSUM_NONE;
	skb_dst_set(skb, dst);
	err = ip6_local_out(&init_net, NULL, skb);
	return net_xmit_eval(err);
}

/*
 * Send a CNP naming QP @dqpn of the peer at @daddr, from our @saddr.
 * Softirq context (the receive hook). Returns 0 or a negative errno.
 */
int rtune_cnp_send(struct rtune_dp *dp, const struct rtune_dp_params *p, bool v6,
		const struct in6_addr *saddr, const struct in6_addr *daddr,
		u32 dqpn, u16 sport)
{
	if (!v6)
		return rtune_cnp_send4(dp, p, saddr->s6_addr32[3],
				    daddr->s6_addr32[3], dqpn, sport);
	return rtune_cnp_send6(dp, p, saddr, daddr, dqpn, sport);
}
