// SPDX-License-Identifier: GPL-2.0
/*
 * rocetune.ko: vendor-neutral congestion-control tuning for RoCE devices.
 * See Documentation/configfs.rst for the interface.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "rocetune.h"
#include "datapath.h"
#include "objects.h"
#include "core/rt_icrc.h"

static int __init rt_init(void)
{
	int err;

	err = rt_configfs_check_attrs();
	if (err)
		return err;

	rt_objects_init();

	/* The subsystem first: attaching a device creates a directory in it. */
	err = rt_configfs_init();
	if (err)
		goto err_out;

	/* Fill the CRC table before any hook can use it. */
	rt_crc32_update(0, NULL, 0);
	/* Hooks before devices: they ignore packets of unattached devices. */
	err = rt_hooks_register();
	if (err)
		goto err_configfs;

	err = ib_register_client(&rt_ib_client);
	if (err)
		goto err_hooks;

	pr_info("version %s loaded\n", RT_VERSION);
	return 0;

err_hooks:
	rt_hooks_unregister();
err_configfs:
	rt_configfs_exit();
err_out:
	rt_objects_exit();
	return err;
}

static void __exit rt_exit(void)
{
	/* Detaches every device, which removes their directories. */
	ib_unregister_client(&rt_ib_client);
	rt_hooks_unregister();
	/* Our RCU callbacks (QP and parameter frees) run before unload. */
	rcu_barrier();
	rt_qp_stats_exit();
	rt_configfs_exit();
	/* Last: every object must be gone by now. */
	rt_objects_exit();
}

module_init(rt_init);
module_exit(rt_exit);

MODULE_AUTHOR("rocetune developers");
MODULE_DESCRIPTION("Vendor-neutral RoCE congestion-control tuning");
MODULE_LICENSE("GPL");
MODULE_VERSION(RT_VERSION);
MODULE_SOFTDEP("pre: configfs");
