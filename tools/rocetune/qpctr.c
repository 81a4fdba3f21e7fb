// SPDX-License-Identifier: GPL-2.0
/*
 * Per-QP hardware counters (qpctr.h): read a port's RDMA counters, bind
 * QPs to new counters in manual mode, remove only what rocetune made.
 *
 * What the kernel does (drivers/infiniband/core/counters.c, Linux 6.1):
 * a manual bind (STAT_SET, mode MANUAL, a QP and no counter id) allocates
 * a counter for that QP and puts the port in manual mode; it is refused
 * in auto mode (EINVAL). The port goes back to mode none when its last
 * counter goes (STAT_DEL, or the QP's destruction), so rocetune never
 * sets a port's mode itself. Optional counters are enabled per port with
 * STAT_SET and the whole set of enabled indices: the set sent is always
 * the enabled ones plus or minus rocetune's, so an operator's stay.
 *
 * Records: one line per binding ("bind IBDEV PORT COUNTER QPN") and per
 * optional counter enabled ("optional IBDEV PORT NAME") in the
 * qp-counters file of the state directory. A record counts only while
 * the kernel still shows that counter, in manual mode, with that QP
 * alone: counter ids are reused once the QP is gone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include "atomic_file.h"
#include "qpctr.h"

#ifndef NETLINK_RDMA
#define NETLINK_RDMA 20
#endif

const char *const rtune_qpc_cc_optional[3] = { "cc_rx_ce_pkts", "cc_rx_cnp_pkts", "cc_tx_cnp_pkts" };

static int real_xact(struct rtune_qpc_io *io, struct nl_msg *msg, rtune_nl_cb cb, void *arg)
{
	return rtune_nl_transact(io->sk, msg, cb, arg);
}

int qpc_io_open(struct rtune_qpc_io *io)
{
	memset(io, 0, sizeof(*io));
	io->sk = rtune_nl_open(NETLINK_RDMA);
	if (!io->sk)
		return -errno;
	io->xact = real_xact;
	return 0;
}

void qpc_io_close(struct rtune_qpc_io *io)
{
	if (io->sk)
		nl_socket_free(io->sk);
	io->sk = NULL;
}

bool qpc_driver_binds(const char *driver)
{
	/* the only ib_device_ops with counter_bind_qp in Linux 6.1 (counters.c) */
	return driver && !strcmp(driver, "mlx5_core");
}

/* --- device index --- */

struct dev_find {
	const char *name;
	uint32_t idx;
	bool found;
};

static int dev_cb(struct nlmsghdr *h, void *arg)
{
	struct dev_find *f = arg;
	char name[64];
	uint32_t idx;

	if (qpc_parse_dev(h, &idx, name, sizeof(name)))
		return -EPROTO;
	if (!strcmp(name, f->name)) {
		f->idx = idx;
		f->found = true;
	}
	return 0;
}

int qpc_dev_index(struct rtune_qpc_io *io, const char *ibdev, uint32_t *idx)
{
	struct dev_find f = { .name = ibdev };
	struct nl_msg *m = qpc_req(RDMA_NLDEV_CMD_GET, NLM_F_DUMP, UINT32_MAX, 0);
	int err;

	if (!m)
		return -ENOMEM;
	err = io->xact(io, m, dev_cb, &f);
	if (err)
		return err;
	if (!f.found)
		return -ENODEV;
	*idx = f.idx;
	return 0;
}

/* --- reading a port --- */

static int mode_cb(struct nlmsghdr *h, void *arg)
{
	struct rtune_qpc_port *p = arg;

	return qpc_parse_mode(h, &p->mode, &p->mask);
}

static int counters_cb(struct nlmsghdr *h, void *arg)
{
	struct rtune_qpc_port *p = arg;

	return qpc_parse_counters(h, &p->c, &p->nc);
}

static int status_cb(struct nlmsghdr *h, void *arg)
{
	struct rtune_qpc_port *p = arg;

	p->nst = 0;
	return qpc_parse_status(h, p->st, &p->nst, RTUNE_QPC_MAX_HW);
}

static struct nl_msg *stat_req(uint8_t cmd, uint16_t flags, uint32_t dev_idx, uint32_t port)
{
	struct nl_msg *m = qpc_req(cmd, flags, dev_idx, port);

