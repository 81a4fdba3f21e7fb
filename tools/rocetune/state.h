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
};

struct rtune_link {
	char netdev[16];
	int ifindex;
	bool link_ok;
	uint32_t mtu;

	bool has_ib;
	char ibdev[64];
	uint32_t port;

	struct rtune_dcb dcb;

	bool cm_ok;		/* rdma_cm configfs readable for this port */
	int roce_mode;		/* 1, 2, 0 = unknown */
	int tos;

	bool cc_ok;		/* rocetune.ko configfs present for this port */
	char cc_backend[32];
	struct rtune_param_set cc;	/* active values */
	uint32_t cc_valid;	/* bit i: cc.v[i] was read */
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
