// SPDX-License-Identifier: GPL-2.0
/*
 * The DCB rewrite table (Linux 6.3): [rewrite] prio_dscp and prio_pcp.
 * On egress a device that rewrites sets a frame's DSCP, or its VLAN PCP,
 * from the frame's priority: the table maps priority -> DSCP (selector 5)
 * and priority -> PCP (selector 255). Each key declares the whole table of
 * its selector: missing entries are added, stale or undeclared ones
 * deleted; a key left out leaves that selector's entries alone.
 *
 * The kernel only adds (IEEE_SET) and deletes (IEEE_DEL) entries, and a
 * priority may have several entries in the core's table (a driver with
 * rewrite ops, like sparx5, keeps one and replaces it): stale entries are
 * deleted first, then the missing ones added, so neither kind of device
 * ever sees a duplicate or deletes what it has just replaced. A rollback
 * is the same plan towards the saved table, an empty one included.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "dcb.h"
#include "obj.h"

enum { OP_DEL, OP_ADD };
#define REWR_DSCP 1u
#define REWR_PCP 2u

/* Room for every entry the state can hold: 8 x (64 DSCPs + 16 PCPs). */
#define REWR_MAX_ENTRIES (8 * (64 + 16))

/*
 * "none", or PRIO:VALUE and PRIO-PRIO:VALUE tokens giving each priority
 * at most once; VALUE is 0..@vmax. Fills @set and @val.
 */
static int parse_table(struct rtune_pctx *c, const char *v, unsigned long vmax,
		       const char *what, uint8_t *set, uint8_t *val)
{
	char buf[RTUNE_MAX_LINE], *tok[RTUNE_NUM_PRIO + 2];
	int i, n;

	*set = 0;
	n = rtune_split(v, buf, sizeof(buf), tok, (int)(sizeof(tok) / sizeof(tok[0])));
	if (n < 0) {
		rtune_key_err(c, "bad-value", "too many entries in '%s': at most one per priority 0-7", v);
		return -1;
	}
	if (n == 1 && !strcmp(tok[0], "none"))
		return 0;
	for (i = 0; i < n; i++) {
		unsigned long lo, hi, x;
		char orig[64], *colon, *dash;

		snprintf(orig, sizeof(orig), "%s", tok[i]);
		if (!strcmp(tok[i], "none")) {
			rtune_key_err(c, "bad-value", "'none' must be alone: it means no %s rewrite entry at all", what);
			return -1;
		}
		colon = strchr(tok[i], ':');
		if (!colon)
			goto bad;
		*colon = '\0';
		dash = strchr(tok[i], '-');
		if (dash)
			*dash = '\0';
		if (rtune_parse_uint(tok[i], 0, 7, &lo))
			goto bad;
		hi = lo;
		if (dash && (rtune_parse_uint(dash + 1, 0, 7, &hi) || hi < lo))
			goto bad;
		if (rtune_parse_uint(colon + 1, 0, vmax, &x))
			goto bad;
		for (; lo <= hi; lo++) {
			if (*set & (1u << lo)) {
				rtune_key_err(c, "duplicate-prio",
					      "priority %lu is given twice in '%s': a priority is rewritten to one %s",
					      lo, v, what);
				return -1;
			}
			*set |= (uint8_t)(1u << lo);
			val[lo] = (uint8_t)x;
		}
		continue;
bad:
		rtune_key_err(c, "bad-value",
			      "bad entry '%s': expected 'none' or PRIO:%s / PRIO-PRIO:%s with PRIO 0-7 and %s 0-%lu",
			      orig, what, what, what, vmax);
		return -1;
	}
	return 0;
}

static int k_prio_dscp(struct rtune_pctx *c, const char *v)
{
	struct rtune_profile *p = c->p;

	if (parse_table(c, v, 63, "DSCP", &p->rewr_dscp_set, p->rewr_dscp))
		return -1;
	p->has_rewr_dscp = true;
	p->w_rewr_dscp.line = c->line;
	return 0;
}