	if (m && nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP) < 0) {
		nlmsg_free(m);
		m = NULL;
	}
	return m;
}

int qpc_port_read(struct rtune_qpc_io *io, const char *ibdev, uint32_t dev_idx, uint32_t port,
		  struct rtune_qpc_port *p)
{
	struct nl_msg *m;
	int i;

	memset(p, 0, sizeof(*p));
	snprintf(p->ibdev, sizeof(p->ibdev), "%s", ibdev);
	p->dev_idx = dev_idx;
	p->port = port;

	/* the port's mode: stat_get_doit_qp() wants a mode attribute, any value */
	m = stat_req(RDMA_NLDEV_CMD_STAT_GET, NLM_F_ACK, dev_idx, port);
	if (m && nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_MODE, RTUNE_QPC_NONE) < 0) {
		nlmsg_free(m);
		m = NULL;
	}
	p->mode_err = m ? -io->xact(io, m, mode_cb, p) : ENOMEM;

	m = stat_req(RDMA_NLDEV_CMD_STAT_GET, NLM_F_DUMP, dev_idx, port);
	p->dump_err = m ? -io->xact(io, m, counters_cb, p) : ENOMEM;
	/* a dump's port filter is the kernel's; check it */
	for (i = 0; !p->dump_err && i < p->nc; i++)
		if (p->c[i].port != port)
			p->dump_err = EPROTO;
	if (p->dump_err) {
		free(p->c);
		p->c = NULL;
		p->nc = 0;
	}

	m = qpc_req(RDMA_NLDEV_CMD_STAT_GET_STATUS, NLM_F_ACK, dev_idx, port);
	p->st_err = m ? -io->xact(io, m, status_cb, p) : ENOMEM;
	if (p->st_err)
		p->nst = 0;
	return p->mode_err ? -p->mode_err : p->dump_err ? -p->dump_err : 0;
}

void qpc_port_free(struct rtune_qpc_port *p)
{
	free(p->c);
	p->c = NULL;
	p->nc = 0;
}

/* --- records --- */

void qpc_state_path(char *buf, size_t len)
{
	const char *sd = getenv("ROCETUNE_STATE_DIR");

	snprintf(buf, len, "%s/qp-counters", sd && *sd ? sd : "/run/rocetune");
}

struct rec {
	bool optional;
	char ibdev[64];
	uint32_t port, counter, qpn;
	char name[RTUNE_QPC_NAME];
};

/* The records of @path (a missing file has none); malloc'd in *out. */
static int recs_read(const char *path, struct rec **out)
{
	FILE *f = fopen(path, "re");
	char line[256];
	int n = 0;

	*out = NULL;
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f)) {
		struct rec r = { .optional = false }, *nr;
		char kind[16];
		unsigned int a, b, c;

		if (sscanf(line, "%15s", kind) != 1)
			continue;
		if (!strcmp(kind, "bind") &&
		    sscanf(line, "bind %63s %u %u %u", r.ibdev, &a, &b, &c) == 4) {
			r.port = a;
			r.counter = b;
			r.qpn = c;
		} else if (!strcmp(kind, "optional") &&
			   sscanf(line, "optional %63s %u %47s", r.ibdev, &a, r.name) == 3) {
			r.optional = true;
			r.port = a;
		} else {
			continue;	/* not ours to understand: dropped on rewrite */
		}
		nr = realloc(*out, (size_t)(n + 1) * sizeof(*nr));
		if (!nr) {
			fclose(f);
			free(*out);
			*out = NULL;
			return -ENOMEM;
		}
		*out = nr;
		nr[n++] = r;
	}
	fclose(f);
	return n;
}

struct recs_out {
	const struct rec *r;
	const bool *keep;
	int n;
};

static int recs_print(FILE *f, void *arg)
{
	const struct recs_out *o = arg;
	int i;

	for (i = 0; i < o->n; i++) {
		const struct rec *r = &o->r[i];

		if (!o->keep[i])
			continue;
		if (r->optional)
			fprintf(f, "optional %s %u %s\n", r->ibdev, r->port, r->name);
		else
			fprintf(f, "bind %s %u %u %u\n", r->ibdev, r->port, r->counter, r->qpn);
	}
	return 0;
}

