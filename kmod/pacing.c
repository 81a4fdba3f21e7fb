// SPDX-License-Identifier: GPL-2.0
/*
 * Paced egress and ECN marking of rxe's RoCEv2 packets (POST_ROUTING).
 *
 * Each LIVE QP has a pacing clock: a packet leaves no earlier than the
 * clock, which then advances by the packet's length at the QP's current
 * rate (its DCQCN rate, capped by its rate_cap_kbps tunable). The time
 * goes in skb->tstamp as an earliest departure time; only the fq qdisc
 * honours it, so the egress device's root qdisc is checked once a second
 * and pacing is reported inactive (configfs "pacing", kernel log) while
 * it is anything else. rxe gives each QP its own UDP source port, so fq
 * keeps each QP in its own flow.
 *
 * Only packets rxe itself sent are touched (rtune_skb_from_rxe()): a
 * local user can send UDP to port 4791 with a BTH naming any QP, and a
 * forwarded packet may carry anything.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/sch_generic.h>
#include <net/sock.h>

#include "rocetune.h"
#include "datapath.h"
#include "qp_hash.h"
#include "compat/compat.h"
#include "compat/rdma.h"

/*
 * How far ahead of now the pacing clock may run. fq drops a packet whose
 * departure time is beyond its horizon (10 s by default), and a QP capped
 * at a few kb/s would otherwise put every packet seconds further ahead
 * (rate_cap_kbps=1: about 8 s per 1 kB packet). Held at half the default
 * horizon: below (64 packets in flight x packet length) / 5 s, about
 * 110 kb/s with 1 kB packets, a QP's rate is no longer held down, which is
 * better than fq dropping its packets. Counted in pacing_clamped_pkts.
 */
#define RTUNE_PACE_MAX_AHEAD_NS	(5 * NSEC_PER_SEC)

/*
 * Whether rxe sent @skb. rxe transmits every packet from its QP's own
 * kernel UDP socket (sock_create_kern() when the QP is created; rxe_send()
 * sets skb->sk and a destructor of its own). A local user's socket is
 * never a kernel socket and a forwarded packet has no socket, so neither
 * passes; the destructor lying in the device driver's module also tells
 * rxe's sockets from another kernel UDP user (a tunnel set up on port
 * 4791). A driver built into the kernel has no module to compare with:
 * then a kernel UDP socket is enough.
 */
static bool rtune_skb_from_rxe(const struct rtune_dp *dp, const struct sk_buff *skb)
{
	const struct module *owner = dp->dev->ibdev->ops.owner;
	const struct sock *sk = skb->sk;

	if (!sk || !sk_fullsock(sk) || !sk->sk_kern_sock ||
	    sk->sk_protocol != IPPROTO_UDP)
		return false;
	return !owner || within_module((unsigned long)skb->destructor, owner);
}

/*
 * A kernel whose rxe is taken to free a destroyed QP's CQs and PD under
 * its queued packets (rtune_compat_rxe_outlives_packets()) gets no
 * pacing: a packet held in fq could then outlive them. This parameter is
 * for a distribution kernel that has the newer rxe all the same.
 */
static bool rtune_force_rxe_pacing;
module_param_named(force_rxe_pacing, rtune_force_rxe_pacing, bool, 0444);
MODULE_PARM_DESC(force_rxe_pacing,
		 "pace rxe's packets even on a kernel before 6.1, whose rxe is taken to free a destroyed QP's objects while its packets wait (default: no)");

/* Whether rxe's packets may wait in fq past their QP's destruction. */
bool rtune_pacing_safe(void)
{
	return rtune_compat_rxe_outlives_packets() || rtune_force_rxe_pacing;
}

/*
 * Is the egress qdisc of @dp fq, and may packets wait there? Copies the
 * root qdisc's id to @id. With @update, records the answer and logs every
 * change.
 */
