// SPDX-License-Identifier: GPL-2.0
/*
 * hwsim: fault knobs, in <root>/<surface>/<id>/fault/ next to the surface
 * (not part of what the real driver exposes):
 *
 *   lockdown       Y: open() of every surface file fails with EPERM
 *   ignore_writes  Y: writes report success and store nothing
 *   fail_after     -1 off; N: after N more successful writes, a write
 *                  fails with -fail_errno (once, or for good with
 *                  fail_sticky)
 *   fail_errno     errno magnitude of that failure (1..4095, default 5)
 *   fail_sticky    Y: every write fails once the count is reached
 *   writes         writes that reached the simulated firmware
 *   changes        writes that changed a stored value
 *   delay_ms       each write takes this long (a slow firmware command,
 *                  for killing a tool in the middle of one)
 *
 * The counters can be written (0 to reset them).
 *
 * On ionic a write's failure is the firmware command's, which its store
 * never returns (ionic.c): an injected failure is logged, not returned.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include "hwsim.h"

void hwsim_fault_init(struct hwsim_fault *f)
{
	f->fail_after = -1;
	f->fail_errno = EIO;
}

/**
 * hwsim_fault_open - the lockdown check of a surface file's open()
 * @d: the device
 *
 * Return: 0, or -EPERM while the lockdown knob is set.
 */
int hwsim_fault_open(struct hwsim_dev *d)
{
	return READ_ONCE(d->fault.lockdown) ? -EPERM : 0;
}

/**
 * hwsim_fault_admit - account for a write and apply the knobs
 * @d: the device; the caller holds d->lock
 *
 * Return: HWSIM_STORE, HWSIM_IGNORE, or a negative errno to fail with.
 */
int hwsim_fault_admit(struct hwsim_dev *d)
{
	struct hwsim_fault *f = &d->fault;

	lockdep_assert_held(&d->lock);
	/* counted first: a test sees the write begin, then kills the tool */
	atomic_inc(&f->writes);
	if (READ_ONCE(f->delay_ms))
		msleep(READ_ONCE(f->delay_ms));
	if (f->fail_after == 0) {
		if (!READ_ONCE(f->fail_sticky))
			f->fail_after = -1;
		return -(int)f->fail_errno;
	}
	if (READ_ONCE(f->ignore_writes))
		return HWSIM_IGNORE;
	if (f->fail_after > 0)
		f->fail_after--;
	return HWSIM_STORE;
}

void hwsim_fault_changed(struct hwsim_dev *d)
{
	atomic_inc(&d->fault.changes);
}

/*
 * fail_after: a signed count, -1 meaning off. Its own read and write:
 * simple_attr_write() parses unsigned only before Linux 6.3.
 */
static ssize_t hwsim_fail_after_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct hwsim_dev *d = file->private_data;
	char buf[16];
	int len;

	mutex_lock(&d->lock);
	len = scnprintf(buf, sizeof(buf), "%d\n", d->fault.fail_after);
	mutex_unlock(&d->lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t hwsim_fail_after_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct hwsim_dev *d = file->private_data;
	int v, err;

	err = kstrtoint_from_user(ubuf, count, 0, &v);
	if (err)
		return err;
	if (v < -1)
		return -EINVAL;
	mutex_lock(&d->lock);
	d->fault.fail_after = v;
	mutex_unlock(&d->lock);
	return count;
}

static const struct file_operations hwsim_fail_after_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= hwsim_fail_after_read,
	.write	= hwsim_fail_after_write,
	.llseek	= default_llseek,
};

static int hwsim_fail_errno_get(void *data, u64 *val)
{
	struct hwsim_dev *d = data;

	mutex_lock(&d->lock);
	*val = d->fault.fail_errno;
	mutex_unlock(&d->lock);
	return 0;
}

static int hwsim_fail_errno_set(void *data, u64 val)
{
	struct hwsim_dev *d = data;

	if (!val || val > MAX_ERRNO)
		return -EINVAL;
	mutex_lock(&d->lock);
	d->fault.fail_errno = val;
	mutex_unlock(&d->lock);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(hwsim_fail_errno_fops, hwsim_fail_errno_get,
			 hwsim_fail_errno_set, "%llu\n");

/* Booleans under d->lock: "Y"/"N" like debugfs_create_bool. */
struct hwsim_bool_knob {
	const char *name;
	size_t off;		/* offset of the bool in struct hwsim_fault */
};

static const struct hwsim_bool_knob hwsim_bool_knobs[] = {
	{ "lockdown", offsetof(struct hwsim_fault, lockdown) },
	{ "ignore_writes", offsetof(struct hwsim_fault, ignore_writes) },
	{ "fail_sticky", offsetof(struct hwsim_fault, fail_sticky) },
};

/* Called with the device directory in place; failures are not fatal:
 * the surface works without its knobs.
 */
void hwsim_fault_register(struct hwsim_dev *d)
{
	struct hwsim_fault *f = &d->fault;
	int i;

	f->dir = debugfs_create_dir("fault", d->dir);
	if (IS_ERR(f->dir)) {
		pr_warn("%s/%s: no fault directory (%ld)\n", d->sf->name,
			d->id, PTR_ERR(f->dir));
		f->dir = NULL;
		return;
	}
	/* A bool is read once per write or open; writing one needs no
	 * lock of ours (debugfs_create_bool stores it with one write).
	 */
	for (i = 0; i < ARRAY_SIZE(hwsim_bool_knobs); i++)
		debugfs_create_bool(hwsim_bool_knobs[i].name, 0644, f->dir,
				    (bool *)((char *)f + hwsim_bool_knobs[i].off));
	debugfs_create_file("fail_after", 0644, f->dir, d,
			    &hwsim_fail_after_fops);
	debugfs_create_file_unsafe("fail_errno", 0644, f->dir, d,
				   &hwsim_fail_errno_fops);
	debugfs_create_u32("delay_ms", 0644, f->dir, &f->delay_ms);
	debugfs_create_atomic_t("writes", 0644, f->dir, &f->writes);
	debugfs_create_atomic_t("changes", 0644, f->dir, &f->changes);
}
