// SPDX-License-Identifier: GPL-2.0
/*
 * hwsim: MLNX_OFED's mlx5 congestion-control surface.
 *
 * What MLNX_OFED's mlx5_core creates under /sys/class/net/<netdev>/ecn/
 * (en_sysfs.c: mlx5e_fill_attributes(), mlx5e_fill_rp_attributes(),
 * mlx5e_fill_np_attributes(); handlers in en_ecn.c), reproduced under
 * <hwsim root>/mlx5_ofed/<netdev>/ecn/:
 *
 *   roce_rp/enable/0..7, roce_np/enable/0..7   per-priority switches
 *   roce_rp/<16 parameters>, roce_np/<3 parameters>
 *
 * - mode 0644 on a PF; 0444 on a VF (set_kobj_mode()), where an open for
 *   writing fails with EACCES, as kernfs_fop_open() refuses it to root
 *   too ("new_device mlx5_ofed <netdev> vf");
 * - a read prints the field as "%d\n", signed (mlx5e_show_*());
 * - a write is parsed with sscanf("%d") whose result is not checked, so
 *   "0x10" writes 0 and "12abc" 12 (the driver then sends an
 *   uninitialised int for a non-number; hwsim sends 0), and is stored at
 *   once, cut to the field's width as MLX5_SET() does (clamp_tgt_rate
 *   and clamp_tgt_rate_after_time_inc 1 bit, cnp_dscp 6, cnp_802p_prio 3,
 *   the rest 32);
 * - enable/N: writing a non-zero value to a priority that is enabled
 *   fails with EPERM (mlx5e_store_ecn_enable() queries first); the
 *   firmware keeps the low bit (MODIFY_CONG_STATUS's 1-bit enable).
 *
 * Writes longer than 63 bytes are refused (sysfs would take a page);
 * firmware range checks are not reproduced (a refusal is a fault knob).
 * The lockdown knob has no effect here: lockdown does not close sysfs.
 */
#include <linux/bits.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "hwsim.h"

enum {
	OFED_RP_CLAMP_TGT_RATE,
	OFED_RP_CLAMP_TGT_RATE_ATI,
	OFED_RP_TIME_RESET,
	OFED_RP_BYTE_RESET,
	OFED_RP_THRESHOLD,
	OFED_RP_MAX_RATE,
	OFED_RP_AI_RATE,
	OFED_RP_HAI_RATE,
	OFED_RP_GD,
	OFED_RP_MIN_DEC_FAC,
	OFED_RP_MIN_RATE,
	OFED_RP_RATE_TO_SET_ON_FIRST_CNP,
	OFED_RP_DCE_TCP_G,
	OFED_RP_DCE_TCP_RTT,
	OFED_RP_RATE_REDUCE_MONITOR_PERIOD,
	OFED_RP_INITIAL_ALPHA_VALUE,
	OFED_NP_MIN_TIME_BETWEEN_CNPS,
	OFED_NP_CNP_DSCP,
	OFED_NP_CNP_802P_PRIO,
	OFED_NPARAMS,
};

/* the two protocols' directories; also the index of their enable mask */
enum { OFED_RP, OFED_NP, OFED_NPROTO };

static const char *const hwsim_ofed_proto[OFED_NPROTO] = { "roce_rp", "roce_np" };

struct hwsim_ofed_param {
	const char *name;
	u8 proto;
	u8 bits;		/* width of the firmware field */
	u32 start;		/* value when the device is created */
};

