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
#include "core/icrc.h"

static int __init rtune_init(void)
{
	int err;

	rtune_objects_init();

	/* The subsystem first: attaching a device creates a directory in it. */
	err = rtune_configfs_init();
	if (err)
		goto err_out;

	/* Fill the CRC table before any hook can use it. */
	rtune_crc32_update(0, NULL, 0);
	/* Hooks before devices: they ignore packets of unattached devices. */
	err = rtune_hooks_register();
	if (err)
		goto err_configfs;

	err = ib_register_client(&rtune_ib_client);
	if (err)
		goto err_hooks;
	/* Test builds: fail as ib_register_client() does after adding devices. */
	err = rtune_fault_client_registered();
	if (err) {
		ib_unregister_client(&rtune_ib_client);
		goto err_hooks;
	}

	pr_info("version %s loaded\n", RTUNE_VERSION);
	return 0;

err_hooks:
	/*
	 * A failed ib_register_client() has already removed the devices it
	 * added, and their QP entries are queued for freeing after a grace
	 * period: those callbacks must run before the module's text goes,
	 * and before rtune_objects_exit() counts what is left.
	 */
	rtune_hooks_unregister();
	rtune_rcu_barrier();
err_configfs:
	rtune_configfs_exit();
err_out:
	rtune_objects_exit();
	return err;
}

static void __exit rtune_exit(void)
{
	/* Detaches every device, which removes their directories. */
	ib_unregister_client(&rtune_ib_client);
	rtune_hooks_unregister();
	/* Our RCU callbacks (QP and parameter frees) run before unload. */
	rtune_rcu_barrier();
	rtune_qp_stats_exit();
	rtune_configfs_exit();
	/* Last: every object must be gone by now. */
	rtune_objects_exit();
}

module_init(rtune_init);
module_exit(rtune_exit);

MODULE_AUTHOR("rocetune developers");
MODULE_DESCRIPTION("Vendor-neutral RoCE congestion-control tuning");
MODULE_LICENSE("GPL");
MODULE_VERSION(RTUNE_VERSION);
MODULE_SOFTDEP("pre: configfs");
