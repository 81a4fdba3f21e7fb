// SPDX-License-Identifier: GPL-2.0
/*
 * The qp_stats bulk read, a configfs binary attribute.
 *
 * configfs reads a binary attribute in two calls: one with no buffer for
 * the size, then one that fills a buffer of exactly that size, all of
 * which goes to userspace whatever the second call returns. So the size
 * must be exact, or the rest of the (vmalloc'ed, not zeroed) buffer would
 * reach userspace. The first call therefore formats the whole table into
 * a snapshot and returns its length; the second copies the snapshot. If
 * another reader replaced the snapshot in between, the second call
 * formats afresh and pads what is left with a '#' comment line.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "rocetune.h"
#include "datapath.h"

/* Protects the snapshot: rtune_qp_stats_snap, _len and _dp. */
static DEFINE_MUTEX(rtune_qp_stats_lock);
static char *rtune_qp_stats_snap;
static size_t rtune_qp_stats_len;
/* Only compared, never dereferenced: the datapath may be gone. */
static const struct rtune_dp *rtune_qp_stats_dp;

static void rtune_qp_stats_drop(void)
{
	kvfree(rtune_qp_stats_snap);
	rtune_qp_stats_snap = NULL;
	rtune_qp_stats_len = 0;
	rtune_qp_stats_dp = NULL;
}

/* Turn buf[n..len) into a comment line, so the whole buffer is text. */
static void rtune_qp_stats_pad(char *buf, size_t n, size_t len)
{
	if (n >= len)
		return;
	memset(buf + n, ' ', len - n);
	buf[n] = len - n > 1 ? '#' : '\n';
	buf[len - 1] = '\n';
}

ssize_t rtune_qp_stats_read(struct rtune_dp *dp, char *buf, size_t len)
{
	ssize_t ret;
	size_t cap;
	char *snap;

	mutex_lock(&rtune_qp_stats_lock);
	if (!buf) {
		cap = rtune_qp_stats_format(dp, NULL, 0);
		snap = kvmalloc(cap, GFP_KERNEL);
		if (!snap) {
			ret = -ENOMEM;
			goto out;
		}
		rtune_qp_stats_drop();
		rtune_qp_stats_snap = snap;
		rtune_qp_stats_len = rtune_qp_stats_format(dp, snap, cap);
		rtune_qp_stats_dp = dp;
		ret = rtune_qp_stats_len;
		goto out;
	}
	if (rtune_qp_stats_snap && rtune_qp_stats_dp == dp &&
	    rtune_qp_stats_len == len) {
		memcpy(buf, rtune_qp_stats_snap, len);
	} else {
		size_t n = rtune_qp_stats_format(dp, buf, len);

		rtune_qp_stats_pad(buf, n, len);
	}
	rtune_qp_stats_drop();
	ret = len;
out:
	mutex_unlock(&rtune_qp_stats_lock);
	return ret;
}

/* Module exit: a reader that never made its second call left a snapshot. */
void rtune_qp_stats_exit(void)
{
	mutex_lock(&rtune_qp_stats_lock);
	rtune_qp_stats_drop();
	mutex_unlock(&rtune_qp_stats_lock);
}
