/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Expectations in a profile: what the host's hardware should show, that
 * rocetune checks and never sets. [link] expect_speed and expect_lanes
 * (parsed in expect.c, listed in obj_mtu.c's [link] table) are what the
 * doctor's slow-link compares the link with, besides its advertised modes.
 */
#ifndef ROCETUNE_EXPECT_H
#define ROCETUNE_EXPECT_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"

/* The speeds a profile may expect, in Mb/s: 10 Mb/s to 1.6 Tb/s. */
#define RTUNE_EXPECT_SPEED_MIN	10u
#define RTUNE_EXPECT_SPEED_MAX	1600000u
/* ethtool's lanes: 1..8 */
#define RTUNE_EXPECT_LANES_MAX	8u

/* [link] expect_speed and expect_lanes: 0 or -1 (error added). */
int rtune_k_expect_speed(struct rtune_pctx *c, const char *v);
int rtune_k_expect_lanes(struct rtune_pctx *c, const char *v);

/* A speed in Mb/s as a profile writes it: "100G", "2.5G", "100M". */
void rtune_fmt_speed(char *buf, size_t len, uint32_t mbps);

#endif
