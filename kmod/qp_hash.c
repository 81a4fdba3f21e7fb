// SPDX-License-Identifier: GPL-2.0
/*
 * The table of tracked QPs: the two hashes (by QPN, and by peer QPN once
 * LIVE) and each device's list of its entries, their bounds, and every
 * change to their membership: creation by the hooks or qp_ctl,
 * confirmation, publication as LIVE and withdrawal by the worker,
 * eviction, removal of a whole device's entries.
 *
 * Entries are created by the receive hook the first time a RoCEv2 packet
 * names a local QP, and queued for the device's worker (datapath.c) to
 * learn; the worker decides when one is confirmed, LIVE, or evicted.
 *
 * Bounds, per device, so that one device's traffic cannot starve
 * another's: an entry the hook creates is unconfirmed (seen on the wire
 * only; anyone can name any QPN) and takes one of max_unconfirmed_qps
 * slots, which it holds until the worker confirms it against restrack or
 * it is freed after its grace period: evicted entries still count, so a
 * flood costs at most that many entries, live or waiting to be freed,
 * and a refusal costs no allocation. Confirmed entries (real QPs of this
 * device) are bounded by max_qps on their own: unconfirmed ones can never
 * take their room, and are what a flood fills and the worker drops first.
 *
 * Locking: readers walk the hashes and the lists under RCU; rtune_qp_lock
 * (BH-safe) serialises insertion and removal and the counts it names;
 * entries are freed after a grace period.
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
MODULE_PARM_DESC(max_qps, "Most confirmed QPs the DCQCN datapath tracks per device (default 16384)");

unsigned int rtune_max_unconfirmed_qps = 1024;
module_param_named(max_unconfirmed_qps, rtune_max_unconfirmed_qps, uint, 0444);
MODULE_PARM_DESC(max_unconfirmed_qps,
		 "Most entries per device for QPNs seen on the wire and not yet confirmed, including evicted ones not yet freed (default 1024)");

/* By (dp, qpn): read under RCU, changed under rtune_qp_lock. */
static DEFINE_HASHTABLE(rtune_qp_hash, RTUNE_QP_HASH_BITS);
static DEFINE_HASHTABLE(rtune_qp_peer_hash, RTUNE_QP_HASH_BITS);
/*
 * Protects both hashes' membership, every dp->qps list, and each dp's
 * nqps and nconfirmed and each entry's confirmed and peer_hashed.
 */
static DEFINE_SPINLOCK(rtune_qp_lock);

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

/* Take one of @dp's unconfirmed slots if one is free; any context. */
static bool rtune_qp_take_unconfirmed(struct rtune_dp *dp)
{
	int n = atomic_read(&dp->nunconfirmed);

	do {
		if ((unsigned int)n >= READ_ONCE(rtune_max_unconfirmed_qps))
			return false;
	} while (!atomic_try_cmpxchg(&dp->nunconfirmed, &n, n + 1));
	return true;
}

/*
 * The device outlives this: rtune_dp_detach() waits for every callback
 * (rcu_barrier()) before it frees the rtune_dp.
 */
static void rtune_qp_free_rcu(struct rcu_head *head)
{
	struct rtune_qp *qp = container_of(head, struct rtune_qp, rcu);

	rtune_pacing_forget(qp);
	/* Only now does an unconfirmed entry give its slot back. */
	if (!qp->confirmed)
		atomic_dec(&qp->dp->nunconfirmed);
	rtune_obj_free(RTUNE_OBJ_QP, qp);
}

/* Whether @dp may have one more entry of this kind; rtune_qp_lock held. */
static bool rtune_qp_room(const struct rtune_dp *dp, bool confirmed)
{
	return !confirmed || dp->nconfirmed < READ_ONCE(rtune_max_qps);
}

