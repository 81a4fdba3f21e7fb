/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocetune.ko: vendor-neutral RoCE congestion-control tuning.
 *
 * Object model:
 *   struct rtune_dev   one per RoCE ib_device we attached to (ib_client add ..
 *                   remove), refcounted; owns the per-port CC state.
 *   struct rtune_port  per RoCE port: staged and active parameter sets, the
 *                   driver's hardware counters.
 *   struct rtune_dir   the configfs directory presenting one rtune_dev. It holds
 *                   a reference on its rtune_dev and is replaced, not renamed,
 *                   when the device is renamed (configfs cannot rename).
 */
#ifndef _ROCETUNE_H
#define _ROCETUNE_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/configfs.h>
#include <rdma/ib_verbs.h>

#include "core/params.h"

#define RTUNE_ERR_MAX 160

struct rtune_dir;
struct rtune_dp;

struct rtune_port {
	u32 num;
	/*
	 * Serialises every change to this port's CC state (staging, preset,
	 * commit, discard) and protects staged, last_error and generation.
	 */
	struct mutex lock;
	struct rtune_param_set staged;
	/* Values in effect: read under RCU, replaced under ->lock. */
	struct rtune_param_set __rcu *active;
	char last_error[RTUNE_ERR_MAX];
	u64 generation;
	/*
	 * The driver's port counters, or NULL; stats->lock serialises reads
	 * and protects hw_stats_valid (values read at stats->timestamp).
	 */
	struct rdma_hw_stats *hw_stats;
	bool hw_stats_valid;
};

struct rtune_dev {
	struct kref ref;
	/*
	 * Valid from ib_client add until remove. Only configfs handlers use
	 * it, and remove unregisters the configfs directory (which waits for
	 * running handlers and refuses new ones) before it returns.
	 */
	struct ib_device *ibdev;
	const char *driver;
	bool has_backend;
	/* The directory currently presenting this device; see rtune_dir_lock. */
	struct rtune_dir *dir;
	/*
	 * The software DCQCN datapath (rxe only), or NULL. Set in add,
	 * cleared in remove after the configfs directory is gone.
	 */
	struct rtune_dp *dp;
	u32 first_port;
	u32 nports;
	struct rtune_port ports[];
};

/* dev.c */
extern struct ib_client rtune_ib_client;
void rtune_dev_put(struct rtune_dev *dev);

/* cc.c */
int rtune_port_init(struct rtune_port *port, u32 num);
void rtune_port_fini(struct rtune_port *port);
int rtune_port_stage(struct rtune_port *port, enum rtune_param_id id,
		     const char *buf, size_t len);
int rtune_port_stage_preset(struct rtune_port *port, const char *buf, size_t len);
int rtune_port_commit(struct rtune_dev *dev, struct rtune_port *port);
void rtune_port_discard(struct rtune_port *port);
u32 rtune_port_active_value(struct rtune_port *port, enum rtune_param_id id);

/* counters.c */
int rtune_counters_init(struct rtune_dev *dev, struct rtune_port *port);
void rtune_counters_fini(struct rtune_port *port);
ssize_t rtune_counters_show(struct rtune_dev *dev, struct rtune_port *port,
			    char *page);

/* fault.c: test-only fault injection (debugfs) */
struct dentry;
void rtune_fault_init(struct dentry *dir);
int rtune_fault_commit(void);
void rtune_fault_withdraw(void);
#ifdef RTUNE_TEST_BUILD
void rtune_fault_qp_create(void);
size_t rtune_fault_page_size(void);
bool rtune_fault_no_backend(void);
#else
static inline void rtune_fault_qp_create(void)
{
}

static inline bool rtune_fault_no_backend(void)
{
	return false;
}

/* The room a configfs text attribute's show has: one page. */
static inline size_t rtune_fault_page_size(void)
{
	return PAGE_SIZE;
}
#endif
int rtune_fault_client_registered(void);

/* configfs.c */
int rtune_configfs_init(void);
void rtune_configfs_exit(void);
int rtune_dir_create(struct rtune_dev *dev);
void rtune_dir_destroy(struct rtune_dev *dev);

#endif /* _ROCETUNE_H */
