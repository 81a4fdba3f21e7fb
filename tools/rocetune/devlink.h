/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devlink over generic netlink (libnl-genl-3): the devlink port of a
 * netdev (DEVLINK_CMD_PORT_GET dump, matched by ifindex), the generic
 * parameters enable_roce and enable_iwarp (DEVLINK_CMD_PARAM_GET/SET) and
 * the port function's roce capability (DEVLINK_CMD_PORT_SET with
 * DEVLINK_PORT_FN_ATTR_CAPS, Linux 6.2+). The reply parsers are separate
 * from the I/O, for the unit tests and the fuzzer.
 */
#ifndef ROCETUNE_DEVLINK_H
#define ROCETUNE_DEVLINK_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/netlink.h>
#include "state.h"

/* uAPI newer than Debian 12's headers (Linux 6.2); the values are ABI. */
#define RTUNE_DL_PORT_FN_ATTR_CAPS	4	/* DEVLINK_PORT_FN_ATTR_CAPS */
#define RTUNE_DL_PORT_FN_CAP_ROCE	1u	/* DEVLINK_PORT_FN_CAP_ROCE */

/* The parameters rocetune manages. */
enum rtune_dl_pid { RTUNE_DL_ENABLE_ROCE, RTUNE_DL_ENABLE_IWARP };
const char *devlink_param_name(enum rtune_dl_pid id);

/* Fill @d->dl for @d->ifindex: port, parameters, port function. Absent
 * devlink (no family, no port for the netdev) leaves dl.ok false. */
void devlink_read_dev(struct rtune_link *d);

/* Set a bool parameter in @cmode (DEVLINK_PARAM_CMODE_*); 0 or -errno. */
int devlink_param_set(const struct rtune_devlink *dl, enum rtune_dl_pid id, int cmode,
		      bool val);
/* Set the port function's roce capability; 0 or -errno. */
int devlink_fn_roce_set(const struct rtune_devlink *dl, bool on);

/* Parsers of one reply message (genl header included); pure. */
/* A PORT_GET reply: 1 if it is the port of @ifindex (@out filled), 0 if
 * another port, -EPROTO if malformed. */
int devlink_parse_port(const struct nlmsghdr *h, int ifindex, struct rtune_devlink *out);
/* A PARAM_GET reply for @name: 0 (@out filled), -ENOENT for another
 * parameter, -EPROTO if malformed. */
int devlink_parse_param(const struct nlmsghdr *h, const char *name, struct rtune_dl_param *out);

#endif
