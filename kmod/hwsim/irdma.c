// SPDX-License-Identifier: GPL-2.0
/*
 * hwsim: Intel's out-of-tree irdma congestion-control surface.
 *
 * What irdma's src/irdma/configfs.c (irdma 1.14.33) gives a RoCE device,
 * reproduced under hwsim's own configfs subsystem
 * /sys/kernel/config/rtune_hwsim_irdma/ (irdma's is .../irdma/):
 *
 * - mkdir <name> makes a group only for a device hwsim knows under that
 *   name ("new_device irdma <ibdev>"), else fails with ENODEV, as
 *   irdma_vsi_make_group() does; the group's item type is owned by this
 *   module, so the module cannot be unloaded while a group exists (the
 *   reason irdma's README says to rmdir it);
 * - roce_dcqcn_enable, roce_dctcp_enable, roce_timely_enable: "%d\n",
 *   kstrtobool (EINVAL otherwise); cnp_up_override: "%d\n", kstrtou8 base
 *   0, at most 0x3f. The values belong to the device: they outlive the
 *   group, as irdma keeps them in its irdma_device.
 *
 * Each write goes through the device's fault knobs (fault.c). A device
 * with a group cannot be removed (del_device: EBUSY). The device's
 * debugfs directory has "groups", how many groups exist for it: a tool
 * that forgets its rmdir shows there.
 *
 * Locking: the values under hwsim_dev.lock (each show and store); the
 * groups count is hwsim_dev.users (cfs.c, the subsystem and its mkdir).
 */
#include <linux/configfs.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hwsim.h"

/* The simulated device's state, under hwsim_dev.lock. */
struct hwsim_irdma {
	bool dcqcn;
	bool dctcp;
	bool timely;
	u8 cnp_up_override;
};

/* One mkdir'ed group: a reference on its device. */
struct hwsim_irdma_grp {
	struct config_group group;
	struct hwsim_dev *d;
};

static struct hwsim_irdma_grp *to_grp(struct config_item *item)
{
	return container_of(to_config_group(item), struct hwsim_irdma_grp, group);
}

static ssize_t hwsim_irdma_show(struct config_item *item, char *page, int which)
{
	struct hwsim_dev *d = to_grp(item)->d;
	struct hwsim_irdma *ir = d->priv;
	int v;

	mutex_lock(&d->lock);
	switch (which) {
	case 0:
		v = ir->dcqcn;
		break;
	case 1:
		v = ir->dctcp;
		break;
	case 2:
		v = ir->timely;
		break;
	default:
		v = ir->cnp_up_override;
		break;
	}
	mutex_unlock(&d->lock);
	return sprintf(page, "%d\n", v);
}

static ssize_t hwsim_irdma_store(struct config_item *item, const char *page,
				 size_t count, int which)
{
	struct hwsim_dev *d = to_grp(item)->d;
	struct hwsim_irdma *ir = d->priv;
	bool b = false;
	u8 u = 0;
	int ret;

	/* irdma parses before it stores: a bad value is EINVAL, no write */
	if (which < 3)
		ret = kstrtobool(page, &b);
	else
		ret = kstrtou8(page, 0, &u);
	if (ret || u > 0x3f)
		return -EINVAL;

	mutex_lock(&d->lock);
	ret = hwsim_fault_admit(d);
	if (ret == HWSIM_STORE) {
		bool *f = which == 0 ? &ir->dcqcn : which == 1 ? &ir->dctcp : &ir->timely;

		if (which < 3 && *f != b) {
			*f = b;
			hwsim_fault_changed(d);
		} else if (which == 3 && ir->cnp_up_override != u) {
			ir->cnp_up_override = u;
			hwsim_fault_changed(d);
		}
	}
	mutex_unlock(&d->lock);
	return ret < 0 ? ret : count;
}

#define HWSIM_IRDMA_ATTR(name, which)						\
static ssize_t hwsim_irdma_##name##_show(struct config_item *item, char *page)	\
{										\
	return hwsim_irdma_show(item, page, which);				\
}										\
static ssize_t hwsim_irdma_##name##_store(struct config_item *item,		\
					  const char *page, size_t count)	\
{										\
	return hwsim_irdma_store(item, page, count, which);			\
}										\
CONFIGFS_ATTR(hwsim_irdma_, name)

HWSIM_IRDMA_ATTR(roce_dcqcn_enable, 0);
HWSIM_IRDMA_ATTR(roce_dctcp_enable, 1);
HWSIM_IRDMA_ATTR(roce_timely_enable, 2);
HWSIM_IRDMA_ATTR(cnp_up_override, 3);

static struct configfs_attribute *hwsim_irdma_attrs[] = {
	&hwsim_irdma_attr_roce_dcqcn_enable,
	&hwsim_irdma_attr_roce_dctcp_enable,
	&hwsim_irdma_attr_roce_timely_enable,
	&hwsim_irdma_attr_cnp_up_override,
	NULL,
};

static void hwsim_irdma_release(struct config_item *item)
{
	struct hwsim_irdma_grp *g = to_grp(item);

	hwsim_dev_put(g->d);
	kfree(g);
}

static struct configfs_item_operations hwsim_irdma_item_ops = {
	.release	= hwsim_irdma_release,
};

static const struct config_item_type hwsim_irdma_grp_type = {
	.ct_attrs	= hwsim_irdma_attrs,
	.ct_item_ops	= &hwsim_irdma_item_ops,
	.ct_owner	= THIS_MODULE,
};

static struct hwsim_cfs hwsim_irdma_cfs;

static struct config_group *hwsim_irdma_make(struct hwsim_dev *d, const char *name)
{
	struct hwsim_irdma_grp *g;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return ERR_PTR(-ENOMEM);
	g->d = d;
	config_group_init_type_name(&g->group, name, &hwsim_irdma_grp_type);
	return &g->group;
}

/* A configfs name is at most CONFIGFS_ITEM_NAME_LEN bytes, NUL included
 * (a longer name would silently lose its NUL).
 */
#define HWSIM_IRDMA_SUBSYS "rtune_hwsim_irdma"
static_assert(sizeof(HWSIM_IRDMA_SUBSYS) <= CONFIGFS_ITEM_NAME_LEN);

static int hwsim_irdma_init(void)
{
	hwsim_irdma_cfs.sf = &hwsim_irdma;
	hwsim_irdma_cfs.make = hwsim_irdma_make;
	return hwsim_cfs_register(&hwsim_irdma_cfs, HWSIM_IRDMA_SUBSYS);
}

static void hwsim_irdma_exit(void)
{
	hwsim_cfs_unregister(&hwsim_irdma_cfs);
}

static int hwsim_irdma_create(struct hwsim_dev *d)
{
	struct hwsim_irdma *ir;

	ir = kzalloc(sizeof(*ir), GFP_KERNEL);
	if (!ir)
		return -ENOMEM;
	/* irdma's defaults (README): DCQCN, DCTCP and TIMELY off */
	d->priv = ir;
	debugfs_create_atomic_t("groups", 0444, d->dir, &d->users);
	return 0;
}

static void hwsim_irdma_destroy(struct hwsim_dev *d)
{
	kfree(d->priv);
	d->priv = NULL;
}

const struct hwsim_surface hwsim_irdma = {
	.name		= "irdma",
	.id_valid	= hwsim_name_valid,
	.init		= hwsim_irdma_init,
	.exit		= hwsim_irdma_exit,
	.create		= hwsim_irdma_create,
	.destroy	= hwsim_irdma_destroy,
};
