// SPDX-License-Identifier: GPL-2.0
/* irdma's DCQCN module parameters as loaded, against its live switch (irdma_load.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "irdma_load.h"
#include "cfs.h"
#include "obj.h"
#include "plan.h"
#include "print.h"
#include "state.h"
#include "surface.h"

const char *const rtune_irdma_mp_names[RTUNE_IRDMA_MP_COUNT] = {
	"dcqcn_enable", "dcqcn_cc_cfg_valid", "dcqcn_min_dec_factor", "dcqcn_min_rate_MBps",
	"dcqcn_F", "dcqcn_T", "dcqcn_B", "dcqcn_rai_factor", "dcqcn_hai_factor",
	"dcqcn_rreduce_mperiod",
};

/* The largest value of each parameter's type (main.c's module_param()s);
 * 1 marks a bool. */
static const uint32_t mp_max[RTUNE_IRDMA_MP_COUNT] = {
	1, 1, 0xff, 0xff, 0xff, 0xffff, 0xffffffff, 0xffff, 0xffff, 0xffffffff,
};

int rtune_irdma_mp_parse(enum rtune_irdma_mp id, const char *text, size_t len, uint32_t *v)
{
	char buf[16], *end;
	unsigned long long n;

	if (len && text[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof(buf) || memchr(text, '\0', len))
		return -EINVAL;
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (mp_max[id] == 1) {
		/* param_get_bool() prints Y or N */
		if (!strcmp(buf, "Y") || !strcmp(buf, "N")) {
			*v = buf[0] == 'Y';
			return 0;
		}
		return -EINVAL;
	}
	if (buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	errno = 0;
	n = strtoull(buf, &end, 10);
	if (errno || *end || n > mp_max[id])
		return -EINVAL;
	*v = (uint32_t)n;
	return 0;
}

static const char *sysfs_module(void)
{
	const char *r = getenv(RTUNE_ENV_TEST_SYSFS_MODULE);

	return r && *r ? r : "/sys/module";
}

/* The surface file that is irdma's DCQCN switch, or -1. */
static int switch_file(const struct rtune_surface *sf)
{
	int f;

	for (f = 0; f < sf->nfiles; f++)
		if (!strcmp(sf->files[f], "roce_dcqcn_enable"))
			return f;
	return -1;
}

static void read_params(struct rtune_hwld *ld)
{
	char path[512], text[64];
	int i, err;

	memset(ld, 0, sizeof(*ld));
	for (i = 0; i < RTUNE_IRDMA_MP_COUNT; i++) {
		snprintf(path, sizeof(path), "%s/irdma/parameters/%s", sysfs_module(),
			 rtune_irdma_mp_names[i]);
		err = cfs_read(path, text, sizeof(text));
		if (err == -ENOENT && i != RTUNE_IRDMA_MP_ENABLE)
			continue;	/* another irdma version: shown as absent */
		if (err) {
			snprintf(ld->why, sizeof(ld->why), "%.80s/irdma/parameters/%s: %s",
				 sysfs_module(), rtune_irdma_mp_names[i], strerror(-err));
			ld->state = err;
			return;
		}
		if (rtune_irdma_mp_parse((enum rtune_irdma_mp)i, text, strlen(text), &ld->v[i])) {
			snprintf(ld->why, sizeof(ld->why),
				 "%.60s/irdma/parameters/%s: not a value of its type: '%.32s'",
				 sysfs_module(), rtune_irdma_mp_names[i], text);
			ld->state = -EPROTO;
			return;
		}
		ld->valid |= 1u << i;
	}
	ld->state = 1;
}

void rtune_irdma_load_read_host(struct rtune_host *h)
{
	int i;

	for (i = 0; i < h->n; i++) {
		struct rtune_link *d = &h->dev[i];

		if (d->hw.sf == &rtune_surface_irdma && d->cc_ok && switch_file(d->hw.sf) >= 0)
			read_params(&d->hw.ld);
	}
}

static const char *yn(uint32_t v)
{
	return v ? "Y" : "N";
}

void rtune_irdma_load_plan_notes(const struct rtune_host *h, struct rtune_plan *pl)
{
	int i, k;

	for (i = 0; i < h->n; i++) {
		const struct rtune_link *d = &h->dev[i];
		const struct rtune_hwld *ld = &d->hw.ld;
		int f = d->hw.sf ? switch_file(d->hw.sf) : -1;
		uint32_t live, load;
		bool changes = false;

		if (!ld->state || f < 0 || !(d->hw.raw_valid & (1u << f)))
			continue;
		/* the switch after the plan: now, then each cc action's */
		live = d->hw.raw[f];
		for (k = 0; k < pl->n; k++) {
			const struct rtune_action *a = &pl->a[k];

			if (a->dev == i && a->obj == &rtune_obj_cc && a->from.hw.sf &&
			    (a->mask & (1u << f))) {
				changes |= live != a->to.hw.raw[f];
				live = a->to.hw.raw[f];
			}
		}
		if (ld->state < 0) {
			if (changes)
				plan_note(pl, i, RTUNE_SEV_WARNING, "cc-persistent-unknown",
					  "%s/%u: roce_dcqcn_enable lasts until irdma is loaded again, and its module parameters could not be read: %s",
					  d->ibdev, d->port, ld->why);
			continue;
		}
		load = ld->v[RTUNE_IRDMA_MP_ENABLE];
		if (live == load)
			continue;
		plan_note(pl, i, RTUNE_SEV_WARNING, "cc-not-persistent",
			  "%s/%u: %sroce_dcqcn_enable %u differs from irdma's module parameter dcqcn_enable (%s), which irdma copies into it whenever it loads: to keep it, `options irdma dcqcn_enable=%s` in /etc/modprobe.d/",
			  d->ibdev, d->port, changes ? "after this apply, " : "", live, yn(load), yn(live));
		if (live && !load)
			plan_note(pl, i, RTUNE_SEV_WARNING, "cc-firmware-defaults",
				  "%s/%u: irdma was loaded without dcqcn_enable and ignored its other dcqcn_* parameters: its DCQCN runs on the firmware's defaults until irdma is loaded with them",
				  d->ibdev, d->port);
	}
}

void rtune_irdma_load_show(struct rtune_pr *pr, const struct rtune_link *v)
{
	const struct rtune_hwld *ld = &v->hw.ld;
	char list[400], val[16];
	size_t n = 0;
	int i, f;

	if (!ld->state || !v->hw.sf)
		return;
	f = switch_file(v->hw.sf);
	pr_obj(pr, "load_time");
	pr_str(pr, PR_JSON, "source", NULL, "irdma module parameters");
	if (ld->state < 0) {
		pr_str(pr, PR_JSON, "error", NULL, ld->why);
		pr_text(pr, "        load-time (irdma module parameters): not read: %s; whether roce_dcqcn_enable survives a reload of irdma is unknown\n",
			ld->why);
		pr_end_obj(pr);
		return;
	}
	pr_null(pr, "error");
	pr_obj(pr, "params");
	list[0] = '\0';
	for (i = 0; i < RTUNE_IRDMA_MP_COUNT; i++) {
		if (!(ld->valid & (1u << i)))
			continue;
		if (mp_max[i] == 1)
			pr_bool(pr, PR_JSON, rtune_irdma_mp_names[i], NULL, ld->v[i]);
		else
			pr_uint(pr, PR_JSON, rtune_irdma_mp_names[i], NULL, ld->v[i]);
		if (mp_max[i] == 1)
			snprintf(val, sizeof(val), "%s", yn(ld->v[i]));
		else
			snprintf(val, sizeof(val), "%u", ld->v[i]);
		if (n < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s %s", n ? "  " : "",
					      rtune_irdma_mp_names[i], val);
	}
	pr_end_obj(pr);
	pr_text(pr, "        load-time (irdma module parameters): %s\n", list);
	pr_arr(pr, "differs");
	if (f >= 0 && (v->hw.raw_valid & (1u << f)) &&
	    v->hw.raw[f] != ld->v[RTUNE_IRDMA_MP_ENABLE]) {
		pr_obj(pr, NULL);
		pr_str(pr, PR_JSON, "file", NULL, "roce_dcqcn_enable");
		pr_uint(pr, PR_JSON, "live", NULL, v->hw.raw[f]);
		pr_str(pr, PR_JSON, "param", NULL, "dcqcn_enable");
		pr_bool(pr, PR_JSON, "load_time", NULL, ld->v[RTUNE_IRDMA_MP_ENABLE]);
		pr_end_obj(pr);
		pr_text(pr, "        live roce_dcqcn_enable %u differs from dcqcn_enable %s: loading irdma again brings back %s\n",
			v->hw.raw[f], yn(ld->v[RTUNE_IRDMA_MP_ENABLE]),
			yn(ld->v[RTUNE_IRDMA_MP_ENABLE]));
	}
	pr_end_arr(pr);
	pr_bool(pr, PR_JSON, "dcqcn_params_used", NULL, ld->v[RTUNE_IRDMA_MP_ENABLE]);
	if (!ld->v[RTUNE_IRDMA_MP_ENABLE])
		pr_text(pr, "        loaded without dcqcn_enable: irdma ignored its other dcqcn_* parameters (DCQCN, where switched on, runs on the firmware's defaults)\n");
	pr_end_obj(pr);
}
