// SPDX-License-Identifier: GPL-2.0
/*
 * RTM_NEWLINK replies as link_foreach()/link_get_mtu() (tools/rocetune/
 * link.c) consume them: the tool leaves the parsing to libnl-route, so this
 * feeds the message to nl_msg_parse() (what the link cache does per
 * message) and reads back name, ifindex and MTU like the tool does. libnl
 * is not instrumented, so coverage feedback is thin here: it mostly checks
 * that what libnl hands the tool is sane.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/route/link.h>
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_obj(struct nl_object *o, void *arg)
{
	struct rtnl_link *l = (struct rtnl_link *)o;
	const char *name = rtnl_link_get_name(l);
	size_t *sum = arg;

	if (name)
		*sum += strnlen(name, 256);
	*sum += (size_t)rtnl_link_get_ifindex(l) + rtnl_link_get_mtu(l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nlmsghdr *h = fuzz_nlmsg(data, size, RTM_NEWLINK);
	struct nl_msg *msg;
	size_t sum = 0;

	if (!h)
		return 0;
	msg = nlmsg_convert(h);
	if (msg) {
		nlmsg_set_proto(msg, NETLINK_ROUTE);
		nl_msg_parse(msg, on_obj, &sum);
		nlmsg_free(msg);
	}
	free(h);
	return 0;
}
