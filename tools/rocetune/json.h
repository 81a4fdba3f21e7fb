/* SPDX-License-Identifier: GPL-2.0 */
/* A tiny streaming JSON writer (objects, arrays, escaped strings). */
#ifndef ROCETUNE_JSON_H
#define ROCETUNE_JSON_H

#include <stdbool.h>
#include <stdio.h>

struct jw {
	FILE *f;
	int depth;
	bool first[32];
};

void jw_init(struct jw *j, FILE *f);
void jw_obj(struct jw *j, const char *key);	/* key NULL inside arrays/top */
void jw_end_obj(struct jw *j);
void jw_arr(struct jw *j, const char *key);
void jw_end_arr(struct jw *j);
void jw_str(struct jw *j, const char *key, const char *v);	/* NULL -> null */
void jw_int(struct jw *j, const char *key, long long v);
/* A number with up to 3 decimals; NaN and infinities -> null. */
void jw_double(struct jw *j, const char *key, double v);
void jw_bool(struct jw *j, const char *key, bool v);
void jw_null(struct jw *j, const char *key);

#endif
