/* SPDX-License-Identifier: GPL-2.0 */
/* RDMA device/port -> netdev map through RDMA netlink (NLDEV). */
#ifndef ROCETUNE_RDMA_H
#define ROCETUNE_RDMA_H

#include <stdbool.h>
#include <stdint.h>

struct rtune_ibport {
	char ibdev[64];
	uint32_t port;
	char netdev[16];
	int ifindex;
};

/* Fill up to @max entries; returns the count or a negative errno. */
int rdma_map(struct rtune_ibport *out, int max);

/* RDMA netlink's device notifications (RDMA_NL_GROUP_NOTIFY): the group. */
#define RTUNE_NL_GROUP_NOTIFY 4
/* Does this kernel send them? It says so in its RDMA_NLDEV_CMD_SYS_GET
 * reply (RDMA_NLDEV_SYS_ATTR_MONITOR_MODE; Linux 6.12 has it, 6.1 not). */
bool rdma_has_notify(void);

#endif
