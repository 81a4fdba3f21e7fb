// SPDX-License-Identifier: GPL-2.0
/*
 * [devlink]: whether the NIC does RoCE at all. The generic parameters
 * enable_roce and enable_iwarp of the netdev's devlink instance, and the
 * roce capability of its devlink port's function (SR-IOV: a VF whose
 * function lacks it has no RoCE). Read and set over devlink netlink
 * (devlink.c).
 *
 * Which configuration mode is written: driverinit when the parameter has
 * it (mlx5's enable_roce), else runtime (ice's), never permanent
 * (firmware). A driverinit value takes effect on the next
 * `devlink dev reload`: the plan says so, and says when a value written
 * earlier still waits for a reload (driverinit differs from runtime).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/devlink.h>
#include "devlink.h"
#include "obj.h"

#define DL_ROCE		1u
#define DL_IWARP	2u
#define DL_FN_ROCE	4u

enum { OP_ROCE, OP_IWARP, OP_FN_ROCE };

static const char *const cmode_names[] = { "runtime", "driverinit", "permanent" };

static int parse_bool(struct rtune_pctx *c, const char *v, bool *out)
{
	if (!strcmp(v, "true")) {
		*out = true;
	} else if (!strcmp(v, "false")) {
		*out = false;
	} else {
		rtune_key_err(c, "bad-value", "'%s' is not a boolean: expected true or false", v);
		return -1;
	}
	return 0;
}

static int k_roce(struct rtune_pctx *c, const char *v)
{
	if (parse_bool(c, v, &c->p->dl_roce))
		return -1;
	c->p->has_dl_roce = true;
	c->p->w_dl_roce.line = c->line;
	return 0;
}

static int k_iwarp(struct rtune_pctx *c, const char *v)
{
	if (parse_bool(c, v, &c->p->dl_iwarp))
		return -1;
	c->p->has_dl_iwarp = true;
	c->p->w_dl_iwarp.line = c->line;
	return 0;
}

static int k_fn_roce(struct rtune_pctx *c, const char *v)
{
	if (parse_bool(c, v, &c->p->dl_fn_roce))
		return -1;
	c->p->has_dl_fn_roce = true;
	return 0;
}

static const struct rtune_key keys[] = {
	{ "enable_roce", k_roce },
	{ "enable_iwarp", k_iwarp },
	{ "port_fn_roce", k_fn_roce },
	{ NULL },
};

static const struct rtune_section section = { .name = "devlink", .keys = keys };

static bool wanted(const struct rtune_profile *p)
{
	return p->has_dl_roce || p->has_dl_iwarp || p->has_dl_fn_roce;
}

static void validate(const struct rtune_profile *p, struct rtune_diags *d)
{
	if (p->has_dl_roce && p->has_dl_iwarp && p->dl_roce && p->dl_iwarp)
		diag_add(d, RTUNE_SEV_ERROR, p->path, p->w_dl_iwarp.line, "devlink", "enable_iwarp",
			 "roce-and-iwarp",
			 "enable_roce and enable_iwarp are both true: a NIC runs one of them (ice refuses both)");
}

/* The cmode rocetune writes for @p, or -1 (permanent only). */
static int write_cmode(const struct rtune_dl_param *p)
{
	if (p->cmodes & (1u << DEVLINK_PARAM_CMODE_DRIVERINIT))
		return DEVLINK_PARAM_CMODE_DRIVERINIT;
	if (p->cmodes & (1u << DEVLINK_PARAM_CMODE_RUNTIME))
		return DEVLINK_PARAM_CMODE_RUNTIME;
	return -1;
}

