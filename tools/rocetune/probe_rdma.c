// SPDX-License-Identifier: GPL-2.0
/*
 * The probe flow (probe.h): one RC connection over librdmacm, a bounded
 * number of SENDs, every wait bounded by a deadline. The listener watches
 * its probe QP's packets with a packet socket on the netdev and reads the
 * port's hw_counters before and after, and its QP's line of rocetune.ko's
 * qp_stats at the end. With --probe-cnp the peer watches the CNPs that
 * come back to its QP the same way, and samples its QP's rate.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include "probe.h"
#include "stats.h"

#define SEND_DEPTH 16	/* SENDs in flight */

/* hw_counters read before and after, where the device has them */
static const char *const hw_ctrs[] = {
	"np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "rcvd_pkts",
};
#define NCTR ((int)(sizeof(hw_ctrs) / sizeof(hw_ctrs[0])))

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct conn {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;		/* the connected one */
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	void *buf;
	bool qp;
};

static void conn_free(struct conn *c)
{
	if (c->qp)
		rdma_destroy_qp(c->id);
	if (c->mr)
		ibv_dereg_mr(c->mr);
	free(c->buf);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	c->qp = false;
	c->mr = NULL;
	c->buf = NULL;
	c->cq = NULL;
	c->pd = NULL;
}

/*
 * The next event on @ch, which must be @want, by @deadline; also returns
 * (-EAGAIN) when @stop_fd is readable. 0 (and *@evp, to ack), or -errno
 * with @why said.
 */
static int wait_event(struct rdma_event_channel *ch, enum rdma_cm_event_type want,
		      long long deadline, int stop_fd, struct rdma_cm_event **evp, char *why,
		      size_t whylen)
{
	struct rdma_cm_event *ev;

	for (;;) {
		struct pollfd pfd[2] = { { .fd = ch->fd, .events = POLLIN },
					 { .fd = stop_fd, .events = POLLIN } };
		long long left = deadline - now_ms();
		int r;

		if (left <= 0) {
			snprintf(why, whylen, "no %s within the time limit", rdma_event_str(want));
			return -ETIMEDOUT;
		}
		r = poll(pfd, stop_fd >= 0 ? 2 : 1, (int)left);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r > 0 && stop_fd >= 0 && pfd[1].revents) {
			snprintf(why, whylen, "the peer ended the probe before %s",
				 rdma_event_str(want));
			return -EAGAIN;
		}
		if (r <= 0 || !pfd[0].revents)
			continue;
		if (rdma_get_cm_event(ch, &ev)) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			snprintf(why, whylen, "rdma_get_cm_event: %s", strerror(errno));
			return -errno;
		}
		if (ev->event == want) {
			*evp = ev;
			return 0;
		}
		snprintf(why, whylen, "%s (status %d) where %s was due", rdma_event_str(ev->event),
			 ev->status, rdma_event_str(want));
		rdma_ack_cm_event(ev);
		return -ECONNREFUSED;
	}
}

static int nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* PD, CQ, QP and @len bytes registered on @id; 0 or -1 with @why said. */
static int conn_setup(struct conn *c, struct rdma_cm_id *id, int send_wr, int recv_wr,
		      size_t len, char *why, size_t whylen)
{
	struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_RC, .sq_sig_all = 1,
				       .cap = { .max_send_wr = (uint32_t)send_wr,
						.max_recv_wr = (uint32_t)recv_wr,
						.max_send_sge = 1, .max_recv_sge = 1 } };

	c->id = id;
	c->pd = ibv_alloc_pd(id->verbs);
	if (c->pd)
		c->cq = ibv_create_cq(id->verbs, send_wr + recv_wr, NULL, NULL, 0);
	if (c->cq) {
		qa.send_cq = qa.recv_cq = c->cq;
		c->qp = !rdma_create_qp(id, c->pd, &qa);
	}
	if (c->qp)
		c->buf = calloc(1, len);
	if (c->buf)
		c->mr = ibv_reg_mr(c->pd, c->buf, len, IBV_ACCESS_LOCAL_WRITE);
	if (!c->mr) {
		snprintf(why, whylen, "cannot set up a QP on %s: %s",
			 ibv_get_device_name(id->verbs->device), strerror(errno));
		return -1;
	}
	return 0;
}

