// SPDX-License-Identifier: GPL-2.0
/*
 * Paced egress and ECN marking of rxe's RoCEv2 packets (POST_ROUTING).
 *
 * rxe sends each QP's packets from the QP's own kernel UDP socket, and
 * the fq qdisc paces a socket's packets that carry no departure time at
 * the socket's sk_pacing_rate, read as each packet leaves (fq_dequeue()
 * spaces it from the next by its length at that rate). So a LIVE QP is
 * paced by writing its current rate (its DCQCN rate, capped by its
 * rate_cap_kbps tunable) to its socket: on every packet it sends, and at
 * once when a CNP cuts the rate or qp_ctl changes it. A cut then holds
 * for the packets the QP already has queued, not only for those it sends
 * next. rxe keeps up to 64 packets of a QP in the qdisc; stamped with
 * departure times (EDT) at the rate of the moment, they would leave at
 * the old rate for 64 packet times after a cut (330 ms at 500 kb/s in
 * the lab), longer than DCQCN's increase timer, and the cut would come
 * too late to hold the queue (bench/incast, 16 QPs).
 *
 * Only fq paces this way, so the egress device's root qdisc is checked
 * once a second and pacing is reported inactive (configfs "pacing",
 * kernel log) while it is anything else. fq keys an unconnected socket's
 * flows by the packet's hash masked with its orphan mask (1023 unless
 * set), and rxe gives each QP its own UDP source port: two QPs whose
 * hashes agree in those bits share a flow and its pacing, so nodes with
 * many QPs want a wider mask (Documentation/datapath.rst).
 *
 * A QP the table has no live entry for is paced too, at the rate a new
 * QP starts at, when that rate needs pacing (rp_max_rate_kbps or
 * rp_initial_rate_kbps set): a
 * sending QP is only learned when its first ACK comes back, and its first
 * window would otherwise leave at whatever rate rxe sends, past every
 * ceiling (rtune_pacing_new_qp()).
 *
 * Only packets rxe itself sent are touched (rtune_skb_from_rxe()): a
 * local user can send UDP to port 4791 with a BTH naming any QP, and a
 * forwarded packet may carry anything.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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

/* A socket's pacing rate when nothing holds it back: fq's "unlimited". */
#define RTUNE_PACE_NONE		(~0UL)
/*
 * rtune_qp.pace_bps when the socket's rate is not the entry's to know (it
 * was paced as a new QP's): never a rate written, so the next one is.
 */
#define RTUNE_PACE_UNKNOWN	0UL

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
 * Whether @qp's next packets need neither pacing nor the reaction point's
 * attention, so that the transmit hook may skip the lock
 * (rtune_qp.idle_gen). Called under qp->lock with the rate just applied;
 * at the maximum rate the RP's increase timer is stopped, and the byte
 * counter only counts while it runs.
 */
static bool rtune_qp_tx_idle(const struct rtune_qp *qp, const struct rtune_dp_params *p,
			     u32 rate)
{
	/* The sent-rate estimate (rp_sent_rate_window_us) counts every packet. */
	return rate >= p->dc.max_rate_kbps && !p->pace_at_max && !p->dc.sent_window_us &&
	       !qp->rate_cap_kbps && qp->pace_bps == RTUNE_PACE_NONE &&
	       qp->rp.next_timer_us == DCQCN_NEVER;
}

/* @qp's sending rate in kb/s: its DCQCN rate, or the maximum with CC off, capped. */
static u32 rtune_qp_rate(const struct rtune_qp *qp, const struct rtune_dp_params *p)
{
	u32 rate = qp->cc_enable ? dcqcn_rp_rate_kbps(&qp->rp) : p->dc.max_rate_kbps;

	if (qp->rate_cap_kbps && qp->rate_cap_kbps < rate)
		rate = qp->rate_cap_kbps;
	return rate;
}

/*
 * Pace @sk at @bps bytes per second (RTUNE_PACE_NONE: not at all). fq
 * reads sk_pacing_rate; the ceiling is written too, as SO_MAX_PACING_RATE
 * would, because from Linux 6.7 fq sends a packet of a non-TCP socket
 * with no ceiling straight through its unpaced fast path whenever no
 * other flow is eligible (fq_fastpath_check()), and a lone paced QP would
 * not be paced at all.
 */
static void rtune_sk_pace(struct sock *sk, unsigned long bps)
{
	WRITE_ONCE(sk->sk_max_pacing_rate, bps);
	WRITE_ONCE(sk->sk_pacing_rate, bps);
}

/*
 * @qp paces its socket no more; returns whether it did. qp->lock held,
 * or @qp out of every hook's reach.
 */
