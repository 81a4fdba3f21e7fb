/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table of tracked QPs (qp_hash.c): every rxe device's struct rtune_qp
 * entries in one RCU hash keyed by (device, QPN) and on their device's
 * list (dp->qps), and the LIVE ones also in a second hash keyed by
 * (device, peer QPN).
 *
 * Readers (the hooks, the worker, the configfs reads) use them under
 * RCU; only qp_hash.c changes their membership, under rtune_qp_lock.
 */
#ifndef _ROCETUNE_QP_HASH_H
#define _ROCETUNE_QP_HASH_H

#include <linux/hashtable.h>

#include "datapath.h"

#define RTUNE_QP_HASH_BITS	12

/* Per device: confirmed entries, and entries not confirmed yet. */
extern unsigned int rtune_max_qps;
extern unsigned int rtune_max_unconfirmed_qps;

/* Every tracked QP of @dp; the caller holds rcu_read_lock(). */
#define rtune_dp_for_each_qp_rcu(dp, qp)			\
	list_for_each_entry_rcu(qp, &(dp)->qps, dp_node)

/* Lookups: the caller holds rcu_read_lock() (the hooks run under it). */
struct rtune_qp *rtune_qp_lookup(struct rtune_dp *dp, u32 qpn);
struct rtune_qp *rtune_qp_lookup_peer(struct rtune_dp *dp, u32 peer_qpn,
				      const struct in6_addr *peer);

/*
 * Start tracking: RCU held, BH off or softirq. @confirmed: the caller
 * knows that restrack has the QPN (qp_ctl); else the entry takes one of
 * the device's unconfirmed slots, and is refused when none is free.
 */
struct rtune_qp *rtune_qp_create(struct rtune_dp *dp, u32 qpn, gfp_t gfp,
				 bool confirmed);
/* A packet named @qp (found by rtune_qp_lookup()): note when; any context. */
void rtune_qp_seen(struct rtune_qp *qp);

/* Hand @qp to the worker to be checked again soon; any context. */
void rtune_qp_requeue(struct rtune_qp *qp);

/*
 * The worker's changes (it owns the entry: learn_queued set).
 * confirm: restrack knows @qp's QPN; false when max_qps confirmed
 * entries exist already. set_live: @qp's peer fields are set: hash it by
 * peer, give its reaction point the path it shares with the other flows
 * to that peer, and publish it LIVE. unpublish: no longer LIVE, now
 * @state.
 */
bool rtune_qp_confirm(struct rtune_qp *qp);
void rtune_qp_set_live(struct rtune_qp *qp);
void rtune_qp_unpublish(struct rtune_qp *qp, u8 state);

/*
 * Stop tracking @qp, counted in qp_evicted and in @why; freed after a
 * grace period. The worker only, under rcu_read_lock() if it walks.
 */
void rtune_qp_evict(struct rtune_qp *qp, atomic64_t *why);

/* Stop tracking every QP of @dp (device removal; nothing counted). */
void rtune_qp_remove_all(struct rtune_dp *dp);

/* The number of QPs @dp tracks now. */
u32 rtune_dp_nqps(struct rtune_dp *dp);

#endif /* _ROCETUNE_QP_HASH_H */
