// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for per-QP hardware counters (tools/rocetune/qpctr*.c):
 * the reply parsers on messages built as drivers/infiniband/core/nldev.c
 * builds them, torn ones refused; then bind and unbind against a fake
 * kernel (a struct rtune_qpc_io whose xact answers like counters.c):
 * what is sent, and above all what is not (no mode switch, nothing of an
 * operator's touched, nothing at all on a driver without binding or a
 * port in auto mode).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/qpctr.h"
#include "../../tools/rocetune/stats.h"

/* ---- messages as the kernel builds them ---- */

static struct nl_msg *kmsg(uint8_t cmd)
{
	struct nl_msg *m = nlmsg_alloc_simple(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), NLM_F_MULTI);

	nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	nla_put_string(m, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	return m;
}

static void put_hw(struct nl_msg *m, const char *name, uint64_t v)
{
	struct nlattr *e = nla_nest_start(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);

	nla_put_string(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
	nla_put_u64(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, v);
	nla_nest_end(m, e);
}

/* One counter entry (fill_res_counter_entry()). */
static void put_counter(struct nl_msg *m, uint32_t id, uint32_t mode, const uint32_t *qpn, int nqp,
			bool cc)
{
	struct nlattr *e = nla_nest_start(m, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY), *t;
	int i;

	nla_put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, id);
	nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_MODE, mode);
	t = nla_nest_start(m, RDMA_NLDEV_ATTR_RES_QP);
	for (i = 0; i < nqp; i++) {
		struct nlattr *q = nla_nest_start(m, RDMA_NLDEV_ATTR_RES_QP_ENTRY);

		nla_put_u32(m, RDMA_NLDEV_ATTR_RES_LQPN, qpn[i]);
		nla_nest_end(m, q);
	}
	nla_nest_end(m, t);
	t = nla_nest_start(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	put_hw(m, "out_of_sequence", 4);
	put_hw(m, "duplicate_request", 5);
	put_hw(m, "local_ack_timeout_err", 2);
	put_hw(m, "packet_seq_err", 3);
	if (cc) {
		put_hw(m, "cc_rx_ce_pkts", 70);
		put_hw(m, "cc_rx_cnp_pkts", 8);
		put_hw(m, "cc_tx_cnp_pkts", 9);
	}
	nla_nest_end(m, t);
	nla_nest_end(m, e);
}

/* ---- a fake kernel ---- */

struct fctr { uint32_t id, mode, qpn; };
struct fstat { const char *name; uint32_t idx; int opt, en; };
struct fqp { uint32_t qpn; uint8_t type; bool kern; };

static struct fake {
	uint32_t mode;
	struct fctr c[8];
	int nc;
	struct fstat st[6];
	int nst;
	struct fqp qp[8];
	int nqp;
	uint32_t fail_qpn;	/* a bind of this QP fails with ENOENT */
	bool torn_dump;
	uint32_t next_id;
	/* what was sent */
	int nreq, nbind, ndel, nhwset, nauto;
	uint32_t hwset[16];
	int nhw;
	uint32_t del[8];
} fk;

static void fake_reset(void)
{
	memset(&fk, 0, sizeof(fk));
	fk.next_id = 100;
}

static int answer(struct nl_msg *r, rtune_nl_cb cb, void *arg)
{
	int e = cb ? cb(nlmsg_hdr(r), arg) : 0;

	nlmsg_free(r);
	return e;
}

