// SPDX-License-Identifier: GPL-2.0
/*
 * DSCP trust and the DSCP -> priority map: [trust] mode and dscp_prio.
 * The map is the set of DSCP APP entries (selector 5) of the IEEE APP
 * table: the declared table is written whole, missing entries added,
 * stale or undeclared ones deleted, additions first (deleting the last
 * DSCP entry flips mlx5 back to PCP trust). Where the kernel and driver
 * have the APP trust table (Linux 6.2) it is set too; without it, trust
 * is what the DSCP entries imply. Other APP entries are never touched.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "dcb.h"
#include "obj.h"

enum { OP_ADD, OP_DEL, OP_TRUST };
#define APP_MAP 1u
#define APP_TRUST 2u

static int k_mode(struct rtune_pctx *c, const char *v)
{
	if (!strcmp(v, "dscp"))
		c->p->trust = RTUNE_TRUST_DSCP;
	else if (!strcmp(v, "pcp"))
		c->p->trust = RTUNE_TRUST_PCP;
	else {
		rtune_key_err(c, "bad-value", "'%s' is not a trust mode: expected 'dscp' or 'pcp'", v);
		return -1;
	}
	c->p->w_trust.line = c->line;
	return 0;
}

static int k_dscp_prio(struct rtune_pctx *c, const char *v)
{
	char buf[RTUNE_MAX_LINE], *tok[2 * RTUNE_NUM_DSCP + 1];
	struct rtune_profile *p = c->p;
	int i, n;

	n = rtune_split(v, buf, sizeof(buf), tok, (int)(sizeof(tok) / sizeof(tok[0])));
	if (n <= 0) {
		rtune_key_err(c, "bad-value", "expected 'default' and/or DSCP:PRIO entries like '26:3 48:6' or '24-31:3'");
		return -1;
	}
	for (i = 0; i < n; i++) {
		unsigned long lo, hi, pr;
		char *colon, *dash;

		if (!strcmp(tok[i], "default")) {
			unsigned int d;

			for (d = 0; d < RTUNE_NUM_DSCP; d++) {
				p->dscp_map_set[d] = 1;
				p->dscp_prio[d] = (uint8_t)(d >> 3);
			}
			continue;
		}
		colon = strchr(tok[i], ':');
		if (!colon)
			goto bad;
		*colon = '\0';
		dash = strchr(tok[i], '-');
		if (dash)
			*dash = '\0';
		if (rtune_parse_uint(tok[i], 0, 63, &lo))
			goto bad;
		hi = lo;
		if (dash && (rtune_parse_uint(dash + 1, 0, 63, &hi) || hi < lo))
			goto bad;
		if (rtune_parse_uint(colon + 1, 0, 7, &pr))
			goto bad;
		for (; lo <= hi; lo++) {
			p->dscp_map_set[lo] = 1;
			p->dscp_prio[lo] = (uint8_t)pr;
		}
	}
	p->has_dscp_map = true;
	p->w_map.line = c->line;
	return 0;
bad:
	rtune_key_err(c, "bad-value", "bad entry in '%s': expected 'default' or DSCP:PRIO / DSCP-DSCP:PRIO with DSCP 0-63 and PRIO 0-7", v);
	return -1;
}

static const struct rtune_key keys[] = {
	{ "mode", k_mode },
	{ "dscp_prio", k_dscp_prio },
	{ NULL },
};

static const struct rtune_section section = { .name = "trust", .keys = keys };

static bool wanted(const struct rtune_profile *p)
{
	return p->trust != RTUNE_TRUST_UNSET;
}

static void validate(const struct rtune_profile *p, struct rtune_diags *d)
{
	if (p->has_dscp_map && p->trust != RTUNE_TRUST_DSCP)
		diag_add(d, RTUNE_SEV_ERROR, p->path, p->w_map.line, "trust", "dscp_prio",
			 "map-without-dscp-trust",
			 "dscp_prio needs mode = dscp (DSCP entries switch trust to DSCP on mlx5, bnxt, ice)");
	if (p->trust == RTUNE_TRUST_DSCP && !p->has_dscp_map)
		diag_add(d, RTUNE_SEV_ERROR, p->path, p->w_trust.line, "trust", "mode",
			 "dscp-trust-without-map",
			 "mode = dscp needs dscp_prio (e.g. 'default' or '26:3 48:6')");
}

static void target(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		   struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl)
{
	unsigned int d;

	for (d = 0; d < 64; d++)
		want->dcb.dscp_prios[d] = (p->trust == RTUNE_TRUST_DSCP && p->dscp_map_set[d]) ?
					  (uint8_t)(1u << p->dscp_prio[d]) : 0;
	*mask = APP_MAP;
	if (!dev->dcb.has_trust) {
		plan_note(pl, devidx, RTUNE_SEV_WARNING, "trust-implicit",
			  "%s: no APP trust table (kernel < 6.2 or driver without it): trust %s is expressed by the DSCP APP entries alone",
			  dev->netdev, p->trust == RTUNE_TRUST_DSCP ? "dscp" : "pcp");
		return;
	}
	want->dcb.ntrust = 1;
	want->dcb.trust[0] = p->trust == RTUNE_TRUST_DSCP ? IEEE_8021QAZ_APP_SEL_DSCP :
			     RTUNE_DCB_APP_SEL_PCP;
	*mask |= APP_TRUST;
}

static void restore(const struct rtune_link *s, uint32_t touched, struct rtune_link *want,
		    uint32_t *mask)
{
	if (touched & APP_MAP) {
		memcpy(want->dcb.dscp_prios, s->dcb.dscp_prios, 64);
		*mask |= APP_MAP;
	}
	if ((touched & APP_TRUST) && s->dcb.has_trust) {
		want->dcb.ntrust = s->dcb.ntrust;
		memcpy(want->dcb.trust, s->dcb.trust, 8);
		*mask |= APP_TRUST;
	}
}

static void plan(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		 uint32_t mask, struct rtune_plan *pl)
{
	const struct rtune_dcb *c = &cur->dcb, *w = &want->dcb;
	struct rtune_action *a;
	bool add = false, del = false;
	unsigned int d;

	if (mask & APP_MAP) {
		for (d = 0; d < 64; d++) {
			add |= (w->dscp_prios[d] & ~c->dscp_prios[d]) != 0;
			del |= (c->dscp_prios[d] & ~w->dscp_prios[d]) != 0;
		}
		/* add before delete: on mlx5 deleting the last DSCP entry drops
		 * the port back to PCP trust */
		if (add) {
			a = plan_push(pl, &rtune_obj_app, OP_ADD, devidx, cur);
			a->mask = APP_MAP;
			for (d = 0; d < 64; d++)
				a->to.dcb.dscp_prios[d] |= w->dscp_prios[d];
		}
		if (del) {
			a = plan_push(pl, &rtune_obj_app, OP_DEL, devidx, cur);
			a->mask = APP_MAP;
			for (d = 0; d < 64; d++) {
				a->from.dcb.dscp_prios[d] |= w->dscp_prios[d];
				a->to.dcb.dscp_prios[d] = w->dscp_prios[d];
			}
		}
	}
	if ((mask & APP_TRUST) && c->has_trust &&
	    (w->ntrust != c->ntrust || memcmp(w->trust, c->trust, (size_t)w->ntrust))) {
		a = plan_push(pl, &rtune_obj_app, OP_TRUST, devidx, cur);
		a->mask = APP_TRUST;
		a->to.dcb.ntrust = w->ntrust;
		memcpy(a->to.dcb.trust, w->trust, 8);
	}
}

