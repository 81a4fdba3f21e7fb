// SPDX-License-Identifier: GPL-2.0
/*
 * hwsim: AMD Pensando's out-of-tree ionic DCQCN surface.
 *
 * What the out-of-tree ionic driver's ionic_dcqcn.c (Pensando, 2018-2020)
 * hangs off its RDMA device as sysfs kobjects, /sys/class/infiniband/
 * <ibdev>/dcqcn/, reproduced under <hwsim root>/ionic/<ibdev>/dcqcn/
 * (Documentation/hardware.rst, "AMD Pensando ionic"):
 *
 *   match_default              0644: the profile of a QP no rule matches,
 *                              0..<profiles>, 0 = none; kstrtoint base 0
 *   match_rules                0644: "<prio|gid> <cond> <profile>" lines,
 *                              parsed whole before any is kept (EINVAL)
 *   profiles/<N>/reset         0200: "1" restores the profile's defaults
 *   profiles/<N>/roce_np/      icnp_802p_prio, cnp_dscp
 *   profiles/<N>/roce_rp/      the 17 reaction-point parameters
 *
 * - every parameter reads "%d\n" from the driver's copy, never from the
 *   firmware;
 * - a store is kstrtoint(buf, 0) and a range check (EINVAL, nothing kept),
 *   then the value goes into the driver's copy and the whole profile is
 *   sent to the firmware (IONIC_V1_ADMIN_MODIFY_DCQCN);
 * - when that command fails, the store still succeeds: the driver only
 *   logs "dcqcn profile <N> not set, error <rc>" (ibdev_warn()), and its
 *   copy keeps the new value the firmware does not have.
 *
 * The fault knobs (fault.c) act on the firmware command, not on the
 * store, since ionic never returns the command's error: an injected
 * failure (fail_after) updates the driver's copy, leaves the firmware's,
 * returns success and logs the driver's warning; ignore_writes is a
 * firmware that answers success and keeps nothing, which no read can
 * show. A range error is the store's own (EINVAL) and reaches no
 * firmware. Writes longer than 255 bytes are refused (sysfs would take a
 * page). <hwsim root>/ionic/<ibdev>/firmware, not part of the driver's
 * tree, shows the firmware's copy ("<N> <dir>/<name> <value>" lines) for
 * the tests.
 *
 * Locking: the driver's copy, the firmware's copy, match_default and the
 * rules are all under hwsim_dev.lock (the driver itself takes no lock
 * for the profiles and a spinlock for the rules).
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "hwsim.h"

/* What the firmware reports; the driver makes one directory each. */
#define IONIC_PROFILES	2
/* hwsim's limit; the driver's is what fits a page */
#define IONIC_MAX_RULES	16

enum {
	IONIC_NP_ICNP_802P_PRIO,
	IONIC_NP_CNP_DSCP,
	IONIC_RP_TOKEN_BUCKET_SIZE,
	IONIC_RP_INITIAL_ALPHA_VALUE,
	IONIC_RP_DCE_TCP_G,
	IONIC_RP_DCE_TCP_RTT,
	IONIC_RP_RATE_REDUCE_MONITOR_PERIOD,
	IONIC_RP_RATE_TO_SET_ON_FIRST_CNP,
	IONIC_RP_MIN_RATE,
	IONIC_RP_GD,
	IONIC_RP_MIN_DEC_FAC,
	IONIC_RP_CLAMP_TGT_RATE,
	IONIC_RP_CLAMP_TGT_RATE_ATI,
	IONIC_RP_THRESHOLD,
	IONIC_RP_TIME_RESET,
	IONIC_RP_QP_RATE,
	IONIC_RP_BYTE_RESET,
	IONIC_RP_AI_RATE,
	IONIC_RP_HAI_RATE,
	IONIC_NPARAMS,
};

struct hwsim_ionic_param {
	const char *name;
	bool np;		/* under roce_np/, else roce_rp/ */
	int min, max;		/* the store's range check */
	int start;		/* the driver's default (profile 1's) */
};

