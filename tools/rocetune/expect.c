// SPDX-License-Identifier: GPL-2.0
/*
 * [link] expect_speed and expect_lanes: the link the profile's design
 * relies on (a 100G fabric, 4 lanes). apply, diff and watch ignore them:
 * a speed is trained, not set, and a port that trains below it is a fault
 * to find (`rocetune doctor`'s slow-link), not a setting to write.
 */
#include <stdio.h>
#include "expect.h"

/*
 * "100000" (Mb/s, ethtool's unit), "100000M", "100G", "2.5G" (at most
 * three decimals, with G only; M and G in either case). 0 or -1.
 */
static int parse_speed(const char *v, uint32_t *out)
{
	unsigned long long x = 0, frac = 0, scale = 1;
	const char *s = v;
	int ndig = 0, nfrac = 0;

	for (; *s >= '0' && *s <= '9'; s++, ndig++) {
		x = x * 10 + (unsigned long long)(*s - '0');
		if (x > RTUNE_EXPECT_SPEED_MAX)
			return -1;
	}
	if (!ndig)
		return -1;
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, nfrac++) {
			if (nfrac == 3)
				return -1;
			frac = frac * 10 + (unsigned long long)(*s - '0');
		}
		if (!nfrac || (*s != 'G' && *s != 'g'))
			return -1;
	}
	if (*s == 'G' || *s == 'g') {
		while (nfrac++ < 3)
			scale *= 10;
		x = x * 1000 + frac * scale;
		s++;
	} else if (*s == 'M' || *s == 'm') {
		s++;
	}
	if (*s || x < RTUNE_EXPECT_SPEED_MIN || x > RTUNE_EXPECT_SPEED_MAX)
		return -1;
	*out = (uint32_t)x;
	return 0;
}

int rtune_k_expect_speed(struct rtune_pctx *c, const char *v)
{
	uint32_t mbps;

	if (parse_speed(v, &mbps)) {
		rtune_key_err(c, "bad-value",
			      "'%s' is not a link speed: expected 10M..1600G, like 100G, 25G, 2.5G or 100000 (Mb/s, as ethtool reports it)",
			      v);
		return -1;
	}
	c->p->has_expect_speed = true;
	c->p->expect_speed = mbps;
	c->p->w_expect_speed.line = c->line;
	return 0;
}

int rtune_k_expect_lanes(struct rtune_pctx *c, const char *v)
{
	unsigned long x;

	if (rtune_parse_uint(v, 1, RTUNE_EXPECT_LANES_MAX, &x)) {
		rtune_key_err(c, "bad-value", "'%s' is not a lane count: expected 1..%u (100000baseCR4: 4)",
			      v, RTUNE_EXPECT_LANES_MAX);
		return -1;
	}
	c->p->has_expect_lanes = true;
	c->p->expect_lanes = (uint32_t)x;
	c->p->w_expect_lanes.line = c->line;
	return 0;
}

void rtune_fmt_speed(char *buf, size_t len, uint32_t mbps)
{
	if (mbps >= 1000 && mbps % 1000 == 0)
		snprintf(buf, len, "%uG", mbps / 1000);
	else if (mbps >= 1000 && mbps % 100 == 0)
		snprintf(buf, len, "%u.%uG", mbps / 1000, (mbps % 1000) / 100);
	else
		snprintf(buf, len, "%uM", mbps);
}
