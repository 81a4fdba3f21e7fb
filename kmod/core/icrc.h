/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * RoCEv2 invariant CRC (ICRC): CRC-32 (the Ethernet polynomial, reflected)
 * over 8 bytes of 0xff standing for the masked LRH, then the IP, UDP and
 * BTH headers with their variant fields masked to all ones, then the rest
 * of the packet up to the ICRC. IPv4 masks TOS, TTL and the header
 * checksum; IPv6 masks traffic class, flow label and hop limit; UDP masks
 * its checksum; the BTH masks its byte 4 (FECN, BECN, reserved). The
 * result goes on the wire least significant byte first, as rxe does.
 *
 * Pure C, no kernel dependencies: built into rocetune.ko and the host
 * unit tests.
 */
#ifndef _ROCETUNE_CORE_ICRC_H
#define _ROCETUNE_CORE_ICRC_H

#include "types.h"
#include "wire.h"	/* RTUNE_ICRC_LEN */

/* The longest prefix rtune_icrc_begin() reads: IPv4 with options, UDP, BTH. */
#define RTUNE_ICRC_MAX_HLEN	(RTUNE_IPV4_MAX_HLEN + RTUNE_UDP_HLEN + RTUNE_BTH_LEN)

/* Plain CRC-32 update (reflected, poly 0xedb88320, no final inversion). */
u32 rtune_crc32_update(u32 crc, const u8 *p, size_t len);

/*
 * ICRC of the RoCEv2 packet at @pkt, which starts at its IP header (v4 or
 * v6, told apart by the version nibble) and is @len bytes long without
 * the ICRC. Returns 0 and the ICRC in *@icrc, or -EINVAL if @pkt is too
 * short for its headers or is not IP/UDP.
 */
int rtune_icrc_compute(const u8 *pkt, size_t len, u32 *icrc);

/*
 * The ICRC in pieces, for a packet that is not contiguous (an skb with
 * fragments): @pkt holds its first @len bytes (at least its IP, UDP and BTH
 * headers, at most RTUNE_ICRC_MAX_HLEN are read). Returns 0, the number of
 * header bytes folded in *@hlen and the running CRC in *@crc, or -EINVAL
 * as rtune_icrc_compute(). The caller goes on with rtune_crc32_update()
 * over the rest of the packet (without the ICRC); the ICRC is ~crc.
 */
int rtune_icrc_begin(const u8 *pkt, size_t len, size_t *hlen, u32 *crc);

/* Store @icrc at @p in wire order. */
void rtune_icrc_put(u8 *p, u32 icrc);

/*
 * True if the packet at @pkt (IP header first, @len bytes including the
 * trailing ICRC) carries a correct ICRC.
 */
bool rtune_icrc_valid(const u8 *pkt, size_t len);

#endif /* _ROCETUNE_CORE_ICRC_H */
