// SPDX-License-Identifier: GPL-2.0
/*
 * The port attributes libibverbs gives (ibport.h). Opening the device
 * needs ib_uverbs and /dev/infiniband: without them the caller reports
 * the value unknown, as for any other setting it cannot read.
 */
#include <errno.h>
#include <string.h>
#include <infiniband/verbs.h>
#include "ibport.h"

int rtune_ibport_active_mtu(const char *ibdev, unsigned int port, uint32_t *mtu)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_port_attr pa;
	int i, n = 0, err = -ENODEV;

	list = ibv_get_device_list(&n);
	if (!list)
		return -errno;
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), ibdev)) {
			ctx = ibv_open_device(list[i]);
			err = ctx ? 0 : -errno;
			break;
		}
	ibv_free_device_list(list);
	if (err)
		return err;
	memset(&pa, 0, sizeof(pa));
	if (ibv_query_port(ctx, (uint8_t)port, &pa)) {
		err = -errno;
	} else {
		/* IBV_MTU_256 (1) .. IBV_MTU_4096 (5) */
		if (pa.active_mtu >= IBV_MTU_256 && pa.active_mtu <= IBV_MTU_4096)
			*mtu = 256u << (pa.active_mtu - IBV_MTU_256);
		else
			err = -EPROTO;
	}
	ibv_close_device(ctx);
	return err;
}
