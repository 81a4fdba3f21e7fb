/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Live-object accounting. Debian's kernels have no kmemleak, so every
 * object rocetune.ko allocates is counted from allocation to the moment
 * it is really freed (after the RCU grace period for RCU-freed ones).
 * The counts are in debugfs (rocetune/objects) for tests, and module exit
 * reports any that are not back to zero.
 */
#ifndef _ROCETUNE_OBJECTS_H
#define _ROCETUNE_OBJECTS_H

#include <linux/atomic.h>
#include <linux/slab.h>

enum rt_obj {
	RT_OBJ_DEV,		/* struct rt_dev */
	RT_OBJ_DIR,		/* struct rt_dir (configfs directory) */
	RT_OBJ_PARAM_SET,	/* struct rt_param_set (active sets) */
	RT_OBJ_DP,		/* struct rt_dp */
	RT_OBJ_DP_PARAMS,	/* struct rt_dp_params */
	RT_OBJ_QP,		/* struct rt_qp */
	RT_OBJ_COUNT
};

extern atomic_t rt_objs[RT_OBJ_COUNT];

/* kzalloc() that counts the object. */
static inline void *rt_obj_alloc(enum rt_obj kind, size_t size, gfp_t gfp)
{
	void *p = kzalloc(size, gfp);

	if (p)
		atomic_inc(&rt_objs[kind]);
	return p;
}

/* kfree() of an object from rt_obj_alloc(); NULL is fine. */
static inline void rt_obj_free(enum rt_obj kind, const void *p)
{
	if (!p)
		return;
	atomic_dec(&rt_objs[kind]);
	kfree(p);
}

int rt_objects_init(void);
void rt_objects_exit(void);

#endif /* _ROCETUNE_OBJECTS_H */
