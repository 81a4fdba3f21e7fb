// SPDX-License-Identifier: GPL-2.0
/*
 * Netfilter hooks of the software DCQCN datapath (init_net only: rxe on
 * this kernel creates its sockets and routes there).
 *
 *   LOCAL_IN     every RoCEv2 packet an rxe device receives passes here
 *                after the filter table (what the firewall drops never
 *                reaches us) and before rxe's UDP tunnel socket. Data and
 *                ACKs: start tracking the local QP they name (only if the
 *                ICRC verifies, as rxe would require); CE-marked
 *                ones from that QP's peer to a unicast address of ours are
 *                the notification point's input (count, maybe send a
 *                CNP). CNPs (BTH opcode 0x81, which rxe would drop): the
 *                reaction point's input; consumed here.
 *   POST_ROUTING every RoCEv2 packet an rxe device sends: ECT marking and
 *                pacing (pacing.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/route.h>

#include "rocetune.h"
#include "datapath.h"
#include "qp_hash.h"
#include "core/icrc.h"

/*
 * One received RoCEv2 packet: a whole skb, or one packet of a GRO-merged
 * skb (see rtune_rx_merged()), whose headers the skb holds once.
 */
struct rtune_rx {
	bool v6;
	bool merged;		/* one packet of a GRO-merged skb */
	u8 tos;			/* IPv4 TOS or IPv6 traffic class */
	u8 opcode;
	u32 dqpn;
	u16 sport;
	u16 seg;		/* its index in a merged skb */
	unsigned int l3off;
	unsigned int hlen;	/* its IP and UDP headers */
	unsigned int poff;	/* where its UDP payload (the BTH) is in the skb */
	unsigned int len;	/* its length from the IP header to the end */
	struct in6_addr saddr, daddr;	/* IPv4 as v4-mapped */
};

/*
 * Parse @skb (network header set) as IPv4/IPv6 + UDP to 4791: the headers
 * of the skb's first (or only) packet, not its BTH. Returns false for
 * anything else, including fragments.
 */
static bool rtune_parse(struct sk_buff *skb, bool v6, struct rtune_rx *rx)
{
	unsigned int l4off;
	struct udphdr _uh;
	const struct udphdr *uh;

	rx->v6 = v6;
	rx->merged = false;
	rx->seg = 0;
	rx->l3off = skb_network_offset(skb);
	if (!v6) {
		const struct iphdr *iph = ip_hdr(skb);

		if (iph->protocol != IPPROTO_UDP || ip_is_fragment(iph))
			return false;
		l4off = rx->l3off + iph->ihl * 4;
		rx->tos = iph->tos;
		ipv6_addr_set_v4mapped(iph->saddr, &rx->saddr);
		ipv6_addr_set_v4mapped(iph->daddr, &rx->daddr);
		rx->len = ntohs(iph->tot_len);
	} else {
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);

		/* rxe never sends extension headers. */
		if (ip6h->nexthdr != IPPROTO_UDP)
			return false;
		l4off = rx->l3off + sizeof(*ip6h);
		rx->tos = ipv6_get_dsfield(ip6h);
		rx->saddr = ip6h->saddr;
		rx->daddr = ip6h->daddr;
		rx->len = sizeof(*ip6h) + ntohs(ip6h->payload_len);
	}
	uh = skb_header_pointer(skb, l4off, sizeof(_uh), &_uh);
	if (!uh || uh->dest != htons(ROCE_V2_UDP_DPORT))
		return false;
	rx->sport = ntohs(uh->source);
	rx->poff = l4off + sizeof(*uh);
	rx->hlen = rx->poff - rx->l3off;
	return true;
}

/* Read the BTH of packet @rx (its payload at rx->poff). */
static bool rtune_parse_bth(const struct sk_buff *skb, struct rtune_rx *rx)
{
	u8 _bth[RTUNE_BTH_LEN];
	const u8 *bth;

	bth = skb_header_pointer(skb, rx->poff, sizeof(_bth), _bth);
	if (!bth)
		return false;
	rx->opcode = rtune_bth_opcode(bth);
	rx->dqpn = rtune_bth_dqpn(bth);
	return true;
}

