// SPDX-License-Identifier: GPL-2.0
/* A device's settings as canonical "path=value" lines (fingerprint.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fingerprint.h"
#include "output.h"
#include "state.h"

void rtune_fp_init(struct rtune_fp *fp)
{
	memset(fp, 0, sizeof(*fp));
	fp->cur = -1;
}

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

static bool val_char(char c)
{
	return c >= 0x20 && c <= 0x7e;
}

/* Is the innermost open thing an array? */
static bool in_arr(const struct rtune_fp *fp)
{
	return fp->depth && fp->st[fp->depth - 1].arr;
}

/* Append @s to the current item's value, printable characters only. */
static void val_cat(struct rtune_fp *fp, const char *s)
{
	char *v = fp->it[fp->cur].val;
	size_t n = strlen(v);

	for (; *s; s++) {
		if (n >= RTUNE_FP_VAL_MAX) {
			fp->err = -E2BIG;
			return;
		}
		v[n++] = val_char(*s) ? *s : '?';
	}
	v[n] = '\0';
}

/* A new item at path "@path.@key" (or "@key" at the top). */
static int new_item(struct rtune_fp *fp, const char *key)
{
	struct rtune_fp_item *it;
	int n;

	if (fp->n >= RTUNE_FP_ITEMS) {
		fp->err = -E2BIG;
		return -1;
	}
	it = &fp->it[fp->n];
	n = snprintf(it->key, sizeof(it->key), "%s%s%s", fp->path, fp->path[0] ? "." : "",
		     key ? key : "");
	if (n < 0 || n > RTUNE_FP_KEY_MAX) {
		fp->err = -E2BIG;
		return -1;
	}
	it->val[0] = '\0';
	return fp->n++;
}

/* Inside an array: the separator before the next element at this depth
 * (" " between elements of the outer array, ":" of an inner one, "," deeper). */
static void arr_elem(struct rtune_fp *fp)
{
	int d, k = 0;

	for (d = 0; d < fp->depth; d++)
		k += fp->st[d].arr;
	if (fp->st[fp->depth - 1].nel++)
		val_cat(fp, k == 1 ? " " : k == 2 ? ":" : ",");
}

static bool push(struct rtune_fp *fp, bool arr)
{
	if (fp->depth >= RTUNE_FP_DEPTH) {
		fp->err = -E2BIG;
		return false;
	}
	fp->st[fp->depth].arr = arr;
	fp->st[fp->depth].plen = strlen(fp->path);
	fp->st[fp->depth].nel = 0;
	fp->depth++;
	return true;
}

void rtune_fp_obj(struct rtune_fp *fp, const char *key)
{
	size_t n;

	if (in_arr(fp)) {	/* no object inside arrays in the state: refuse */
		fp->err = -E2BIG;
		return;
	}
	if (!push(fp, false) || !key)
		return;
	n = strlen(fp->path);
	if (n + 1 + strlen(key) > RTUNE_FP_KEY_MAX) {
		fp->err = -E2BIG;
		return;
	}
	snprintf(fp->path + n, sizeof(fp->path) - n, "%s%s", n ? "." : "", key);
}

void rtune_fp_arr(struct rtune_fp *fp, const char *key)
{
	if (in_arr(fp)) {
		arr_elem(fp);
		push(fp, true);
		return;
	}
	fp->cur = new_item(fp, key);
	if (fp->cur < 0)
		return;
	push(fp, true);
}

void rtune_fp_end(struct rtune_fp *fp)
{
	bool arr;

	if (!fp->depth)
		return;
	arr = fp->st[fp->depth - 1].arr;
	fp->depth--;
	fp->path[fp->st[fp->depth].plen] = '\0';
	if (arr && !in_arr(fp) && fp->cur >= 0) {
		if (!fp->it[fp->cur].val[0])
			val_cat(fp, "none");
		fp->cur = -1;
	}
}

void rtune_fp_str(struct rtune_fp *fp, const char *key, const char *v)
{
	if (in_arr(fp)) {
		if (fp->cur < 0)
			return;
		arr_elem(fp);
		val_cat(fp, v ? v : "null");
		return;
	}
	fp->cur = new_item(fp, key);
	if (fp->cur < 0)
		return;
	val_cat(fp, v ? v : "null");
	fp->cur = -1;
}

void rtune_fp_int(struct rtune_fp *fp, const char *key, long long v)
{
	char b[24];

	snprintf(b, sizeof(b), "%lld", v);
	rtune_fp_str(fp, key, b);
}

void rtune_fp_uint(struct rtune_fp *fp, const char *key, unsigned long long v)
{
	char b[24];

	snprintf(b, sizeof(b), "%llu", v);
	rtune_fp_str(fp, key, b);
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct rtune_fp_item *)a)->key,
		      ((const struct rtune_fp_item *)b)->key);
}

int rtune_fp_sort(struct rtune_fp *fp)
{
	int i;

	qsort(fp->it, (size_t)fp->n, sizeof(fp->it[0]), by_key);
	for (i = 1; i < fp->n; i++)
		if (!strcmp(fp->it[i - 1].key, fp->it[i].key))
			return -EEXIST;
	return 0;
}

