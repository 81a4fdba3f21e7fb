// SPDX-License-Identifier: GPL-2.0
/*
 * PFC storm prevention: [pfc] storm_prevention (parsed in obj_pfc.c), the
 * ethtool tunable ETHTOOL_PFC_PREVENTION_TOUT: how long a NIC's receive
 * side may stay stuck before it stops sending pause frames. Set with the
 * SIOCETHTOOL ioctl (ethtool netlink has no tunables) and read back.
 *
 * "auto" asks for the driver's default timeout, and drivers report the
 * timeout it stands for (mlx5 and dcbsim: 100 ms), never "auto": so auto
 * is met by any timeout already on, and written only where it is off.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/ethtool.h>
#include "ethtool.h"
#include "obj.h"

#define STORM_TOUT 1u

_Static_assert(RTUNE_PFC_STORM_AUTO == PFC_STORM_PREVENTION_AUTO,
	       "profile.h's auto is ethtool's");

void rtune_fmt_pfc_storm(char *buf, size_t len, uint16_t v)
{
	if (v == RTUNE_PFC_STORM_AUTO)
		snprintf(buf, len, "auto");
	else if (!v)
		snprintf(buf, len, "off");
	else
		snprintf(buf, len, "%u", v);
}

static bool wanted(const struct rtune_profile *p)
{
	return p->has_pfc_storm;
}

static void target(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		   struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl)
{
	if (dev->pfc_storm_err) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-pfc-storm-prevention",
			  "%s: cannot apply [pfc] storm_prevention: the driver has no PFC storm prevention tunable (ethtool pfc-prevention-tout: %s)",
			  dev->netdev, strerror(-dev->pfc_storm_err));
		return;
	}
	want->pfc_storm_ms = p->pfc_storm;
	*mask = STORM_TOUT;
}

static void restore(const struct rtune_link *s, uint32_t touched, struct rtune_link *want,
		    uint32_t *mask)
{
	if (s->pfc_storm_err)
		return;
	want->pfc_storm_ms = s->pfc_storm_ms;
	*mask = touched & STORM_TOUT;
}

/* Does the device's timeout @cur meet the wanted @want? */
static bool storm_met(uint16_t cur, uint16_t want)
{
	return want == RTUNE_PFC_STORM_AUTO ? cur != 0 : cur == want;
}

static void plan(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		 uint32_t mask, struct rtune_plan *pl)
{
	struct rtune_action *a;

	if (cur->pfc_storm_err || !(mask & STORM_TOUT) ||
	    storm_met(cur->pfc_storm_ms, want->pfc_storm_ms))
		return;
	a = plan_push(pl, &rtune_obj_pfc_storm, 0, devidx, cur);
	a->mask = STORM_TOUT;
	a->to.pfc_storm_ms = want->pfc_storm_ms;
}

static int apply(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	uint16_t to = a->to.pfc_storm_ms, got = 0;
	char t[16];
	int err;

	(void)sk;
	rtune_fmt_pfc_storm(t, sizeof(t), to);
	err = rtune_ethtool_set_pfc_tout(d->netdev, to);
	if (err == -EINVAL) {
		snprintf(a->why, sizeof(a->why),
			 "the driver refused storm prevention %s%s (EINVAL: outside the range it takes; mlx5 takes 80..8000 ms)",
			 t, to == RTUNE_PFC_STORM_AUTO ? "" : " ms");
		return err;
	}
	if (err == -EOPNOTSUPP) {
		snprintf(a->why, sizeof(a->why),
			 "the driver cannot set the PFC storm prevention tunable (EOPNOTSUPP)");
		return err;
	}
	if (err)
		return err;
	err = rtune_ethtool_pfc_tout(d->netdev, &got);
	d->pfc_storm_err = err;
	if (err) {
		snprintf(a->why, sizeof(a->why), "read-back failed: %s", strerror(-err));
		return err;
	}
	d->pfc_storm_ms = got;
	if (!storm_met(got, to)) {
		snprintf(a->why, sizeof(a->why),
			 "the driver acknowledged storm prevention %s but read-back shows %u ms",
			 t, got);
		return -EIO;
	}
	return 0;
}

static void describe(const struct rtune_action *a, char *buf, size_t len)
{
	char f[16], t[16];

	rtune_fmt_pfc_storm(f, sizeof(f), a->from.pfc_storm_ms);
	rtune_fmt_pfc_storm(t, sizeof(t), a->to.pfc_storm_ms);
	snprintf(buf, len, "pfc storm_prevention %s -> %s", f, t);
}

static int settings(const struct rtune_action *a, struct rtune_setting *s, int max)
{
	char f[16], t[16];

	(void)max;
	rtune_fmt_pfc_storm(f, sizeof(f), a->from.pfc_storm_ms);
	rtune_fmt_pfc_storm(t, sizeof(t), a->to.pfc_storm_ms);
	plan_setting(s, "pfc.storm_prevention", f, t);
	return 1;
}

/* On the device's line, with the MTU: the timeout in ms, 0 when off,
 * null (and nothing in text) without the tunable. */
static void show(struct rtune_pr *pr, const struct rtune_link *v)
{
	if (v->pfc_storm_err) {
		pr_null(pr, "pfc_storm_prevention_ms");
		return;
	}
	pr_uint(pr, PR_JSON, "pfc_storm_prevention_ms", NULL, v->pfc_storm_ms);
	if (v->pfc_storm_ms)
		pr_text(pr, " pfc-storm-prevention %u ms", v->pfc_storm_ms);
	else
		pr_text(pr, " pfc-storm-prevention off");
}

static const char *const act_names[] = { "pfc-storm" };

const struct rtune_obj rtune_obj_pfc_storm = {
	.name = "pfc_storm",
	.scope = RTUNE_SCOPE_LINK,
	.act_names = act_names,
	.wanted = wanted,
	.target = target,
	.restore = restore,
	.plan = plan,
	.apply = apply,
	.describe = describe,
	.settings = settings,
	.show = show,
};
