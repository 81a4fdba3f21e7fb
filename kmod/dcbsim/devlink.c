// SPDX-License-Identifier: GPL-2.0
/*
 * dcbsim: one devlink instance, platform/rocetune_dcbsim, with the knobs
 * that decide whether a NIC does RoCE at all:
 *
 *   enable_roce   generic; driverinit (as mlx5 has it: the value set takes
 *                 effect on "devlink dev reload") plus a runtime value that
 *                 shows what is in effect and refuses to be set
 *   enable_iwarp  generic; runtime (as ice has it: takes effect at once;
 *                 refused while RoCE is in effect, and enable_roce true is
 *                 refused while iWARP is, as ice refuses both at once)
 *   ports 0..3    physical ports; each dcbsim netdev takes a free one when
 *                 it is created. Where the kernel has it (6.5+), a port
 *                 function with the "roce" capability (a VF's, on a real
 *                 NIC): stored only, it changes nothing else here.
 *
 * Reload (driver_reinit) makes the driverinit value of enable_roce the
 * one in effect. As a NIC's driver does, it removes the instance's ports
 * in reload_down and adds them back in reload_up (from 6.7 the devlink
 * core WARNs about a port left registered across it). A NIC's driver
 * re-creates its netdevs too; dcbsim's are made by "ip link add", which
 * it cannot redo, so a reload is refused (EBUSY, with a message) while a
 * dcbsim netdev holds a port. Fault knobs, in debugfs rocetune_dcbsim/devlink/:
 * fail_next_<kind> (the next set fails with -errno), ignore_<kind> (sets
 * succeed and store nothing), calls_<kind>, sets_<kind>, with <kind> one
 * of param, port_fn, reload. A driverinit value is stored by the devlink
 * core, not by the driver, so ignore_param only affects runtime values
 * and ignore_reload makes a reload apply nothing.
 *
 * Locking: the instance and ports are created at module load, before
 * any dcbsim netdev, and removed after the last one (and in between only
 * by a reload, while no netdev holds a port): the devlink core
 * takes RTNL under the instance lock, so nothing here may take the
 * instance lock under RTNL. A netdev claims a free port slot when it is
 * created (under RTNL) and gives it back from its destructor (without
 * RTNL, after unregistration): dcbsim_dl_slots_lock guards the slots,
 * and dcbsim_dl_ports_down, which keeps a netdev made during a reload
 * from claiming a port that is not registered.
 * Before 6.2 the driver ties the netdev to its port itself, with calls
 * that take RTNL, so that happens in a work item after registration
 * (holding a netdev reference) and, untying, in the destructor.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/platform_device.h>
#include <linux/rtnetlink.h>

#include "dcbsim.h"

#if RTUNE_HAVE_DEVLINK_ALLOC_DEV

#include <net/devlink.h>

#include "../compat/devlink.h"

#define DCBSIM_DL_PORTS	4

enum dcbsim_dl_kind {
	DCBSIM_DL_PARAM,
	DCBSIM_DL_PORT_FN,
	DCBSIM_DL_RELOAD,
	DCBSIM_DL_NUM,
};

static const char * const dcbsim_dl_kind_names[DCBSIM_DL_NUM] = {
	[DCBSIM_DL_PARAM]	= "param",
	[DCBSIM_DL_PORT_FN]	= "port_fn",
	[DCBSIM_DL_RELOAD]	= "reload",
};

struct dcbsim_dl_port {
	struct devlink_port dl_port;
	/* The netdev on this port, or NULL: under dcbsim_dl_slots_lock. */
	struct net_device *netdev;
	/* The port function's RoCE capability: under the instance lock. */
	bool fn_roce;
};

/* devlink_priv(). The values in effect are under the instance lock,
 * which the devlink core holds around every op below.
 */
struct dcbsim_dl {
	struct platform_device *pdev;
	struct dentry *dir;
	bool roce;	/* RoCE in effect: enable_roce's runtime value */
	bool iwarp;	/* iWARP in effect: enable_iwarp */
	struct dcbsim_knobs knobs[DCBSIM_DL_NUM];
	struct dcbsim_dl_port ports[DCBSIM_DL_PORTS];
	/* ports[0..nports-1] are registered. Changed at load and unload
	 * (no op can run then) and by a reload, under the instance lock.
	 */
	unsigned int nports;
};

