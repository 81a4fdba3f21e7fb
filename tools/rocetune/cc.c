// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/config/rocetune/<ibdev>/ports/<N>/cc/: staged/<param> (rw),
 * active/<param> (ro), commit, discard, last_error. A commit applies the
 * whole staged set or nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cc.h"
#include "testhook.h"
#include "cfs.h"
#include "rdmacm.h"

static void base(char *buf, size_t len, const char *ibdev, uint32_t port)
{
	snprintf(buf, len, "%s/rocetune/%s/ports/%u/cc", rtune_configfs_root(), ibdev, port);
}

int cc_get(const char *ibdev, uint32_t port, struct rtune_param_set *active,
	   uint32_t *valid, char *backend, size_t blen)
{
	char dir[256], path[400], buf[64];
	int i, err;

	base(dir, sizeof(dir), ibdev, port);
	if (!cfs_exists(dir))
		return -ENOENT;
	*valid = 0;
	snprintf(path, sizeof(path), "%s/rocetune/%s/backend", rtune_configfs_root(), ibdev);
	if (backend && cfs_read(path, backend, blen))
		backend[0] = '\0';
	for (i = 0; i < RTUNE_P_COUNT; i++) {
		u32 v;

		snprintf(path, sizeof(path), "%s/active/%s", dir, rtune_param_descs[i].name);
		err = cfs_read(path, buf, sizeof(buf));
		if (err)
			continue;
		if (rtune_param_parse((enum rtune_param_id)i, buf, strlen(buf), &v))
			continue;
		active->v[i] = v;
		*valid |= 1u << i;
	}
	return 0;
}

int cc_driver(const char *ibdev, char *buf, size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/rocetune/%s/driver", rtune_configfs_root(), ibdev);
	return cfs_read(path, buf, len);
}

int cc_apply(const char *ibdev, uint32_t port, const struct rtune_param_set *want,
	     const struct rtune_param_set *cur, uint32_t mask, char *why, size_t wlen)
{
	char dir[256], path[400], val[RTUNE_PARAM_TEXT_MAX];
	struct rtune_param_set now;
	uint32_t valid;
	int i, err;

	why[0] = '\0';
	base(dir, sizeof(dir), ibdev, port);
	snprintf(path, sizeof(path), "%s/discard", dir);
	err = cfs_write(path, "1");
	if (err) {
		snprintf(why, wlen, "discard: %s", strerror(-err));
		return err;
	}
	for (i = 0; i < RTUNE_P_COUNT; i++) {
		if (!(mask & (1u << i)) || want->v[i] == cur->v[i])
			continue;
		if (rtune_param_format((enum rtune_param_id)i, want->v[i], val, sizeof(val)) < 0)
			return -EINVAL;
		snprintf(path, sizeof(path), "%s/staged/%s", dir, rtune_param_descs[i].name);
		err = cfs_write(path, val);
		if (err) {
			snprintf(why, wlen, "staging %s: %s", rtune_param_descs[i].name,
				 strerror(-err));
			goto discard;
		}
	}
	rtune_test_step("cc staged, not committed");
	snprintf(path, sizeof(path), "%s/commit", dir);
	err = cfs_write(path, "1");
	if (err) {
		char le[200] = "";

		snprintf(path, sizeof(path), "%s/last_error", dir);
		cfs_read(path, le, sizeof(le));
		snprintf(why, wlen, "commit refused: %s%s%s", strerror(-err),
			 le[0] ? ": " : "", le);
		goto discard;
	}
	/* read back what is in effect */
	now = *cur;
	if (cc_get(ibdev, port, &now, &valid, NULL, 0) == 0) {
		for (i = 0; i < RTUNE_P_COUNT; i++) {
			if (!(mask & (1u << i)))
				continue;
			if (!(valid & (1u << i)) || now.v[i] != want->v[i]) {
				snprintf(why, wlen, "read-back: %s is %u after commit, wanted %u",
					 rtune_param_descs[i].name, now.v[i], want->v[i]);
				return -EIO;
			}
		}
	}
	return 0;
discard:
	snprintf(path, sizeof(path), "%s/discard", dir);
	cfs_write(path, "1");
	return err;
}
