/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocetune's software DCQCN datapath for Soft-RoCE (rxe) devices.
 *
 *   struct rtune_dp      one per attached rxe device: the netdev it sends on,
 *                     the parameters in the core's units, port counters,
 *                     the learning/eviction worker.
 *   struct rtune_qp      one per local QP seen on the wire: DCQCN reaction-
 *                     and notification-point state, its socket's pacing,
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
	struct list_head dp_node;	/* dp->qps, RCU */
	struct llist_node learn_node;	/* dp->learn, while queued */
	struct rcu_head rcu;
	struct rtune_dp *dp;
	u32 qpn;
	/*
	 * The peer: written by the worker only while the entry is not LIVE
	 * (and no hook can still be reading an earlier peer: see
	 * rtune_qp_withdraw()), before it is published LIVE.
	 */
	u32 peer_qpn;
	bool peer_v6;
	bool peer_hashed;		/* in rtune_qp_peer_hash */
	/*
	 * The RDMA core knows the QPN (restrack): set once by the worker or
	 * at creation by qp_ctl, under rtune_qp_lock. Until then the entry
	 * holds one of dp->nunconfirmed's slots, until it is freed.
	 */
	bool confirmed;
	struct in6_addr peer_addr;	/* IPv4 as v4-mapped */
	u8 state;			/* enum rtune_qp_state, READ/WRITE_ONCE */
	/*
	 * Bit 0: the worker owns the entry: on dp->learn, being checked, or
	 * evicted. Whoever sets it queues the entry; only the worker clears
	 * it, after a check that kept the entry.
	 */
	unsigned long learn_queued;
	unsigned long last_seen;	/* jiffies of the last packet */
	/* The ib_qp restrack gave for qpn: compared, never dereferenced. */
	unsigned long ibqp_id;		/* worker only */
	/*
	 * The transmit hook's fast path, read without @lock: idle_gen is
	 * the gen of the parameters under which the QP was last found to
	 * need neither pacing nor reaction-point work (at the maximum rate,
	 * not recovering, no cap, no pacing at the maximum, its socket not
	 * paced); 0 when it does. Written under @lock; cleared by anything
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
	/*
	 * The socket rxe sends the QP's packets from, held (sock_hold()),
	 * and the sk_pacing_rate last written to it (pacing.c): valid once
	 * @sk is set.
	 */
	struct sock *sk;
	unsigned long pace_bps;
	bool cc_enable;
	u32 rate_cap_kbps;		/* 0 = none */
	struct rtune_qp_counters cnt;
};

/* Port-wide datapath counters: events with no QP to charge. */
struct rtune_dp_counters {
	atomic64_t cnp_rejected_unknown_qp;
	atomic64_t cnp_rejected_bad_icrc;
	atomic64_t cnp_send_failed;
	atomic64_t qp_table_full;	/* confirmed QPs beyond max_qps */
	atomic64_t qp_evicted;		/* every eviction, for any reason */
	/* The QP table's refusals and evictions, by reason. */
	atomic64_t learn_refused_full;	/* max_unconfirmed_qps reached */
	atomic64_t learn_refused_nomem;	/* no memory for a new entry */
	atomic64_t learn_refused_bad_icrc;	/* ICRC did not verify */
	atomic64_t evicted_unconfirmed;	/* restrack never knew the QPN */
	atomic64_t evicted_gone;	/* the QP was destroyed */
	atomic64_t evicted_idle;	/* not connected within new_qp_ttl_s */
	atomic64_t peer_changed;	/* live QP reset, reconnected or replaced */
	atomic64_t unpaced_pkts;	/* needed pacing, qdisc cannot */
	atomic64_t ect_marked_pkts;
	/* Rejections: RoCEv2 packets the datapath refused to act on. */
	atomic64_t tx_not_rxe_pkts;	/* sent, but not by rxe: left alone */
	atomic64_t ce_rejected_not_peer;	/* CE from other than the peer */
	atomic64_t ce_rejected_not_live;	/* CE for a QP not LIVE yet */
	atomic64_t ce_rejected_not_unicast;	/* CE sent to a non-unicast address */
	atomic64_t pacing_clamped_pkts;	/* paced, but over fq's 1 s a packet */
	/* Received skbs GRO merged (UDP GSO), and the packets in them. */
	atomic64_t rx_merged_skbs;
	atomic64_t rx_merged_pkts;	/* each handled as one packet */
	atomic64_t rx_merged_refused;	/* merged skbs not walked (see hooks.c) */
	/* Sent by a QP with no live entry yet (pacing.c, "a new QP's rate"). */
	atomic64_t new_qp_paced_pkts;	/* paced at a new QP's rate */
	atomic64_t new_qp_slots_full;	/* not paced: every slot was taken */
};

