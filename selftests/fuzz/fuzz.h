/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the libFuzzer harnesses: turn fuzzer bytes into a netlink
 * message the parsers will look at.
 */
#ifndef ROCETUNE_FUZZ_H
#define ROCETUNE_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>

/*
 * Copy @data into a fresh, exactly sized and aligned heap buffer (so ASan
 * sees any read past the end) holding at least a struct nlmsghdr, and fix
 * nlmsg_len to the buffer size: a receiver only hands a parser messages
 * whose length fits what was read, so a lying header never reaches it.
 * @type, if nonzero, replaces nlmsg_type. Free the result.
 */
static inline struct nlmsghdr *fuzz_nlmsg(const uint8_t *data, size_t size, uint16_t type)
{
	size_t len = size < NLMSG_HDRLEN ? NLMSG_HDRLEN : size;
	struct nlmsghdr *h;

	if (len > UINT32_MAX)
		return NULL;
	h = calloc(1, len);
	if (!h)
		return NULL;
	memcpy(h, data, size);
	h->nlmsg_len = (uint32_t)len;
	if (type)
		h->nlmsg_type = type;
	return h;
}

#endif
