// SPDX-License-Identifier: GPL-2.0
/* Live-object accounting; see objects.h. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "objects.h"
#include "rocetune.h"

atomic_t rtune_objs[RTUNE_OBJ_COUNT];
atomic_t rtune_rcu_queued = ATOMIC_INIT(0);
atomic_t rtune_rcu_waited = ATOMIC_INIT(0);

static const char *const rtune_obj_names[RTUNE_OBJ_COUNT] = {
	[RTUNE_OBJ_DEV] = "dev",
	[RTUNE_OBJ_DIR] = "configfs_dir",
	[RTUNE_OBJ_PARAM_SET] = "param_set",
	[RTUNE_OBJ_DP] = "datapath",
	[RTUNE_OBJ_DP_PARAMS] = "datapath_params",
	[RTUNE_OBJ_QP] = "qp",
};

static struct dentry *rtune_debugfs_dir;

static int rtune_objects_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < RTUNE_OBJ_COUNT; i++)
		seq_printf(m, "%s %d\n", rtune_obj_names[i],
			   atomic_read(&rtune_objs[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rtune_objects);

int rtune_objects_init(void)
{
	/* debugfs is a debugging aid: its absence is not an error. */
	rtune_debugfs_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("objects", 0444, rtune_debugfs_dir, NULL,
			    &rtune_objects_fops);
	rtune_fault_init(rtune_debugfs_dir);
	return 0;
}

/* Called last in module exit and in a failed init, after rcu_barrier(). */
void rtune_objects_exit(void)
{
	int late = atomic_read(&rtune_rcu_queued) - atomic_read(&rtune_rcu_waited);
	int i;

	if (late)
		pr_err("leaked %d RCU callback(s) queued after the last rcu_barrier()\n",
		       late);

	debugfs_remove_recursive(rtune_debugfs_dir);
	for (i = 0; i < RTUNE_OBJ_COUNT; i++)
		if (atomic_read(&rtune_objs[i]))
			pr_err("leaked %d %s object(s)\n",
			       atomic_read(&rtune_objs[i]), rtune_obj_names[i]);
}
