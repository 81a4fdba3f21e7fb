/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything rocetune needs that differs between kernel versions, in one
 * place. Each difference is detected by compiling a probe against the
 * target kernel's headers (kmod/compat/conftest.sh, run by Kbuild through
 * compat/kbuild.mk, writes compat_generated.h), never by comparing version
 * numbers, so distribution backports are honoured. The one exception is a
 * property of rdma_rxe's internals that no header shows
 * (rtune_compat_rxe_outlives_packets() in rdma.h), which a module
 * parameter can override.
 */
#ifndef _ROCETUNE_COMPAT_H
#define _ROCETUNE_COMPAT_H

#include <linux/in_route.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/flow.h>
#include <rdma/ib_verbs.h>

#include "compat_generated.h"

#if RTUNE_HAVE_FLOWI4_DSCP
#include <net/inet_dscp.h>
#endif

#if !RTUNE_HAVE_IB_CLIENT_ADD_INT
#error "rocetune needs ib_client.add returning int (Linux 5.8 or later)"
#endif

/*
 * The net_device behind a RoCE port, with a reference the caller drops
 * with dev_put(), or NULL.
 */
static inline struct net_device *
rtune_compat_ib_get_netdev(struct ib_device *ibdev, u32 port)
{
#if RTUNE_HAVE_IB_DEVICE_GET_NETDEV
	return ib_device_get_netdev(ibdev, port);
#else
	struct net_device *ndev;

	if (!rdma_is_port_valid(ibdev, port))
		return NULL;
	if (ibdev->ops.get_netdev)
		return ibdev->ops.get_netdev(ibdev, port);
	/* netdevs are freed after an RCU grace period: hold it first. */
	rcu_read_lock();
	ndev = rcu_dereference(ibdev->port_data[port].netdev);
	if (ndev)
		dev_hold(ndev);
	rcu_read_unlock();
	return ndev;
#endif
}

/*
 * The TOS byte of an IPv4 route lookup: flowi4_tos (masked with RT_TOS)
 * until the key became a dscp_t, flowi4_dscp (the DSCP bits of @tos).
 */
static inline void rtune_compat_flowi4_set_tos(struct flowi4 *fl4, u8 tos)
{
#if RTUNE_HAVE_FLOWI4_DSCP
	fl4->flowi4_dscp = inet_dsfield_to_dscp(tos);
#else
	fl4->flowi4_tos = RT_TOS(tos);
#endif
}

#endif /* _ROCETUNE_COMPAT_H */