/*
 * The driver's table: ranges as its attributes check them (note
 * rate_to_set_on_first_cnp, 1.. although its default is 0), defaults as
 * its dcqcn_defaults[].
 */
static const struct hwsim_ionic_param hwsim_ionic_params[IONIC_NPARAMS] = {
	[IONIC_NP_ICNP_802P_PRIO]		= { "icnp_802p_prio", true, 0, 7, 6 },
	[IONIC_NP_CNP_DSCP]			= { "cnp_dscp", true, 0, 63, 48 },
	[IONIC_RP_TOKEN_BUCKET_SIZE]		= { "token_bucket_size", false,
						    100, 200000000, 4000000 },
	[IONIC_RP_INITIAL_ALPHA_VALUE]		= { "initial_alpha_value", false, 0, 1023, 1023 },
	[IONIC_RP_DCE_TCP_G]			= { "dce_tcp_g", false, 0, 1023, 1019 },
	[IONIC_RP_DCE_TCP_RTT]			= { "dce_tcp_rtt", false, 1, 131071, 55 },
	[IONIC_RP_RATE_REDUCE_MONITOR_PERIOD]	= { "rate_reduce_monitor_period", false,
						    1, INT_MAX, 4 },
	[IONIC_RP_RATE_TO_SET_ON_FIRST_CNP]	= { "rate_to_set_on_first_cnp", false,
						    1, INT_MAX, 0 },
	[IONIC_RP_MIN_RATE]			= { "min_rate", false, 1, INT_MAX, 1 },
	[IONIC_RP_GD]				= { "gd", false, 1, 11, 11 },
	[IONIC_RP_MIN_DEC_FAC]			= { "min_dec_fac", false, 0, 100, 50 },
	[IONIC_RP_CLAMP_TGT_RATE]		= { "clamp_tgt_rate", false, 0, 1, 0 },
	[IONIC_RP_CLAMP_TGT_RATE_ATI]		= { "clamp_tgt_rate_ati", false, 0, 1, 1 },
	[IONIC_RP_THRESHOLD]			= { "threshold", false, 1, 31, 5 },
	[IONIC_RP_TIME_RESET]			= { "time_reset", false, 1, 32767, 5 },
	[IONIC_RP_QP_RATE]			= { "qp_rate", false, 1, INT_MAX, 100000 },
	[IONIC_RP_BYTE_RESET]			= { "byte_reset", false, 1, INT_MAX, 131068 },
	[IONIC_RP_AI_RATE]			= { "ai_rate", false, 1, INT_MAX, 5 },
	[IONIC_RP_HAI_RATE]			= { "hai_rate", false, 1, INT_MAX, 50 },
};

struct hwsim_ionic;

/* file private data: one parameter of one profile, or a profile's reset */
struct hwsim_ionic_file {
	struct hwsim_ionic *o;
	u8 prof;		/* 0-based; the directory is prof + 1 */
	u8 var;
};

struct hwsim_ionic_rule {
	bool gid;		/* "gid", else "prio" */
	int cond;
	int prof;
};

/* The simulated driver and firmware; everything under hwsim_dev.lock. */
struct hwsim_ionic {
	struct hwsim_dev *dev;
	int drv[IONIC_PROFILES][IONIC_NPARAMS];	/* what the files show */
	int fw[IONIC_PROFILES][IONIC_NPARAMS];	/* what the firmware has */
	int match_default;
	int nrules;
	struct hwsim_ionic_rule rules[IONIC_MAX_RULES];
	struct hwsim_ionic_file files[IONIC_PROFILES][IONIC_NPARAMS];
	struct hwsim_ionic_file resets[IONIC_PROFILES];
};

/* Copy @buf from user space, NUL-terminated, into @kbuf of @len. */
static int hwsim_ionic_copy(char *kbuf, size_t len, const char __user *ubuf,
			    size_t count)
{
	if (count >= len)
		return -EINVAL;
	if (copy_from_user(kbuf, ubuf, count))
		return -EFAULT;
	kbuf[count] = '\0';
	return 0;
}