static bool rtune_qp_unpace(struct rtune_qp *qp)
{
	bool paced = qp->sk && qp->pace_bps != RTUNE_PACE_NONE;

	if (paced)
		rtune_sk_pace(qp->sk, RTUNE_PACE_NONE);
	qp->pace_bps = RTUNE_PACE_NONE;
	return paced;
}

/*
 * The pacing rate a socket sending at @rate kb/s gets (bytes per second,
 * RTUNE_PACE_NONE: none), and in @limited whether it must be held to
 * @rate (paced, or not for want of fq). While the datapath is released
 * (rtune_pacing_release()) nothing is held.
 */
static unsigned long rtune_pace_bps(const struct rtune_dp *dp,
				    const struct rtune_dp_params *p, u32 rate,
				    bool *limited)
{
	*limited = rate && (rate < p->dc.max_rate_kbps || p->pace_at_max) &&
		   !READ_ONCE(dp->pacing_released);
	if (*limited && READ_ONCE(dp->pacing_active))
		return (unsigned long)rate * 125;
	return RTUNE_PACE_NONE;
}

/*
 * Give @qp's socket the pacing rate @qp has at @rate kb/s, and return
 * whether @qp must be held to @rate (rtune_pace_bps()). qp->lock held.
 */
static bool rtune_qp_pace(struct rtune_dp *dp, struct rtune_qp *qp,
			  const struct rtune_dp_params *p, u32 rate)
{
	bool limited;
	unsigned long bps = rtune_pace_bps(dp, p, rate, &limited);

	if (qp->sk && qp->pace_bps != bps) {
		rtune_sk_pace(qp->sk, bps);
		qp->pace_bps = bps;
	}
	return limited;
}

/*
 * After anything but a packet changed @qp's rate (a CNP, qp_ctl, a new
 * connection): the packets it has queued leave at the new rate.
 */
void rtune_pacing_update(struct rtune_dp *dp, struct rtune_qp *qp,
			 const struct rtune_dp_params *p)
{
	lockdep_assert_held(&qp->lock);
	rtune_qp_pace(dp, qp, p, rtune_qp_rate(qp, p));
}

/*
 * The slot of @dp that holds @sk, or NULL; with @free, also the first
 * free slot (NULL: none), meaningful when @sk has none. dp->new_qp_lock
 * held.
 */
static struct rtune_new_qp_slot *rtune_new_qp_find(struct rtune_dp *dp,
						   const struct sock *sk,
						   struct rtune_new_qp_slot **free)
{
	struct rtune_new_qp_slot *s;

	lockdep_assert_held(&dp->new_qp_lock);
	if (free)
		*free = NULL;
	for (s = dp->new_qp; s < dp->new_qp + RTUNE_NEW_QP_SLOTS; s++) {
		if (s->sk == sk)
			return s;
		if (free && !s->sk && !*free)
			*free = s;
	}
	return NULL;
}

/*
 * Take @sk out of @dp's new-QP slots; returns whether it was there. The
 * caller drops the slot's reference (sock_put()) once the lock is let go.
 * dp->new_qp_lock held.
 */
static bool rtune_new_qp_untrack(struct rtune_dp *dp, const struct sock *sk)
{
	struct rtune_new_qp_slot *s = rtune_new_qp_find(dp, sk, NULL);

	if (s)
		s->sk = NULL;
	return s;
}

/*
 * @qp's entry goes (RCU callback): its socket is no longer paced, and no
 * longer held but by a hands-off slot (below). Reached only after
 * rtune_pacing_release() or once the QP is gone, so no other entry paces
 * the socket.
 */
void rtune_pacing_forget(struct rtune_qp *qp)
{
	struct rtune_dp *dp = qp->dp;
	struct rtune_new_qp_slot *slot, *free;
	struct sock *sk = qp->sk;

	rtune_qp_unpace(qp);
	if (!sk)
		return;
	qp->sk = NULL;
	/*
	 * rxe may still send from the socket: an entry goes once restrack no
	 * longer knows its QP, and restrack forgets a QP before rxe's
	 * destroy_qp, which waits for every packet of the QP to be freed
	 * while the QP goes on retransmitting (6.1). Paced again as a new
	 * QP's, its packets would never all be out at once, and destroy_qp
	 * would wait until it gave up (50 s, then a warning). So the socket
	 * keeps a slot, hands off, until rxe releases it; with no slot free,
	 * it may be paced again.
	 */
	spin_lock_bh(&dp->new_qp_lock);
	slot = rtune_new_qp_find(dp, sk, &free);
	if (slot) {
		/* Paced as a new QP's while the entry was not live. */
		rtune_sk_pace(sk, RTUNE_PACE_NONE);
		slot->hands_off = true;
	} else if (free && !sock_flag(sk, SOCK_DEAD) &&
		   !READ_ONCE(dp->pacing_released)) {
		free->sk = sk;
		free->hands_off = true;
		sk = NULL;
	}
	spin_unlock_bh(&dp->new_qp_lock);
	if (sk)
		sock_put(sk);
}

