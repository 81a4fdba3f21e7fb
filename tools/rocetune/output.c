// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "obj.h"
#include "output.h"

static void show_scope(struct rtune_pr *pr, const struct rtune_link *v, enum rtune_scope scope)
{
	const struct rtune_obj *o;
	int i;

	rtune_for_each_obj(i, o)
		if (o->scope == scope && o->show)
			o->show(pr, v);
}

/*
 * One device: a header line, then the DCB objects, then the RDMA port's.
 * Without @ident, only its settings, not the names and numbers that
 * identify it (the fingerprint, fingerprint.c).
 */
static void show_dev(struct rtune_pr *pr, const struct rtune_link *v, bool ident)
{
	pr_obj(pr, NULL);
	if (ident) {
		pr_str(pr, PR_ANY, "netdev", "%s:", v->netdev);
		pr_int(pr, PR_ANY, "ifindex", " ifindex %lld", v->ifindex);
	}
	show_scope(pr, v, RTUNE_SCOPE_LINK);
	if (ident && v->has_ib) {
		pr_str(pr, PR_ANY, "rdma_device", " rdma %s", v->ibdev);
		pr_uint(pr, PR_ANY, "port", "/%llu", v->port);
	} else if (ident) {
		pr_null(pr, "rdma_device");
		pr_null(pr, "port");
	}
	pr_text(pr, "\n");

	pr_obj(pr, "dcb");
	pr_bool(pr, PR_JSON, "supported", NULL, v->dcb.ok);
	if (!v->dcb.ok)
		pr_text(pr, "    dcb: not supported (%s)\n", strerror(v->dcb.err));
	if (v->dcb.has_dcbx) {
		pr_uint(pr, PR_JSON, "dcbx", NULL, v->dcb.dcbx);
		if (v->dcb.ok)
			pr_text(pr, "    dcbx: 0x%02x%s%s\n", v->dcb.dcbx,
				v->dcb.dcbx & DCB_CAP_DCBX_HOST ? " host" : "",
				v->dcb.dcbx & DCB_CAP_DCBX_VER_IEEE ? " ieee" : "");
	} else {
		pr_null(pr, "dcbx");
	}
	if (pr_json(pr) || v->dcb.ok)
		show_scope(pr, v, RTUNE_SCOPE_DCB);
	pr_end_obj(pr);

	if (pr_json(pr) || v->has_ib)
		show_scope(pr, v, RTUNE_SCOPE_RDMA);
	show_scope(pr, v, RTUNE_SCOPE_DEVLINK);
	pr_end_obj(pr);
}

void out_state(struct rtune_pr *pr, const char *key, const struct rtune_host *h)
{
	int i;

	pr_arr(pr, key);
	for (i = 0; i < h->n; i++)
		show_dev(pr, &h->dev[i], true);
	pr_end_arr(pr);
}

void out_dev_settings(struct rtune_pr *pr, const struct rtune_link *v)
{
	show_dev(pr, v, false);
}

void out_state_text(FILE *f, const struct rtune_host *h)
{
	struct rtune_pr pr;

	pr_init_text(&pr, f);
	out_state(&pr, NULL, h);
}

void out_state_json(struct jw *j, const char *key, const struct rtune_host *h)
{
	struct rtune_pr pr;

	pr_init_json(&pr, j);
	out_state(&pr, key, h);
}

void out_diags_json(struct jw *j, const struct rtune_diags *d)
{
	int i;

	jw_arr(j, "diagnostics");
	for (i = 0; i < d->n; i++) {
		const struct rtune_diag *x = &d->d[i];

		jw_obj(j, NULL);
		jw_str(j, "severity", x->sev == RTUNE_SEV_ERROR ? "error" : "warning");
		jw_str(j, "code", x->code);
		jw_str(j, "file", x->file[0] ? x->file : NULL);
		if (x->line)
			jw_int(j, "line", x->line);
		else
			jw_null(j, "line");
		jw_str(j, "section", x->section[0] ? x->section : NULL);
		jw_str(j, "key", x->key[0] ? x->key : NULL);
		jw_str(j, "message", x->msg);
		jw_end_obj(j);
	}
	jw_end_arr(j);
}

const char *act_status(const struct rtune_action *a, bool executed)
{
	if (!executed)
		return "planned";
	if (a->done)
		return "applied";
	if (a->err)
		return "failed";
	return "not-run";
}

