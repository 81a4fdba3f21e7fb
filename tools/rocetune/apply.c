// SPDX-License-Identifier: GPL-2.0
/*
 * Every write is followed by a read of the same object; a driver that
 * acknowledges a setting and does not keep it is a failure. On the first
 * failure, each device touched so far is re-read and planned back to the
 * saved state for exactly the kinds of objects that were touched.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "apply.h"
#include "cc.h"
#include "dcb.h"
#include "host.h"
#include "link.h"
#include "rdmacm.h"

static int reread_dcb(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	int err = dcb_get(sk, d->netdev, &d->dcb);

	if (err)
		snprintf(a->why, sizeof(a->why), "read-back failed: %s", strerror(-err));
	return err;
}

static int run_action(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	int err = 0, i, mode = 0, tos = 0;
	uint32_t mtu = 0;

	switch (a->kind) {
	case ACT_ETS:
		err = dcb_set_ets(sk, d->netdev, &a->ets_to);
		if (!err && !(err = reread_dcb(sk, d, a)) &&
		    (memcmp(d->dcb.ets.prio_tc, a->ets_to.prio_tc, 8) ||
		     memcmp(d->dcb.ets.tc_tsa, a->ets_to.tc_tsa, 8) ||
		     memcmp(d->dcb.ets.tc_tx_bw, a->ets_to.tc_tx_bw, 8))) {
			snprintf(a->why, sizeof(a->why),
				 "the driver acknowledged ETS but did not keep it (read-back differs)");
			err = -EIO;
		}
		break;
	case ACT_PFC:
		err = dcb_set_pfc(sk, d->netdev, &a->pfc_to);
		if (!err && !(err = reread_dcb(sk, d, a)) && d->dcb.pfc.pfc_en != a->to) {
			snprintf(a->why, sizeof(a->why),
				 "the driver acknowledged PFC but read-back shows enable mask 0x%02x, not 0x%02x",
				 d->dcb.pfc.pfc_en, a->to);
			err = -EIO;
		}
		break;
	case ACT_APP_ADD:
	case ACT_APP_DEL:
		err = dcb_app_change(sk, d->netdev, a->kind == ACT_APP_ADD, a->apps, a->napps);
		{
			int rerr = reread_dcb(sk, d, a);

			if (rerr)
				return rerr;
		}
		for (i = 0; i < a->napps; i++) {
			bool present = d->dcb.dscp_prios[a->apps[i].protocol] &
				       (1u << a->apps[i].priority);

			if (present != (a->kind == ACT_APP_ADD)) {
				if (!err) {
					snprintf(a->why, sizeof(a->why),
						 "the kernel acknowledged the APP change but DSCP %u -> priority %u is %s",
						 a->apps[i].protocol, a->apps[i].priority,
						 present ? "still there" : "missing");
					err = -EIO;
				}
				return err;
			}
		}
		/* ENOENT on delete with the entry gone (mlx5 replaced it): fine */
		if (err == -ENOENT && a->kind == ACT_APP_DEL)
			err = 0;
		break;
	case ACT_TRUST:
		err = dcb_set_trust(sk, d->netdev, a->trust_to, a->ntrust_to);
		if (!err && !(err = reread_dcb(sk, d, a)) &&
		    (d->dcb.ntrust != a->ntrust_to ||
		     memcmp(d->dcb.trust, a->trust_to, (size_t)a->ntrust_to))) {
			snprintf(a->why, sizeof(a->why), "apptrust read-back differs");
			err = -EIO;
		}
		break;
	case ACT_MTU:
		err = link_set_mtu(sk, d->netdev, a->to);
		if (!err) {
			err = link_get_mtu(sk, d->netdev, NULL, &mtu);
			if (!err) {
				d->mtu = mtu;
				if (mtu != a->to) {
					snprintf(a->why, sizeof(a->why), "read-back MTU is %u", mtu);
					err = -EIO;
				}
			}
		}
		break;
	case ACT_CM_MODE:
	case ACT_CM_TOS:
		err = cm_set(d->ibdev, d->port, a->kind == ACT_CM_MODE ? (int)a->to : -1,
			     a->kind == ACT_CM_TOS ? (int)a->to : -1);
		if (!err && !(err = cm_get(d->ibdev, d->port, &mode, &tos))) {
			d->roce_mode = mode;
			d->tos = tos;
			if ((a->kind == ACT_CM_MODE && mode != (int)a->to) ||
			    (a->kind == ACT_CM_TOS && tos != (int)a->to)) {
				snprintf(a->why, sizeof(a->why), "rdma_cm read-back differs");
				err = -EIO;
			}
		}
		break;
	case ACT_CC:
		err = cc_apply(d->ibdev, d->port, &a->cc_to, &a->cc_from, a->cc_mask,
			       a->why, sizeof(a->why));
		cc_get(d->ibdev, d->port, &d->cc, &d->cc_valid, NULL, 0);
		break;
	default:
		err = -EINVAL;
	}
	if (err && !a->why[0])
		snprintf(a->why, sizeof(a->why), "%s", strerror(-err));
	return err;
}

int apply_plan(struct nl_sock *sk, struct rtune_host *h, const struct rtune_host *saved,
	       struct rtune_plan *pl, struct rtune_apply_result *r)
{
	uint32_t touched[RTUNE_MAX_DEVS];
	int i, err = 0;

	memset(r, 0, sizeof(*r));
	memset(touched, 0, sizeof(touched));
	r->failed = -1;
	for (i = 0; i < pl->n; i++) {
		struct rtune_action *a = &pl->a[i];

		touched[a->dev] |= 1u << a->kind;
		err = run_action(sk, &h->dev[a->dev], a);
		a->err = err;
		a->done = !err;
		if (err) {
			r->failed = i;
			break;
		}
	}
	if (r->failed < 0)
		return 0;

	/* roll back every touched device, last touched first */
	r->rollback_attempted = true;
	r->rollback_complete = true;
	for (i = h->n - 1; i >= 0; i--) {
		struct rtune_target t;
		int j, n0;

		if (!touched[i])
			continue;
		host_read_dev(sk, &h->dev[i]);
		target_from_state(&saved->dev[i], touched[i], &t);
		n0 = r->rb.n;
		plan_device(&h->dev[i], i, &t, &r->rb);
		for (j = n0; j < r->rb.n; j++) {
			struct rtune_action *a = &r->rb.a[j];

			a->err = run_action(sk, &h->dev[i], a);
			a->done = !a->err;
			if (a->err)
				r->rollback_complete = false;
		}
		/* verify: nothing left to restore */
		{
			struct rtune_plan chk = { 0 };

			host_read_dev(sk, &h->dev[i]);
			if (plan_device(&h->dev[i], i, &t, &chk))
				r->rollback_complete = false;
			plan_free(&chk);
		}
	}
	return err;
}