static struct devlink *dcbsim_devlink;
/* Protects each port's netdev and dcbsim_dl_ports_down. */
static DEFINE_SPINLOCK(dcbsim_dl_slots_lock);
/* Between a reload's reload_down and a reload_up that added the ports
 * back: no port may be claimed.
 */
static bool dcbsim_dl_ports_down;

static struct dcbsim_dl *dcbsim_dl_of(struct devlink *devlink)
{
	return devlink_priv(devlink);
}

/* Parameters */

static RTUNE_COMPAT_DL_PARAM_GET(dcbsim_dl_roce_get)
{
	ctx->val.vbool = dcbsim_dl_of(devlink)->roce;
	return 0;
}

static RTUNE_COMPAT_DL_PARAM_SET(dcbsim_dl_roce_set)
{
	/* The core calls validate first, which counts the call. */
	return -EOPNOTSUPP;
}

static RTUNE_COMPAT_DL_PARAM_VALIDATE(dcbsim_dl_roce_validate)
{
	struct dcbsim_dl *dl = dcbsim_dl_of(devlink);
	int ret;

	if (!dcbsim_knob_admit(&dl->knobs[DCBSIM_DL_PARAM], 0, &ret)) {
		if (ret)
			NL_SET_ERR_MSG_MOD(extack, "Injected failure (fail_next_param)");
		return ret;
	}
	/* The runtime value cannot be set, whatever the cmode asked: the
	 * core does not tell validate which one it is, set does.
	 */
	if (rtune_compat_dl_vbool(val) && dl->iwarp) {
		NL_SET_ERR_MSG_MOD(extack, "iWARP is enabled; RoCE and iWARP exclude each other");
		return -EOPNOTSUPP;
	}
	return 0;
}

static RTUNE_COMPAT_DL_PARAM_GET(dcbsim_dl_iwarp_get)
{
	ctx->val.vbool = dcbsim_dl_of(devlink)->iwarp;
	return 0;
}

static RTUNE_COMPAT_DL_PARAM_SET(dcbsim_dl_iwarp_set)
{
	struct dcbsim_dl *dl = dcbsim_dl_of(devlink);

	if (READ_ONCE(dl->knobs[DCBSIM_DL_PARAM].ignore))
		return 0;
	if (dl->iwarp != ctx->val.vbool)
		atomic_inc(&dl->knobs[DCBSIM_DL_PARAM].sets);
	dl->iwarp = ctx->val.vbool;
	return 0;
}

static RTUNE_COMPAT_DL_PARAM_VALIDATE(dcbsim_dl_iwarp_validate)
{
	struct dcbsim_dl *dl = dcbsim_dl_of(devlink);
	int ret;

	if (!dcbsim_knob_admit(&dl->knobs[DCBSIM_DL_PARAM], 0, &ret)) {
		if (ret)
			NL_SET_ERR_MSG_MOD(extack, "Injected failure (fail_next_param)");
		return ret;
	}
	if (rtune_compat_dl_vbool(val) && dl->roce) {
		NL_SET_ERR_MSG_MOD(extack, "RoCE is enabled; RoCE and iWARP exclude each other");
		return -EOPNOTSUPP;
	}
	return 0;
}

static const struct devlink_param dcbsim_dl_params[] = {
	DEVLINK_PARAM_GENERIC(ENABLE_ROCE,
			      BIT(DEVLINK_PARAM_CMODE_DRIVERINIT) |
			      BIT(DEVLINK_PARAM_CMODE_RUNTIME),
			      dcbsim_dl_roce_get, dcbsim_dl_roce_set,
			      dcbsim_dl_roce_validate),
	DEVLINK_PARAM_GENERIC(ENABLE_IWARP, BIT(DEVLINK_PARAM_CMODE_RUNTIME),
			      dcbsim_dl_iwarp_get, dcbsim_dl_iwarp_set,
			      dcbsim_dl_iwarp_validate),
};

/* Port function: the RoCE capability, where devlink_port_ops has it */

#if RTUNE_HAVE_DEVLINK_PORT_OPS_FN_ROCE
static int dcbsim_dl_fn_roce_get(struct devlink_port *port, bool *on,
				 struct netlink_ext_ack *extack)
{
	*on = container_of(port, struct dcbsim_dl_port, dl_port)->fn_roce;
	return 0;
}

static int dcbsim_dl_fn_roce_set(struct devlink_port *port, bool on,
				 struct netlink_ext_ack *extack)
{
	struct dcbsim_dl_port *p = container_of(port, struct dcbsim_dl_port,
						dl_port);
	struct dcbsim_dl *dl = dcbsim_dl_of(port->devlink);
	int ret;

