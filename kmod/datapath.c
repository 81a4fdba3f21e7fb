// SPDX-License-Identifier: GPL-2.0
/*
 * Each rxe device's datapath state (struct rtune_dp): attach and detach,
 * the parameters in the hooks' units (made from a port's active set at
 * attach and at each commit), the port counters, and the worker.
 *
 * The hooks cannot ask the RDMA core about a QP (restrack's lock is a
 * plain spinlock, query_qp may sleep), so the entries they create
 * (qp_hash.c) are queued to the device's worker, which resolves them in
 * process context (rtune_qp_check()). Only a LIVE entry's QP gets CC:
 * the notification point answers its CE marks with CNPs, the reaction
 * point accepts CNPs for it, and its packets are paced. Once a second the
 * worker checks every entry of its device again (the QP may be gone, or
 * reset and reconnected to another peer) and the egress qdisc
 * (pacing.c); a hook that sees a live QP's packets from another source
 * asks for a check sooner (rtune_qp_requeue()).
 *
 * Locking: rtune_dp_list is read under RCU by the hooks; rtune_dp_mutex
 * serialises device attach/detach and parameter commits. The worker is
 * one work item per device, so its runs never overlap; it alone evicts
 * that device's entries (qp_hash.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <rdma/ib_cache.h>
#include <rdma/restrack.h>

#include "rocetune.h"
#include "datapath.h"
#include "compat/compat.h"
#include "objects.h"
#include "qp_hash.h"

#define RTUNE_WORK_PERIOD		HZ
/* From a kick to the worker's run: entries queued meanwhile join it. */
#define RTUNE_LEARN_DELAY		(HZ / 50 ?: 1)
#define RTUNE_NEW_QP_TTL_MAX		86400

/*
 * How long an entry of a QP that is not connected (before RTR, or reset)
 * and has no qp_ctl setting is kept without a packet naming it. Writable,
 * so that tests need not wait the default out.
 */
static unsigned int rtune_new_qp_ttl_s = 30;

static int rtune_new_qp_ttl_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int err = kstrtouint(val, 0, &v);

	if (err)
		return err;
	if (!v || v > RTUNE_NEW_QP_TTL_MAX)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static const struct kernel_param_ops rtune_new_qp_ttl_ops = {
	.set = rtune_new_qp_ttl_set,
	.get = param_get_uint,
};
module_param_cb(new_qp_ttl_s, &rtune_new_qp_ttl_ops, &rtune_new_qp_ttl_s, 0644);
MODULE_PARM_DESC(new_qp_ttl_s,
		 "Seconds an entry of a QP not connected and without qp_ctl settings is kept without packets (1-86400, default 30)");

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

/*
 * Something was queued on dp->learn (the list was empty): have the worker
 * run soon, but no sooner than RTUNE_LEARN_DELAY after this, so that a
 * flood of new entries costs batches, not a worker run per entry. Any
 * context; kicks come at most once per worker run (an empty list).
 */
void rtune_dp_kick(struct rtune_dp *dp)
{
	mod_delayed_work(system_wq, &dp->work, RTUNE_LEARN_DELAY);
}

/* Whether qp_ctl gave @qp a setting: then only its QP's end drops it. */
static bool rtune_qp_pinned(struct rtune_qp *qp)
{
	bool pinned;

	spin_lock_bh(&qp->lock);
	pinned = !qp->cc_enable || qp->rate_cap_kbps;
	spin_unlock_bh(&qp->lock);
	return pinned;
}

/*
 * Start @qp's DCQCN state afresh (a new connection), and with @tunables
 * its qp_ctl settings too (another QP under the same number). A commit
 * that re-fitted the entry before this read the old parameters here: read
 * them again after, as rtune_qp_create() does.
 */
static void rtune_qp_restart(struct rtune_dp *dp, struct rtune_qp *qp,
			     bool tunables)
{
	const struct rtune_dp_params *p, *cur;

	rcu_read_lock();
	p = rcu_dereference(dp->params);
	spin_lock_bh(&qp->lock);
	dcqcn_rp_init(&qp->rp, &p->dc, rtune_now_us());
	dcqcn_np_init(&qp->np);
	if (tunables) {
		qp->cc_enable = true;
		qp->rate_cap_kbps = 0;
	}
	rtune_pacing_update(dp, qp, p);
	WRITE_ONCE(qp->idle_gen, 0);
	spin_unlock_bh(&qp->lock);
	cur = rcu_dereference(dp->params);
	if (cur != p) {
		spin_lock_bh(&qp->lock);
		dcqcn_rp_reparam(&qp->rp, &cur->dc, rtune_now_us());
		spin_unlock_bh(&qp->lock);
	}
	rcu_read_unlock();
}

