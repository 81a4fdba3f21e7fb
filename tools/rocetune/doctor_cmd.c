// SPDX-License-Identifier: GPL-2.0
/*
 * The `doctor` command: read the host (doctor_read.c), run the rules
 * (doctor_rules.c), print the findings as text or JSON
 * (Documentation/schema/rocetune-doctor.v1.json), and say in the exit
 * status whether anything was found.
 */
#include <stdlib.h>
#include <string.h>
#include "doctor.h"
#include "output.h"

static const char *sev_name(enum rtune_doc_sev s)
{
	return s == DOC_ERROR ? "error" : "warning";
}

static void ev_text(FILE *f, const struct rtune_doc_ev *e)
{
	if (e->is_num)
		fprintf(f, " %s=%.*f", e->key, e->num == (double)(long long)e->num ? 0 : 1, e->num);
	else
		fprintf(f, " %s=%s", e->key, e->str);
}

void rtune_doc_text(FILE *f, const struct rtune_doc_snap *s, const struct rtune_doc_result *r)
{
	int i, k;

	fprintf(f, "rocetune doctor: %d device%s, counters sampled over %.1f s\n", s->n,
		s->n == 1 ? "" : "s", s->interval_s);
	for (i = 0; i < s->n; i++) {
		const struct rtune_doc_port *d = &s->p[i];

		fprintf(f, "  %s", d->l.netdev);
		if (d->l.has_ib)
			fprintf(f, " (%s/%u)", d->l.ibdev, d->l.port);
		fputc('\n', f);
	}
	if (!r->n) {
		fprintf(f, "clean: no findings\n");
		return;
	}
	fprintf(f, "%d finding%s: %d error%s, %d warning%s\n", r->n, r->n == 1 ? "" : "s", r->nerr,
		r->nerr == 1 ? "" : "s", r->nwarn, r->nwarn == 1 ? "" : "s");
	for (i = 0; i < r->n; i++) {
		const struct rtune_doc_finding *x = &r->f[i];

		fprintf(f, "\n%-7s %s: %s\n", sev_name(x->sev), x->code, x->summary);
		fprintf(f, "  evidence:");
		for (k = 0; k < x->nev; k++)
			ev_text(f, &x->ev[k]);
		fprintf(f, "\n  fix: %s\n", x->fix);
	}
	if (r->dropped)
		fprintf(f, "\n(%d more findings not shown)\n", r->dropped);
}

void rtune_doc_json(struct jw *j, const struct rtune_doc_snap *s, const struct rtune_doc_result *r,
		    const struct rtune_doc_cfg *cfg)
{
	int i, k;

	jw_int(j, "interval_ms", (long long)(s->interval_s * 1000 + 0.5));
	jw_obj(j, "thresholds");
	jw_double(j, "pause_frames_per_s", cfg->pause_rate);
	jw_double(j, "errors_per_s", cfg->err_rate);
	jw_end_obj(j);
	jw_arr(j, "devices");
	for (i = 0; i < s->n; i++) {
		const struct rtune_doc_port *d = &s->p[i];

		jw_obj(j, NULL);
		jw_str(j, "netdev", d->l.netdev);
		jw_str(j, "rdma_device", d->l.has_ib ? d->l.ibdev : NULL);
		if (d->l.has_ib)
			jw_int(j, "port", d->l.port);
		else
			jw_null(j, "port");
		jw_end_obj(j);
	}
	jw_end_arr(j);
	jw_arr(j, "findings");
	for (i = 0; i < r->n; i++) {
		const struct rtune_doc_finding *x = &r->f[i];
		const struct rtune_doc_port *d = x->port >= 0 ? &s->p[x->port] : NULL;

		jw_obj(j, NULL);
		jw_str(j, "code", x->code);
		jw_str(j, "severity", sev_name(x->sev));
		jw_str(j, "netdev", d ? d->l.netdev : NULL);
		jw_str(j, "rdma_device", d && d->l.has_ib ? d->l.ibdev : NULL);
		if (d && d->l.has_ib)
			jw_int(j, "port", d->l.port);
		else
			jw_null(j, "port");
		if (x->prio >= 0)
			jw_int(j, "priority", x->prio);
		else
			jw_null(j, "priority");
		jw_str(j, "summary", x->summary);
		jw_obj(j, "evidence");
		for (k = 0; k < x->nev; k++) {
			if (x->ev[k].is_num)
				jw_double(j, x->ev[k].key, x->ev[k].num);
			else
				jw_str(j, x->ev[k].key, x->ev[k].str);
		}
		jw_end_obj(j);
		jw_str(j, "fix", x->fix);
		jw_end_obj(j);
	}
	jw_end_arr(j);
	jw_int(j, "errors", r->nerr);
	jw_int(j, "warnings", r->nwarn);
	jw_int(j, "dropped", r->dropped);
}