	if (!dcbsim_knob_admit(&dl->knobs[DCBSIM_DL_PORT_FN], 0, &ret)) {
		if (ret)
			NL_SET_ERR_MSG_MOD(extack, "Injected failure (fail_next_port_fn)");
		return ret;
	}
	if (p->fn_roce != on)
		atomic_inc(&dl->knobs[DCBSIM_DL_PORT_FN].sets);
	p->fn_roce = on;
	return 0;
}

static const struct devlink_port_ops dcbsim_dl_port_ops = {
	.port_fn_roce_get	= dcbsim_dl_fn_roce_get,
	.port_fn_roce_set	= dcbsim_dl_fn_roce_set,
};

/* @locked: under the instance lock (a reload), else taking it. */
static int dcbsim_dl_port_register(struct devlink *devlink,
				   struct dcbsim_dl_port *p, unsigned int i,
				   bool locked)
{
	if (locked)
		return devl_port_register_with_ops(devlink, &p->dl_port, i,
						   &dcbsim_dl_port_ops);
	return devlink_port_register_with_ops(devlink, &p->dl_port, i,
					      &dcbsim_dl_port_ops);
}
#else
static int dcbsim_dl_port_register(struct devlink *devlink,
				   struct dcbsim_dl_port *p, unsigned int i,
				   bool locked)
{
	return rtune_compat_dl_port_register(devlink, &p->dl_port, i, locked);
}
#endif

/* Register the ports not registered yet, in order. */
static int dcbsim_dl_ports_add(struct devlink *devlink, bool locked)
{
	struct dcbsim_dl *dl = dcbsim_dl_of(devlink);
	int err;

	while (dl->nports < DCBSIM_DL_PORTS) {
		struct dcbsim_dl_port *p = &dl->ports[dl->nports];

		devlink_port_attrs_set(&p->dl_port,
				       &(struct devlink_port_attrs) {
					       .flavour = DEVLINK_PORT_FLAVOUR_PHYSICAL,
					       .phys.port_number = dl->nports,
				       });
		err = dcbsim_dl_port_register(devlink, p, dl->nports, locked);
		if (err)
			return err;
		dl->nports++;
	}
	return 0;
}

/* Unregister every registered port, last first. */
static void dcbsim_dl_ports_del(struct dcbsim_dl *dl, bool locked)
{
	while (dl->nports) {
		dl->nports--;
		rtune_compat_dl_port_unregister(&dl->ports[dl->nports].dl_port,
						locked);
	}
}

/* Reload: driver_reinit applies the driverinit value of enable_roce. */

static int dcbsim_dl_reload_down(struct devlink *devlink, bool netns_change,
				 enum devlink_reload_action action,
				 enum devlink_reload_limit limit,
				 struct netlink_ext_ack *extack)
{
	struct dcbsim_dl *dl = dcbsim_dl_of(devlink);
	bool busy = false;
	int ret, i;

	if (netns_change) {
		NL_SET_ERR_MSG_MOD(extack, "dcbsim devices live in init_net only");
		return -EOPNOTSUPP;
	}

	if (!dcbsim_knob_admit(&dl->knobs[DCBSIM_DL_RELOAD], 0, &ret) && ret) {
		NL_SET_ERR_MSG_MOD(extack, "Injected failure (fail_next_reload)");
		return ret;
	}

	spin_lock(&dcbsim_dl_slots_lock);
	for (i = 0; i < DCBSIM_DL_PORTS; i++)
		busy |= !!dl->ports[i].netdev;
	if (!busy)
		dcbsim_dl_ports_down = true;
	spin_unlock(&dcbsim_dl_slots_lock);
	if (busy) {
		NL_SET_ERR_MSG_MOD(extack,
				   "Delete the dcbsim netdevs first: a reload re-creates the ports, and dcbsim cannot re-create a netdev made by ip link add");
		return -EBUSY;
	}
	if (RTUNE_COMPAT_DL_RELOAD_PORTS)
		dcbsim_dl_ports_del(dl, true);
	return 0;
}

static int dcbsim_dl_reload_up(struct devlink *devlink,
			       enum devlink_reload_action action,
			       enum devlink_reload_limit limit,
			       u32 *actions_performed,
			       struct netlink_ext_ack *extack)
{
	struct dcbsim_dl *dl = dcbsim_dl_of(devlink);
	union devlink_param_value val;
	int err;