int rtune_app_entries(const struct rtune_action *a, struct dcb_app *out, int max)
{
	const uint8_t *have = a->op == OP_ADD ? a->to.dcb.dscp_prios : a->from.dcb.dscp_prios;
	const uint8_t *not = a->op == OP_ADD ? a->from.dcb.dscp_prios : a->to.dcb.dscp_prios;
	unsigned int d, p;
	int n = 0;

	if (a->obj != &rtune_obj_app || a->op == OP_TRUST)
		return 0;
	for (d = 0; d < 64; d++)
		for (p = 0; p < 8; p++)
			if ((have[d] & ~not[d] & (1u << p)) && n < max)
				out[n++] = (struct dcb_app){ IEEE_8021QAZ_APP_SEL_DSCP, (uint8_t)p,
							     (uint16_t)d };
	return n;
}

static int apply_entries(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	struct dcb_app apps[64 * 8];
	int n = rtune_app_entries(a, apps, 64 * 8), err, rerr, i;

	err = dcb_app_change(sk, d->netdev, a->op == OP_ADD, apps, n);
	rerr = rtune_obj_reread_dcb(sk, d, a);
	if (rerr)
		return rerr;
	for (i = 0; i < n; i++) {
		bool present = d->dcb.dscp_prios[apps[i].protocol] & (1u << apps[i].priority);

		if (present != (a->op == OP_ADD)) {
			if (!err) {
				snprintf(a->why, sizeof(a->why),
					 "the kernel acknowledged the APP change but DSCP %u -> priority %u is %s",
					 apps[i].protocol, apps[i].priority,
					 present ? "still there" : "missing");
				err = -EIO;
			}
			return err;
		}
	}
	/* ENOENT on delete with the entry gone (mlx5 replaced it): fine */
	if (err == -ENOENT && a->op == OP_DEL)
		err = 0;
	return err;
}

static int apply(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	int err;

	if (a->op != OP_TRUST)
		return apply_entries(sk, d, a);
	err = dcb_set_trust(sk, d->netdev, a->to.dcb.trust, a->to.dcb.ntrust);
	if (!err)
		err = rtune_obj_reread_dcb(sk, d, a);
	if (!err && (d->dcb.ntrust != a->to.dcb.ntrust ||
		     memcmp(d->dcb.trust, a->to.dcb.trust, (size_t)a->to.dcb.ntrust))) {
		snprintf(a->why, sizeof(a->why), "apptrust read-back differs");
		err = -EIO;
	}
	return err;
}

