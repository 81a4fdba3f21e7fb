// SPDX-License-Identifier: GPL-2.0
/*
 * IEEE 802.1Qaz ETS: [ets] prio_tc, tsa and bw (all three or none), the
 * priority to traffic class map, transmission selection algorithms and
 * bandwidth shares of struct ieee_ets, written whole with
 * DCB_ATTR_IEEE_ETS (fields rocetune does not manage are kept as read)
 * and read back.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "dcb.h"
#include "obj.h"

#define ETS_ALL 1u	/* willing, prio_tc, tsa and bw together */

static const char *const tsa_names[] = { "strict", "cbs", "ets", "vendor" };
static const uint8_t tsa_vals[] = { RTUNE_TSA_STRICT, RTUNE_TSA_CBS, RTUNE_TSA_ETS, RTUNE_TSA_VENDOR };

const char *rtune_tsa_name(uint8_t tsa)
{
	unsigned int i;

	for (i = 0; i < sizeof(tsa_vals); i++)
		if (tsa_vals[i] == tsa)
			return tsa_names[i];
	return "unknown";
}

static int eight(struct rtune_pctx *c, const char *v, uint8_t *out, unsigned long max,
		 const char *what)
{
	char buf[RTUNE_MAX_LINE], *tok[9];
	unsigned long x;
	int i, n;

	n = rtune_split(v, buf, sizeof(buf), tok, 9);
	if (n != 8) {
		rtune_key_err(c, "bad-value", "expected exactly 8 %s values (one per %s), got %d",
			      what, strcmp(what, "TC") ? "traffic class" : "priority", n < 0 ? 9 : n);
		return -1;
	}
	for (i = 0; i < 8; i++) {
		if (rtune_parse_uint(tok[i], 0, max, &x)) {
			rtune_key_err(c, "bad-value", "'%s' is not a valid %s: expected 0..%lu",
				      tok[i], what, max);
			return -1;
		}
		out[i] = (uint8_t)x;
	}
	return 0;
}

static int k_prio_tc(struct rtune_pctx *c, const char *v)
{
	if (eight(c, v, c->p->prio_tc, 7, "TC"))
		return -1;
	c->p->w_ets.line = c->line;
	return 0;
}

static int k_bw(struct rtune_pctx *c, const char *v)
{
	c->p->w_bw.line = c->line;
	return eight(c, v, c->p->tc_bw, 100, "bandwidth percentage");
}

static int k_tsa(struct rtune_pctx *c, const char *v)
{
	char buf[RTUNE_MAX_LINE], *tok[9];
	int i, n;
	unsigned int j;

	n = rtune_split(v, buf, sizeof(buf), tok, 9);
	if (n != 8) {
		rtune_key_err(c, "bad-value", "expected exactly 8 TSA names (one per traffic class): strict, ets, cbs or vendor");
		return -1;
	}
	for (i = 0; i < 8; i++) {
		for (j = 0; j < 4; j++)
			if (!strcmp(tok[i], tsa_names[j]))
				break;
		if (j == 4) {
			rtune_key_err(c, "bad-value", "'%s' is not a TSA: expected strict, ets, cbs or vendor",
				      tok[i]);
			return -1;
		}
		c->p->tc_tsa[i] = tsa_vals[j];
	}
	return 0;
}

static const struct rtune_key keys[] = {
	{ "prio_tc", k_prio_tc },
	{ "tsa", k_tsa },
	{ "bw", k_bw },
	{ NULL },
};

static void finish(struct rtune_pctx *c, uint64_t seen, uint64_t all)
{
	if (seen && seen != all)
		rtune_key_err(c, "incomplete-ets", "[ets] needs all of prio_tc, tsa and bw");
	else if (seen)
		c->p->has_ets = true;
}

static const struct rtune_section section = { .name = "ets", .keys = keys, .finish = finish };

static bool wanted(const struct rtune_profile *p)
{
	return p->has_ets;
}

