// SPDX-License-Identifier: GPL-2.0
/*
 * Every write is followed by a read of the same object; a driver that
 * acknowledges a setting and does not keep it is a failure. On the first
 * failure, each device touched so far is re-read and planned back to the
 * saved state for exactly the fields of the objects that were touched.
 * The writes and read-backs themselves are the objects' (obj_*.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "apply.h"
#include "host.h"
#include "obj.h"
#include "testhook.h"

static int run_action(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	int err = a->obj->apply(sk, d, a);

	if (err && !a->why[0])
		snprintf(a->why, sizeof(a->why), "%s", strerror(-err));
	return err;
}

int apply_plan(struct nl_sock *sk, struct rtune_host *h, const struct rtune_host *saved,
	       struct rtune_plan *pl, struct rtune_apply_result *r)
{
	static struct rtune_touched touched[RTUNE_MAX_DEVS];
	int i, err = 0;

	memset(r, 0, sizeof(*r));
	memset(touched, 0, sizeof(touched));
	r->failed = -1;
	for (i = 0; i < pl->n; i++) {
		struct rtune_action *a = &pl->a[i];

		plan_touch(&touched[a->dev], a);
		rtune_test_step(a->obj->name);
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

		if (!plan_touched(&touched[i]))
			continue;
		host_read_dev(sk, &h->dev[i]);
		target_from_state(&saved->dev[i], &touched[i], &t);
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
