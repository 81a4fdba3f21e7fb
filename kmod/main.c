// SPDX-License-Identifier: GPL-2.0
/*
 * rocetune.ko: vendor-neutral congestion-control tuning for RoCE devices.
 * See Documentation/configfs.rst for the interface.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "rocetune.h"

static int __init rt_init(void)
{
	int err;

	err = rt_configfs_check_attrs();
	if (err)
		return err;

	/* The subsystem first: attaching a device creates a directory in it. */
	err = rt_configfs_init();
	if (err)
		goto err_out;

	err = ib_register_client(&rt_ib_client);
	if (err)
		goto err_configfs;

	pr_info("version %s loaded\n", RT_VERSION);
	return 0;

err_configfs:
	rt_configfs_exit();
err_out:
	return err;
}

static void __exit rt_exit(void)
{
	/* Detaches every device, which removes their directories. */
	ib_unregister_client(&rt_ib_client);
	rt_configfs_exit();
}

module_init(rt_init);
module_exit(rt_exit);

MODULE_AUTHOR("rocetune developers");
MODULE_DESCRIPTION("Vendor-neutral RoCE congestion-control tuning");
MODULE_LICENSE("GPL");
MODULE_VERSION(RT_VERSION);
MODULE_SOFTDEP("pre: configfs");
