// SPDX-License-Identifier: GPL-2.0
/*
 * RDMA netlink reply parsers (tools/rocetune/rdma.c): dev_cb() for the
 * NLDEV_CMD_GET dump, port_cb() for NLDEV_CMD_PORT_GET. The first byte
 * picks the parser; the rest is the message (fuzz_nlmsg()).
 */
#include "../../tools/rocetune/rdma.c"	/* the callbacks are static */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct devlist dl;
	struct nlmsghdr *h;
	int which;

	if (size < 1)
		return 0;
	which = data[0] & 1;
	h = fuzz_nlmsg(data + 1, size - 1, 0);
	if (!h)
		return 0;
	if (which == 0) {
		/* a dump fills the list across messages; keep it near full */
		if (dl.n >= 64)
			dl.n = 60;
		dev_cb(h, &dl);
	} else {
		struct rtune_ibport p;

		memset(&p, 0, sizeof(p));
		port_cb(h, &p);
	}
	free(h);
	return 0;
}
