/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCETUNE_ATOMIC_FILE_H
#define ROCETUNE_ATOMIC_FILE_H
/*
 * Replace a file whole or not at all: the content goes to a temporary
 * next to it ("<path>.tmp.<pid>", created exclusively, mode 0644), then
 * is renamed over @path, so a reader sees the old file or the new one,
 * never a part. Used for the QP counter records (qpctr.c), the
 * Prometheus textfile (stats_out.c) and the pre-apply state (main.c).
 */
#include <stdio.h>

/* fsync the temporary before the rename: the new content is on disk
 * before it replaces the old (a crash leaves one of the two whole) */
#define RTUNE_AF_FSYNC 0x1

/*
 * Write @path through @write(f, arg), which returns 0 or -errno. Returns
 * 0, or -errno (the writer's, a write error's, the rename's); on any
 * error the temporary is removed and @path is left as it was.
 */
int rtune_atomic_write(const char *path, unsigned int flags,
		       int (*write)(FILE *f, void *arg), void *arg);

#endif
