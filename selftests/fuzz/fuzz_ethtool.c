// SPDX-License-Identifier: GPL-2.0
/*
 * ethtool netlink reply parsers (tools/rocetune/ethtool.c): LINKMODES,
 * LINKSTATE, PAUSE (with stats) and STATS (eth-phy/eth-mac groups). The
 * first byte picks the parser; the rest is the message (fuzz_nlmsg()).
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
	h = fuzz_nlmsg(data + 1, size - 1, 0);
	if (!h)
		return 0;
	memset(&e, 0, sizeof(e));
	parse[data[0] & 3](h, &e);
	free(h);
	return 0;
}
