/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The RoCEv2 wire format as rocetune reads and writes it: where each field
 * of the IP, UDP and Base Transport Header (BTH) headers is, small inline
 * accessors for the BTH fields, and the layout of a CNP. Everything that
 * looks into a packet byte by byte (the hooks, pacing, CNP building, the
 * ICRC) uses these instead of its own offsets.
 *
 * Byte order: the accessors read and write network byte order byte by
 * byte, so they need no alignment and no kernel helpers. Pure C: built
 * into rocetune.ko and the host unit tests (selftests/unit/test_wire.c).
 *
 * BTH (InfiniBand Architecture Specification, vol. 1; 12 bytes):
 *
 *   byte 0      OpCode
 *   byte 1      SE (bit 7), MigReq (bit 6), PadCnt (bits 5-4), TVer (3-0)
 *   bytes 2-3   P_Key
 *   byte 4      FECN (bit 7), BECN (bit 6), reserved (5-0)   [RoCEv2]
 *   bytes 5-7   DestQP
 *   byte 8      AckReq (bit 7), reserved (6-0)
 *   bytes 9-11  PSN
 *
 * A RoCEv2 CNP (the specification's RoCEv2 annex): UDP to ROCE_V2_UDP_DPORT | BTH with
 * opcode 0x81, BECN set, DestQP = the QP whose traffic was marked, PSN 0
 * | 16 reserved zero bytes | ICRC.
 */
#ifndef _ROCETUNE_CORE_WIRE_H
#define _ROCETUNE_CORE_WIRE_H

#include "types.h"

#ifdef __KERNEL__
#include <rdma/ib_verbs.h>	/* ROCE_V2_UDP_DPORT */
#else
#ifndef ROCE_V2_UDP_DPORT
#define ROCE_V2_UDP_DPORT	4791
#endif
#endif

/* IPv4 (RFC 791): the fields the ICRC masks or checks. */
#define RTUNE_IPV4_MIN_HLEN	20
#define RTUNE_IPV4_MAX_HLEN	60
#define RTUNE_IPV4_OFF_TOS	1
#define RTUNE_IPV4_OFF_TTL	8
#define RTUNE_IPV4_OFF_PROTO	9
#define RTUNE_IPV4_OFF_CSUM	10	/* 2 bytes */

/* IPv6 (RFC 8200): traffic class and flow label span bits 4..31. */
#define RTUNE_IPV6_HLEN		40
#define RTUNE_IPV6_OFF_NEXTHDR	6
#define RTUNE_IPV6_OFF_HOPLIMIT	7

#define RTUNE_IPPROTO_UDP	17

/* UDP (RFC 768). */
#define RTUNE_UDP_HLEN		8
#define RTUNE_UDP_OFF_SPORT	0
#define RTUNE_UDP_OFF_DPORT	2
#define RTUNE_UDP_OFF_LEN	4
#define RTUNE_UDP_OFF_CSUM	6

/* BTH. */
#define RTUNE_BTH_LEN		12
#define RTUNE_BTH_OFF_OPCODE	0
#define RTUNE_BTH_OFF_PKEY	2
#define RTUNE_BTH_OFF_FLAGS	4	/* FECN, BECN, reserved */
#define RTUNE_BTH_OFF_DQPN	5
#define RTUNE_BTH_OFF_ACKREQ	8
#define RTUNE_BTH_OFF_PSN	9
#define RTUNE_BTH_FECN		0x80	/* in byte RTUNE_BTH_OFF_FLAGS */
#define RTUNE_BTH_BECN		0x40	/* in byte RTUNE_BTH_OFF_FLAGS */
#define RTUNE_BTH_ACKREQ	0x80	/* in byte RTUNE_BTH_OFF_ACKREQ */
#define RTUNE_BTH_QPN_MASK	0xffffffu
#define RTUNE_BTH_PSN_MASK	0xffffffu

#define RTUNE_BTH_OPCODE_CNP	0x81
/* Opcodes below this are RC (0x00-0x1f) and UC (0x20-0x3f); RD starts here. */
#define RTUNE_BTH_OPCODE_RD	0x40

/* CNP: the reserved bytes after the BTH, and the ICRC after them. */
#define RTUNE_CNP_PAD		16
#define RTUNE_ICRC_LEN		4
/* Everything a CNP carries after its IP header. */
#define RTUNE_CNP_L4LEN		(RTUNE_UDP_HLEN + RTUNE_BTH_LEN + RTUNE_CNP_PAD + \
				 RTUNE_ICRC_LEN)

/* Big-endian fields of 16 and 24 bits, any alignment. */
static inline u16 rtune_get_be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static inline void rtune_put_be16(u8 *p, u16 v)
{
	p[0] = (u8)((v >> 8) & 0xff);
	p[1] = (u8)(v & 0xff);
}

static inline u32 rtune_get_be24(const u8 *p)
{
	return (u32)p[0] << 16 | (u32)p[1] << 8 | p[2];
}

static inline void rtune_put_be24(u8 *p, u32 v)
{
	p[0] = (u8)((v >> 16) & 0xff);
	p[1] = (u8)((v >> 8) & 0xff);
	p[2] = (u8)(v & 0xff);
}

/* IP header at @ip: its version (4 or 6), and an IPv4 header's length. */
static inline u8 rtune_ip_version(const u8 *ip)
{
	return ip[0] >> 4;
}

static inline size_t rtune_ipv4_hlen(const u8 *ip)
{
	return (size_t)(ip[0] & 0x0f) * 4;
}

/* UDP header at @udp. */
static inline u16 rtune_udp_dport(const u8 *udp)
{
	return rtune_get_be16(udp + RTUNE_UDP_OFF_DPORT);
}

