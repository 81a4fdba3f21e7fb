// SPDX-License-Identifier: GPL-2.0
/*
 * The wire-format accessors of kmod/core/wire.h against known bytes:
 *  - a BTH whose twelve bytes all differ, so that an accessor reading the
 *    wrong offset, width or byte order returns a different value;
 *  - the headers of packets dissected independently: the Scapy-style
 *    reference CNPs of test_icrc.c (tshark 4.0: opcode 0x81, P_Key
 *    0xffff, BECN set, DestQP as given) and an RC ACK rxe sent;
 *  - each writer on a patterned buffer changes its own bytes only;
 *  - rtune_cnp_fill_l4() builds exactly the UDP header, BTH and padding
 *    of the reference IPv4 CNP;
 *  - the address checks of the hooks: a packet is its QP's peer's only in
 *    the peer's family and from the peer's exact address (never from an
 *    IPv4-mapped IPv6 source), and a CNP is only ever sent from a unicast
 *    address.
 */
#include <stdlib.h>

#include "../lib/tap.h"
#include "wire.h"

static size_t unhex(const char *s, u8 *out, size_t max)
{
	size_t n = 0;

	while (s[0] && s[1] && n < max) {
		char b[3] = { s[0], s[1], 0 };

		out[n++] = (u8)strtoul(b, NULL, 16);
		s += 2;
	}
	return n;
}

static void test_distinct_bytes(void)
{
	/* SE|PadCnt 2|TVer 5, FECN only, AckReq: every byte different. */
	static const u8 bth[RTUNE_BTH_LEN] = {
		0x64, 0xa5, 0x12, 0x34, 0x80, 0x56, 0x78, 0x9a,
		0x81, 0xbc, 0xde, 0xf0,
	};
	u8 becn[RTUNE_BTH_LEN];

	tap_check(rtune_bth_opcode(bth) == 0x64, "opcode is byte 0 (got 0x%x)",
		  rtune_bth_opcode(bth));
	tap_check(rtune_bth_pkey(bth) == 0x1234, "P_Key is bytes 2-3, big endian (got 0x%x)",
		  rtune_bth_pkey(bth));
	tap_check(rtune_bth_fecn(bth) && !rtune_bth_becn(bth),
		  "FECN is bit 7 of byte 4, BECN is not");
	memcpy(becn, bth, sizeof(becn));
	becn[4] = 0x40;
	tap_check(rtune_bth_becn(becn) && !rtune_bth_fecn(becn),
		  "BECN is bit 6 of byte 4, FECN is not");
	becn[4] = 0x3f;
	tap_check(!rtune_bth_becn(becn) && !rtune_bth_fecn(becn),
		  "the reserved bits of byte 4 are neither");
	tap_check(rtune_bth_dqpn(bth) == 0x56789a, "DestQP is bytes 5-7, big endian (got 0x%x)",
		  rtune_bth_dqpn(bth));
	tap_check(rtune_bth_ackreq(bth), "AckReq is bit 7 of byte 8");
	becn[8] = 0x7f;
	tap_check(!rtune_bth_ackreq(becn), "byte 8's other bits are not AckReq");
	tap_check(rtune_bth_psn(bth) == 0xbcdef0, "PSN is bytes 9-11, big endian (got 0x%x)",
		  rtune_bth_psn(bth));
	tap_check(rtune_get_be16(bth + 2) == 0x1234 && rtune_get_be24(bth + 5) == 0x56789a,
		  "be16/be24 read big endian at any alignment");
}

static const struct pkt {
	const char *name;
	const char *hex;
	unsigned int version, l4off;
	u16 dport;
	u8 opcode;
	u16 pkey;
	bool becn, ackreq;
	u32 dqpn, psn;
} pkts[] = {
	{
		"IPv4 CNP to QP 0x11 (Scapy-style reference)",
		"45c0003c000040004011abc9c6120101c6120102c00112b700280000"
		"8100ffff400000110000000000000000000000000000000000000000fd08032c",
		4, 20, 4791, 0x81, 0xffff, true, false, 0x11, 0,
	},
	{
		"IPv6 CNP to QP 0xabcdef (Scapy-style reference)",
		"6c01234500281140200100020000000000000000000000012001000200"
		"0000000000000000000002c00112b7002800008100ffff40abcdef0000"
		"000000000000000000000000000000000000b895778c",
		6, 40, 4791, 0x81, 0xffff, true, false, 0xabcdef, 0,
	},
	{
		"IPv4 RC ACK sent by rxe",
		"45020030c64640004011e64cc6120101c6120102c12112b7001c0000"
		"1100ffff0000001100ad7dec1f000001d65d0606",
		4, 20, 4791, 0x11, 0xffff, false, false, 0x11, 0xad7dec,
	},
};

