// SPDX-License-Identifier: GPL-2.0
/*
 * dcbsim: the DCB rewrite table (dcbnl_setrewr/dcbnl_delrewr, Linux 6.3+).
 *
 * On egress a device rewrites the PCP or DSCP of a frame from its
 * priority: the table maps priority -> PCP (selector DCB_APP_SEL_PCP) and
 * priority -> DSCP (selector 5). As in the APP table, struct dcb_app
 * carries the priority in .priority and the PCP or DSCP in .protocol.
 *
 * The table userspace reads (DCB_ATTR_DCB_REWR_TABLE) is the DCB core's
 * (dcb_setrewr/dcb_delrewr). Like a driver that programs hardware (sparx5),
 * dcbsim also keeps its own copy, one value per priority and selector,
 * and a set for a priority that has a value replaces it: the core alone
 * would add a second entry, or refuse an exact duplicate with EEXIST.
 * Sets and deletes go through dcbsim_fault_admit() as kind "rewr".
 *
 * debugfs "rewr" shows dcbsim's copy, to compare with the core's table.
 *
 * The core does not drop a device's rewrite entries when it goes away,
 * and a later device can get the same ifindex: dcbsim_rewr_flush() deletes
 * them at uninit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/netdevice.h>
#include <linux/seq_file.h>
#include <net/dcbnl.h>

#include "dcbsim.h"

#if RTUNE_HAVE_DCBNL_REWR

/* The device's table for @selector, or NULL for a selector it lacks. */
static struct dcbsim_rewr_map *dcbsim_rewr_map(struct dcbsim_dcb *dcb,
					       u8 selector)
{
	switch (selector) {
	case DCBSIM_APP_SEL_PCP:
		return &dcb->rewr_pcp;
	case IEEE_8021QAZ_APP_SEL_DSCP:
		return &dcb->rewr_dscp;
	}
	return NULL;
}

static int dcbsim_rewr_check(struct net_device *dev, const struct dcb_app *app)
{
	struct dcbsim_dcb *dcb = &((struct dcbsim_priv *)netdev_priv(dev))->dcb;

	if (!dcbsim_rewr_map(dcb, app->selector)) {
		netdev_err(dev, "rewrite: selector %u: only PCP (%u) and DSCP (%u)\n",
			   app->selector, DCBSIM_APP_SEL_PCP,
			   IEEE_8021QAZ_APP_SEL_DSCP);
		return -EINVAL;
	}
	if (app->priority >= IEEE_8021QAZ_MAX_TCS) {
		netdev_err(dev, "rewrite: no priority %u\n", app->priority);
		return -EINVAL;
	}
	if (app->protocol >= (app->selector == DCBSIM_APP_SEL_PCP ? 16 : 64)) {
		netdev_err(dev, "rewrite: selector %u: invalid %s %u\n",
			   app->selector,
			   app->selector == DCBSIM_APP_SEL_PCP ? "PCP" : "DSCP",
			   app->protocol);
		return -EINVAL;
	}
	return 0;
}

int dcbsim_setrewr(struct net_device *dev, struct dcb_app *app)
{
	struct dcbsim_priv *priv = ((struct dcbsim_priv *)netdev_priv(dev));
	struct dcbsim_dcb *dcb = &priv->dcb;
	struct dcbsim_rewr_map *map;
	struct dcb_app old = *app;
	bool had;
	int ret;

	if (!dcbsim_fault_admit(&priv->fault, DCBSIM_KIND_REWR,
				dcbsim_rewr_check(dev, app), &ret))
		return ret;

	map = dcbsim_rewr_map(dcb, app->selector);
	spin_lock(&dcb->lock);
	had = map->valid & BIT(app->priority);
	old.protocol = map->val[app->priority];
	spin_unlock(&dcb->lock);
	if (had && old.protocol == app->protocol)
		return 0;	/* already so: nothing changes */

	/* Called under RTNL, like every dcbnl op: no other set runs. */
	if (had)
		dcb_delrewr(dev, &old);
	ret = dcb_setrewr(dev, app);

	spin_lock(&dcb->lock);
	if (ret) {
		map->valid &= ~BIT(app->priority);
	} else {
		map->valid |= BIT(app->priority);
		map->val[app->priority] = app->protocol;
	}
	spin_unlock(&dcb->lock);
	if (!ret || had)
		dcbsim_fault_changed(&priv->fault, DCBSIM_KIND_REWR);
	return ret;
}

