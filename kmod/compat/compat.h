/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything rocetune needs that differs between kernel versions, in one
 * place. Each difference is detected by compiling a probe against the
 * target kernel's headers (kmod/compat/conftest.sh writes the results to
 * compat/generated.h), never by comparing version numbers, so distribution
 * backports are honoured.
 */
#ifndef _ROCETUNE_COMPAT_H
#define _ROCETUNE_COMPAT_H

#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>

#include "generated.h"

/*
 * The net_device behind a RoCE port, with a reference the caller drops
 * with dev_put(), or NULL.
 */
static inline struct net_device *
rt_compat_ib_get_netdev(struct ib_device *ibdev, u32 port)
{
#ifdef RT_HAVE_IB_DEVICE_GET_NETDEV
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

#endif /* _ROCETUNE_COMPAT_H */