/*
 * @qp is LIVE no more (now @state): out of the peer hash, and once every
 * hook that may have seen it LIVE is done (a grace period), its peer
 * fields are the worker's to change. Process context, no RCU held.
 */
static void rtune_qp_withdraw(struct rtune_qp *qp, u8 state)
{
	bool was_live = READ_ONCE(qp->state) == RTUNE_QP_LIVE;

	rtune_qp_unpublish(qp, state);
	if (was_live) {
		synchronize_rcu();
		rtune_fault_withdraw();
	}
}

enum rtune_verdict {
	RTUNE_KEEP,
	RTUNE_EVICT_UNCONFIRMED,	/* restrack never knew the QPN */
	RTUNE_EVICT_GONE,		/* the QP was destroyed */
	RTUNE_EVICT_IDLE,		/* never connected, no packet, no qp_ctl */
	RTUNE_EVICT_FULL,		/* max_qps confirmed entries already */
};

/*
 * Check @qp against the RDMA core; process context (the worker), which
 * owns @qp. Restrack must know the QPN (else the entry goes: that is how
 * packets naming made-up QPs are forgotten); the first time it does, the
 * entry is confirmed. An RC/UC QP in RTR or later gives its peer's QPN and
 * address, and the entry is LIVE with that peer; asked again on every
 * check, so a QP reset and reconnected, or a QPN handed to a new QP, is
 * followed (peer_changed). A QP not connected is kept while it sends
 * packets, or has qp_ctl settings, or for new_qp_ttl_s.
 */
static enum rtune_verdict rtune_qp_check(struct rtune_dp *dp, struct rtune_qp *qp)
{
	struct ib_device *ibdev = dp->dev->ibdev;
	enum rtune_verdict v = RTUNE_KEEP;
	struct rdma_restrack_entry *res;
	struct ib_qp_init_attr init = {};
	struct ib_qp_attr attr = {};
	const struct ib_global_route *grh;
	struct in6_addr peer;
	unsigned long ibqp_id;
	struct ib_qp *ibqp;
	bool connected;
	int err = -EOPNOTSUPP;
	u8 state;

	/*
	 * Read all that is needed from the QP, then let go of it: the
	 * restrack reference makes ib_destroy_qp() wait, and what follows
	 * may wait for grace periods (rtune_qp_withdraw()).
	 */
	res = rdma_restrack_get_byid(ibdev, RDMA_RESTRACK_QP, qp->qpn);
	if (IS_ERR(res))
		return qp->confirmed ? RTUNE_EVICT_GONE : RTUNE_EVICT_UNCONFIRMED;
	ibqp = container_of(res, struct ib_qp, res);
	ibqp_id = (unsigned long)ibqp;	/* compared, never dereferenced */
	connected = ibqp->qp_type == IB_QPT_RC || ibqp->qp_type == IB_QPT_UC;
	if (connected)
		err = ib_query_qp(ibqp, &attr,
				  IB_QP_STATE | IB_QP_AV | IB_QP_DEST_QPN, &init);
	rdma_restrack_put(res);