int dcbsim_delrewr(struct net_device *dev, struct dcb_app *app)
{
	struct dcbsim_priv *priv = ((struct dcbsim_priv *)netdev_priv(dev));
	struct dcbsim_dcb *dcb = &priv->dcb;
	struct dcbsim_rewr_map *map;
	int ret;

	/* Nothing to check: an entry that was never valid is not found. */
	if (!dcbsim_fault_admit(&priv->fault, DCBSIM_KIND_REWR, 0, &ret))
		return ret;

	ret = dcb_delrewr(dev, app);
	if (ret)
		return ret;
	map = dcbsim_rewr_map(dcb, app->selector);
	if (map && app->priority < IEEE_8021QAZ_MAX_TCS) {
		spin_lock(&dcb->lock);
		if (map->val[app->priority] == app->protocol)
			map->valid &= ~BIT(app->priority);
		spin_unlock(&dcb->lock);
	}
	dcbsim_fault_changed(&priv->fault, DCBSIM_KIND_REWR);
	return 0;
}

static void dcbsim_rewr_flush_map(struct net_device *dev, u8 selector,
				  struct dcbsim_rewr_map *map)
{
	struct dcb_app app = { .selector = selector };
	int prio;

	for (prio = 0; prio < IEEE_8021QAZ_MAX_TCS; prio++) {
		if (!(map->valid & BIT(prio)))
			continue;
		app.priority = prio;
		app.protocol = map->val[prio];
		dcb_delrewr(dev, &app);
	}
}

/* At uninit, under RTNL: the core's entries of this device go too. */
void dcbsim_rewr_flush(struct net_device *dev)
{
	struct dcbsim_dcb *dcb = &((struct dcbsim_priv *)netdev_priv(dev))->dcb;

	dcbsim_rewr_flush_map(dev, DCBSIM_APP_SEL_PCP, &dcb->rewr_pcp);
	dcbsim_rewr_flush_map(dev, IEEE_8021QAZ_APP_SEL_DSCP, &dcb->rewr_dscp);
	spin_lock(&dcb->lock);
	dcb->rewr_pcp.valid = 0;
	dcb->rewr_dscp.valid = 0;
	spin_unlock(&dcb->lock);
}

static void dcbsim_rewr_show_map(struct seq_file *m, const char *name,
				 const struct dcbsim_rewr_map *map)
{
	int prio;

	seq_puts(m, name);
	for (prio = 0; prio < IEEE_8021QAZ_MAX_TCS; prio++)
		if (map->valid & BIT(prio))
			seq_printf(m, " %d:%u", prio, map->val[prio]);
	seq_putc(m, '\n');
}

/* rewr: the device's own table, "pcp PRIO:PCP..." and "dscp PRIO:DSCP...". */
static int dcbsim_rewr_show(struct seq_file *m, void *v)
{
	struct dcbsim_dcb *dcb = m->private;
	struct dcbsim_rewr_map pcp, dscp;

	spin_lock(&dcb->lock);
	pcp = dcb->rewr_pcp;
	dscp = dcb->rewr_dscp;
	spin_unlock(&dcb->lock);
	dcbsim_rewr_show_map(m, "pcp", &pcp);
	dcbsim_rewr_show_map(m, "dscp", &dscp);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dcbsim_rewr);

void dcbsim_rewr_debugfs(struct dcbsim_priv *priv, struct dentry *dir)
{
	debugfs_create_file("rewr", 0444, dir, &priv->dcb, &dcbsim_rewr_fops);
}

#else

void dcbsim_rewr_flush(struct net_device *dev)
{
}

void dcbsim_rewr_debugfs(struct dcbsim_priv *priv, struct dentry *dir)
{
}

#endif /* RTUNE_HAVE_DCBNL_REWR */