/* In en_sysfs.c's creation order; start values as rocetune_hwsim's mlx5. */
static const struct hwsim_ofed_param hwsim_ofed_params[OFED_NPARAMS] = {
	[OFED_RP_CLAMP_TGT_RATE]		= { "clamp_tgt_rate", OFED_RP, 1, 0 },
	[OFED_RP_CLAMP_TGT_RATE_ATI]		= { "clamp_tgt_rate_after_time_inc", OFED_RP, 1, 1 },
	[OFED_RP_TIME_RESET]			= { "rpg_time_reset", OFED_RP, 32, 300 },
	[OFED_RP_BYTE_RESET]			= { "rpg_byte_reset", OFED_RP, 32, 32767 },
	[OFED_RP_THRESHOLD]			= { "rpg_threshold", OFED_RP, 32, 1 },
	[OFED_RP_MAX_RATE]			= { "rpg_max_rate", OFED_RP, 32, 0 },
	[OFED_RP_AI_RATE]			= { "rpg_ai_rate", OFED_RP, 32, 5 },
	[OFED_RP_HAI_RATE]			= { "rpg_hai_rate", OFED_RP, 32, 50 },
	[OFED_RP_GD]				= { "rpg_gd", OFED_RP, 32, 11 },
	[OFED_RP_MIN_DEC_FAC]			= { "rpg_min_dec_fac", OFED_RP, 32, 50 },
	[OFED_RP_MIN_RATE]			= { "rpg_min_rate", OFED_RP, 32, 1 },
	[OFED_RP_RATE_TO_SET_ON_FIRST_CNP]	= { "rate_to_set_on_first_cnp", OFED_RP, 32, 0 },
	[OFED_RP_DCE_TCP_G]			= { "dce_tcp_g", OFED_RP, 32, 1019 },
	[OFED_RP_DCE_TCP_RTT]			= { "dce_tcp_rtt", OFED_RP, 32, 1 },
	[OFED_RP_RATE_REDUCE_MONITOR_PERIOD]	= { "rate_reduce_monitor_period", OFED_RP, 32, 4 },
	[OFED_RP_INITIAL_ALPHA_VALUE]		= { "initial_alpha_value", OFED_RP, 32, 1023 },
	[OFED_NP_MIN_TIME_BETWEEN_CNPS]		= { "min_time_between_cnps", OFED_NP, 32, 4 },
	[OFED_NP_CNP_DSCP]			= { "cnp_dscp", OFED_NP, 6, 48 },
	[OFED_NP_CNP_802P_PRIO]			= { "cnp_802p_prio", OFED_NP, 3, 6 },
};

/* file private data: a parameter, or a protocol's priority switch */
struct hwsim_ofed_file {
	struct hwsim_ofed *o;
	bool enable;
	u8 proto;		/* with enable */
	u8 idx;			/* parameter, or priority with enable */
};

/* The simulated firmware state; values[] and enabled[] under hwsim_dev.lock. */
struct hwsim_ofed {
	struct hwsim_dev *dev;
	u32 values[OFED_NPARAMS];
	u8 enabled[OFED_NPROTO];	/* bit N: priority N enabled */
	struct hwsim_ofed_file files[OFED_NPARAMS];
	struct hwsim_ofed_file switches[OFED_NPROTO][8];
};

static int hwsim_ofed_open(struct inode *inode, struct file *file)
{
	struct hwsim_ofed_file *of = inode->i_private;

	/* kernfs_fop_open(): no write bit in the mode, no writing, root or not */
	if ((file->f_mode & FMODE_WRITE) && of->o->dev->vf)
		return -EACCES;
	file->private_data = of;
	return 0;
}

static ssize_t hwsim_ofed_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct hwsim_ofed_file *of = file->private_data;
	struct hwsim_ofed *o = of->o;
	char buf[16];
	int len, v;

	mutex_lock(&o->dev->lock);
	if (of->enable)
		v = (o->enabled[of->proto] >> of->idx) & 1;
	else
		v = (int)o->values[of->idx];
	mutex_unlock(&o->dev->lock);
	len = scnprintf(buf, sizeof(buf), "%d\n", v);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* The firmware stores one field: MLX5_SET() keeps its low bits. */
static void hwsim_ofed_store(struct hwsim_ofed *o, int param, u32 v)
{
	u8 bits = hwsim_ofed_params[param].bits;

	if (bits < 32)
		v &= (1u << bits) - 1;
	if (o->values[param] != v) {
		o->values[param] = v;
		hwsim_fault_changed(o->dev);
	}
}

