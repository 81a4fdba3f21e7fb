// SPDX-License-Identifier: GPL-2.0
/*
 * hwsim: Broadcom's out-of-tree bnxt_re congestion-control surface.
 *
 * What bnxt_re's configfs.c (out-of-tree driver 233.2.77.9) gives a PF,
 * reproduced under hwsim's own configfs subsystem
 * /sys/kernel/config/rtune_hwsim_bnxt_re/ (bnxt_re's is .../bnxt_re/):
 *
 * - mkdir <ibdev> (cfs.c) makes <ibdev>/ports/1/ with cc/ in it
 *   (make_bnxt_re_dev(), make_bnxt_re_ports(), make_bnxt_re_cc()); a VF
 *   ("new_device bnxt_re_oot <ibdev> vf") gets no cc/;
 * - cc/ has the base attribute set (bnxt_re_cc_attrs[]) less advanced,
 *   ext_settings and the chip-specific extensions;
 * - a read prints the driver's cached value with "%#x\n" ("0" for 0);
 * - a store parses sscanf("%x") without looking at the result (hex with
 *   or without 0x; hwsim parses with kstrtouint base 16 and takes a
 *   non-number, or trailing junk sscanf would skip, as 0 where the
 *   driver uses an uninitialised value or the leading digits), checks what the driver checks (cnp_dscp and
 *   roce_dscp at most 0x3f, ecn_marking below 3, cc_mode at most 1,
 *   time_pph 1..0xf, pkts_pph 1..0xff; cnp_prio and roce_prio check the
 *   value they replace, not the new one, and keep its low 3 bits), cuts
 *   the rest to the field's width, caches it and sets its bit in the
 *   pending mask: nothing reaches the firmware;
 * - writing 0x1 to apply sends every pending field to the firmware
 *   (apply_store()): first, with ecn_enable 0, the CNP's DSCP and
 *   priority are reset to 0 in the cache and dropped from the mask
 *   (bnxt_re_program_cnp_dcb_values()); a failure returns EINVAL; any
 *   other value sends nothing; in every case the mask is cleared, so a
 *   failed apply leaves the cache showing values the firmware does not
 *   have;
 * - reading apply prints what the firmware has, as apply_show() does
 *   for the base set (the CNP's lines only while CC is enabled).
 *
 * Fault knobs (fault.c): every store and apply counts as a write and can
 * be failed (fail_after); ignore_writes makes apply report success and
 * send nothing (firmware that drops the command); the cache takes a
 * store regardless. The lockdown knob has no effect (configfs is not
 * closed by lockdown).
 *
 * Start values are not firmware defaults (none are documented).
 *
 * Locking: cache, firmware values and mask under hwsim_dev.lock.
 */
#include <linux/configfs.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hwsim.h"

enum {
	OOT_ECN_ENABLE,
	OOT_ECN_MARKING,
	OOT_CC_MODE,
	OOT_CNP_DSCP,
	OOT_CNP_PRIO,
	OOT_ROCE_DSCP,
	OOT_ROCE_PRIO,
	OOT_G,
	OOT_INIT_CR,
	OOT_INIT_TR,
	OOT_INACT_TH,
	OOT_NPH_PER_STATE,
	OOT_TIME_PPH,
	OOT_PKTS_PPH,
	OOT_RTT,
	OOT_TCP_CP,
	OOT_DISABLE_PRIO_VLAN_TX,
	OOT_NPARAMS,
};

/* What a store refuses (EINVAL), besides the pending write itself. */
enum hwsim_oot_check {
	OOT_ANY,		/* cut to the width, never refused */
	OOT_MAX,		/* above max: EINVAL */
	OOT_RANGE,		/* outside 1..max: EINVAL */
	OOT_OLD_PRIO,		/* the old value above 7: EINVAL (the driver's test) */
};

struct hwsim_oot_param {
	const char *name;
	u32 mask;		/* the field's width */
	u8 check;
	u32 max;
	u32 start;
};