static int k_prio_pcp(struct rtune_pctx *c, const char *v)
{
	struct rtune_profile *p = c->p;

	if (parse_table(c, v, 7, "PCP", &p->rewr_pcp_set, p->rewr_pcp))
		return -1;
	p->has_rewr_pcp = true;
	p->w_rewr_pcp.line = c->line;
	return 0;
}

static const struct rtune_key keys[] = {
	{ "prio_dscp", k_prio_dscp },
	{ "prio_pcp", k_prio_pcp },
	{ NULL },
};

static const struct rtune_section section = { .name = "rewrite", .keys = keys };

static bool wanted(const struct rtune_profile *p)
{
	return p->has_rewr_dscp || p->has_rewr_pcp;
}

/*
 * A DSCP rewrite decides how the peer classifies what leaves on a
 * priority: RoCE's priority must keep the RoCE DSCP and the CNP priority
 * the CNP DSCP; another priority rewritten to a DSCP that [trust] maps
 * elsewhere is only suspicious.
 */
static void validate(const struct rtune_profile *p, struct rtune_diags *d)
{
	const u32 cnp = (1u << RTUNE_P_NP_CNP_DSCP) | (1u << RTUNE_P_NP_CNP_PRIO);
	unsigned int roce_dscp = p->tos >> 2, prio, dscp;
	bool dscp_trust = p->trust == RTUNE_TRUST_DSCP && p->has_dscp_map;
	int roce_prio = -1, cnp_prio = -1, mapped;

	if (!p->has_rewr_dscp)
		return;
	if (p->has_tos && dscp_trust)
		roce_prio = profile_dscp_prio(p, roce_dscp);
	if ((p->cc_set_mask & cnp) == cnp)
		cnp_prio = (int)p->cc.v[RTUNE_P_NP_CNP_PRIO];
	for (prio = 0; prio < RTUNE_NUM_PRIO; prio++) {
		if (!(p->rewr_dscp_set & (1u << prio)))
			continue;
		dscp = p->rewr_dscp[prio];
		if ((int)prio == roce_prio && dscp != roce_dscp) {
			diag_add(d, RTUNE_SEV_ERROR, p->path, p->w_rewr_dscp.line, "rewrite", "prio_dscp",
				 "rewrite-roce-dscp",
				 "priority %u, RoCE's, is rewritten to DSCP %u, not to the RoCE DSCP %u (tos %u); expected '%u:%u'",
				 prio, dscp, roce_dscp, p->tos, prio, roce_dscp);
			continue;
		}
		if ((int)prio == cnp_prio && dscp != p->cc.v[RTUNE_P_NP_CNP_DSCP]) {
			diag_add(d, RTUNE_SEV_ERROR, p->path, p->w_rewr_dscp.line, "rewrite", "prio_dscp",
				 "rewrite-cnp-dscp",
				 "priority %u, the CNPs', is rewritten to DSCP %u, not to the CNP DSCP %u (np_cnp_dscp); expected '%u:%u'",
				 prio, dscp, p->cc.v[RTUNE_P_NP_CNP_DSCP], prio,
				 p->cc.v[RTUNE_P_NP_CNP_DSCP]);
			continue;
		}
		if (!dscp_trust)
			continue;
		mapped = profile_dscp_prio(p, dscp);
		if (mapped < 0)
			diag_add(d, RTUNE_SEV_WARNING, p->path, p->w_rewr_dscp.line, "rewrite",
				 "prio_dscp", "rewrite-dscp-remapped",
				 "priority %u is rewritten to DSCP %u, which [trust] dscp_prio does not map",
				 prio, dscp);
		else if (mapped != (int)prio)
			diag_add(d, RTUNE_SEV_WARNING, p->path, p->w_rewr_dscp.line, "rewrite",
				 "prio_dscp", "rewrite-dscp-remapped",
				 "priority %u is rewritten to DSCP %u, which [trust] dscp_prio maps to priority %d",
				 prio, dscp, mapped);
	}
}