static const char *sel_name(uint8_t s)
{
	switch (s) {
	case 1: return "ethtype";
	case 2: return "stream-port";
	case 3: return "dgram-port";
	case 4: return "port";
	case IEEE_8021QAZ_APP_SEL_DSCP: return "dscp";
	case RTUNE_DCB_APP_SEL_PCP: return "pcp";
	default: return "unknown";
	}
}

static void trust_list(char *buf, size_t len, const struct rtune_dcb *d)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < d->ntrust; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? "," : "",
			 sel_name(d->trust[i]));
}

static void describe(const struct rtune_action *a, char *buf, size_t len)
{
	struct dcb_app apps[64 * 8];
	char x[96], y[96];
	size_t n;
	int i, napps;

	if (a->op == OP_TRUST) {
		trust_list(x, sizeof(x), &a->from.dcb);
		trust_list(y, sizeof(y), &a->to.dcb);
		snprintf(buf, len, "apptrust [%s] -> [%s]", x, y);
		return;
	}
	napps = rtune_app_entries(a, apps, 64 * 8);
	n = (size_t)snprintf(buf, len, "dscp-prio %s %d entr%s:", a->op == OP_ADD ? "add" : "del",
			     napps, napps == 1 ? "y" : "ies");
	for (i = 0; i < napps && n < len; i++) {
		if (i == 8 && napps > 10) {
			n += (size_t)snprintf(buf + n, len - n, " ...");
			break;
		}
		n += (size_t)snprintf(buf + n, len - n, " %u:%u", apps[i].protocol, apps[i].priority);
	}
}

static void show(struct rtune_pr *pr, const struct rtune_link *v)
{
	const struct rtune_dcb *dcb = &v->dcb;
	int d, p, k, n = 0;

	if (dcb->has_app)
		pr_text(pr, "    dscp-prio:");
	pr_arr(pr, "dscp_prio");
	for (d = 0; d < 64; d++)
		for (p = 0; p < 8; p++)
			if (dcb->dscp_prios[d] & (1u << p)) {
				pr_arr(pr, NULL);
				pr_int(pr, PR_ANY, NULL, " %lld", d);
				pr_int(pr, PR_ANY, NULL, ":%lld", p);
				pr_end_arr(pr);
				n++;
			}
	pr_end_arr(pr);
	if (dcb->has_app)
		pr_text(pr, "%s (%d entries, %d other APP entries)\n", n ? "" : " none", n,
			dcb->n_other_app);
	if (!dcb->has_trust) {
		pr_null(pr, "apptrust");
		return;
	}
	pr_arr(pr, "apptrust");
	pr_text(pr, "    apptrust:");
	for (k = 0; k < dcb->ntrust; k++)
		pr_str(pr, PR_ANY, NULL, " %s", sel_name(dcb->trust[k]));
	pr_end_arr(pr);
	pr_text(pr, "%s\n", dcb->ntrust ? "" : " none");
}

/* "26:3 48:6" of the DSCPs in @which (by DSCP, "26:none" without entry). */
static void dscp_list(char *buf, size_t len, const uint8_t *prios, const bool *which)
{
	size_t n = 0;
	unsigned int d;

	buf[0] = '\0';
	for (d = 0; d < 64 && n < len; d++) {
		char m[32];

		if (!which[d])
			continue;
		if (n + 24 >= len) {
			snprintf(buf + n, len - n, " ...");
			return;
		}
		rtune_format_prio_mask(prios[d], m, sizeof(m));
		n += (size_t)snprintf(buf + n, len - n, "%s%u:%s", n ? " " : "", d, m);
	}
}

/*
 * An APP add or delete is one setting, trust.dscp_prio, shown for the
 * DSCPs it changes only: the entries they have and those they will have.
 */
static int settings(const struct rtune_action *a, struct rtune_setting *s, int max)
{
	const struct rtune_dcb *f = &a->from.dcb, *t = &a->to.dcb;
	bool which[64];
	char x[96], y[96];
	unsigned int d;

	(void)max;
	if (a->op == OP_TRUST) {
		trust_list(x, sizeof(x), f);
		trust_list(y, sizeof(y), t);
		plan_setting(s, "trust.mode", x, y);
		return 1;
	}
	for (d = 0; d < 64; d++)
		which[d] = f->dscp_prios[d] != t->dscp_prios[d];
	dscp_list(s->cur, sizeof(s->cur), f->dscp_prios, which);
	dscp_list(s->want, sizeof(s->want), t->dscp_prios, which);
	snprintf(s->name, sizeof(s->name), "trust.dscp_prio");
	return 1;
}

static const char *const act_names[] = {
	[OP_ADD] = "app-add", [OP_DEL] = "app-del", [OP_TRUST] = "apptrust",
};

const struct rtune_obj rtune_obj_app = {
	.name = "app",
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
