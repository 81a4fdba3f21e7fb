/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A netdev's root qdisc, read with RTM_GETQDISC: its kind and, for fq, the
 * orphan mask. rocetune.ko paces a Soft-RoCE QP through its socket's
 * pacing rate, which fq applies per flow; rxe's QP sockets are not
 * connected, so fq puts their packets in the flow of hash & orphan_mask,
 * and a narrow mask lets QPs share a flow (Documentation/datapath.rst,
 * "Paced egress"). The doctor reads this to say so.
 */
#ifndef ROCETUNE_QDISC_H
#define ROCETUNE_QDISC_H

#include <stdbool.h>
#include <stdint.h>
#include <netlink/netlink.h>

struct rtune_root_qdisc {
	char kind[16];			/* "fq", "mq", ...; "" none seen */
	bool has_orphan_mask;		/* fq, and it reported the mask */
	uint32_t orphan_mask;
};

/*
 * One RTM_NEWQDISC message of a dump: if it is @ifindex's root qdisc,
 * fill @q and return 1; another qdisc: 0; a malformed message (lengths,
 * a kind without its NUL, an fq TCA_OPTIONS that does not parse, a mask
 * that is not 4 bytes): -EPROTO, @q unchanged.
 */
int rtune_root_qdisc_parse(const struct nlmsghdr *h, int ifindex, struct rtune_root_qdisc *q);

/* Dump the qdiscs (RTM_GETQDISC) and find @ifindex's root: 0 and @q
 * filled, -ENOENT when the dump has none, or a negative errno. */
int rtune_root_qdisc_read(struct nl_sock *sk, int ifindex, struct rtune_root_qdisc *q);

#endif