/*
 * Send profile @prof to the firmware, as every store does; the caller
 * holds d->lock. A failed command only leaves a line in the kernel log,
 * in ibdev_warn()'s shape ("<driver> <parent> <ibdev>: ...").
 */
static void hwsim_ionic_push(struct hwsim_ionic *o, int prof)
{
	struct hwsim_dev *d = o->dev;
	int ret;

	lockdep_assert_held(&d->lock);
	ret = hwsim_fault_admit(d);
	if (ret < 0) {
		pr_warn("%s hwsim-ionic %s: dcqcn profile %d not set, error %d\n",
			KBUILD_MODNAME, d->id, prof + 1, ret);
		return;
	}
	if (ret == HWSIM_IGNORE)
		return;
	if (memcmp(o->fw[prof], o->drv[prof], sizeof(o->fw[prof]))) {
		memcpy(o->fw[prof], o->drv[prof], sizeof(o->fw[prof]));
		hwsim_fault_changed(d);
	}
}

static ssize_t hwsim_ionic_param_read(struct file *file, char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	struct hwsim_ionic_file *f = file->private_data;
	struct hwsim_dev *d = f->o->dev;
	char buf[16];
	int len, v;

	mutex_lock(&d->lock);
	v = f->o->drv[f->prof][f->var];
	mutex_unlock(&d->lock);
	len = scnprintf(buf, sizeof(buf), "%d\n", v);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t hwsim_ionic_param_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	struct hwsim_ionic_file *f = file->private_data;
	const struct hwsim_ionic_param *p = &hwsim_ionic_params[f->var];
	struct hwsim_dev *d = f->o->dev;
	char buf[64];
	int ret, v;

	ret = hwsim_ionic_copy(buf, sizeof(buf), ubuf, count);
	if (ret)
		return ret;
	ret = kstrtoint(buf, 0, &v);
	if (ret)
		return ret;
	if (v < p->min || v > p->max)
		return -EINVAL;

	mutex_lock(&d->lock);
	f->o->drv[f->prof][f->var] = v;
	hwsim_ionic_push(f->o, f->prof);
	mutex_unlock(&d->lock);
	return count;
}

static const struct file_operations hwsim_ionic_param_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= hwsim_ionic_param_read,
	.write	= hwsim_ionic_param_write,
	.llseek	= default_llseek,
};

static void hwsim_ionic_defaults(int *vals)
{
	int i;

	for (i = 0; i < IONIC_NPARAMS; i++)
		vals[i] = hwsim_ionic_params[i].start;
}

static ssize_t hwsim_ionic_reset_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	struct hwsim_ionic_file *f = file->private_data;
	struct hwsim_dev *d = f->o->dev;
	char buf[8];
	int ret;

	ret = hwsim_ionic_copy(buf, sizeof(buf), ubuf, count);
	if (ret)
		return ret;
	if (strcmp(buf, "1") && strcmp(buf, "1\n"))
		return -EINVAL;

	mutex_lock(&d->lock);
	hwsim_ionic_defaults(f->o->drv[f->prof]);
	hwsim_ionic_push(f->o, f->prof);
	mutex_unlock(&d->lock);
	return count;
}

static const struct file_operations hwsim_ionic_reset_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= hwsim_ionic_reset_write,
	.llseek	= noop_llseek,
};

static int hwsim_ionic_default_show(struct seq_file *m, void *v)
{
	struct hwsim_ionic *o = m->private;

	mutex_lock(&o->dev->lock);
	seq_printf(m, "%d\n", o->match_default);
	mutex_unlock(&o->dev->lock);
	return 0;
}

static int hwsim_ionic_default_open(struct inode *inode, struct file *file)
{
	return single_open(file, hwsim_ionic_default_show, inode->i_private);
}

