// SPDX-License-Identifier: GPL-2.0
/*
 * IEEE 802.1Qbb PFC: [pfc] priorities, the per-priority enable bitmap of
 * struct ieee_pfc, and delay, its delay allowance; written with
 * DCB_ATTR_IEEE_PFC (the fields not declared are kept as read) and read
 * back. The section's storm_prevention key is parsed here and applied by
 * obj_pfc_storm.c (an ethtool tunable, not dcbnl).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "dcb.h"
#include "obj.h"

#define PFC_EN 1u
#define PFC_DELAY 2u

static int k_priorities(struct rtune_pctx *c, const char *v)
{
	u32 m;

	if (rtune_parse_prio_mask(v, strlen(v), &m)) {
		rtune_key_err(c, "bad-value", "'%s' is not a priority list: " RTUNE_PRIO_LIST_HELP, v);
		return -1;
	}
	c->p->has_pfc = true;
	c->p->pfc_en = (uint8_t)m;
	c->p->w_pfc.line = c->line;
	return 0;
}

static int k_delay(struct rtune_pctx *c, const char *v)
{
	unsigned long x;

	if (rtune_parse_uint(v, 0, 65535, &x)) {
		rtune_key_err(c, "bad-value", "'%s' is not a PFC delay: expected a decimal 0..65535 (bit times)", v);
		return -1;
	}
	c->p->has_pfc_delay = true;
	c->p->pfc_delay = (uint16_t)x;
	return 0;
}

/* off, auto or a timeout in ms: what ETHTOOL_PFC_PREVENTION_TOUT takes
 * (a u16 whose 0xffff means auto). Each driver limits the range further
 * (mlx5: 80..8000 ms) and refuses the rest at apply time. */
static int k_storm_prevention(struct rtune_pctx *c, const char *v)
{
	unsigned long x;

	if (!strcmp(v, "off")) {
		x = 0;
	} else if (!strcmp(v, "auto")) {
		x = RTUNE_PFC_STORM_AUTO;
	} else if (rtune_parse_uint(v, 0, RTUNE_PFC_STORM_AUTO - 1, &x)) {
		rtune_key_err(c, "bad-value",
			      "'%s' is not a PFC storm prevention timeout: expected off, auto or a decimal 1..%u (ms; drivers limit it further, mlx5 to 80..8000)",
			      v, RTUNE_PFC_STORM_AUTO - 1);
		return -1;
	}
	c->p->has_pfc_storm = true;
	c->p->pfc_storm = (uint16_t)x;
	c->p->w_pfc_storm.line = c->line;
	return 0;
}

static const struct rtune_key keys[] = {
	{ "priorities", k_priorities },
	{ "delay", k_delay },
	{ "storm_prevention", k_storm_prevention },
	{ NULL },
};

static const struct rtune_section section = { .name = "pfc", .keys = keys };

static bool wanted(const struct rtune_profile *p)
{
	return p->has_pfc || p->has_pfc_delay;
}

static void target(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		   struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl)
{
	if (!dev->dcb.has_pfc) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-pfc",
			  "%s: the driver reports no IEEE PFC state", dev->netdev);
		return;
	}
	if (p->has_pfc) {
		want->dcb.pfc.pfc_en = p->pfc_en;
		*mask |= PFC_EN;
	}
	if (p->has_pfc_delay) {
		want->dcb.pfc.delay = p->pfc_delay;
		*mask |= PFC_DELAY;
	}
}

static void restore(const struct rtune_link *s, uint32_t touched, struct rtune_link *want,
		    uint32_t *mask)
{
	if (!s->dcb.has_pfc)
		return;
	want->dcb.pfc.pfc_en = s->dcb.pfc.pfc_en;
	want->dcb.pfc.delay = s->dcb.pfc.delay;
	*mask = touched & (PFC_EN | PFC_DELAY);
}

