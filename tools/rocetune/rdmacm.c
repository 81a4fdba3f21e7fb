// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/config/rdma_cm/<ibdev>/ports/<N>/default_roce_{mode,tos}.
 * The group exists only while someone holds it (mkdir), and holds a
 * reference on the cma_device while it does (`rdma link delete` waits for
 * it); the values live in the cma_device and survive rmdir. So we make it,
 * read/write, and remove it if we made it, as cma_roce_tos does; one a
 * killed rocetune left behind is removed by the next (cfs_group.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cfs.h"
#include "cfs_group.h"
#include "rdmacm.h"

const char *rtune_configfs_root(void)
{
	const char *r = getenv("ROCETUNE_CONFIGFS");

	return r && *r ? r : "/sys/kernel/config";
}

static int open_group(const char *ibdev, char *dir, size_t len, bool *created)
{
	char base[256];

	snprintf(base, sizeof(base), "%s/rdma_cm", rtune_configfs_root());
	*created = false;
	if (!cfs_exists(base))
		return -ENOENT;
	snprintf(dir, len, "%s/%s", base, ibdev);
	return cfs_group_enter(dir, created);
}

static void close_group(const char *dir, bool created)
{
	cfs_group_leave(dir, created);
}

int cm_get(const char *ibdev, uint32_t port, int *mode, int *tos)
{
	char dir[320], path[400], buf[64];
	bool created;
	int err;
	char *end;
	long v;

	err = open_group(ibdev, dir, sizeof(dir), &created);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/ports/%u/default_roce_mode", dir, port);
	err = cfs_read(path, buf, sizeof(buf));
	if (!err)
		*mode = !strcmp(buf, "RoCE v2") ? 2 : !strcmp(buf, "IB/RoCE v1") ? 1 : 0;
	snprintf(path, sizeof(path), "%s/ports/%u/default_roce_tos", dir, port);
	if (!err)
		err = cfs_read(path, buf, sizeof(buf));
	if (!err) {
		v = strtol(buf, &end, 0);
		if (*end || v < 0 || v > 255)
			err = -EPROTO;
		else
			*tos = (int)v;
	}
	close_group(dir, created);
	return err;
}

int cm_set(const char *ibdev, uint32_t port, int mode, int tos)
{
	char dir[320], path[400], buf[16];
	bool created;
	int err = 0;

	err = open_group(ibdev, dir, sizeof(dir), &created);
	if (err)
		return err;
	if (mode > 0) {
		snprintf(path, sizeof(path), "%s/ports/%u/default_roce_mode", dir, port);
		err = cfs_write(path, mode == 2 ? "RoCE v2" : "IB/RoCE v1");
	}
	if (!err && tos >= 0) {
		snprintf(path, sizeof(path), "%s/ports/%u/default_roce_tos", dir, port);
		snprintf(buf, sizeof(buf), "%d", tos);
		err = cfs_write(path, buf);
	}
	close_group(dir, created);
	return err;
}
