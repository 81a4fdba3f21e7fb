/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RDMA core interfaces that changed under rocetune.ko: driver ids that
 * were renamed or added, and the hw-stats API (a port's driver counters),
 * which 5.14 and 5.15 reworked. The probes in conftest.sh decide, each
 * separately; kmod/dev.c and kmod/counters.c use only these wrappers.
 */
#ifndef _ROCETUNE_COMPAT_RDMA_H
#define _ROCETUNE_COMPAT_RDMA_H

#include <linux/bitops.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/version.h>
#include <rdma/ib_verbs.h>

#include "compat_generated.h"

/*
 * The name of a driver id that is not in every kernel's enum
 * rdma_driver_id, or NULL. The values are uAPI: RDMA_DRIVER_IRDMA is the
 * slot RDMA_DRIVER_I40IW had before irdma replaced i40iw (5.14).
 */
static inline const char *rtune_compat_rdma_driver_name(u32 id)
{
#if RTUNE_HAVE_RDMA_DRIVER_IRDMA
	if (id == RDMA_DRIVER_IRDMA)
		return "irdma";
#else
	if (id == RDMA_DRIVER_I40IW)
		return "i40iw";
#endif
#if RTUNE_HAVE_RDMA_DRIVER_ERDMA
	if (id == RDMA_DRIVER_ERDMA)
		return "erdma";
#endif
	return NULL;
}

/*
 * A private copy of @port's driver counters, for get_hw_stats(), or NULL
 * when the driver has none there. Free with rtune_compat_free_hw_stats().
 */
static inline struct rdma_hw_stats *
rtune_compat_alloc_port_stats(struct ib_device *ibdev, u32 port)
{
	struct rdma_hw_stats *stats;

	if (!ibdev->ops.get_hw_stats)
		return NULL;
#if RTUNE_HAVE_IB_ALLOC_HW_PORT_STATS
	if (!ibdev->ops.alloc_hw_port_stats)
		return NULL;
	stats = ibdev->ops.alloc_hw_port_stats(ibdev, port);
#else
	/* One op for both: port 0 asks for device-wide counters. */
	if (!ibdev->ops.alloc_hw_stats || !port)
		return NULL;
	stats = ibdev->ops.alloc_hw_stats(ibdev, port);
#endif
#if !RTUNE_HAVE_RDMA_FREE_HW_STATS_STRUCT
	/* The old inline rdma_alloc_hw_stats_struct() left the lock to the
	 * core's sysfs code, which initialised it after the driver's op.
	 */
	if (stats)
		mutex_init(&stats->lock);
#endif
	return stats;
}

static inline void rtune_compat_free_hw_stats(struct rdma_hw_stats *stats)
{
#if RTUNE_HAVE_RDMA_FREE_HW_STATS_STRUCT
	rdma_free_hw_stats_struct(stats);
#else
	kfree(stats);	/* one allocation, values included */
#endif
}

/* The driver's name for counter @i. */
static inline const char *
rtune_compat_hw_stat_name(const struct rdma_hw_stats *stats, int i)
{
#if RTUNE_HAVE_RDMA_STAT_DESC
	return stats->descs[i].name;
#else
	return stats->names[i];
#endif
}

/* Counter @i is counting (optional counters may be switched off, 5.15+). */
static inline bool
rtune_compat_hw_stat_enabled(const struct rdma_hw_stats *stats, int i)
{
#if RTUNE_HAVE_RDMA_HW_STATS_IS_DISABLED
	return !stats->is_disabled || !test_bit(i, stats->is_disabled);
#else
	return true;
#endif
}

/*
 * Whether rdma_rxe keeps a destroyed QP's CQs, PD and SRQ until the last
 * of the QP's packets is freed, so that a packet may wait in a qdisc past
 * the QP's destruction. 6.1's rxe does: its destroy_qp waits for every
 * reference to the QP (__rxe_cleanup() in rxe_pool.c), and each packet
 * holds one until it is freed (rxe_send()). 5.10's does not: destroy_qp
 * returns at once, the RDMA core frees the CQ as soon as the application
 * destroys it, and when the last queued packet is freed later,
 * rxe_qp_do_cleanup() drops its references to the CQ in freed memory
 * (the refcount_t warning that Documentation/kernels.rst records).
 *
 * No header tells which rxe a kernel has: this is rocetune's one
 * comparison of version numbers. Kernels before 6.1 are taken to have the
 * old rxe (those between 5.10 and 6.1 were not read); a distribution
 * kernel with the newer rxe backported says so with the module parameter
 * force_rxe_pacing (pacing.c).
 */
static inline bool rtune_compat_rxe_outlives_packets(void)
{
	return LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0);
}

#endif /* _ROCETUNE_COMPAT_RDMA_H */
