// SPDX-License-Identifier: GPL-2.0
/* Live-object accounting; see objects.h. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "objects.h"
#include "rocetune.h"

atomic_t rt_objs[RT_OBJ_COUNT];

static const char *const rt_obj_names[RT_OBJ_COUNT] = {
	[RT_OBJ_DEV] = "dev",
	[RT_OBJ_DIR] = "configfs_dir",
	[RT_OBJ_PARAM_SET] = "param_set",
	[RT_OBJ_DP] = "datapath",
	[RT_OBJ_DP_PARAMS] = "datapath_params",
	[RT_OBJ_QP] = "qp",
};

static struct dentry *rt_debugfs_dir;

static int rt_objects_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < RT_OBJ_COUNT; i++)
		seq_printf(m, "%s %d\n", rt_obj_names[i],
			   atomic_read(&rt_objs[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rt_objects);

int rt_objects_init(void)
{
	/* debugfs is a debugging aid: its absence is not an error. */
	rt_debugfs_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("objects", 0444, rt_debugfs_dir, NULL,
			    &rt_objects_fops);
	rt_fault_init(rt_debugfs_dir);
	return 0;
}

/* Called last in module exit, after rcu_barrier(). */
void rt_objects_exit(void)
{
	int i;

	debugfs_remove_recursive(rt_debugfs_dir);
	for (i = 0; i < RT_OBJ_COUNT; i++)
		if (atomic_read(&rt_objs[i]))
			pr_err("leaked %d %s object(s)\n",
			       atomic_read(&rt_objs[i]), rt_obj_names[i]);
}