static const struct hwsim_oot_param hwsim_oot_params[OOT_NPARAMS] = {
	[OOT_ECN_ENABLE]	= { "ecn_enable", 0xff, OOT_ANY, 0, 1 },
	[OOT_ECN_MARKING]	= { "ecn_marking", 0x3, OOT_MAX, 2, 1 },
	[OOT_CC_MODE]		= { "cc_mode", 0xff, OOT_MAX, 1, 0 },
	[OOT_CNP_DSCP]		= { "cnp_dscp", 0x3f, OOT_MAX, 0x3f, 48 },
	[OOT_CNP_PRIO]		= { "cnp_prio", 0x7, OOT_OLD_PRIO, 7, 7 },
	[OOT_ROCE_DSCP]		= { "roce_dscp", 0x3f, OOT_MAX, 0x3f, 26 },
	[OOT_ROCE_PRIO]		= { "roce_prio", 0x7, OOT_OLD_PRIO, 7, 3 },
	[OOT_G]			= { "g", 0xff, OOT_ANY, 0, 8 },
	[OOT_INIT_CR]		= { "init_cr", 0xffff, OOT_ANY, 0, 0x3c0 },
	[OOT_INIT_TR]		= { "init_tr", 0xffff, OOT_ANY, 0, 0x3c0 },
	[OOT_INACT_TH]		= { "inact_th", 0xffff, OOT_ANY, 0, 0x2710 },
	[OOT_NPH_PER_STATE]	= { "nph_per_state", 0xff, OOT_ANY, 0, 4 },
	[OOT_TIME_PPH]		= { "time_pph", 0xff, OOT_RANGE, 0xf, 3 },
	[OOT_PKTS_PPH]		= { "pkts_pph", 0xff, OOT_RANGE, 0xff, 4 },
	[OOT_RTT]		= { "rtt", 0xffff, OOT_ANY, 0, 45 },
	[OOT_TCP_CP]		= { "tcp_cp", 0xffff, OOT_ANY, 0, 0x3ff },
	[OOT_DISABLE_PRIO_VLAN_TX] = { "disable_prio_vlan_tx", 0x1, OOT_ANY, 0, 0 },
};

/* The device: the driver's cache, the firmware's values, the pending mask. */
struct hwsim_oot {
	u32 cache[OOT_NPARAMS];
	u32 fw[OOT_NPARAMS];
	u32 pending;
};

/* One mkdir'ed <ibdev>: ports/, 1/ and cc/ are its default groups. */
struct hwsim_oot_grp {
	struct config_group dev;
	struct config_group ports;
	struct config_group port1;
	struct config_group cc;
	struct hwsim_dev *d;
};

static struct hwsim_dev *hwsim_oot_dev(struct config_item *item)
{
	struct config_group *cc = to_config_group(item);

	return container_of(cc, struct hwsim_oot_grp, cc)->d;
}

static ssize_t hwsim_oot_show(struct config_item *item, char *page, int i)
{
	struct hwsim_dev *d = hwsim_oot_dev(item);
	struct hwsim_oot *o = d->priv;
	u32 v;

	mutex_lock(&d->lock);
	v = o->cache[i];
	mutex_unlock(&d->lock);
	return sprintf(page, "%#x\n", v);
}

static ssize_t hwsim_oot_store(struct config_item *item, const char *page,
			       size_t count, int i)
{
	const struct hwsim_oot_param *p = &hwsim_oot_params[i];
	struct hwsim_dev *d = hwsim_oot_dev(item);
	struct hwsim_oot *o = d->priv;
	unsigned int v = 0;
	int ret;

	/* the driver's sscanf("%x") is not checked: a non-number is 0 here */
	if (kstrtouint(page, 16, &v))
		v = 0;
	if ((p->check == OOT_MAX && v > p->max) ||
	    (p->check == OOT_RANGE && (v < 1 || v > p->max)))
		return -EINVAL;

	mutex_lock(&d->lock);
	if (p->check == OOT_OLD_PRIO && o->cache[i] > 7) {
		ret = -EINVAL;
		goto out;
	}
	ret = hwsim_fault_admit(d);
	if (ret < 0)
		goto out;
	/* the cache takes it whatever the firmware would say */
	v &= p->mask;
	if (o->cache[i] != v)
		hwsim_fault_changed(d);
	o->cache[i] = v;
	o->pending |= BIT(i);
	ret = 0;
out:
	mutex_unlock(&d->lock);
	return ret < 0 ? ret : strnlen(page, count);
}

static const char *hwsim_oot_ecn(u32 v)
{
	return !v ? "Not-ECT" : v == 1 ? "ECT(1)" : "ECT(0)";
}