	if (!qp->confirmed && !rtune_qp_confirm(qp)) {
		v = RTUNE_EVICT_FULL;
		goto out;
	}
	if (!qp->ibqp_id) {
		/* First check (qp_ctl's entries are confirmed at birth). */
		qp->ibqp_id = ibqp_id;
	} else if (qp->ibqp_id != ibqp_id) {
		/* The QPN was freed and handed out again: another QP. */
		if (READ_ONCE(qp->state) == RTUNE_QP_LIVE)
			atomic64_inc(&dp->cnt.peer_changed);
		rtune_qp_withdraw(qp, RTUNE_QP_NEW);
		rtune_qp_restart(dp, qp, true);
		qp->ibqp_id = ibqp_id;
		WRITE_ONCE(qp->last_seen, jiffies);
	}
	state = READ_ONCE(qp->state);
	if (!connected) {
		if (state != RTUNE_QP_UNSUPPORTED)
			rtune_qp_withdraw(qp, RTUNE_QP_UNSUPPORTED);
		goto out;
	}
	if (!err && attr.qp_state >= IB_QPS_RTR &&
	    (rdma_ah_get_ah_flags(&attr.ah_attr) & IB_AH_GRH)) {
		grh = rdma_ah_read_grh(&attr.ah_attr);
		memcpy(&peer, grh->dgid.raw, sizeof(peer));
		if (state == RTUNE_QP_LIVE && qp->peer_qpn == attr.dest_qp_num &&
		    ipv6_addr_equal(&qp->peer_addr, &peer))
			goto out;		/* the same peer */
		if (state == RTUNE_QP_LIVE) {
			/* Reset and reconnected: a new peer, a new flow. */
			rtune_qp_withdraw(qp, RTUNE_QP_NEW);
			rtune_qp_restart(dp, qp, false);
			atomic64_inc(&dp->cnt.peer_changed);
		}
		qp->peer_addr = peer;
		qp->peer_v6 = !ipv6_addr_v4mapped(&peer);
		qp->peer_qpn = attr.dest_qp_num;
		rtune_qp_set_live(qp);
	} else if (state == RTUNE_QP_LIVE) {
		/* Reset (or its query failed): no peer until it reconnects. */
		rtune_qp_withdraw(qp, RTUNE_QP_NEW);
		rtune_qp_restart(dp, qp, false);
		atomic64_inc(&dp->cnt.peer_changed);
		WRITE_ONCE(qp->last_seen, jiffies);
	} else if (state == RTUNE_QP_NEW &&
		   time_after(jiffies, READ_ONCE(qp->last_seen) +
			      READ_ONCE(rtune_new_qp_ttl_s) * HZ) &&
		   !rtune_qp_pinned(qp)) {
		v = RTUNE_EVICT_IDLE;
	}
out:
	/* Kept: hooks may queue it again. Evicted: it stays the worker's. */
	if (v == RTUNE_KEEP)
		clear_bit(0, &qp->learn_queued);
	return v;
}

/* Carry out @v on @qp; a walk of dp->qps holds rcu_read_lock(). */
static void rtune_qp_verdict(struct rtune_dp *dp, struct rtune_qp *qp,
			     enum rtune_verdict v)
{
	switch (v) {
	case RTUNE_KEEP:
		break;
	case RTUNE_EVICT_UNCONFIRMED:
		rtune_qp_evict(qp, &dp->cnt.evicted_unconfirmed);
		break;
	case RTUNE_EVICT_GONE:
		rtune_qp_evict(qp, &dp->cnt.evicted_gone);
		break;
	case RTUNE_EVICT_IDLE:
		rtune_qp_evict(qp, &dp->cnt.evicted_idle);
		break;
	case RTUNE_EVICT_FULL:
		rtune_qp_evict(qp, &dp->cnt.qp_table_full);
		break;
	}
}

/*
 * The worker: the entries queued since its last run (new ones, and live
 * ones a hook asked about again), oldest first, which is all it does when
 * kicked; then, once a second, every entry of this device that is not
 * queued (dp->qps, not the whole hash), and the egress qdisc.
 */
