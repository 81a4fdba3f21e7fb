// SPDX-License-Identifier: GPL-2.0
/*
 * hwsim: a configfs subsystem whose groups stand for devices, the shape
 * both out-of-tree drivers give their trees (Intel's irdma:
 * irdma/<ibdev>/; Broadcom's bnxt_re: bnxt_re/<ibdev>/ports/1/cc/).
 *
 * mkdir <name> makes a group only for a device hwsim knows under that
 * name (ENODEV otherwise, as both drivers answer), and the group holds a
 * reference on the device (hwsim_dev.users): del_device refuses it with
 * EBUSY, and the group's item type pins the module, which is why both
 * drivers' READMEs say to rmdir before unloading. What a group contains
 * is the surface's: hwsim_cfs.make builds it, and the surface's item
 * release must call hwsim_dev_put().
 *
 * configfs calls make_group with the subsystem's mutex held;
 * hwsim_devs_lock nests inside it, never around it.
 */
#include <linux/configfs.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>

#include "hwsim.h"

static struct config_group *hwsim_cfs_make_group(struct config_group *parent,
						 const char *name)
{
	struct configfs_subsystem *subsys = to_configfs_subsystem(parent);
	struct hwsim_cfs *c = container_of(subsys, struct hwsim_cfs, subsys);
	struct config_group *g;
	struct hwsim_dev *d;

	d = hwsim_dev_get(c->sf, name);
	if (!d)
		return ERR_PTR(-ENODEV);
	g = c->make(d, name);
	if (IS_ERR(g))
		hwsim_dev_put(d);
	return g;
}

static struct configfs_group_operations hwsim_cfs_subsys_ops = {
	.make_group	= hwsim_cfs_make_group,
};

static const struct config_item_type hwsim_cfs_subsys_type = {
	.ct_group_ops	= &hwsim_cfs_subsys_ops,
	.ct_owner	= THIS_MODULE,
};

/**
 * hwsim_cfs_register - register a device-group subsystem
 * @c: its surface and make callback set; @name at most
 *     CONFIGFS_ITEM_NAME_LEN - 1 bytes (checked where it is defined)
 * @name: the directory under /sys/kernel/config
 *
 * Return: 0 or -errno.
 */
int hwsim_cfs_register(struct hwsim_cfs *c, const char *name)
{
	config_group_init_type_name(&c->subsys.su_group, name,
				    &hwsim_cfs_subsys_type);
	mutex_init(&c->subsys.su_mutex);
	return configfs_register_subsystem(&c->subsys);
}

void hwsim_cfs_unregister(struct hwsim_cfs *c)
{
	configfs_unregister_subsystem(&c->subsys);
	mutex_destroy(&c->subsys.su_mutex);
}
