// SPDX-License-Identifier: GPL-2.0
/*
 * hwsim: the module, its debugfs root and its devices.
 *
 *   /sys/kernel/debug/rocetune_hwsim/
 *     new_device      write "<surface> <id> [vf]": add a device; the id is
 *                     a PCI BDF, a netdev name for mlx5_ofed, which
 *                     alone takes "vf" (a virtual function), an RDMA
 *                     device name for irdma, bnxt_re_oot and ionic
 *     del_device      write "<surface> <id>": remove it
 *     devices         one "<surface> <id>[ vf]" line per device
 *     <surface>/<BDF>/           what the real driver has under its own
 *                                root, e.g. mlx5/0000:fe:00.0/cc_params/
 *     <surface>/<BDF>/fault/     the fault knobs (fault.c)
 *
 * Only the surface's directory mirrors the real driver; so a tool whose
 * debugfs root is pointed at /sys/kernel/debug/rocetune_hwsim finds
 * <surface>/<BDF>/... where it would find them under /sys/kernel/debug.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/if.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "hwsim.h"

static const struct hwsim_surface *const hwsim_surfaces[] = {
	&hwsim_mlx5,
	&hwsim_bnxt_re,
	&hwsim_mlx5_ofed,
	&hwsim_irdma,
	&hwsim_bnxt_re_oot,
	&hwsim_ionic,
};

static struct dentry *hwsim_root;
static struct dentry *hwsim_sf_dirs[ARRAY_SIZE(hwsim_surfaces)];

/* Protects hwsim_devs and serialises device creation and removal. */
static DEFINE_MUTEX(hwsim_devs_lock);
static LIST_HEAD(hwsim_devs);

/* "dddd:bb:dd.f" in lower-case hex, the kernel's PCI device name. */
static bool hwsim_bdf_valid(const char *s)
{
	static const char shape[] = "xxxx:xx:xx.x";
	int i;

	if (strlen(s) != sizeof(shape) - 1)
		return false;
	for (i = 0; shape[i]; i++) {
		if (shape[i] == 'x') {
			if (!isxdigit(s[i]) || isupper(s[i]))
				return false;
		} else if (s[i] != shape[i]) {
			return false;
		}
	}
	return true;
}

/* A netdev or RDMA device name: what dev_valid_name() accepts, no space. */
bool hwsim_name_valid(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= IFNAMSIZ || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	return !strpbrk(s, "/: \t\n");
}

static int hwsim_surface_index(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hwsim_surfaces); i++)
		if (!strcmp(hwsim_surfaces[i]->name, name))
			return i;
	return -1;
}

static struct hwsim_dev *hwsim_find(int sf, const char *id)
{
	struct hwsim_dev *d;

	lockdep_assert_held(&hwsim_devs_lock);
	list_for_each_entry(d, &hwsim_devs, node)
		if (d->sf == hwsim_surfaces[sf] && !strcmp(d->id, id))
			return d;
	return NULL;
}

/**
 * hwsim_dev_get - find a device and hold it
 * @sf: its surface
 * @id: its id
 *
 * Return: the device, which del_device refuses to remove until
 * hwsim_dev_put(); or NULL.
 */
struct hwsim_dev *hwsim_dev_get(const struct hwsim_surface *sf, const char *id)
{
	struct hwsim_dev *d, *found = NULL;

	mutex_lock(&hwsim_devs_lock);
	list_for_each_entry(d, &hwsim_devs, node) {
		if (d->sf == sf && !strcmp(d->id, id)) {
			atomic_inc(&d->users);
			found = d;
			break;
		}
	}
	mutex_unlock(&hwsim_devs_lock);
	return found;
}

void hwsim_dev_put(struct hwsim_dev *d)
{
	atomic_dec(&d->users);
}

static int hwsim_dev_add(int sf, const char *id, bool vf)
{
	struct hwsim_dev *d;
	int err;

	lockdep_assert_held(&hwsim_devs_lock);
	if (hwsim_find(sf, id))
		return -EEXIST;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->sf = hwsim_surfaces[sf];
	strscpy(d->id, id, sizeof(d->id));
	d->vf = vf;
	mutex_init(&d->lock);
	hwsim_fault_init(&d->fault);

	d->dir = debugfs_create_dir(id, hwsim_sf_dirs[sf]);
	if (IS_ERR(d->dir)) {
		err = PTR_ERR(d->dir);
		goto err_free;
	}
	err = d->sf->create(d);
	if (err)
		goto err_dir;
	hwsim_fault_register(d);
	list_add_tail(&d->node, &hwsim_devs);
	return 0;

err_dir:
	debugfs_remove(d->dir);
err_free:
	mutex_destroy(&d->lock);
	kfree(d);
	return err;
}

static void hwsim_dev_del(struct hwsim_dev *d)
{
	lockdep_assert_held(&hwsim_devs_lock);
	list_del(&d->node);
	/* Waits for every open handler of the files to return. */
	debugfs_remove(d->dir);
	d->sf->destroy(d);
	mutex_destroy(&d->lock);
	kfree(d);
}

