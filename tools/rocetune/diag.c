// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <string.h>
#include "diag.h"

static void copy(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

void diag_add(struct rtune_diags *ds, enum rtune_sev sev, const char *file, int line,
	      const char *section, const char *key, const char *code,
	      const char *fmt, ...)
{
	struct rtune_diag *d;
	va_list ap;

	if (sev == RTUNE_SEV_ERROR)
		ds->nerr++;
	else
		ds->nwarn++;
	if (ds->n >= RTUNE_MAX_DIAGS) {
		ds->dropped++;
		return;
	}
	d = &ds->d[ds->n++];
	d->sev = sev;
	copy(d->file, sizeof(d->file), file);
	d->line = line;
	copy(d->section, sizeof(d->section), section);
	copy(d->key, sizeof(d->key), key);
	copy(d->code, sizeof(d->code), code);
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
}

void diag_print(const struct rtune_diags *ds, FILE *f)
{
	int i;

	for (i = 0; i < ds->n; i++) {
		const struct rtune_diag *d = &ds->d[i];

		if (d->file[0])
			fprintf(f, "%s:", d->file);
		if (d->line)
			fprintf(f, "%d:", d->line);
		fprintf(f, " %s: ", d->sev == RTUNE_SEV_ERROR ? "error" : "warning");
		if (d->section[0] && d->key[0])
			fprintf(f, "[%s] %s: ", d->section, d->key);
		else if (d->section[0])
			fprintf(f, "[%s]: ", d->section);
		fprintf(f, "%s\n", d->msg);
	}
	if (ds->dropped)
		fprintf(f, "(%d more diagnostics not shown)\n", ds->dropped);
}

const struct rtune_diag *diag_find(const struct rtune_diags *ds, const char *code)
{
	int i;

	for (i = 0; i < ds->n; i++)
		if (!strcmp(ds->d[i].code, code))
			return &ds->d[i];
	return NULL;
}
