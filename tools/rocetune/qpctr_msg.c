// SPDX-License-Identifier: GPL-2.0
/*
 * RDMA netlink messages of the counter binding (qpctr.h): the requests,
 * and parsers of the replies as drivers/infiniband/core/nldev.c builds
 * them (fill_res_counter_entry(), stat_get_doit_qp(),
 * nldev_stat_get_counter_status_doit(), fill_res_qp_entry()). A reply is
 * untrusted: every nest is walked with its length checked, a value of the
 * wrong size is refused, and the tables are bounded.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include "qpctr.h"

#define TBMAX (RDMA_NLDEV_ATTR_MAX - 1)

struct nl_msg *qpc_req(uint8_t cmd, uint16_t flags, uint32_t dev_idx, uint32_t port)
{
	struct nl_msg *m = nlmsg_alloc_simple(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd),
					      NLM_F_REQUEST | flags);

	if (!m)
		return NULL;
	if ((dev_idx != UINT32_MAX && nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, dev_idx) < 0) ||
	    (port && nla_put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, port) < 0)) {
		nlmsg_free(m);
		return NULL;
	}
	return m;
}

static int top(const struct nlmsghdr *h, const struct nlattr **tb)
{
	if (h->nlmsg_len < NLMSG_HDRLEN)
		return -EPROTO;
	return rtune_nla_table(nlmsg_data(h), (int)h->nlmsg_len - NLMSG_HDRLEN, tb, TBMAX);
}

static int nest(const struct nlattr *a, const struct nlattr **tb)
{
	return rtune_nla_table(nla_data(a), nla_len(a), tb, TBMAX);
}

int qpc_parse_dev(const struct nlmsghdr *h, uint32_t *idx, char *name, size_t len)
{
	const struct nlattr *tb[TBMAX + 1];

	if (top(h, tb) || rtune_nla_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX], idx) ||
	    rtune_nla_str(tb[RDMA_NLDEV_ATTR_DEV_NAME], name, len))
		return -EPROTO;
	return 0;
}

int qpc_parse_mode(const struct nlmsghdr *h, uint32_t *mode, uint32_t *mask)
{
	const struct nlattr *tb[TBMAX + 1];

	*mask = 0;
	if (top(h, tb) || rtune_nla_u32(tb[RDMA_NLDEV_ATTR_STAT_MODE], mode) ||
	    *mode > RTUNE_QPC_MANUAL)
		return -EPROTO;
	if (tb[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK] &&
	    rtune_nla_u32(tb[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK], mask))
		return -EPROTO;
	return 0;
}

/* Walk the nests of type @type inside @table; -EPROTO if @table is torn. */
#define for_each_entry(pos, table, rem) \
	nla_for_each_nested(pos, (struct nlattr *)(table), rem)

static int counter_qps(const struct nlattr *table, struct rtune_qpc *c)
{
	const struct nlattr *tb[TBMAX + 1];
	struct nlattr *e;
	int rem;

	for_each_entry(e, table, rem) {
		uint32_t q;

		if (nla_type(e) != RDMA_NLDEV_ATTR_RES_QP_ENTRY)
			continue;
		if (nest(e, tb) || rtune_nla_u32(tb[RDMA_NLDEV_ATTR_RES_LQPN], &q))
			return -EPROTO;
		if (c->nqp < RTUNE_QPC_MAX_QPS)
			c->qpn[c->nqp] = q;
		if (c->nqp == UINT32_MAX)
			return -EPROTO;
		c->nqp++;
	}
	return rtune_nla_end_ok(rem);
}

static int hwcounters(const struct nlattr *table, struct rtune_qpc_hw *hw, int *n)
{
	const struct nlattr *tb[TBMAX + 1];
	struct nlattr *e;
	int rem;

	for_each_entry(e, table, rem) {
		struct rtune_qpc_hw x;

		if (nla_type(e) != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
			continue;
		if (nest(e, tb) ||
		    rtune_nla_str(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME], x.name, sizeof(x.name)) ||
		    !tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE] ||
		    nla_len(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE]) != 8 ||
		    rtune_nla_u64(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE], &x.v))
			return -EPROTO;
		if (*n >= RTUNE_QPC_MAX_HW)
			return -EPROTO;
		hw[(*n)++] = x;
	}
	return rtune_nla_end_ok(rem);
}