static bool param_usable(const struct rtune_link *dev, int devidx, const struct rtune_dl_param *p,
			 const char *name, struct rtune_plan *pl)
{
	if (!p->present) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-devlink-param",
			  "%s: devlink %s/%s has no parameter %s", dev->netdev, dev->dl.bus,
			  dev->dl.dev, name);
		return false;
	}
	if (write_cmode(p) < 0) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "devlink-permanent",
			  "%s: %s is a permanent (firmware) setting on %s/%s: rocetune does not change it",
			  dev->netdev, name, dev->dl.bus, dev->dl.dev);
		return false;
	}
	return true;
}

static void target(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		   struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl)
{
	if (!dev->dl.ok) {
		if (dev->dl.err == -ENOENT)
			plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-devlink",
				  "%s: this kernel has no devlink: cannot apply [devlink]",
				  dev->netdev);
		else if (!dev->dl.err || dev->dl.err == -ENODEV)
			plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-devlink",
				  "%s: no devlink port has this netdev: cannot apply [devlink]",
				  dev->netdev);
		else
			plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-devlink",
				  "%s: devlink could not be read (%s): cannot apply [devlink]",
				  dev->netdev, strerror(-dev->dl.err));
		return;
	}
	if (p->has_dl_roce &&
	    param_usable(dev, devidx, &dev->dl.roce, "enable_roce", pl)) {
		want->dl.roce.val[write_cmode(&dev->dl.roce)] = p->dl_roce;
		*mask |= DL_ROCE;
	}
	if (p->has_dl_iwarp &&
	    param_usable(dev, devidx, &dev->dl.iwarp, "enable_iwarp", pl)) {
		want->dl.iwarp.val[write_cmode(&dev->dl.iwarp)] = p->dl_iwarp;
		*mask |= DL_IWARP;
	}
	if (p->has_dl_fn_roce) {
		if (!dev->dl.has_fn_roce) {
			plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-port-fn-roce",
				  "%s: devlink port %s/%s/%u has no port function roce capability (Linux 6.2+ and a driver that has it)",
				  dev->netdev, dev->dl.bus, dev->dl.dev, dev->dl.port);
		} else {
			want->dl.fn_roce = p->dl_fn_roce;
			*mask |= DL_FN_ROCE;
		}
	}
}

static void restore(const struct rtune_link *s, uint32_t touched, struct rtune_link *want,
		    uint32_t *mask)
{
	want->dl = s->dl;
	*mask = touched;
}

/* A driverinit value that differs from the one in effect waits for a reload. */
static void note_pending(const struct rtune_link *cur, int devidx, const struct rtune_dl_param *p,
			 const char *name, bool want, struct rtune_plan *pl)
{
	const uint8_t both = (1u << DEVLINK_PARAM_CMODE_RUNTIME) |
			     (1u << DEVLINK_PARAM_CMODE_DRIVERINIT);

	if ((p->cmodes & both) == both && p->val[DEVLINK_PARAM_CMODE_RUNTIME] != want)
		plan_note(pl, devidx, RTUNE_SEV_WARNING, "devlink-reload",
			  "%s: %s is %s from the next driver load (driverinit), %s until then: run `devlink dev reload %s/%s`",
			  cur->netdev, name, want ? "true" : "false",
			  p->val[DEVLINK_PARAM_CMODE_RUNTIME] ? "true" : "false",
			  cur->dl.bus, cur->dl.dev);
}

static void plan_param(const struct rtune_link *cur, int devidx, const struct rtune_dl_param *p,
		       const struct rtune_dl_param *w, int op, uint32_t bit, const char *name,
		       struct rtune_plan *pl)
{
	int cm = write_cmode(p);
	struct rtune_action *a;

