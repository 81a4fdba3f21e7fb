/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocetune's software DCQCN datapath for Soft-RoCE (rxe) devices.
 *
 *   struct rtune_dp      one per attached rxe device: the netdev it sends on,
 *                     the parameters in the core's units, port counters,
 *                     the learning/eviction worker.
 *   struct rtune_qp      one per local QP seen on the wire: DCQCN reaction-
 *                     and notification-point state, pacing clock,
 *                     counters, tunables.
 *
 * Netfilter hooks in init_net (rxe on 6.1 lives only there) do all the
 * per-packet work in softirq context, lock-free except for the per-QP
 * spinlock. Anything that needs the RDMA core (restrack, query_qp) runs
 * in the worker.
 */
#ifndef _ROCETUNE_DATAPATH_H
#define _ROCETUNE_DATAPATH_H

#include <linux/in6.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/math64.h>
#include <linux/workqueue.h>

#include "core/dcqcn.h"
#include "core/wire.h"

struct rtune_dev;
struct rtune_port;
struct rtune_param_set;

/* The parameters the hooks use, derived from a port's active set. */
struct rtune_dp_params {
	struct rcu_head rcu;
	struct dcqcn_params dc;
	u32 rp_prios;
	u32 np_prios;
	u32 ecn_prios;
	u8 ecn_codepoint;
	u8 cnp_tos;		/* DSCP << 2 | ECN */
	u8 cnp_prio;
	/* rp_max_rate_kbps is set: a QP at the maximum rate is paced too. */
	bool pace_at_max;
	/* Unique per parameter set published, never 0 (rtune_qp.idle_gen). */
	u32 gen;
};

enum rtune_qp_state {
	RTUNE_QP_NEW,		/* seen on the wire, context not learned yet */
	RTUNE_QP_LIVE,		/* a connected RC/UC QP restrack knows */
	RTUNE_QP_UNSUPPORTED,	/* restrack knows it, but no CC for it (UD...) */
};

struct rtune_qp_counters {
	u64 cnp_sent;
	u64 cnp_rcvd;		/* accepted CNPs */
	u64 cnp_rejected;	/* CNPs naming this QP from another source */
	u64 ce_rcvd;		/* CE-marked packets from the peer, to us */
	u64 paced_pkts;
	u64 paced_bytes;
	u64 rate_cuts;
	u64 last_cnp_ns;	/* last accepted CNP, 0 = none */
};

struct rtune_qp {
	struct hlist_node node;		/* rtune_qp_hash, by (dp, qpn) */
	struct hlist_node peer_node;	/* rtune_qp_peer_hash, once LIVE */
	struct llist_node learn_node;	/* dp->learn, while queued */
	struct rcu_head rcu;
	struct rtune_dp *dp;
	u32 qpn;
	/* Written by the worker before the QP is published as LIVE. */
	u32 peer_qpn;
	bool peer_v6;
	bool peer_hashed;		/* in rtune_qp_peer_hash */
	struct in6_addr peer_addr;	/* IPv4 as v4-mapped */
	u8 state;			/* enum rtune_qp_state, READ/WRITE_ONCE */
	unsigned long learn_queued;	/* bit 0: on dp->learn */
	unsigned long last_seen;	/* jiffies of the last packet */
	/*
	 * The transmit hook's fast path, read without @lock: idle_gen is
	 * the gen of the parameters under which the QP was last found to
	 * need neither pacing nor reaction-point work (at the maximum rate,
	 * not recovering, no cap, no pacing at the maximum, clock not
	 * ahead); 0 when it does. Written under @lock; cleared by anything
	 * that can change the answer (a CNP, qp_ctl), and a commit changes
	 * the gen. tx_prio: written by the transmit hook, read by the CNP
	 * hook (READ/WRITE_ONCE).
	 */
	u32 idle_gen;
	u8 tx_prio;

