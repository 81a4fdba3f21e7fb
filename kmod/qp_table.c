// SPDX-License-Identifier: GPL-2.0
/*
 * The per-QP table of the software DCQCN datapath, and each rxe device's
 * datapath state (struct rtune_dp).
 *
 * Entries are created by the receive hook the first time a RoCEv2 packet
 * names a local QP (data on the receiver, ACKs on the sender), so both
 * ends of every connection get one. The hooks cannot ask the RDMA core
 * about a QP (restrack's lock is a plain spinlock, query_qp may sleep),
 * so a new entry is queued to the device's worker, which resolves it in
 * process context: restrack must know the QPN (else the entry is
 * dropped: that is how packets naming made-up QPs are forgotten), and an
 * RC/UC QP in RTR or later gives its peer's QPN and address. Only then is
 * the entry LIVE: the notification point answers its CE marks with CNPs,
 * the reaction point accepts CNPs for it, and its packets are paced.
 *
 * Bounds: at most rtune_max_qps entries in all; the worker re-checks every
 * entry once a second and evicts those restrack no longer knows.
 *
 * Locking: readers (the hooks, the bulk read) walk the hashes under RCU.
 * rtune_qp_lock (BH-safe) serialises insertion and removal and the counts;
 * entries are freed after a grace period. rtune_dp_mutex serialises device
 * attach/detach and parameter commits. Per-QP state has its own lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jhash.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/restrack.h>

#include "rocetune.h"
#include "datapath.h"
#include "compat/compat.h"
#include "objects.h"

unsigned int rtune_max_qps = 16384;
module_param_named(max_qps, rtune_max_qps, uint, 0444);
MODULE_PARM_DESC(max_qps, "Most QPs the DCQCN datapath tracks (default 16384)");

#define RTUNE_QP_HASH_BITS		12
#define RTUNE_WORK_PERIOD		HZ
/* A QP not connected yet is retried for this long before it is dropped. */
#define RTUNE_QP_NEW_TTL		(30 * HZ)

static DEFINE_HASHTABLE(rtune_qp_hash, RTUNE_QP_HASH_BITS);
static DEFINE_HASHTABLE(rtune_qp_peer_hash, RTUNE_QP_HASH_BITS);
/* Protects both hashes' membership, rtune_nqps and every dp->nqps. */
static DEFINE_SPINLOCK(rtune_qp_lock);
static unsigned int rtune_nqps;

/* rtune_dp_list: RCU readers; changes and commits under rtune_dp_mutex. */
static LIST_HEAD(rtune_dp_list);
static DEFINE_MUTEX(rtune_dp_mutex);

