/* SPDX-License-Identifier: GPL-2.0 */
/* Request/response over a libnl-3 core socket with our own strict reply
 * loop: sequence matched, every length checked, ACK and errors decoded. */
#ifndef ROCETUNE_NL_H
#define ROCETUNE_NL_H

#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>

/* Called for each reply message that is not NLMSG_ERROR/NLMSG_DONE.
 * Return 0 to go on, negative errno to fail the transaction. */
typedef int (*rtune_nl_cb)(struct nlmsghdr *h, void *arg);

/*
 * Send @msg (consumed) and read replies until the ACK (or NLMSG_DONE for a
 * dump). Returns 0, or the negative errno from the kernel's NLMSG_ERROR or
 * from @cb, or -EPROTO for a malformed reply.
 */
int rtune_nl_transact(struct nl_sock *sk, struct nl_msg *msg, rtune_nl_cb cb, void *arg);

/* Open a socket for a netlink protocol; NULL on failure (errno set). */
struct nl_sock *rtune_nl_open(int protocol);

/* Attribute accessors that check the payload length first. */
int rtune_nla_u8(const struct nlattr *a, uint8_t *v);
int rtune_nla_u32(const struct nlattr *a, uint32_t *v);
int rtune_nla_u64(const struct nlattr *a, uint64_t *v);
int rtune_nla_str(const struct nlattr *a, char *buf, size_t len);
/* Walk attributes in [data, data+len) into tb[0..max] (last wins), checking
 * that each header lies inside the buffer. Returns 0 or -EPROTO. */
int rtune_nla_table(const void *data, int len, const struct nlattr **tb, int max);
/* 0 if an attribute walk ended cleanly with @rem bytes left, else -EPROTO. */
int rtune_nla_end_ok(int rem);

#endif
