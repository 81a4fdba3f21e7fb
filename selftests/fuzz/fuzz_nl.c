// SPDX-License-Identifier: GPL-2.0
/*
 * The reply loop of rtune_nl_transact() (tools/rocetune/nl.c): sequence
 * filter, NLMSG_ERROR/NLMSG_DONE handling, multipart and nlmsg_ok()
 * walking, with dcb_parse_get() as the callback, or (bit 2 of the first
 * byte) the whole of rtune_root_qdisc_read() (tools/rocetune/qdisc.c), a
 * RTM_GETQDISC dump whose RTM_NEWQDISC replies are parsed for ifindex 7.
 * The first byte's low bits pick the request flags; the rest is one
 * recv() worth of messages, as the kernel would send it. nl_send_auto() and nl_recv() are replaced here (the
 * executable's definitions win over libnl's), so no socket is used.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include "../../tools/rocetune/dcb.h"
#include "../../tools/rocetune/qdisc.h"

#define FUZZ_SEQ 1

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int nl_send_auto(struct nl_sock *sk, struct nl_msg *msg);
int nl_recv(struct nl_sock *sk, struct sockaddr_nl *nla, unsigned char **buf,
	    struct ucred **creds);

static const uint8_t *fz_data;
static size_t fz_size;
static int fz_reads;

int nl_send_auto(struct nl_sock *sk, struct nl_msg *msg)
{
	(void)sk;
	nlmsg_hdr(msg)->nlmsg_seq = FUZZ_SEQ;
	return (int)nlmsg_hdr(msg)->nlmsg_len;
}

/* First read: the fuzzer's bytes from the kernel; then end of stream. */
int nl_recv(struct nl_sock *sk, struct sockaddr_nl *nla, unsigned char **buf,
	    struct ucred **creds)
{
	(void)sk;
	(void)creds;
	memset(nla, 0, sizeof(*nla));
	nla->nl_family = AF_NETLINK;
	if (fz_reads++ || !fz_size)
		return 0;
	*buf = malloc(fz_size);
	if (!*buf)
		return -NLE_NOMEM;
	memcpy(*buf, fz_data, fz_size);
	return (int)fz_size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint16_t flags[] = {
		NLM_F_REQUEST | NLM_F_ACK, NLM_F_REQUEST | NLM_F_DUMP,
		NLM_F_REQUEST, NLM_F_REQUEST | NLM_F_DUMP | NLM_F_ACK,
	};
	struct rtune_dcb out;
	struct nl_msg *msg;

	if (size < 1 || size > 1 << 20)
		return 0;
	fz_data = data + 1;
	fz_size = size - 1;
	fz_reads = 0;
	if (data[0] & 4) {
		struct rtune_root_qdisc q;

		rtune_root_qdisc_read(NULL, 7, &q);
		return 0;
	}
	msg = nlmsg_alloc_simple(RTM_GETDCB, flags[data[0] & 3]);
	if (!msg)
		return 0;
	memset(&out, 0, sizeof(out));
	rtune_nl_transact(NULL, msg, dcb_parse_get, &out);
	return 0;
}