static int fake_xact(struct rtune_qpc_io *io, struct nl_msg *msg, rtune_nl_cb cb, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	int cmd = RDMA_NL_GET_OP(h->nlmsg_type), i, err = 0;
	struct nl_msg *r;
	struct nlattr *t;

	(void)io;
	fk.nreq++;
	rtune_nla_table(nlmsg_data(h), (int)h->nlmsg_len - NLMSG_HDRLEN, tb, RDMA_NLDEV_ATTR_MAX - 1);
	switch (cmd) {
	case RDMA_NLDEV_CMD_GET:
		err = answer(kmsg(cmd), cb, arg);
		break;
	case RDMA_NLDEV_CMD_STAT_GET:
		r = kmsg(cmd);
		if (!(h->nlmsg_flags & NLM_F_DUMP)) {
			nla_put_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
			nla_put_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, fk.mode);
			if (fk.mode == RTUNE_QPC_AUTO)
				nla_put_u32(r, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, 1);
		} else {
			t = nla_nest_start(r, RDMA_NLDEV_ATTR_STAT_COUNTER);
			for (i = 0; i < fk.nc; i++)
				put_counter(r, fk.c[i].id, fk.c[i].mode, &fk.c[i].qpn, 1, true);
			nla_nest_end(r, t);
			if (fk.torn_dump)
				nlmsg_hdr(r)->nlmsg_len -= 6;
		}
		err = answer(r, cb, arg);
		break;
	case RDMA_NLDEV_CMD_STAT_GET_STATUS:
		r = kmsg(cmd);
		t = nla_nest_start(r, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
		for (i = 0; i < fk.nst; i++) {
			struct nlattr *e = nla_nest_start(r, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);

			nla_put_string(r, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, fk.st[i].name);
			nla_put_u32(r, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, fk.st[i].idx);
			if (fk.st[i].opt)
				nla_put_u8(r, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, (uint8_t)fk.st[i].en);
			nla_nest_end(r, e);
		}
		nla_nest_end(r, t);
		err = answer(r, cb, arg);
		break;
	case RDMA_NLDEV_CMD_RES_QP_GET:
		r = kmsg(cmd);
		t = nla_nest_start(r, RDMA_NLDEV_ATTR_RES_QP);
		for (i = 0; i < fk.nqp; i++) {
			struct nlattr *e = nla_nest_start(r, RDMA_NLDEV_ATTR_RES_QP_ENTRY);

			nla_put_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
			nla_put_u32(r, RDMA_NLDEV_ATTR_RES_LQPN, fk.qp[i].qpn);
			if (fk.qp[i].kern)
				nla_put_string(r, RDMA_NLDEV_ATTR_RES_KERN_NAME, "ib_core");
			else
				nla_put_u32(r, RDMA_NLDEV_ATTR_RES_PID, 4242);
			nla_put_u8(r, RDMA_NLDEV_ATTR_RES_TYPE, fk.qp[i].type);
			nla_nest_end(r, e);
		}
		nla_nest_end(r, t);
		err = answer(r, cb, arg);
		break;
	case RDMA_NLDEV_CMD_STAT_SET:
		if (tb[RDMA_NLDEV_ATTR_STAT_MODE]) {
			uint32_t mode = nla_get_u32((struct nlattr *)tb[RDMA_NLDEV_ATTR_STAT_MODE]);
			uint32_t qpn;

			if (mode == RTUNE_QPC_AUTO) {
				fk.nauto++;
				break;
			}
			qpn = nla_get_u32((struct nlattr *)tb[RDMA_NLDEV_ATTR_RES_LQPN]);
			fk.nbind++;
			if (fk.mode == RTUNE_QPC_AUTO) {
				err = -EINVAL;
				break;
			}
			if (qpn == fk.fail_qpn) {
				err = -ENOENT;
				break;
			}
			fk.c[fk.nc++] = (struct fctr){ fk.next_id, RTUNE_QPC_MANUAL, qpn };
			fk.mode = RTUNE_QPC_MANUAL;
			r = kmsg(cmd);
			nla_put_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
			nla_put_u32(r, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, fk.next_id++);
			nla_put_u32(r, RDMA_NLDEV_ATTR_RES_LQPN, qpn);
			err = answer(r, cb, arg);
		} else if (tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]) {
			struct nlattr *e;
			int rem;

			fk.nhwset++;
			fk.nhw = 0;
			for (i = 0; i < fk.nst; i++)
				if (fk.st[i].opt)
					fk.st[i].en = 0;
			nla_for_each_nested(e, (struct nlattr *)tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], rem) {
				uint32_t x = nla_get_u32(e);

				fk.hwset[fk.nhw++] = x;
				for (i = 0; i < fk.nst; i++)
					if (fk.st[i].idx == x)
						fk.st[i].en = 1;
			}
		}
		break;
	case RDMA_NLDEV_CMD_STAT_DEL: {
		uint32_t id = nla_get_u32((struct nlattr *)tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID]);

		fk.del[fk.ndel++] = id;
		for (i = 0; i < fk.nc; i++)
			if (fk.c[i].id == id)
				fk.c[i] = fk.c[--fk.nc];
		break;
	}
	default:
		err = -EOPNOTSUPP;
	}
	nlmsg_free(msg);
	return err;
}

