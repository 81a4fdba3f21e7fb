/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table of tracked QPs (qp_hash.c): every rxe device's struct rtune_qp
 * entries in one RCU hash keyed by (device, QPN), and the LIVE ones also
 * in a second keyed by (device, peer QPN).
 *
 * Readers (the hooks, the worker, the configfs reads) walk them under
 * RCU; only qp_hash.c changes their membership, under rtune_qp_lock.
 */
#ifndef _ROCETUNE_QP_HASH_H
#define _ROCETUNE_QP_HASH_H

#include <linux/hashtable.h>

#include "datapath.h"

#define RTUNE_QP_HASH_BITS	12

extern unsigned int rtune_max_qps;
/* By (dp, qpn): read under RCU, changed under rtune_qp_lock. */
extern struct hlist_head rtune_qp_hash[1 << RTUNE_QP_HASH_BITS];

/* Every tracked QP of @dp; the caller holds rcu_read_lock(). */
#define rtune_dp_for_each_qp_rcu(dp, bkt, qp)			\
	hash_for_each_rcu(rtune_qp_hash, bkt, qp, node)		\
		if ((qp)->dp != (dp)) {} else

/* Lookups: the caller holds rcu_read_lock() (the hooks run under it). */
struct rtune_qp *rtune_qp_lookup(struct rtune_dp *dp, u32 qpn);
struct rtune_qp *rtune_qp_lookup_peer(struct rtune_dp *dp, u32 peer_qpn,
				      const struct in6_addr *peer);

/* Start tracking: RCU held, BH off or softirq. */
struct rtune_qp *rtune_qp_create(struct rtune_dp *dp, u32 qpn, gfp_t gfp);
struct rtune_qp *rtune_qp_get_or_create(struct rtune_dp *dp, u32 qpn);

/* The worker learned @qp's peer: hash it by peer and publish it LIVE. */
void rtune_qp_set_live(struct rtune_qp *qp);

/* Stop tracking @qp (counted as evicted); freed after a grace period. */
void rtune_qp_evict(struct rtune_qp *qp);

/* Stop tracking every QP of @dp (device removal; nothing counted). */
void rtune_qp_remove_all(struct rtune_dp *dp);

/* The number of QPs @dp tracks now. */
u32 rtune_dp_nqps(struct rtune_dp *dp);

#endif /* _ROCETUNE_QP_HASH_H */