static void test_packets(void)
{
	unsigned int i;
	u8 p[256];

	for (i = 0; i < ARRAY_SIZE(pkts); i++) {
		const struct pkt *k = &pkts[i];
		const u8 *udp, *bth;

		unhex(k->hex, p, sizeof(p));
		tap_check(rtune_ip_version(p) == k->version &&
			  (k->version != 4 || rtune_ipv4_hlen(p) == k->l4off),
			  "%s: IP version %u, header %u bytes", k->name, k->version, k->l4off);
		udp = p + k->l4off;
		bth = udp + RTUNE_UDP_HLEN;
		tap_check(rtune_udp_dport(udp) == k->dport && k->dport == ROCE_V2_UDP_DPORT,
			  "%s: UDP destination port %u (got %u)", k->name, k->dport,
			  rtune_udp_dport(udp));
		tap_check(rtune_bth_opcode(bth) == k->opcode && rtune_bth_pkey(bth) == k->pkey &&
			  rtune_bth_becn(bth) == k->becn && !rtune_bth_fecn(bth) &&
			  rtune_bth_ackreq(bth) == k->ackreq && rtune_bth_dqpn(bth) == k->dqpn &&
			  rtune_bth_psn(bth) == k->psn,
			  "%s: opcode 0x%02x P_Key 0x%x BECN %d DestQP 0x%x PSN 0x%x (got 0x%02x 0x%x %d 0x%x 0x%x)",
			  k->name, k->opcode, k->pkey, k->becn, k->dqpn, k->psn,
			  rtune_bth_opcode(bth), rtune_bth_pkey(bth), rtune_bth_becn(bth),
			  rtune_bth_dqpn(bth), rtune_bth_psn(bth));
	}
}

/* Fill with a pattern no writer produces, write, compare with @want. */
static int writes(void (*set)(u8 *bth), const char *want_hex)
{
	u8 b[RTUNE_BTH_LEN], want[RTUNE_BTH_LEN];
	unsigned int i;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (u8)(0x11 * i + 0x0e);
	unhex(want_hex, want, sizeof(want));
	set(b);
	return !memcmp(b, want, sizeof(b));
}

static void set_opcode(u8 *b) { rtune_bth_set_opcode(b, 0x81); }
static void set_pkey(u8 *b) { rtune_bth_set_pkey(b, 0xabcd); }
static void set_becn(u8 *b) { b[4] = 0x92; rtune_bth_set_becn(b, true); }
static void clear_becn(u8 *b) { b[4] = 0xff; rtune_bth_set_becn(b, false); }
static void set_dqpn(u8 *b) { rtune_bth_set_dqpn(b, 0xfe123456); }
static void set_psn(u8 *b) { rtune_bth_set_psn(b, 0x00abcdef); }

static void test_writers(void)
{
	/* The pattern: 0e 1f 30 41 52 63 74 85 96 a7 b8 c9. */
	tap_check(writes(set_opcode, "811f30415263748596a7b8c9"), "set_opcode writes byte 0 only");
	tap_check(writes(set_pkey, "0e1fabcd5263748596a7b8c9"), "set_pkey writes bytes 2-3 only");
	tap_check(writes(set_becn, "0e1f3041d263748596a7b8c9") &&
		  writes(clear_becn, "0e1f3041bf63748596a7b8c9"),
		  "set_becn sets and clears bit 6 of byte 4 only");
	tap_check(writes(set_dqpn, "0e1f304152123456" "96a7b8c9"),
		  "set_dqpn writes 24 bits to bytes 5-7 only");
	tap_check(writes(set_psn, "0e1f30415263748596abcdef"), "set_psn writes bytes 9-11 only");
}

static void test_cnp(void)
{
	u8 ref[128], l4[RTUNE_CNP_L4LEN];
	size_t n = unhex(pkts[0].hex, ref, sizeof(ref));

	memset(l4, 0xee, sizeof(l4));
	rtune_cnp_fill_l4(l4, 0xc001, 0x11);
	tap_check(n == 20 + RTUNE_CNP_L4LEN &&
		  !memcmp(l4, ref + 20, RTUNE_CNP_L4LEN - RTUNE_ICRC_LEN),
		  "cnp_fill_l4 builds the reference CNP's UDP header, BTH and padding");
	tap_check(l4[RTUNE_CNP_L4LEN - 1] == 0xee,
		  "cnp_fill_l4 leaves the ICRC to the caller");
	rtune_cnp_fill_l4(l4, 0xc001, 0xff000011);
	tap_check(rtune_bth_dqpn(l4 + RTUNE_UDP_HLEN) == 0x11 &&
		  rtune_bth_becn(l4 + RTUNE_UDP_HLEN),
		  "cnp_fill_l4 keeps the QPN to 24 bits and BECN set");
}