static void head(struct jw *j, const struct rtune_doctor_opts *o)
{
	jw_obj(j, NULL);
	jw_int(j, "json_version", RTUNE_JSON_VERSION);
	jw_str(j, "tool", "rocetune");
	jw_str(j, "version", RTUNE_VERSION);
	jw_str(j, "command", "doctor");
	jw_str(j, "profile", o->profile);
}

static void tail(struct jw *j, const char *result, int code)
{
	jw_str(j, "result", result);
	jw_int(j, "exit_code", code);
	jw_end_obj(j);
}

/* Could not run: @msg on stderr, or as the JSON document's "error". */
static int failed(const struct rtune_doctor_opts *o, const char *result, const char *msg,
		  const struct rtune_diags *dg)
{
	if (o->json) {
		struct jw j;

		jw_init(&j, stdout);
		head(&j, o);
		if (dg)
			out_diags_json(&j, dg);
		jw_str(&j, "error", msg);
		tail(&j, result, RTUNE_DOC_EXIT_FAILED);
	} else {
		if (dg)
			diag_print(dg, stderr);
		fprintf(stderr, "rocetune: doctor: %s\n", msg);
	}
	return RTUNE_DOC_EXIT_FAILED;
}

int rtune_doctor(const struct rtune_doctor_opts *o)
{
	static struct rtune_profile prof;
	static struct rtune_diags dg;
	static struct rtune_doc_result r;
	const struct rtune_profile *p = NULL;
	struct rtune_doc_snap s;
	char msg[320];
	int err, code, i, k;

	if (o->profile) {
		if (profile_parse_file(o->profile, &prof, &dg) == 0)
			profile_validate(&prof, &dg);
		if (dg.nerr) {
			snprintf(msg, sizeof(msg), "%s: invalid profile", o->profile);
			return failed(o, "invalid-profile", msg, &dg);
		}
		p = &prof;
	}
	err = rtune_doc_read(p, o->names, o->nnames, o->interval_ms, &s);
	if (err) {
		snprintf(msg, sizeof(msg), "cannot read the host: %s", strerror(-err));
		return failed(o, "error", msg, NULL);
	}
	for (i = 0; i < o->nnames; i++) {
		for (k = 0; k < s.n; k++)
			if (!strcmp(s.p[k].l.netdev, o->names[i]) ||
			    (s.p[k].l.has_ib && !strcmp(s.p[k].l.ibdev, o->names[i])))
				break;
		if (k == s.n) {
			rtune_doc_free(&s);
			snprintf(msg, sizeof(msg), "no netdev or RDMA device named '%s'", o->names[i]);
			return failed(o, "error", msg, NULL);
		}
	}
	if (!s.n) {
		rtune_doc_free(&s);
		return failed(o, "error", p ? "the profile matches no device on this host" :
			      "no netdev with DCB or an RDMA port", NULL);
	}
	rtune_doc_run(&s, p, &o->cfg, &r);
	code = r.nerr ? RTUNE_DOC_EXIT_ERRORS : r.nwarn ? RTUNE_DOC_EXIT_WARNINGS :
	       RTUNE_DOC_EXIT_CLEAN;
	if (o->json) {
		struct jw j;

		jw_init(&j, stdout);
		head(&j, o);
		rtune_doc_json(&j, &s, &r, &o->cfg);
		tail(&j, r.n ? "findings" : "clean", code);
	} else {
		rtune_doc_text(stdout, &s, &r);
	}
	rtune_doc_free(&s);
	return code;
}