bool rtune_pacing_check(struct rtune_dp *dp, char *id, size_t idlen, bool update)
{
	struct net_device *ndev;
	struct Qdisc *q;
	bool active = false;
	bool was;

	if (!rtune_pacing_safe()) {
		strscpy(id, "old-rxe", idlen);
		if (update && !dp->pacing_reported)
			pr_warn("%s: pacing UNAVAILABLE: this kernel's rdma_rxe is taken to free a destroyed QP's CQs and PD while its packets may still wait in a qdisc (before Linux 6.1), so no packet is held; DCQCN rates and rate caps are not enforced (force_rxe_pacing=1 for a kernel with the newer rxe)\n",
				dev_name(&dp->dev->ibdev->dev));
		if (update)
			dp->pacing_reported = true;
		return false;
	}
	strscpy(id, "none", idlen);
	rcu_read_lock();
	ndev = dev_get_by_index_rcu(&init_net, dp->ifindex);
	q = ndev ? rcu_dereference(ndev->qdisc) : NULL;
	if (q && q->ops) {
		strscpy(id, q->ops->id, idlen);
		active = !strcmp(q->ops->id, "fq");
	}
	rcu_read_unlock();
	if (!update)
		return active;
	was = READ_ONCE(dp->pacing_active);
	WRITE_ONCE(dp->pacing_active, active);
	if (active && !was)
		pr_info("%s: pacing active (fq on ifindex %d)\n",
			dev_name(&dp->dev->ibdev->dev), dp->ifindex);
	else if (!active && (was || !dp->pacing_reported))
		pr_warn("%s: pacing INACTIVE: root qdisc of ifindex %d is %s, not fq; DCQCN rates and rate caps are not enforced (tc qdisc replace dev DEV root fq)\n",
			dev_name(&dp->dev->ibdev->dev), dp->ifindex, id);
	dp->pacing_reported = true;
	return active;
}

/* The priority of an outgoing packet: skb->priority, else its DSCP class. */
static u8 rtune_tx_prio(const struct sk_buff *skb, u8 dsfield)
{
	if (skb->priority >= 1 && skb->priority <= 7)
		return skb->priority;
	return dsfield >> 5;
}

/* Set ECT on a Not-ECT packet; the ICRC does not cover the ECN bits. */
static bool rtune_set_ect(struct sk_buff *skb, bool v6, u8 cp)
{
	unsigned int nhoff = skb_network_offset(skb);

	if (skb_ensure_writable(skb, nhoff + (v6 ? sizeof(struct ipv6hdr) :
					      sizeof(struct iphdr))))
		return false;
	if (!v6)
		ipv4_change_dsfield(ip_hdr(skb), (u8)~INET_ECN_MASK, cp);
	else
		ipv6_change_dsfield(ipv6_hdr(skb), (u8)~INET_ECN_MASK, cp);
	return true;
}

/*
 * Whether @qp's next packets need neither a departure time nor the
 * reaction point's attention, so that the transmit hook may skip the
 * lock and the clock (rtune_qp.idle_gen). Called under qp->lock with the
 * rate just applied; at the maximum rate the RP's increase timer is
 * stopped, and the byte counter only counts while it runs.
 */
static bool rtune_qp_tx_idle(const struct rtune_qp *qp, const struct rtune_dp_params *p,
			     u32 rate, u64 now)
{
	return rate >= p->dc.max_rate_kbps && !p->pace_at_max &&
	       !qp->rate_cap_kbps && qp->next_tx_ns <= now &&
	       qp->rp.next_timer_us == DCQCN_NEVER;
}