static void plan(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		 uint32_t mask, struct rtune_plan *pl)
{
	const struct ieee_pfc *c = &cur->dcb.pfc, *w = &want->dcb.pfc;
	struct rtune_action *a;
	uint32_t diff = 0;

	if (!cur->dcb.has_pfc)
		return;
	if ((mask & PFC_EN) && c->pfc_en != w->pfc_en)
		diff |= PFC_EN;
	if ((mask & PFC_DELAY) && c->delay != w->delay)
		diff |= PFC_DELAY;
	if (!diff)
		return;
	a = plan_push(pl, &rtune_obj_pfc, 0, devidx, cur);
	a->mask = diff;
	if (diff & PFC_EN)
		a->to.dcb.pfc.pfc_en = w->pfc_en;
	if (diff & PFC_DELAY)
		a->to.dcb.pfc.delay = w->delay;
}

static int apply(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	int err = dcb_set_pfc(sk, d->netdev, &a->to.dcb.pfc);

	if (!err)
		err = rtune_obj_reread_dcb(sk, d, a);
	if (!err && d->dcb.pfc.pfc_en != a->to.dcb.pfc.pfc_en) {
		snprintf(a->why, sizeof(a->why),
			 "the driver acknowledged PFC but read-back shows enable mask 0x%02x, not 0x%02x",
			 d->dcb.pfc.pfc_en, a->to.dcb.pfc.pfc_en);
		err = -EIO;
	}
	if (!err && (a->mask & PFC_DELAY) && d->dcb.pfc.delay != a->to.dcb.pfc.delay) {
		snprintf(a->why, sizeof(a->why),
			 "the driver acknowledged PFC but read-back shows delay %u, not %u",
			 d->dcb.pfc.delay, a->to.dcb.pfc.delay);
		err = -EIO;
	}
	return err;
}

static void describe(const struct rtune_action *a, char *buf, size_t len)
{
	const struct ieee_pfc *f = &a->from.dcb.pfc, *t = &a->to.dcb.pfc;
	char x[64], y[64];
	size_t n = 0;

	if (a->mask & PFC_EN) {
		rtune_format_prio_mask(f->pfc_en, x, sizeof(x));
		rtune_format_prio_mask(t->pfc_en, y, sizeof(y));
		n = (size_t)snprintf(buf, len, "pfc priorities %s -> %s", x, y);
	}
	if ((a->mask & PFC_DELAY) && n < len)
		snprintf(buf + n, len - n, "%spfc delay %u -> %u", n ? "; " : "", f->delay, t->delay);
}

static void show(struct rtune_pr *pr, const struct rtune_link *v)
{
	if (!v->dcb.has_pfc) {
		pr_null(pr, "pfc_priorities");
		pr_null(pr, "pfc_delay");
		return;
	}
	pr_prios(pr, "pfc_priorities", "    pfc: priorities %s", v->dcb.pfc.pfc_en);
	pr_uint(pr, PR_TEXT, NULL, " (cap %llu)", v->dcb.pfc.pfc_cap);
	pr_uint(pr, PR_ANY, "pfc_delay", " delay %llu\n", v->dcb.pfc.delay);
}

static int settings(const struct rtune_action *a, struct rtune_setting *s, int max)
{
	const struct ieee_pfc *f = &a->from.dcb.pfc, *t = &a->to.dcb.pfc;
	char x[64], y[64];
	int n = 0;

	if ((a->mask & PFC_EN) && n < max) {
		rtune_format_prio_mask(f->pfc_en, x, sizeof(x));
		rtune_format_prio_mask(t->pfc_en, y, sizeof(y));
		plan_setting(&s[n++], "pfc.priorities", x, y);
	}
	if ((a->mask & PFC_DELAY) && n < max) {
		snprintf(x, sizeof(x), "%u", f->delay);
		snprintf(y, sizeof(y), "%u", t->delay);
		plan_setting(&s[n++], "pfc.delay", x, y);
	}
	return n;
}

static const char *const act_names[] = { "pfc" };

const struct rtune_obj rtune_obj_pfc = {
	.name = "pfc",
	.scope = RTUNE_SCOPE_DCB,
	.act_names = act_names,
	.section = &section,
	.wanted = wanted,
	.target = target,
	.restore = restore,
	.plan = plan,
	.apply = apply,
	.describe = describe,
	.settings = settings,
	.show = show,
};
