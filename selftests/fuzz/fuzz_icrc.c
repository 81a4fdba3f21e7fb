// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 packet parsing shared by rocetune.ko and userspace (kmod/core/
 * icrc.c): rtune_icrc_compute() and rtune_icrc_valid() on any bytes
 * starting at the IP header, and a round trip: a packet that computes an
 * ICRC must validate once that ICRC is appended.
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
		if (!rtune_icrc_valid(pkt, size + RTUNE_ICRC_LEN))
			abort();	/* compute and valid disagree */
	}
	free(pkt);
	return 0;
}
