// SPDX-License-Identifier: GPL-2.0
/*
 * Each rxe device's datapath state (struct rtune_dp): attach and detach,
 * the parameters in the hooks' units (made from a port's active set at
 * attach and at each commit), the port counters, and the worker.
 *
 * The hooks cannot ask the RDMA core about a QP (restrack's lock is a
 * plain spinlock, query_qp may sleep), so the entries they create
 * (qp_hash.c) are queued to the device's worker, which resolves them in
 * process context: restrack must know the QPN (else the entry is
 * dropped: that is how packets naming made-up QPs are forgotten), and an
 * RC/UC QP in RTR or later gives its peer's QPN and address. Only then is
 * the entry LIVE: the notification point answers its CE marks with CNPs,
 * the reaction point accepts CNPs for it, and its packets are paced. The
 * worker also re-checks every entry once a second, evicts those restrack
 * no longer knows, and checks the egress qdisc (pacing.c).
 *
 * Locking: rtune_dp_list is read under RCU by the hooks; rtune_dp_mutex
 * serialises device attach/detach and parameter commits.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/netdevice.h>
#include <rdma/ib_cache.h>
#include <rdma/restrack.h>

#include "rocetune.h"
#include "datapath.h"
#include "compat/compat.h"
#include "objects.h"
#include "qp_hash.h"

#define RTUNE_WORK_PERIOD		HZ
/* A QP not connected yet is retried for this long before it is dropped. */
#define RTUNE_QP_NEW_TTL		(30 * HZ)

/* rtune_dp_list: RCU readers; changes and commits under rtune_dp_mutex. */
static LIST_HEAD(rtune_dp_list);
static DEFINE_MUTEX(rtune_dp_mutex);

/* Caller holds rcu_read_lock() (the hooks run under it). */
struct rtune_dp *rtune_dp_by_ifindex(int ifindex)
{
	struct rtune_dp *dp;

	list_for_each_entry_rcu(dp, &rtune_dp_list, list)
		if (dp->ifindex == ifindex)
			return dp;
	return NULL;
}

static void rtune_dp_params_free_rcu(struct rcu_head *head)
{
	rtune_obj_free(RTUNE_OBJ_DP_PARAMS,
		       container_of(head, struct rtune_dp_params, rcu));
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
	rtune_qp_set_live(qp);
out:
	rdma_restrack_put(res);
	return true;
}

/* Whether restrack knows QP @qpn of @dp's device; may sleep. */
bool rtune_qp_known(struct rtune_dp *dp, u32 qpn)
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
	rtune_dp_for_each_qp_rcu(dp, bkt, qp) {
		bool keep;
		u8 state;

		if (test_bit(0, &qp->learn_queued))
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
		if (!keep)
			rtune_qp_evict(qp);
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

	if (!dp)
		return;
	mutex_lock(&rtune_dp_mutex);
	list_del_rcu(&dp->list);
	dev->dp = NULL;
	mutex_unlock(&rtune_dp_mutex);
	/* Hooks run under RCU: after this none can find @dp or queue work. */
	synchronize_net();
	cancel_delayed_work_sync(&dp->work);

	rtune_qp_remove_all(dp);
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
	/*
	 * Pairs with the smp_mb() in rtune_qp_create(): an entry this walk
	 * misses sees @next there and re-fits itself.
	 */
	smp_mb();
	now = rtune_now_us();
	rcu_read_lock();
	rtune_dp_for_each_qp_rcu(dp, bkt, qp) {
		spin_lock_bh(&qp->lock);
		dcqcn_rp_advance(&qp->rp, &prev->dc, now);
		dcqcn_rp_reparam(&qp->rp, &next->dc, now);
		spin_unlock_bh(&qp->lock);
	}
	rcu_read_unlock();
	mutex_unlock(&rtune_dp_mutex);
	call_rcu(&prev->rcu, rtune_dp_params_free_rcu);
}

ssize_t rtune_dp_counters_show(struct rtune_dp *dp, char *page)
{
	const struct rtune_dp_counters *c = &dp->cnt;
	u32 nqps = READ_ONCE(dp->nqps);

	return sysfs_emit(page,
			  "qps %u\nqps_max %u\ncnp_rejected_unknown_qp %lld\ncnp_rejected_bad_icrc %lld\ncnp_send_failed %lld\nqp_table_full %lld\nqp_evicted %lld\nunpaced_pkts %lld\nect_marked_pkts %lld\ntx_not_rxe_pkts %lld\nce_rejected_not_peer %lld\nce_rejected_not_live %lld\nce_rejected_not_unicast %lld\npacing_clamped_pkts %lld\n",
			  nqps, rtune_max_qps,
			  atomic64_read(&c->cnp_rejected_unknown_qp),
			  atomic64_read(&c->cnp_rejected_bad_icrc),
			  atomic64_read(&c->cnp_send_failed),
			  atomic64_read(&c->qp_table_full),
			  atomic64_read(&c->qp_evicted),
			  atomic64_read(&c->unpaced_pkts),
			  atomic64_read(&c->ect_marked_pkts),
			  atomic64_read(&c->tx_not_rxe_pkts),
			  atomic64_read(&c->ce_rejected_not_peer),
			  atomic64_read(&c->ce_rejected_not_live),
			  atomic64_read(&c->ce_rejected_not_unicast),
			  atomic64_read(&c->pacing_clamped_pkts));
}