/* Rewrite @path with the records whose keep[] is set (atomic_file.h). */
static int recs_write(const char *path, const struct rec *r, const bool *keep, int n)
{
	struct recs_out o = { r, keep, n };
	char dir[4096], *slash;
	int i, left = 0;

	for (i = 0; i < n; i++)
		left += keep[i];
	if (!left)
		return unlink(path) && errno != ENOENT ? -errno : 0;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		mkdir(dir, 0755);
	}
	return rtune_atomic_write(path, 0, recs_print, &o);
}

static int recs_append(const char *path, const struct rec *add, int nadd)
{
	struct rec *r, *all;
	bool *keep;
	int n = recs_read(path, &r), i, err;

	if (n < 0)
		return n;
	all = realloc(r, (size_t)(n + nadd + 1) * sizeof(*all));
	keep = calloc((size_t)(n + nadd + 1), sizeof(*keep));
	if (!all || !keep) {
		free(all ? all : r);
		free(keep);
		return -ENOMEM;
	}
	memcpy(all + n, add, (size_t)nadd * sizeof(*add));
	for (i = 0; i < n + nadd; i++)
		keep[i] = true;
	err = recs_write(path, all, keep, n + nadd);
	free(all);
	free(keep);
	return err;
}

/* The counter of @p that a binding record still names, or NULL. */
static struct rtune_qpc *rec_counter(struct rtune_qpc_port *p, const struct rec *r)
{
	int i;

	if (r->optional || strcmp(r->ibdev, p->ibdev) || r->port != p->port)
		return NULL;
	for (i = 0; i < p->nc; i++)
		if (p->c[i].id == r->counter && p->c[i].mode == RTUNE_QPC_MANUAL &&
		    p->c[i].nqp == 1 && p->c[i].qpn[0] == r->qpn)
			return &p->c[i];
	return NULL;
}

void qpc_mark_ours(const char *state, struct rtune_qpc_port *p)
{
	struct rec *r;
	int n = recs_read(state, &r), i;
	struct rtune_qpc *c;

	for (i = 0; i < n; i++)
		if ((c = rec_counter(p, &r[i])))
			c->ours = true;
	free(r);
}

/* --- optional counters --- */

static const struct rtune_qpc_stat *stat_named(const struct rtune_qpc_port *p, const char *name)
{
	int i;

	for (i = 0; i < p->nst; i++)
		if (!strcmp(p->st[i].name, name))
			return &p->st[i];
	return NULL;
}

/* Send the port's optional counter set: the enabled ones, plus @on, minus @off. */
static int optional_set(struct rtune_qpc_io *io, const struct rtune_qpc_port *p,
			const char *const *on, int non, const char *const *off, int noff)
{
	struct nl_msg *m = qpc_req(RDMA_NLDEV_CMD_STAT_SET, NLM_F_ACK, p->dev_idx, p->port);
	struct nlattr *nest;
	int i, k;

	if (!m)
		return -ENOMEM;
	nest = nla_nest_start(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	if (!nest)
		goto nomem;
	for (i = 0; i < p->nst; i++) {
		const struct rtune_qpc_stat *s = &p->st[i];
		bool want = s->optional && s->enabled;

		for (k = 0; k < non; k++)
			want |= s->optional && !strcmp(s->name, on[k]);
		for (k = 0; k < noff; k++)
			want &= strcmp(s->name, off[k]) != 0;
		if (want && nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, s->index) < 0)
			goto nomem;
	}
	nla_nest_end(m, nest);
	return io->xact(io, m, NULL, NULL);
nomem:
	nlmsg_free(m);
	return -ENOMEM;
}

/* --- bind --- */

static int qps_cb(struct nlmsghdr *h, void *arg)
{
	struct { struct rtune_qpc_qp *q; int n; } *l = arg;

	return qpc_parse_qps(h, &l->q, &l->n);
}

static int bound_cb(struct nlmsghdr *h, void *arg)
{
	uint32_t *out = arg;

	return qpc_parse_bound(h, &out[0], &out[1]);
}