/* apply_show(): the firmware's base set, in the driver's words */
static ssize_t hwsim_oot_apply_show(struct config_item *item, char *page)
{
	struct hwsim_dev *d = hwsim_oot_dev(item);
	struct hwsim_oot *o = d->priv;
	const u32 *f = o->fw;
	int n = 0;

	mutex_lock(&d->lock);
	n += sprintf(page + n, "ecn status (ecn_enable)\t\t\t\t\t: %s\n",
		     f[OOT_ECN_ENABLE] ? "Enabled" : "Disabled");
	n += sprintf(page + n, "ecn marking (ecn_marking)\t\t\t\t: %s\n",
		     hwsim_oot_ecn(f[OOT_ECN_MARKING]));
	n += sprintf(page + n, "congestion control mode (cc_mode)\t\t\t: %s\n",
		     f[OOT_CC_MODE] ? "TCP" : "DCQCN-D");
	n += sprintf(page + n, "send priority vlan (VLAN 0)\t\t\t\t: %s\n",
		     f[OOT_DISABLE_PRIO_VLAN_TX] ? "Disabled" : "Enabled");
	n += sprintf(page + n, "running avg. weight(g)\t\t\t\t\t: %u\n", f[OOT_G]);
	n += sprintf(page + n, "inactivity threshold (inact_th)\t\t\t\t: %u usec\n",
		     f[OOT_INACT_TH]);
	n += sprintf(page + n, "initial current rate (init_cr)\t\t\t\t: %#x\n",
		     f[OOT_INIT_CR]);
	n += sprintf(page + n, "initial target rate (init_tr)\t\t\t\t: %#x\n",
		     f[OOT_INIT_TR]);
	n += sprintf(page + n, "roce prio (roce_prio)\t\t\t\t\t: %d\n", f[OOT_ROCE_PRIO]);
	n += sprintf(page + n, "roce dscp (roce_dscp)\t\t\t\t\t: %d\n", f[OOT_ROCE_DSCP]);
	if (f[OOT_ECN_ENABLE]) {
		n += sprintf(page + n, "cnp prio (cnp_prio)\t\t\t\t\t: %d\n",
			     f[OOT_CNP_PRIO]);
		n += sprintf(page + n, "cnp dscp (cnp_dscp)\t\t\t\t\t: %d\n",
			     f[OOT_CNP_DSCP]);
	}
	mutex_unlock(&d->lock);
	return n;
}

static ssize_t hwsim_oot_apply_store(struct config_item *item, const char *page,
				     size_t count)
{
	struct hwsim_dev *d = hwsim_oot_dev(item);
	struct hwsim_oot *o = d->priv;
	unsigned int v = 0;
	int ret = 0, i;

	if (kstrtouint(page, 16, &v))
		v = 0;
	mutex_lock(&d->lock);
	if (v != 1 || !o->pending)
		goto out;
	/* bnxt_re_program_cnp_dcb_values(): no CC, no CNP marking */
	if (!o->cache[OOT_ECN_ENABLE]) {
		o->cache[OOT_CNP_DSCP] = 0;
		o->cache[OOT_CNP_PRIO] = 0;
		o->pending &= ~(BIT(OOT_CNP_DSCP) | BIT(OOT_CNP_PRIO));
	}
	ret = hwsim_fault_admit(d);
	if (ret != HWSIM_STORE)
		goto out;
	for (i = 0; i < OOT_NPARAMS; i++)
		if (o->pending & BIT(i))
			o->fw[i] = o->cache[i];
out:
	/* cleared even when the command failed, as apply_store() does */
	o->pending = 0;
	mutex_unlock(&d->lock);
	return ret < 0 ? -EINVAL : strnlen(page, count);
}

#define HWSIM_OOT_ATTR(name, i)							\
static ssize_t hwsim_oot_##name##_show(struct config_item *item, char *page)	\
{										\
	return hwsim_oot_show(item, page, i);					\
}										\
static ssize_t hwsim_oot_##name##_store(struct config_item *item,		\
					const char *page, size_t count)		\
{										\
	return hwsim_oot_store(item, page, count, i);				\
}										\
CONFIGFS_ATTR(hwsim_oot_, name)

HWSIM_OOT_ATTR(ecn_enable, OOT_ECN_ENABLE);
HWSIM_OOT_ATTR(ecn_marking, OOT_ECN_MARKING);
HWSIM_OOT_ATTR(cc_mode, OOT_CC_MODE);
HWSIM_OOT_ATTR(cnp_dscp, OOT_CNP_DSCP);
HWSIM_OOT_ATTR(cnp_prio, OOT_CNP_PRIO);
HWSIM_OOT_ATTR(roce_dscp, OOT_ROCE_DSCP);
HWSIM_OOT_ATTR(roce_prio, OOT_ROCE_PRIO);
HWSIM_OOT_ATTR(g, OOT_G);
HWSIM_OOT_ATTR(init_cr, OOT_INIT_CR);
HWSIM_OOT_ATTR(init_tr, OOT_INIT_TR);
HWSIM_OOT_ATTR(inact_th, OOT_INACT_TH);
HWSIM_OOT_ATTR(nph_per_state, OOT_NPH_PER_STATE);
HWSIM_OOT_ATTR(time_pph, OOT_TIME_PPH);
HWSIM_OOT_ATTR(pkts_pph, OOT_PKTS_PPH);
HWSIM_OOT_ATTR(rtt, OOT_RTT);
HWSIM_OOT_ATTR(tcp_cp, OOT_TCP_CP);
HWSIM_OOT_ATTR(disable_prio_vlan_tx, OOT_DISABLE_PRIO_VLAN_TX);
CONFIGFS_ATTR(hwsim_oot_, apply);