static void target(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		   struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl)
{
	unsigned int prio;

	if (!dev->dcb.has_rewr) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-rewrite",
			  "%s: the kernel has no DCB rewrite table (Linux < 6.3): cannot apply [rewrite]",
			  dev->netdev);
		return;
	}
	for (prio = 0; prio < RTUNE_NUM_PRIO; prio++) {
		if (p->has_rewr_dscp)
			want->dcb.rewr_dscp[prio] = (p->rewr_dscp_set & (1u << prio)) ?
						    1ull << p->rewr_dscp[prio] : 0;
		if (p->has_rewr_pcp)
			want->dcb.rewr_pcp[prio] = (p->rewr_pcp_set & (1u << prio)) ?
						   (uint16_t)(1u << p->rewr_pcp[prio]) : 0;
	}
	*mask |= (p->has_rewr_dscp ? REWR_DSCP : 0) | (p->has_rewr_pcp ? REWR_PCP : 0);
}

static void restore(const struct rtune_link *s, uint32_t touched, struct rtune_link *want,
		    uint32_t *mask)
{
	if (!s->dcb.has_rewr)
		return;
	if (touched & REWR_DSCP)
		memcpy(want->dcb.rewr_dscp, s->dcb.rewr_dscp, sizeof(want->dcb.rewr_dscp));
	if (touched & REWR_PCP)
		memcpy(want->dcb.rewr_pcp, s->dcb.rewr_pcp, sizeof(want->dcb.rewr_pcp));
	*mask |= touched & (REWR_DSCP | REWR_PCP);
}

/* Copy the tables of the selectors in @mask from @src to @dst. */
static void copy_tables(struct rtune_dcb *dst, const struct rtune_dcb *src, uint32_t mask)
{
	if (mask & REWR_DSCP)
		memcpy(dst->rewr_dscp, src->rewr_dscp, sizeof(dst->rewr_dscp));
	if (mask & REWR_PCP)
		memcpy(dst->rewr_pcp, src->rewr_pcp, sizeof(dst->rewr_pcp));
}

static void plan(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		 uint32_t mask, struct rtune_plan *pl)
{
	const struct rtune_dcb *c = &cur->dcb, *w = &want->dcb;
	struct rtune_dcb mid = *c;	/* after the deletes */
	uint32_t del = 0, add = 0;
	struct rtune_action *a;
	unsigned int prio;

	if (!c->has_rewr)
		return;
	for (prio = 0; prio < RTUNE_NUM_PRIO; prio++) {
		if (mask & REWR_DSCP) {
			mid.rewr_dscp[prio] &= w->rewr_dscp[prio];
			del |= mid.rewr_dscp[prio] != c->rewr_dscp[prio] ? REWR_DSCP : 0;
			add |= w->rewr_dscp[prio] != mid.rewr_dscp[prio] ? REWR_DSCP : 0;
		}
		if (mask & REWR_PCP) {
			mid.rewr_pcp[prio] &= w->rewr_pcp[prio];
			del |= mid.rewr_pcp[prio] != c->rewr_pcp[prio] ? REWR_PCP : 0;
			add |= w->rewr_pcp[prio] != mid.rewr_pcp[prio] ? REWR_PCP : 0;
		}
	}
	if (del) {
		a = plan_push(pl, &rtune_obj_rewr, OP_DEL, devidx, cur);
		a->mask = del;
		copy_tables(&a->to.dcb, &mid, del);
	}
	if (add) {
		a = plan_push(pl, &rtune_obj_rewr, OP_ADD, devidx, cur);
		a->mask = add;
		copy_tables(&a->from.dcb, &mid, mask);
		copy_tables(&a->to.dcb, &mid, mask);
		copy_tables(&a->to.dcb, w, add);
	}
}