/*
 * The trust in effect, one setting: with an APP trust table (Linux 6.2+ and
 * a driver that has it) DSCP when DSCP is its first selector; without one
 * DSCP when the APP table has DSCP entries, as mlx5 decides (obj_app.c).
 * On 6.1 trust is nothing but the DSCP entries, so a host trusting PCP
 * differs in dcb.trust and, necessarily, in dcb.dscp_prio.
 */
static const char *eff_trust(const struct rtune_dcb *dcb)
{
	int d;

	if (dcb->has_trust)
		return dcb->ntrust && dcb->trust[0] == IEEE_8021QAZ_APP_SEL_DSCP ? "dscp" : "pcp";
	for (d = 0; d < 64; d++)
		if (dcb->dscp_prios[d])
			return "dscp";
	return "pcp";
}

int rtune_fp_collect(struct rtune_fp *fp, const struct rtune_link *dev)
{
	struct rtune_pr pr;

	rtune_fp_init(fp);
	pr_init_flat(&pr, fp);
	out_dev_settings(&pr, dev);
	if (dev->dcb.ok)
		rtune_fp_str(fp, "dcb.trust", eff_trust(&dev->dcb));
	if (fp->err)
		return fp->err;
	return rtune_fp_sort(fp);
}

int rtune_fp_format(const struct rtune_fp *fp, char *buf, size_t len)
{
	size_t k = 0;
	int i;

	for (i = 0; i < fp->n; i++) {
		size_t kl = strlen(fp->it[i].key), vl = strlen(fp->it[i].val);

		if (k + kl + vl + 2 > len)
			return -E2BIG;
		memcpy(buf + k, fp->it[i].key, kl);
		k += kl;
		buf[k++] = '=';
		memcpy(buf + k, fp->it[i].val, vl);
		k += vl;
		buf[k++] = '\n';
	}
	return (int)k;
}

int rtune_fp_parse(const char *buf, size_t len, struct rtune_fp *fp, char *why, size_t whylen)
{
	size_t i = 0;

	rtune_fp_init(fp);
	if (len > RTUNE_FP_WIRE_MAX) {
		snprintf(why, whylen, "%zu bytes, more than %d", len, RTUNE_FP_WIRE_MAX);
		return -EINVAL;
	}
	while (i < len) {
		struct rtune_fp_item *it;
		size_t k = 0, v = 0;

		if (fp->n >= RTUNE_FP_ITEMS) {
			snprintf(why, whylen, "more than %d settings", RTUNE_FP_ITEMS);
			return -EINVAL;
		}
		it = &fp->it[fp->n];
		for (; i < len && buf[i] != '='; i++) {
			if (!key_char(buf[i]) || k >= RTUNE_FP_KEY_MAX) {
				snprintf(why, whylen, "setting %d: bad path", fp->n + 1);
				return -EINVAL;
			}
			it->key[k++] = buf[i];
		}
		it->key[k] = '\0';
		if (i >= len || !k) {
			snprintf(why, whylen, "setting %d: no path=value", fp->n + 1);
			return -EINVAL;
		}
		for (i++; i < len && buf[i] != '\n'; i++) {
			if (!val_char(buf[i]) || v >= RTUNE_FP_VAL_MAX) {
				snprintf(why, whylen, "setting %d (%s): bad value", fp->n + 1, it->key);
				return -EINVAL;
			}
			it->val[v++] = buf[i];
		}
		it->val[v] = '\0';
		if (i >= len) {
			snprintf(why, whylen, "setting %d (%s): no newline", fp->n + 1, it->key);
			return -EINVAL;
		}
		i++;
		if (fp->n && strcmp(fp->it[fp->n - 1].key, it->key) >= 0) {
			snprintf(why, whylen, "setting %d (%s): not in order or repeated",
				 fp->n + 1, it->key);
			return -EINVAL;
		}
		fp->n++;
	}
	return 0;
}

int rtune_fp_diff(const struct rtune_fp *a, const struct rtune_fp *b,
		  struct rtune_fp_delta *out, int max)
{
	int i = 0, j = 0, n = 0;

	while (i < a->n || j < b->n) {
		struct rtune_fp_delta d;
		int c = i >= a->n ? 1 : j >= b->n ? -1 : strcmp(a->it[i].key, b->it[j].key);

		if (c < 0) {
			d = (struct rtune_fp_delta){ a->it[i].key, a->it[i].val, NULL };
			i++;
		} else if (c > 0) {
			d = (struct rtune_fp_delta){ b->it[j].key, NULL, b->it[j].val };
			j++;
		} else {
			d = (struct rtune_fp_delta){ a->it[i].key, a->it[i].val, b->it[j].val };
			i++;
			j++;
			if (!strcmp(d.a, d.b))
				continue;
		}
		if (n < max)
			out[n] = d;
		n++;
	}
	return n;
}

const char *rtune_fp_get(const struct rtune_fp *fp, const char *key)
{
	int lo = 0, hi = fp->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(fp->it[mid].key, key);

		if (!c)
			return fp->it[mid].val;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}
