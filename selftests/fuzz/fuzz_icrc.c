// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 packet parsing shared by rocetune.ko and userspace (kmod/core/
 * icrc.c): rtune_icrc_compute() and rtune_icrc_valid() on any bytes
 * starting at the IP header, and a round trip: a packet that computes an
 * ICRC must validate once that ICRC is appended, and the piecewise form
 * (rtune_icrc_begin() on at most RTUNE_ICRC_MAX_HLEN bytes, then the rest,
 * as the module reads a fragmented skb) must agree with it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/core/icrc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *pkt = malloc(size + RTUNE_ICRC_LEN);
	u32 icrc;

	if (!pkt)
		return 0;
	memcpy(pkt, data, size);
	rtune_icrc_valid(pkt, size);
	if (rtune_icrc_compute(pkt, size, &icrc) == 0) {
		rtune_icrc_put(pkt + size, icrc);
		size_t hlen, n = size < RTUNE_ICRC_MAX_HLEN ? size : RTUNE_ICRC_MAX_HLEN;
		u32 crc;

		if (!rtune_icrc_valid(pkt, size + RTUNE_ICRC_LEN))
			abort();	/* compute and valid disagree */
		if (rtune_icrc_begin(pkt, n, &hlen, &crc) || hlen > size)
			abort();	/* begin refuses what compute took */
		crc = rtune_crc32_update(crc, pkt + hlen, size - hlen);
		if (~crc != icrc)
			abort();	/* piecewise and whole disagree */
	}
	free(pkt);
	return 0;
}
