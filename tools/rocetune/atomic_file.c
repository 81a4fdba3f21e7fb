// SPDX-License-Identifier: GPL-2.0
/* Whole-file replacement through a temporary and a rename (atomic_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "atomic_file.h"

int rtune_atomic_write(const char *path, unsigned int flags,
		       int (*write)(FILE *f, void *arg), void *arg)
{
	char tmp[4200];
	FILE *f;
	int fd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		unlink(tmp);
		return err;
	}
	err = write(f, arg);
	if (!err && fflush(f))
		err = -errno;
	else if (!err && ferror(f))
		err = -EIO;
	else if (!err && (flags & RTUNE_AF_FSYNC) && fsync(fd))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}
