/* SPDX-License-Identifier: GPL-2.0 */
/* Small sysfs/configfs file helpers. */
#ifndef ROCETUNE_CFS_H
#define ROCETUNE_CFS_H

#include <stddef.h>

/* Read a whole small file, strip one trailing newline. 0 or -errno. */
int cfs_read(const char *path, char *buf, size_t len);
/* Write @val in one write(2); counts as a host write. 0 or -errno. */
int cfs_write(const char *path, const char *val);
int cfs_exists(const char *path);

#endif
