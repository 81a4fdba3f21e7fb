// SPDX-License-Identifier: GPL-2.0
/*
 * dcbsim: fault injection and test counters in debugfs.
 *
 * None of this is part of the DCB interface. Layout:
 *
 *   /sys/kernel/debug/rocetune_dcbsim/
 *     features              optional features built in, one per line
 *     <ifindex>/            one per device (ifindex: names can change)
 *       name                current interface name
 *       pfc_cap             priorities that may have PFC at once (0-8)
 *       fail_next_<kind>    errno magnitude: the next set of <kind> fails
 *                           with -errno, then the knob goes back to 0
 *       ignore_<kind>       Y: sets of <kind> succeed but store nothing
 *       calls_<kind>        set calls of <kind> that reached the driver
 *       sets_<kind>         set calls of <kind> that changed the state
 *       dcbx_mode           host or lld: lld makes getdcbx report DCBX
 *                           managed by an LLDP agent, not by the host
 *       counters/           the simulated wire's counters (counters.c)
 *       link_speed          the speed the link trained to (ethtool.c)
 *       link_flap           write N: N link flaps (ethtool.c)
 *
 *       rewr                the device's rewrite table (rewr.c, 6.3+)
 *
 *     devlink/              the devlink instance's knobs (devlink.c):
 *       fail_next_<kind> ignore_<kind> calls_<kind> sets_<kind>
 *                           as above, <kind> one of param, port_fn, reload
 *
 * <kind> is one of ets, pfc, app, apptrust, maxrate, buffer, dcbx, rewr. The
 * counters can be written (e.g. 0 to reset them).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "dcbsim.h"

static struct dentry *dcbsim_debugfs_root;

static const char * const dcbsim_kind_names[DCBSIM_KIND_NUM] = {
	[DCBSIM_KIND_ETS]	= "ets",
	[DCBSIM_KIND_PFC]	= "pfc",
	[DCBSIM_KIND_APP]	= "app",
	[DCBSIM_KIND_APPTRUST]	= "apptrust",
	[DCBSIM_KIND_MAXRATE]	= "maxrate",
	[DCBSIM_KIND_BUFFER]	= "buffer",
	[DCBSIM_KIND_DCBX]	= "dcbx",
	[DCBSIM_KIND_REWR]	= "rewr",
};

/**
 * dcbsim_fault_admit - account for a set call and apply the knobs
 * @fault: the device's fault state
 * @kind: what the call sets
 * @verdict: result of the driver's input checks (0 or -EINVAL)
 * @ret: where to put the set's return value if it must not store
 *
 * Return: true if the set should store its input; otherwise false, and
 * *@ret is @verdict, an injected error, or 0 when @kind is ignored.
 */
bool dcbsim_fault_admit(struct dcbsim_fault *fault, enum dcbsim_kind kind,
			int verdict, int *ret)
{
	int err;

	atomic_inc(&fault->calls[kind]);
	*ret = verdict;
	if (verdict)
		return false;

	err = atomic_xchg(&fault->fail_next[kind], 0);
	if (err) {
		*ret = -err;
		return false;
	}
	return !READ_ONCE(fault->ignore[kind]);
}

/**
 * dcbsim_knob_admit - dcbsim_fault_admit() for one struct dcbsim_knobs
 * @knobs: the kind's knobs
 * @verdict: result of the driver's input checks (0 or -errno)
 * @ret: where to put the set's return value if it must not store
 *
 * Return: true if the set should store; otherwise false and *@ret is
 * @verdict, an injected error, or 0 when the kind is ignored.
 */
bool dcbsim_knob_admit(struct dcbsim_knobs *knobs, int verdict, int *ret)
{
	int err;

	atomic_inc(&knobs->calls);
	*ret = verdict;
	if (verdict)
		return false;

	err = atomic_xchg(&knobs->fail_next, 0);
	if (err) {
		*ret = -err;
		return false;
	}
	return !READ_ONCE(knobs->ignore);
}

void dcbsim_fault_changed(struct dcbsim_fault *fault, enum dcbsim_kind kind)
{
	atomic_inc(&fault->sets[kind]);
}

/**
 * dcbsim_fault_dcbx - the DCBX mode getdcbx reports
 * @fault: the device's fault state
 * @mode: the mode the device stores (host-managed IEEE)
 *
 * Called under the DCB core's dcb_lock spinlock: reads one bool only.
 *
 * Return: @mode, or with dcbx_mode "lld" @mode with DCB_CAP_DCBX_HOST
 * replaced by DCB_CAP_DCBX_LLD_MANAGED, as a NIC whose DCBX an LLDP agent
 * (or its firmware) runs reports it.
 */
