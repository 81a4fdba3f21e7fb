// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/config/rdma_cm/<ibdev>/ports/<N>/default_roce_{mode,tos}.
 * The group exists only while someone holds it (mkdir); the values live in
 * the cma_device and survive rmdir, so we mkdir, read/write, and rmdir what
 * we created, as cma_roce_tos does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cfs.h"
#include "rdmacm.h"

const char *rtune_configfs_root(void)
{
	const char *r = getenv("ROCETUNE_CONFIGFS");

	return r && *r ? r : "/sys/kernel/config";
}

static int open_group(const char *ibdev, char *dir, size_t len, int *created)
{
	char base[256];

	snprintf(base, sizeof(base), "%s/rdma_cm", rtune_configfs_root());
	if (!cfs_exists(base))
		return -ENOENT;
	snprintf(dir, len, "%s/%s", base, ibdev);
	*created = 0;
	if (!cfs_exists(dir)) {
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -errno;
		*created = 1;
	}
	return 0;
}

static void close_group(const char *dir, int created)
{
	if (created)
		rmdir(dir);
}

int cm_get(const char *ibdev, uint32_t port, int *mode, int *tos)
{
	char dir[320], path[400], buf[64];
	int created, err;
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
	int created, err = 0;

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