/* BTH at @bth: readers. */
static inline u8 rtune_bth_opcode(const u8 *bth)
{
	return bth[RTUNE_BTH_OFF_OPCODE];
}

static inline u16 rtune_bth_pkey(const u8 *bth)
{
	return rtune_get_be16(bth + RTUNE_BTH_OFF_PKEY);
}

static inline bool rtune_bth_fecn(const u8 *bth)
{
	return bth[RTUNE_BTH_OFF_FLAGS] & RTUNE_BTH_FECN;
}

static inline bool rtune_bth_becn(const u8 *bth)
{
	return bth[RTUNE_BTH_OFF_FLAGS] & RTUNE_BTH_BECN;
}

static inline u32 rtune_bth_dqpn(const u8 *bth)
{
	return rtune_get_be24(bth + RTUNE_BTH_OFF_DQPN);
}

static inline bool rtune_bth_ackreq(const u8 *bth)
{
	return bth[RTUNE_BTH_OFF_ACKREQ] & RTUNE_BTH_ACKREQ;
}

static inline u32 rtune_bth_psn(const u8 *bth)
{
	return rtune_get_be24(bth + RTUNE_BTH_OFF_PSN);
}

/* BTH at @bth: writers; each changes its own field only. */
static inline void rtune_bth_set_opcode(u8 *bth, u8 opcode)
{
	bth[RTUNE_BTH_OFF_OPCODE] = opcode;
}

static inline void rtune_bth_set_pkey(u8 *bth, u16 pkey)
{
	rtune_put_be16(bth + RTUNE_BTH_OFF_PKEY, pkey);
}

static inline void rtune_bth_set_becn(u8 *bth, bool on)
{
	if (on)
		bth[RTUNE_BTH_OFF_FLAGS] |= RTUNE_BTH_BECN;
	else
		bth[RTUNE_BTH_OFF_FLAGS] &= (u8)(~RTUNE_BTH_BECN & 0xff);
}

static inline void rtune_bth_set_dqpn(u8 *bth, u32 qpn)
{
	rtune_put_be24(bth + RTUNE_BTH_OFF_DQPN, qpn & RTUNE_BTH_QPN_MASK);
}

static inline void rtune_bth_set_psn(u8 *bth, u32 psn)
{
	rtune_put_be24(bth + RTUNE_BTH_OFF_PSN, psn & RTUNE_BTH_PSN_MASK);
}

/*
 * Write a CNP's UDP header, BTH and padding at @l4 (RTUNE_CNP_L4LEN bytes
 * minus the ICRC): from UDP port @sport to ROCE_V2_UDP_DPORT, checksum 0;
 * opcode 0x81, P_Key 0xffff, BECN, DestQP @dqpn, AckReq 0, PSN 0.
 */
static inline void rtune_cnp_fill_l4(u8 *l4, u16 sport, u32 dqpn)
{
	u8 *bth = l4 + RTUNE_UDP_HLEN;

	rtune_put_be16(l4 + RTUNE_UDP_OFF_SPORT, sport);
	rtune_put_be16(l4 + RTUNE_UDP_OFF_DPORT, ROCE_V2_UDP_DPORT);
	rtune_put_be16(l4 + RTUNE_UDP_OFF_LEN, RTUNE_CNP_L4LEN);
	rtune_put_be16(l4 + RTUNE_UDP_OFF_CSUM, 0);
	memset(bth, 0, RTUNE_BTH_LEN + RTUNE_CNP_PAD);
	rtune_bth_set_opcode(bth, RTUNE_BTH_OPCODE_CNP);
	rtune_bth_set_pkey(bth, 0xffff);
	rtune_bth_set_becn(bth, true);
	rtune_bth_set_dqpn(bth, dqpn);
}

/*
 * Addresses as the datapath keeps them: 16 bytes, an IPv6 address or an
 * IPv4 one as IPv4-mapped (::ffff:a.b.c.d), with the packet's family
 * (@v6) beside them, since the bytes alone do not say which it came in.
 */
static inline bool rtune_addr_v4mapped(const u8 *a)
{
	static const u8 prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(a, prefix, sizeof(prefix));
}

/*
 * Whether a packet of family @v6 from @saddr comes from the peer @peer
 * (of family @peer_v6): same family, same address. An IPv6 packet from an
 * IPv4-mapped source is nobody's peer: no host sends from one, so it can
 * only be a forgery aimed at the stored form of an IPv4 peer. Linux's IPv6
 * input does not drop such packets (6.1's ip6_rcv_core() has no check; in
 * the lab they reach the filter table and this hook, see storm.sh).
 */
static inline bool rtune_addr_from_peer(bool v6, const u8 *saddr, bool peer_v6,
					const u8 *peer)
{
	if (v6 != peer_v6 || (v6 && rtune_addr_v4mapped(saddr)))
		return false;
	return !memcmp(saddr, peer, 16);
}

/*
 * Whether @a (family @v6) may be the source of a packet the module sends:
 * unicast. Refused for IPv4: 0/8, 127/8, multicast (224/4), 240/4 and the
 * limited broadcast, and an address not stored IPv4-mapped; for IPv6:
 * multicast (ff00::/8), ::, ::1 and IPv4-mapped addresses. (A subnet's
 * directed broadcast needs the routing table: the hook checks that.)
 */
static inline bool rtune_addr_unicast(bool v6, const u8 *a)
{
	static const u8 zero[15];

	if (!v6) {
		if (!rtune_addr_v4mapped(a))
			return false;
		return a[12] != 0 && a[12] != 127 && a[12] < 224;
	}
	if (a[0] == 0xff || rtune_addr_v4mapped(a))
		return false;
	return memcmp(a, zero, sizeof(zero)) || a[15] > 1;
}

#endif /* _ROCETUNE_CORE_WIRE_H */
