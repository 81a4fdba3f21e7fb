// SPDX-License-Identifier: GPL-2.0
/*
 * dcbsim: the counters of the simulated wire and their debugfs knobs.
 *
 * Nothing is ever sent or received on the wire these count: the pause
 * frames, errors and link flaps are injected from debugfs, and the driver
 * interfaces (dcbnl's PFC requests/indications, ethtool's statistics)
 * report them as a NIC reports what its MAC counted. Each counter has a
 * rate, per second, and advances from the time it was set; see struct
 * dcbsim_ctr for why the value is computed at read time.
 *
 *   <ifindex>/counters/<name>/
 *     value    the current value; writing sets it (e.g. 0); the rate stays
 *     rate     per second, 0 to 4294967295; the counter advances from now
 *     add      write N: the counter jumps by N now (write-only)
 *
 * <name> is pause_rx_prio<N> and pause_tx_prio<N> (N 0-7: PFC frames
 * received and sent for priority N), fcs_errors, symbol_errors,
 * link_down_events, pause_storm_warning_events and pause_storm_error_events
 * (the storm detector's events: "add" injects them).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>

#include "dcbsim.h"

void dcbsim_counters_init(struct dcbsim_counters *counters)
{
	u64 now = ktime_get_ns();
	int i;

	for (i = 0; i < DCBSIM_CTR_NUM; i++) {
		spin_lock_init(&counters->ctr[i].lock);
		counters->ctr[i].since = now;
	}
}

/* The value at @now. Called with ctr->lock held. */
static u64 dcbsim_ctr_value(const struct dcbsim_ctr *ctr, u64 now)
{
	u64 elapsed, secs;
	u32 rem;

	if (!ctr->rate || now <= ctr->since)
		return ctr->base;
	/* rate * elapsed / 1e9 in two parts: rate * rem stays below 2^62. */
	elapsed = now - ctr->since;
	secs = div_u64_rem(elapsed, NSEC_PER_SEC, &rem);
	return ctr->base + secs * ctr->rate +
	       div_u64((u64)ctr->rate * rem, NSEC_PER_SEC);
}

/* Make the value so far the base, from @now. Called with ctr->lock held. */
static void dcbsim_ctr_fold(struct dcbsim_ctr *ctr, u64 now)
{
	ctr->base = dcbsim_ctr_value(ctr, now);
	if (now > ctr->since)
		ctr->since = now;
}

/**
 * dcbsim_counters_read - every counter at one instant
 * @counters: the device's counters
 * @snap: where to put them
 *
 * All values are computed for the same time, so totals derived from them
 * (the pause statistics are sums over the priorities) agree with the
 * per-priority values in the same report.
 */
void dcbsim_counters_read(struct dcbsim_counters *counters,
			  struct dcbsim_ctr_snapshot *snap)
{
	u64 now = ktime_get_ns();
	int i;

	for (i = 0; i < DCBSIM_CTR_NUM; i++) {
		struct dcbsim_ctr *ctr = &counters->ctr[i];

		spin_lock(&ctr->lock);
		snap->val[i] = dcbsim_ctr_value(ctr, now);
		spin_unlock(&ctr->lock);
	}
}

/* debugfs: one directory per counter */

static int dcbsim_ctr_value_get(void *data, u64 *val)
{
	struct dcbsim_ctr *ctr = data;

	spin_lock(&ctr->lock);
	*val = dcbsim_ctr_value(ctr, ktime_get_ns());
	spin_unlock(&ctr->lock);
	return 0;
}

static int dcbsim_ctr_value_set(void *data, u64 val)
{
	struct dcbsim_ctr *ctr = data;

	spin_lock(&ctr->lock);
	dcbsim_ctr_fold(ctr, ktime_get_ns());
	ctr->base = val;
	spin_unlock(&ctr->lock);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(dcbsim_ctr_value_fops, dcbsim_ctr_value_get,
			 dcbsim_ctr_value_set, "%llu\n");

static int dcbsim_ctr_rate_get(void *data, u64 *val)
{
	struct dcbsim_ctr *ctr = data;

	spin_lock(&ctr->lock);
	*val = ctr->rate;
	spin_unlock(&ctr->lock);
	return 0;
}

static int dcbsim_ctr_rate_set(void *data, u64 val)
{
	struct dcbsim_ctr *ctr = data;

	if (val > U32_MAX)
		return -EINVAL;
	spin_lock(&ctr->lock);
	dcbsim_ctr_fold(ctr, ktime_get_ns());
	ctr->rate = val;
	spin_unlock(&ctr->lock);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(dcbsim_ctr_rate_fops, dcbsim_ctr_rate_get,
			 dcbsim_ctr_rate_set, "%llu\n");

static int dcbsim_ctr_add_set(void *data, u64 val)
{
	struct dcbsim_ctr *ctr = data;

	spin_lock(&ctr->lock);
	dcbsim_ctr_fold(ctr, ktime_get_ns());
	ctr->base += val;
	spin_unlock(&ctr->lock);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(dcbsim_ctr_add_fops, NULL, dcbsim_ctr_add_set,
			 "%llu\n");

static void dcbsim_ctr_name(int id, char *buf, size_t len)
{
	if (id < DCBSIM_CTR_PAUSE_TX)
		snprintf(buf, len, "pause_rx_prio%d", id - DCBSIM_CTR_PAUSE_RX);
	else if (id < DCBSIM_CTR_FCS_ERRORS)
		snprintf(buf, len, "pause_tx_prio%d", id - DCBSIM_CTR_PAUSE_TX);
	else if (id == DCBSIM_CTR_FCS_ERRORS)
		strscpy(buf, "fcs_errors", len);
	else if (id == DCBSIM_CTR_SYMBOL_ERRORS)
		strscpy(buf, "symbol_errors", len);
	else if (id == DCBSIM_CTR_LINK_DOWN)
		strscpy(buf, "link_down_events", len);
	else if (id == DCBSIM_CTR_STORM_WARN)
		strscpy(buf, "pause_storm_warning_events", len);
	else
		strscpy(buf, "pause_storm_error_events", len);
}

/* Under @dir, the device's debugfs directory; removed with it. Failures
 * are not fatal: the device works without its knobs.
 */
void dcbsim_counters_debugfs(struct dcbsim_counters *counters,
			     struct dentry *dir)
{
	struct dentry *top, *sub;
	char name[32];
	int i;

	top = debugfs_create_dir("counters", dir);
	if (IS_ERR(top))
		return;

	for (i = 0; i < DCBSIM_CTR_NUM; i++) {
		struct dcbsim_ctr *ctr = &counters->ctr[i];

		dcbsim_ctr_name(i, name, sizeof(name));
		sub = debugfs_create_dir(name, top);
		if (IS_ERR(sub))
			continue;
		debugfs_create_file_unsafe("value", 0644, sub, ctr,
					   &dcbsim_ctr_value_fops);
		debugfs_create_file_unsafe("rate", 0644, sub, ctr,
					   &dcbsim_ctr_rate_fops);
		debugfs_create_file_unsafe("add", 0200, sub, ctr,
					   &dcbsim_ctr_add_fops);
	}
}