/*
 * Copy the IP and UDP headers of packet @rx to @buf (rx->hlen bytes) as
 * rxe will get them. A merged skb holds the first packet's headers only;
 * udp_rcv_segment() gives every packet its own lengths and, on IPv4, the
 * first packet's ID plus the packet's index (inet_gso_segment(): UDP GRO
 * merged only packets whose IDs so follow each other). The addresses,
 * ports, TOS and TTL are the same in every packet GRO merges.
 */
static bool rtune_rx_hdrs(const struct sk_buff *skb, const struct rtune_rx *rx,
			  u8 *buf)
{
	struct udphdr *uh = (struct udphdr *)(buf + rx->hlen - sizeof(*uh));

	if (skb_copy_bits(skb, rx->l3off, buf, rx->hlen))
		return false;
	if (!rx->merged)
		return true;
	uh->len = htons(rx->len - rx->hlen + sizeof(*uh));
	if (!rx->v6) {
		struct iphdr *iph = (struct iphdr *)buf;

		iph->tot_len = htons(rx->len);
		iph->id = htons(ntohs(iph->id) + rx->seg);
	} else {
		struct ipv6hdr *ip6h = (struct ipv6hdr *)buf;

		ip6h->payload_len = htons(rx->len - sizeof(*ip6h));
	}
	return true;
}

/*
 * Whether the received RoCEv2 packet @rx in @skb carries a correct ICRC.
 * The packet may be non-linear: the headers are masked from a copy, the
 * rest is read in place or in small chunks (skb_header_pointer() copies
 * only what is not in the linear head). Costs one pass over the packet;
 * called only for packets that would start tracking a QP.
 */
static bool rtune_rx_icrc_valid(const struct sk_buff *skb,
				const struct rtune_rx *rx)
{
	u8 hbuf[RTUNE_ICRC_MAX_HLEN], cbuf[128], want[RTUNE_ICRC_LEN];
	unsigned int off, end, n;
	const u8 *p;
	size_t hlen;
	u32 crc;

	if (rx->hlen + RTUNE_BTH_LEN > sizeof(hbuf) ||
	    rx->len < rx->hlen + RTUNE_BTH_LEN + RTUNE_ICRC_LEN)
		return false;
	if (!rtune_rx_hdrs(skb, rx, hbuf) ||
	    skb_copy_bits(skb, rx->poff, hbuf + rx->hlen, RTUNE_BTH_LEN) ||
	    rtune_icrc_begin(hbuf, rx->hlen + RTUNE_BTH_LEN, &hlen, &crc) ||
	    hlen < rx->hlen)
		return false;
	end = rx->poff + rx->len - rx->hlen - RTUNE_ICRC_LEN;
	for (off = rx->poff + hlen - rx->hlen; off < end; off += n) {
		n = end - off;
		if (off >= skb_headlen(skb) || n > skb_headlen(skb) - off)
			n = min_t(unsigned int, n, sizeof(cbuf));
		p = skb_header_pointer(skb, off, n, cbuf);
		if (!p)
			return false;
		crc = rtune_crc32_update(crc, p, n);
	}
	p = skb_header_pointer(skb, end, RTUNE_ICRC_LEN, cbuf);
	if (!p)
		return false;
	rtune_icrc_put(want, ~crc);
	return !memcmp(want, p, RTUNE_ICRC_LEN);
}

/* The priority of a received RoCEv2 packet: its DSCP's class selector. */
static u8 rtune_rx_prio(const struct rtune_rx *rx)
{
	return rx->tos >> 5;
}