	if (cm < 0)
		return;
	if (cm == DEVLINK_PARAM_CMODE_DRIVERINIT)
		note_pending(cur, devidx, p, name, w->val[cm], pl);
	if (p->val[cm] == w->val[cm])
		return;
	if (cm == DEVLINK_PARAM_CMODE_DRIVERINIT && !(p->cmodes & 1u << DEVLINK_PARAM_CMODE_RUNTIME))
		plan_note(pl, devidx, RTUNE_SEV_WARNING, "devlink-reload",
			  "%s: %s is a driverinit value: it takes effect on `devlink dev reload %s/%s`",
			  cur->netdev, name, cur->dl.bus, cur->dl.dev);
	a = plan_push(pl, &rtune_obj_devlink, op, devidx, cur);
	a->mask = bit;
	if (op == OP_ROCE) {
		a->to.dl.roce.val[cm] = w->val[cm];
		a->to.dl.roce.cmodes = (uint8_t)(1u << cm);	/* the one written */
	} else {
		a->to.dl.iwarp.val[cm] = w->val[cm];
		a->to.dl.iwarp.cmodes = (uint8_t)(1u << cm);
	}
}

static void plan(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		 uint32_t mask, struct rtune_plan *pl)
{
	int pass;

	if (!cur->dl.ok)
		return;
	/* Turning off before turning on: RoCE and iWARP exclude each other. */
	for (pass = 0; pass < 2; pass++) {
		int ci = write_cmode(&cur->dl.iwarp), cr = write_cmode(&cur->dl.roce);
		bool on = pass;

		if ((mask & DL_IWARP) && ci >= 0 && want->dl.iwarp.val[ci] == on)
			plan_param(cur, devidx, &cur->dl.iwarp, &want->dl.iwarp, OP_IWARP, DL_IWARP,
				   "enable_iwarp", pl);
		if ((mask & DL_ROCE) && cr >= 0 && want->dl.roce.val[cr] == on)
			plan_param(cur, devidx, &cur->dl.roce, &want->dl.roce, OP_ROCE, DL_ROCE,
				   "enable_roce", pl);
	}
	if ((mask & DL_FN_ROCE) && cur->dl.has_fn_roce && cur->dl.fn_roce != want->dl.fn_roce) {
		struct rtune_action *a = plan_push(pl, &rtune_obj_devlink, OP_FN_ROCE, devidx, cur);

		a->mask = DL_FN_ROCE;
		a->to.dl.fn_roce = want->dl.fn_roce;
	}
}

/* The cmode an action writes and the value (op OP_ROCE or OP_IWARP). */
static int act_cmode(const struct rtune_action *a, bool *val)
{
	const struct rtune_dl_param *p = a->op == OP_ROCE ? &a->to.dl.roce : &a->to.dl.iwarp;
	int cm = p->cmodes & 1u << DEVLINK_PARAM_CMODE_DRIVERINIT ? DEVLINK_PARAM_CMODE_DRIVERINIT :
		 DEVLINK_PARAM_CMODE_RUNTIME;

	*val = p->val[cm];
	return cm;
}

static int apply(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	const char *name = a->op == OP_ROCE ? "enable_roce" : "enable_iwarp";
	const struct rtune_dl_param *got;
	bool val = false, now;
	int cm = 0, err;

	(void)sk;
	if (a->op == OP_FN_ROCE)
		err = devlink_fn_roce_set(&d->dl, a->to.dl.fn_roce);
	else {
		cm = act_cmode(a, &val);
		err = devlink_param_set(&d->dl, a->op == OP_ROCE ? RTUNE_DL_ENABLE_ROCE :
					RTUNE_DL_ENABLE_IWARP, cm, val);
	}
	if (err)
		return err;
	devlink_read_dev(d);
	if (!d->dl.ok) {
		snprintf(a->why, sizeof(a->why), "read-back failed: %s", strerror(-d->dl.err));
		return d->dl.err ? d->dl.err : -EIO;
	}
	if (a->op == OP_FN_ROCE) {
		if (!d->dl.has_fn_roce || d->dl.fn_roce != a->to.dl.fn_roce) {
			snprintf(a->why, sizeof(a->why), "read-back port function roce is %s",
				 d->dl.has_fn_roce ? d->dl.fn_roce ? "true" : "false" : "absent");
			return -EIO;
		}
		return 0;
	}
	got = a->op == OP_ROCE ? &d->dl.roce : &d->dl.iwarp;
	now = got->val[cm];
	if (!(got->cmodes & 1u << cm) || now != val) {
		snprintf(a->why, sizeof(a->why), "read-back %s (%s) is %s", name, cmode_names[cm],
			 now ? "true" : "false");
		return -EIO;
	}
	return 0;
}