/* Parse "<surface> <id> [vf]" (one trailing newline allowed). */
static int hwsim_parse_cmd(const char __user *ubuf, size_t count, int *sf,
			   char *id, size_t idlen, bool *vf)
{
	char buf[64], *p, *name, *ident;
	const struct hwsim_surface *s;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	p = strim(buf);
	name = strsep(&p, " ");
	if (!p)
		return -EINVAL;
	p = skip_spaces(p);
	ident = strsep(&p, " ");
	*vf = p && !strcmp(skip_spaces(p), "vf");
	if (p && !*vf)
		return -EINVAL;
	*sf = hwsim_surface_index(name);
	if (*sf < 0)
		return -EINVAL;
	s = hwsim_surfaces[*sf];
	if (*vf && !s->has_vf)
		return -EINVAL;
	if (!(s->id_valid ? s->id_valid(ident) : hwsim_bdf_valid(ident)) ||
	    strlen(ident) >= idlen)
		return -EINVAL;
	strscpy(id, ident, idlen);
	return 0;
}

static ssize_t hwsim_new_device_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	char id[16];
	int sf, err;
	bool vf;

	err = hwsim_parse_cmd(ubuf, count, &sf, id, sizeof(id), &vf);
	if (err)
		return err;
	mutex_lock(&hwsim_devs_lock);
	err = hwsim_dev_add(sf, id, vf);
	mutex_unlock(&hwsim_devs_lock);
	return err ? err : count;
}

static ssize_t hwsim_del_device_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct hwsim_dev *d;
	char id[16];
	int sf, err;
	bool vf;

	err = hwsim_parse_cmd(ubuf, count, &sf, id, sizeof(id), &vf);
	if (err)
		return err;
	mutex_lock(&hwsim_devs_lock);
	d = hwsim_find(sf, id);
	if (!d)
		err = -ENODEV;
	else if (atomic_read(&d->users))
		err = -EBUSY;	/* a configfs group holds it */
	else
		hwsim_dev_del(d);
	mutex_unlock(&hwsim_devs_lock);
	return err ? err : count;
}

static const struct file_operations hwsim_new_device_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= hwsim_new_device_write,
	.llseek	= noop_llseek,
};

static const struct file_operations hwsim_del_device_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= hwsim_del_device_write,
	.llseek	= noop_llseek,
};

static int hwsim_devices_show(struct seq_file *m, void *v)
{
	struct hwsim_dev *d;

	mutex_lock(&hwsim_devs_lock);
	list_for_each_entry(d, &hwsim_devs, node)
		seq_printf(m, "%s %s%s\n", d->sf->name, d->id, d->vf ? " vf" : "");
	mutex_unlock(&hwsim_devs_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hwsim_devices);

static int __init hwsim_init(void)
{
	int i, err;

	hwsim_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(hwsim_root)) {
		/* Without debugfs there is nothing to simulate. */
		pr_err("no debugfs (%ld)\n", PTR_ERR(hwsim_root));
		return PTR_ERR(hwsim_root);
	}
	for (i = 0; i < ARRAY_SIZE(hwsim_surfaces); i++)
		hwsim_sf_dirs[i] = debugfs_create_dir(hwsim_surfaces[i]->name,
						      hwsim_root);
	debugfs_create_file("new_device", 0200, hwsim_root, NULL,
			    &hwsim_new_device_fops);
	debugfs_create_file("del_device", 0200, hwsim_root, NULL,
			    &hwsim_del_device_fops);
	debugfs_create_file("devices", 0444, hwsim_root, NULL,
			    &hwsim_devices_fops);
	for (i = 0; i < ARRAY_SIZE(hwsim_surfaces); i++) {
		if (!hwsim_surfaces[i]->init)
			continue;
		err = hwsim_surfaces[i]->init();
		if (err) {
			pr_err("%s: cannot register (%d)\n",
			       hwsim_surfaces[i]->name, err);
			goto err_exit;
		}
	}
	return 0;

err_exit:
	while (i--)
		if (hwsim_surfaces[i]->exit)
			hwsim_surfaces[i]->exit();
	debugfs_remove(hwsim_root);
	return err;
}

static void __exit hwsim_exit(void)
{
	struct hwsim_dev *d, *tmp;
	int i;

	/* No configfs group exists: each pins the module. */
	for (i = ARRAY_SIZE(hwsim_surfaces) - 1; i >= 0; i--)
		if (hwsim_surfaces[i]->exit)
			hwsim_surfaces[i]->exit();
	/* The control files first: no device can be added after this. */
	debugfs_remove(hwsim_root);
	mutex_lock(&hwsim_devs_lock);
	list_for_each_entry_safe(d, tmp, &hwsim_devs, node) {
		list_del(&d->node);
		d->sf->destroy(d);
		mutex_destroy(&d->lock);
		kfree(d);
	}
	mutex_unlock(&hwsim_devs_lock);
}

module_init(hwsim_init);
module_exit(hwsim_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rocetune test module: vendor congestion-control surfaces in software");