static void rtune_dp_work(struct work_struct *work)
{
	struct rtune_dp *dp = container_of(to_delayed_work(work), struct rtune_dp,
					   work);
	struct llist_node *batch;
	struct rtune_qp *qp, *next;
	char id[IFNAMSIZ];

	batch = llist_reverse_order(llist_del_all(&dp->learn));
	llist_for_each_entry_safe(qp, next, batch, learn_node)
		rtune_qp_verdict(dp, qp, rtune_qp_check(dp, qp));

	if (time_before(jiffies, dp->next_sweep))
		goto out;
	/*
	 * Only this worker evicts entries of @dp, and only those it owns, so
	 * the walk may sleep between entries' RCU sections: the entry it
	 * stands on is owned (claimed here) and cannot be freed meanwhile.
	 */
	rcu_read_lock();
	rtune_dp_for_each_qp_rcu(dp, qp) {
		enum rtune_verdict v;

		/* Queued ones are the next run's. */
		if (test_and_set_bit(0, &qp->learn_queued))
			continue;
		/* The RDMA core calls below may sleep: hold no RCU. */
		rcu_read_unlock();
		v = rtune_qp_check(dp, qp);
		rcu_read_lock();
		/*
		 * Evict only now, inside this read section: the grace period
		 * that frees @qp then also waits for the step to its next.
		 */
		rtune_qp_verdict(dp, qp, v);
	}
	rcu_read_unlock();
	rtune_pacing_check(dp, id, sizeof(id), true);
	rtune_pacing_sweep(dp);
	dp->next_sweep = jiffies + RTUNE_WORK_PERIOD;
out:
	/* A kick since the batch was taken has queued the work already. */
	queue_delayed_work(system_wq, &dp->work,
			   max_t(long, (long)(dp->next_sweep - jiffies), 0));
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
	INIT_LIST_HEAD(&dp->qps);
	dp->path_seed = get_random_u32();
	spin_lock_init(&dp->new_qp_lock);
	atomic_set(&dp->nunconfirmed, 0);
	init_llist_head(&dp->learn);
	INIT_DELAYED_WORK(&dp->work, rtune_dp_work);
	rtune_pacing_check(dp, id, sizeof(id), true);

	mutex_lock(&rtune_dp_mutex);
	list_add_tail_rcu(&dp->list, &rtune_dp_list);
	dev->dp = dp;
	mutex_unlock(&rtune_dp_mutex);
	dp->next_sweep = jiffies + RTUNE_WORK_PERIOD;
	queue_delayed_work(system_wq, &dp->work, RTUNE_WORK_PERIOD);
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
	/* Before the hooks stop: no socket stays paced. */
	rtune_pacing_release(dp);
	mutex_lock(&rtune_dp_mutex);
	list_del_rcu(&dp->list);
	dev->dp = NULL;
	mutex_unlock(&rtune_dp_mutex);
	/* Hooks run under RCU: after this none can find @dp or queue work. */
	synchronize_net();
	cancel_delayed_work_sync(&dp->work);

	rtune_qp_remove_all(dp);
	/* The entries' RCU callbacks use @dp: wait for all of them. */
	rtune_rcu_barrier();
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
	rtune_dp_for_each_qp_rcu(dp, qp) {
		spin_lock_bh(&qp->lock);
		dcqcn_rp_advance(&qp->rp, &prev->dc, now);
		dcqcn_rp_reparam(&qp->rp, &next->dc, now);
		spin_unlock_bh(&qp->lock);
	}
	rcu_read_unlock();
	mutex_unlock(&rtune_dp_mutex);
	rtune_call_rcu(&prev->rcu, rtune_dp_params_free_rcu);
}

ssize_t rtune_dp_counters_show(struct rtune_dp *dp, char *page)
{
	const struct rtune_dp_counters *c = &dp->cnt;
	const struct {
		const char *name;
		const atomic64_t *v;
	} cnt[] = {
		{ "cnp_rejected_unknown_qp", &c->cnp_rejected_unknown_qp },
		{ "cnp_rejected_bad_icrc", &c->cnp_rejected_bad_icrc },
		{ "cnp_send_failed", &c->cnp_send_failed },
		{ "qp_table_full", &c->qp_table_full },
		{ "qp_evicted", &c->qp_evicted },
		{ "unpaced_pkts", &c->unpaced_pkts },
		{ "ect_marked_pkts", &c->ect_marked_pkts },
		{ "tx_not_rxe_pkts", &c->tx_not_rxe_pkts },
		{ "ce_rejected_not_peer", &c->ce_rejected_not_peer },
		{ "ce_rejected_not_live", &c->ce_rejected_not_live },
		{ "ce_rejected_not_unicast", &c->ce_rejected_not_unicast },
		{ "pacing_clamped_pkts", &c->pacing_clamped_pkts },
		{ "learn_refused_full", &c->learn_refused_full },
		{ "learn_refused_nomem", &c->learn_refused_nomem },
		{ "learn_refused_bad_icrc", &c->learn_refused_bad_icrc },
		{ "evicted_unconfirmed", &c->evicted_unconfirmed },
		{ "evicted_gone", &c->evicted_gone },
		{ "evicted_idle", &c->evicted_idle },
		{ "peer_changed", &c->peer_changed },
		{ "rx_merged_skbs", &c->rx_merged_skbs },
		{ "rx_merged_pkts", &c->rx_merged_pkts },
		{ "rx_merged_refused", &c->rx_merged_refused },
		{ "new_qp_paced_pkts", &c->new_qp_paced_pkts },
		{ "new_qp_slots_full", &c->new_qp_slots_full },
	};
	ssize_t n;
	size_t i;

	n = sysfs_emit(page, "qps %u\nqps_max %u\nqps_unconfirmed %d\nqps_unconfirmed_max %u\n",
		       READ_ONCE(dp->nqps), READ_ONCE(rtune_max_qps),
		       atomic_read(&dp->nunconfirmed),
		       READ_ONCE(rtune_max_unconfirmed_qps));
	for (i = 0; i < ARRAY_SIZE(cnt); i++)
		n += sysfs_emit_at(page, n, "%s %lld\n", cnt[i].name,
				   atomic64_read(cnt[i].v));
	return n;
}