static ssize_t hwsim_ionic_default_write(struct file *file,
					 const char __user *ubuf, size_t count,
					 loff_t *ppos)
{
	struct hwsim_ionic *o = ((struct seq_file *)file->private_data)->private;
	char buf[64];
	int ret, v;

	ret = hwsim_ionic_copy(buf, sizeof(buf), ubuf, count);
	if (ret)
		return ret;
	ret = kstrtoint(buf, 0, &v);
	if (ret)
		return ret;
	if (v < 0 || v > IONIC_PROFILES)
		return -EINVAL;
	/* no firmware command: it applies to QPs set up after it */
	mutex_lock(&o->dev->lock);
	o->match_default = v;
	mutex_unlock(&o->dev->lock);
	return count;
}

static const struct file_operations hwsim_ionic_default_fops = {
	.owner		= THIS_MODULE,
	.open		= hwsim_ionic_default_open,
	.read		= seq_read,
	.write		= hwsim_ionic_default_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int hwsim_ionic_rules_show(struct seq_file *m, void *v)
{
	struct hwsim_ionic *o = m->private;
	int i;

	mutex_lock(&o->dev->lock);
	for (i = 0; i < o->nrules; i++)
		seq_printf(m, "%s %d %d\n", o->rules[i].gid ? "gid" : "prio",
			   o->rules[i].cond, o->rules[i].prof);
	mutex_unlock(&o->dev->lock);
	return 0;
}

static int hwsim_ionic_rules_open(struct inode *inode, struct file *file)
{
	return single_open(file, hwsim_ionic_rules_show, inode->i_private);
}

/*
 * "<name> <cond> <profile>" rules separated by white space, the numbers
 * in any base kstrtoint takes; every rule is checked before any is kept.
 * Returns the count, or -EINVAL (-E2BIG above hwsim's limit).
 */
static int hwsim_ionic_parse_rules(char *buf, struct hwsim_ionic_rule *rules)
{
	char *tok[3];
	int n = 0, i;

	for (;;) {
		for (i = 0; i < 3; i++) {
			/* strsep() leaves NULL after the last token */
			if (!buf)
				break;
			buf = skip_spaces(buf);
			tok[i] = strsep(&buf, " \t\n");
			if (!*tok[i])
				break;
		}
		if (!i)
			return n;
		if (i < 3)
			return -EINVAL;
		if (n == IONIC_MAX_RULES)
			return -E2BIG;
		if (!strcmp(tok[0], "gid"))
			rules[n].gid = true;
		else if (!strcmp(tok[0], "prio"))
			rules[n].gid = false;
		else
			return -EINVAL;
		if (kstrtoint(tok[1], 0, &rules[n].cond) ||
		    kstrtoint(tok[2], 0, &rules[n].prof) ||
		    rules[n].prof < 0 || rules[n].prof > IONIC_PROFILES)
			return -EINVAL;
		n++;
	}
}

static ssize_t hwsim_ionic_rules_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	struct hwsim_ionic *o = ((struct seq_file *)file->private_data)->private;
	struct hwsim_ionic_rule *rules;
	char *buf;
	int n, ret;

	buf = kmalloc(256, GFP_KERNEL);
	rules = kcalloc(IONIC_MAX_RULES, sizeof(*rules), GFP_KERNEL);
	if (!buf || !rules) {
		ret = -ENOMEM;
		goto out;
	}
	ret = hwsim_ionic_copy(buf, 256, ubuf, count);
	if (ret)
		goto out;
	n = hwsim_ionic_parse_rules(buf, rules);
	if (n < 0) {
		ret = n;
		goto out;
	}
	mutex_lock(&o->dev->lock);
	memcpy(o->rules, rules, n * sizeof(*rules));
	o->nrules = n;
	mutex_unlock(&o->dev->lock);
out:
	kfree(rules);
	kfree(buf);
	return ret ? ret : count;
}

