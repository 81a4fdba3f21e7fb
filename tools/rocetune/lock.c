// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
#include "lock.h"

int rtune_lock(int timeout_ms, int *waited)
{
	const char *path = getenv("ROCETUNE_LOCK");
	int fd, left = timeout_ms;

	if (!path || !*path)
		path = "/run/lock/rocetune.lock";
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 && errno == ENOENT && !strcmp(path, "/run/lock/rocetune.lock")) {
		mkdir("/run/lock", 01777);
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	}
	if (fd < 0)
		return -errno;
	*waited = 0;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		if (errno != EWOULDBLOCK || left <= 0) {
			int e = errno == EWOULDBLOCK ? ETIMEDOUT : errno;

			close(fd);
			return -e;
		}
		*waited = 1;
		nanosleep(&ts, NULL);
		left -= 20;
	}
	return fd;
}

void rtune_unlock(int fd)
{
	if (fd >= 0) {
		flock(fd, LOCK_UN);
		close(fd);
	}
}
