// SPDX-License-Identifier: GPL-2.0
/*
 * NETLINK_RDMA: RDMA_NLDEV_CMD_GET dump for devices and their port count,
 * then RDMA_NLDEV_CMD_PORT_GET per port for the netdev name and index (what
 * `rdma link show` does).
 */
#include <errno.h>
#include <string.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include "nl.h"
#include "rdma.h"

#ifndef NETLINK_RDMA
#define NETLINK_RDMA 20
#endif

struct rdev {
	uint32_t idx;
	char name[64];
	uint32_t nports;
};

struct devlist {
	struct rdev d[64];
	int n;
};

static int dev_cb(struct nlmsghdr *h, void *arg)
{
	struct devlist *dl = arg;
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct rdev d = { 0 };

	if (rtune_nla_table(nlmsg_data(h), (int)h->nlmsg_len - NLMSG_HDRLEN, tb,
			 RDMA_NLDEV_ATTR_MAX - 1))
		return -EPROTO;
	if (rtune_nla_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX], &d.idx) ||
	    rtune_nla_str(tb[RDMA_NLDEV_ATTR_DEV_NAME], d.name, sizeof(d.name)))
		return -EPROTO;
	if (rtune_nla_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX], &d.nports))
		d.nports = 1;
	if (d.nports > 64)
		return -EPROTO;
	if (dl->n < 64)
		dl->d[dl->n++] = d;
	return 0;
}

static int port_cb(struct nlmsghdr *h, void *arg)
{
	struct rtune_ibport *p = arg;
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	uint32_t ifi;

	if (rtune_nla_table(nlmsg_data(h), (int)h->nlmsg_len - NLMSG_HDRLEN, tb,
			 RDMA_NLDEV_ATTR_MAX - 1))
		return -EPROTO;
	if (tb[RDMA_NLDEV_ATTR_NDEV_NAME] &&
	    rtune_nla_str(tb[RDMA_NLDEV_ATTR_NDEV_NAME], p->netdev, sizeof(p->netdev)))
		return -EPROTO;
	if (tb[RDMA_NLDEV_ATTR_NDEV_INDEX] && !rtune_nla_u32(tb[RDMA_NLDEV_ATTR_NDEV_INDEX], &ifi))
		p->ifindex = (int)ifi;
	return 0;
}

int rdma_map(struct rtune_ibport *out, int max)
{
	struct nl_sock *sk = rtune_nl_open(NETLINK_RDMA);
	struct devlist dl = { .n = 0 };
	struct nl_msg *msg;
	int err, i, n = 0;
	uint32_t p;

	if (!sk)
		return -errno;
	msg = nlmsg_alloc_simple(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET),
				 NLM_F_REQUEST | NLM_F_DUMP);
	if (!msg) {
		err = -ENOMEM;
		goto out;
	}
	err = rtune_nl_transact(sk, msg, dev_cb, &dl);
	if (err)
		goto out;
	for (i = 0; i < dl.n; i++) {
		for (p = 1; p <= dl.d[i].nports && n < max; p++) {
			struct rtune_ibport ip = { .port = p };

			snprintf(ip.ibdev, sizeof(ip.ibdev), "%s", dl.d[i].name);
			msg = nlmsg_alloc_simple(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					RDMA_NLDEV_CMD_PORT_GET), NLM_F_REQUEST | NLM_F_ACK);
			if (!msg || nla_put_u32(msg, RDMA_NLDEV_ATTR_DEV_INDEX, dl.d[i].idx) < 0 ||
			    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, p) < 0) {
				if (msg)
					nlmsg_free(msg);
				err = -ENOMEM;
				goto out;
			}
			err = rtune_nl_transact(sk, msg, port_cb, &ip);
			if (err)
				continue;	/* port vanished: skip it */
			out[n++] = ip;
		}
	}
	err = 0;
out:
	nl_socket_free(sk);
	return err ? err : n;
}

/* Newer than Debian 12's UAPI headers (Linux 6.1 has neither). */
#define RTUNE_NLDEV_SYS_ATTR_MONITOR_MODE 103

static int sys_cb(struct nlmsghdr *h, void *arg)
{
	bool *has = arg;
	struct nlattr *pos;
	int rem;

	nla_for_each_attr(pos, (struct nlattr *)nlmsg_data(h), (int)h->nlmsg_len - NLMSG_HDRLEN, rem)
		if (nla_type(pos) == RTUNE_NLDEV_SYS_ATTR_MONITOR_MODE)
			*has = true;
	return rtune_nla_end_ok(rem);
}

bool rdma_has_notify(void)
{
	struct nl_sock *sk = rtune_nl_open(NETLINK_RDMA);
	struct nl_msg *msg;
	bool has = false;

	if (!sk)
		return false;
	msg = nlmsg_alloc_simple(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET),
				 NLM_F_REQUEST | NLM_F_ACK);
	if (msg && rtune_nl_transact(sk, msg, sys_cb, &has))
		has = false;
	nl_socket_free(sk);
	return has;
}
