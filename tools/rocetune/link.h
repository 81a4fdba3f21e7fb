/* SPDX-License-Identifier: GPL-2.0 */
/* Netdev list and MTU through rtnetlink (libnl-route). */
#ifndef ROCETUNE_LINK_H
#define ROCETUNE_LINK_H

#include <stdint.h>
#include <netlink/netlink.h>

typedef void (*link_fn)(const char *name, int ifindex, uint32_t mtu, void *arg);

int link_foreach(struct nl_sock *sk, link_fn fn, void *arg);
int link_get_mtu(struct nl_sock *sk, const char *name, int *ifindex, uint32_t *mtu);
int link_set_mtu(struct nl_sock *sk, const char *name, uint32_t mtu);

#endif