static void rtune_qp_refused(struct rtune_dp *dp, bool confirmed)
{
	atomic64_inc(confirmed ? &dp->cnt.qp_table_full :
				 &dp->cnt.learn_refused_full);
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
struct rtune_qp *rtune_qp_create(struct rtune_dp *dp, u32 qpn, gfp_t gfp,
				 bool confirmed)
{
	const struct rtune_dp_params *p = rcu_dereference(dp->params);
	const struct rtune_dp_params *cur;
	struct rtune_qp *qp, *old;
	bool kick;

	/* Refuse before allocating: the common answer to a flood. */
	if (confirmed ? READ_ONCE(dp->nconfirmed) >= READ_ONCE(rtune_max_qps) :
			!rtune_qp_take_unconfirmed(dp)) {
		rtune_qp_refused(dp, confirmed);
		return NULL;
	}
	qp = rtune_obj_alloc(RTUNE_OBJ_QP, sizeof(*qp), gfp);
	if (!qp) {
		if (!confirmed) {
			atomic_dec(&dp->nunconfirmed);
			atomic64_inc(&dp->cnt.learn_refused_nomem);
		}
		return NULL;
	}
	qp->dp = dp;
	qp->qpn = qpn;
	qp->state = RTUNE_QP_NEW;
	qp->confirmed = confirmed;
	qp->last_seen = jiffies;
	qp->cc_enable = true;
	spin_lock_init(&qp->lock);
	dcqcn_rp_init(&qp->rp, &p->dc, rtune_now_us());
	dcqcn_np_init(&qp->np);
	/* Queued for learning from birth: the worker owns it. */
	set_bit(0, &qp->learn_queued);
	/* Test builds: a commit can be made to land here (create_delay_ms). */
	rtune_fault_qp_create();

	spin_lock_bh(&rtune_qp_lock);
	old = rtune_qp_lookup(dp, qpn);
	if (old || !rtune_qp_room(dp, confirmed)) {
		spin_unlock_bh(&rtune_qp_lock);
		if (!old)
			rtune_qp_refused(dp, confirmed);
		if (!confirmed)
			atomic_dec(&dp->nunconfirmed);
		rtune_obj_free(RTUNE_OBJ_QP, qp);
		return old;
	}
	hash_add_rcu(rtune_qp_hash, &qp->node, rtune_qp_key(dp, qpn));
	list_add_tail_rcu(&qp->dp_node, &dp->qps);
	dp->nqps++;
	if (confirmed)
		dp->nconfirmed++;
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
		rtune_dp_kick(dp);
	return qp;
}

/* A packet named @qp: note when, for the idle limit. */
void rtune_qp_seen(struct rtune_qp *qp)
{
	/* Write only once a tick: the line is shared by CPUs. */
	if (time_after(jiffies, READ_ONCE(qp->last_seen)))
		WRITE_ONCE(qp->last_seen, jiffies);
}

/*
 * An entry the worker does not own yet is still hashed (eviction needs
 * ownership), so the llist node is free for this.
 */
void rtune_qp_requeue(struct rtune_qp *qp)
{
	if (test_and_set_bit(0, &qp->learn_queued))
		return;
	if (llist_add(&qp->learn_node, &qp->dp->learn))
		rtune_dp_kick(qp->dp);
}

bool rtune_qp_confirm(struct rtune_qp *qp)
{
	struct rtune_dp *dp = qp->dp;
	bool ok;

	spin_lock_bh(&rtune_qp_lock);
	ok = rtune_qp_room(dp, true);
	if (ok) {
		dp->nconfirmed++;
		qp->confirmed = true;
	}
	spin_unlock_bh(&rtune_qp_lock);
	if (ok)
		atomic_dec(&dp->nunconfirmed);
	return ok;
}

/* The slot of @dp's path table that the flows to @peer share. */
static struct dcqcn_path *rtune_dp_path(struct rtune_dp *dp,
					const struct in6_addr *peer)
{
	u32 h = jhash(peer, sizeof(*peer), dp->path_seed);

	return &dp->paths[h & (RTUNE_PATH_SLOTS - 1)];
}

void rtune_qp_set_live(struct rtune_qp *qp)
{
	struct dcqcn_path *path = rtune_dp_path(qp->dp, &qp->peer_addr);

	/* Before LIVE, so the flow's first CNP is noted on its path. */
	spin_lock_bh(&qp->lock);
	dcqcn_rp_set_path(&qp->rp, path);
	spin_unlock_bh(&qp->lock);

	spin_lock_bh(&rtune_qp_lock);
	hash_add_rcu(rtune_qp_peer_hash, &qp->peer_node,
		     rtune_qp_key(qp->dp, qp->peer_qpn));
	qp->peer_hashed = true;
	/* Peer fields are visible before the state says LIVE. */
	smp_store_release(&qp->state, RTUNE_QP_LIVE);
	spin_unlock_bh(&rtune_qp_lock);
}

void rtune_qp_unpublish(struct rtune_qp *qp, u8 state)
{
	spin_lock_bh(&rtune_qp_lock);
	if (qp->peer_hashed)
		hash_del_rcu(&qp->peer_node);
	qp->peer_hashed = false;
	WRITE_ONCE(qp->state, state);
	spin_unlock_bh(&rtune_qp_lock);
}

/* Caller holds rtune_qp_lock. */
static void rtune_qp_unhash(struct rtune_qp *qp)
{
	hash_del_rcu(&qp->node);
	list_del_rcu(&qp->dp_node);
	if (qp->peer_hashed)
		hash_del_rcu(&qp->peer_node);
	qp->peer_hashed = false;
	qp->dp->nqps--;
	if (qp->confirmed)
		qp->dp->nconfirmed--;
}

/*
 * Only the worker of @qp's device evicts, and only entries it owns
 * (learn_queued set, never cleared again), so no hook can queue an entry
 * that is about to be freed. A walk under RCU may evict the entry it
 * stands on: it is freed after a grace period.
 */
void rtune_qp_evict(struct rtune_qp *qp, atomic64_t *why)
{
	spin_lock_bh(&rtune_qp_lock);
	rtune_qp_unhash(qp);
	spin_unlock_bh(&rtune_qp_lock);
	atomic64_inc(&qp->dp->cnt.qp_evicted);
	atomic64_inc(why);
	rtune_call_rcu(&qp->rcu, rtune_qp_free_rcu);
}

/*
 * No hook can reach @dp any more and its worker is stopped; the caller
 * waits for the callbacks (rcu_barrier()) before freeing @dp.
 */
void rtune_qp_remove_all(struct rtune_dp *dp)
{
	struct rtune_qp *qp, *tmp;

	spin_lock_bh(&rtune_qp_lock);
	list_for_each_entry_safe(qp, tmp, &dp->qps, dp_node) {
		rtune_qp_unhash(qp);
		rtune_call_rcu(&qp->rcu, rtune_qp_free_rcu);
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
