/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fingerprint of a device's effective settings, for `rocetune verify`:
 * the state `show -j` prints for the device (the same reads, host.c, and
 * the same printers, obj_*.c through print.c), less what names the device
 * (netdev, ifindex, RDMA device, port), plus dcb.trust, the trust those
 * DCB settings put in effect, flattened into one "path=value" line per
 * setting: "mtu=1500", "dcb.pfc.enabled=3", "dcb.dscp_prio=26:3
 * 48:6", "rdma_cm.tos=106", "cc.active.np_cnp_dscp=48".
 *
 * Canonical form (what goes on the wire): the lines sorted by path, each
 * "path=value\n", paths of [A-Za-z0-9_.-], values of printable ASCII, no
 * path twice. Two hosts with the same settings produce the same bytes.
 * rtune_fp_parse() accepts exactly that form and nothing else: the peer's
 * fingerprint is untrusted input (selftests/fuzz/fuzz_verify.c).
 */
#ifndef ROCETUNE_FINGERPRINT_H
#define ROCETUNE_FINGERPRINT_H

#include <stdbool.h>
#include <stddef.h>

struct rtune_link;

#define RTUNE_FP_KEY_MAX 63	/* bytes of a path */
#define RTUNE_FP_VAL_MAX 1023	/* bytes of a value */
#define RTUNE_FP_ITEMS 128	/* settings of one device */
#define RTUNE_FP_DEPTH 8	/* nesting of objects and arrays */
/* The largest canonical fingerprint: what a peer may send. */
#define RTUNE_FP_WIRE_MAX 65536

struct rtune_fp_item {
	char key[RTUNE_FP_KEY_MAX + 1];
	char val[RTUNE_FP_VAL_MAX + 1];
};

struct rtune_fp {
	int n;
	struct rtune_fp_item it[RTUNE_FP_ITEMS];
	int err;		/* building: 0, or -E2BIG (too many or too long) */
	/* building: the open objects and arrays */
	char path[RTUNE_FP_KEY_MAX + 1];
	int depth;
	struct {
		bool arr;	/* an array (else an object) */
		size_t plen;	/* strlen(path) before it opened */
		int nel;	/* array: elements so far */
	} st[RTUNE_FP_DEPTH];
	int cur;		/* the item the open arrays fill */
};

/* One setting that differs; a value NULL where that side lacks it. */
struct rtune_fp_delta {
	const char *key;
	const char *a, *b;
};

void rtune_fp_init(struct rtune_fp *fp);
/* The builder print.c's flat mode drives. @key NULL inside arrays. */
void rtune_fp_obj(struct rtune_fp *fp, const char *key);
void rtune_fp_arr(struct rtune_fp *fp, const char *key);
void rtune_fp_end(struct rtune_fp *fp);
void rtune_fp_str(struct rtune_fp *fp, const char *key, const char *v);	/* NULL: "null" */
void rtune_fp_int(struct rtune_fp *fp, const char *key, long long v);
void rtune_fp_uint(struct rtune_fp *fp, const char *key, unsigned long long v);

/* @fp := the fingerprint of @dev, sorted. 0 or -E2BIG / -EEXIST. */
int rtune_fp_collect(struct rtune_fp *fp, const struct rtune_link *dev);
/* Sort by path; -EEXIST if a path is there twice. */
int rtune_fp_sort(struct rtune_fp *fp);
/* The canonical bytes of a sorted @fp into @buf (not NUL-terminated);
 * the length, or -E2BIG if more than @len. */
int rtune_fp_format(const struct rtune_fp *fp, char *buf, size_t len);
/* Strictly parse canonical bytes; 0 or -EINVAL with @why said. */
int rtune_fp_parse(const char *buf, size_t len, struct rtune_fp *fp, char *why, size_t whylen);
/* The settings where @a and @b differ, by path; the count (all of them,
 * even beyond @max). Both sorted. */
int rtune_fp_diff(const struct rtune_fp *a, const struct rtune_fp *b,
		  struct rtune_fp_delta *out, int max);
/* The value of @key in sorted @fp, or NULL. */
const char *rtune_fp_get(const struct rtune_fp *fp, const char *key);

#endif
