// SPDX-License-Identifier: GPL-2.0
/*
 * DCQCN congestion control parameters of an RDMA port: [cc] preset and
 * every parameter of kmod/core/params.c by name. Two ways to a device:
 * - a vendor surface (surface.h: mlx5 debugfs cc_params/), when the RDMA
 *   device has one: planned and written in the surface's raw values,
 *   file by file, everything read back;
 * - otherwise rocetune.ko's configfs (cc.c): the differing parameters are
 *   staged and committed as one set, then read back.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cc.h"
#include "mstcfg.h"
#include "obj.h"
#include "surface.h"

/* Key bits in the parser: the preset, then one per parameter. */
_Static_assert(1 + RTUNE_P_COUNT <= 64, "[cc] keys fit the parser's 64-bit key set");

static int k_preset(struct rtune_pctx *c, const char *v)
{
	const struct rtune_preset *pr = rtune_preset_lookup(v, strlen(v));
	char names[128] = "";
	unsigned int i;

	if (!pr) {
		for (i = 0; i < rtune_preset_count; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names),
				 "%s%s", i ? ", " : "", rtune_presets[i].name);
		rtune_key_err(c, "bad-value", "'%s' is not a preset: expected one of %s", v, names);
		return -1;
	}
	c->p->preset = pr;
	c->p->has_cc = true;
	c->p->w_preset.line = c->line;
	return 0;
}

static int param_lookup(const char *key)
{
	return rtune_param_lookup(key, strlen(key));
}

static const char *param_name(int id)
{
	return rtune_param_descs[id].name;
}

static int param_parse(struct rtune_pctx *c, int id, const char *v)
{
	const struct rtune_param_desc *pd = &rtune_param_descs[id];
	u32 x;

	if (rtune_param_parse((enum rtune_param_id)id, v, strlen(v), &x)) {
		if (pd->kind == RTUNE_KIND_PRIO_MASK)
			rtune_key_err(c, "bad-value", "'%s' is not a priority list: " RTUNE_PRIO_LIST_HELP, v);
		else if (pd->kind == RTUNE_KIND_BOOL)
			rtune_key_err(c, "bad-value", "'%s' is not valid: expected 0 or 1", v);
		else
			rtune_key_err(c, "bad-value", "'%s' is not valid: expected a decimal %u..%u (%s)",
				      v, pd->min, pd->max, pd->unit);
		return -1;
	}
	c->p->cc.v[id] = x;
	c->p->cc_set_mask |= 1u << id;
	c->p->has_cc = true;
	c->p->w_cc[id].line = c->line;
	return 0;
}

/* Preset values first, then the explicit overrides. */
static void finish(struct rtune_pctx *c, uint64_t seen, uint64_t all)
{
	struct rtune_profile *p = c->p;
	struct rtune_param_set s;
	int i;

	(void)seen;
	(void)all;
	if (!p->preset)
		return;
	s = p->preset->set;
	for (i = 0; i < RTUNE_P_COUNT; i++)
		if (p->cc_set_mask & (1u << i))
			s.v[i] = p->cc.v[i];
	p->cc = s;
	p->cc_set_mask = (1u << RTUNE_P_COUNT) - 1;
}

static const struct rtune_key keys[] = {
	{ "preset", k_preset },
	{ NULL },
};

static const struct rtune_section section = {
	.name = "cc",
	.keys = keys,
	.more_lookup = param_lookup,
	.more_parse = param_parse,
	.more_name = param_name,
	.nmore = RTUNE_P_COUNT,
	.more_what = "and the CC parameters (rocetune params)",
	.finish = finish,
};

static bool wanted(const struct rtune_profile *p)
{
	return p->has_cc;
}

static void validate(const struct rtune_profile *p, struct rtune_diags *d)
{
	struct rtune_param_set s;
	char why[160];

	if (!p->preset)
		return;
	s = p->cc;
	if (rtune_params_validate(&s, why, sizeof(why)))
		diag_add(d, RTUNE_SEV_ERROR, p->path, p->w_preset.line, "cc", "preset", "cc-invalid",
			 "the CC parameter set is inconsistent: %s", why);
}

static void target(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		   struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl)
{
	uint32_t miss;
	int i;

	if (dev->hw.sf) {
		surface_target(p, dev, devidx, want, mask, pl);
		return;
	}
	if (!dev->cc_ok) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-cc",
			  "%s/%u: rocetune.ko configfs is not available (insmod rocetune.ko)",
			  dev->ibdev, dev->port);
		return;
	}
	/*
	 * A device rocetune.ko attached to but runs no DCQCN for (a NIC
	 * whose firmware does, with no vendor surface found above): its
	 * active/ files fail by design, which is not a missing parameter.
	 */
	if (!strcmp(dev->cc_backend, "none")) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-cc-backend",
			  "%s/%u: no congestion-control surface: rocetune.ko runs DCQCN for Soft-RoCE (rxe) only, and rocetune knows no surface of driver %s (Documentation/hardware.rst)",
			  dev->ibdev, dev->port, dev->cc_driver[0] ? dev->cc_driver : "?");
		return;
	}
	miss = p->cc_set_mask & ~dev->cc_valid;
	if (miss) {
		for (i = 0; !(miss & (1u << i)); i++)
			;
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "cc-param-missing",
			  "%s/%u: rocetune.ko does not expose %s", dev->ibdev, dev->port,
			  rtune_param_descs[i].name);
		return;
	}
	*mask = p->cc_set_mask;
	want->cc = p->cc;
	if (!p->preset) {
		/* overrides on top of what is active must still be coherent */
		struct rtune_param_set s = dev->cc;
		char why[160];

		for (i = 0; i < RTUNE_P_COUNT; i++)
			if (*mask & (1u << i))
				s.v[i] = want->cc.v[i];
		if (rtune_params_validate(&s, why, sizeof(why)))
			plan_note(pl, devidx, RTUNE_SEV_ERROR, "cc-invalid",
				  "%s/%u: with the active values, the CC set would be inconsistent: %s",
				  dev->ibdev, dev->port, why);
	}
}