/* @s: dotted IPv4 or a short IPv6 form with "::" (test inputs only). */
static void addr(const char *s, u8 a[16])
{
	unsigned int b[4];

	memset(a, 0, 16);
	if (sscanf(s, "%u.%u.%u.%u", &b[0], &b[1], &b[2], &b[3]) == 4) {
		a[10] = a[11] = 0xff;
		for (int i = 0; i < 4; i++)
			a[12 + i] = (u8)b[i];
		return;
	}
	/* "H::L" or "::ffff:a.b.c.d" or "::L": enough for the cases below. */
	if (!strncmp(s, "::ffff:", 7)) {
		addr(s + 7, a);
		return;
	}
	if (s[0] != ':') {
		unsigned int h = (unsigned int)strtoul(s, NULL, 16);

		a[0] = (u8)(h >> 8);
		a[1] = (u8)h;
	}
	s = strstr(s, "::") + 2;
	if (*s) {
		unsigned int l = (unsigned int)strtoul(s, NULL, 16);

		a[14] = (u8)(l >> 8);
		a[15] = (u8)l;
	}
}

static void test_addr(void)
{
	static const struct {
		bool v6;
		const char *src;
		bool peer_v6;
		const char *peer;
		bool match;
		const char *what;
	} peers[] = {
		{ false, "198.18.1.2", false, "198.18.1.2", true, "IPv4 from the IPv4 peer" },
		{ false, "198.18.1.9", false, "198.18.1.2", false, "IPv4 from another IPv4 host" },
		{ true, "::ffff:198.18.1.2", false, "198.18.1.2", false,
		  "IPv6 from ::ffff:<the IPv4 peer>" },
		{ true, "::ffff:198.18.1.2", true, "::ffff:198.18.1.2", false,
		  "IPv6 from a v4-mapped source, whatever is stored" },
		{ true, "2001::2", true, "2001::2", true, "IPv6 from the IPv6 peer" },
		{ true, "2001::3", true, "2001::2", false, "IPv6 from another IPv6 host" },
		{ false, "198.18.1.2", true, "2001::2", false, "IPv4 for an IPv6 peer" },
	};
	static const struct {
		bool v6;
		const char *a;
		bool unicast;
	} dsts[] = {
		{ false, "198.18.1.1", true },
		{ false, "224.0.0.1", false },
		{ false, "239.1.2.3", false },
		{ false, "255.255.255.255", false },
		{ false, "240.0.0.1", false },
		{ false, "0.0.0.0", false },
		{ false, "127.0.0.1", false },
		{ true, "2001::1", true },
		{ true, "ff02::1", false },
		{ true, "ff05::2", false },
		{ true, "::", false },
		{ true, "::1", false },
		{ true, "::ffff:198.18.1.1", false },
	};
	u8 a[16], b[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(peers); i++) {
		addr(peers[i].src, a);
		addr(peers[i].peer, b);
		tap_check(rtune_addr_from_peer(peers[i].v6, a, peers[i].peer_v6, b) ==
			  peers[i].match, "addr_from_peer: %s: %s", peers[i].what,
			  peers[i].match ? "the peer" : "not the peer");
	}
	for (i = 0; i < ARRAY_SIZE(dsts); i++) {
		addr(dsts[i].a, a);
		tap_check(rtune_addr_unicast(dsts[i].v6, a) == dsts[i].unicast,
			  "addr_unicast: %s (IPv%c) is %s", dsts[i].a, dsts[i].v6 ? '6' : '4',
			  dsts[i].unicast ? "unicast" : "not unicast");
	}
	addr("198.18.1.1", a);
	a[11] = 0;
	tap_check(!rtune_addr_unicast(false, a), "addr_unicast: an IPv4 address not stored v4-mapped");
}

int main(void)
{
	tap_plan(10 + 3 * (int)ARRAY_SIZE(pkts) + 5 + 3 + 7 + 13 + 1);
	test_distinct_bytes();
	test_packets();
	test_writers();
	test_cnp();
	test_addr();
	return tap_done();
}
