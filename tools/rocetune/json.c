// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include "json.h"

void jw_init(struct jw *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
}

static void esc(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void pre(struct jw *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (key) {
		esc(j->f, key);
		fputc(':', j->f);
	}
}

static void open_(struct jw *j, const char *key, char c)
{
	pre(j, key);
	fputc(c, j->f);
	if (j->depth < 31)
		j->depth++;
	j->first[j->depth] = true;
}

void jw_obj(struct jw *j, const char *key) { open_(j, key, '{'); }
void jw_arr(struct jw *j, const char *key) { open_(j, key, '['); }

void jw_end_obj(struct jw *j)
{
	fputc('}', j->f);
	if (j->depth)
		j->depth--;
	if (!j->depth)
		fputc('\n', j->f);
}

void jw_end_arr(struct jw *j)
{
	fputc(']', j->f);
	if (j->depth)
		j->depth--;
}

void jw_str(struct jw *j, const char *key, const char *v)
{
	pre(j, key);
	if (v)
		esc(j->f, v);
	else
		fputs("null", j->f);
}

void jw_int(struct jw *j, const char *key, long long v)
{
	pre(j, key);
	fprintf(j->f, "%lld", v);
}

void jw_double(struct jw *j, const char *key, double v)
{
	pre(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.3f", v);
	else
		fputs("null", j->f);
}

void jw_bool(struct jw *j, const char *key, bool v)
{
	pre(j, key);
	fputs(v ? "true" : "false", j->f);
}

void jw_null(struct jw *j, const char *key)
{
	pre(j, key);
	fputs("null", j->f);
}