u8 dcbsim_fault_dcbx(struct dcbsim_fault *fault, u8 mode)
{
	if (READ_ONCE(fault->dcbx_lld))
		mode = (mode & ~DCB_CAP_DCBX_HOST) | DCB_CAP_DCBX_LLD_MANAGED;
	return mode;
}

/* dcbx_mode: "host" or "lld" (a trailing newline is fine). */
static ssize_t dcbsim_dcbx_mode_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct dcbsim_fault *fault = file->private_data;
	const char *mode = READ_ONCE(fault->dcbx_lld) ? "lld\n" : "host\n";

	return simple_read_from_buffer(ubuf, count, ppos, mode, strlen(mode));
}

static ssize_t dcbsim_dcbx_mode_write(struct file *file,
				      const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	struct dcbsim_fault *fault = file->private_data;
	char buf[8];
	ssize_t len;

	if (*ppos)	/* one write(2) holds the whole word */
		return -EINVAL;
	len = simple_write_to_buffer(buf, sizeof(buf) - 1, ppos, ubuf, count);
	if (len < 0)
		return len;
	buf[len] = '\0';
	if (sysfs_streq(buf, "host"))
		WRITE_ONCE(fault->dcbx_lld, false);
	else if (sysfs_streq(buf, "lld"))
		WRITE_ONCE(fault->dcbx_lld, true);
	else
		return -EINVAL;
	return len;
}

static const struct file_operations dcbsim_dcbx_mode_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= dcbsim_dcbx_mode_read,
	.write	= dcbsim_dcbx_mode_write,
	.llseek	= default_llseek,
};

/* fail_next_<kind>: an errno magnitude, 0 meaning "don't fail". */
static int dcbsim_fail_next_get(void *data, u64 *val)
{
	*val = atomic_read(data);
	return 0;
}

