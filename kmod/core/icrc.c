// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RoCEv2 ICRC with its own table-driven CRC-32, so that the module and the
 * host unit tests compute it with the same code. See icrc.h.
 */
#include "icrc.h"

#define RTUNE_CRC32_POLY	0xedb88320u

#define RTUNE_IPV4_MIN	20
#define RTUNE_IPV6_LEN	40
#define RTUNE_UDP_LEN	8
#define RTUNE_BTH_LEN	12
#define RTUNE_IPPROTO_UDP	17

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

int rtune_icrc_compute(const u8 *pkt, size_t len, u32 *icrc)
{
	/* The largest masked prefix: IPv4 with options, UDP, BTH. */
	u8 hdr[60 + RTUNE_UDP_LEN + RTUNE_BTH_LEN];
	static const u8 lrh[8] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	};
	size_t iplen, hlen;
	u32 crc;

	if (len < 1)
		return -EINVAL;
	switch (pkt[0] >> 4) {
	case 4:
		iplen = (size_t)(pkt[0] & 0x0f) * 4;
		if (iplen < RTUNE_IPV4_MIN || len < iplen || pkt[9] != RTUNE_IPPROTO_UDP)
			return -EINVAL;
		break;
	case 6:
		iplen = RTUNE_IPV6_LEN;
		if (len < iplen || pkt[6] != RTUNE_IPPROTO_UDP)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	hlen = iplen + RTUNE_UDP_LEN + RTUNE_BTH_LEN;
	if (len < hlen)
		return -EINVAL;
	memcpy(hdr, pkt, hlen);
	if ((pkt[0] >> 4) == 4) {
		hdr[1] = 0xff;			/* TOS */
		hdr[8] = 0xff;			/* TTL */
		hdr[10] = 0xff;			/* header checksum */
		hdr[11] = 0xff;
	} else {
		hdr[0] |= 0x0f;			/* traffic class ... */
		hdr[1] = 0xff;			/* ... and flow label */
		hdr[2] = 0xff;
		hdr[3] = 0xff;
		hdr[7] = 0xff;			/* hop limit */
	}
	hdr[iplen + 6] = 0xff;			/* UDP checksum */
	hdr[iplen + 7] = 0xff;
	hdr[iplen + RTUNE_UDP_LEN + 4] = 0xff;	/* BTH FECN, BECN, resv6 */

	crc = rtune_crc32_update(0xffffffffu, lrh, sizeof(lrh));
	crc = rtune_crc32_update(crc, hdr, hlen);
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
