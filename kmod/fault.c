// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only fault injection, in debugfs:
 *
 *   /sys/kernel/debug/rocetune/fail_next_commit
 *
 * An errno magnitude (1..MAX_ERRNO): the next cc/commit on any port fails
 * with -errno before it changes anything, with last_error "injected
 * failure", and the knob goes back to 0. 0 means "don't fail". This lets
 * tests of tools that commit (rocetune apply) check their rollback; it is
 * not a stable interface.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/err.h>

#include "rocetune.h"

/* No lock: one atomic, consumed by atomic_xchg() so only one commit fails. */
static atomic_t rtune_fail_next_commit = ATOMIC_INIT(0);

/**
 * rtune_fault_commit - consume an injected commit failure
 *
 * Return: 0, or the negative errno armed in fail_next_commit (which is
 * then disarmed).
 */
int rtune_fault_commit(void)
{
	return -atomic_xchg(&rtune_fail_next_commit, 0);
}

static int rtune_fail_next_get(void *data, u64 *val)
{
	*val = atomic_read(data);
	return 0;
}

static int rtune_fail_next_set(void *data, u64 val)
{
	if (val > MAX_ERRNO)
		return -EINVAL;
	atomic_set(data, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(rtune_fail_next_fops, rtune_fail_next_get,
			 rtune_fail_next_set, "%llu\n");

/* @dir: rocetune.ko's debugfs directory; an error pointer is fine. */
void rtune_fault_init(struct dentry *dir)
{
	debugfs_create_file_unsafe("fail_next_commit", 0600, dir,
				   &rtune_fail_next_commit, &rtune_fail_next_fops);
}