unsigned int rtune_pacing_tx(struct rtune_dp *dp, struct sk_buff *skb, bool v6,
			     unsigned int l4off)
{
	const struct rtune_dp_params *p = rcu_dereference(dp->params);
	u8 _hdr[RTUNE_UDP_HLEN + RTUNE_BTH_LEN];
	u32 rate, dqpn, len = skb->len;
	bool limited, clamped = false;
	struct in6_addr daddr;
	const u8 *hdr, *bth;
	struct rtune_qp *qp;
	u64 now, t;
	u8 ds, prio;

	hdr = skb_header_pointer(skb, l4off, sizeof(_hdr), _hdr);
	if (!hdr || rtune_udp_dport(hdr) != ROCE_V2_UDP_DPORT)
		return NF_ACCEPT;
	bth = hdr + RTUNE_UDP_HLEN;
	/* Our own CNPs carry the DSCP/ECN they were built with. */
	if (rtune_bth_opcode(bth) == RTUNE_BTH_OPCODE_CNP)
		return NF_ACCEPT;
	if (!rtune_skb_from_rxe(dp, skb)) {
		atomic64_inc(&dp->cnt.tx_not_rxe_pkts);
		return NF_ACCEPT;
	}
	dqpn = rtune_bth_dqpn(bth);
	if (!v6) {
		ds = ipv4_get_dsfield(ip_hdr(skb));
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, &daddr);
	} else {
		ds = ipv6_get_dsfield(ipv6_hdr(skb));
		daddr = ipv6_hdr(skb)->daddr;
	}
	prio = rtune_tx_prio(skb, ds);
	if ((p->ecn_prios & BIT(prio)) && !INET_ECN_is_capable(ds) &&
	    rtune_set_ect(skb, v6, p->ecn_codepoint))
		atomic64_inc(&dp->cnt.ect_marked_pkts);

	qp = rtune_qp_lookup_peer(dp, dqpn, &daddr);
	if (!qp)
		return NF_ACCEPT;
	WRITE_ONCE(qp->tx_prio, prio);
	/* Nothing to pace and nothing for the reaction point to count. */
	if (READ_ONCE(qp->idle_gen) == p->gen)
		return NF_ACCEPT;
	now = ktime_get_ns();
	spin_lock_bh(&qp->lock);
	dcqcn_rp_on_tx(&qp->rp, &p->dc, div_u64(now, NSEC_PER_USEC), len);
	rate = qp->cc_enable ? dcqcn_rp_rate_kbps(&qp->rp) : p->dc.max_rate_kbps;
	if (qp->rate_cap_kbps && qp->rate_cap_kbps < rate)
		rate = qp->rate_cap_kbps;
	limited = rate && (rate < p->dc.max_rate_kbps || p->pace_at_max);
	/* rtune_pacing_drain(): keep the order, but add no delay. */
	if (READ_ONCE(dp->pacing_draining))
		limited = false;
	if (READ_ONCE(dp->pacing_active)) {
		t = max(qp->next_tx_ns, now);
		/*
		 * fq sorts a flow's packets by departure time: once a QP was
		 * paced, its later packets must not leave earlier than the
		 * clock even at full rate, or they would overtake the queued
		 * ones and rxe's responder would see them out of order.
		 */
		if (limited || t > now)
			rtune_compat_skb_set_edt(skb, t);
		if (limited) {
			/* len bytes at rate kb/s take len * 8e6 / rate ns. */
			qp->next_tx_ns = t + div_u64((u64)len * 8 * NSEC_PER_MSEC,
						     rate);
			if (qp->next_tx_ns > now + RTUNE_PACE_MAX_AHEAD_NS) {
				qp->next_tx_ns = now + RTUNE_PACE_MAX_AHEAD_NS;
				clamped = true;
			}
			qp->cnt.paced_pkts++;
			qp->cnt.paced_bytes += len;
			limited = false;
		} else {
			qp->next_tx_ns = t;
		}
	}
	WRITE_ONCE(qp->idle_gen, rtune_qp_tx_idle(qp, p, rate, now) ? p->gen : 0);
	spin_unlock_bh(&qp->lock);
	if (clamped)
		atomic64_inc(&dp->cnt.pacing_clamped_pkts);
	if (limited) {
		atomic64_inc(&dp->cnt.unpaced_pkts);
		pr_warn_ratelimited("%s: QP %u needs pacing, but %s: rate not enforced\n",
				    dev_name(&dp->dev->ibdev->dev), qp->qpn,
				    rtune_pacing_safe() ? "the egress qdisc is not fq" :
				    "pacing is unavailable with this kernel's rxe");
	}
	return NF_ACCEPT;
}

/*
 * Before the datapath of @dp goes (device removal, rmmod): let every
 * packet already given a departure time leave first. The packets rxe
 * sends once the hooks no longer see @dp carry no departure time, and fq
 * would send them ahead of those it still holds for the same QP: rxe's
 * responder then sees the QP's packets out of order, NAKs them, and
 * retries that have ended in fatal errors (Failed status 9,
 * IB_WC_REM_INV_REQ_ERR, in selftests/dcqcn/rmmod-traffic.sh). From here
 * on no clock advances, so the wait ends at the latest clock, at most
 * RTUNE_PACE_MAX_AHEAD_NS away. Process context; sleeps.
 */
void rtune_pacing_drain(struct rtune_dp *dp)
{
	u64 last = 0, now, wait_ms;
	struct rtune_qp *qp;
	u32 nahead = 0;

	WRITE_ONCE(dp->pacing_draining, true);
	/* Every transmit hook that starts after this sees the flag. */
	synchronize_net();
	now = ktime_get_ns();
	rcu_read_lock();
	rtune_dp_for_each_qp_rcu(dp, qp) {
		spin_lock_bh(&qp->lock);
		if (qp->next_tx_ns > now) {
			last = max(last, qp->next_tx_ns);
			nahead++;
		}
		spin_unlock_bh(&qp->lock);
	}
	rcu_read_unlock();
	if (!nahead)
		return;
	wait_ms = DIV_ROUND_UP_ULL(min_t(u64, last - now, RTUNE_PACE_MAX_AHEAD_NS),
				   NSEC_PER_MSEC);
	pr_info("%s: waiting %llu ms for the paced packets of %u QP%s to leave\n",
		dev_name(&dp->dev->ibdev->dev), wait_ms, nahead, nahead == 1 ? "" : "s");
	msleep(wait_ms);
}