/*
 * A packet of an RC or UC QP that has no live entry yet. A sending QP is
 * learned only when its first ACK comes back (hooks.c), so without this
 * its first window (rxe sends up to 128 packets before it waits) would
 * leave at whatever rate rxe sends, past rp_max_rate_kbps. Its socket is
 * paced at the rate a new QP starts at (rp_initial_rate_kbps, or the
 * maximum) when that needs pacing, and kept in one of RTUNE_NEW_QP_SLOTS slots with a reference,
 * so that the pacing can be taken back: when the QP's entry takes the
 * socket over (rtune_pacing_tx()), when the rate no longer needs pacing,
 * and when the datapath goes (rtune_pacing_release()). With every slot
 * taken the packet leaves unpaced and is counted. A qp_ctl cap on a QP
 * not live yet does not hold here: only the entry knows it. A socket
 * whose entry has gone (rtune_pacing_forget()) is left alone.
 */
static void rtune_pacing_new_qp(struct rtune_dp *dp, const struct rtune_dp_params *p,
				struct sk_buff *skb)
{
	struct rtune_new_qp_slot *slot, *free;
	struct sock *sk = skb->sk, *put = NULL;
	unsigned long bps;
	bool limited;

	bps = rtune_pace_bps(dp, p, p->dc.init_rate_kbps, &limited);
	/* Paced at this rate already, or neither paced nor to be. */
	if (READ_ONCE(sk->sk_pacing_rate) == bps)
		goto out;
	spin_lock_bh(&dp->new_qp_lock);
	if (bps == RTUNE_PACE_NONE) {
		/* Only a socket paced from here is unpaced from here. */
		if (rtune_new_qp_untrack(dp, sk)) {
			rtune_sk_pace(sk, bps);
			put = sk;
		}
		spin_unlock_bh(&dp->new_qp_lock);
		goto out;
	}
	slot = rtune_new_qp_find(dp, sk, &free);
	if (slot && slot->hands_off) {
		spin_unlock_bh(&dp->new_qp_lock);
		return;
	}
	if (!slot) {
		if (!free) {
			spin_unlock_bh(&dp->new_qp_lock);
			atomic64_inc(&dp->cnt.new_qp_slots_full);
			atomic64_inc(&dp->cnt.unpaced_pkts);
			return;
		}
		sock_hold(sk);
		free->sk = sk;
		free->hands_off = false;
	}
	rtune_sk_pace(sk, bps);
	spin_unlock_bh(&dp->new_qp_lock);
out:
	if (put)
		sock_put(put);
	if (bps != RTUNE_PACE_NONE) {
		/* As for an entry's packets (rtune_pacing_tx()). */
		skb->tstamp = 0;
		atomic64_inc(&dp->cnt.new_qp_paced_pkts);
	} else if (limited) {
		atomic64_inc(&dp->cnt.unpaced_pkts);
	}
}

