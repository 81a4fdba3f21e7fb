// SPDX-License-Identifier: GPL-2.0
/*
 * qp_ctl, the per-QP tunables (configfs ports/<N>/qp_ctl): the parser of
 * "QPN cc_enable=0|1" and "QPN rate_cap_kbps=N" writes, and the listing
 * of the QPs whose tunables are not the defaults. The tunables live in
 * struct rtune_qp under its lock; the hooks read them (hooks.c, pacing.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/string.h>
#include <linux/sysfs.h>

#include "rocetune.h"
#include "datapath.h"
#include "qp_hash.h"

/* The longest listing line, and the closing line of a listing cut short. */
#define RTUNE_QP_CTL_LINE_MAX	sizeof("16777215 cc_enable=1 rate_cap_kbps=4294967295\n")
#define RTUNE_QP_CTL_MORE_FMT	"# truncated: %u more QPs; qp_stats lists every QP's tunables\n"
#define RTUNE_QP_CTL_MORE_MAX	(sizeof(RTUNE_QP_CTL_MORE_FMT) + 10)

/*
 * The QPs with non-default tunables, one whole line each, in one page (a
 * configfs text attribute). When they do not all fit, the listing ends
 * with a "# truncated: N more QPs; ..." line instead of a cut one;
 * qp_stats, which is not limited to a page, has every QP's cc_enable and
 * rate_cap_kbps.
 */
ssize_t rtune_qp_ctl_show(struct rtune_dp *dp, char *page)
{
	const size_t room = PAGE_SIZE - RTUNE_QP_CTL_MORE_MAX;
	char line[RTUNE_QP_CTL_LINE_MAX];
	struct rtune_qp *qp;
	u32 more = 0;
	size_t n = 0;

	rcu_read_lock();
	rtune_dp_for_each_qp_rcu(dp, qp) {
		size_t l;
		bool en;
		u32 cap;

		spin_lock_bh(&qp->lock);
		en = qp->cc_enable;
		cap = qp->rate_cap_kbps;
		spin_unlock_bh(&qp->lock);
		if (en && !cap)
			continue;
		l = scnprintf(line, sizeof(line), "%u cc_enable=%u rate_cap_kbps=%u\n",
			      qp->qpn, en, cap);
		if (more || n + l > room) {
			more++;
			continue;
		}
		memcpy(page + n, line, l);
		n += l;
	}
	rcu_read_unlock();
	if (more)
		n += scnprintf(page + n, PAGE_SIZE - n, RTUNE_QP_CTL_MORE_FMT, more);
	return n;
}

/*
 * "QPN cc_enable=0|1" or "QPN rate_cap_kbps=N" (0 = no cap). The QP must
 * exist (restrack); it is tracked from now on if it was not, and while it
 * has a setting other than the defaults its entry stays until the QP is
 * destroyed, connected or not, with packets or not.
 */
int rtune_qp_ctl_store(struct rtune_dp *dp, const char *buf, size_t len)
{
	char tmp[64], *val, *sp;
	struct rtune_qp *qp;
	u32 qpn, v;
	int err;

	if (!len || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	sp = strchr(tmp, ' ');
	val = sp ? strchr(sp, '=') : NULL;
	if (!sp || !val)
		return -EINVAL;
	*sp++ = '\0';
	*val++ = '\0';
	if (rtune_parse_u32(tmp, strlen(tmp), &qpn) || qpn > RTUNE_BTH_QPN_MASK ||
	    rtune_parse_u32(val, strlen(val), &v))
		return -EINVAL;
	if (strcmp(sp, "cc_enable") && strcmp(sp, "rate_cap_kbps"))
		return -EINVAL;
	if (!strcmp(sp, "cc_enable") && v > 1)
		return -EINVAL;
	if (!rtune_qp_known(dp, qpn))
		return -ENOENT;

	rcu_read_lock();
	qp = rtune_qp_lookup(dp, qpn);
	if (!qp) {
		local_bh_disable();
		/* Restrack knows it: a confirmed entry, never a flood's. */
		qp = rtune_qp_create(dp, qpn, GFP_ATOMIC, true);
		local_bh_enable();
	}
	err = qp ? 0 : -ENOSPC;
	if (qp) {
		spin_lock_bh(&qp->lock);
		if (!strcmp(sp, "cc_enable"))
			qp->cc_enable = v;
		else
			qp->rate_cap_kbps = v;
		rtune_pacing_update(dp, qp, rcu_dereference(dp->params));
		WRITE_ONCE(qp->idle_gen, 0);
		spin_unlock_bh(&qp->lock);
	}
	rcu_read_unlock();
	return err;
}
