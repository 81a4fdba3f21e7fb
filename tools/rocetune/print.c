// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include "fingerprint.h"
#include "print.h"
#include "../../kmod/core/params.h"

void pr_init_text(struct rtune_pr *pr, FILE *f)
{
	pr->f = f;
	pr->j = NULL;
	pr->fp = NULL;
}

void pr_init_json(struct rtune_pr *pr, struct jw *j)
{
	pr->f = j->f;
	pr->j = j;
	pr->fp = NULL;
}

void pr_init_flat(struct rtune_pr *pr, struct rtune_fp *fp)
{
	pr->f = NULL;
	pr->j = NULL;
	pr->fp = fp;
}

/* Does a call for @to write anything in this mode? */
static bool text(const struct rtune_pr *pr, enum rtune_pr_to to)
{
	return !pr->j && !pr->fp && to != PR_JSON;
}

static bool json(const struct rtune_pr *pr, enum rtune_pr_to to)
{
	return pr->j && to != PR_TEXT;
}

/* Flat mode takes what JSON takes. */
static bool flat(const struct rtune_pr *pr, enum rtune_pr_to to)
{
	return pr->fp && to != PR_TEXT;
}

void pr_text(struct rtune_pr *pr, const char *fmt, ...)
{
	va_list ap;

	if (pr->j || pr->fp)
		return;
	va_start(ap, fmt);
	vfprintf(pr->f, fmt, ap);
	va_end(ap);
}

void pr_int(struct rtune_pr *pr, enum rtune_pr_to to, const char *key, const char *fmt,
	    long long v)
{
	if (json(pr, to))
		jw_int(pr->j, key, v);
	else if (flat(pr, to))
		rtune_fp_int(pr->fp, key, v);
	else if (text(pr, to))
		fprintf(pr->f, fmt, v);
}

void pr_uint(struct rtune_pr *pr, enum rtune_pr_to to, const char *key, const char *fmt,
	     unsigned long long v)
{
	if (json(pr, to))
		jw_int(pr->j, key, (long long)v);
	else if (flat(pr, to))
		rtune_fp_uint(pr->fp, key, v);
	else if (text(pr, to))
		fprintf(pr->f, fmt, v);
}

void pr_str(struct rtune_pr *pr, enum rtune_pr_to to, const char *key, const char *fmt,
	    const char *s)
{
	if (json(pr, to))
		jw_str(pr->j, key, s);
	else if (flat(pr, to))
		rtune_fp_str(pr->fp, key, s);
	else if (text(pr, to))
		fprintf(pr->f, fmt, s ? s : "?");
}

void pr_bool(struct rtune_pr *pr, enum rtune_pr_to to, const char *key, const char *fmt, bool v)
{
	if (json(pr, to))
		jw_bool(pr->j, key, v);
	else if (flat(pr, to))
		rtune_fp_str(pr->fp, key, v ? "true" : "false");
	else if (text(pr, to))
		fprintf(pr->f, fmt, v ? "on" : "off");
}

void pr_null(struct rtune_pr *pr, const char *key)
{
	if (pr->j)
		jw_null(pr->j, key);
	else if (pr->fp)
		rtune_fp_str(pr->fp, key, NULL);
}

void pr_u8s(struct rtune_pr *pr, const char *key, const char *label, const uint8_t *v, int n)
{
	int i;

	pr_arr(pr, key);
	pr_text(pr, "%s", label);
	for (i = 0; i < n; i++)
		pr_uint(pr, PR_ANY, NULL, " %llu", v[i]);
	pr_end_arr(pr);
}

void pr_prios(struct rtune_pr *pr, const char *key, const char *fmt, uint32_t mask)
{
	char buf[64];
	int k;

	if (pr->fp) {
		rtune_fp_arr(pr->fp, key);
		for (k = 0; k < 8; k++)
			if (mask & (1u << k))
				rtune_fp_uint(pr->fp, NULL, (unsigned long long)k);
		rtune_fp_end(pr->fp);
		return;
	}
	if (!pr->j) {
		rtune_format_prio_mask(mask, buf, sizeof(buf));
		fprintf(pr->f, fmt, buf);
		return;
	}
	jw_arr(pr->j, key);
	for (k = 0; k < 8; k++)
		if (mask & (1u << k))
			jw_int(pr->j, NULL, k);
	jw_end_arr(pr->j);
}

void pr_obj(struct rtune_pr *pr, const char *key)
{
	if (pr->j)
		jw_obj(pr->j, key);
	else if (pr->fp)
		rtune_fp_obj(pr->fp, key);
}

void pr_end_obj(struct rtune_pr *pr)
{
	if (pr->j)
		jw_end_obj(pr->j);
	else if (pr->fp)
		rtune_fp_end(pr->fp);
}

void pr_arr(struct rtune_pr *pr, const char *key)
{
	if (pr->j)
		jw_arr(pr->j, key);
	else if (pr->fp)
		rtune_fp_arr(pr->fp, key);
}

void pr_end_arr(struct rtune_pr *pr)
{
	if (pr->j)
		jw_end_arr(pr->j);
	else if (pr->fp)
		rtune_fp_end(pr->fp);
}