static struct rtune_qpc_io io = { .xact = fake_xact };
static char state[256];

/* ---- tests ---- */

static void test_parse(void)
{
	const uint32_t qps[3] = { 10, 11, 12 };
	struct rtune_qpc *c = NULL;
	struct rtune_qpc_stat st[4];
	struct nl_msg *m = kmsg(RDMA_NLDEV_CMD_STAT_GET);
	struct nlattr *t = nla_nest_start(m, RDMA_NLDEV_ATTR_STAT_COUNTER);
	int n = 0;

	put_counter(m, 7, RTUNE_QPC_MANUAL, qps, 1, false);
	put_counter(m, 8, RTUNE_QPC_AUTO, qps, 3, true);
	nla_nest_end(m, t);
	tap_check(qpc_parse_counters(nlmsg_hdr(m), &c, &n) == 0 && n == 2 && c[0].id == 7 &&
		  c[0].nqp == 1 && c[0].qpn[0] == 10 && c[0].nhw == 4 && c[1].mode == RTUNE_QPC_AUTO &&
		  c[1].nqp == 3 && c[1].nhw == 7 && !strcmp(c[1].hw[4].name, "cc_rx_ce_pkts") &&
		  c[1].hw[4].v == 70, "STAT_GET dump: counters, their QPs and hardware counters");
	free(c);
	c = NULL;
	n = 0;
	nlmsg_hdr(m)->nlmsg_len -= 10;	/* cut into the last value */
	tap_check(qpc_parse_counters(nlmsg_hdr(m), &c, &n) == -EPROTO, "a torn dump is refused");
	free(c);
	nlmsg_free(m);

	/* a 32-bit value where the kernel puts 64 */
	m = kmsg(RDMA_NLDEV_CMD_STAT_GET);
	t = nla_nest_start(m, RDMA_NLDEV_ATTR_STAT_COUNTER);
	{
		struct nlattr *e = nla_nest_start(m, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY), *h, *x;

		nla_put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
		nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 1);
		nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_MODE, 2);
		h = nla_nest_start(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
		x = nla_nest_start(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
		nla_put_string(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "x");
		nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 1);
		nla_nest_end(m, x);
		nla_nest_end(m, h);
		nla_nest_end(m, e);
	}
	nla_nest_end(m, t);
	c = NULL;
	n = 0;
	tap_check(qpc_parse_counters(nlmsg_hdr(m), &c, &n) == -EPROTO,
		  "a hardware counter value that is not 64 bits is refused");
	free(c);
	nlmsg_free(m);

	/* a mode the kernel does not have */
	m = kmsg(RDMA_NLDEV_CMD_STAT_GET);
	nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_MODE, 7);
	{
		uint32_t mode, mask;

		tap_check(qpc_parse_mode(nlmsg_hdr(m), &mode, &mask) == -EPROTO,
			  "a counter mode above manual is refused");
	}
	nlmsg_free(m);

	/* STAT_GET_STATUS: an optional counter says whether it is on */
	m = kmsg(RDMA_NLDEV_CMD_STAT_GET_STATUS);
	t = nla_nest_start(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	{
		struct nlattr *e = nla_nest_start(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);

		nla_put_string(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "out_of_sequence");
		nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, 0);
		nla_nest_end(m, e);
		e = nla_nest_start(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
		nla_put_string(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "cc_rx_ce_pkts");
		nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, 21);
		nla_put_u8(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, 1);
		nla_nest_end(m, e);
	}
	nla_nest_end(m, t);
	n = 0;
	tap_check(qpc_parse_status(nlmsg_hdr(m), st, &n, 4) == 0 && n == 2 && !st[0].optional &&
		  st[1].optional && st[1].enabled && st[1].index == 21,
		  "STAT_GET_STATUS: indices, optional counters and whether they are on");
	n = 0;
	tap_check(qpc_parse_status(nlmsg_hdr(m), st, &n, 1) == -EPROTO,
		  "STAT_GET_STATUS: more entries than the table holds is refused");
	nlmsg_free(m);
}

