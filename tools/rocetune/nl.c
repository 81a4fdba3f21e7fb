// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/socket.h>
#include "nl.h"

struct nl_sock *rtune_nl_open(int protocol)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (!sk) {
		errno = ENOMEM;
		return NULL;
	}
	nl_socket_disable_auto_ack(sk);
	if (nl_connect(sk, protocol) < 0) {
		nl_socket_free(sk);
		errno = EPROTONOSUPPORT;
		return NULL;
	}
	nl_socket_set_buffer_size(sk, 1 << 20, 0);
	return sk;
}

int rtune_nl_transact(struct nl_sock *sk, struct nl_msg *msg, rtune_nl_cb cb, void *arg)
{
	struct nlmsghdr *req = nlmsg_hdr(msg);
	uint16_t flags = req->nlmsg_flags;
	int dump = !!(flags & NLM_F_DUMP);
	uint32_t seq;
	int ret;

	if (nl_send_auto(sk, msg) < 0) {
		nlmsg_free(msg);
		return -EIO;
	}
	seq = req->nlmsg_seq;
	nlmsg_free(msg);
	req = NULL;

	for (;;) {
		struct sockaddr_nl from;
		unsigned char *buf = NULL;
		struct nlmsghdr *h;
		int n = nl_recv(sk, &from, &buf, NULL);
		int done = 0;

		if (n <= 0) {
			free(buf);
			return n == 0 ? -EPROTO : -EIO;
		}
		if (from.nl_pid != 0) {	/* only the kernel talks to us */
			free(buf);
			continue;
		}
		ret = 0;
		for (h = (struct nlmsghdr *)buf; nlmsg_ok(h, n); h = nlmsg_next(h, &n)) {
			if (h->nlmsg_seq != seq)
				continue;	/* stale (e.g. a late ACK) */
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = nlmsg_data(h);

				if (h->nlmsg_len < (uint32_t)nlmsg_size(sizeof(*e))) {
					ret = -EPROTO;
				} else {
					ret = e->error;
					if (ret > 0 || ret < -4095)
						ret = -EPROTO;
				}
				done = 1;
				break;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			if (h->nlmsg_type < NLMSG_MIN_TYPE)
				continue;
			if (cb) {
				int r = cb(h, arg);

				if (r && !ret)
					ret = r;
			}
			if (!dump && !(flags & NLM_F_ACK) &&
			    !(h->nlmsg_flags & NLM_F_MULTI))
				done = 1;
		}
		free(buf);
		if (done)
			return ret;
		if (ret)
			return ret;
	}
}

int rtune_nla_u8(const struct nlattr *a, uint8_t *v)
{
	if (!a || nla_len(a) < 1)
		return -EPROTO;
	*v = *(const uint8_t *)nla_data(a);
	return 0;
}

int rtune_nla_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || nla_len(a) < 4)
		return -EPROTO;
	memcpy(v, nla_data(a), 4);
	return 0;
}

int rtune_nla_u64(const struct nlattr *a, uint64_t *v)
{
	if (!a || nla_len(a) < 8)
		return -EPROTO;
	memcpy(v, nla_data(a), 8);
	return 0;
}

int rtune_nla_str(const struct nlattr *a, char *buf, size_t len)
{
	const char *s;
	size_t n;

	if (!a || nla_len(a) < 1 || !len)
		return -EPROTO;
	s = nla_data(a);
	n = strnlen(s, (size_t)nla_len(a));
	if (n >= len)
		return -EPROTO;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

int rtune_nla_end_ok(int rem)
{
	/*
	 * libnl's iterators stop quietly at an attribute that does not fit;
	 * a reply is untrusted, so one that does not end cleanly (more than
	 * the last attribute's padding left) is malformed.
	 */
	return rem >= (int)NLA_HDRLEN ? -EPROTO : 0;
}

int rtune_nla_table(const void *data, int len, const struct nlattr **tb, int max)
{
	struct nlattr *pos;
	int rem;

	memset(tb, 0, sizeof(*tb) * (size_t)(max + 1));
	nla_for_each_attr(pos, (struct nlattr *)data, len, rem)
		if (nla_type(pos) <= max)
			tb[nla_type(pos)] = pos;
	return rtune_nla_end_ok(rem);
}