unsigned int rtune_pacing_tx(struct rtune_dp *dp, struct sk_buff *skb, bool v6,
			     unsigned int l4off)
{
	const struct rtune_dp_params *p = rcu_dereference(dp->params);
	u8 _hdr[RTUNE_UDP_HLEN + RTUNE_BTH_LEN];
	u32 rate, dqpn, len = skb->len;
	bool limited, clamped = false;
	struct sock *old = NULL, *slot = NULL;
	struct in6_addr daddr;
	const u8 *hdr, *bth;
	struct rtune_qp *qp;
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
	if (!qp) {
		/* RC and UC only: rxe's UD QPs (QP1's MADs) are never paced. */
		if (rtune_bth_opcode(bth) < RTUNE_BTH_OPCODE_RD)
			rtune_pacing_new_qp(dp, p, skb);
		return NF_ACCEPT;
	}
	WRITE_ONCE(qp->tx_prio, prio);
	/*
	 * Nothing to pace and nothing for the reaction point to count, and
	 * the socket not paced as a new QP's (a commit can race with that).
	 */
	if (READ_ONCE(qp->idle_gen) == p->gen &&
	    READ_ONCE(skb->sk->sk_pacing_rate) == RTUNE_PACE_NONE)
		return NF_ACCEPT;
	spin_lock_bh(&qp->lock);
	/*
	 * The socket rxe sends this QP's packets from (checked above). A
	 * new one means a new QP under the number: the old socket is let go.
	 * The reference keeps the socket ours to write to even after rxe
	 * releases it; rtune_pacing_forget() drops it. A socket whose rate
	 * is not the one the entry last wrote was paced as a new QP's
	 * (rtune_pacing_new_qp()): the entry takes it over, and its own
	 * rate is written below whatever it is.
	 */
	if (unlikely(qp->sk != skb->sk ||
		     READ_ONCE(skb->sk->sk_pacing_rate) != qp->pace_bps)) {
		if (qp->sk != skb->sk) {
			rtune_qp_unpace(qp);
			old = qp->sk;
			sock_hold(skb->sk);
			qp->sk = skb->sk;
		}
		spin_lock(&dp->new_qp_lock);
		if (rtune_new_qp_untrack(dp, skb->sk))
			slot = skb->sk;
		spin_unlock(&dp->new_qp_lock);
		qp->pace_bps = RTUNE_PACE_UNKNOWN;
	}
	dcqcn_rp_on_tx(&qp->rp, &p->dc, rtune_now_us(), len);
	rate = rtune_qp_rate(qp, p);
	limited = rtune_qp_pace(dp, qp, p, rate);
	if (limited && qp->pace_bps != RTUNE_PACE_NONE) {
		/*
		 * Newer rxe (6.12 has it) stamps each packet with the time it
		 * was built, and fq paces a packet that carries a time by
		 * that time alone, never by its socket's rate. The stamp is
		 * "now", not a departure time anyone asked for: drop it.
		 */
		skb->tstamp = 0;
		qp->cnt.paced_pkts++;
		qp->cnt.paced_bytes += len;
		/*
		 * fq spaces packets at most 1 s apart (fq_dequeue()): a
		 * packet that takes longer at @rate leaves sooner.
		 */
		clamped = (u64)len * 8 > (u64)rate * 1000;
		limited = false;
	}
	WRITE_ONCE(qp->idle_gen, rtune_qp_tx_idle(qp, p, rate) ? p->gen : 0);
	spin_unlock_bh(&qp->lock);
	if (old)
		sock_put(old);
	if (slot)
		sock_put(slot);
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
 * Empty @dp's new-QP slots (@all), unpacing their sockets, or only those
 * whose socket rxe released (SOCK_DEAD: its rate is nobody's concern).
 * Returns how many sockets were unpaced. One slot per lock hold, so that
 * each reference is dropped with the lock let go. Process context.
 */
static u32 rtune_new_qp_release(struct rtune_dp *dp, bool all)
{
	unsigned int i;
	struct sock *sk;
	u32 n = 0;

	for (i = 0; i < RTUNE_NEW_QP_SLOTS; i++) {
		spin_lock_bh(&dp->new_qp_lock);
		sk = dp->new_qp[i].sk;
		if (sk && (all || sock_flag(sk, SOCK_DEAD))) {
			dp->new_qp[i].sk = NULL;
			if (all && !dp->new_qp[i].hands_off) {
				rtune_sk_pace(sk, RTUNE_PACE_NONE);
				n++;
			}
		} else {
			sk = NULL;
		}
		spin_unlock_bh(&dp->new_qp_lock);
		if (sk)
			sock_put(sk);
	}
	return n;
}

/*
 * Before the datapath of @dp goes (device removal, rmmod): no socket
 * stays paced. Every QP's queued packets then leave at fq's full rate, in
 * the order they were queued, ahead of the packets rxe sends once the
 * hooks no longer see @dp (fq keeps a flow's packets without departure
 * times in order). Process context; sleeps.
 */
void rtune_pacing_release(struct rtune_dp *dp)
{
	struct rtune_qp *qp;
	u32 n;

	WRITE_ONCE(dp->pacing_released, true);
	/* New QPs' sockets first: a hook that sees the flag leaves them be. */
	n = rtune_new_qp_release(dp, true);
	/* Every transmit hook that starts after this sees the flag. */
	synchronize_net();
	rcu_read_lock();
	rtune_dp_for_each_qp_rcu(dp, qp) {
		spin_lock_bh(&qp->lock);
		if (rtune_qp_unpace(qp))
			n++;
		spin_unlock_bh(&qp->lock);
	}
	rcu_read_unlock();
	/* Any a hook that had not seen the flag paced meanwhile. */
	n += rtune_new_qp_release(dp, true);
	if (n)
		pr_info("%s: pacing of %u QP%s released\n",
			dev_name(&dp->dev->ibdev->dev), n, n == 1 ? "" : "s");
}

/*
 * The worker, once a second: a slot whose socket rxe has released (its
 * QP destroyed before its entry took it over) is given back.
 */
void rtune_pacing_sweep(struct rtune_dp *dp)
{
	rtune_new_qp_release(dp, false);
}
