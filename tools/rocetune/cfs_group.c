// SPDX-License-Identifier: GPL-2.0
/* Configfs groups made for one use, and those a killed rocetune left (cfs_group.h). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cfs.h"
#include "cfs_group.h"
#include "testhook.h"

static void group_stamp(const char *dir, char *buf, size_t len)
{
	const char *sd = getenv("ROCETUNE_STATE_DIR");
	size_t n;
	char *p;

	if (!sd || !*sd)
		sd = "/run/rocetune";
	mkdir(sd, 0755);
	n = (size_t)snprintf(buf, len, "%s/cfs-group", sd);
	if (n >= len)
		return;
	snprintf(buf + n, len - n, "%s", dir);
	for (p = buf + n; *p; p++)
		if (*p == '/')
			*p = '_';
}

/* Remove @dir and its stamp if the rocetune that made it is gone. */
static void group_reap(const char *dir)
{
	char stamp[PATH_MAX], buf[32];
	long pid;

	group_stamp(dir, stamp, sizeof(stamp));
	if (cfs_read(stamp, buf, sizeof(buf)))
		return;
	pid = strtol(buf, NULL, 10);
	if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
		return;
	if (!rmdir(dir) || errno == ENOENT)
		unlink(stamp);
}

int cfs_group_enter(const char *dir, bool *made)
{
	char stamp[PATH_MAX];
	FILE *f;
	int err;

	*made = false;
	group_reap(dir);
	if (!access(dir, F_OK))
		return 0;
	group_stamp(dir, stamp, sizeof(stamp));
	f = fopen(stamp, "w");
	if (f) {
		fprintf(f, "%ld\n", (long)getpid());
		fclose(f);
	}
	rtune_test_step("configfs group stamped, not made");
	if (mkdir(dir, 0755)) {
		/* EEXIST: another rocetune made it meanwhile; its, not ours */
		err = errno == EEXIST ? 0 : -errno;
		unlink(stamp);
		return err;
	}
	*made = true;
	rtune_test_step("configfs group made");
	return 0;
}

void cfs_group_leave(const char *dir, bool made)
{
	char stamp[PATH_MAX];

	if (!made)
		return;
	group_stamp(dir, stamp, sizeof(stamp));
	/* a stamp stays with a group that stays, for the next run */
	if (!rmdir(dir) || errno == ENOENT)
		unlink(stamp);
}
