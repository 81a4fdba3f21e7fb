// SPDX-License-Identifier: GPL-2.0
/*
 * RDMA-CM defaults of an RDMA port: [rdma_cm] roce_mode and tos, through
 * the rdma_cm configfs (rdmacm.c), each written and read back.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "obj.h"
#include "rdmacm.h"

enum { OP_MODE, OP_TOS };
#define CM_MODE 1u
#define CM_TOS 2u

static int k_roce_mode(struct rtune_pctx *c, const char *v)
{
	if (!strcmp(v, "v2"))
		c->p->roce_mode = 2;
	else if (!strcmp(v, "v1"))
		c->p->roce_mode = 1;
	else {
		rtune_key_err(c, "bad-value", "'%s' is not a RoCE mode: expected 'v2' or 'v1'", v);
		return -1;
	}
	c->p->has_roce_mode = true;
	c->p->w_mode.line = c->line;
	return 0;
}

static int k_tos(struct rtune_pctx *c, const char *v)
{
	unsigned long x;

	if (rtune_parse_uint(v, 0, 255, &x)) {
		rtune_key_err(c, "bad-value", "'%s' is not a ToS byte: expected a decimal 0..255 (DSCP<<2 | ECN, e.g. 106 = DSCP 26 + ECT(0))", v);
		return -1;
	}
	c->p->has_tos = true;
	c->p->tos = (uint8_t)x;
	c->p->w_tos.line = c->line;
	return 0;
}

static const struct rtune_key keys[] = {
	{ "roce_mode", k_roce_mode },
	{ "tos", k_tos },
	{ NULL },
};

static const struct rtune_section section = { .name = "rdma_cm", .keys = keys };

static bool wanted(const struct rtune_profile *p)
{
	return p->has_roce_mode || p->has_tos;
}

static void target(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		   struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl)
{
	if (!dev->cm_ok) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-rdma-cm",
			  "%s/%u: rdma_cm configfs is not available (modprobe rdma_cm; mount configfs)",
			  dev->ibdev, dev->port);
		return;
	}
	if (p->has_roce_mode) {
		want->roce_mode = p->roce_mode;
		*mask |= CM_MODE;
	}
	if (p->has_tos) {
		want->tos = p->tos;
		*mask |= CM_TOS;
	}
}

static void restore(const struct rtune_link *s, uint32_t touched, struct rtune_link *want,
		    uint32_t *mask)
{
	if ((touched & CM_MODE) && s->roce_mode) {
		want->roce_mode = s->roce_mode;
		*mask |= CM_MODE;
	}
	if (touched & CM_TOS) {
		want->tos = s->tos;
		*mask |= CM_TOS;
	}
}

static void plan(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		 uint32_t mask, struct rtune_plan *pl)
{
	struct rtune_action *a;

	if (!cur->cm_ok)
		return;
	if ((mask & CM_MODE) && cur->roce_mode != want->roce_mode) {
		a = plan_push(pl, &rtune_obj_cm, OP_MODE, devidx, cur);
		a->mask = CM_MODE;
		a->to.roce_mode = want->roce_mode;
	}
	if ((mask & CM_TOS) && cur->tos != want->tos) {
		a = plan_push(pl, &rtune_obj_cm, OP_TOS, devidx, cur);
		a->mask = CM_TOS;
		a->to.tos = want->tos;
	}
}

static int apply(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	int mode = 0, tos = 0, err;

	(void)sk;
	err = cm_set(d->ibdev, d->port, a->op == OP_MODE ? a->to.roce_mode : -1,
		     a->op == OP_TOS ? a->to.tos : -1);
	if (!err)
		err = cm_get(d->ibdev, d->port, &mode, &tos);
	if (err)
		return err;
	d->roce_mode = mode;
	d->tos = tos;
	if ((a->op == OP_MODE && mode != a->to.roce_mode) ||
	    (a->op == OP_TOS && tos != a->to.tos)) {
		snprintf(a->why, sizeof(a->why), "rdma_cm read-back differs");
		return -EIO;
	}
	return 0;
}

static const char *mode_name(int m)
{
	return m == 2 ? "v2" : m == 1 ? "v1" : NULL;
}

static void describe(const struct rtune_action *a, char *buf, size_t len)
{
	const char *f = mode_name(a->from.roce_mode);

	if (a->op == OP_MODE)
		snprintf(buf, len, "rdma_cm roce_mode %s -> %s", f ? f : "?",
			 a->to.roce_mode == 2 ? "v2" : "v1");
	else
		snprintf(buf, len, "rdma_cm tos %d -> %d", a->from.tos, a->to.tos);
}

static void show(struct rtune_pr *pr, const struct rtune_link *v)
{
	if (!v->cm_ok) {
		pr_null(pr, "rdma_cm");
		pr_text(pr, "    rdma_cm: not available\n");
		return;
	}
	pr_obj(pr, "rdma_cm");
	pr_str(pr, PR_ANY, "roce_mode", "    rdma_cm: roce_mode %s", mode_name(v->roce_mode));
	pr_int(pr, PR_ANY, "tos", " tos %lld\n", v->tos);
	pr_end_obj(pr);
}

static int settings(const struct rtune_action *a, struct rtune_setting *s, int max)
{
	char x[16], y[16];

	(void)max;
	if (a->op == OP_MODE) {
		plan_setting(s, "rdma_cm.roce_mode", mode_name(a->from.roce_mode),
			     mode_name(a->to.roce_mode));
		return 1;
	}
	snprintf(x, sizeof(x), "%d", a->from.tos);
	snprintf(y, sizeof(y), "%d", a->to.tos);
	plan_setting(s, "rdma_cm.tos", x, y);
	return 1;
}

static const char *const act_names[] = { [OP_MODE] = "roce-mode", [OP_TOS] = "roce-tos" };

const struct rtune_obj rtune_obj_cm = {
	.name = "rdma_cm",
	.scope = RTUNE_SCOPE_RDMA,
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
