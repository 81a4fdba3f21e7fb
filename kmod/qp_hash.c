// SPDX-License-Identifier: GPL-2.0
/*
 * The table of tracked QPs: the two hashes (by QPN, and by peer QPN once
 * LIVE), their bound (the max_qps module parameter), and every change to
 * their membership: creation by the hooks or qp_ctl, publication as LIVE
 * and eviction by the worker, removal of a whole device's entries.
 *
 * Entries are created by the receive hook the first time a RoCEv2 packet
 * names a local QP, and queued for the device's worker (datapath.c) to
 * learn; the worker decides when one is LIVE or is to be evicted.
 *
 * Locking: readers walk the hashes under RCU; rtune_qp_lock (BH-safe)
 * serialises insertion and removal and the counts; entries are freed
 * after a grace period.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jhash.h>
#include <linux/module.h>

#include "rocetune.h"
#include "datapath.h"
#include "objects.h"
#include "qp_hash.h"

unsigned int rtune_max_qps = 16384;
module_param_named(max_qps, rtune_max_qps, uint, 0444);
MODULE_PARM_DESC(max_qps, "Most QPs the DCQCN datapath tracks (default 16384)");

DEFINE_HASHTABLE(rtune_qp_hash, RTUNE_QP_HASH_BITS);
static DEFINE_HASHTABLE(rtune_qp_peer_hash, RTUNE_QP_HASH_BITS);
/* Protects both hashes' membership, rtune_nqps and every dp->nqps. */
static DEFINE_SPINLOCK(rtune_qp_lock);
static unsigned int rtune_nqps;

static u32 rtune_qp_key(const struct rtune_dp *dp, u32 qpn)
{
	return jhash_2words((u32)(unsigned long)dp, qpn, 0);
}

struct rtune_qp *rtune_qp_lookup(struct rtune_dp *dp, u32 qpn)
{
	struct rtune_qp *qp;

	hash_for_each_possible_rcu(rtune_qp_hash, qp, node, rtune_qp_key(dp, qpn))
		if (qp->dp == dp && qp->qpn == qpn)
			return qp;
	return NULL;
}

/* The LIVE QP whose peer is (@peer, @peer_qpn). */
struct rtune_qp *rtune_qp_lookup_peer(struct rtune_dp *dp, u32 peer_qpn,
				      const struct in6_addr *peer)
{
	struct rtune_qp *qp;

	hash_for_each_possible_rcu(rtune_qp_peer_hash, qp, peer_node,
				   rtune_qp_key(dp, peer_qpn))
		if (qp->dp == dp && qp->peer_qpn == peer_qpn &&
		    ipv6_addr_equal(&qp->peer_addr, peer))
			return qp;
	return NULL;
}

static void rtune_qp_free_rcu(struct rcu_head *head)
{
	rtune_obj_free(RTUNE_OBJ_QP, container_of(head, struct rtune_qp, rcu));
}

/*
 * Allocate and publish an entry; caller holds RCU, BH off or softirq.
 *
 * The entry starts on the parameters read here. A commit that publishes
 * new ones between that read and the insertion re-fits every entry its
 * walk finds (rtune_dp_publish()), which may not include this one; so
 * after inserting, the parameters are read again and the entry re-fitted
 * if they changed. With a full barrier on both sides between the write
 * (insertion / new pointer) and the read (parameters / walk), at least one
 * of the two sees the other; re-fitting twice is harmless.
 */
struct rtune_qp *rtune_qp_create(struct rtune_dp *dp, u32 qpn, gfp_t gfp)
{
	const struct rtune_dp_params *p = rcu_dereference(dp->params);
	const struct rtune_dp_params *cur;
	struct rtune_qp *qp, *old;
	bool kick;

	if (READ_ONCE(rtune_nqps) >= rtune_max_qps) {
		atomic64_inc(&dp->cnt.qp_table_full);
		return NULL;
	}
	qp = rtune_obj_alloc(RTUNE_OBJ_QP, sizeof(*qp), gfp);
	if (!qp)
		return NULL;
	qp->dp = dp;
	qp->qpn = qpn;
	qp->state = RTUNE_QP_NEW;
	qp->last_seen = jiffies;
	qp->cc_enable = true;
	spin_lock_init(&qp->lock);
	dcqcn_rp_init(&qp->rp, &p->dc, rtune_now_us());
	dcqcn_np_init(&qp->np);
	/* Queued for learning from birth: the evictor leaves it alone. */
	set_bit(0, &qp->learn_queued);