/* Reaction point: a CNP arrived. Always consumed. */
static void rtune_rp_cnp(struct rtune_dp *dp, struct sk_buff *skb,
			 const struct rtune_rx *rx)
{
	/* IPv6 + UDP + BTH + padding + ICRC: the largest valid CNP. */
	u8 buf[RTUNE_IPV6_HLEN + RTUNE_CNP_L4LEN];
	const struct rtune_dp_params *p;
	const u8 *pkt;
	struct rtune_qp *qp;
	bool cut;
	u64 now;

	/* The whole packet, its headers as rxe gets them (rtune_rx_hdrs()). */
	pkt = rx->len <= sizeof(buf) && rx->len >= rx->hlen &&
	      rtune_rx_hdrs(skb, rx, buf) &&
	      !skb_copy_bits(skb, rx->poff, buf + rx->hlen, rx->len - rx->hlen) ?
		buf : NULL;
	if (!pkt || !rtune_icrc_valid(pkt, rx->len)) {
		atomic64_inc(&dp->cnt.cnp_rejected_bad_icrc);
		return;
	}
	qp = rtune_qp_lookup(dp, rx->dqpn);
	/* Pairs with rtune_qp_set_live(): peer_addr is valid once LIVE. */
	if (!qp || smp_load_acquire(&qp->state) != RTUNE_QP_LIVE) {
		atomic64_inc(&dp->cnt.cnp_rejected_unknown_qp);
		return;
	}
	if (!rtune_addr_from_peer(rx->v6, rx->saddr.s6_addr, qp->peer_v6,
				  qp->peer_addr.s6_addr)) {
		spin_lock_bh(&qp->lock);
		qp->cnt.cnp_rejected++;
		spin_unlock_bh(&qp->lock);
		/* Its QP may have a new peer: have the worker ask again. */
		rtune_qp_requeue(qp);
		return;
	}
	p = rcu_dereference(dp->params);
	now = ktime_get_ns();
	spin_lock_bh(&qp->lock);
	qp->cnt.cnp_rcvd++;
	qp->cnt.last_cnp_ns = now;
	WRITE_ONCE(qp->idle_gen, 0);
	if (qp->cc_enable && (p->rp_prios & BIT(READ_ONCE(qp->tx_prio)))) {
		cut = dcqcn_rp_on_cnp(&qp->rp, &p->dc, div_u64(now, NSEC_PER_USEC));
		if (cut) {
			qp->cnt.rate_cuts++;
			/* Now, for the packets it has queued too. */
			rtune_pacing_update(dp, qp, p);
		}
	}
	spin_unlock_bh(&qp->lock);
}

/*
 * Whether @skb, received, was for one of our unicast addresses: the
 * source of the CNP that may answer it. Not a multicast or broadcast
 * frame, an address the core helper accepts, and for IPv4 not a directed
 * broadcast (which only the input route knows).
 */
static bool rtune_rx_to_unicast(const struct sk_buff *skb, const struct rtune_rx *rx)
{
	const struct rtable *rt;

	if (skb->pkt_type != PACKET_HOST ||
	    !rtune_addr_unicast(rx->v6, rx->daddr.s6_addr))
		return false;
	if (rx->v6)
		return true;
	rt = skb_rtable(skb);
	return !rt || !(rt->rt_flags & (RTCF_BROADCAST | RTCF_MULTICAST));
}

/*
 * Notification point: a data packet or ACK for local QP rx->dqpn. A CE
 * mark counts, and may be answered, only when it comes from the QP's peer
 * in the peer's family and was sent to a unicast address of ours: anyone
 * else could otherwise use up the QP's CNP allowance and have CNPs sent
 * to a third party, or from a multicast source.
 */
static void rtune_np_rx(struct rtune_dp *dp, const struct sk_buff *skb,
			const struct rtune_rx *rx)
{
	const struct rtune_dp_params *p;
	struct rtune_qp *qp;
	bool send = false;
	u32 peer_qpn;

	qp = rtune_qp_lookup(dp, rx->dqpn);
	if (qp) {
		rtune_qp_seen(qp);
	} else {
		/*
		 * Only a packet rxe itself would accept starts tracking a
		 * QP: rxe drops a bad ICRC, so such a packet is forged or
		 * damaged and must not take a slot of the table.
		 */
		if (!rtune_rx_icrc_valid(skb, rx)) {
			atomic64_inc(&dp->cnt.learn_refused_bad_icrc);
			return;
		}
		qp = rtune_qp_create(dp, rx->dqpn, GFP_ATOMIC, false);
	}
	if (!qp || !INET_ECN_is_ce(rx->tos))
		return;
	if (!rtune_rx_to_unicast(skb, rx)) {
		atomic64_inc(&dp->cnt.ce_rejected_not_unicast);
		return;
	}
	/* Pairs with rtune_qp_set_live(): the peer fields are valid once LIVE. */
	if (smp_load_acquire(&qp->state) != RTUNE_QP_LIVE) {
		atomic64_inc(&dp->cnt.ce_rejected_not_live);
		return;
	}
	if (!rtune_addr_from_peer(rx->v6, rx->saddr.s6_addr, qp->peer_v6,
				  qp->peer_addr.s6_addr)) {
		atomic64_inc(&dp->cnt.ce_rejected_not_peer);
		rtune_qp_requeue(qp);
		return;
	}
	p = rcu_dereference(dp->params);
	spin_lock_bh(&qp->lock);
	qp->cnt.ce_rcvd++;
	if (qp->cc_enable && (p->np_prios & BIT(rtune_rx_prio(rx))))
		send = dcqcn_np_should_send_cnp(&qp->np, &p->dc, rtune_now_us());
	spin_unlock_bh(&qp->lock);
	if (!send)
		return;
	peer_qpn = qp->peer_qpn;
	/* To the peer, from the unicast address its packet was for. */
	if (rtune_cnp_send(dp, p, rx->v6, &rx->daddr, &rx->saddr, peer_qpn,
			   0xc000 | (rx->dqpn & 0x3fff))) {
		atomic64_inc(&dp->cnt.cnp_send_failed);
		return;
	}
	spin_lock_bh(&qp->lock);
	qp->cnt.cnp_sent++;
	spin_unlock_bh(&qp->lock);
}