static void validate(const struct rtune_profile *p, struct rtune_diags *d)
{
	unsigned int sum = 0, i, nets = 0;

	if (!p->has_ets)
		return;
	for (i = 0; i < RTUNE_NUM_TC; i++) {
		if (p->tc_tsa[i] == RTUNE_TSA_ETS) {
			nets++;
			sum += p->tc_bw[i];
		} else if (p->tc_bw[i]) {
			diag_add(d, RTUNE_SEV_ERROR, p->path, p->w_bw.line, "ets", "bw", "ets-bw-non-ets",
				 "TC %u has bandwidth %u%% but TSA %s: bandwidth applies only to ets TCs (set 0)",
				 i, p->tc_bw[i], rtune_tsa_name(p->tc_tsa[i]));
			return;
		}
	}
	if (nets && sum != 100)
		diag_add(d, RTUNE_SEV_ERROR, p->path, p->w_bw.line, "ets", "bw", "ets-bw-sum",
			 "bandwidth of ets TCs sums to %u%%: must be 100", sum);
}

static void target(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		   struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl)
{
	if (!dev->dcb.has_ets) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-ets",
			  "%s: the driver reports no IEEE ETS state", dev->netdev);
		return;
	}
	want->dcb.ets.willing = 0;
	memcpy(want->dcb.ets.prio_tc, p->prio_tc, 8);
	memcpy(want->dcb.ets.tc_tsa, p->tc_tsa, 8);
	memcpy(want->dcb.ets.tc_tx_bw, p->tc_bw, 8);
	*mask = ETS_ALL;
}

static void restore(const struct rtune_link *s, uint32_t touched, struct rtune_link *want,
		    uint32_t *mask)
{
	(void)touched;
	if (!s->dcb.has_ets)
		return;
	want->dcb.ets = s->dcb.ets;
	*mask = ETS_ALL;
}

/* The fields rocetune manages, without willing (what read-back checks). */
static bool map_differs(const struct ieee_ets *a, const struct ieee_ets *b)
{
	return memcmp(a->prio_tc, b->prio_tc, 8) || memcmp(a->tc_tsa, b->tc_tsa, 8) ||
	       memcmp(a->tc_tx_bw, b->tc_tx_bw, 8);
}

static void plan(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		 uint32_t mask, struct rtune_plan *pl)
{
	const struct ieee_ets *c = &cur->dcb.ets, *w = &want->dcb.ets;
	struct rtune_action *a;

	(void)mask;
	if (!cur->dcb.has_ets || (c->willing == w->willing && !map_differs(c, w)))
		return;
	a = plan_push(pl, &rtune_obj_ets, 0, devidx, cur);
	a->mask = ETS_ALL;
	a->to.dcb.ets.willing = w->willing;
	memcpy(a->to.dcb.ets.prio_tc, w->prio_tc, 8);
	memcpy(a->to.dcb.ets.tc_tsa, w->tc_tsa, 8);
	memcpy(a->to.dcb.ets.tc_tx_bw, w->tc_tx_bw, 8);
}

static int apply(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	int err = dcb_set_ets(sk, d->netdev, &a->to.dcb.ets);

	if (!err)
		err = rtune_obj_reread_dcb(sk, d, a);
	if (!err && map_differs(&d->dcb.ets, &a->to.dcb.ets)) {
		snprintf(a->why, sizeof(a->why),
			 "the driver acknowledged ETS but did not keep it (read-back differs)");
		err = -EIO;
	}
	return err;
}

