/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A configfs group made for one use (rdma_cm's per-device group, irdma's
 * CC group): it exists while someone has made it, and holds its device
 * while it does (rdma_cm's holds a reference that `rdma link delete`
 * waits for; irdma cannot be unloaded). rocetune makes it for each read
 * or write and removes it after, unless it was there before (then it is
 * someone else's and is used and left).
 *
 * Before mkdir, a stamp file in the state directory ($ROCETUNE_STATE_DIR
 * or /run/rocetune, "cfs-group" + the group's path with '/' as '_')
 * records rocetune's pid; rmdir removes it. A stamp whose process is gone
 * marks a group a killed rocetune left behind: the next rocetune that
 * enters the group removes it and the stamp first.
 */
#ifndef ROCETUNE_CFS_GROUP_H
#define ROCETUNE_CFS_GROUP_H

#include <stdbool.h>

/* Make group @dir if absent (*made says so). 0 or -errno. */
int cfs_group_enter(const char *dir, bool *made);
/* Remove @dir if cfs_group_enter() made it. */
void cfs_group_leave(const char *dir, bool made);

#endif
