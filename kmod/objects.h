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
#include <linux/rcupdate.h>
#include <linux/slab.h>

enum rtune_obj {
	RTUNE_OBJ_DEV,		/* struct rtune_dev */
	RTUNE_OBJ_DIR,		/* struct rtune_dir (configfs directory) */
	RTUNE_OBJ_PARAM_SET,	/* struct rtune_param_set (active sets) */
	RTUNE_OBJ_DP,		/* struct rtune_dp */
	RTUNE_OBJ_DP_PARAMS,	/* struct rtune_dp_params */
	RTUNE_OBJ_QP,		/* struct rtune_qp */
	RTUNE_OBJ_COUNT
};

extern atomic_t rtune_objs[RTUNE_OBJ_COUNT];

/* kzalloc() that counts the object. */
static inline void *rtune_obj_alloc(enum rtune_obj kind, size_t size, gfp_t gfp)
{
	void *p = kzalloc(size, gfp);

	if (p)
		atomic_inc(&rtune_objs[kind]);
	return p;
}

/* kfree() of an object from rtune_obj_alloc(); NULL is fine. */
static inline void rtune_obj_free(enum rtune_obj kind, const void *p)
{
	if (!p)
		return;
	atomic_dec(&rtune_objs[kind]);
	kfree(p);
}

/*
 * Every RCU callback the module queues goes through rtune_call_rcu(), and
 * every wait for them through rtune_rcu_barrier(), so that the last step
 * of module exit or of a failed init can tell, whatever the timing,
 * whether a callback was queued after the last barrier: one that could
 * run after the module's text is gone (issue 9, finding 10).
 */
extern atomic_t rtune_rcu_queued;	/* rtune_call_rcu() calls */
extern atomic_t rtune_rcu_waited;	/* of which a barrier waited for */

static inline void rtune_call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	atomic_inc(&rtune_rcu_queued);
	call_rcu(head, func);
}

static inline void rtune_rcu_barrier(void)
{
	int queued = atomic_read(&rtune_rcu_queued);

	rcu_barrier();
	atomic_set(&rtune_rcu_waited, queued);
}

int rtune_objects_init(void);
void rtune_objects_exit(void);

#endif /* _ROCETUNE_OBJECTS_H */
