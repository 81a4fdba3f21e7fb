// SPDX-License-Identifier: GPL-2.0
/*
 * The difference engine: pure functions over in-memory state. Loops over
 * the objects (obj.h); what each compares and writes is in its obj_*.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "obj.h"

static int obj_index(const struct rtune_obj *o)
{
	int i;

	for (i = 0; rtune_objs[i]; i++)
		if (rtune_objs[i] == o)
			return i;
	abort();
}

const char *act_name(const struct rtune_action *a)
{
	return a->obj->act_names[a->op];
}

void act_describe(const struct rtune_action *a, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	a->obj->describe(a, buf, len);
}

int act_settings(const struct rtune_action *a, struct rtune_setting *s, int max)
{
	if (max <= 0)
		return 0;
	if (a->obj->settings)
		return a->obj->settings(a, s, max);
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", act_name(a));
	act_describe(a, s->want, sizeof(s->want));
	return 1;
}

/* For the objects' settings(): fill @s, NULL values as "". */
void plan_setting(struct rtune_setting *s, const char *name, const char *cur, const char *want)
{
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->cur, sizeof(s->cur), "%s", cur ? cur : "");
	snprintf(s->want, sizeof(s->want), "%s", want ? want : "");
}

void plan_note(struct rtune_plan *pl, int dev, enum rtune_sev sev, const char *code,
	       const char *fmt, ...)
{
	struct rtune_note *n;
	va_list ap;

	if (sev == RTUNE_SEV_ERROR)
		pl->nerr++;
	if (pl->nnotes >= (int)(sizeof(pl->notes) / sizeof(pl->notes[0])))
		return;
	n = &pl->notes[pl->nnotes++];
	n->dev = dev;
	n->sev = sev;
	snprintf(n->code, sizeof(n->code), "%s", code);
	va_start(ap, fmt);
	vsnprintf(n->msg, sizeof(n->msg), fmt, ap);
	va_end(ap);
}

void plan_free(struct rtune_plan *pl)
{
	free(pl->a);
	pl->a = NULL;
	pl->n = pl->cap = 0;
}

struct rtune_action *plan_push(struct rtune_plan *pl, const struct rtune_obj *o, int op,
			       int dev, const struct rtune_link *cur)
{
	struct rtune_action *a;

	if (pl->n == pl->cap) {
		int cap = pl->cap ? pl->cap * 2 : 16;
		void *na = realloc(pl->a, sizeof(*pl->a) * (size_t)cap);

		if (!na)
			abort();
		pl->a = na;
		pl->cap = cap;
	}
	a = &pl->a[pl->n++];
	memset(a, 0, sizeof(*a));
	a->obj = o;
	a->op = op;
	a->dev = dev;
	a->from = *cur;
	a->to = *cur;
	return a;
}

/* "[a]/[b]" or "[a] and [b]" of the sections of the objects in @scope. */
static void sections_of(enum rtune_scope scope, const char *sep, char *buf, size_t len)
{
	const struct rtune_obj *o;
	int i, n = 0, k = 0;
	size_t w = 0;

	rtune_for_each_obj(i, o)
		n += o->scope == scope && o->section;
	buf[0] = '\0';
	rtune_for_each_obj(i, o) {
		if (o->scope != scope || !o->section || w >= len)
			continue;
		w += (size_t)snprintf(buf + w, len - w, "%s[%s]",
				      !k ? "" : sep ? sep : k == n - 1 ? " and " : ", ",
				      o->section->name);
		k++;
	}
}

bool plan_wants_dcb(const struct rtune_profile *p)
{
	const struct rtune_obj *o;
	int i;

	rtune_for_each_obj(i, o)
		if (o->scope == RTUNE_SCOPE_DCB && o->wanted(p))
			return true;
	return false;
}

void target_from_profile(const struct rtune_profile *p, const struct rtune_link *dev,
			 int devidx, struct rtune_target *t, struct rtune_plan *pl)
{
	bool noted_dcb = false, noted_rdma = false;
	const struct rtune_obj *o;
	char secs[128];
	int i;

	memset(t, 0, sizeof(*t));
	rtune_for_each_obj(i, o) {
		if (!o->wanted(p))
			continue;
		if (o->scope == RTUNE_SCOPE_DCB && !dev->dcb.ok) {
			if (!noted_dcb) {
				sections_of(RTUNE_SCOPE_DCB, "/", secs, sizeof(secs));
				plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-dcb",
					  "%s does not support DCB (dcbnl: %s): cannot apply %s",
					  dev->netdev,
					  strerror(dev->dcb.err ? dev->dcb.err : EOPNOTSUPP), secs);
			}
			noted_dcb = true;
			continue;
		}
		if (o->scope == RTUNE_SCOPE_RDMA && !dev->has_ib) {
			if (!noted_rdma) {
				sections_of(RTUNE_SCOPE_RDMA, NULL, secs, sizeof(secs));
				plan_note(pl, devidx, RTUNE_SEV_WARNING, "no-rdma-device",
					  "%s has no RDMA device: %s do%s not apply to it",
					  dev->netdev, secs, strstr(secs, "] and [") ? "" : "es");
			}
			noted_rdma = true;
			continue;
		}
		o->target(p, dev, devidx, &t->want, &t->mask[i], pl);
	}
}

void plan_touch(struct rtune_touched *t, const struct rtune_action *a)
{
	t->mask[obj_index(a->obj)] |= a->mask;
}

bool plan_touched(const struct rtune_touched *t)
{
	int i;

	for (i = 0; i < RTUNE_MAX_OBJS; i++)
		if (t->mask[i])
			return true;
	return false;
}

void target_from_state(const struct rtune_link *s, const struct rtune_touched *touched,
		       struct rtune_target *t)
{
	const struct rtune_obj *o;
	int i;

	memset(t, 0, sizeof(*t));
	rtune_for_each_obj(i, o)
		if (touched->mask[i])
			o->restore(s, touched->mask[i], &t->want, &t->mask[i]);
}

int plan_device(const struct rtune_link *cur, int devidx, const struct rtune_target *t,
		struct rtune_plan *pl)
{
	const struct rtune_obj *o;
	int n0 = pl->n, i;

	rtune_for_each_obj(i, o)
		if (t->mask[i])
			o->plan(cur, devidx, &t->want, t->mask[i], pl);
	return pl->n - n0;
}

bool plan_dcbx_foreign(const struct rtune_dcb *d)
{
	return d->ok && d->has_dcbx &&
	       ((d->dcbx & DCB_CAP_DCBX_LLD_MANAGED) || !(d->dcbx & DCB_CAP_DCBX_HOST));
}

void plan_owner_dcbx(const struct rtune_link *dev, int devidx, bool force, struct rtune_plan *pl)
{
	const struct rtune_dcb *d = &dev->dcb;

	if (plan_dcbx_foreign(d))
		plan_note(pl, devidx, force ? RTUNE_SEV_WARNING : RTUNE_SEV_ERROR, "conflict-dcbx",
			  "%s: DCBX is managed by %s (dcbx 0x%02x), not the host: settings may be overwritten (or --force)",
			  dev->netdev, d->dcbx & DCB_CAP_DCBX_LLD_MANAGED ? "an LLDP agent" : "firmware",
			  d->dcbx);
}