static void describe(const struct rtune_action *a, char *buf, size_t len)
{
	const struct ieee_ets *f = &a->from.dcb.ets, *t = &a->to.dcb.ets;
	char x[96], y[96];
	size_t n = 0;

	buf[0] = '\0';
	if (memcmp(f->prio_tc, t->prio_tc, 8)) {
		rtune_fmt_u8s(x, sizeof(x), f->prio_tc, 8, false);
		rtune_fmt_u8s(y, sizeof(y), t->prio_tc, 8, false);
		n += (size_t)snprintf(buf + n, len - n, "ets prio_tc [%s] -> [%s]; ", x, y);
	}
	if (n < len && memcmp(f->tc_tsa, t->tc_tsa, 8)) {
		rtune_fmt_u8s(x, sizeof(x), f->tc_tsa, 8, true);
		rtune_fmt_u8s(y, sizeof(y), t->tc_tsa, 8, true);
		n += (size_t)snprintf(buf + n, len - n, "ets tsa [%s] -> [%s]; ", x, y);
	}
	if (n < len && memcmp(f->tc_tx_bw, t->tc_tx_bw, 8)) {
		rtune_fmt_u8s(x, sizeof(x), f->tc_tx_bw, 8, false);
		rtune_fmt_u8s(y, sizeof(y), t->tc_tx_bw, 8, false);
		n += (size_t)snprintf(buf + n, len - n, "ets bw [%s] -> [%s]; ", x, y);
	}
	if (n < len && f->willing != t->willing)
		n += (size_t)snprintf(buf + n, len - n, "ets willing %u -> %u; ",
				      f->willing, t->willing);
	if (n >= 2 && n < len)
		buf[n - 2] = '\0';
}

static void show(struct rtune_pr *pr, const struct rtune_link *v)
{
	const struct ieee_ets *e = &v->dcb.ets;
	int k;

	if (!v->dcb.has_ets) {
		pr_null(pr, "ets");
		return;
	}
	pr_obj(pr, "ets");
	pr_uint(pr, PR_ANY, "willing", "    ets: willing %llu", e->willing);
	pr_u8s(pr, "prio_tc", " prio_tc", e->prio_tc, 8);
	pr_arr(pr, "tsa");
	pr_text(pr, " tsa");
	for (k = 0; k < 8; k++)
		pr_str(pr, PR_ANY, NULL, " %s", rtune_tsa_name(e->tc_tsa[k]));
	pr_end_arr(pr);
	pr_u8s(pr, "bw", " bw", e->tc_tx_bw, 8);
	pr_text(pr, "\n");
	pr_end_obj(pr);
}

static int settings(const struct rtune_action *a, struct rtune_setting *s, int max)
{
	const struct ieee_ets *f = &a->from.dcb.ets, *t = &a->to.dcb.ets;
	char x[96], y[96];
	int n = 0;

	if (memcmp(f->prio_tc, t->prio_tc, 8) && n < max) {
		rtune_fmt_u8s(x, sizeof(x), f->prio_tc, 8, false);
		rtune_fmt_u8s(y, sizeof(y), t->prio_tc, 8, false);
		plan_setting(&s[n++], "ets.prio_tc", x, y);
	}
	if (memcmp(f->tc_tsa, t->tc_tsa, 8) && n < max) {
		rtune_fmt_u8s(x, sizeof(x), f->tc_tsa, 8, true);
		rtune_fmt_u8s(y, sizeof(y), t->tc_tsa, 8, true);
		plan_setting(&s[n++], "ets.tsa", x, y);
	}
	if (memcmp(f->tc_tx_bw, t->tc_tx_bw, 8) && n < max) {
		rtune_fmt_u8s(x, sizeof(x), f->tc_tx_bw, 8, false);
		rtune_fmt_u8s(y, sizeof(y), t->tc_tx_bw, 8, false);
		plan_setting(&s[n++], "ets.bw", x, y);
	}
	if (f->willing != t->willing && n < max) {
		snprintf(x, sizeof(x), "%u", f->willing);
		snprintf(y, sizeof(y), "%u", t->willing);
		plan_setting(&s[n++], "ets.willing", x, y);
	}
	return n;
}

static const char *const act_names[] = { "ets" };

const struct rtune_obj rtune_obj_ets = {
	.name = "ets",
	.scope = RTUNE_SCOPE_DCB,
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