int qpc_parse_counters(const struct nlmsghdr *h, struct rtune_qpc **cs, int *n)
{
	const struct nlattr *tb[TBMAX + 1], *ctb[TBMAX + 1];
	struct nlattr *e;
	int rem;

	if (top(h, tb))
		return -EPROTO;
	if (!tb[RDMA_NLDEV_ATTR_STAT_COUNTER])
		return 0;	/* no counter on this device */
	for_each_entry(e, tb[RDMA_NLDEV_ATTR_STAT_COUNTER], rem) {
		struct rtune_qpc *c, *nc;

		if (nla_type(e) != RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY)
			continue;
		if (*n >= RTUNE_QPC_MAX)
			return -EPROTO;
		nc = realloc(*cs, (size_t)(*n + 1) * sizeof(**cs));
		if (!nc)
			return -ENOMEM;
		*cs = nc;
		c = &nc[*n];
		memset(c, 0, sizeof(*c));
		if (nest(e, ctb) || rtune_nla_u32(ctb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID], &c->id) ||
		    rtune_nla_u32(ctb[RDMA_NLDEV_ATTR_PORT_INDEX], &c->port) ||
		    rtune_nla_u32(ctb[RDMA_NLDEV_ATTR_STAT_MODE], &c->mode) ||
		    c->mode > RTUNE_QPC_MANUAL)
			return -EPROTO;
		if (ctb[RDMA_NLDEV_ATTR_RES_QP] && counter_qps(ctb[RDMA_NLDEV_ATTR_RES_QP], c))
			return -EPROTO;
		if (ctb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS] &&
		    hwcounters(ctb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], c->hw, &c->nhw))
			return -EPROTO;
		(*n)++;
	}
	return rtune_nla_end_ok(rem);
}

int qpc_parse_status(const struct nlmsghdr *h, struct rtune_qpc_stat *st, int *n, int max)
{
	const struct nlattr *tb[TBMAX + 1], *etb[TBMAX + 1];
	struct nlattr *e;
	int rem;

	if (top(h, tb) || !tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		return -EPROTO;
	for_each_entry(e, tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], rem) {
		struct rtune_qpc_stat x = { .optional = false };
		uint8_t on;

		if (nla_type(e) != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
			continue;
		if (nest(e, etb) ||
		    rtune_nla_str(etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME], x.name, sizeof(x.name)) ||
		    rtune_nla_u32(etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX], &x.index))
			return -EPROTO;
		/* only an optional counter says whether it is on */
		if (etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC]) {
			if (rtune_nla_u8(etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC], &on) || on > 1)
				return -EPROTO;
			x.optional = true;
			x.enabled = on;
		}
		if (*n >= max)
			return -EPROTO;
		st[(*n)++] = x;
	}
	return rtune_nla_end_ok(rem);
}

int qpc_parse_qps(const struct nlmsghdr *h, struct rtune_qpc_qp **qs, int *n)
{
	const struct nlattr *tb[TBMAX + 1], *qtb[TBMAX + 1];
	struct nlattr *e;
	int rem;

	if (top(h, tb))
		return -EPROTO;
	if (!tb[RDMA_NLDEV_ATTR_RES_QP])
		return 0;
	for_each_entry(e, tb[RDMA_NLDEV_ATTR_RES_QP], rem) {
		struct rtune_qpc_qp x = { .port = 0 }, *nq;

		if (nla_type(e) != RDMA_NLDEV_ATTR_RES_QP_ENTRY)
			continue;
		if (nest(e, qtb) || rtune_nla_u32(qtb[RDMA_NLDEV_ATTR_RES_LQPN], &x.qpn) ||
		    rtune_nla_u8(qtb[RDMA_NLDEV_ATTR_RES_TYPE], &x.type) ||
		    (qtb[RDMA_NLDEV_ATTR_PORT_INDEX] &&
		     rtune_nla_u32(qtb[RDMA_NLDEV_ATTR_PORT_INDEX], &x.port)))
			return -EPROTO;
		x.kernel = qtb[RDMA_NLDEV_ATTR_RES_KERN_NAME] != NULL;
		if (*n >= 65536)
			return -EPROTO;
		nq = realloc(*qs, (size_t)(*n + 1) * sizeof(**qs));
		if (!nq)
			return -ENOMEM;
		*qs = nq;
		nq[(*n)++] = x;
	}
	return rtune_nla_end_ok(rem);
}

int qpc_parse_bound(const struct nlmsghdr *h, uint32_t *counter, uint32_t *qpn)
{
	const struct nlattr *tb[TBMAX + 1];

	if (top(h, tb) || rtune_nla_u32(tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID], counter) ||
	    rtune_nla_u32(tb[RDMA_NLDEV_ATTR_RES_LQPN], qpn))
		return -EPROTO;
	return 0;
}
