/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocetune.ko: vendor-neutral RoCE congestion-control tuning.
 *
 * Object model:
 *   struct rt_dev   one per RoCE ib_device we attached to (ib_client add ..
 *                   remove), refcounted; owns the per-port CC state.
 *   struct rt_port  per RoCE port: staged and active parameter sets, the
 *                   driver's hardware counters.
 *   struct rt_dir   the configfs directory presenting one rt_dev. It holds
 *                   a reference on its rt_dev and is replaced, not renamed,
 *                   when the device is renamed (configfs cannot rename).
 */
#ifndef _ROCETUNE_H
#define _ROCETUNE_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/configfs.h>
#include <rdma/ib_verbs.h>

#include "core/rt_params.h"

#define RT_ERR_MAX 160

struct rt_dir;
struct rt_dp;

struct rt_port {
	u32 num;
	/*
	 * Serialises every change to this port's CC state (staging, preset,
	 * commit, discard) and protects staged, last_error and generation.
	 */
	struct mutex lock;
	struct rt_param_set staged;
	/* Values in effect: read under RCU, replaced under ->lock. */
	struct rt_param_set __rcu *active;
	char last_error[RT_ERR_MAX];
	u64 generation;
	/* The driver's port counters, or NULL; stats->lock serialises reads. */
	struct rdma_hw_stats *hw_stats;
};

struct rt_dev {
	struct kref ref;
	/*
	 * Valid from ib_client add until remove. Only configfs handlers use
	 * it, and remove unregisters the configfs directory (which waits for
	 * running handlers and refuses new ones) before it returns.
	 */
	struct ib_device *ibdev;
	const char *driver;
	bool has_backend;
	/* The directory currently presenting this device; see rt_dir_lock. */
	struct rt_dir *dir;
	/*
	 * The software DCQCN datapath (rxe only), or NULL. Set in add,
	 * cleared in remove after the configfs directory is gone.
	 */
	struct rt_dp *dp;
	u32 first_port;
	u32 nports;
	struct rt_port ports[];
};

/* dev.c */
extern struct ib_client rt_ib_client;
void rt_dev_put(struct rt_dev *dev);

/* cc.c */
int rt_port_init(struct rt_port *port, u32 num);
void rt_port_fini(struct rt_port *port);
int rt_port_stage(struct rt_port *port, enum rt_param_id id,
		  const char *buf, size_t len);
int rt_port_stage_preset(struct rt_port *port, const char *buf, size_t len);
int rt_port_commit(struct rt_dev *dev, struct rt_port *port);
void rt_port_discard(struct rt_port *port);
u32 rt_port_active_value(struct rt_port *port, enum rt_param_id id);

/* counters.c */
int rt_counters_init(struct rt_dev *dev, struct rt_port *port);
void rt_counters_fini(struct rt_port *port);
ssize_t rt_counters_show(struct rt_dev *dev, struct rt_port *port,
			 char *page);

/* fault.c: test-only fault injection (debugfs) */
struct dentry;
void rt_fault_init(struct dentry *dir);
int rt_fault_commit(void);

/* configfs.c */
int rt_configfs_init(void);
void rt_configfs_exit(void);
int rt_dir_create(struct rt_dev *dev);
void rt_dir_destroy(struct rt_dev *dev);
int rt_configfs_check_attrs(void);

#endif /* _ROCETUNE_H */
