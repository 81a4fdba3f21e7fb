// SPDX-License-Identifier: GPL-2.0
/*
 * A port's counters as one "name value" table: the vendor-neutral
 * congestion counters first (summed from whichever driver counters feed
 * them), then every driver counter under its own name. The driver's
 * counters are read through its own hw-stats ops into a private stats
 * struct, the same way the RDMA core fills sysfs hw_counters.
 *
 * The driver is asked no more often than its counters' lifespan allows,
 * as for sysfs: a reader in a loop costs a copy of the last values.
 *
 * The table is a configfs text attribute, one page (rxe's 30-odd lines
 * take about 1 kB); a driver with more gets whole lines and a closing
 * "# truncated: N more counters; ..." line, never a cut one; sysfs
 * hw_counters has them all.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "rocetune.h"
#include "core/counter_names.h"
#include "compat/rdma.h"

int rtune_counters_init(struct rtune_dev *dev, struct rtune_port *port)
{
	/* NULL: the driver has no counters on this port */
	port->hw_stats = rtune_compat_alloc_port_stats(dev->ibdev, port->num);
	port->hw_stats_valid = false;
	return 0;
}

void rtune_counters_fini(struct rtune_port *port)
{
	rtune_compat_free_hw_stats(port->hw_stats);
	port->hw_stats = NULL;
}

/* The shortest time between two reads of the driver's counters. */
#define RTUNE_HW_STATS_LIFESPAN	msecs_to_jiffies(10)

/* Longest line kept: a counter name the RDMA core would show, and a u64. */
#define RTUNE_COUNTER_LINE_MAX	96
#define RTUNE_COUNTERS_MORE_FMT	\
	"# truncated: %u more counters; /sys/class/infiniband/%s/ports/%u/hw_counters has them\n"
#define RTUNE_COUNTERS_MORE_MAX	(sizeof(RTUNE_COUNTERS_MORE_FMT) + 10 + IB_DEVICE_NAME_MAX + 10)

/*
 * Append one "name value" line to @page if it fits in @room bytes, else
 * count it in @more.
 */
static void rtune_counter_line(char *page, size_t room, size_t *n, u32 *more,
			       const char *name, u64 value)
{
	char line[RTUNE_COUNTER_LINE_MAX];
	int l = snprintf(line, sizeof(line), "%s %llu\n", name, value);

	if (*more || l >= (int)sizeof(line) || *n + l > room) {
		(*more)++;
		return;
	}
	memcpy(page + *n, line, l);
	*n += l;
}

ssize_t rtune_counters_show(struct rtune_dev *dev, struct rtune_port *port,
			    char *page)
{
	struct rdma_hw_stats *stats = port->hw_stats;
	/* A page; test builds can make it smaller (show_page_bytes). */
	size_t size = rtune_fault_page_size();
	size_t room = size - RTUNE_COUNTERS_MORE_MAX;
	u64 neutral[RTUNE_C_COUNT] = {};
	bool seen[RTUNE_C_COUNT] = {};
	size_t n = 0;
	u32 more = 0;
	int i, ret;

	if (!stats)
		return 0;

	mutex_lock(&stats->lock);
	/*
	 * The driver is asked at most once per lifespan of its counters
	 * (10 ms unless it says otherwise), as the RDMA core's sysfs does,
	 * however often anyone reads this file.
	 */
	if (!port->hw_stats_valid ||
	    time_is_before_jiffies(stats->timestamp +
				   max(stats->lifespan, RTUNE_HW_STATS_LIFESPAN))) {
		ret = dev->ibdev->ops.get_hw_stats(dev->ibdev, stats, port->num,
						   stats->num_counters);
		if (ret < 0) {
			mutex_unlock(&stats->lock);
			return ret;
		}
		stats->timestamp = jiffies;
		port->hw_stats_valid = true;
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
			rtune_counter_line(page, room, &n, &more,
					   rtune_counter_names[i], neutral[i]);
	for (i = 0; i < stats->num_counters; i++)
		if (rtune_compat_hw_stat_enabled(stats, i))
			rtune_counter_line(page, room, &n, &more,
					   rtune_compat_hw_stat_name(stats, i),
					   stats->value[i]);
	mutex_unlock(&stats->lock);
	if (more)
		n += scnprintf(page + n, size - n, RTUNE_COUNTERS_MORE_FMT, more,
			       dev_name(&dev->ibdev->dev), port->num);
	return n;
}
