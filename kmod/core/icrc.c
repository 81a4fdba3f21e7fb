// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RoCEv2 ICRC with its own table-driven CRC-32, so that the module and the
 * host unit tests compute it with the same code. See icrc.h.
 */
#include "icrc.h"

#define RTUNE_CRC32_POLY	0xedb88320u

/* Filled on first use (the module fills it at load, before any hook). */
static u32 rtune_crc32_table[256];
static bool rtune_crc32_ready;

static void rtune_crc32_init(void)
{
	u32 i, j, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = (c & 1) ? (c >> 1) ^ RTUNE_CRC32_POLY : c >> 1;
		rtune_crc32_table[i] = c;
	}
	rtune_crc32_ready = true;
}

u32 rtune_crc32_update(u32 crc, const u8 *p, size_t len)
{
	size_t i;

	/*
	 * Filling the table twice concurrently writes the same values, so
	 * the racy first use is harmless; the module also fills it at load.
	 */
	if (!rtune_crc32_ready)
		rtune_crc32_init();
	for (i = 0; i < len; i++)
		crc = rtune_crc32_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return crc;
}

int rtune_icrc_begin(const u8 *pkt, size_t len, size_t *hlen, u32 *crc)
{
	/* The largest masked prefix: IPv4 with options, UDP, BTH. */
	u8 hdr[RTUNE_ICRC_MAX_HLEN];
	static const u8 lrh[8] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	};
	size_t iplen, n;
	u8 *bth;

	if (len < 1)
		return -EINVAL;
	switch (rtune_ip_version(pkt)) {
	case 4:
		iplen = rtune_ipv4_hlen(pkt);
		if (iplen < RTUNE_IPV4_MIN_HLEN || len < iplen ||
		    pkt[RTUNE_IPV4_OFF_PROTO] != RTUNE_IPPROTO_UDP)
			return -EINVAL;
		break;
	case 6:
		iplen = RTUNE_IPV6_HLEN;
		if (len < iplen || pkt[RTUNE_IPV6_OFF_NEXTHDR] != RTUNE_IPPROTO_UDP)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	n = iplen + RTUNE_UDP_HLEN + RTUNE_BTH_LEN;
	if (len < n)
		return -EINVAL;
	memcpy(hdr, pkt, n);
	if (rtune_ip_version(pkt) == 4) {
		hdr[RTUNE_IPV4_OFF_TOS] = 0xff;
		hdr[RTUNE_IPV4_OFF_TTL] = 0xff;
		hdr[RTUNE_IPV4_OFF_CSUM] = 0xff;
		hdr[RTUNE_IPV4_OFF_CSUM + 1] = 0xff;
	} else {
		/* Traffic class and flow label: all but the version nibble. */
		hdr[0] |= 0x0f;
		hdr[1] = 0xff;
		hdr[2] = 0xff;
		hdr[3] = 0xff;
		hdr[RTUNE_IPV6_OFF_HOPLIMIT] = 0xff;
	}
	hdr[iplen + RTUNE_UDP_OFF_CSUM] = 0xff;
	hdr[iplen + RTUNE_UDP_OFF_CSUM + 1] = 0xff;
	bth = hdr + iplen + RTUNE_UDP_HLEN;
	bth[RTUNE_BTH_OFF_FLAGS] = 0xff;	/* FECN, BECN, reserved */

	*crc = rtune_crc32_update(0xffffffffu, lrh, sizeof(lrh));
	*crc = rtune_crc32_update(*crc, hdr, n);
	*hlen = n;
	return 0;
}

int rtune_icrc_compute(const u8 *pkt, size_t len, u32 *icrc)
{
	size_t hlen;
	u32 crc;

	if (rtune_icrc_begin(pkt, len, &hlen, &crc))
		return -EINVAL;
	crc = rtune_crc32_update(crc, pkt + hlen, len - hlen);
	*icrc = ~crc;
	return 0;
}

void rtune_icrc_put(u8 *p, u32 icrc)
{
	p[0] = (u8)icrc;
	p[1] = (u8)(icrc >> 8);
	p[2] = (u8)(icrc >> 16);
	p[3] = (u8)(icrc >> 24);
}

bool rtune_icrc_valid(const u8 *pkt, size_t len)
{
	u8 want[RTUNE_ICRC_LEN];
	u32 icrc;

	if (len < RTUNE_ICRC_LEN ||
	    rtune_icrc_compute(pkt, len - RTUNE_ICRC_LEN, &icrc))
		return false;
	rtune_icrc_put(want, icrc);
	return !memcmp(want, pkt + len - RTUNE_ICRC_LEN, RTUNE_ICRC_LEN);
}
