/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCETUNE_LOCK_H
#define ROCETUNE_LOCK_H
/* Take the host-wide apply lock (flock on /run/lock/rocetune.lock, or
 * $ROCETUNE_LOCK), waiting up to @timeout_ms. Returns an fd or -errno. */
int rtune_lock(int timeout_ms, int *waited);
void rtune_unlock(int fd);
#endif