/* One completion, successful, by @deadline: 0, 1 none yet, -1 failed. */
static int poll_one(struct conn *c, struct ibv_wc *wc, char *why, size_t whylen)
{
	int n = ibv_poll_cq(c->cq, 1, wc);

	if (n < 0) {
		snprintf(why, whylen, "ibv_poll_cq failed");
		return -1;
	}
	if (!n)
		return 1;
	if (wc->status != IBV_WC_SUCCESS) {
		snprintf(why, whylen, "a %s completed with %s", wc->opcode & IBV_WC_RECV ?
			 "receive" : "send", ibv_wc_status_str(wc->status));
		return -1;
	}
	return 0;
}

static bool read_ctr(const char *dir, const char *name, uint64_t *v);
static int packet_socket(const char *netdev, char *why, size_t whylen);

#define QP_STATS_MAX (8 << 20)	/* bytes of qp_stats read at most */
#define RP_SAMPLE_MS 10		/* the peer's rate, sampled this often */

/* rocetune.ko's qp_stats line of QP @qpn under @path; false if none. */
static bool qp_line(const char *path, uint32_t qpn, struct rtune_stqp *out)
{
	struct rtune_stqp *qp = NULL;
	size_t len = 0, cap = 0;
	bool found = false;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i, n;

	if (fd < 0)
		return false;
	for (;;) {
		ssize_t r;

		if (cap - len < 4096) {
			char *nb = cap < QP_STATS_MAX ? realloc(buf, cap + 65536) : NULL;

			if (!nb)
				break;
			buf = nb;
			cap += 65536;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (!buf)
		return false;
	buf[len] = '\0';
	n = rtune_st_parse_qp_stats(buf, &qp);
	for (i = 0; i < n && !found; i++) {
		if (qp[i].qpn != qpn)
			continue;
		*out = qp[i];
		found = true;
	}
	free(qp);
	free(buf);
	return found;
}

static bool qp_has(const struct rtune_stqp *q, enum rtune_qp_id id)
{
	return q->valid & (1u << id);
}

/* The peer's watch of its reaction point (--probe-cnp). */
struct rp_watch {
	struct rtune_probe_cnp *c;
	int pfd;
	char qs[200], ctrdir[160];
	uint64_t handled0;
	long long next_ms;
};

static void rp_start(struct rp_watch *w, const struct rtune_probe_rp *rp)
{
	struct rtune_probe_cnp *c = rp->out;

	memset(c, 0, sizeof(*c));
	w->c = c;
	w->pfd = packet_socket(rp->netdev ? rp->netdev : "", c->note, sizeof(c->note));
	c->captured = w->pfd >= 0;
	w->qs[0] = w->ctrdir[0] = '\0';
	if (rp->ibdev && rp->ibdev[0]) {
		snprintf(w->qs, sizeof(w->qs), "/sys/kernel/config/rocetune/%s/ports/%d/qp_stats",
			 rp->ibdev, rp->port);
		snprintf(w->ctrdir, sizeof(w->ctrdir),
			 "/sys/class/infiniband/%s/ports/%d/hw_counters", rp->ibdev, rp->port);
		c->has_handled = read_ctr(w->ctrdir, "rp_cnp_handled", &w->handled0);
	}
	w->next_ms = 0;
}

/* Count the CNPs queued for the probe QP; sample its rate when due. */
static void rp_poll(struct rp_watch *w, bool force)
{
	struct rtune_probe_cnp *c = w->c;
	struct rtune_stqp q;

	while (w->pfd >= 0) {
		uint8_t buf[256];	/* headers are enough */
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		ssize_t n = recvfrom(w->pfd, buf, sizeof(buf), MSG_TRUNC, (struct sockaddr *)&from,
				     &fl);
		int tos;

		if (n < 0)
			break;
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;
		tos = rtune_probe_pkt_cnp(buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf),
					  c->qpn);
		if (tos >= 0) {
			c->cnps++;
			rtune_probe_tally(c->code, &c->ncodes, (uint8_t)tos);
		}
	}
	if (!w->qs[0] || (!force && now_ms() < w->next_ms))
		return;
	w->next_ms = now_ms() + RP_SAMPLE_MS;
	if (!qp_line(w->qs, c->qpn, &q) || !qp_has(&q, QP_RATE_KBPS))
		return;
	snprintf(c->state, sizeof(c->state), "%s", q.state);
	if (!c->has_qp)
		c->rate_first_kbps = c->rate_min_kbps = q.v[QP_RATE_KBPS];
	c->has_qp = true;
	if (q.v[QP_RATE_KBPS] < c->rate_min_kbps)
		c->rate_min_kbps = q.v[QP_RATE_KBPS];
	c->rate_last_kbps = q.v[QP_RATE_KBPS];
	if (qp_has(&q, QP_RATE_CUTS))
		c->rate_cuts = q.v[QP_RATE_CUTS];
	if (qp_has(&q, QP_CNP_RCVD))
		c->cnp_rcvd = q.v[QP_CNP_RCVD];
}

/* The last CNPs and sample, the counter's delta; closes the socket. */
static void rp_stop(struct rp_watch *w)
{
	struct rtune_probe_cnp *c = w->c;
	uint64_t v;

	if (!c)
		return;
	rp_poll(w, true);
	if (c->has_handled) {
		c->has_handled = read_ctr(w->ctrdir, "rp_cnp_handled", &v);
		c->cnp_handled = v - w->handled0;
	}
	if (w->pfd >= 0)
		close(w->pfd);
	w->pfd = -1;
	w->c = NULL;
}

static void nap(void)
{
	struct timespec ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
}

int rtune_probe_send(const char *dst, uint16_t port, int tos, const struct rtune_probe_req *req,
		     const struct rtune_probe_rp *rp, int timeout_ms, int *sent, bool *local_err,
		     char *why, size_t whylen)
{
	struct rp_watch w = { .pfd = -1 };
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST }, *ai;
	struct rdma_conn_param cp = { .retry_count = 3, .rnr_retry_count = 7 };
	long long deadline = now_ms() + timeout_ms;
	struct conn c = { 0 };
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id = NULL;
	int posted = 0, done = 0, ret = -1, err;
	int ladder = req->mtu ? RTUNE_PROBE_LADDER : 0, total = ladder + req->count;
	uint32_t bufsz = req->size > req->mtu ? req->size : req->mtu;
	char svc[8];

	*sent = 0;
	*local_err = true;
	snprintf(svc, sizeof(svc), "%u", port);
	err = getaddrinfo(dst, svc, &hints, &ai);
	if (err) {
		snprintf(why, whylen, "%s: %s", dst, gai_strerror(err));
		return -1;
	}
	c.ch = rdma_create_event_channel();
	if (!c.ch || nonblock(c.ch->fd) || rdma_create_id(c.ch, &id, NULL, RDMA_PS_TCP)) {
		snprintf(why, whylen, "rdma_cm: %s", strerror(errno));
		goto out;
	}
	if (tos >= 0) {
		uint8_t t = (uint8_t)tos;

		if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &t, sizeof(t))) {
			snprintf(why, whylen, "rdma_set_option TOS %d: %s", tos, strerror(errno));
			goto out;
		}
	}
	*local_err = false;
	if (rdma_resolve_addr(id, NULL, ai->ai_addr, timeout_ms)) {
		snprintf(why, whylen, "rdma_resolve_addr %s: %s", dst, strerror(errno));
		goto out;
	}
	if (wait_event(c.ch, RDMA_CM_EVENT_ADDR_RESOLVED, deadline, -1, &ev, why, whylen))
		goto out;
	rdma_ack_cm_event(ev);
	if (rdma_resolve_route(id, timeout_ms)) {
		snprintf(why, whylen, "rdma_resolve_route %s: %s", dst, strerror(errno));
		goto out;
	}
	if (wait_event(c.ch, RDMA_CM_EVENT_ROUTE_RESOLVED, deadline, -1, &ev, why, whylen))
		goto out;
	rdma_ack_cm_event(ev);
	if (conn_setup(&c, id, SEND_DEPTH, 1, bufsz, why, whylen)) {
		*local_err = true;
		goto out;
	}
	memset(c.buf, 0x5a, bufsz);
	if (rdma_connect(id, &cp)) {
		snprintf(why, whylen, "rdma_connect %s port %u: %s", dst, port, strerror(errno));
		goto out;
	}
	if (wait_event(c.ch, RDMA_CM_EVENT_ESTABLISHED, deadline, -1, &ev, why, whylen))
		goto out;
	rdma_ack_cm_event(ev);
	if (rp) {
		rp_start(&w, rp);
		rp->out->qpn = id->qp->qp_num;
	}
	/* the path MTU's ladder first (ascending, RC keeps the order), then
	 * the messages */
	while (done < total) {
		struct ibv_wc wc;
		int r;

		while (posted < total && posted - done < SEND_DEPTH) {
			struct ibv_sge sge = { (uintptr_t)c.buf, posted < ladder ?
					       rtune_probe_ladder_size(req->mtu, posted) :
					       req->size, c.mr->lkey };
			struct ibv_send_wr wr = { .wr_id = (uint64_t)posted, .sg_list = &sge,
						  .num_sge = 1, .opcode = IBV_WR_SEND }, *bad;

			if (ibv_post_send(id->qp, &wr, &bad)) {
				snprintf(why, whylen, "ibv_post_send: %s", strerror(errno));
				goto out;
			}
			posted++;
		}
		if (w.c)
			rp_poll(&w, false);
		r = poll_one(&c, &wc, why, whylen);
		if (r < 0)
			goto out;
		if (!r) {
			done++;
			continue;
		}
		if (now_ms() > deadline) {
			snprintf(why, whylen, "%d of %d messages sent within the time limit", done,
				 total);
			goto out;
		}
		nap();
	}
	ret = 0;
	if (w.c) {
		/* the CNPs for the last CE marks are still on their way */
		long long until = now_ms() + 50;

		while (now_ms() < until) {
			rp_poll(&w, false);
			nap();
		}
	}
