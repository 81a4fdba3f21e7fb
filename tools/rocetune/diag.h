/* SPDX-License-Identifier: GPL-2.0 */
/* Diagnostics: errors and warnings with file, line and key, kept in a list
 * so they can be printed for people or emitted in JSON. */
#ifndef ROCETUNE_DIAG_H
#define ROCETUNE_DIAG_H

#include <stdio.h>

enum rtune_sev { RTUNE_SEV_ERROR, RTUNE_SEV_WARNING };

struct rtune_diag {
	enum rtune_sev sev;
	char file[256];
	int line;		/* 0 = not tied to a line */
	char section[32];
	char key[48];
	char code[32];		/* stable machine-readable id, e.g. "unknown-key" */
	char msg[384];
};

#define RTUNE_MAX_DIAGS 64

struct rtune_diags {
	struct rtune_diag d[RTUNE_MAX_DIAGS];
	int n;
	int nerr;
	int nwarn;
	int dropped;
};

void diag_add(struct rtune_diags *ds, enum rtune_sev sev, const char *file, int line,
	      const char *section, const char *key, const char *code,
	      const char *fmt, ...) __attribute__((format(printf, 8, 9)));
void diag_print(const struct rtune_diags *ds, FILE *f);
/* Find a diagnostic by code (for tests); NULL if none. */
const struct rtune_diag *diag_find(const struct rtune_diags *ds, const char *code);

#endif
