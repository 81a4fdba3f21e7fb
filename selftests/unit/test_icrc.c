// SPDX-License-Identifier: GPL-2.0
/*
 * The RoCEv2 ICRC of kmod/core/icrc.c against packets whose ICRC was
 * computed independently:
 *  - CNPs built by a Python script that follows Scapy's compute_icrc
 *    (zlib.crc32 over 8 x 0xff + the masked headers + the rest), for IPv4
 *    and IPv6; tshark 4.0 dissects them as BTH opcode 0x81, P_Key 0xffff,
 *    BECN set, DestQP as given;
 *  - a packet rxe itself sent in a lab guest (captured with tcpdump), whose
 *    ICRC rxe's receiver accepted.
 * Changing a masked field keeps the ICRC valid; changing any other byte
 * breaks it. The piecewise form (rtune_icrc_begin() on the headers, then
 * the rest in small chunks, as the module reads a non-linear skb) gives the
 * same ICRC.
 */
#include <stdlib.h>

#include "../lib/tap.h"
#include "../../kmod/core/icrc.h"

struct vec {
	const char *name;
	const char *hex;
	/* Offsets of masked bytes (may change) and of covered ones. */
	int masked[6];
	int covered[4];
};

static const struct vec vecs[] = {
	{
		"IPv4 CNP to QP 0x11 (Scapy-style reference)",
		"45c0003c000040004011abc9c6120101c6120102c00112b700280000"
		"8100ffff400000110000000000000000000000000000000000000000fd08032c",
		{ 1, 8, 10, 11, 26, 32 },	/* TOS TTL csum csum udpcsum bth4 */
		{ 2, 12, 35, 50 },		/* tot_len saddr dqpn padding */
	},
	{
		"IPv6 CNP to QP 0xabcdef (Scapy-style reference)",
		"6c01234500281140200100020000000000000000000000012001000200"
		"0000000000000000000002c00112b7002800008100ffff40abcdef0000"
		"000000000000000000000000000000000000b895778c",
		{ 1, 2, 3, 7, 46, 52 },		/* TC/flow label, hop limit, udpcsum, bth4 */
		{ 4, 8, 55, 70 },		/* payload_len saddr dqpn padding */
	},
#include "data/icrc_rxe.inc"
};

static size_t unhex(const char *s, unsigned char *out, size_t max)
{
	size_t n = 0;

	while (s[0] && s[1] && n < max) {
		char b[3] = { s[0], s[1], 0 };

		out[n++] = (unsigned char)strtoul(b, NULL, 16);
		s += 2;
	}
	return n;
}

/* The ICRC of @pkt as the module computes it over a fragmented skb. */
static u32 piecewise(const unsigned char *pkt, size_t len)
{
	size_t hlen, off, n;
	u32 crc;

	if (rtune_icrc_begin(pkt, len < RTUNE_ICRC_MAX_HLEN ? len : RTUNE_ICRC_MAX_HLEN,
			     &hlen, &crc))
		return 0;
	for (off = hlen; off < len; off += n) {
		n = len - off < 7 ? len - off : 7;
		crc = rtune_crc32_update(crc, pkt + off, n);
	}
	return ~crc;
}

int main(void)
{
	unsigned char pkt[2048];
	unsigned int i, j;
	u32 icrc;

	tap_plan((int)(ARRAY_SIZE(vecs) * 5 + 4));
	for (i = 0; i < ARRAY_SIZE(vecs); i++) {
		const struct vec *v = &vecs[i];
		size_t len = unhex(v->hex, pkt, sizeof(pkt));
		unsigned char wire[4];
		int ok = 1;

		tap_check(rtune_icrc_valid(pkt, len), "%s: valid", v->name);
		ok = !rtune_icrc_compute(pkt, len - 4, &icrc);
		rtune_icrc_put(wire, icrc);
		tap_check(ok && !memcmp(wire, pkt + len - 4, 4),
			  "%s: computed ICRC equals the packet's", v->name);
		tap_check(piecewise(pkt, len - 4) == icrc,
			  "%s: piecewise ICRC (7-byte chunks) is the same", v->name);
		ok = 1;
		for (j = 0; j < 6 && v->masked[j]; j++) {
			pkt[v->masked[j]] ^= 0x5a;
			ok &= rtune_icrc_valid(pkt, len);
			pkt[v->masked[j]] ^= 0x5a;
		}
		tap_check(ok, "%s: masked fields do not count", v->name);
		ok = 1;
		for (j = 0; j < 4 && v->covered[j]; j++) {
			pkt[v->covered[j]] ^= 0x01;
			ok &= !rtune_icrc_valid(pkt, len);
			pkt[v->covered[j]] ^= 0x01;
		}
		tap_check(ok, "%s: covered bytes do count", v->name);
	}
	pkt[0] = 0x45;
	tap_check(rtune_icrc_compute(pkt, 10, &icrc) == -EINVAL,
		  "truncated IPv4 header is rejected");
	pkt[0] = 0x55;
	tap_check(rtune_icrc_compute(pkt, 100, &icrc) == -EINVAL,
		  "IP version 5 is rejected");
	tap_check(!rtune_icrc_valid(pkt, 3), "a packet shorter than an ICRC is invalid");
	{
		size_t hlen;
		u32 crc;

		pkt[0] = 0x45;	/* 20-byte IPv4 header, but only 30 bytes */
		pkt[9] = 17;
		tap_check(rtune_icrc_begin(pkt, 30, &hlen, &crc) == -EINVAL,
			  "piecewise: headers cut short are rejected");
	}
	return tap_done();
}