out:
	/* while the QP still exists: its qp_stats line goes with it */
	rp_stop(&w);
	if (!ret)
		rdma_disconnect(id);
	*sent = done > ladder ? done - ladder : 0;
	conn_free(&c);
	if (id)
		rdma_destroy_id(id);
	if (c.ch)
		rdma_destroy_event_channel(c.ch);
	freeaddrinfo(ai);
	return ret;
}

struct rtune_probe_srv {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *lid;
	int pfd;			/* packet socket, or -1 */
	char pwhy[RTUNE_PROBE_NOTE_MAX + 1];	/* why there is none */
	char netdev[IF_NAMESIZE];
	char ctrdir[160];
	char qs[200];			/* rocetune.ko's qp_stats, "" without */
	uint64_t ctr0[NCTR];
	bool has_ctr[NCTR];
};

static bool read_ctr(const char *dir, const char *name, uint64_t *v)
{
	char path[256];
	unsigned long long x;
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fscanf(f, "%llu", &x) == 1;
	fclose(f);
	*v = x;
	return ok;
}

static int packet_socket(const char *netdev, char *why, size_t whylen)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL) };
	int fd, sz = 4 << 20;

	sll.sll_ifindex = (int)if_nametoindex(netdev);
	if (!sll.sll_ifindex) {
		snprintf(why, whylen, "no netdev %s to watch", netdev);
		return -1;
	}
	fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (fd < 0) {
		snprintf(why, whylen, "packet socket on %s: %s", netdev, strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		snprintf(why, whylen, "packet socket on %s: %s", netdev, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

struct rtune_probe_srv *rtune_probe_listen(const struct sockaddr *local, const char *netdev,
					   const char *ibdev, int ibport, uint16_t *port,
					   char *why, size_t whylen)
{
	struct rtune_probe_srv *s = calloc(1, sizeof(*s));
	struct sockaddr_storage a;
	int i;

	if (!s) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	s->pfd = -1;
	memcpy(&a, local, local->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
	       sizeof(struct sockaddr_in));
	if (a.ss_family == AF_INET)
		((struct sockaddr_in *)&a)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&a)->sin6_port = 0;
	s->ch = rdma_create_event_channel();
	if (!s->ch || nonblock(s->ch->fd) || rdma_create_id(s->ch, &s->lid, NULL, RDMA_PS_TCP) ||
	    rdma_bind_addr(s->lid, (struct sockaddr *)&a) || rdma_listen(s->lid, 1)) {
		snprintf(why, whylen, "rdma_cm listener: %s", strerror(errno));
		rtune_probe_close(s);
		return NULL;
	}
	*port = ntohs(rdma_get_src_port(s->lid));
	snprintf(s->netdev, sizeof(s->netdev), "%s", netdev ? netdev : "");
	s->pfd = packet_socket(s->netdev, s->pwhy, sizeof(s->pwhy));
	if (ibdev && ibdev[0]) {
		snprintf(s->ctrdir, sizeof(s->ctrdir), "/sys/class/infiniband/%s/ports/%d/hw_counters",
			 ibdev, ibport);
		for (i = 0; i < NCTR; i++)
			s->has_ctr[i] = read_ctr(s->ctrdir, hw_ctrs[i], &s->ctr0[i]);
		snprintf(s->qs, sizeof(s->qs), "/sys/kernel/config/rocetune/%s/ports/%d/qp_stats",
			 ibdev, ibport);
	}
	return s;
}

/* Count every queued packet of QP @qpn, and the CNPs this host sends to
 * the peer's QP @peer_qpn. */
static void drain(struct rtune_probe_srv *s, uint32_t qpn, uint32_t peer_qpn,
		  struct rtune_probe_result *r)
{
	uint8_t buf[256];	/* headers are enough */
	struct sockaddr_ll from;

	for (;;) {
		socklen_t fl = sizeof(from);
		ssize_t n = recvfrom(s->pfd, buf, sizeof(buf), MSG_TRUNC, (struct sockaddr *)&from,
				     &fl);
		int tos;

		if (n < 0)
			return;
		if (from.sll_pkttype == PACKET_OUTGOING) {
			/* the notification point's answers */
			tos = rtune_probe_pkt_cnp(buf, (size_t)n < sizeof(buf) ? (size_t)n :
						  sizeof(buf), peer_qpn);
			if (tos >= 0 && r->cnps_sent < UINT32_MAX) {
				r->cnps_sent++;
				rtune_probe_tally(r->cnp, &r->ncnp, (uint8_t)tos);
			}
			continue;
		}
		tos = rtune_probe_pkt_tos(buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf),
					  qpn);
		if (tos >= 0) {
			unsigned int len = rtune_probe_pkt_len(buf, sizeof(buf));

			rtune_probe_count(r, (uint8_t)tos);
			if (len > r->pkt_max && len <= 0xffff)
				r->pkt_max = (uint16_t)len;
		}
	}
}

/* The notification point's view of the probe QP (rocetune.ko on
 * Soft-RoCE): CE marks it counted and CNPs it sent, as counters. */
static void qp_counters(const struct rtune_probe_srv *s, struct rtune_probe_result *r)
{
	static const struct { enum rtune_qp_id id; const char *name; } c[] = {
		{ QP_CE_RCVD, "qp_ce_rcvd" }, { QP_CNP_SENT, "qp_cnp_sent" },
	};
	struct rtune_stqp q;
	unsigned int i;

	if (!s->qs[0] || !qp_line(s->qs, r->qpn, &q))
		return;
	for (i = 0; i < sizeof(c) / sizeof(c[0]) && r->nctr < RTUNE_PROBE_CTR_MAX; i++) {
		if (!qp_has(&q, c[i].id))
			continue;
		snprintf(r->ctr[r->nctr].name, sizeof(r->ctr[0].name), "%s", c[i].name);
		r->ctr[r->nctr++].delta = q.v[c[i].id];
	}
}

int rtune_probe_serve(struct rtune_probe_srv *s, const struct rtune_probe_req *req, int ctl_fd,
		      int timeout_ms, struct rtune_probe_result *r)
{
	struct rdma_conn_param cp = { .retry_count = 3, .rnr_retry_count = 7 };
	long long deadline = now_ms() + timeout_ms;
	struct rdma_cm_event *ev;
	struct conn c = { .ch = s->ch };
	struct rdma_cm_id *cid;
	char why[RTUNE_PROBE_NOTE_MAX + 1] = "";
	int ladder = req->mtu ? RTUNE_PROBE_LADDER : 0, total = ladder + req->count, got = 0;
	uint32_t peer_qpn = 0;
	size_t bufsz = req->size > req->mtu ? req->size : req->mtu;
	int i, ret = -1;

	memset(r, 0, sizeof(*r));
	r->captured = s->pfd >= 0;
	if (wait_event(s->ch, RDMA_CM_EVENT_CONNECT_REQUEST, deadline, ctl_fd, &ev, why,
		       sizeof(why)))
		goto out;
	cid = ev->id;
	peer_qpn = ev->param.conn.qp_num & 0xffffff;
	rdma_ack_cm_event(ev);
	if (conn_setup(&c, cid, 1, total, (size_t)total * bufsz, why, sizeof(why))) {
		rdma_reject(cid, NULL, 0);
		conn_free(&c);
		rdma_destroy_id(cid);
		goto out;
	}
	r->qpn = cid->qp->qp_num;
	for (i = 0; i < total; i++) {
		struct ibv_sge sge = { (uintptr_t)c.buf + (size_t)i * bufsz, (uint32_t)bufsz,
				       c.mr->lkey };
		struct ibv_recv_wr wr = { .wr_id = (uint64_t)i, .sg_list = &sge, .num_sge = 1 },
				   *bad;

		if (ibv_post_recv(cid->qp, &wr, &bad)) {
			snprintf(why, sizeof(why), "ibv_post_recv: %s", strerror(errno));
			goto drop;
		}
	}
	if (rdma_accept(cid, &cp)) {
		snprintf(why, sizeof(why), "rdma_accept: %s", strerror(errno));
		goto drop;
	}
	if (wait_event(s->ch, RDMA_CM_EVENT_ESTABLISHED, deadline, ctl_fd, &ev, why, sizeof(why)))
		goto drop;
	rdma_ack_cm_event(ev);
	/* receives complete in order: the ladder's first, then the messages */
	while (got < total) {
		struct pollfd pfd = { .fd = ctl_fd, .events = POLLIN };
		struct ibv_wc wc;
		int k;

		if (s->pfd >= 0)
			drain(s, r->qpn, peer_qpn, r);
		k = poll_one(&c, &wc, why, sizeof(why));
		if (k < 0)
			goto drop;
		if (!k) {
			if (got < ladder && wc.byte_len != rtune_probe_ladder_size(req->mtu, got)) {
				snprintf(why, sizeof(why), "path MTU message %d: %u bytes, not %u",
					 got, wc.byte_len, rtune_probe_ladder_size(req->mtu, got));
				goto drop;
			}
			if (got++ < ladder)
				r->ladder++;
			else
				r->received++;
			continue;
		}
		if (now_ms() > deadline) {
			snprintf(why, sizeof(why), "%u of %u messages (%u of %d path MTU sizes) within the time limit",
				 r->received, req->count, r->ladder, ladder);
			goto drop;
		}
		if (poll(&pfd, 1, 1) > 0) {
			snprintf(why, sizeof(why), "the peer ended the probe after %u of %u messages (%u of %d path MTU sizes)",
				 r->received, req->count, r->ladder, ladder);
			goto drop;
		}
	}
	ret = 0;
drop:
	if (s->pfd >= 0) {
		nap();
		drain(s, r->qpn, peer_qpn, r);
	}
	qp_counters(s, r);
	rdma_disconnect(cid);
	conn_free(&c);
	rdma_destroy_id(cid);
out:
	for (i = 0; i < NCTR && r->nctr < RTUNE_PROBE_CTR_MAX; i++) {
		uint64_t v;

		if (s->has_ctr[i] && read_ctr(s->ctrdir, hw_ctrs[i], &v)) {
			snprintf(r->ctr[r->nctr].name, sizeof(r->ctr[0].name), "%s", hw_ctrs[i]);
			r->ctr[r->nctr++].delta = v - s->ctr0[i];
		}
	}
	if (why[0])
		snprintf(r->note, sizeof(r->note), "%s", why);
	else if (s->pfd < 0)
		snprintf(r->note, sizeof(r->note), "%s", s->pwhy);
	return ret;
}

void rtune_probe_close(struct rtune_probe_srv *s)
{
	if (!s)
		return;
	if (s->pfd >= 0)
		close(s->pfd);
	if (s->lid)
		rdma_destroy_id(s->lid);
	if (s->ch)
		rdma_destroy_event_channel(s->ch);
	free(s);
}