u64 rtune_now_us(void)
{
	return div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

static u32 rtune_qp_key(const struct rtune_dp *dp, u32 qpn)
{
	return jhash_2words((u32)(unsigned long)dp, qpn, 0);
}

struct rtune_dp *rtune_dp_by_ifindex(int ifindex)
{
	struct rtune_dp *dp;

	list_for_each_entry_rcu(dp, &rtune_dp_list, list)
		if (dp->ifindex == ifindex)
			return dp;
	return NULL;
}

/* Caller holds rcu_read_lock() (the hooks run under it). */
struct rtune_qp *rtune_qp_lookup(struct rtune_dp *dp, u32 qpn)
{
	struct rtune_qp *qp;

	hash_for_each_possible_rcu(rtune_qp_hash, qp, node, rtune_qp_key(dp, qpn))
		if (qp->dp == dp && qp->qpn == qpn)
			return qp;
	return NULL;
}

/* The LIVE QP whose peer is (@peer, @peer_qpn); caller holds RCU. */
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

static void rtune_dp_params_free_rcu(struct rcu_head *head)
{
	rtune_obj_free(RTUNE_OBJ_DP_PARAMS,
		    container_of(head, struct rtune_dp_params, rcu));
}

static void rtune_qp_free_rcu(struct rcu_head *head)
{
	rtune_obj_free(RTUNE_OBJ_QP, container_of(head, struct rtune_qp, rcu));
}

static struct rtune_dp_params *rtune_dp_params_new(const struct rtune_param_set *set,
					     gfp_t gfp)
{
	static atomic_t gen = ATOMIC_INIT(0);
	struct rtune_dp_params *p = rtune_obj_alloc(RTUNE_OBJ_DP_PARAMS, sizeof(*p), gfp);

	if (!p)
		return NULL;
	/* 0 means "not idle" to rtune_qp.idle_gen: skip it when gen wraps. */
	do {
		p->gen = atomic_inc_return(&gen);
	} while (!p->gen);
	/* The set passed rtune_params_validate() on commit: cannot fail. */
	if (dcqcn_params_from_set(set, 0, &p->dc)) {
		rtune_obj_free(RTUNE_OBJ_DP_PARAMS, p);
		return NULL;
	}
	p->rp_prios = set->v[RTUNE_P_RP_ENABLED_PRIOS];
	p->np_prios = set->v[RTUNE_P_NP_ENABLED_PRIOS];
	p->ecn_prios = set->v[RTUNE_P_ECN_ENABLED_PRIOS];
	p->ecn_codepoint = set->v[RTUNE_P_ECN_CODEPOINT];
	p->cnp_tos = set->v[RTUNE_P_NP_CNP_DSCP] << 2 | set->v[RTUNE_P_NP_CNP_ECN];
	p->cnp_prio = set->v[RTUNE_P_NP_CNP_PRIO];
	/*
	 * rxe's line rate is unknown (0), so an explicit rp_max_rate_kbps is
	 * the only ceiling there is: enforce it, or a QP at the maximum (every
	 * QP before its first CNP) sends as fast as rxe can.
	 */
	p->pace_at_max = set->v[RTUNE_P_RP_MAX_RATE_KBPS] != 0;
	return p;
}

/* Allocate and publish an entry; caller holds RCU, BH off or softirq. */
static struct rtune_qp *rtune_qp_create(struct rtune_dp *dp, u32 qpn, gfp_t gfp)
{
	const struct rtune_dp_params *p = rcu_dereference(dp->params);
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

static void rtune_qp_evict(struct rtune_qp *qp)
{
	spin_lock_bh(&rtune_qp_lock);
	rtune_qp_unhash(qp);
	spin_unlock_bh(&rtune_qp_lock);
	atomic64_inc(&qp->dp->cnt.qp_evicted);
	call_rcu(&qp->rcu, rtune_qp_free_rcu);
}

/*
 * Resolve @qp through the RDMA core; process context (the worker).
 * Returns false if restrack does not know the QPN: the caller evicts.
 */
static bool rtune_qp_learn(struct rtune_dp *dp, struct rtune_qp *qp)
{
	struct ib_device *ibdev = dp->dev->ibdev;
	struct rdma_restrack_entry *res;
	struct ib_qp_init_attr init = {};
	struct ib_qp_attr attr = {};
	const struct ib_global_route *grh;
	struct ib_qp *ibqp;
	int err;

	res = rdma_restrack_get_byid(ibdev, RDMA_RESTRACK_QP, qp->qpn);
	if (IS_ERR(res))
		return false;
	ibqp = container_of(res, struct ib_qp, res);
	if (READ_ONCE(qp->state) != RTUNE_QP_NEW)
		goto out;
	if (ibqp->qp_type != IB_QPT_RC && ibqp->qp_type != IB_QPT_UC) {
		WRITE_ONCE(qp->state, RTUNE_QP_UNSUPPORTED);
		goto out;
	}
	err = ib_query_qp(ibqp, &attr, IB_QP_STATE | IB_QP_AV | IB_QP_DEST_QPN,
			  &init);
	if (err || attr.qp_state < IB_QPS_RTR ||
	    !(rdma_ah_get_ah_flags(&attr.ah_attr) & IB_AH_GRH))
		goto out;		/* not connected yet: retried later */
	grh = rdma_ah_read_grh(&attr.ah_attr);
	memcpy(&qp->peer_addr, grh->dgid.raw, sizeof(qp->peer_addr));
	qp->peer_v6 = !ipv6_addr_v4mapped(&qp->peer_addr);
	qp->peer_qpn = attr.dest_qp_num;

	spin_lock_bh(&rtune_qp_lock);
	hash_add_rcu(rtune_qp_peer_hash, &qp->peer_node,
		     rtune_qp_key(dp, qp->peer_qpn));
	qp->peer_hashed = true;
	/* Peer fields are visible before the state says LIVE. */
	smp_store_release(&qp->state, RTUNE_QP_LIVE);
	spin_unlock_bh(&rtune_qp_lock);
out:
	rdma_restrack_put(res);
	return true;
}

static bool rtune_qp_known(struct rtune_dp *dp, u32 qpn)
{
	struct rdma_restrack_entry *res;

	res = rdma_restrack_get_byid(dp->dev->ibdev, RDMA_RESTRACK_QP, qpn);
	if (IS_ERR(res))
		return false;
	rdma_restrack_put(res);
	return true;
}

static void rtune_dp_work(struct work_struct *work)
{
	struct rtune_dp *dp = container_of(to_delayed_work(work), struct rtune_dp,
					work);
	struct llist_node *batch;
	struct rtune_qp *qp, *next;
	unsigned int bkt;
	char id[IFNAMSIZ];

	/* New entries first. */
	batch = llist_del_all(&dp->learn);
	llist_for_each_entry_safe(qp, next, batch, learn_node) {
		clear_bit(0, &qp->learn_queued);
		if (!rtune_qp_learn(dp, qp))
			rtune_qp_evict(qp);
	}

	/*
	 * Then every entry: drop the QPs restrack forgot, retry the ones
	 * not connected yet. Only this worker evicts entries of @dp, so the
	 * walk may sleep between entries' RCU sections.
	 */
	rcu_read_lock();
	hash_for_each_rcu(rtune_qp_hash, bkt, qp, node) {
		bool keep;
		u8 state;

		if (qp->dp != dp || test_bit(0, &qp->learn_queued))
			continue;
		state = READ_ONCE(qp->state);
		/* The RDMA core calls below may sleep: hold no RCU. */
		rcu_read_unlock();
		if (state == RTUNE_QP_NEW)
			keep = rtune_qp_learn(dp, qp) &&
			       (READ_ONCE(qp->state) != RTUNE_QP_NEW ||
				time_before(jiffies, READ_ONCE(qp->last_seen) +
					    RTUNE_QP_NEW_TTL));
		else
			keep = rtune_qp_known(dp, qp->qpn);
		rcu_read_lock();
		/*
		 * @qp stays valid across the gap: it is ours to free, and
		 * it is freed only after a grace period that starts after
		 * this walk goes on to the next node.
		 */
		if (!keep) {
			spin_lock_bh(&rtune_qp_lock);
			rtune_qp_unhash(qp);
			spin_unlock_bh(&rtune_qp_lock);
			atomic64_inc(&dp->cnt.qp_evicted);
			call_rcu(&qp->rcu, rtune_qp_free_rcu);
		}
	}
	rcu_read_unlock();

	rtune_pacing_check(dp, id, sizeof(id), true);
	schedule_delayed_work(&dp->work, RTUNE_WORK_PERIOD);
}

int rtune_dp_attach(struct rtune_dev *dev)
{
	struct rtune_port *port = &dev->ports[0];
	const struct rtune_param_set *set;
	struct rtune_dp_params *params;
	struct net_device *ndev;
	struct rtune_dp *dp;
	char id[IFNAMSIZ];
	int err = -ENOMEM;

	if (!dev->has_backend)
		return 0;
	dp = rtune_obj_alloc(RTUNE_OBJ_DP, sizeof(*dp), GFP_KERNEL);
	if (!dp)
		return -ENOMEM;
	mutex_lock(&port->lock);
	set = rcu_dereference_protected(port->active,
					lockdep_is_held(&port->lock));
	params = rtune_dp_params_new(set, GFP_KERNEL);
	mutex_unlock(&port->lock);
	if (!params)
		goto err_free;
	ndev = rtune_compat_ib_get_netdev(dev->ibdev, port->num);
	if (!ndev) {
		err = -ENODEV;
		goto err_params;
	}
	dp->ifindex = ndev->ifindex;
	dev_put(ndev);
	dp->dev = dev;
	dp->port = port;
	RCU_INIT_POINTER(dp->params, params);
	init_llist_head(&dp->learn);
	INIT_DELAYED_WORK(&dp->work, rtune_dp_work);
	rtune_pacing_check(dp, id, sizeof(id), true);

	mutex_lock(&rtune_dp_mutex);
	list_add_tail_rcu(&dp->list, &rtune_dp_list);
	dev->dp = dp;
	mutex_unlock(&rtune_dp_mutex);
	schedule_delayed_work(&dp->work, RTUNE_WORK_PERIOD);
	return 0;

err_params:
	rtune_obj_free(RTUNE_OBJ_DP_PARAMS, params);
err_free:
	rtune_obj_free(RTUNE_OBJ_DP, dp);
	return err;
}

/*
 * Stop the datapath of @dev: after this no hook and no worker touches it.
 * Called from ib_client remove, after the configfs directory is gone.
 */
void rtune_dp_detach(struct rtune_dev *dev)
{
	struct rtune_dp *dp = dev->dp;
	struct hlist_node *tmp;
	struct rtune_qp *qp;
	unsigned int bkt;

	if (!dp)
		return;
	mutex_lock(&rtune_dp_mutex);
	list_del_rcu(&dp->list);
	dev->dp = NULL;
	mutex_unlock(&rtune_dp_mutex);
	/* Hooks run under RCU: after this none can find @dp or queue work. */
	synchronize_net();
	cancel_delayed_work_sync(&dp->work);

	spin_lock_bh(&rtune_qp_lock);
	hash_for_each_safe(rtune_qp_hash, bkt, tmp, qp, node) {
		if (qp->dp != dp)
			continue;
		rtune_qp_unhash(qp);
		call_rcu(&qp->rcu, rtune_qp_free_rcu);
	}
	spin_unlock_bh(&rtune_qp_lock);
	/* No reader of dp->params is left (synchronize_net above). */
	rtune_obj_free(RTUNE_OBJ_DP_PARAMS, rcu_dereference_protected(dp->params, true));
	rtune_obj_free(RTUNE_OBJ_DP, dp);
}

/*
 * A commit on @port, in two steps so that it stays all or nothing: the
 * datapath's copy of @set is made before the active set is replaced (an
 * allocation failure fails the commit), then published with the new set.
 * Returns NULL when @port has no datapath, or an ERR_PTR.
 */
struct rtune_dp_params *rtune_dp_prepare(struct rtune_dev *dev, struct rtune_port *port,
				   const struct rtune_param_set *set)
{
	struct rtune_dp_params *next;

	if (!dev->dp || dev->dp->port != port)
		return NULL;
	next = rtune_dp_params_new(set, GFP_KERNEL);
	return next ?: ERR_PTR(-ENOMEM);
}

/*
 * Publish @next (from rtune_dp_prepare) and re-fit every flow to it. The
 * caller holds port->lock, so commits publish in the order they took
 * effect; the device's datapath cannot go away meanwhile (commits come
 * from configfs, whose directory is gone before the datapath detaches).
 */
void rtune_dp_publish(struct rtune_dev *dev, struct rtune_port *port,
		   struct rtune_dp_params *next)
{
	struct rtune_dp_params *prev;
	struct rtune_dp *dp;
	struct rtune_qp *qp;
	unsigned int bkt;
	u64 now;

	lockdep_assert_held(&port->lock);
	mutex_lock(&rtune_dp_mutex);
	dp = dev->dp;
	if (WARN_ON_ONCE(!dp || dp->port != port)) {
		mutex_unlock(&rtune_dp_mutex);
		rtune_obj_free(RTUNE_OBJ_DP_PARAMS, next);
		return;
	}
	prev = rcu_replace_pointer(dp->params, next,
				   lockdep_is_held(&rtune_dp_mutex));
	now = rtune_now_us();
	rcu_read_lock();
	hash_for_each_rcu(rtune_qp_hash, bkt, qp, node) {
		if (qp->dp != dp)
			continue;
		spin_lock_bh(&qp->lock);
		dcqcn_rp_advance(&qp->rp, &prev->dc, now);
		dcqcn_rp_reparam(&qp->rp, &next->dc, now);
		spin_unlock_bh(&qp->lock);
	}
	rcu_read_unlock();
	mutex_unlock(&rtune_dp_mutex);
	call_rcu(&prev->rcu, rtune_dp_params_free_rcu);
}

/* Tunables and per-QP reads from configfs (process context). */

static const char *const rtune_qp_state_names[] = {
	[RTUNE_QP_NEW] = "new",
	[RTUNE_QP_LIVE] = "live",
	[RTUNE_QP_UNSUPPORTED] = "unsupported",
};

struct rtune_qp_snap {
	u32 qpn, peer_qpn, rate_kbps, target_kbps, alpha, rate_cap_kbps;
	u64 increases, since_cnp_us;
	bool cc_enable, has_cnp;
	u8 state;
	struct rtune_qp_counters cnt;
};

static void rtune_qp_snapshot(struct rtune_qp *qp, struct rtune_qp_snap *s)
{
	const struct rtune_dp_params *p = rcu_dereference(qp->dp->params);
	u64 now_ns = ktime_get_ns();

	s->qpn = qp->qpn;
	/* Pairs with rtune_qp_learn(): peer fields are valid once LIVE. */
	s->state = smp_load_acquire(&qp->state);
	s->peer_qpn = s->state == RTUNE_QP_LIVE ? qp->peer_qpn : 0;
	spin_lock_bh(&qp->lock);
	dcqcn_rp_advance(&qp->rp, &p->dc, div_u64(now_ns, NSEC_PER_USEC));
	s->rate_kbps = dcqcn_rp_rate_kbps(&qp->rp);
	s->target_kbps = dcqcn_rp_target_kbps(&qp->rp);
	s->alpha = dcqcn_rp_alpha(&qp->rp);
	s->increases = qp->rp.stats.fast_recovery + qp->rp.stats.additive +
		       qp->rp.stats.hyper;
	s->cc_enable = qp->cc_enable;
	s->rate_cap_kbps = qp->rate_cap_kbps;
	s->cnt = qp->cnt;
	spin_unlock_bh(&qp->lock);
	s->has_cnp = s->cnt.last_cnp_ns != 0;
	s->since_cnp_us = s->has_cnp ?
		div_u64(now_ns - s->cnt.last_cnp_ns, NSEC_PER_USEC) : 0;
}

#define RTUNE_QP_LINE_HEADER \
	"qpn peer_qpn state rate_kbps target_kbps alpha_1024ths cnp_sent cnp_rcvd cnp_rejected ce_rcvd paced_pkts paced_bytes rate_cuts rate_increases since_last_cnp_us cc_enable rate_cap_kbps\n"
/* Longest line: 17 fields of at most 20 digits and a separator. */
#define RTUNE_QP_LINE_MAX	(17 * 21 + 1)

/* Format @qp (caller holds RCU) as one line, or as "name value" lines. */
ssize_t rtune_qp_format(struct rtune_qp *qp, char *buf, size_t len, bool line)
{
	struct rtune_qp_snap s;
	char since[24];
	u32 alpha;

	rtune_qp_snapshot(qp, &s);
	alpha = (u32)(((u64)s.alpha * 1024) >> DCQCN_ALPHA_SHIFT);
	if (s.has_cnp)
		snprintf(since, sizeof(since), "%llu", s.since_cnp_us);
	else
		strscpy(since, "-", sizeof(since));
	if (line)
		return scnprintf(buf, len,
				 "%u %u %s %u %u %u %llu %llu %llu %llu %llu %llu %llu %llu %s %u %u\n",
				 s.qpn, s.peer_qpn, rtune_qp_state_names[s.state],
				 s.rate_kbps, s.target_kbps, alpha,
				 s.cnt.cnp_sent, s.cnt.cnp_rcvd,
				 s.cnt.cnp_rejected, s.cnt.ce_rcvd,
				 s.cnt.paced_pkts, s.cnt.paced_bytes,
				 s.cnt.rate_cuts, s.increases, since,
				 s.cc_enable, s.rate_cap_kbps);
	return scnprintf(buf, len,
			 "qpn %u\npeer_qpn %u\nstate %s\nrate_kbps %u\ntarget_kbps %u\nalpha_1024ths %u\ncnp_sent %llu\ncnp_rcvd %llu\ncnp_rejected %llu\nce_rcvd %llu\npaced_pkts %llu\npaced_bytes %llu\nrate_cuts %llu\nrate_increases %llu\nsince_last_cnp_us %s\ncc_enable %u\nrate_cap_kbps %u\n",
			 s.qpn, s.peer_qpn, rtune_qp_state_names[s.state],
			 s.rate_kbps, s.target_kbps, alpha,
			 s.cnt.cnp_sent, s.cnt.cnp_rcvd, s.cnt.cnp_rejected,
			 s.cnt.ce_rcvd, s.cnt.paced_pkts, s.cnt.paced_bytes,
			 s.cnt.rate_cuts, s.increases, since,
			 s.cc_enable, s.rate_cap_kbps);
}

/*
 * The bulk table: a header and one line per QP of @dp. With @buf NULL,
 * return an upper bound of its size; else write only whole lines that
 * fit in @len, so QPs that appeared since are left out, never cut in
 * half, and return the length written. See qp_stats.c for the reader.
 */
ssize_t rtune_qp_stats_format(struct rtune_dp *dp, char *buf, size_t len)
{
	char line[RTUNE_QP_LINE_MAX];
	struct rtune_qp *qp;
	unsigned int bkt;
	size_t n;

	if (!buf) {
		spin_lock_bh(&rtune_qp_lock);
		n = (size_t)(dp->nqps + 16) * RTUNE_QP_LINE_MAX;
		spin_unlock_bh(&rtune_qp_lock);
		return n + sizeof(RTUNE_QP_LINE_HEADER);
	}
	n = strscpy(buf, RTUNE_QP_LINE_HEADER, len);
	if ((ssize_t)n < 0)
		return 0;
	rcu_read_lock();
	hash_for_each_rcu(rtune_qp_hash, bkt, qp, node) {
		ssize_t l;

		if (qp->dp != dp)
			continue;
		l = rtune_qp_format(qp, line, sizeof(line), true);
		if (n + l > len)
			break;
		memcpy(buf + n, line, l);
		n += l;
	}
	rcu_read_unlock();
	return n;
}

ssize_t rtune_qp_ctl_show(struct rtune_dp *dp, char *page)
{
	struct rtune_qp *qp;
	unsigned int bkt;
	ssize_t n = 0;

	rcu_read_lock();
	hash_for_each_rcu(rtune_qp_hash, bkt, qp, node) {
		bool en;
		u32 cap;

		if (qp->dp != dp)
			continue;
		spin_lock_bh(&qp->lock);
		en = qp->cc_enable;
		cap = qp->rate_cap_kbps;
		spin_unlock_bh(&qp->lock);
		if (en && !cap)
			continue;
		n += sysfs_emit_at(page, n, "%u cc_enable=%u rate_cap_kbps=%u\n",
				   qp->qpn, en, cap);
	}
	rcu_read_unlock();
	return n;
}

/*
 * "QPN cc_enable=0|1" or "QPN rate_cap_kbps=N" (0 = no cap). The QP must
 * exist (restrack); it is tracked from now on if it was not.
 */
int rtune_qp_ctl_store(struct rtune_dp *dp, const char *buf, size_t len)
{
	char tmp[64], *val, *sp;
	struct rtune_qp *qp;
	u32 qpn, v;
	int err;

	if (!len || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	sp = strchr(tmp, ' ');
	val = sp ? strchr(sp, '=') : NULL;
	if (!sp || !val)
		return -EINVAL;
	*sp++ = '\0';
	*val++ = '\0';
	if (rtune_parse_u32(tmp, strlen(tmp), &qpn) || qpn > 0xffffff ||
	    rtune_parse_u32(val, strlen(val), &v))
		return -EINVAL;
	if (strcmp(sp, "cc_enable") && strcmp(sp, "rate_cap_kbps"))
		return -EINVAL;
	if (!strcmp(sp, "cc_enable") && v > 1)
		return -EINVAL;
	if (!rtune_qp_known(dp, qpn))
		return -ENOENT;

	rcu_read_lock();
	qp = rtune_qp_lookup(dp, qpn);
	if (!qp) {
		local_bh_disable();
		qp = rtune_qp_create(dp, qpn, GFP_ATOMIC);
		local_bh_enable();
	}
	err = qp ? 0 : -ENOSPC;
	if (qp) {
		spin_lock_bh(&qp->lock);
		if (!strcmp(sp, "cc_enable"))
			qp->cc_enable = v;
		else
			qp->rate_cap_kbps = v;
		WRITE_ONCE(qp->idle_gen, 0);
		spin_unlock_bh(&qp->lock);
	}
	rcu_read_unlock();
	return err;
}
