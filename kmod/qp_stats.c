// SPDX-License-Identifier: GPL-2.0
/*
 * Per-QP statistics as text, from one table of fields (RTUNE_QP_FIELDS):
 *
 *   qp_stats  (ports/<N>/qp_stats) a header line of the field names, then
 *             one line of values per tracked QP, space separated;
 *   qp_watch  (ports/<N>/qp_watch) one QP as "name value" lines.
 *
 * Adding a statistic is one line in the table and one in the snapshot.
 *
 * qp_stats is a configfs binary attribute (a text attribute holds one
 * page, about 20 QPs). configfs reads a binary attribute in two calls: one
 * with no buffer for the size, then one that fills a buffer of exactly
 * that size, all of which goes to userspace whatever the second call
 * returns. So the size must be exact, or the rest of the (vmalloc'ed, not
 * zeroed) buffer would reach userspace. The first call therefore formats
 * the whole table into a snapshot and returns its length; the second
 * copies the snapshot. If another reader replaced the snapshot in
 * between, the second call formats afresh and pads what is left with a
 * '#' comment line.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "rocetune.h"
#include "datapath.h"
#include "qp_hash.h"

/*
 * X(name, kind): the fields in output order. NUM is a decimal number,
 * STATE the entry's state name, SINCE a number or "-" before the first
 * accepted CNP.
 */
#define RTUNE_QP_FIELDS(X)			\
	X(qpn,			NUM)		\
	X(peer_qpn,		NUM)		\
	X(state,		STATE)		\
	X(rate_kbps,		NUM)		\
	X(target_kbps,		NUM)		\
	X(alpha_1024ths,	NUM)		\
	X(cnp_sent,		NUM)		\
	X(cnp_rcvd,		NUM)		\
	X(cnp_rejected,		NUM)		\
	X(ce_rcvd,		NUM)		\
	X(paced_pkts,		NUM)		\
	X(paced_bytes,		NUM)		\
	X(rate_cuts,		NUM)		\
	X(rate_increases,	NUM)		\
	X(since_last_cnp_us,	SINCE)		\
	X(cc_enable,		NUM)		\
	X(rate_cap_kbps,	NUM)

enum rtune_qp_field {
#define RTUNE_QP_FIELD_ID(name, kind) RTUNE_QF_##name,
	RTUNE_QP_FIELDS(RTUNE_QP_FIELD_ID)
#undef RTUNE_QP_FIELD_ID
	RTUNE_QF_COUNT
};

enum rtune_qp_field_kind { RTUNE_QFK_NUM, RTUNE_QFK_STATE, RTUNE_QFK_SINCE };

