// SPDX-License-Identifier: GPL-2.0
/*
 * The netdev MTU: [link] mtu (and roce_mtu, which only checks that the MTU
 * fits RoCE's), set through rtnetlink and read back. The section's
 * expect_speed and expect_lanes are expectations the doctor checks
 * (expect.c): nothing here applies them. show also prints the
 * RDMA port's active MTU where it can be read (ibport.c): a read-only
 * setting, for verify's fingerprint.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "expect.h"
#include "link.h"
#include "obj.h"

#define MTU_VALUE 1u

static int k_mtu(struct rtune_pctx *c, const char *v)
{
	unsigned long x;

	if (rtune_parse_uint(v, 68, 65535, &x)) {
		rtune_key_err(c, "bad-value", "'%s' is not a valid MTU: expected a decimal 68..65535 (at least %u for RoCE MTU 4096)",
			      v, rtune_roce_min_mtu(4096));
		return -1;
	}
	c->p->has_mtu = true;
	c->p->mtu = (uint32_t)x;
	c->p->w_mtu.line = c->line;
	return 0;
}

static int k_roce_mtu(struct rtune_pctx *c, const char *v)
{
	unsigned long x;

	if (rtune_parse_uint(v, 256, 4096, &x) || (x & (x - 1))) {
		rtune_key_err(c, "bad-value", "'%s' is not a RoCE MTU: expected one of 256, 512, 1024, 2048, 4096", v);
		return -1;
	}
	c->p->has_roce_mtu = true;
	c->p->roce_mtu = (uint32_t)x;
	c->p->w_roce_mtu.line = c->line;
	return 0;
}

static const struct rtune_key keys[] = {
	{ "mtu", k_mtu },
	{ "roce_mtu", k_roce_mtu },
	{ "expect_speed", rtune_k_expect_speed },
	{ "expect_lanes", rtune_k_expect_lanes },
	{ NULL },
};

static const struct rtune_section section = { .name = "link", .keys = keys };

static bool wanted(const struct rtune_profile *p)
{
	return p->has_mtu;
}

static void validate(const struct rtune_profile *p, struct rtune_diags *d)
{
	uint32_t need = rtune_roce_min_mtu(p->roce_mtu);

	if (p->has_mtu && p->mtu < need)
		diag_add(d, RTUNE_SEV_ERROR, p->path, p->w_mtu.line, "link", "mtu", "mtu-too-small",
			 "mtu %u does not fit RoCE MTU %u plus %u bytes of RoCEv2 headers: needs at least %u",
			 p->mtu, p->roce_mtu, RTUNE_ROCE_HDR_OVERHEAD, need);
}

static void target(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		   struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl)
{
	(void)dev;
	(void)devidx;
	(void)pl;
	want->mtu = p->mtu;
	*mask = MTU_VALUE;
}

static void restore(const struct rtune_link *s, uint32_t touched, struct rtune_link *want,
		    uint32_t *mask)
{
	(void)touched;
	want->mtu = s->mtu;
	*mask = MTU_VALUE;
}

static void plan(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		 uint32_t mask, struct rtune_plan *pl)
{
	struct rtune_action *a;

	(void)mask;
	if (!cur->link_ok || cur->mtu == want->mtu)
		return;
	a = plan_push(pl, &rtune_obj_mtu, 0, devidx, cur);
	a->mask = MTU_VALUE;
	a->to.mtu = want->mtu;
}

static int apply(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	uint32_t mtu = 0;
	int err = link_set_mtu(sk, d->netdev, a->to.mtu);

	if (err)
		return err;
	err = link_get_mtu(sk, d->netdev, NULL, &mtu);
	if (err)
		return err;
	d->mtu = mtu;
	if (mtu != a->to.mtu) {
		snprintf(a->why, sizeof(a->why), "read-back MTU is %u", mtu);
		return -EIO;
	}
	return 0;
}

static void describe(const struct rtune_action *a, char *buf, size_t len)
{
	snprintf(buf, len, "mtu %u -> %u", a->from.mtu, a->to.mtu);
}

static void show(struct rtune_pr *pr, const struct rtune_link *v)
{
	pr_uint(pr, PR_ANY, "mtu", " mtu %llu", v->mtu);
	/* read, not set: what the RDMA port made of the MTU (verify compares it) */
	if (v->has_ib && v->roce_mtu_ok)
		pr_uint(pr, PR_ANY, "roce_active_mtu", " roce_active_mtu %llu",
			v->roce_active_mtu);
}

static int settings(const struct rtune_action *a, struct rtune_setting *s, int max)
{
	char f[16], t[16];

	(void)max;
	snprintf(f, sizeof(f), "%u", a->from.mtu);
	snprintf(t, sizeof(t), "%u", a->to.mtu);
	plan_setting(s, "link.mtu", f, t);
	return 1;
}

static const char *const act_names[] = { "mtu" };

const struct rtune_obj rtune_obj_mtu = {
	.name = "mtu",
	.scope = RTUNE_SCOPE_LINK,
	.act_names = act_names,
	.section = &section,
	.wanted = wanted,
	.validate = validate,
	.target = target,
	.restore = restore,
	.plan = plan,
	.apply = apply,
	.describe = describe,
	.settings = settings,
	.show = show,
};