static void hwsim_ofed_switch(struct hwsim_ofed *o, int proto, int prio, int v)
{
	u8 m = o->enabled[proto] & ~BIT(prio);

	/* MODIFY_CONG_STATUS's enable is one bit */
	m |= (v & 1) << prio;
	if (m != o->enabled[proto]) {
		o->enabled[proto] = m;
		hwsim_fault_changed(o->dev);
	}
}

static ssize_t hwsim_ofed_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct hwsim_ofed_file *of = file->private_data;
	struct hwsim_ofed *o = of->o;
	struct hwsim_dev *d = o->dev;
	char buf[64];
	int ret, v = 0;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	/* as the driver: sscanf's result is not looked at (v stays 0) */
	sscanf(buf, "%d", &v);

	mutex_lock(&d->lock);
	/* mlx5e_store_ecn_enable(): enabling an enabled priority is EPERM */
	if (of->enable && v && (o->enabled[of->proto] & BIT(of->idx))) {
		ret = -EPERM;
		goto out;
	}
	ret = hwsim_fault_admit(d);
	if (ret != HWSIM_STORE)
		goto out;
	if (of->enable)
		hwsim_ofed_switch(o, of->proto, of->idx, v);
	else
		hwsim_ofed_store(o, of->idx, (u32)v);
out:
	mutex_unlock(&d->lock);
	return ret < 0 ? ret : count;
}

static const struct file_operations hwsim_ofed_fops = {
	.owner	= THIS_MODULE,
	.open	= hwsim_ofed_open,
	.read	= hwsim_ofed_read,
	.write	= hwsim_ofed_write,
	.llseek	= default_llseek,
};

static int hwsim_ofed_create(struct hwsim_dev *d)
{
	static const char *const prio_names[8] = { "0", "1", "2", "3", "4", "5", "6", "7" };
	struct dentry *ecn, *proto[OFED_NPROTO], *en;
	umode_t mode = d->vf ? 0444 : 0644;
	struct hwsim_ofed *o;
	int i, p, err;

	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	o->dev = d;
	ecn = debugfs_create_dir("ecn", d->dir);
	if (IS_ERR(ecn)) {
		err = PTR_ERR(ecn);
		goto err_free;
	}
	for (p = 0; p < OFED_NPROTO; p++) {
		proto[p] = debugfs_create_dir(hwsim_ofed_proto[p], ecn);
		if (IS_ERR(proto[p])) {
			err = PTR_ERR(proto[p]);
			goto err_dir;
		}
		en = debugfs_create_dir("enable", proto[p]);
		if (IS_ERR(en)) {
			err = PTR_ERR(en);
			goto err_dir;
		}
		/* firmware default ROCE_CC_PRIO_MASK_P1: every priority */
		o->enabled[p] = 0xff;
		for (i = 0; i < 8; i++) {
			struct hwsim_ofed_file *of = &o->switches[p][i];

			of->o = o;
			of->enable = true;
			of->proto = p;
			of->idx = i;
			debugfs_create_file(prio_names[i], mode, en, of, &hwsim_ofed_fops);
		}
	}
	for (i = 0; i < OFED_NPARAMS; i++) {
		const struct hwsim_ofed_param *hp = &hwsim_ofed_params[i];

		o->values[i] = hp->start;
		o->files[i].o = o;
		o->files[i].idx = i;
		debugfs_create_file(hp->name, mode, proto[hp->proto], &o->files[i],
				    &hwsim_ofed_fops);
	}
	d->priv = o;
	return 0;

err_dir:
	/* the device directory stays: its owner removes it */
	debugfs_remove(ecn);
err_free:
	kfree(o);
	return err;
}

static void hwsim_ofed_destroy(struct hwsim_dev *d)
{
	kfree(d->priv);
	d->priv = NULL;
}

const struct hwsim_surface hwsim_mlx5_ofed = {
	.name		= "mlx5_ofed",
	.has_vf		= true,
	.id_valid	= hwsim_name_valid,
	.create		= hwsim_ofed_create,
	.destroy	= hwsim_ofed_destroy,
};