void out_plan_text(FILE *f, const struct rtune_host *h, const struct rtune_plan *pl, bool executed)
{
	int i, k;

	for (i = 0; i < h->n; i++) {
		const struct rtune_link *v = &h->dev[i];
		int n = 0;

		for (k = 0; k < pl->n; k++)
			n += pl->a[k].dev == i;
		fprintf(f, "%s", v->netdev);
		if (v->has_ib)
			fprintf(f, " (%s/%u)", v->ibdev, v->port);
		fprintf(f, ":%s\n", n ? "" : " in the declared state");
		for (k = 0; k < pl->nnotes; k++)
			if (pl->notes[k].dev == i)
				fprintf(f, "    %s: %s\n",
					pl->notes[k].sev == RTUNE_SEV_ERROR ? "error" : "note",
					pl->notes[k].msg);
		for (k = 0; k < pl->n; k++) {
			char buf[1024];
			const struct rtune_action *a = &pl->a[k];

			if (a->dev != i)
				continue;
			act_describe(a, buf, sizeof(buf));
			if (executed)
				fprintf(f, "    [%s] %s%s%s\n", act_status(a, true), buf,
					a->err ? ": " : "", a->err ? a->why : "");
			else
				fprintf(f, "    %s\n", buf);
		}
	}
}

void out_devices_json(struct jw *j, const struct rtune_host *h, const struct rtune_plan *pl,
		      bool executed)
{
	int i, k;

	jw_arr(j, "devices");
	for (i = 0; i < h->n; i++) {
		const struct rtune_link *v = &h->dev[i];

		jw_obj(j, NULL);
		jw_str(j, "netdev", v->netdev);
		jw_str(j, "rdma_device", v->has_ib ? v->ibdev : NULL);
		if (v->has_ib)
			jw_int(j, "port", v->port);
		else
			jw_null(j, "port");
		jw_arr(j, "notes");
		for (k = 0; k < pl->nnotes; k++) {
			if (pl->notes[k].dev != i)
				continue;
			jw_obj(j, NULL);
			jw_str(j, "severity", pl->notes[k].sev == RTUNE_SEV_ERROR ? "error" : "warning");
			jw_str(j, "code", pl->notes[k].code);
			jw_str(j, "message", pl->notes[k].msg);
			jw_end_obj(j);
		}
		jw_end_arr(j);
		jw_arr(j, "actions");
		for (k = 0; k < pl->n; k++) {
			const struct rtune_action *a = &pl->a[k];
			char buf[1024];

			if (a->dev != i)
				continue;
			act_describe(a, buf, sizeof(buf));
			jw_obj(j, NULL);
			jw_str(j, "object", act_name(a));
			jw_str(j, "change", buf);
			jw_str(j, "status", act_status(a, executed));
			jw_str(j, "error", a->err ? a->why : NULL);
			jw_end_obj(j);
		}
		jw_end_arr(j);
		jw_end_obj(j);
	}
	jw_end_arr(j);
}

void out_rollback_text(FILE *f, const struct rtune_host *h, const struct rtune_apply_result *r)
{
	int k;

	if (!r->rollback_attempted)
		return;
	fprintf(f, "rollback: %s\n", r->rollback_complete ?
		"complete, the host is back in its previous state" :
		"INCOMPLETE, the host is not in its previous state");
	for (k = 0; k < r->rb.n; k++) {
		const struct rtune_action *a = &r->rb.a[k];
		char buf[1024];

		act_describe(a, buf, sizeof(buf));
		fprintf(f, "    %s: [%s] %s%s%s\n", h->dev[a->dev].netdev,
			a->done ? "restored" : "failed", buf, a->err ? ": " : "",
			a->err ? a->why : "");
	}
}

void out_rollback_json(struct jw *j, const struct rtune_host *h, const struct rtune_apply_result *r)
{
	int k;

	jw_obj(j, "rollback");
	jw_bool(j, "attempted", r->rollback_attempted);
	jw_bool(j, "complete", r->rollback_attempted && r->rollback_complete);
	jw_arr(j, "actions");
	for (k = 0; k < r->rb.n; k++) {
		const struct rtune_action *a = &r->rb.a[k];
		char buf[1024];

		act_describe(a, buf, sizeof(buf));
		jw_obj(j, NULL);
		jw_str(j, "netdev", h->dev[a->dev].netdev);
		jw_str(j, "object", act_name(a));
		jw_str(j, "change", buf);
		jw_str(j, "status", a->done ? "restored" : "failed");
		jw_str(j, "error", a->err ? a->why : NULL);
		jw_end_obj(j);
	}
	jw_end_arr(j);
	jw_end_obj(j);
}
