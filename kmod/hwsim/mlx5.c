// SPDX-License-Identifier: GPL-2.0
/*
 * hwsim: the upstream mlx5 congestion-control surface.
 *
 * What drivers/infiniband/hw/mlx5/cong.c (mlx5_ib_init_cong_debugfs())
 * creates under /sys/kernel/debug/mlx5/<PCI BDF>/cc_params/, reproduced:
 *
 * - the same 20 files (the two rtt_resp_dscp* files exist only with the
 *   roce_cc_general capability and are not reproduced), mode 0600;
 * - a read prints the value as "%u\n" (get_param());
 * - a write is parsed with kstrtou32_from_user(..., 0, ...), so decimal,
 *   0x hex and 0 octal, one trailing newline (set_param()); the value is
 *   stored at once, one "firmware command" per write;
 * - the value is cut to the width of its firmware field, as MLX5_SET()
 *   does (include/linux/mlx5/mlx5_ifc.h, cong_control_r_roce_ecn_rp/np:
 *   the two clamp flags and cnp_prio_mode 1 bit, cnp_dscp 6, cnp_802p_prio
 *   3, the rest 32): the driver does not range-check;
 * - writing np_cnp_prio also sets np_cnp_prio_mode to 0
 *   (mlx5_ib_set_cc_param_mask_val()).
 *
 * Not reproduced: firmware range checks (a refusal is a fault knob), the
 * capability check that hides the directory, and what firmware does with
 * cnp_802p_prio when only np_cnp_prio_mode is written (the driver sends
 * 0 for it under the same field_select bit; unknown, see hardware.rst).
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "hwsim.h"

enum {
	MLX5_RP_CLAMP_TGT_RATE,
	MLX5_RP_CLAMP_TGT_RATE_ATI,
	MLX5_RP_TIME_RESET,
	MLX5_RP_BYTE_RESET,
	MLX5_RP_THRESHOLD,
	MLX5_RP_AI_RATE,
	MLX5_RP_MAX_RATE,
	MLX5_RP_HAI_RATE,
	MLX5_RP_MIN_DEC_FAC,
	MLX5_RP_MIN_RATE,
	MLX5_RP_RATE_TO_SET_ON_FIRST_CNP,
	MLX5_RP_DCE_TCP_G,
	MLX5_RP_DCE_TCP_RTT,
	MLX5_RP_RATE_REDUCE_MONITOR_PERIOD,
	MLX5_RP_INITIAL_ALPHA_VALUE,
	MLX5_RP_GD,
	MLX5_NP_MIN_TIME_BETWEEN_CNPS,
	MLX5_NP_CNP_DSCP,
	MLX5_NP_CNP_PRIO_MODE,
	MLX5_NP_CNP_PRIO,
	MLX5_NPARAMS,
};

struct hwsim_mlx5_param {
	const char *name;
	u8 bits;		/* width of the firmware field */
	u32 start;		/* value when the device is created */
};

/*
 * In cong.c's mlx5_ib_dbg_cc_name[] order. Start values: NVIDIA's "DCQCN
 * CC Parameters" defaults where it gives one; np_cnp_prio_mode starts at 1
 * (priority from the port) so that writing np_cnp_prio changes it.
 */
static const struct hwsim_mlx5_param hwsim_mlx5_params[MLX5_NPARAMS] = {
	[MLX5_RP_CLAMP_TGT_RATE]		= { "rp_clamp_tgt_rate", 1, 0 },
	[MLX5_RP_CLAMP_TGT_RATE_ATI]		= { "rp_clamp_tgt_rate_ati", 1, 1 },
	[MLX5_RP_TIME_RESET]			= { "rp_time_reset", 32, 300 },
	[MLX5_RP_BYTE_RESET]			= { "rp_byte_reset", 32, 32767 },
	[MLX5_RP_THRESHOLD]			= { "rp_threshold", 32, 1 },
	[MLX5_RP_AI_RATE]			= { "rp_ai_rate", 32, 5 },
	[MLX5_RP_MAX_RATE]			= { "rp_max_rate", 32, 0 },
	[MLX5_RP_HAI_RATE]			= { "rp_hai_rate", 32, 50 },
	[MLX5_RP_MIN_DEC_FAC]			= { "rp_min_dec_fac", 32, 50 },
	[MLX5_RP_MIN_RATE]			= { "rp_min_rate", 32, 1 },
	[MLX5_RP_RATE_TO_SET_ON_FIRST_CNP]	= { "rp_rate_to_set_on_first_cnp", 32, 0 },
	[MLX5_RP_DCE_TCP_G]			= { "rp_dce_tcp_g", 32, 1019 },
	[MLX5_RP_DCE_TCP_RTT]			= { "rp_dce_tcp_rtt", 32, 1 },
	[MLX5_RP_RATE_REDUCE_MONITOR_PERIOD]	= { "rp_rate_reduce_monitor_period", 32, 4 },
	[MLX5_RP_INITIAL_ALPHA_VALUE]		= { "rp_initial_alpha_value", 32, 1023 },
	[MLX5_RP_GD]				= { "rp_gd", 32, 11 },
	[MLX5_NP_MIN_TIME_BETWEEN_CNPS]		= { "np_min_time_between_cnps", 32, 4 },
	[MLX5_NP_CNP_DSCP]			= { "np_cnp_dscp", 6, 48 },
	[MLX5_NP_CNP_PRIO_MODE]			= { "np_cnp_prio_mode", 1, 1 },
	[MLX5_NP_CNP_PRIO]			= { "np_cnp_prio", 3, 6 },
};

