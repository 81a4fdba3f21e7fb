// SPDX-License-Identifier: GPL-2.0
/*
 * The root qdisc of a netdev (qdisc.h). libnl-route's qdisc cache parses
 * the options of the kinds it knows only, and fq is not one of them, so
 * the dump goes through our own reply loop (nl.c) and TCA_OPTIONS is read
 * here with <linux/pkt_sched.h>'s attribute numbers.
 */
#include <errno.h>
#include <string.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include "nl.h"
#include "qdisc.h"

int rtune_root_qdisc_parse(const struct nlmsghdr *h, int ifindex, struct rtune_root_qdisc *q)
{
	const struct nlattr *tb[TCA_MAX + 1], *fq[TCA_FQ_MAX + 1];
	struct rtune_root_qdisc r = { 0 };
	const struct tcmsg *tcm;
	int hdr = NLMSG_ALIGN(sizeof(*tcm));

	if (h->nlmsg_type != RTM_NEWQDISC)
		return 0;
	if (h->nlmsg_len < (uint32_t)nlmsg_size(hdr))
		return -EPROTO;
	tcm = nlmsg_data(h);
	if (tcm->tcm_ifindex != ifindex || tcm->tcm_parent != TC_H_ROOT)
		return 0;
	if (rtune_nla_table((const char *)tcm + hdr, (int)(h->nlmsg_len - nlmsg_size(hdr)),
			    tb, TCA_MAX))
		return -EPROTO;
	if (rtune_nla_str(tb[TCA_KIND], r.kind, sizeof(r.kind)))
		return -EPROTO;
	if (!strcmp(r.kind, "fq") && tb[TCA_OPTIONS]) {
		if (rtune_nla_table(nla_data(tb[TCA_OPTIONS]), nla_len(tb[TCA_OPTIONS]),
				    fq, TCA_FQ_MAX))
			return -EPROTO;
		if (fq[TCA_FQ_ORPHAN_MASK]) {
			if (nla_len(fq[TCA_FQ_ORPHAN_MASK]) != 4 ||
			    rtune_nla_u32(fq[TCA_FQ_ORPHAN_MASK], &r.orphan_mask))
				return -EPROTO;
			r.has_orphan_mask = true;
		}
	}
	*q = r;
	return 1;
}

struct qd_arg {
	int ifindex;
	int found;
	struct rtune_root_qdisc q;
};

static int qd_cb(struct nlmsghdr *h, void *arg)
{
	struct qd_arg *a = arg;
	struct rtune_root_qdisc q;
	int ret = rtune_root_qdisc_parse(h, a->ifindex, &q);

	if (ret < 0)
		return ret;
	if (ret && !a->found) {	/* one root per netdev; keep the first */
		a->q = q;
		a->found = 1;
	}
	return 0;
}

int rtune_root_qdisc_read(struct nl_sock *sk, int ifindex, struct rtune_root_qdisc *q)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex };
	struct qd_arg a = { .ifindex = ifindex };
	struct nl_msg *msg;
	int err;

	msg = nlmsg_alloc_simple(RTM_GETQDISC, NLM_F_REQUEST | NLM_F_DUMP);
	if (!msg)
		return -ENOMEM;
	if (nlmsg_append(msg, &tcm, sizeof(tcm), NLMSG_ALIGNTO) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	err = rtune_nl_transact(sk, msg, qd_cb, &a);
	if (err)
		return err;
	if (!a.found)
		return -ENOENT;
	*q = a.q;
	return 0;
}