static bool qp_bound(const struct rtune_qpc_port *p, uint32_t qpn)
{
	int i;
	uint32_t k;

	for (i = 0; i < p->nc; i++)
		for (k = 0; k < p->c[i].nqp && k < RTUNE_QPC_MAX_QPS; k++)
			if (p->c[i].qpn[k] == qpn)
				return true;
	return false;
}

/* The first failure, for the report: "WHAT DETAIL: strerror". */
static void why(struct rtune_qpc_result *r, const char *what, const char *detail, int err)
{
	if (!r->why[0])
		snprintf(r->why, sizeof(r->why), "%s %s: %s", what, detail, strerror(-err));
}

int qpc_bind(struct rtune_qpc_io *io, const char *state, const char *ibdev, const char *driver,
	     uint32_t port, struct rtune_qpc_result *r)
{
	struct { struct rtune_qpc_qp *q; int n; } qps = { NULL, 0 };
	const char *want[3];
	struct rtune_qpc_port p;
	struct rec *add = NULL;
	uint32_t idx;
	int err, i, nwant = 0, nadd = 0;
	struct nl_msg *m;

	memset(r, 0, sizeof(*r));
	if (!qpc_driver_binds(driver)) {
		r->unsupported = true;
		snprintf(r->why, sizeof(r->why),
			 "%s's driver (%s) cannot bind QPs to counters (the RDMA core's counter_bind_qp: mlx5 only in Linux 6.1)",
			 ibdev, driver && *driver ? driver : "none");
		return 0;
	}
	err = qpc_dev_index(io, ibdev, &idx);
	if (err)
		return err;
	err = qpc_port_read(io, ibdev, idx, port, &p);
	if (err)
		goto out;
	if (p.mode == RTUNE_QPC_AUTO) {
		/* the operator's: rocetune never switches a port's mode */
		r->auto_mode = true;
		snprintf(r->why, sizeof(r->why),
			 "%s/%u counts QPs in auto mode (someone's `rdma statistic qp set ... auto`): rocetune binds nothing and leaves the mode",
			 ibdev, port);
		goto out;
	}

	/* the optional congestion counters first: a manual counter takes the
	 * port's enabled optional counters when it is made (Linux 6.15+) */
	for (i = 0; i < 3; i++) {
		const struct rtune_qpc_stat *s = stat_named(&p, rtune_qpc_cc_optional[i]);

		if (s && s->optional && !s->enabled)
			want[nwant++] = rtune_qpc_cc_optional[i];
	}
	add = calloc((size_t)nwant + 1024, sizeof(*add));
	if (!add) {
		err = -ENOMEM;
		goto out;
	}
	if (nwant) {
		err = optional_set(io, &p, want, nwant, NULL, 0);
		if (err) {
			r->failed++;
			why(r, "enabling the optional counters of", ibdev, err);
			err = 0;
		} else {
			for (i = 0; i < nwant; i++) {
				add[nadd].optional = true;
				snprintf(add[nadd].ibdev, sizeof(add[nadd].ibdev), "%s", ibdev);
				add[nadd].port = port;
				snprintf(add[nadd].name, sizeof(add[nadd].name), "%s", want[i]);
				nadd++;
			}
			r->enabled = nwant;
		}
	}

	m = qpc_req(RDMA_NLDEV_CMD_RES_QP_GET, NLM_F_DUMP, idx, port);
	err = m ? io->xact(io, m, qps_cb, &qps) : -ENOMEM;
	if (err)
		goto records;
	for (i = 0; i < qps.n; i++) {
		const struct rtune_qpc_qp *q = &qps.q[i];
		uint32_t got[2];
		char ctx[32];

		if ((q->port && q->port != port) || q->kernel ||
		    (q->type != 2 && q->type != 3 && q->type != 4)) {
			r->skipped++;	/* a kernel user's, or a type not counted */
			continue;
		}
		if (qp_bound(&p, q->qpn)) {
			r->already++;	/* bound already: whoever did it keeps it */
			continue;
		}
		m = stat_req(RDMA_NLDEV_CMD_STAT_SET, NLM_F_ACK, idx, port);
		if (m && (nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_MODE, RTUNE_QPC_MANUAL) < 0 ||
			  nla_put_u32(m, RDMA_NLDEV_ATTR_RES_LQPN, q->qpn) < 0)) {
			nlmsg_free(m);
			m = NULL;
		}
		got[0] = got[1] = UINT32_MAX;
		err = m ? io->xact(io, m, bound_cb, got) : -ENOMEM;
		if (!err && got[1] != q->qpn)
			err = -EPROTO;
		if (err) {
			/* ENOENT: the QP went away meanwhile */
			r->failed++;
			snprintf(ctx, sizeof(ctx), "%u", q->qpn);
			why(r, "binding QP", ctx, err);
			err = 0;
			continue;
		}
		if (nadd >= nwant + 1023)
			break;
		snprintf(add[nadd].ibdev, sizeof(add[nadd].ibdev), "%s", ibdev);
		add[nadd].port = port;
		add[nadd].counter = got[0];
		add[nadd].qpn = q->qpn;
		nadd++;
		r->bound++;
	}