int rtune_rewr_entries(const struct rtune_action *a, struct dcb_app *out, int max)
{
	const struct rtune_dcb *have = a->op == OP_ADD ? &a->to.dcb : &a->from.dcb;
	const struct rtune_dcb *not = a->op == OP_ADD ? &a->from.dcb : &a->to.dcb;
	unsigned int prio, v;
	int n = 0;

	if (a->obj != &rtune_obj_rewr)
		return 0;
	for (prio = 0; prio < RTUNE_NUM_PRIO; prio++)
		for (v = 0; v < 64; v++)
			if ((have->rewr_dscp[prio] & ~not->rewr_dscp[prio] & (1ull << v)) && n < max)
				out[n++] = (struct dcb_app){ IEEE_8021QAZ_APP_SEL_DSCP, (uint8_t)prio,
							     (uint16_t)v };
	for (prio = 0; prio < RTUNE_NUM_PRIO; prio++)
		for (v = 0; v < 16; v++)
			if ((have->rewr_pcp[prio] & ~not->rewr_pcp[prio] & (1u << v)) && n < max)
				out[n++] = (struct dcb_app){ RTUNE_DCB_APP_SEL_PCP, (uint8_t)prio,
							     (uint16_t)v };
	return n;
}

static bool has_entry(const struct rtune_dcb *d, const struct dcb_app *e)
{
	if (e->selector == RTUNE_DCB_APP_SEL_PCP)
		return d->rewr_pcp[e->priority] & (1u << e->protocol);
	return d->rewr_dscp[e->priority] & (1ull << e->protocol);
}

static const char *sel_key(uint8_t sel)
{
	return sel == RTUNE_DCB_APP_SEL_PCP ? "prio-pcp" : "prio-dscp";
}

static int apply(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	struct dcb_app e[REWR_MAX_ENTRIES];
	int n = rtune_rewr_entries(a, e, REWR_MAX_ENTRIES), err, rerr, i;

	err = dcb_rewr_change(sk, d->netdev, a->op == OP_ADD, e, n);
	rerr = rtune_obj_reread_dcb(sk, d, a);
	if (rerr)
		return rerr;
	if (!d->dcb.has_rewr) {
		snprintf(a->why, sizeof(a->why), "the read-back has no rewrite table");
		return err ? err : -EIO;
	}
	for (i = 0; i < n; i++) {
		bool present = has_entry(&d->dcb, &e[i]);

		if (present != (a->op == OP_ADD)) {
			if (!err) {
				snprintf(a->why, sizeof(a->why),
					 "the kernel acknowledged the rewrite change but %s %u:%u is %s",
					 sel_key(e[i].selector), e[i].priority, e[i].protocol,
					 present ? "still there" : "missing");
				err = -EIO;
			}
			return err;
		}
	}
	/* ENOENT on delete with the entries gone: fine */
	if (err == -ENOENT && a->op == OP_DEL)
		err = 0;
	return err;
}

/* " 3:26 6:48" of one selector's entries in @e; returns the count. */
static int fmt_entries(char *buf, size_t len, const struct dcb_app *e, int n, uint8_t sel)
{
	size_t k = strlen(buf);
	int i, c = 0;

	for (i = 0; i < n && k < len; i++) {
		if (e[i].selector != sel)
			continue;
		k += (size_t)snprintf(buf + k, len - k, " %u:%u", e[i].priority, e[i].protocol);
		c++;
	}
	return c;
}

static void describe(const struct rtune_action *a, char *buf, size_t len)
{
	struct dcb_app e[REWR_MAX_ENTRIES];
	int n = rtune_rewr_entries(a, e, REWR_MAX_ENTRIES);
	char d[160] = "", p[160] = "";

	fmt_entries(d, sizeof(d), e, n, IEEE_8021QAZ_APP_SEL_DSCP);
	fmt_entries(p, sizeof(p), e, n, RTUNE_DCB_APP_SEL_PCP);
	snprintf(buf, len, "rewrite %s%s%s%s%s%s", a->op == OP_ADD ? "add" : "del",
		 d[0] ? " prio-dscp" : "", d, d[0] && p[0] ? "," : "", p[0] ? " prio-pcp" : "", p);
}

