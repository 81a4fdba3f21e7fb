// SPDX-License-Identifier: GPL-2.0
/*
 * The ib_client: attach to every RoCE device as it registers, present it
 * in configfs, and detach when it unregisters, is renamed or the module
 * goes away.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/overflow.h>

#include "rocetune.h"
#include "datapath.h"
#include "objects.h"
#include "compat/rdma.h"

/* Ids every supported kernel has; compat/rdma.h names the others. */
static const char *const rtune_driver_names[] = {
	[RDMA_DRIVER_MLX5] = "mlx5",
	[RDMA_DRIVER_MLX4] = "mlx4",
	[RDMA_DRIVER_CXGB4] = "cxgb4",
	[RDMA_DRIVER_BNXT_RE] = "bnxt_re",
	[RDMA_DRIVER_OCRDMA] = "ocrdma",
	[RDMA_DRIVER_VMW_PVRDMA] = "vmw_pvrdma",
	[RDMA_DRIVER_QEDR] = "qedr",
	[RDMA_DRIVER_HNS] = "hns",
	[RDMA_DRIVER_RXE] = "rxe",
	[RDMA_DRIVER_EFA] = "efa",
	[RDMA_DRIVER_SIW] = "siw",
};

static const char *rtune_driver_name(const struct ib_device *ibdev)
{
	u32 id = ibdev->ops.driver_id;
	const char *name = NULL;

	if (id < ARRAY_SIZE(rtune_driver_names))
		name = rtune_driver_names[id];
	if (!name)
		name = rtune_compat_rdma_driver_name(id);
	return name ?: "unknown";
}

static void rtune_dev_release(struct kref *ref)
{
	struct rtune_dev *dev = container_of(ref, struct rtune_dev, ref);
	u32 i;

	for (i = 0; i < dev->nports; i++)
		rtune_port_fini(&dev->ports[i]);
	rtune_obj_free(RTUNE_OBJ_DEV, dev);
}

void rtune_dev_put(struct rtune_dev *dev)
{
	kref_put(&dev->ref, rtune_dev_release);
}

static int rtune_client_add(struct ib_device *ibdev)
{
	u32 first = rdma_start_port(ibdev), last = rdma_end_port(ibdev);
	struct rtune_dev *dev;
	u32 p, i = 0;
	int err;

	/* rocetune tunes RoCE: a device with no RoCE port is not ours. */
	for (p = first; p <= last; p++)
		if (rdma_protocol_roce(ibdev, p))
			break;
	if (p > last)
		return -EOPNOTSUPP;

	dev = rtune_obj_alloc(RTUNE_OBJ_DEV,
			      struct_size(dev, ports, last - first + 1),
			      GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	kref_init(&dev->ref);
	dev->ibdev = ibdev;
	dev->driver = rtune_driver_name(ibdev);
	/*
	 * Only Soft-RoCE gets rocetune's own DCQCN; see Documentation/. A
	 * test build can attach rxe as it attaches a hardware NIC.
	 */
	dev->has_backend = ibdev->ops.driver_id == RDMA_DRIVER_RXE &&
			   !rtune_fault_no_backend();
	dev->first_port = first;
	dev->nports = last - first + 1;

	for (i = 0; i < dev->nports; i++) {
		err = rtune_port_init(&dev->ports[i], first + i);
		if (err)
			goto err_ports;
		err = rtune_counters_init(dev, &dev->ports[i]);
		if (err) {
			rtune_port_fini(&dev->ports[i]);
			goto err_ports;
		}
	}

	err = rtune_dp_attach(dev);
	if (err)
		goto err_ports;

	err = rtune_dir_create(dev);
	if (err)
		goto err_dp;

	ib_set_client_data(ibdev, &rtune_ib_client, dev);
	pr_info("attached to %s (%s, %u port%s)\n", dev_name(&ibdev->dev),
		dev->driver, dev->nports, dev->nports == 1 ? "" : "s");
	return 0;

err_dp:
	rtune_dp_detach(dev);
err_ports:
	while (i--) {
		rtune_counters_fini(&dev->ports[i]);
		rtune_port_fini(&dev->ports[i]);
	}
	rtune_obj_free(RTUNE_OBJ_DEV, dev);
	return err;
}

static void rtune_client_remove(struct ib_device *ibdev, void *client_data)
{
	struct rtune_dev *dev = client_data;
	u32 i;

	/* Returns only when no configfs handler can reach dev->ibdev. */
	rtune_dir_destroy(dev);
	/* No hook, worker or configfs handler uses the datapath after this. */
	rtune_dp_detach(dev);
	/* The stats descriptors belong to the driver: drop them now. */
	for (i = 0; i < dev->nports; i++)
		rtune_counters_fini(&dev->ports[i]);
	dev->ibdev = NULL;
	pr_info("detached from %s\n", dev_name(&ibdev->dev));
	rtune_dev_put(dev);
}

static void rtune_client_rename(struct ib_device *ibdev, void *client_data)
{
	struct rtune_dev *dev = client_data;
	int err;

	/*
	 * configfs cannot rename a directory from the kernel, so present
	 * the device under a new directory. Its state lives in rtune_dev and
	 * carries over; only the old directory goes.
	 */
	rtune_dir_destroy(dev);
	err = rtune_dir_create(dev);
	if (err)
		pr_err("%s: cannot present renamed device in configfs: %d\n",
		       dev_name(&ibdev->dev), err);
}

struct ib_client rtune_ib_client = {
	.name = "rocetune",
	.add = rtune_client_add,
	.remove = rtune_client_remove,
	.rename = rtune_client_rename,
};