	spin_lock_bh(&rtune_qp_lock);
	old = rtune_qp_lookup(dp, qpn);
	if (old || rtune_nqps >= rtune_max_qps) {
		spin_unlock_bh(&rtune_qp_lock);
		if (!old)
			atomic64_inc(&dp->cnt.qp_table_full);
		rtune_obj_free(RTUNE_OBJ_QP, qp);
		return old;
	}
	hash_add_rcu(rtune_qp_hash, &qp->node, rtune_qp_key(dp, qpn));
	rtune_nqps++;
	dp->nqps++;
	kick = llist_add(&qp->learn_node, &dp->learn);
	spin_unlock_bh(&rtune_qp_lock);
	/* Pairs with the smp_mb() in rtune_dp_publish(). */
	smp_mb();
	cur = rcu_dereference(dp->params);
	if (cur != p) {
		/* Just created: nothing to catch up on the old parameters. */
		spin_lock_bh(&qp->lock);
		dcqcn_rp_reparam(&qp->rp, &cur->dc, rtune_now_us());
		spin_unlock_bh(&qp->lock);
	}
	if (kick)
		mod_delayed_work(system_wq, &dp->work, 0);
	return qp;
}

/* The hooks' entry point: find or start tracking local QP @qpn. */
struct rtune_qp *rtune_qp_get_or_create(struct rtune_dp *dp, u32 qpn)
{
	struct rtune_qp *qp = rtune_qp_lookup(dp, qpn);

	if (qp) {
		/* Write only once a tick: the line is shared by CPUs. */
		if (time_after(jiffies, READ_ONCE(qp->last_seen)))
			WRITE_ONCE(qp->last_seen, jiffies);
		return qp;
	}
	return rtune_qp_create(dp, qpn, GFP_ATOMIC);
}

/*
 * @qp's peer_addr, peer_v6 and peer_qpn are set (by the worker, the only
 * writer): hash it by peer and publish it LIVE.
 */
void rtune_qp_set_live(struct rtune_qp *qp)
{
	spin_lock_bh(&rtune_qp_lock);
	hash_add_rcu(rtune_qp_peer_hash, &qp->peer_node,
		     rtune_qp_key(qp->dp, qp->peer_qpn));
	qp->peer_hashed = true;
	/* Peer fields are visible before the state says LIVE. */
	smp_store_release(&qp->state, RTUNE_QP_LIVE);
	spin_unlock_bh(&rtune_qp_lock);
}

/* Caller holds rtune_qp_lock. */
static void rtune_qp_unhash(struct rtune_qp *qp)
{
	hash_del_rcu(&qp->node);
	if (qp->peer_hashed)
		hash_del_rcu(&qp->peer_node);
	qp->peer_hashed = false;
	rtune_nqps--;
	qp->dp->nqps--;
}

/*
 * Only the worker of @qp's device evicts, so a walk of the hash under RCU
 * may evict the entry it stands on: it is freed after a grace period.
 */
void rtune_qp_evict(struct rtune_qp *qp)
{
	spin_lock_bh(&rtune_qp_lock);
	rtune_qp_unhash(qp);
	spin_unlock_bh(&rtune_qp_lock);
	atomic64_inc(&qp->dp->cnt.qp_evicted);
	call_rcu(&qp->rcu, rtune_qp_free_rcu);
}

/* No hook can reach @dp any more and its worker is stopped. */
void rtune_qp_remove_all(struct rtune_dp *dp)
{
	struct hlist_node *tmp;
	struct rtune_qp *qp;
	unsigned int bkt;

	spin_lock_bh(&rtune_qp_lock);
	hash_for_each_safe(rtune_qp_hash, bkt, tmp, qp, node) {
		if (qp->dp != dp)
			continue;
		rtune_qp_unhash(qp);
		call_rcu(&qp->rcu, rtune_qp_free_rcu);
	}
	spin_unlock_bh(&rtune_qp_lock);
}

u32 rtune_dp_nqps(struct rtune_dp *dp)
{
	u32 n;

	spin_lock_bh(&rtune_qp_lock);
	n = dp->nqps;
	spin_unlock_bh(&rtune_qp_lock);
	return n;
}