	if (RTUNE_COMPAT_DL_RELOAD_PORTS) {
		err = dcbsim_dl_ports_add(devlink, true);
		if (err) {
			/* Ports stay missing: netdevs made now get none. */
			NL_SET_ERR_MSG_MOD(extack, "Cannot register the devlink ports again");
			return err;
		}
	}
	spin_lock(&dcbsim_dl_slots_lock);
	dcbsim_dl_ports_down = false;
	spin_unlock(&dcbsim_dl_slots_lock);

	*actions_performed = BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT);
	if (READ_ONCE(dl->knobs[DCBSIM_DL_RELOAD].ignore))
		return 0;

	err = rtune_compat_dl_driverinit_get(devlink,
					     DEVLINK_PARAM_GENERIC_ID_ENABLE_ROCE,
					     &val);
	if (err)
		return err;
	if (dl->roce != val.vbool)
		atomic_inc(&dl->knobs[DCBSIM_DL_RELOAD].sets);
	dl->roce = val.vbool;
	return 0;
}

static const struct devlink_ops dcbsim_dl_ops = {
	.reload_actions	= BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT),
	.reload_down	= dcbsim_dl_reload_down,
	.reload_up	= dcbsim_dl_reload_up,
};

/* Netdevs and their ports */

static void dcbsim_dl_bind_work(struct work_struct *work)
{
	struct dcbsim_priv *priv = container_of(work, struct dcbsim_priv,
						dl_bind_work);

	rtune_compat_dl_port_bind(priv->dev, priv->dl_port);
	rtune_compat_netdev_put(priv->dev, &priv->dl_tracker);
}

/**
 * dcbsim_devlink_claim - give a new netdev a free devlink port
 * @priv: the netdev, not registered yet (under RTNL)
 *
 * A netdev without a port (none free, or no devlink) works all the same.
 */
void dcbsim_devlink_claim(struct dcbsim_priv *priv)
{
	struct dcbsim_dl *dl;
	int i;

	INIT_WORK(&priv->dl_bind_work, dcbsim_dl_bind_work);
	if (!dcbsim_devlink)
		return;
	dl = dcbsim_dl_of(dcbsim_devlink);
	spin_lock(&dcbsim_dl_slots_lock);
	for (i = 0; i < DCBSIM_DL_PORTS && !dcbsim_dl_ports_down; i++) {
		if (!dl->ports[i].netdev) {
			dl->ports[i].netdev = priv->dev;
			priv->dl_port = &dl->ports[i].dl_port;
			break;
		}
	}
	spin_unlock(&dcbsim_dl_slots_lock);
	if (priv->dl_port)
		rtune_compat_dl_port_preset(priv->dev, priv->dl_port);
	else
		netdev_info(priv->dev, "no free devlink port (%d in use, or a reload under way)\n",
			    DCBSIM_DL_PORTS);
}

/* Once the netdev is registered, under RTNL. */
void dcbsim_devlink_bind(struct dcbsim_priv *priv)
{
	if (RTUNE_COMPAT_DL_PORT_BY_CORE || !priv->dl_port)
		return;
	rtune_compat_netdev_hold(priv->dev, &priv->dl_tracker);
	schedule_work(&priv->dl_bind_work);
}

/**
 * dcbsim_devlink_release - give the netdev's port back
 * @priv: the netdev
 * @bound: from the destructor (without RTNL, after dcbsim_devlink_bind());
 *	false when registration failed
 */
void dcbsim_devlink_release(struct dcbsim_priv *priv, bool bound)
{
	struct dcbsim_dl_port *p;

	if (!priv->dl_port)
		return;
	p = container_of(priv->dl_port, struct dcbsim_dl_port, dl_port);
	if (bound) {
		/* The work dropped its reference, or the netdev could not
		 * be here; wait for it to have returned all the same.
		 */
		flush_work(&priv->dl_bind_work);
		rtune_compat_dl_port_unbind(priv->dl_port);
	}
	spin_lock(&dcbsim_dl_slots_lock);
	p->netdev = NULL;
	spin_unlock(&dcbsim_dl_slots_lock);
	priv->dl_port = NULL;
}

/* Module load and unload */

