// SPDX-License-Identifier: GPL-2.0
/*
 * Per-port congestion-control state: a staged parameter set that writes
 * change one value at a time, and an active set replaced only as a whole
 * by a commit that validates everything first. Readers of the active set
 * (configfs now, the software DCQCN datapath) use RCU, so a commit is
 * atomic for them: they see the old set or the new one, never a mix.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "rocetune.h"
#include "datapath.h"
#include "objects.h"

int rtune_port_init(struct rtune_port *port, u32 num)
{
	struct rtune_param_set *active;

	active = rtune_obj_alloc(RTUNE_OBJ_PARAM_SET, sizeof(*active), GFP_KERNEL);
	if (!active)
		return -ENOMEM;
	*active = *rtune_params_default();
	port->num = num;
	mutex_init(&port->lock);
	port->staged = *active;
	RCU_INIT_POINTER(port->active, active);
	return 0;
}

void rtune_port_fini(struct rtune_port *port)
{
	/* No reader is left: the device is unreachable from configfs. */
	rtune_obj_free(RTUNE_OBJ_PARAM_SET,
		    rcu_dereference_protected(port->active, true));
	mutex_destroy(&port->lock);
}

int rtune_port_stage(struct rtune_port *port, enum rtune_param_id id,
		  const char *buf, size_t len)
{
	u32 v;
	int err;

	/* Parse before locking: a bad write must not touch the set. */
	err = rtune_param_parse(id, buf, len, &v);
	if (err)
		return err;
	mutex_lock(&port->lock);
	port->staged.v[id] = v;
	mutex_unlock(&port->lock);
	return 0;
}

int rtune_port_stage_preset(struct rtune_port *port, const char *buf, size_t len)
{
	const struct rtune_preset *preset = rtune_preset_lookup(buf, len);

	if (!preset)
		return -EINVAL;
	mutex_lock(&port->lock);
	port->staged = preset->set;
	mutex_unlock(&port->lock);
	return 0;
}

int rtune_port_commit(struct rtune_dev *dev, struct rtune_port *port)
{
	struct rtune_param_set *next, *prev;
	struct rtune_dp_params *dp_next;
	char why[RTUNE_ERR_MAX];
	int err;

	next = rtune_obj_alloc(RTUNE_OBJ_PARAM_SET, sizeof(*next), GFP_KERNEL);
	if (!next)
		return -ENOMEM;

	mutex_lock(&port->lock);
	/* A test-injected failure (debugfs) refuses before any change. */
	err = rtune_fault_commit();
	if (err) {
		strscpy(port->last_error, "injected failure",
			sizeof(port->last_error));
		goto out_unlock;
	}
	if (!dev->has_backend) {
		snprintf(port->last_error, sizeof(port->last_error),
			 "no congestion-control backend for driver %s: values are staged only",
			 dev->driver);
		err = -EOPNOTSUPP;
		goto out_unlock;
	}
	err = rtune_params_validate(&port->staged, why, sizeof(why));
	if (err) {
		strscpy(port->last_error, why, sizeof(port->last_error));
		goto out_unlock;
	}
	/* Everything that can fail comes before the first change. */
	dp_next = rtune_dp_prepare(dev, port, &port->staged);
	if (IS_ERR(dp_next)) {
		err = PTR_ERR(dp_next);
		snprintf(port->last_error, sizeof(port->last_error),
			 "out of memory preparing the datapath");
		goto out_unlock;
	}
	*next = port->staged;
	prev = rcu_replace_pointer(port->active, next,
				   lockdep_is_held(&port->lock));
	if (dp_next)
		rtune_dp_publish(dev, port, dp_next);
	port->generation++;
	port->last_error[0] = '\0';
	mutex_unlock(&port->lock);
	/* Commits are rare and may sleep: wait out readers of the old set. */
	synchronize_rcu();
	rtune_obj_free(RTUNE_OBJ_PARAM_SET, prev);
	return 0;

out_unlock:
	mutex_unlock(&port->lock);
	rtune_obj_free(RTUNE_OBJ_PARAM_SET, next);
	return err;
}

void rtune_port_discard(struct rtune_port *port)
{
	mutex_lock(&port->lock);
	port->staged = *rcu_dereference_protected(port->active,
						  lockdep_is_held(&port->lock));
	mutex_unlock(&port->lock);
}

u32 rtune_port_active_value(struct rtune_port *port, enum rtune_param_id id)
{
	u32 v;

	rcu_read_lock();
	v = rcu_dereference(port->active)->v[id];
	rcu_read_unlock();
	return v;
}
