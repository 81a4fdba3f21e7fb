// SPDX-License-Identifier: GPL-2.0
/*
 * RDMA counter reply parsers (tools/rocetune/qpctr_msg.c): the first byte
 * picks the parser (STAT_GET dump, STAT_GET mode, STAT_GET_STATUS,
 * RES_QP_GET dump, a bind's STAT_SET reply, RDMA_NLDEV_CMD_GET); the rest
 * is the message (fuzz_nlmsg()).
 */
#include <stdlib.h>
#include <string.h>
#include "../../tools/rocetune/qpctr.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtune_qpc_stat st[RTUNE_QPC_MAX_HW];
	struct rtune_qpc *c = NULL;
	struct rtune_qpc_qp *q = NULL;
	struct nlmsghdr *h;
	uint32_t a, b;
	char name[64];
	int n = 0;

	if (size < 1)
		return 0;
	h = fuzz_nlmsg(data + 1, size - 1, 0);
	if (!h)
		return 0;
	switch (data[0] % 6) {
	case 0:
		qpc_parse_counters(h, &c, &n);
		qpc_parse_counters(h, &c, &n);	/* appends to what is there */
		break;
	case 1:
		qpc_parse_mode(h, &a, &b);
		break;
	case 2:
		qpc_parse_status(h, st, &n, RTUNE_QPC_MAX_HW);
		break;
	case 3:
		qpc_parse_qps(h, &q, &n);
		break;
	case 4:
		qpc_parse_bound(h, &a, &b);
		break;
	default:
		qpc_parse_dev(h, &a, name, sizeof(name));
	}
	free(c);
	free(q);
	free(h);
	return 0;
}