records:
	if (nadd) {
		int e = recs_append(state, add, nadd);

		if (e && !err)
			err = e;
	}
out:
	free(add);
	free(qps.q);
	qpc_port_free(&p);
	return err;
}

/* --- unbind --- */

int qpc_unbind(struct rtune_qpc_io *io, const char *state, const char *ibdev, uint32_t port,
	       struct rtune_qpc_result *r)
{
	const char **off = NULL;
	struct rtune_qpc_port p;
	struct rec *rec;
	bool *keep = NULL;
	int n, i, err, noff = 0;
	uint32_t idx;

	memset(r, 0, sizeof(*r));
	memset(&p, 0, sizeof(p));
	n = recs_read(state, &rec);
	if (n <= 0)
		return n;
	keep = calloc((size_t)n, sizeof(*keep));
	off = calloc((size_t)n, sizeof(*off));
	if (!keep || !off) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		keep[i] = strcmp(rec[i].ibdev, ibdev) || rec[i].port != port;
	err = qpc_dev_index(io, ibdev, &idx);
	if (err == -ENODEV) {
		err = 0;	/* the device is gone, and its counters with it */
		for (i = 0; i < n; i++)
			r->gone += !keep[i];
		goto write;
	}
	if (err)
		goto out;
	err = qpc_port_read(io, ibdev, idx, port, &p);
	if (err)
		goto out;
	for (i = 0; i < n; i++) {
		struct nl_msg *m;

		if (keep[i] || rec[i].optional)
			continue;
		if (!rec_counter(&p, &rec[i])) {
			r->gone++;	/* its QP was destroyed, or someone removed it */
			continue;
		}
		m = stat_req(RDMA_NLDEV_CMD_STAT_DEL, NLM_F_ACK, idx, port);
		if (m && (nla_put_u32(m, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, rec[i].counter) < 0 ||
			  nla_put_u32(m, RDMA_NLDEV_ATTR_RES_LQPN, rec[i].qpn) < 0)) {
			nlmsg_free(m);
			m = NULL;
		}
		err = m ? io->xact(io, m, NULL, NULL) : -ENOMEM;
		if (err) {
			char ctx[32];

			snprintf(ctx, sizeof(ctx), "%u", rec[i].qpn);
			r->failed++;
			why(r, "unbinding QP", ctx, err);
			keep[i] = err != -ENOENT;	/* try again next time */
			err = 0;
			continue;
		}
		r->removed++;
	}
	for (i = 0; i < n; i++) {
		const struct rtune_qpc_stat *s;

		if (keep[i] || !rec[i].optional)
			continue;
		s = stat_named(&p, rec[i].name);
		if (s && s->optional && s->enabled)
			off[noff++] = rec[i].name;
	}
	if (noff) {
		err = optional_set(io, &p, NULL, 0, off, noff);
		if (err) {
			r->failed++;
			why(r, "disabling the optional counters of", ibdev, err);
			for (i = 0; i < n; i++)
				if (!keep[i] && rec[i].optional)
					keep[i] = true;
			err = 0;
		} else {
			r->disabled = noff;
		}
	}
write:
	err = recs_write(state, rec, keep, n);
out:
	qpc_port_free(&p);
	free(off);
	free(keep);
	free(rec);
	return err;
}
