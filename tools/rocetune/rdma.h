/* SPDX-License-Identifier: GPL-2.0 */
/* RDMA device/port -> netdev map through RDMA netlink (NLDEV). */
#ifndef ROCETUNE_RDMA_H
#define ROCETUNE_RDMA_H

#include <stdint.h>

struct rtune_ibport {
	char ibdev[64];
	uint32_t port;
	char netdev[16];
	int ifindex;
};

/* Fill up to @max entries; returns the count or a negative errno. */
int rdma_map(struct rtune_ibport *out, int max);

#endif
