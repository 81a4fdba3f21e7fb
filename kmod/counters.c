// SPDX-License-Identifier: GPL-2.0
/*
 * A port's counters as one "name value" table: the vendor-neutral
 * congestion counters first (summed from whichever driver counters feed
 * them), then every driver counter under its own name. The driver's
 * counters are read through its own hw-stats ops into a private stats
 * struct, the same way the RDMA core fills sysfs hw_counters.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "rocetune.h"
#include "core/counter_names.h"
#include "compat/rdma.h"

int rtune_counters_init(struct rtune_dev *dev, struct rtune_port *port)
{
	/* NULL: the driver has no counters on this port */
	port->hw_stats = rtune_compat_alloc_port_stats(dev->ibdev, port->num);
	return 0;
}

void rtune_counters_fini(struct rtune_port *port)
{
	rtune_compat_free_hw_stats(port->hw_stats);
	port->hw_stats = NULL;
}

ssize_t rtune_counters_show(struct rtune_dev *dev, struct rtune_port *port,
			 char *page)
{
	struct rdma_hw_stats *stats = port->hw_stats;
	u64 neutral[RTUNE_C_COUNT] = {};
	bool seen[RTUNE_C_COUNT] = {};
	ssize_t n = 0;
	int i, ret;

	if (!stats)
		return 0;

	mutex_lock(&stats->lock);
	ret = dev->ibdev->ops.get_hw_stats(dev->ibdev, stats, port->num,
					   stats->num_counters);
	if (ret < 0) {
		mutex_unlock(&stats->lock);
		return ret;
	}
	for (i = 0; i < stats->num_counters; i++) {
		int id;

		if (!rtune_compat_hw_stat_enabled(stats, i))
			continue;
		id = rtune_counter_alias(rtune_compat_hw_stat_name(stats, i));
		if (id >= 0) {
			neutral[id] += stats->value[i];
			seen[id] = true;
		}
	}
	for (i = 0; i < RTUNE_C_COUNT; i++)
		if (seen[i])
			n += sysfs_emit_at(page, n, "%s %llu\n",
					   rtune_counter_names[i], neutral[i]);
	for (i = 0; i < stats->num_counters; i++)
		if (rtune_compat_hw_stat_enabled(stats, i))
			n += sysfs_emit_at(page, n, "%s %llu\n",
					   rtune_compat_hw_stat_name(stats, i),
					   stats->value[i]);
	mutex_unlock(&stats->lock);
	return n;
}