static void describe(const struct rtune_action *a, char *buf, size_t len)
{
	bool val;
	int cm;

	if (a->op == OP_FN_ROCE) {
		snprintf(buf, len, "port %s/%s/%u function roce %s -> %s", a->from.dl.bus,
			 a->from.dl.dev, a->from.dl.port, a->from.dl.fn_roce ? "true" : "false",
			 a->to.dl.fn_roce ? "true" : "false");
		return;
	}
	cm = act_cmode(a, &val);
	snprintf(buf, len, "%s (%s) %s -> %s%s", a->op == OP_ROCE ? "enable_roce" : "enable_iwarp",
		 cmode_names[cm], !val ? "true" : "false", val ? "true" : "false",
		 cm == DEVLINK_PARAM_CMODE_DRIVERINIT ? "; needs `devlink dev reload`" : "");
}

static int settings(const struct rtune_action *a, struct rtune_setting *s, int max)
{
	bool val;

	(void)max;
	if (a->op == OP_FN_ROCE) {
		plan_setting(s, "devlink.port_fn_roce", a->from.dl.fn_roce ? "true" : "false",
			     a->to.dl.fn_roce ? "true" : "false");
		return 1;
	}
	act_cmode(a, &val);
	plan_setting(s, a->op == OP_ROCE ? "devlink.enable_roce" : "devlink.enable_iwarp",
		     !val ? "true" : "false", val ? "true" : "false");
	return 1;
}

static void show_param(struct rtune_pr *pr, const char *key, const struct rtune_dl_param *p)
{
	int cm;

	if (!p->present) {
		pr_null(pr, key);
		return;
	}
	pr_obj(pr, key);
	pr_text(pr, " %s", key);
	for (cm = 0; cm <= DEVLINK_PARAM_CMODE_PERMANENT; cm++) {
		if (!(p->cmodes & 1u << cm))
			continue;
		pr_text(pr, " %s", cmode_names[cm]);
		pr_bool(pr, PR_ANY, cmode_names[cm], " %s", p->val[cm]);
	}
	pr_end_obj(pr);
}

static void show(struct rtune_pr *pr, const struct rtune_link *v)
{
	pr_obj(pr, "devlink");
	pr_bool(pr, PR_JSON, "supported", NULL, v->dl.ok);
	if (v->dl.ok) {
		/* The handle names the device: JSON and text, not the
		 * fingerprint `verify` compares across hosts. */
		pr_text(pr, "    devlink: %s/%s port %u", v->dl.bus, v->dl.dev, v->dl.port);
		if (pr_json(pr)) {
			pr_str(pr, PR_JSON, "handle", NULL, v->dl.bus);
			pr_str(pr, PR_JSON, "device", NULL, v->dl.dev);
			pr_uint(pr, PR_JSON, "port", NULL, v->dl.port);
		}
		show_param(pr, "enable_roce", &v->dl.roce);
		show_param(pr, "enable_iwarp", &v->dl.iwarp);
		if (v->dl.has_fn_roce)
			pr_bool(pr, PR_ANY, "port_fn_roce", " port_fn_roce %s", v->dl.fn_roce);
		else
			pr_null(pr, "port_fn_roce");
		pr_text(pr, "\n");
	}
	pr_end_obj(pr);
}

static const char *const act_names[] = { "devlink-roce", "devlink-iwarp", "devlink-port-fn" };

const struct rtune_obj rtune_obj_devlink = {
	.name = "devlink",
	.scope = RTUNE_SCOPE_DEVLINK,
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