static const struct {
	const char *name;
	enum rtune_qp_field_kind kind;
} rtune_qp_fields[RTUNE_QF_COUNT] = {
#define RTUNE_QP_FIELD_DESC(name, kind) \
	[RTUNE_QF_##name] = { #name, RTUNE_QFK_##kind },
	RTUNE_QP_FIELDS(RTUNE_QP_FIELD_DESC)
#undef RTUNE_QP_FIELD_DESC
};

/* The qp_stats header is this without its first space. */
#define RTUNE_QP_HEADER_WORD(name, kind) " " #name
static const char rtune_qp_header_sp[] = RTUNE_QP_FIELDS(RTUNE_QP_HEADER_WORD) "\n";
#define RTUNE_QP_HEADER		(rtune_qp_header_sp + 1)
#define RTUNE_QP_HEADER_SIZE	(sizeof(rtune_qp_header_sp) - 1)	/* with NUL */

/* Longest line: every field of at most 20 digits and a separator. */
#define RTUNE_QP_LINE_MAX	(RTUNE_QF_COUNT * 21 + 1)

static const char *const rtune_qp_state_names[] = {
	[RTUNE_QP_NEW] = "new",
	[RTUNE_QP_LIVE] = "live",
	[RTUNE_QP_UNSUPPORTED] = "unsupported",
};

/* One QP's values at one moment, indexed by enum rtune_qp_field. */
struct rtune_qp_snap {
	u64 v[RTUNE_QF_COUNT];
	bool has_cnp;
};

static void rtune_qp_snapshot(struct rtune_qp *qp, struct rtune_qp_snap *s)
{
	const struct rtune_dp_params *p = rcu_dereference(qp->dp->params);
	u64 now_ns = ktime_get_ns();
	struct rtune_qp_counters cnt;
	u8 state;

	s->v[RTUNE_QF_qpn] = qp->qpn;
	/* Pairs with rtune_qp_set_live(): peer fields are valid once LIVE. */
	state = smp_load_acquire(&qp->state);
	s->v[RTUNE_QF_state] = state;
	s->v[RTUNE_QF_peer_qpn] = state == RTUNE_QP_LIVE ? qp->peer_qpn : 0;
	spin_lock_bh(&qp->lock);
	dcqcn_rp_advance(&qp->rp, &p->dc, div_u64(now_ns, NSEC_PER_USEC));
	s->v[RTUNE_QF_rate_kbps] = dcqcn_rp_rate_kbps(&qp->rp);
	s->v[RTUNE_QF_target_kbps] = dcqcn_rp_target_kbps(&qp->rp);
	s->v[RTUNE_QF_alpha_1024ths] =
		((u64)dcqcn_rp_alpha(&qp->rp) * 1024) >> DCQCN_ALPHA_SHIFT;
	s->v[RTUNE_QF_rate_increases] = qp->rp.stats.fast_recovery +
					qp->rp.stats.additive + qp->rp.stats.hyper;
	s->v[RTUNE_QF_cc_enable] = qp->cc_enable;
	s->v[RTUNE_QF_rate_cap_kbps] = qp->rate_cap_kbps;
	cnt = qp->cnt;
	spin_unlock_bh(&qp->lock);
	s->v[RTUNE_QF_cnp_sent] = cnt.cnp_sent;
	s->v[RTUNE_QF_cnp_rcvd] = cnt.cnp_rcvd;
	s->v[RTUNE_QF_cnp_rejected] = cnt.cnp_rejected;
	s->v[RTUNE_QF_ce_rcvd] = cnt.ce_rcvd;
	s->v[RTUNE_QF_paced_pkts] = cnt.paced_pkts;
	s->v[RTUNE_QF_paced_bytes] = cnt.paced_bytes;
	s->v[RTUNE_QF_rate_cuts] = cnt.rate_cuts;
	s->has_cnp = cnt.last_cnp_ns != 0;
	s->v[RTUNE_QF_since_last_cnp_us] = s->has_cnp ?
		div_u64(now_ns - cnt.last_cnp_ns, NSEC_PER_USEC) : 0;
}

/* Field @f of @s as text; @tmp holds numbers. */
static const char *rtune_qp_field_text(const struct rtune_qp_snap *s,
				       enum rtune_qp_field f, char *tmp, size_t len)
{
	switch (rtune_qp_fields[f].kind) {
	case RTUNE_QFK_STATE:
		return rtune_qp_state_names[s->v[f]];
	case RTUNE_QFK_SINCE:
		if (!s->has_cnp)
			return "-";
		break;
	case RTUNE_QFK_NUM:
		break;
	}
	snprintf(tmp, len, "%llu", s->v[f]);
	return tmp;
}

/*
 * Format @qp (caller holds RCU) as one qp_stats line, or as qp_watch's
 * "name value" lines; returns the length, at most @len - 1.
 */
ssize_t rtune_qp_format(struct rtune_qp *qp, char *buf, size_t len, bool line)
{
	struct rtune_qp_snap s;
	enum rtune_qp_field f;
	char tmp[24];
	size_t n = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	rtune_qp_snapshot(qp, &s);
	for (f = 0; f < RTUNE_QF_COUNT; f++) {
		const char *text = rtune_qp_field_text(&s, f, tmp, sizeof(tmp));

		if (line)
			n += scnprintf(buf + n, len - n, "%s%s", f ? " " : "", text);
		else
			n += scnprintf(buf + n, len - n, "%s %s\n",
				       rtune_qp_fields[f].name, text);
	}
	if (line)
		n += scnprintf(buf + n, len - n, "\n");
	return n;
}

/*
 * The bulk table: a header and one line per QP of @dp. With @buf NULL,
 * return an upper bound of its size; else write only whole lines that
 * fit in @len, so QPs that appeared since are left out, never cut in
 * half, and return the length written.
 */
static ssize_t rtune_qp_stats_format(struct rtune_dp *dp, char *buf, size_t len)
{
	char line[RTUNE_QP_LINE_MAX];
	struct rtune_qp *qp;
	size_t n;

	if (!buf)
		return (size_t)(rtune_dp_nqps(dp) + 16) * RTUNE_QP_LINE_MAX +
		       RTUNE_QP_HEADER_SIZE;
	n = strscpy(buf, RTUNE_QP_HEADER, len);
	if ((ssize_t)n < 0)
		return 0;
	rcu_read_lock();
	rtune_dp_for_each_qp_rcu(dp, qp) {
		ssize_t l;

		l = rtune_qp_format(qp, line, sizeof(line), true);
		if (n + l > len)
			break;
		memcpy(buf + n, line, l);
		n += l;
	}
	rcu_read_unlock();
	return n;
}

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
