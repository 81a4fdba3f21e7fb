// SPDX-License-Identifier: GPL-2.0
/*
 * ethtool netlink reply parsers (tools/rocetune/ethtool.c): LINKMODES,
 * LINKSTATE, PAUSE (with stats) and STATS (eth-phy/eth-mac groups). The
 * first byte picks the parser; the rest is the message (fuzz_nlmsg()).
 * With bit 2 of the first byte set, the rest is an `ethtool -S` reading
 * for ethtool_gstats.c's picker instead: N names of 32 bytes then N
 * values (bit 3: one value fewer, counts that disagree).
 */
#include "../../tools/rocetune/ethtool.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int (*const parse[4])(struct nlmsghdr *, void *) = {
		eth_parse_linkmodes, eth_parse_linkstate, eth_parse_pause, eth_parse_stats,
	};
	struct rtune_eth e;
	struct nlmsghdr *h;

	if (size < 1)
		return 0;
	if (data[0] & 4) {
		size_t n = (size - 1) / (RTUNE_ETH_GSTRING_LEN + sizeof(uint64_t));
		uint32_t nv = (uint32_t)n - (n && (data[0] & 8) ? 1 : 0);
		uint64_t *v = calloc(n + 1, sizeof(*v));
		/* exactly the names: ASan sees a read past them */
		char *names = malloc(n ? n * RTUNE_ETH_GSTRING_LEN : 1);

		if (v && names) {
			memcpy(names, data + 1, n * RTUNE_ETH_GSTRING_LEN);
			memcpy(v, data + 1 + n * RTUNE_ETH_GSTRING_LEN, n * sizeof(*v));
			memset(&e, 0, sizeof(e));
			rtune_eth_gstats_pick(names, (uint32_t)n, v, nv, &e);
		}
		free(v);
		free(names);
		return 0;
	}
	h = fuzz_nlmsg(data + 1, size - 1, 0);
	if (!h)
		return 0;
	memset(&e, 0, sizeof(e));
	parse[data[0] & 3](h, &e);
	free(h);
	return 0;
}
