/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's current RoCE/QoS state, as read through netlink and configfs.
 * The planner compares it with a profile; apply saves it before writing and
 * writes it back on failure.
 */
#ifndef ROCETUNE_STATE_H
#define ROCETUNE_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include "dcbnl_compat.h"
#include "../../kmod/core/params.h"
#include "irdma_load.h"
#include "mstcfg.h"

struct rtune_surface;

struct rtune_dcb {
	bool ok;		/* the netdev answered DCB_CMD_IEEE_GET */
	int err;		/* errno when it did not */
	bool has_ets;
	struct ieee_ets ets;
	bool has_pfc;
	struct ieee_pfc pfc;
	bool has_app;		/* the APP table attribute was present */
	uint8_t dscp_prios[64];	/* per DSCP: bitmask of priorities in the table */
	int n_other_app;	/* non-DSCP entries (never touched) */
	bool has_trust;		/* APP trust table supported (kernel >= 6.2 + driver) */
	uint8_t trust[8];
	int ntrust;
	bool has_dcbx;
	uint8_t dcbx;
	bool has_rewr;		/* the rewrite table attribute was present (kernel >= 6.3) */
	uint64_t rewr_dscp[8];	/* per priority: bitmask of the DSCPs it is rewritten to */
	uint16_t rewr_pcp[8];	/* per priority: bitmask of the PCPs (8-15: with DEI) */
	int n_other_rewr;	/* entries of other selectors (never touched) */
};

/* The persistent (next boot) values of an mlx5 device (mstcfg.h): only
 * show and diff read them, after the rest of the state. */
struct rtune_hwnv {
	int state;			/* 0: not read; 1: read; -errno: could not be (why) */
	int port;			/* NVconfig's port: the _P<port> names */
	const char *port_from;		/* "devlink" or "pci-function" */
	struct rtune_nvcc cc;		/* the "Next Boot" column */
	char why[200];
};

/* irdma's DCQCN module parameters as loaded (irdma_load.h): only show
 * and diff read them, after the rest of the state. */
struct rtune_hwld {
	int state;			/* 0: not read; 1: read; -errno: could not be (why) */
	uint32_t v[RTUNE_IRDMA_MP_COUNT];
	uint32_t valid;			/* bit n: v[n] was read */
	char why[200];
};

/* A vendor congestion-control surface (surface.h), raw. */
struct rtune_hwcc {
	const struct rtune_surface *sf;	/* NULL: none; rocetune.ko configfs if any */
	char id[32];			/* the device on the surface: PCI BDF */
	char dir[256];			/* the surface's directory */
	int err;			/* 0, or -errno: could not be read */
	char errfile[48];		/* the file that failed */
	uint32_t raw[32];		/* RTUNE_SURF_MAX_FILES values */
	uint32_t raw_valid;		/* bit i: raw[i] was read */
	bool ro;			/* files without a write bit (ro_by_mode) */
	char unused[160];		/* another surface of the device, not used */
	char pci[32];			/* the RDMA device's PCI function (BDF) */
	struct rtune_hwnv nv;		/* mlx5: its firmware's next-boot values */
	struct rtune_hwld ld;		/* irdma: the module parameters it loaded with */
	int sel;			/* ionic: the profile match_default names */
	char errwhy[200];		/* with err: why, when the errno does not say */
	char refuse[240];		/* readable, but not to be written: why */
};

/* A devlink parameter as read: the values of the cmodes it supports. */
struct rtune_dl_param {
	bool present;		/* the instance has the parameter */
	uint8_t cmodes;		/* bit c: DEVLINK_PARAM_CMODE_c has a value */
	bool val[3];		/* runtime, driverinit, permanent */
};

/* The devlink instance and port of a netdev (devlink.c). */
struct rtune_devlink {
	bool ok;		/* a devlink port has this netdev */
	int err;		/* -errno when devlink could not be read */
	char bus[32];		/* handle: bus and device name, e.g. pci */
	char dev[64];		/* 0000:08:00.0 */
	uint32_t port;		/* port index */
	int phys_port;		/* flavour physical: its port_number (mlx5: the
				 * firmware's native port - 1); -1: another
				 * flavour; -2: no flavour reported */
	struct rtune_dl_param roce, iwarp;	/* enable_roce, enable_iwarp */
	bool has_fn_roce;	/* the port function reports the roce cap */
	bool fn_roce;
};

struct rtune_link {
	char netdev[16];
	int ifindex;
	bool link_ok;
	uint32_t mtu;

	bool has_ib;
	/* the port's active MTU (ibport.c), bytes; only with has_ib;
	 * roce_mtu_err: 0 or the negative errno of the read */
	bool roce_mtu_ok;
	uint32_t roce_active_mtu;
	int roce_mtu_err;
	char ibdev[64];
	uint32_t port;

	struct rtune_dcb dcb;

	/* ETHTOOL_PFC_PREVENTION_TOUT (obj_pfc_storm.c): 0 or -errno reading
	 * it (-EOPNOTSUPP: the driver has no such tunable); ms, 0 = off */
	int pfc_storm_err;
	uint16_t pfc_storm_ms;

	bool cm_ok;		/* rdma_cm configfs readable for this port */
	int roce_mode;		/* 1, 2, 0 = unknown */
	int tos;

	bool cc_ok;		/* rocetune.ko configfs present for this port */
	char cc_backend[32];	/* rocetune.ko's "backend": "none" = no DCQCN of its own */
	char cc_driver[32];	/* rocetune.ko's "driver" (with cc_ok), for messages */
	struct rtune_param_set cc;	/* active values */
	uint32_t cc_valid;	/* bit i: cc.v[i] was read */
	struct rtune_hwcc hw;	/* set when the CC goes through a vendor surface */

	struct rtune_devlink dl;
};

#define RTUNE_MAX_DEVS 256

struct rtune_host {
	struct rtune_link dev[RTUNE_MAX_DEVS];
	int n;
	/* What host_collect looked at, to say so when nothing matched. */
	int nlinks;		/* netdevs other than lo */
	char links[8][16];	/* the first of them */
	int nrdma;		/* RDMA ports found; -errno if RDMA netlink failed */
	int dcb_err;		/* a netdev's dcbnl error when none answered */
};

/* Count of state-changing writes sent this run (netlink sets, configfs writes). */
extern unsigned long rtune_writes;

#endif