/* Slots of a device's struct dcqcn_path table (rtune_dp.paths). */
#define RTUNE_PATH_BITS		6
#define RTUNE_PATH_SLOTS	BIT(RTUNE_PATH_BITS)

/* Sockets one device tracks without a live entry (pacing.c). */
#define RTUNE_NEW_QP_SLOTS	64

/*
 * One of them, held (sock_hold()): paced at a new QP's rate, or with
 * @hands_off, a socket whose entry went while rxe still had it (the QP
 * is being destroyed), never to be paced again.
 */
struct rtune_new_qp_slot {
	struct sock *sk;		/* NULL: free */
	bool hands_off;
};

struct rtune_dp {
	struct list_head list;		/* rtune_dp_list, RCU */
	struct rtune_dev *dev;
	struct rtune_port *port;		/* rxe has one port */
	int ifindex;
	struct rtune_dp_params __rcu *params;
	bool pacing_active;		/* READ/WRITE_ONCE */
	/* rtune_pacing_release() ran: nothing is paced (READ/WRITE_ONCE). */
	bool pacing_released;
	bool pacing_reported;		/* worker only */
	/*
	 * The entries of this dp: RCU readers; membership and the counts
	 * change under rtune_qp_lock (qp_hash.c).
	 */
	struct list_head qps;
	u32 nqps;			/* entries in the hashes */
	u32 nconfirmed;			/* of which confirmed; <= max_qps */
	/*
	 * Unconfirmed entries, hashed or waiting for their grace period
	 * (<= max_unconfirmed_qps): taken before allocating, given back
	 * when the entry is confirmed or freed. Atomic, no lock.
	 */
	atomic_t nunconfirmed;
	u32 watch_qpn;			/* qp_watch; WRITE/READ_ONCE */
	/*
	 * Protects @new_qp: the sockets with no live entry that the
	 * transmit hook paces at the rate a new QP starts at or keeps its
	 * hands off, and the pacing rates written to them from there. Taken
	 * with BH off; nests inside rtune_qp.lock.
	 */
	spinlock_t new_qp_lock;
	struct rtune_new_qp_slot new_qp[RTUNE_NEW_QP_SLOTS];
	/*
	 * What the flows to each peer share (struct dcqcn_path): a LIVE
	 * entry's reaction point points to the slot of its peer's address,
	 * by a hash keyed with @path_seed, so that no peer can pick whose
	 * slot it shares. Peers that share a slot share their CNPs, which at
	 * worst ends a flow's start-up early: it then ramps by additive
	 * increase instead of doubling; and with rp_path_share_pct their mean
	 * rate, which at worst holds the faster peer's flows while the slot
	 * is congested. No lock: each slot is written by reaction points
	 * under their own entry's lock, field by field and each whole
	 * (READ_ONCE/WRITE_ONCE in the core; a lost update of the mean loses
	 * one sample), and lives as long as the device.
	 */
	u32 path_seed;
	struct dcqcn_path paths[RTUNE_PATH_SLOTS];
	struct llist_head learn;	/* rtune_qps to resolve in the worker */
	struct delayed_work work;	/* learn, sweep, check the qdisc */
	unsigned long next_sweep;	/* jiffies; worker only */
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
void rtune_dp_kick(struct rtune_dp *dp);
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
bool rtune_pacing_safe(void);
bool rtune_pacing_check(struct rtune_dp *dp, char *id, size_t idlen, bool update);
unsigned int rtune_pacing_tx(struct rtune_dp *dp, struct sk_buff *skb, bool v6,
			     unsigned int l4off);
void rtune_pacing_update(struct rtune_dp *dp, struct rtune_qp *qp,
			 const struct rtune_dp_params *p);
void rtune_pacing_forget(struct rtune_qp *qp);
void rtune_pacing_release(struct rtune_dp *dp);
void rtune_pacing_sweep(struct rtune_dp *dp);

#endif /* _ROCETUNE_DATAPATH_H */
