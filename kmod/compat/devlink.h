/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The devlink interfaces rocetune_dcbsim uses that differ between
 * kernels: how a net_device is tied to its devlink port (6.2 moved it from
 * a driver call into the devlink core), the get and set ops of a
 * parameter (extack added: set in 6.8, get later), its validate op and the
 * driverinit value setter (the value passed by pointer, after 6.12) and the
 * driverinit value accessors (6.3: devl_*, called under the instance
 * lock) and the port (un)registration a reload does under that lock
 * (5.19: devl_port_*). The probes in conftest.sh decide, each
 * separately. Only meaningful when RTUNE_HAVE_DEVLINK_ALLOC_DEV.
 */
#ifndef _ROCETUNE_COMPAT_DEVLINK_H
#define _ROCETUNE_COMPAT_DEVLINK_H

#include <linux/netdevice.h>
#include <net/devlink.h>

#include "compat_generated.h"

/*
 * Tying a net_device to its devlink port. From 6.2 the netdev points at
 * its port before it registers (SET_NETDEV_DEVLINK_PORT) and the devlink
 * core ties and unties them, under RTNL. Before, the driver calls
 * devlink_port_type_eth_set() and devlink_port_type_clear(), which take
 * RTNL themselves (to fill the notification): never under RTNL.
 */
#define RTUNE_COMPAT_DL_PORT_BY_CORE RTUNE_HAVE_SET_NETDEV_DEVLINK_PORT

/* Before register_netdevice(), under RTNL. */
static inline void rtune_compat_dl_port_preset(struct net_device *dev,
					       struct devlink_port *port)
{
#if RTUNE_HAVE_SET_NETDEV_DEVLINK_PORT
	SET_NETDEV_DEVLINK_PORT(dev, port);
#endif
}

/* Without RTNL, while @dev is registered or not yet freed. */
static inline void rtune_compat_dl_port_bind(struct net_device *dev,
					     struct devlink_port *port)
{
#if !RTUNE_HAVE_SET_NETDEV_DEVLINK_PORT
	devlink_port_type_eth_set(port, dev);
#endif
}

/* Without RTNL, before @dev is freed. */
static inline void rtune_compat_dl_port_unbind(struct devlink_port *port)
{
#if !RTUNE_HAVE_SET_NETDEV_DEVLINK_PORT
	devlink_port_type_clear(port);
#endif
}

/* Declares a parameter set op; the body ignores @extack where absent. */
#if RTUNE_HAVE_DEVLINK_PARAM_SET_EXTACK
#define RTUNE_COMPAT_DL_PARAM_SET(name)					\
	int name(struct devlink *devlink, u32 id,			\
		 struct devlink_param_gset_ctx *ctx,			\
		 struct netlink_ext_ack *extack)
#else
#define RTUNE_COMPAT_DL_PARAM_SET(name)					\
	int name(struct devlink *devlink, u32 id,			\
		 struct devlink_param_gset_ctx *ctx)
#endif

/* Declares a parameter get op; the body ignores @extack where absent. */
#if RTUNE_HAVE_DEVLINK_PARAM_GET_EXTACK
#define RTUNE_COMPAT_DL_PARAM_GET(name)					\
	int name(struct devlink *devlink, u32 id,			\
		 struct devlink_param_gset_ctx *ctx,			\
		 struct netlink_ext_ack *extack)
#else
#define RTUNE_COMPAT_DL_PARAM_GET(name)					\
	int name(struct devlink *devlink, u32 id,			\
		 struct devlink_param_gset_ctx *ctx)
#endif

/*
 * Declares a parameter validate op, which gets the value by pointer or by
 * value as the kernel's op type has it; the body reads the boolean with
 * rtune_compat_dl_vbool(val).
 */
#if RTUNE_HAVE_DEVLINK_PARAM_VALIDATE_PTR
#define RTUNE_COMPAT_DL_PARAM_VALIDATE(name)				\
	int name(struct devlink *devlink, u32 id,			\
		 union devlink_param_value *val,			\
		 struct netlink_ext_ack *extack)

static inline bool rtune_compat_dl_vbool(const union devlink_param_value *val)
{
	return val->vbool;
}
#else
#define RTUNE_COMPAT_DL_PARAM_VALIDATE(name)				\
	int name(struct devlink *devlink, u32 id,			\
		 union devlink_param_value val,				\
		 struct netlink_ext_ack *extack)

static inline bool rtune_compat_dl_vbool(union devlink_param_value val)
{
	return val.vbool;
}
#endif

/* The driverinit value of @id; from reload_up, under the instance lock. */
static inline int rtune_compat_dl_driverinit_get(struct devlink *devlink,
						 u32 id,
						 union devlink_param_value *val)
{
#if RTUNE_HAVE_DEVL_PARAM_DRIVERINIT
	return devl_param_driverinit_value_get(devlink, id, val);
#else
	return devlink_param_driverinit_value_get(devlink, id, val);
#endif
}

/* The initial driverinit value of @id; before devlink_register(). */
static inline void rtune_compat_dl_driverinit_init(struct devlink *devlink,
						   u32 id,
						   union devlink_param_value val)
{
#if RTUNE_HAVE_DEVL_PARAM_DRIVERINIT
	devl_lock(devlink);
#if RTUNE_HAVE_DEVL_DRIVERINIT_SET_PTR
	devl_param_driverinit_value_set(devlink, id, &val);
#else
	devl_param_driverinit_value_set(devlink, id, val);
#endif
	devl_unlock(devlink);
#else
	devlink_param_driverinit_value_set(devlink, id, val);
#endif
}

/*
 * Registering and unregistering a devlink port. @locked: the caller holds
 * the instance lock, as the core does around reload_down and reload_up
 * (devl_port_*, 5.19). Only called with @locked where
 * RTUNE_COMPAT_DL_RELOAD_PORTS says the kernel has those.
 */
#define RTUNE_COMPAT_DL_RELOAD_PORTS RTUNE_HAVE_DEVL_PORT_REGISTER

static inline int rtune_compat_dl_port_register(struct devlink *devlink,
						struct devlink_port *port,
						unsigned int index, bool locked)
{
#if RTUNE_HAVE_DEVL_PORT_REGISTER
	if (locked)
		return devl_port_register(devlink, port, index);
#endif
	return devlink_port_register(devlink, port, index);
}

static inline void rtune_compat_dl_port_unregister(struct devlink_port *port,
						   bool locked)
{
#if RTUNE_HAVE_DEVL_PORT_REGISTER
	if (locked) {
		devl_port_unregister(port);
		return;
	}
#endif
	devlink_port_unregister(port);
}

/* Let "devlink dev reload" reach the driver; before devlink_register().
 * Until 6.2 the core refused it without DEVLINK_F_RELOAD.
 */
static inline void rtune_compat_dl_reload_enable(struct devlink *devlink)
{
#if RTUNE_HAVE_DEVLINK_SET_FEATURES
	devlink_set_features(devlink, DEVLINK_F_RELOAD);
#endif
}

#endif /* _ROCETUNE_COMPAT_DEVLINK_H */