static struct configfs_attribute *hwsim_oot_cc_attrs[] = {
	&hwsim_oot_attr_apply,
	&hwsim_oot_attr_cnp_dscp,
	&hwsim_oot_attr_cnp_prio,
	&hwsim_oot_attr_cc_mode,
	&hwsim_oot_attr_ecn_enable,
	&hwsim_oot_attr_g,
	&hwsim_oot_attr_init_cr,
	&hwsim_oot_attr_inact_th,
	&hwsim_oot_attr_init_tr,
	&hwsim_oot_attr_nph_per_state,
	&hwsim_oot_attr_time_pph,
	&hwsim_oot_attr_pkts_pph,
	&hwsim_oot_attr_rtt,
	&hwsim_oot_attr_tcp_cp,
	&hwsim_oot_attr_roce_dscp,
	&hwsim_oot_attr_roce_prio,
	&hwsim_oot_attr_ecn_marking,
	&hwsim_oot_attr_disable_prio_vlan_tx,
	NULL,
};

static const struct config_item_type hwsim_oot_cc_type = {
	.ct_attrs	= hwsim_oot_cc_attrs,
	.ct_owner	= THIS_MODULE,
};

static const struct config_item_type hwsim_oot_plain_type = {
	.ct_owner	= THIS_MODULE,
};

static void hwsim_oot_release(struct config_item *item)
{
	struct hwsim_oot_grp *g =
		container_of(to_config_group(item), struct hwsim_oot_grp, dev);

	hwsim_dev_put(g->d);
	kfree(g);
}

static struct configfs_item_operations hwsim_oot_dev_ops = {
	.release	= hwsim_oot_release,
};

static const struct config_item_type hwsim_oot_dev_type = {
	.ct_item_ops	= &hwsim_oot_dev_ops,
	.ct_owner	= THIS_MODULE,
};

static struct hwsim_cfs hwsim_oot_cfs;

static struct config_group *hwsim_oot_make(struct hwsim_dev *d, const char *name)
{
	struct hwsim_oot_grp *g;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return ERR_PTR(-ENOMEM);
	g->d = d;
	config_group_init_type_name(&g->dev, name, &hwsim_oot_dev_type);
	config_group_init_type_name(&g->ports, "ports", &hwsim_oot_plain_type);
	config_group_init_type_name(&g->port1, "1", &hwsim_oot_plain_type);
	configfs_add_default_group(&g->ports, &g->dev);
	configfs_add_default_group(&g->port1, &g->ports);
	/* make_bnxt_re_cc(): a VF has no cc node */
	if (!d->vf) {
		config_group_init_type_name(&g->cc, "cc", &hwsim_oot_cc_type);
		configfs_add_default_group(&g->cc, &g->port1);
	}
	return &g->dev;
}

/* A configfs name is at most CONFIGFS_ITEM_NAME_LEN bytes, NUL included. */
#define HWSIM_OOT_SUBSYS "rtune_hwsim_bnxt_re"
static_assert(sizeof(HWSIM_OOT_SUBSYS) <= CONFIGFS_ITEM_NAME_LEN);

static int hwsim_oot_init(void)
{
	hwsim_oot_cfs.sf = &hwsim_bnxt_re_oot;
	hwsim_oot_cfs.make = hwsim_oot_make;
	return hwsim_cfs_register(&hwsim_oot_cfs, HWSIM_OOT_SUBSYS);
}

static void hwsim_oot_exit(void)
{
	hwsim_cfs_unregister(&hwsim_oot_cfs);
}

static int hwsim_oot_create(struct hwsim_dev *d)
{
	struct hwsim_oot *o;
	int i;

	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	/* the driver fills its cache from the firmware at load */
	for (i = 0; i < OOT_NPARAMS; i++) {
		o->cache[i] = hwsim_oot_params[i].start;
		o->fw[i] = o->cache[i];
	}
	d->priv = o;
	debugfs_create_atomic_t("groups", 0444, d->dir, &d->users);
	return 0;
}

static void hwsim_oot_destroy(struct hwsim_dev *d)
{
	kfree(d->priv);
	d->priv = NULL;
}

const struct hwsim_surface hwsim_bnxt_re_oot = {
	.name		= "bnxt_re_oot",
	.has_vf		= true,
	.id_valid	= hwsim_name_valid,
	.init		= hwsim_oot_init,
	.exit		= hwsim_oot_exit,
	.create		= hwsim_oot_create,
	.destroy	= hwsim_oot_destroy,
};
