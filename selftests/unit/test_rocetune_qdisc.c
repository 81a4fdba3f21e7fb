// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the root-qdisc reader (tools/rocetune/qdisc.c), on
 * RTM_NEWQDISC messages built as net/sched/sch_api.c's tc_fill_qdisc()
 * and sch_fq.c's fq_dump() build them: the root of the asked netdev is
 * found with fq's orphan mask, every other qdisc is passed over, and torn
 * messages are refused without touching the result.
 */
#include <errno.h>
#include <string.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/qdisc.h"

#define IFX 7

/* A qdisc of @kind on @ifindex under @parent; @mask_len 4 is fq's own
 * orphan mask, 0 none, anything else a torn attribute. */
static struct nl_msg *qmsg(int ifindex, uint32_t parent, const char *kind, int mask_len,
			   uint32_t mask)
{
	struct tcmsg t = { .tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex,
			   .tcm_handle = 0x80010000, .tcm_parent = parent };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWQDISC, NLM_F_MULTI);
	uint32_t val[2] = { mask, 0 };	/* up to 8 bytes for the torn cases */
	struct nlattr *o;

	nlmsg_append(m, &t, sizeof(t), NLMSG_ALIGNTO);
	nla_put_string(m, TCA_KIND, kind);
	o = nla_nest_start(m, TCA_OPTIONS);
	nla_put_u32(m, TCA_FQ_PLIMIT, 10000);
	if (mask_len)
		nla_put(m, TCA_FQ_ORPHAN_MASK, mask_len, val);
	nla_nest_end(m, o);
	return m;
}

static int parse(struct nl_msg *m, struct rtune_root_qdisc *q)
{
	int ret = rtune_root_qdisc_parse(nlmsg_hdr(m), IFX, q);

	nlmsg_free(m);
	return ret;
}

static void test_found(void)
{
	struct rtune_root_qdisc q;

	memset(&q, 0, sizeof(q));
	tap_check(parse(qmsg(IFX, TC_H_ROOT, "fq", 4, 1023), &q) == 1 &&
		  !strcmp(q.kind, "fq") && q.has_orphan_mask && q.orphan_mask == 1023,
		  "root fq with fq's default mask: found, mask 1023");
	tap_check(parse(qmsg(IFX, TC_H_ROOT, "fq", 4, UINT32_MAX), &q) == 1 &&
		  q.has_orphan_mask && q.orphan_mask == UINT32_MAX,
		  "root fq orphan_mask 4294967295: found, mask all ones");
	tap_check(parse(qmsg(IFX, TC_H_ROOT, "fq", 0, 0), &q) == 1 && !q.has_orphan_mask,
		  "root fq that reports no mask: found, mask not claimed");
	tap_check(parse(qmsg(IFX, TC_H_ROOT, "pfifo_fast", 4, 1023), &q) == 1 &&
		  !strcmp(q.kind, "pfifo_fast") && !q.has_orphan_mask,
		  "root of another kind: its kind, and its options not read as fq's");
}

static void test_passed_over(void)
{
	struct rtune_root_qdisc q = { .kind = "keep" };
	struct nl_msg *m;

	tap_check(parse(qmsg(IFX + 1, TC_H_ROOT, "fq", 4, 1), &q) == 0 && !strcmp(q.kind, "keep"),
		  "another netdev's root: passed over");
	tap_check(parse(qmsg(IFX, 0x80010001, "fq", 4, 1), &q) == 0 && !strcmp(q.kind, "keep"),
		  "a child qdisc of the netdev (mq's fq): passed over");
	m = qmsg(IFX, TC_H_ROOT, "fq", 4, 1);
	nlmsg_hdr(m)->nlmsg_type = RTM_NEWLINK;
	tap_check(parse(m, &q) == 0 && !strcmp(q.kind, "keep"), "not an RTM_NEWQDISC: passed over");
}

static void test_torn(void)
{
	struct rtune_root_qdisc q = { .kind = "keep" };
	struct nl_msg *m;

	tap_check(parse(qmsg(IFX, TC_H_ROOT, "fq", 2, 1023), &q) == -EPROTO &&
		  !strcmp(q.kind, "keep"), "orphan mask of 2 bytes: -EPROTO, result untouched");
	tap_check(parse(qmsg(IFX, TC_H_ROOT, "fq", 8, 1023), &q) == -EPROTO &&
		  !strcmp(q.kind, "keep"), "orphan mask of 8 bytes: -EPROTO, result untouched");
	tap_check(parse(qmsg(IFX, TC_H_ROOT, "a-kind-of-twenty-chars", 4, 1), &q) == -EPROTO &&
		  !strcmp(q.kind, "keep"), "kind longer than any qdisc's: -EPROTO");
	m = qmsg(IFX, TC_H_ROOT, "fq", 4, 1);
	nlmsg_hdr(m)->nlmsg_len = NLMSG_HDRLEN + 8;	/* half a tcmsg */
	tap_check(parse(m, &q) == -EPROTO && !strcmp(q.kind, "keep"),
		  "message shorter than its tcmsg: -EPROTO");
	m = qmsg(IFX, TC_H_ROOT, "fq", 4, 1);
	nlmsg_hdr(m)->nlmsg_len -= 6;	/* the last attribute cut */
	tap_check(parse(m, &q) == -EPROTO && !strcmp(q.kind, "keep"),
		  "last attribute cut short: -EPROTO");
	m = nlmsg_alloc_simple(RTM_NEWQDISC, NLM_F_MULTI);
	{
		struct tcmsg t = { .tcm_ifindex = IFX, .tcm_parent = TC_H_ROOT };

		nlmsg_append(m, &t, sizeof(t), NLMSG_ALIGNTO);
	}
	tap_check(parse(m, &q) == -EPROTO && !strcmp(q.kind, "keep"), "root without TCA_KIND: -EPROTO");
}

int main(void)
{
	tap_plan(13);
	test_found();
	test_passed_over();
	test_torn();
	return tap_done();
}