/* Packet @rx of a merged skb: its UDP payload is @plen bytes at @off. */
static void rtune_rx_seg(struct rtune_dp *dp, struct sk_buff *skb,
			 struct rtune_rx *rx, unsigned int off, unsigned int plen)
{
	rx->poff = off;
	rx->len = rx->hlen + plen;
	/* Too short for a BTH: rxe drops it (rxe_rcv()). */
	if (plen >= RTUNE_BTH_LEN && rtune_parse_bth(skb, rx)) {
		atomic64_inc(&dp->cnt.rx_merged_pkts);
		if (rx->opcode == RTUNE_BTH_OPCODE_CNP)
			rtune_rp_cnp(dp, skb, rx);
		else
			rtune_np_rx(dp, skb, rx);
	}
	rx->seg++;
}

/*
 * A GRO-merged skb (skb_is_gso() on receive): UDP GRO, with rx-gro-list
 * (NETIF_F_GRO_FRAGLIST) on the netdev, chains datagrams of one flow that
 * carry a UDP checksum into one skb before netfilter's LOCAL_IN (rxe's own
 * packets, checksum 0, are never merged: udp_gro_receive_segment()); only
 * UDP's receive path cuts it back into packets (udp_rcv_segment()), after
 * this hook. So every packet in it is handled here as rxe will get it:
 *
 *   SKB_GSO_FRAGLIST   the skb's own data is the first packet; each skb of
 *                      its frag_list is one more packet's UDP payload.
 *   SKB_GSO_UDP_L4     (no frag_list) the payload is cut every gso_size
 *                      bytes (a GSO skb from a local or virtio sender).
 *
 * gso_segs is not used: the walk is bounded by the skb's length, and one
 * whose frag_list does not add up is left alone (rx_merged_refused).
 * CNPs among the packets are taken but not consumed: the skb goes on, and
 * rxe drops them as it drops every CNP.
 */
static void rtune_rx_merged(struct rtune_dp *dp, struct sk_buff *skb,
			    struct rtune_rx *rx)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);
	unsigned int off = rx->poff, end = skb->len, plen;
	struct sk_buff *frag;

	plen = shinfo->gso_size;
	if (!(shinfo->gso_type & SKB_GSO_UDP_L4) || !plen || off > end) {
		atomic64_inc(&dp->cnt.rx_merged_refused);
		return;
	}
	rx->merged = true;
	if (shinfo->gso_type & SKB_GSO_FRAGLIST) {
		skb_walk_frags(skb, frag) {
			if (frag->len > end - off) {
				atomic64_inc(&dp->cnt.rx_merged_refused);
				return;
			}
			end -= frag->len;
		}
		atomic64_inc(&dp->cnt.rx_merged_skbs);
		rtune_rx_seg(dp, skb, rx, off, end - off);
		skb_walk_frags(skb, frag) {
			rtune_rx_seg(dp, skb, rx, end, frag->len);
			end += frag->len;
		}
		return;
	}
	/* No packet of it could hold a BTH: rxe drops them all. */
	if (plen < RTUNE_BTH_LEN) {
		atomic64_inc(&dp->cnt.rx_merged_refused);
		return;
	}
	atomic64_inc(&dp->cnt.rx_merged_skbs);
	for (; off < end; off += plen)
		rtune_rx_seg(dp, skb, rx, off, min(plen, end - off));
}