static const struct file_operations hwsim_ionic_rules_fops = {
	.owner		= THIS_MODULE,
	.open		= hwsim_ionic_rules_open,
	.read		= seq_read,
	.write		= hwsim_ionic_rules_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* The test's view of the firmware: not in the driver's tree. */
static int hwsim_ionic_fw_show(struct seq_file *m, void *v)
{
	struct hwsim_ionic *o = m->private;
	int p, i;

	mutex_lock(&o->dev->lock);
	for (p = 0; p < IONIC_PROFILES; p++)
		for (i = 0; i < IONIC_NPARAMS; i++)
			seq_printf(m, "%d %s/%s %d\n", p + 1,
				   hwsim_ionic_params[i].np ? "roce_np" : "roce_rp",
				   hwsim_ionic_params[i].name, o->fw[p][i]);
	mutex_unlock(&o->dev->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hwsim_ionic_fw);

/* profiles/<N>/ with reset, roce_np/ and roce_rp/. */
static int hwsim_ionic_profile(struct hwsim_ionic *o, struct dentry *profiles,
			       int prof)
{
	struct dentry *dir, *np, *rp;
	char name[8];
	int i;

	snprintf(name, sizeof(name), "%d", prof + 1);
	dir = debugfs_create_dir(name, profiles);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	o->resets[prof].o = o;
	o->resets[prof].prof = prof;
	debugfs_create_file("reset", 0200, dir, &o->resets[prof],
			    &hwsim_ionic_reset_fops);
	np = debugfs_create_dir("roce_np", dir);
	if (IS_ERR(np))
		return PTR_ERR(np);
	rp = debugfs_create_dir("roce_rp", dir);
	if (IS_ERR(rp))
		return PTR_ERR(rp);
	for (i = 0; i < IONIC_NPARAMS; i++) {
		struct hwsim_ionic_file *f = &o->files[prof][i];

		f->o = o;
		f->prof = prof;
		f->var = i;
		debugfs_create_file(hwsim_ionic_params[i].name, 0644,
				    hwsim_ionic_params[i].np ? np : rp, f,
				    &hwsim_ionic_param_fops);
	}
	return 0;
}

static int hwsim_ionic_create(struct hwsim_dev *d)
{
	struct dentry *dcqcn, *profiles;
	struct hwsim_ionic *o;
	int p, err;

	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	o->dev = d;
	/* the driver pushes each profile's defaults at init; they take */
	for (p = 0; p < IONIC_PROFILES; p++) {
		hwsim_ionic_defaults(o->drv[p]);
		hwsim_ionic_defaults(o->fw[p]);
	}
	dcqcn = debugfs_create_dir("dcqcn", d->dir);
	if (IS_ERR(dcqcn)) {
		err = PTR_ERR(dcqcn);
		goto err_free;
	}
	debugfs_create_file("match_default", 0644, dcqcn, o,
			    &hwsim_ionic_default_fops);
	debugfs_create_file("match_rules", 0644, dcqcn, o,
			    &hwsim_ionic_rules_fops);
	profiles = debugfs_create_dir("profiles", dcqcn);
	if (IS_ERR(profiles)) {
		err = PTR_ERR(profiles);
		goto err_dir;
	}
	for (p = 0; p < IONIC_PROFILES; p++) {
		err = hwsim_ionic_profile(o, profiles, p);
		if (err)
			goto err_dir;
	}
	debugfs_create_file("firmware", 0444, d->dir, o, &hwsim_ionic_fw_fops);
	d->priv = o;
	return 0;

err_dir:
	/* the device directory stays: its owner removes it */
	debugfs_remove(dcqcn);
err_free:
	kfree(o);
	return err;
}

static void hwsim_ionic_destroy(struct hwsim_dev *d)
{
	kfree(d->priv);
	d->priv = NULL;
}

const struct hwsim_surface hwsim_ionic = {
	.name		= "ionic",
	.id_valid	= hwsim_name_valid,
	.create		= hwsim_ionic_create,
	.destroy	= hwsim_ionic_destroy,
};
