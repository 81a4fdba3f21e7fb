// SPDX-License-Identifier: GPL-2.0
/* The registry of objects (see obj.h) and helpers they share. */
#include <stdio.h>
#include <string.h>
#include "dcb.h"
#include "obj.h"

/* Write order: devlink first (whether the NIC does RoCE at all), then DCB
 * (ETS, then PFC on the priorities ETS placed and its storm prevention,
 * an ethtool tunable, then the DSCP map and
 * trust, then the rewrite table), the MTU, then the RDMA port's settings. */
const struct rtune_obj *const rtune_objs[] = {
	&rtune_obj_devlink,
	&rtune_obj_ets,
	&rtune_obj_pfc,
	&rtune_obj_pfc_storm,
	&rtune_obj_app,
	&rtune_obj_rewr,
	&rtune_obj_mtu,
	&rtune_obj_cm,
	&rtune_obj_cc,
	NULL,
};

_Static_assert(sizeof(rtune_objs) / sizeof(rtune_objs[0]) <= RTUNE_MAX_OBJS + 1,
	       "RTUNE_MAX_OBJS (plan.h) holds every object");

int rtune_obj_reread_dcb(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a)
{
	int err = dcb_get(sk, d->netdev, &d->dcb);

	if (err)
		snprintf(a->why, sizeof(a->why), "read-back failed: %s", strerror(-err));
	return err;
}

void rtune_fmt_u8s(char *buf, size_t len, const uint8_t *v, int n, bool tsa)
{
	size_t k = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && k < len; i++) {
		if (tsa)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? " " : "",
					      rtune_tsa_name(v[i]));
		else
			k += (size_t)snprintf(buf + k, len - k, "%s%u", i ? " " : "", v[i]);
	}
}
