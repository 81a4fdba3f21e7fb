// SPDX-License-Identifier: GPL-2.0
/*
 * IEEE 802.1Qbb PFC: [pfc] priorities, the per-priority enable bitmap of
 * struct ieee_pfc, written with DCB_ATTR_IEEE_PFC and read back.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "dcb.h"
#include "obj.h"

#define PFC_EN 1u

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

static const struct rtune_key keys[] = {
	{ "priorities", k_priorities },
	{ NULL },
};

static const struct rtune_section section = { .name = "pfc", .keys = keys };

static bool wanted(const struct rtune_profile *p)
{
	return p->has_pfc;
}

static void target(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		   struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl)
{
	if (!dev->dcb.has_pfc) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-pfc",
			  "%s: the driver reports no IEEE PFC state", dev->netdev);
		return;
	}
	want->dcb.pfc.pfc_en = p->pfc_en;
	*mask = PFC_EN;
}

static void restore(const struct rtune_link *s, uint32_t touched, struct rtune_link *want,
		    uint32_t *mask)
{
	(void)touched;
	if (!s->dcb.has_pfc)
		return;
	want->dcb.pfc.pfc_en = s->dcb.pfc.pfc_en;
	*mask = PFC_EN;
}

static void plan(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		 uint32_t mask, struct rtune_plan *pl)
{
	struct rtune_action *a;

	(void)mask;
	if (!cur->dcb.has_pfc || cur->dcb.pfc.pfc_en == want->dcb.pfc.pfc_en)
		return;
	a = plan_push(pl, &rtune_obj_pfc, 0, devidx, cur);
	a->mask = PFC_EN;
	a->to.dcb.pfc.pfc_en = want->dcb.pfc.pfc_en;
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
	return err;
}

static void describe(const struct rtune_action *a, char *buf, size_t len)
{
	char x[64], y[64];

	rtune_format_prio_mask(a->from.dcb.pfc.pfc_en, x, sizeof(x));
	rtune_format_prio_mask(a->to.dcb.pfc.pfc_en, y, sizeof(y));
	snprintf(buf, len, "pfc priorities %s -> %s", x, y);
}

static void show(struct rtune_pr *pr, const struct rtune_link *v)
{
	if (!v->dcb.has_pfc) {
		pr_null(pr, "pfc_priorities");
		return;
	}
	pr_prios(pr, "pfc_priorities", "    pfc: priorities %s", v->dcb.pfc.pfc_en);
	pr_uint(pr, PR_TEXT, NULL, " (cap %llu)\n", v->dcb.pfc.pfc_cap);
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
	.show = show,
};
