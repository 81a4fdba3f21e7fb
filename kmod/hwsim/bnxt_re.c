// SPDX-License-Identifier: GPL-2.0
/*
 * hwsim: the upstream bnxt_re congestion-control surface.
 *
 * What drivers/infiniband/hw/bnxt_re/debugfs.c
 * (bnxt_re_debugfs_add_pdev()) creates under
 * /sys/kernel/debug/bnxt_re/<PCI BDF>/cc_config/, reproduced:
 *
 * - the 14 files of bnxt_re_cc_gen0_name[], mode 0400 with a write
 *   handler (root writes them anyway; under lockdown debugfs lets them be
 *   read and refuses writing, as they have no write permission bit);
 * - a read prints the value with "%d\n" (bnxt_re_cc_config_get()); reading
 *   tx_queue fails with EINVAL (map_cc_config_offset_gen0_ext0() has no
 *   case for it);
 * - a write of 16 bytes or more fails with EINVAL; the rest is parsed
 *   with kstrtou32(buf, 0, ...) (bnxt_re_cc_config_set()); writing
 *   tx_queue fails with EOPNOTSUPP (bnxt_re_fill_gen0_ext0());
 * - the value is stored in the width of struct bnxt_qplib_cc_param's
 *   field (u8 or u16), tos_ecn cut to 2 bits and tos_dscp to 6 as
 *   bnxt_qplib_modify_cc() packs them;
 * - bnxt_re_configure_cc() ignores what the firmware answers: an injected
 *   failure (fail_after) stores nothing and the write still succeeds.
 *
 * Start values are not firmware defaults (none are documented): 0, except
 * enable_cc 1.
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "hwsim.h"

enum {
	BNXT_ENABLE_CC,
	BNXT_G,
	BNXT_NPH_PER_STATE,
	BNXT_INIT_CR,
	BNXT_INIT_TR,
	BNXT_TOS_ECN,
	BNXT_TOS_DSCP,
	BNXT_ALT_VLAN_PCP,
	BNXT_ALT_TOS_DSCP,
	BNXT_RTT,
	BNXT_CC_MODE,
	BNXT_TCP_CP,
	BNXT_TX_QUEUE,
	BNXT_INACT_TH,
	BNXT_NPARAMS,
};

struct hwsim_bnxt_param {
	const char *name;
	u8 bits;		/* stored width */
	u32 start;
};

static const struct hwsim_bnxt_param hwsim_bnxt_params[BNXT_NPARAMS] = {
	[BNXT_ENABLE_CC]	= { "enable_cc", 8, 1 },
	[BNXT_G]		= { "run_avg_weight_g", 8, 0 },
	[BNXT_NPH_PER_STATE]	= { "num_phase_per_state", 8, 0 },
	[BNXT_INIT_CR]		= { "init_cr", 16, 0 },
	[BNXT_INIT_TR]		= { "init_tr", 16, 0 },
	[BNXT_TOS_ECN]		= { "tos_ecn", 2, 0 },
	[BNXT_TOS_DSCP]		= { "tos_dscp", 6, 0 },
	[BNXT_ALT_VLAN_PCP]	= { "alt_vlan_pcp", 8, 0 },
	[BNXT_ALT_TOS_DSCP]	= { "alt_vlan_dscp", 16, 0 },
	[BNXT_RTT]		= { "rtt", 16, 0 },
	[BNXT_CC_MODE]		= { "cc_mode", 8, 0 },
	[BNXT_TCP_CP]		= { "tcp_cp", 16, 0 },
	[BNXT_TX_QUEUE]		= { "tx_queue", 0, 0 },
	[BNXT_INACT_TH]		= { "inactivity_cp", 16, 0 },
};

/* The simulated firmware state; values[] under hwsim_dev.lock. */
struct hwsim_bnxt {
	struct hwsim_dev *dev;
	u32 values[BNXT_NPARAMS];
	struct hwsim_bnxt_file {
		struct hwsim_bnxt *b;
		int param;
	} files[BNXT_NPARAMS];
};

static int hwsim_bnxt_open(struct inode *inode, struct file *file)
{
	struct hwsim_bnxt_file *bf = inode->i_private;

	/* Lockdown refuses only writers: the files are 0400. */
	if ((file->f_mode & FMODE_WRITE) && hwsim_fault_open(bf->b->dev))
		return -EPERM;
	file->private_data = bf;
	return 0;
}

static ssize_t hwsim_bnxt_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct hwsim_bnxt_file *bf = file->private_data;
	struct hwsim_dev *d = bf->b->dev;
	char buf[16];
	int len;
	u32 v;

	if (bf->param == BNXT_TX_QUEUE)
		return -EINVAL;
	mutex_lock(&d->lock);
	v = bf->b->values[bf->param];
	mutex_unlock(&d->lock);
	len = scnprintf(buf, sizeof(buf), "%d\n", (int)v);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t hwsim_bnxt_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct hwsim_bnxt_file *bf = file->private_data;
	struct hwsim_bnxt *b = bf->b;
	struct hwsim_dev *d = b->dev;
	u8 bits = hwsim_bnxt_params[bf->param].bits;
	char buf[16];
	int ret;
	u32 v;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (kstrtou32(buf, 0, &v))
		return -EINVAL;
	if (bf->param == BNXT_TX_QUEUE)
		return -EOPNOTSUPP;

	mutex_lock(&d->lock);
	ret = hwsim_fault_admit(d);
	/* A refusal from the firmware is not reported (see above). */
	if (ret == HWSIM_STORE) {
		if (bits < 32)
			v &= (1u << bits) - 1;
		if (b->values[bf->param] != v) {
			b->values[bf->param] = v;
			hwsim_fault_changed(d);
		}
	}
	mutex_unlock(&d->lock);
	return count;
}

static const struct file_operations hwsim_bnxt_fops = {
	.owner	= THIS_MODULE,
	.open	= hwsim_bnxt_open,
	.read	= hwsim_bnxt_read,
	.write	= hwsim_bnxt_write,
	.llseek	= default_llseek,
};

static int hwsim_bnxt_create(struct hwsim_dev *d)
{
	struct dentry *dir;
	struct hwsim_bnxt *b;
	int i;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->dev = d;
	dir = debugfs_create_dir("cc_config", d->dir);
	if (IS_ERR(dir)) {
		kfree(b);
		return PTR_ERR(dir);
	}
	for (i = 0; i < BNXT_NPARAMS; i++) {
		b->values[i] = hwsim_bnxt_params[i].start;
		b->files[i].b = b;
		b->files[i].param = i;
		debugfs_create_file(hwsim_bnxt_params[i].name, 0400, dir,
				    &b->files[i], &hwsim_bnxt_fops);
	}
	d->priv = b;
	return 0;
}

static void hwsim_bnxt_destroy(struct hwsim_dev *d)
{
	kfree(d->priv);
	d->priv = NULL;
}

const struct hwsim_surface hwsim_bnxt_re = {
	.name		= "bnxt_re",
	.create		= hwsim_bnxt_create,
	.destroy	= hwsim_bnxt_destroy,
};