static void setup_port(void)
{
	fake_reset();
	fk.mode = RTUNE_QPC_MANUAL;
	fk.c[fk.nc++] = (struct fctr){ 7, RTUNE_QPC_MANUAL, 10 };	/* an operator's */
	fk.st[fk.nst++] = (struct fstat){ "out_of_sequence", 0, 0, 0 };
	fk.st[fk.nst++] = (struct fstat){ "cc_rx_ce_pkts", 20, 1, 0 };
	fk.st[fk.nst++] = (struct fstat){ "cc_rx_cnp_pkts", 21, 1, 1 };	/* the operator's */
	fk.st[fk.nst++] = (struct fstat){ "rx_icrc_encapsulated", 22, 1, 1 };
	fk.qp[fk.nqp++] = (struct fqp){ 1, 1, true };	/* GSI, the kernel's */
	fk.qp[fk.nqp++] = (struct fqp){ 10, 2, false };	/* bound by the operator */
	fk.qp[fk.nqp++] = (struct fqp){ 11, 2, false };
	fk.qp[fk.nqp++] = (struct fqp){ 12, 2, true };
	fk.qp[fk.nqp++] = (struct fqp){ 13, 4, false };
	fk.qp[fk.nqp++] = (struct fqp){ 14, 8, false };	/* raw packet */
}

static bool sent_hw(const uint32_t *want, int n)
{
	int i;

	if (fk.nhw != n)
		return false;
	for (i = 0; i < n; i++)
		if (fk.hwset[i] != want[i])
			return false;
	return true;
}