/* Any parameter touched: restore every parameter that was read. */
static void restore(const struct rtune_link *s, uint32_t touched, struct rtune_link *want,
		    uint32_t *mask)
{
	(void)touched;
	if (s->hw.sf) {
		surface_restore(s, want, mask);
		return;
	}
	*mask = s->cc_valid;
	want->cc = s->cc;
}

static void plan(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		 uint32_t mask, struct rtune_plan *pl)
{
	struct rtune_action *a;
	uint32_t diff = 0;
	int i;

	if (cur->hw.sf) {
		surface_plan(cur, devidx, want, mask, pl);
		return;
	}
	if (!cur->cc_ok)
		return;
	for (i = 0; i < RTUNE_P_COUNT; i++)
		if ((mask & (1u << i)) && cur->cc.v[i] != want->cc.v[i])
			diff |= 1u << i;
	if (!diff)
		return;
	a = plan_push(pl, &rtune_obj_cc, 0, devidx, cur);
	a->mask = diff;
	for (i = 0; i < RTUNE_P_COUNT; i++)
		if (diff & (1u << i))
			a->to.cc.v[i] = want->cc.v[i];
}

static int apply(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	int err;

	(void)sk;
	if (a->from.hw.sf)
		return surface_apply(d, a);
	err = cc_apply(d->ibdev, d->port, &a->to.cc, &a->from.cc, a->mask, a->why,
		       sizeof(a->why));
	cc_get(d->ibdev, d->port, &d->cc, &d->cc_valid, NULL, 0);
	return err;
}

static void describe(const struct rtune_action *a, char *buf, size_t len)
{
	size_t n;
	int i;

	if (a->from.hw.sf) {
		surface_describe(a, buf, len);
		return;
	}
	n = (size_t)snprintf(buf, len, "cc");
	for (i = 0; i < RTUNE_P_COUNT && n < len; i++) {
		char f[RTUNE_PARAM_TEXT_MAX], t[RTUNE_PARAM_TEXT_MAX];

		if (!(a->mask & (1u << i)))
			continue;
		rtune_param_format((enum rtune_param_id)i, a->from.cc.v[i], f, sizeof(f));
		rtune_param_format((enum rtune_param_id)i, a->to.cc.v[i], t, sizeof(t));
		n += (size_t)snprintf(buf + n, len - n, " %s %s -> %s;",
				      rtune_param_descs[i].name, f, t);
	}
	if (n < len && buf[n - 1] == ';')
		buf[n - 1] = '\0';
}

static void show(struct rtune_pr *pr, const struct rtune_link *v)
{
	int k;

	if (!v->cc_ok && v->hw.sf) {
		char why[300];

		surface_why(v, why, sizeof(why));
		pr_null(pr, "cc");
		pr_text(pr, "    cc (%s %s): unavailable: %s\n", v->hw.sf->name, v->hw.id, why);
		return;
	}
	if (!v->cc_ok) {
		pr_null(pr, "cc");
		pr_text(pr, "    cc: rocetune.ko not present\n");
		return;
	}
	pr_obj(pr, "cc");
	pr_str(pr, PR_JSON, "backend", NULL, v->cc_backend);
	pr_text(pr, "    cc (%s%s%s%s%s):", v->cc_backend[0] ? v->cc_backend : "?",
		v->hw.ro ? ", read-only: a virtual function" : "",
		v->hw.unused[0] ? "; not used: " : "", v->hw.unused,
		v->hw.unused[0] ? ", MLNX_OFED's ecn/ has the per-priority switches" : "");
	pr_obj(pr, "active");
	for (k = 0; k < RTUNE_P_COUNT; k++) {
		char t[RTUNE_PARAM_TEXT_MAX];

		if (!(v->cc_valid & (1u << k)))
			continue;
		pr_uint(pr, PR_JSON, rtune_param_descs[k].name, NULL, v->cc.v[k]);
		rtune_param_format((enum rtune_param_id)k, v->cc.v[k], t, sizeof(t));
		pr_text(pr, "%s%s %s", k % 4 ? "  " : "\n        ", rtune_param_descs[k].name, t);
	}
	pr_end_obj(pr);
	pr_text(pr, "\n");
	rtune_mstcfg_show(pr, v);
	rtune_irdma_load_show(pr, v);
	pr_end_obj(pr);
}

static int settings(const struct rtune_action *a, struct rtune_setting *s, int max)
{
	char f[RTUNE_PARAM_TEXT_MAX], t[RTUNE_PARAM_TEXT_MAX], name[48];
	int i, n = 0;

	for (i = 0; i < RTUNE_P_COUNT && n < max; i++) {
		if (!(a->mask & (1u << i)))
			continue;
		rtune_param_format((enum rtune_param_id)i, a->from.cc.v[i], f, sizeof(f));
		rtune_param_format((enum rtune_param_id)i, a->to.cc.v[i], t, sizeof(t));
		snprintf(name, sizeof(name), "cc.%s", rtune_param_descs[i].name);
		plan_setting(&s[n++], name, f, t);
	}
	return n;
}

static const char *const act_names[] = { "cc" };

const struct rtune_obj rtune_obj_cc = {
	.name = "cc",
	.scope = RTUNE_SCOPE_RDMA,
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