/* "3:26 6:48" of a table, "none" if empty. */
static void fmt_table64(char *buf, size_t len, const uint64_t *t)
{
	unsigned int prio, v;
	size_t k = 0;

	buf[0] = '\0';
	for (prio = 0; prio < RTUNE_NUM_PRIO; prio++)
		for (v = 0; v < 64 && k < len; v++)
			if (t[prio] & (1ull << v))
				k += (size_t)snprintf(buf + k, len - k, "%s%u:%u", k ? " " : "", prio, v);
	if (!k)
		snprintf(buf, len, "none");
}

static void fmt_table16(char *buf, size_t len, const uint16_t *t)
{
	uint64_t wide[RTUNE_NUM_PRIO];
	unsigned int prio;

	for (prio = 0; prio < RTUNE_NUM_PRIO; prio++)
		wide[prio] = t[prio];
	fmt_table64(buf, len, wide);
}

/* One setting per selector the action changes: the whole table, before and after. */
static int settings(const struct rtune_action *a, struct rtune_setting *s, int max)
{
	char x[200], y[200];
	int n = 0;

	if ((a->mask & REWR_DSCP) && n < max) {
		fmt_table64(x, sizeof(x), a->from.dcb.rewr_dscp);
		fmt_table64(y, sizeof(y), a->to.dcb.rewr_dscp);
		plan_setting(&s[n++], "rewrite.prio_dscp", x, y);
	}
	if ((a->mask & REWR_PCP) && n < max) {
		fmt_table16(x, sizeof(x), a->from.dcb.rewr_pcp);
		fmt_table16(y, sizeof(y), a->to.dcb.rewr_pcp);
		plan_setting(&s[n++], "rewrite.prio_pcp", x, y);
	}
	return n;
}

/* [[PRIO, VALUE]...] in JSON, " P:V" in text. */
static void show_table(struct rtune_pr *pr, const char *key, const char *label,
		       const uint64_t *t, unsigned int nval)
{
	unsigned int prio, v;
	int n = 0;

	pr_text(pr, " %s", label);
	pr_arr(pr, key);
	for (prio = 0; prio < RTUNE_NUM_PRIO; prio++)
		for (v = 0; v < nval; v++)
			if (t[prio] & (1ull << v)) {
				pr_arr(pr, NULL);
				pr_int(pr, PR_ANY, NULL, " %lld", prio);
				pr_int(pr, PR_ANY, NULL, ":%lld", v);
				pr_end_arr(pr);
				n++;
			}
	pr_end_arr(pr);
	if (!n)
		pr_text(pr, " none");
}

static void show(struct rtune_pr *pr, const struct rtune_link *v)
{
	const struct rtune_dcb *dcb = &v->dcb;
	uint64_t pcp[RTUNE_NUM_PRIO];
	unsigned int prio;

	if (!dcb->has_rewr) {
		pr_null(pr, "rewrite");
		return;
	}
	for (prio = 0; prio < RTUNE_NUM_PRIO; prio++)
		pcp[prio] = dcb->rewr_pcp[prio];
	pr_obj(pr, "rewrite");
	pr_text(pr, "    rewrite:");
	show_table(pr, "prio_dscp", "prio-dscp", dcb->rewr_dscp, 64);
	pr_text(pr, ";");
	show_table(pr, "prio_pcp", "prio-pcp", pcp, 16);
	if (dcb->n_other_rewr)
		pr_text(pr, " (%d other entries)", dcb->n_other_rewr);
	pr_end_obj(pr);
	pr_text(pr, "\n");
}

static const char *const act_names[] = {
	[OP_DEL] = "rewrite-del", [OP_ADD] = "rewrite-add",
};

const struct rtune_obj rtune_obj_rewr = {
	.name = "rewrite",
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