static int dcbsim_fail_next_set(void *data, u64 val)
{
	if (val > MAX_ERRNO)
		return -EINVAL;
	atomic_set(data, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(dcbsim_fail_next_fops, dcbsim_fail_next_get,
			 dcbsim_fail_next_set, "%llu\n");

static int dcbsim_pfc_cap_get(void *data, u64 *val)
{
	struct dcbsim_priv *priv = data;

	*val = dcbsim_dcb_pfc_cap(&priv->dcb);
	return 0;
}

static int dcbsim_pfc_cap_set(void *data, u64 val)
{
	struct dcbsim_priv *priv = data;

	if (val > U8_MAX)
		return -EINVAL;
	return dcbsim_dcb_set_pfc_cap(&priv->dcb, val);
}

DEFINE_DEBUGFS_ATTRIBUTE(dcbsim_pfc_cap_fops, dcbsim_pfc_cap_get,
			 dcbsim_pfc_cap_set, "%llu\n");

static int dcbsim_name_show(struct seq_file *m, void *v)
{
	struct dcbsim_fault *fault = m->private;
	char name[IFNAMSIZ];

	spin_lock(&fault->name_lock);
	memcpy(name, fault->name, sizeof(name));
	spin_unlock(&fault->name_lock);
	seq_printf(m, "%s\n", name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dcbsim_name);

static int dcbsim_features_show(struct seq_file *m, void *v)
{
	if (RTUNE_HAVE_DCBNL_APPTRUST)
		seq_puts(m, "apptrust\n");
	if (RTUNE_HAVE_DCB_APP_SEL_PCP)
		seq_puts(m, "app_sel_pcp\n");
	if (RTUNE_HAVE_DCBNL_REWR)
		seq_puts(m, "rewr\n");
	if (RTUNE_HAVE_ETHTOOL_LINK_LANES)
		seq_puts(m, "link_lanes\n");
	if (RTUNE_HAVE_ETHTOOL_ETH_STATS)
		seq_puts(m, "eth_stats\n");
	if (RTUNE_HAVE_ETHTOOL_LINK_EXT_STATS)
		seq_puts(m, "link_ext_stats\n");
	if (RTUNE_HAVE_DEVLINK_ALLOC_DEV)
		seq_puts(m, "devlink\n");
	if (RTUNE_HAVE_DEVLINK_ALLOC_DEV && RTUNE_HAVE_DEVLINK_PORT_OPS_FN_ROCE)
		seq_puts(m, "devlink_port_fn_roce\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dcbsim_features);

void dcbsim_fault_init(struct dcbsim_fault *fault)
{
	spin_lock_init(&fault->name_lock);
}

void dcbsim_fault_rename(struct dcbsim_priv *priv)
{
	struct dcbsim_fault *fault = &priv->fault;

	spin_lock(&fault->name_lock);
	strscpy(fault->name, priv->dev->name, sizeof(fault->name));
	spin_unlock(&fault->name_lock);
}

/* Called under RTNL once the device is registered and has its ifindex.
 * debugfs failures are not fatal: the device works without its knobs.
 */
void dcbsim_fault_register(struct dcbsim_priv *priv)
{
	struct dcbsim_fault *fault = &priv->fault;
	char name[32];
	int k;

	dcbsim_fault_rename(priv);
	if (!dcbsim_debugfs_root)
		return;

	snprintf(name, sizeof(name), "%d", priv->dev->ifindex);
	fault->dir = debugfs_create_dir(name, dcbsim_debugfs_root);
	if (IS_ERR(fault->dir)) {
		netdev_warn(priv->dev, "no debugfs directory %s: %ld\n",
			    name, PTR_ERR(fault->dir));
		fault->dir = NULL;
		return;
	}

	debugfs_create_file("name", 0444, fault->dir, fault,
			    &dcbsim_name_fops);
	debugfs_create_file_unsafe("pfc_cap", 0644, fault->dir, priv,
				   &dcbsim_pfc_cap_fops);
	debugfs_create_file("dcbx_mode", 0644, fault->dir, fault,
			    &dcbsim_dcbx_mode_fops);
	dcbsim_counters_debugfs(&priv->counters, fault->dir);
	dcbsim_link_debugfs(priv, fault->dir);
	dcbsim_rewr_debugfs(priv, fault->dir);

	for (k = 0; k < DCBSIM_KIND_NUM; k++) {
		const char *kind = dcbsim_kind_names[k];

		snprintf(name, sizeof(name), "fail_next_%s", kind);
		debugfs_create_file_unsafe(name, 0644, fault->dir,
					   &fault->fail_next[k],
					   &dcbsim_fail_next_fops);
		snprintf(name, sizeof(name), "ignore_%s", kind);
		debugfs_create_bool(name, 0644, fault->dir, &fault->ignore[k]);
		snprintf(name, sizeof(name), "calls_%s", kind);
		debugfs_create_atomic_t(name, 0644, fault->dir,
					&fault->calls[k]);
		snprintf(name, sizeof(name), "sets_%s", kind);
		debugfs_create_atomic_t(name, 0644, fault->dir,
					&fault->sets[k]);
	}
}

/* The four files of one struct dcbsim_knobs, named after @kind. */
void dcbsim_knobs_debugfs(struct dcbsim_knobs *knobs, const char *kind,
			  struct dentry *dir)
{
	char name[32];

	snprintf(name, sizeof(name), "fail_next_%s", kind);
	debugfs_create_file_unsafe(name, 0644, dir, &knobs->fail_next,
				   &dcbsim_fail_next_fops);
	snprintf(name, sizeof(name), "ignore_%s", kind);
	debugfs_create_bool(name, 0644, dir, &knobs->ignore);
	snprintf(name, sizeof(name), "calls_%s", kind);
	debugfs_create_atomic_t(name, 0644, dir, &knobs->calls);
	snprintf(name, sizeof(name), "sets_%s", kind);
	debugfs_create_atomic_t(name, 0644, dir, &knobs->sets);
}

/* Waits for readers and writers of the knobs to finish. */
void dcbsim_fault_unregister(struct dcbsim_priv *priv)
{
	debugfs_remove(priv->fault.dir);
	priv->fault.dir = NULL;
}

void dcbsim_debugfs_init(void)
{
	dcbsim_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(dcbsim_debugfs_root)) {
		/* Devices still work, without their knobs. */
		pr_warn("no debugfs: fault injection unavailable (%ld)\n",
			PTR_ERR(dcbsim_debugfs_root));
		dcbsim_debugfs_root = NULL;
		return;
	}
	debugfs_create_file("features", 0444, dcbsim_debugfs_root, NULL,
			    &dcbsim_features_fops);
}

/* The module's debugfs directory, or NULL without debugfs. */
struct dentry *dcbsim_debugfs_dir(void)
{
	return dcbsim_debugfs_root;
}

void dcbsim_debugfs_exit(void)
{
	debugfs_remove(dcbsim_debugfs_root);
	dcbsim_debugfs_root = NULL;
}
