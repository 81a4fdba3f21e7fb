/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What only libibverbs tells about an RDMA port: its active MTU (the RoCE
 * MTU the port negotiates paths with, at most what the netdev MTU allows
 * on RoCE). rdma netlink and sysfs do not carry it.
 */
#ifndef ROCETUNE_IBPORT_H
#define ROCETUNE_IBPORT_H

#include <stdint.h>

/* The active MTU of @ibdev port @port in bytes (256..4096): 0, or a
 * negative errno (no such device, uverbs not loaded, query failed). */
int rtune_ibport_active_mtu(const char *ibdev, unsigned int port, uint32_t *mtu);

#endif