	/*
	 * Protects everything below. Always taken with BH off: the transmit
	 * hook runs in process context when rxe sends inline from
	 * post_send, and the receive hook in softirq on the same CPU.
	 */
	spinlock_t lock;
	struct dcqcn_rp rp;
	struct dcqcn_np np;
	u64 next_tx_ns;			/* pacing clock (EDT) */
	bool cc_enable;
	u32 rate_cap_kbps;		/* 0 = none */
	struct rtune_qp_counters cnt;
};

/* Port-wide datapath counters: events with no QP to charge. */
struct rtune_dp_counters {
	atomic64_t cnp_rejected_unknown_qp;
	atomic64_t cnp_rejected_bad_icrc;
	atomic64_t cnp_send_failed;
	atomic64_t qp_table_full;
	atomic64_t qp_evicted;
	atomic64_t unpaced_pkts;	/* needed pacing, qdisc cannot */
	atomic64_t ect_marked_pkts;
	/* Rejections: RoCEv2 packets the datapath refused to act on. */
	atomic64_t tx_not_rxe_pkts;	/* sent, but not by rxe: left alone */
	atomic64_t ce_rejected_not_peer;	/* CE from other than the peer */
	atomic64_t ce_rejected_not_live;	/* CE for a QP not LIVE yet */
	atomic64_t ce_rejected_not_unicast;	/* CE sent to a non-unicast address */
	atomic64_t pacing_clamped_pkts;	/* clock held at the ceiling */
};

struct rtune_dp {
	struct list_head list;		/* rtune_dp_list, RCU */
	struct rtune_dev *dev;
	struct rtune_port *port;		/* rxe has one port */
	int ifindex;
	struct rtune_dp_params __rcu *params;
	bool pacing_active;		/* READ/WRITE_ONCE */
	bool pacing_reported;		/* worker only */
	u32 nqps;			/* entries of this dp; rtune_qp_lock */
	u32 watch_qpn;			/* qp_watch; WRITE/READ_ONCE */
	struct llist_head learn;	/* rtune_qps to resolve in the worker */
	struct delayed_work work;	/* learn, evict, check the qdisc */
	struct rtune_dp_counters cnt;
};

/* The datapath's clock, in the DCQCN core's unit. */
static inline u64 rtune_now_us(void)
{
	return div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

/* datapath.c; the QP table's own API is in qp_hash.h. */
int rtune_dp_attach(struct rtune_dev *dev);
void rtune_dp_detach(struct rtune_dev *dev);
struct rtune_dp_params *rtune_dp_prepare(struct rtune_dev *dev, struct rtune_port *port,
					 const struct rtune_param_set *set);
void rtune_dp_publish(struct rtune_dev *dev, struct rtune_port *port,
		      struct rtune_dp_params *next);
struct rtune_dp *rtune_dp_by_ifindex(int ifindex);
bool rtune_qp_known(struct rtune_dp *dp, u32 qpn);
ssize_t rtune_dp_counters_show(struct rtune_dp *dp, char *page);

/* qp_stats.c */
ssize_t rtune_qp_format(struct rtune_qp *qp, char *buf, size_t len, bool line);
ssize_t rtune_qp_stats_read(struct rtune_dp *dp, char *buf, size_t len);
void rtune_qp_stats_exit(void);

/* qp_ctl.c */
ssize_t rtune_qp_ctl_show(struct rtune_dp *dp, char *page);
int rtune_qp_ctl_store(struct rtune_dp *dp, const char *buf, size_t len);

/* hooks.c */
int rtune_hooks_register(void);
void rtune_hooks_unregister(void);

/* cnp.c */
int rtune_cnp_send(struct rtune_dp *dp, const struct rtune_dp_params *p, bool v6,
		   const struct in6_addr *saddr, const struct in6_addr *daddr,
		   u32 dqpn, u16 sport);

/* pacing.c */
bool rtune_pacing_check(struct rtune_dp *dp, char *id, size_t idlen, bool update);
unsigned int rtune_pacing_tx(struct rtune_dp *dp, struct sk_buff *skb, bool v6,
			     unsigned int l4off);

#endif /* _ROCETUNE_DATAPATH_H */