/*
 * The instance's parent: a platform device bound to this driver, which
 * does nothing else. 7.2's devlink_alloc() WARNs (a panic in the lab's
 * panic_on_warn guests) when the parent device has no driver; 6.12's
 * does not look.
 */
static int dcbsim_pdrv_probe(struct platform_device *pdev)
{
	return 0;
}

static struct platform_driver dcbsim_pdrv = {
	.probe	= dcbsim_pdrv_probe,
	.driver	= {
		.name	= KBUILD_MODNAME,
	},
};

static void dcbsim_dl_debugfs(struct dcbsim_dl *dl)
{
	struct dentry *root = dcbsim_debugfs_dir();
	int k;

	if (!root)
		return;
	dl->dir = debugfs_create_dir("devlink", root);
	if (IS_ERR(dl->dir)) {
		dl->dir = NULL;
		return;
	}
	for (k = 0; k < DCBSIM_DL_NUM; k++)
		dcbsim_knobs_debugfs(&dl->knobs[k], dcbsim_dl_kind_names[k],
				     dl->dir);
}

int dcbsim_devlink_init(void)
{
	union devlink_param_value on = { .vbool = true };
	struct platform_device *pdev;
	struct devlink *devlink;
	struct dcbsim_dl *dl;
	int err, i;

	err = platform_driver_register(&dcbsim_pdrv);
	if (err)
		return err;
	pdev = platform_device_register_simple(KBUILD_MODNAME, PLATFORM_DEVID_NONE,
					       NULL, 0);
	if (IS_ERR(pdev)) {
		err = PTR_ERR(pdev);
		goto err_drv;
	}
	/* Bound at registration: the probe is synchronous. */
	if (!pdev->dev.driver) {
		pr_err("the devlink parent device did not bind to its driver\n");
		err = -ENODEV;
		goto err_pdev;
	}

	devlink = devlink_alloc(&dcbsim_dl_ops, sizeof(*dl), &pdev->dev);
	if (!devlink) {
		err = -ENOMEM;
		goto err_pdev;
	}
	dl = dcbsim_dl_of(devlink);
	dl->pdev = pdev;
	dl->roce = true;

	err = devlink_params_register(devlink, dcbsim_dl_params,
				      ARRAY_SIZE(dcbsim_dl_params));
	if (err)
		goto err_free;
	rtune_compat_dl_driverinit_init(devlink,
					DEVLINK_PARAM_GENERIC_ID_ENABLE_ROCE,
					on);

	for (i = 0; i < DCBSIM_DL_PORTS; i++)
		dl->ports[i].fn_roce = true;
	err = dcbsim_dl_ports_add(devlink, false);
	if (err)
		goto err_ports;

	rtune_compat_dl_reload_enable(devlink);
	devlink_register(devlink);
	dcbsim_dl_debugfs(dl);
	dcbsim_devlink = devlink;
	return 0;

err_ports:
	dcbsim_dl_ports_del(dl, false);
	devlink_params_unregister(devlink, dcbsim_dl_params,
				  ARRAY_SIZE(dcbsim_dl_params));
err_free:
	devlink_free(devlink);
err_pdev:
	platform_device_unregister(pdev);
err_drv:
	platform_driver_unregister(&dcbsim_pdrv);
	return err;
}

/* After every dcbsim netdev is gone. */
void dcbsim_devlink_exit(void)
{
	struct devlink *devlink = dcbsim_devlink;
	struct platform_device *pdev;
	struct dcbsim_dl *dl;

	if (!devlink)
		return;
	dl = dcbsim_dl_of(devlink);
	pdev = dl->pdev;
	dcbsim_devlink = NULL;

	debugfs_remove(dl->dir);
	devlink_unregister(devlink);
	dcbsim_dl_ports_del(dl, false);
	devlink_params_unregister(devlink, dcbsim_dl_params,
				  ARRAY_SIZE(dcbsim_dl_params));
	devlink_free(devlink);
	platform_device_unregister(pdev);
	platform_driver_unregister(&dcbsim_pdrv);
}

#else /* !RTUNE_HAVE_DEVLINK_ALLOC_DEV: no devlink instance */

void dcbsim_devlink_claim(struct dcbsim_priv *priv)
{
}

void dcbsim_devlink_bind(struct dcbsim_priv *priv)
{
}

void dcbsim_devlink_release(struct dcbsim_priv *priv, bool bound)
{
}

int dcbsim_devlink_init(void)
{
	return 0;
}

void dcbsim_devlink_exit(void)
{
}

#endif
