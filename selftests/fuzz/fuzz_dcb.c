// SPDX-License-Identifier: GPL-2.0
/*
 * dcbnl reply parsers (tools/rocetune/dcb.c): dcb_parse_get() for the
 * IEEE_GET reply and set_cb() for the status of an IEEE_SET/DEL. The
 * first byte picks the parser; the rest is the netlink message, its
 * nlmsg_len fixed to the input size (fuzz_nlmsg()).
 */
#include "../../tools/rocetune/dcb.c"	/* set_cb() is static */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nlmsghdr *h;
	int which;

	if (size < 1)
		return 0;
	which = data[0] & 1;
	h = fuzz_nlmsg(data + 1, size - 1, RTM_GETDCB);
	if (!h)
		return 0;
	if (which == 0) {
		struct rtune_dcb out;

		memset(&out, 0, sizeof(out));
		dcb_parse_get(h, &out);
	} else {
		struct set_status st = { 0, 0 };

		set_cb(h, &st);
	}
	free(h);
	return 0;
}
