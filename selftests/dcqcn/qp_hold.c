// SPDX-License-Identifier: GPL-2.0
/*
 * qp_hold DEV GID_INDEX: RC QPs held in chosen states, for tests of what
 * rocetune.ko learns about a QP (selftests/dcqcn/qp-table.sh). perftest
 * cannot hold a QP before RTR on purpose, nor reset and reconnect one.
 *
 * Commands on stdin, one answer line each on stdout:
 *   create                      a new RC QP on port 1, moved to INIT;
 *                               answers "qpn N"
 *   connect QPN IPV4 DQPN       RESET, INIT, then RTR towards QP DQPN at
 *                               IPV4 (its GID ::ffff:IPV4); answers "ok"
 *   quit                        destroys every QP and exits
 * Errors answer "err WHAT: MESSAGE". Nothing is ever sent: RTR is enough
 * for the RDMA core to report the peer.
 *
 * Build: cc -std=c11 -Wall -Wextra -Werror -o qp_hold qp_hold.c -libverbs
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#define QP_HOLD_MAX	16

static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_qp *qps[QP_HOLD_MAX];
static int nqps;
static int gid_index;

static int qp_to_init(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};

	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			     IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

static int qp_to_reset(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RESET };

	return ibv_modify_qp(qp, &a, IBV_QP_STATE);
}

static int qp_to_rtr(struct ibv_qp *qp, struct in_addr peer, unsigned int dqpn)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = dqpn,
		.rq_psn = 0,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.ah_attr = {
			.is_global = 1,
			.port_num = 1,
			.grh = {
				.sgid_index = (uint8_t)gid_index,
				.hop_limit = 64,
			},
		},
	};

	/* An IPv4 address's RoCEv2 GID: ::ffff:a.b.c.d */
	a.ah_attr.grh.dgid.raw[10] = 0xff;
	a.ah_attr.grh.dgid.raw[11] = 0xff;
	memcpy(&a.ah_attr.grh.dgid.raw[12], &peer, 4);
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			     IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			     IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
}

static void cmd_create(void)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = {
			.max_send_wr = 1,
			.max_recv_wr = 1,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.qp_type = IBV_QPT_RC,
	};
	struct ibv_qp *qp;
	int err;

	if (nqps == QP_HOLD_MAX) {
		printf("err create: at most %d QPs\n", QP_HOLD_MAX);
		return;
	}
	qp = ibv_create_qp(pd, &init);
	if (!qp) {
		printf("err create: %s\n", strerror(errno));
		return;
	}
	err = qp_to_init(qp);
	if (err) {
		printf("err init: %s\n", strerror(err));
		ibv_destroy_qp(qp);
		return;
	}
	qps[nqps++] = qp;
	printf("qpn %u\n", qp->qp_num);
}

static void cmd_connect(const char *args)
{
	unsigned int qpn, dqpn;
	char addr[64];
	struct in_addr peer;
	struct ibv_qp *qp = NULL;
	int i, err;

	if (sscanf(args, "%u %63s %u", &qpn, addr, &dqpn) != 3 ||
	    inet_pton(AF_INET, addr, &peer) != 1) {
		printf("err connect: usage: connect QPN IPV4 DQPN\n");
		return;
	}
	for (i = 0; i < nqps; i++)
		if (qps[i]->qp_num == qpn)
			qp = qps[i];
	if (!qp) {
		printf("err connect: no QP %u here\n", qpn);
		return;
	}
	err = qp_to_reset(qp);
	if (!err)
		err = qp_to_init(qp);
	if (!err)
		err = qp_to_rtr(qp, peer, dqpn);
	if (err)
		printf("err connect: %s\n", strerror(err));
	else
		printf("ok\n");
}

int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	char line[256];
	int i, n;

	if (argc != 3) {
		fprintf(stderr, "usage: qp_hold DEV GID_INDEX\n");
		return 2;
	}
	gid_index = atoi(argv[2]);
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), argv[1]))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!ctx) {
		fprintf(stderr, "qp_hold: cannot open %s\n", argv[1]);
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	cq = pd ? ibv_create_cq(ctx, 16, NULL, NULL, 0) : NULL;
	if (!cq) {
		fprintf(stderr, "qp_hold: PD/CQ: %s\n", strerror(errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "create"))
			cmd_create();
		else if (!strncmp(line, "connect ", 8))
			cmd_connect(line + 8);
		else if (!strcmp(line, "quit"))
			break;
		else
			printf("err %s: unknown command\n", line);
	}
	for (i = 0; i < nqps; i++)
		ibv_destroy_qp(qps[i]);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return 0;
}
