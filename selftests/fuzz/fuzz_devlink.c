// SPDX-License-Identifier: GPL-2.0
/*
 * devlink reply parsers (tools/rocetune/devlink.c): devlink_parse_port()
 * for the DEVLINK_CMD_PORT_GET dump, devlink_parse_param() for
 * DEVLINK_CMD_PARAM_GET. The first byte picks the parser; the rest is the
 * message, genl header included (fuzz_nlmsg()).
 */
#include <stdlib.h>
#include <string.h>
#include "../../tools/rocetune/devlink.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nlmsghdr *h;

	if (size < 1)
		return 0;
	h = fuzz_nlmsg(data + 1, size - 1, 0);
	if (!h)
		return 0;
	if (data[0] & 1) {
		struct rtune_dl_param p;

		memset(&p, 0, sizeof(p));
		devlink_parse_param(h, data[0] & 2 ? "enable_iwarp" : "enable_roce", &p);
	} else {
		struct rtune_devlink d;

		memset(&d, 0, sizeof(d));
		devlink_parse_port(h, data[0] >> 1, &d);
	}
	free(h);
	return 0;
}