static unsigned int rtune_local_in(struct sk_buff *skb, bool v6)
{
	struct rtune_dp *dp;
	struct rtune_rx rx;

	if (!skb->dev)
		return NF_ACCEPT;
	dp = rtune_dp_by_ifindex(skb->dev->ifindex);
	if (!dp || !rtune_parse(skb, v6, &rx))
		return NF_ACCEPT;
	if (skb_is_gso(skb)) {
		rtune_rx_merged(dp, skb, &rx);
		return NF_ACCEPT;
	}
	if (!rtune_parse_bth(skb, &rx))
		return NF_ACCEPT;
	if (rx.opcode == RTUNE_BTH_OPCODE_CNP) {
		rtune_rp_cnp(dp, skb, &rx);
		/* rxe has no use for it: it would drop it. */
		consume_skb(skb);
		return NF_STOLEN;
	}
	rtune_np_rx(dp, skb, &rx);
	return NF_ACCEPT;
}

static unsigned int rtune_local_in4(void *priv, struct sk_buff *skb,
				    const struct nf_hook_state *state)
{
	return rtune_local_in(skb, false);
}

static unsigned int rtune_local_in6(void *priv, struct sk_buff *skb,
				    const struct nf_hook_state *state)
{
	return rtune_local_in(skb, true);
}

static unsigned int rtune_post_routing(struct sk_buff *skb,
				       const struct nf_hook_state *state, bool v6)
{
	unsigned int l4off;
	struct rtune_dp *dp;

	if (!state->out)
		return NF_ACCEPT;
	dp = rtune_dp_by_ifindex(state->out->ifindex);
	if (!dp)
		return NF_ACCEPT;
	if (!v6) {
		const struct iphdr *iph = ip_hdr(skb);

		if (iph->protocol != IPPROTO_UDP || ip_is_fragment(iph))
			return NF_ACCEPT;
		l4off = skb_network_offset(skb) + iph->ihl * 4;
	} else {
		if (ipv6_hdr(skb)->nexthdr != IPPROTO_UDP)
			return NF_ACCEPT;
		l4off = skb_network_offset(skb) + sizeof(struct ipv6hdr);
	}
	return rtune_pacing_tx(dp, skb, v6, l4off);
}

static unsigned int rtune_post_routing4(void *priv, struct sk_buff *skb,
					const struct nf_hook_state *state)
{
	return rtune_post_routing(skb, state, false);
}

static unsigned int rtune_post_routing6(void *priv, struct sk_buff *skb,
					const struct nf_hook_state *state)
{
	return rtune_post_routing(skb, state, true);
}

/*
 * LOCAL_IN runs right after the filter table (iptables' filter and
 * nftables chains of priority "filter", 0), so that what an administrator
 * drops there (e.g. RoCEv2 from outside the fabric) never becomes a CE
 * mark, a CNP or a tracked QP. Chains at a later priority run after us.
 */
static const struct nf_hook_ops rtune_nf_ops[] = {
	{
		.hook = rtune_local_in4,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_LOCAL_IN,
		.priority = NF_IP_PRI_FILTER + 1,
	},
	{
		.hook = rtune_local_in6,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_LOCAL_IN,
		.priority = NF_IP6_PRI_FILTER + 1,
	},
	{
		.hook = rtune_post_routing4,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_POST_ROUTING,
		.priority = NF_IP_PRI_LAST,
	},
	{
		.hook = rtune_post_routing6,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_POST_ROUTING,
		.priority = NF_IP6_PRI_LAST,
	},
};

int rtune_hooks_register(void)
{
	return nf_register_net_hooks(&init_net, rtune_nf_ops,
				     ARRAY_SIZE(rtune_nf_ops));
}

void rtune_hooks_unregister(void)
{
	nf_unregister_net_hooks(&init_net, rtune_nf_ops, ARRAY_SIZE(rtune_nf_ops));
}
