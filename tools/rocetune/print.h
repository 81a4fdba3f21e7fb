/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One printer for people and for JSON, in the manner of iproute2's print
 * helpers: an object's show function calls pr_uint(pr, PR_ANY, "mtu",
 * " mtu %u", v) once, and that writes "mtu":1500 in JSON mode or " mtu
 * 1500" in text mode. PR_TEXT and PR_JSON limit a call to one mode, for
 * the places where the two differ (text lines, JSON nulls). Objects and
 * arrays (pr_obj, pr_arr) exist in JSON only. A third mode, flat, sees
 * what JSON sees, as one "dcb.ets.bw=..." setting per scalar or array:
 * the fingerprint `rocetune verify` exchanges (fingerprint.h).
 */
#ifndef ROCETUNE_PRINT_H
#define ROCETUNE_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "json.h"

struct rtune_fp;

struct rtune_pr {
	FILE *f;		/* text output (text mode) */
	struct jw *j;		/* JSON writer; NULL in text mode */
	struct rtune_fp *fp;	/* flat "path=value" collector (fingerprint.h); NULL otherwise */
};

enum rtune_pr_to { PR_ANY, PR_TEXT, PR_JSON };

void pr_init_text(struct rtune_pr *pr, FILE *f);
void pr_init_json(struct rtune_pr *pr, struct jw *j);
/* The JSON mode's keys and values, flattened into @fp (fingerprint.c). */
void pr_init_flat(struct rtune_pr *pr, struct rtune_fp *fp);

/* Text only. */
void pr_text(struct rtune_pr *pr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* @key in JSON (NULL inside arrays), @fmt with the one value in text. */
void pr_int(struct rtune_pr *pr, enum rtune_pr_to to, const char *key, const char *fmt,
	    long long v);
void pr_uint(struct rtune_pr *pr, enum rtune_pr_to to, const char *key, const char *fmt,
	     unsigned long long v);
/* @s NULL is null in JSON and "?" in text. */
void pr_str(struct rtune_pr *pr, enum rtune_pr_to to, const char *key, const char *fmt,
	    const char *s);
void pr_bool(struct rtune_pr *pr, enum rtune_pr_to to, const char *key, const char *fmt, bool v);
/* JSON null (nothing in text). */
void pr_null(struct rtune_pr *pr, const char *key);
/* An array of @n small numbers: "key":[...] in JSON; @label then " %u"
 * for each in text. */
void pr_u8s(struct rtune_pr *pr, const char *key, const char *label, const uint8_t *v, int n);
/* A priority bitmap: "key":[3,5] in JSON; @fmt with "3,5" ("none") in text. */
void pr_prios(struct rtune_pr *pr, const char *key, const char *fmt, uint32_t mask);
/* JSON structure (nothing in text). */
void pr_obj(struct rtune_pr *pr, const char *key);
void pr_end_obj(struct rtune_pr *pr);
void pr_arr(struct rtune_pr *pr, const char *key);
void pr_end_arr(struct rtune_pr *pr);

/* JSON or flat: the mode that wants every value, nulls included. */
static inline bool pr_json(const struct rtune_pr *pr)
{
	return pr->j != NULL || pr->fp != NULL;
}

#endif