static void test_bind(void)
{
	struct rtune_qpc_result r;
	struct rtune_qpc_port p;
	struct rtune_stqp q;
	FILE *f;
	char buf[512] = "";
	size_t len;
	int i, ours = 0;

	/* a driver without counter binding: nothing is sent at all */
	setup_port();
	tap_check(qpc_bind(&io, state, "rxe0", "", 1, &r) == 0 && r.unsupported && fk.nreq == 0 &&
		  strstr(r.why, "cannot bind QPs to counters") && access(state, F_OK) != 0,
		  "rxe (no driver): unsupported, said why, no request, no record");

	/* a port in auto mode: read, nothing set */
	setup_port();
	fk.mode = RTUNE_QPC_AUTO;
	tap_check(qpc_bind(&io, state, "mlx5_0", "mlx5_core", 1, &r) == 0 && r.auto_mode &&
		  !fk.nbind && !fk.nhwset && !fk.nauto && access(state, F_OK) != 0,
		  "a port in auto mode: left alone (no bind, no optional counter, mode kept)");

	/* the normal case */
	setup_port();
	{
		const uint32_t want[] = { 20, 21, 22 };

		tap_check(qpc_bind(&io, state, "mlx5_0", "mlx5_core", 1, &r) == 0 && r.bound == 2 &&
			  r.already == 1 && r.skipped == 3 && !r.failed && r.enabled == 1 &&
			  fk.nbind == 2 && !fk.nauto && fk.nhwset == 1 && sent_hw(want, 3),
			  "bind: QPs 11 and 13 bound; the operator's QP 10, kernel QPs and raw packet left; cc_rx_ce_pkts enabled with the enabled ones kept");
	}
	f = fopen(state, "r");
	len = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[len] = '\0';
	if (f)
		fclose(f);
	tap_check(!strcmp(buf, "optional mlx5_0 1 cc_rx_ce_pkts\nbind mlx5_0 1 100 11\nbind mlx5_0 1 101 13\n"),
		  "records: the optional counter enabled and the two bindings");

	/* a second bind: nothing new */
	fk.nbind = fk.nhwset = 0;
	tap_check(qpc_bind(&io, state, "mlx5_0", "mlx5_core", 1, &r) == 0 && r.bound == 0 &&
		  r.already == 3 && !fk.nbind && !fk.nhwset, "bind again: nothing sent");

	/* reading marks rocetune's counters, and maps them to the neutral names */
	qpc_port_read(&io, "mlx5_0", 3, 1, &p);
	qpc_mark_ours(state, &p);
	for (i = 0; i < p.nc; i++)
		ours += p.c[i].ours * (int)p.c[i].id;
	tap_check(p.nc == 3 && ours == 201 && !p.c[0].ours, "read: counters 100 and 101 are rocetune's, 7 is not");
	memset(&q, 0, sizeof(q));
	rtune_st_map_qpc(&p.c[1], &q);
	tap_check(q.v[QP_CE_RCVD] == 70 && q.v[QP_CNP_RCVD] == 8 && q.v[QP_CNP_SENT] == 9 &&
		  q.v[QP_RETRANS] == 5 && q.v[QP_DUP_REQ] == 5 && q.v[QP_OUT_OF_SEQ] == 4 &&
		  !(q.valid & (1u << QP_RATE_KBPS)) && q.counter_id == 100 && q.counter_ours,
		  "neutral names: ce_rcvd, cnp_rcvd, cnp_sent, retransmissions (2 timeouts + 3 NAKs)");
	qpc_port_free(&p);

	/* unbind: QP 13 was destroyed and an operator's counter took id 101 */
	fk.c[2] = (struct fctr){ 101, RTUNE_QPC_MANUAL, 15 };
	fk.ndel = fk.nhwset = 0;
	{
		const uint32_t want[] = { 21, 22 };

		tap_check(qpc_unbind(&io, state, "mlx5_0", 1, &r) == 0 && r.removed == 1 && r.gone == 1 &&
			  fk.ndel == 1 && fk.del[0] == 100 && fk.nhwset == 1 && sent_hw(want, 2) &&
			  !fk.nauto && access(state, F_OK) != 0,
			  "unbind: only counter 100 removed (101 is someone else's now), cc_rx_ce_pkts off, the operator's optional counters on, records gone");
	}

	/* one QP goes away between the dump and its bind */
	setup_port();
	fk.fail_qpn = 11;
	tap_check(qpc_bind(&io, state, "mlx5_0", "mlx5_core", 1, &r) == 0 && r.bound == 1 &&
		  r.failed == 1 && strstr(r.why, "binding QP 11"), "a bind refused (ENOENT) is reported, the others go on");
	unlink(state);

	/* a torn reply: nothing is set */
	setup_port();
	fk.torn_dump = true;
	tap_check(qpc_bind(&io, state, "mlx5_0", "mlx5_core", 1, &r) == -EPROTO && !fk.nbind &&
		  !fk.nhwset && access(state, F_OK) != 0, "a torn counter dump: -EPROTO, nothing set");
}

int main(void)
{
	char dir[] = "/tmp/rtune-qpctr-XXXXXX";

	tap_plan(16);
	if (!mkdtemp(dir)) {
		tap_diag("mkdtemp: %s", strerror(errno));
		return 1;
	}
	snprintf(state, sizeof(state), "%s/qp-counters", dir);
	test_parse();
	test_bind();
	unlink(state);
	rmdir(dir);
	return tap_done();
}