/* The simulated firmware state; values[] under hwsim_dev.lock. */
struct hwsim_mlx5 {
	struct hwsim_dev *dev;
	struct dentry *cc_params;
	u32 values[MLX5_NPARAMS];
	/* file private data: one per parameter, pointing back here */
	struct hwsim_mlx5_file {
		struct hwsim_mlx5 *m;
		int param;
	} files[MLX5_NPARAMS];
};

static int hwsim_mlx5_open(struct inode *inode, struct file *file)
{
	struct hwsim_mlx5_file *mf = inode->i_private;
	int err;

	err = hwsim_fault_open(mf->m->dev);
	if (err)
		return err;
	file->private_data = mf;
	return 0;
}

static ssize_t hwsim_mlx5_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct hwsim_mlx5_file *mf = file->private_data;
	struct hwsim_dev *d = mf->m->dev;
	char buf[12];
	int len;
	u32 v;

	mutex_lock(&d->lock);
	v = mf->m->values[mf->param];
	mutex_unlock(&d->lock);
	len = scnprintf(buf, sizeof(buf), "%u\n", v);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static void hwsim_mlx5_store(struct hwsim_mlx5 *m, int param, u32 v)
{
	u8 bits = hwsim_mlx5_params[param].bits;

	/* MLX5_SET() keeps the field's low bits and drops the rest. */
	if (bits < 32)
		v &= (1u << bits) - 1;
	if (m->values[param] != v) {
		m->values[param] = v;
		hwsim_fault_changed(m->dev);
	}
}

static ssize_t hwsim_mlx5_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct hwsim_mlx5_file *mf = file->private_data;
	struct hwsim_mlx5 *m = mf->m;
	struct hwsim_dev *d = m->dev;
	int ret;
	u32 v;

	/* The driver ignores *ppos and parses the whole buffer each time. */
	ret = kstrtou32_from_user(ubuf, count, 0, &v);
	if (ret)
		return ret;

	mutex_lock(&d->lock);
	ret = hwsim_fault_admit(d);
	if (ret == HWSIM_STORE) {
		/* One MODIFY_CONG_PARAMS: np_cnp_prio carries mode 0 too. */
		if (mf->param == MLX5_NP_CNP_PRIO)
			hwsim_mlx5_store(m, MLX5_NP_CNP_PRIO_MODE, 0);
		hwsim_mlx5_store(m, mf->param, v);
	}
	mutex_unlock(&d->lock);
	return ret < 0 ? ret : count;
}

static const struct file_operations hwsim_mlx5_fops = {
	.owner	= THIS_MODULE,
	.open	= hwsim_mlx5_open,
	.read	= hwsim_mlx5_read,
	.write	= hwsim_mlx5_write,
	.llseek	= default_llseek,
};

static int hwsim_mlx5_create(struct hwsim_dev *d)
{
	struct hwsim_mlx5 *m;
	int i;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->dev = d;
	m->cc_params = debugfs_create_dir("cc_params", d->dir);
	if (IS_ERR(m->cc_params)) {
		int err = PTR_ERR(m->cc_params);

		kfree(m);
		return err;
	}
	for (i = 0; i < MLX5_NPARAMS; i++) {
		m->values[i] = hwsim_mlx5_params[i].start;
		m->files[i].m = m;
		m->files[i].param = i;
		debugfs_create_file(hwsim_mlx5_params[i].name, 0600,
				    m->cc_params, &m->files[i],
				    &hwsim_mlx5_fops);
	}
	d->priv = m;
	return 0;
}

static void hwsim_mlx5_destroy(struct hwsim_dev *d)
{
	kfree(d->priv);
	d->priv = NULL;
}

const struct hwsim_surface hwsim_mlx5 = {
	.name		= "mlx5",
	.create		= hwsim_mlx5_create,
	.destroy	= hwsim_mlx5_destroy,
};
