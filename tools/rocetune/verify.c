// SPDX-License-Identifier: GPL-2.0
/*
 * `rocetune verify` (verify.h): the connection, the two roles and the
 * report. The settings come from host.c as for `show`, their fingerprint
 * from fingerprint.c, the frames from vwire.c.
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include "host.h"
#include "output.h"
#include "probe.h"
#include "verify.h"
#include "vwire.h"

/* Differences listed at most (all are counted). */
#define MAX_DELTAS RTUNE_FP_ITEMS * 2

static struct rtune_host v_host;
static struct rtune_fp v_local, v_remote;
static struct rtune_fp_delta v_delta[MAX_DELTAS];
/* the local device local_fp() chose: the probe's netdev and counters */
static char v_netdev[32], v_ibdev[64];
static int v_port;

/* The probe's part of the report (--probe). */
struct probe_report {
	bool requested, ran;
	int sent;			/* peer: messages sent; -1 on the listener */
	uint16_t count, size;
	uint16_t mtu;			/* the path MTU ladder's top, 0: none */
	const char *result;		/* pass, fail, error */
	char error[400];
	struct rtune_probe_result res;
	bool cnp;			/* --probe-cnp: @rp is the peer's view */
	struct rtune_probe_cnp rp;
	int nfind;
	struct rtune_probe_finding find[RTUNE_PROBE_FINDINGS];
};

static struct probe_report v_probe;

struct sock_io {
	int fd;
	long long deadline_ms;
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for @ev on the socket until its deadline. */
static int sock_wait(struct sock_io *s, short ev)
{
	struct pollfd pfd = { .fd = s->fd, .events = ev };
	long long left = s->deadline_ms - now_ms();
	int r;

	if (left <= 0)
		return -ETIMEDOUT;
	r = poll(&pfd, 1, (int)left);
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	return r ? 0 : -ETIMEDOUT;
}

static int sock_read(void *ctx, void *buf, size_t n)
{
	struct sock_io *s = ctx;
	char *p = buf;

	while (n) {
		ssize_t r;
		int err = sock_wait(s, POLLIN);

		if (err)
			return err;
		r = recv(s->fd, p, n, MSG_DONTWAIT);
		if (r == 0)
			return -ECONNRESET;
		if (r < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static int sock_write(void *ctx, const void *buf, size_t n)
{
	struct sock_io *s = ctx;
	const char *p = buf;

	while (n) {
		ssize_t r;
		int err = sock_wait(s, POLLOUT);

		if (err)
			return err;
		r = send(s->fd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (r < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/*
 * This host's fingerprint: the device @dev names (netdev or RDMA device),
 * or the only netdev with an RDMA port. 0, or -1 with @why said.
 */
static int local_fp(const char *dev, char *label, size_t labellen, char *why, size_t whylen)
{
	struct nl_sock *sk = rtune_nl_open(NETLINK_ROUTE);
	char *names[1] = { (char *)dev }, host[64];
	const struct rtune_link *d = NULL;
	int err, i, n = 0;

	if (!sk) {
		snprintf(why, whylen, "cannot open rtnetlink: %s", strerror(errno));
		return -1;
	}
	err = host_collect(sk, NULL, names, dev ? 1 : 0, &v_host);
	nl_socket_free(sk);
	if (err) {
		snprintf(why, whylen, "cannot read the host state: %s", strerror(-err));
		return -1;
	}
	for (i = 0; i < v_host.n; i++) {
		if (!v_host.dev[i].has_ib && !dev)
			continue;
		d = &v_host.dev[i];
		n++;
	}
	if (n > 1) {
		snprintf(why, whylen, "%d netdevs with an RDMA port: choose one with --dev", n);
		return -1;
	}
	if (!n) {
		if (dev)
			snprintf(why, whylen, "no netdev or RDMA device named '%s'", dev);
		else
			snprintf(why, whylen, "no netdev with an RDMA port on this host");
		return -1;
	}
	err = rtune_fp_collect(&v_local, d);
	if (err) {
		snprintf(why, whylen, "the settings do not fit a fingerprint: %s", strerror(-err));
		return -1;
	}
	if (gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "?");
	host[sizeof(host) - 1] = '\0';
	snprintf(v_netdev, sizeof(v_netdev), "%s", d->netdev);
	snprintf(v_ibdev, sizeof(v_ibdev), "%s", d->has_ib ? d->ibdev : "");
	v_port = d->has_ib ? (int)d->port : 0;
	if (d->has_ib)
		snprintf(label, labellen, "%.40s %.15s %.40s/%u", host, d->netdev, d->ibdev,
			 d->port);
	else
		snprintf(label, labellen, "%.60s %s", host, d->netdev);
	return 0;
}

/* The first 16 bytes of the SHA-256 of @fp's canonical form, in hex. */
static void fp_digest(const struct rtune_fp *fp, char *hex)
{
	static char buf[RTUNE_FP_WIRE_MAX];
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;
	int n = rtune_fp_format(fp, buf, sizeof(buf));

	hex[0] = '\0';
	if (n < 0 || !EVP_Digest(buf, (size_t)n, md, &mdlen, EVP_sha256(), NULL))
		return;
	for (i = 0; i < 16 && i < mdlen; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
}

struct report {
	const char *role;	/* "peer" (connected) or "listener" */
	char addr[80];		/* the other side's address */
	char local[RTUNE_VW_LABEL_MAX + 1], remote[RTUNE_VW_LABEL_MAX + 1];
	bool have_local, have_remote;
	int ndelta;
	const char *result;	/* pass, fail, not-run, refused */
	char why[400];
	int code;
};

static void json_side(struct jw *j, const char *key, const char *label,
		      const struct rtune_fp *fp, const char *addr)
{
	char hex[40];
	int i;

	jw_obj(j, key);
	if (addr)
		jw_str(j, "address", addr);
	if (!label) {
		jw_end_obj(j);
		return;
	}
	fp_digest(fp, hex);
	jw_str(j, "label", label);
	jw_str(j, "fingerprint", hex);
	jw_obj(j, "settings");
	for (i = 0; i < fp->n; i++)
		jw_str(j, fp->it[i].key, fp->it[i].val);
	jw_end_obj(j);
	jw_end_obj(j);
}

/* The peer's view of the reaction point (--probe-cnp), else null. */
static void json_cnp(struct jw *j, const struct probe_report *p)
{
	const struct rtune_probe_cnp *c = &p->rp;
	int i;

	if (!p->cnp || !p->ran) {
		jw_null(j, "cnp");
		return;
	}
	jw_obj(j, "cnp");
	jw_int(j, "qpn", c->qpn);
	jw_bool(j, "captured", c->captured);
	jw_int(j, "cnps", c->cnps);
	jw_arr(j, "observed");
	for (i = 0; i < c->ncodes; i++) {
		jw_obj(j, NULL);
		jw_int(j, "dscp", c->code[i].tos >> 2);
		jw_int(j, "ecn", c->code[i].tos & 3);
		jw_int(j, "packets", c->code[i].count);
		jw_end_obj(j);
	}
	jw_end_arr(j);
	if (c->has_qp) {
		jw_obj(j, "qp_stats");
		jw_str(j, "state", c->state);
		jw_int(j, "rate_first_kbps", (long long)c->rate_first_kbps);
		jw_int(j, "rate_min_kbps", (long long)c->rate_min_kbps);
		jw_int(j, "rate_last_kbps", (long long)c->rate_last_kbps);
		jw_int(j, "rate_cuts", (long long)c->rate_cuts);
		jw_int(j, "cnp_rcvd", (long long)c->cnp_rcvd);
		jw_end_obj(j);
	} else {
		jw_null(j, "qp_stats");
	}
	if (c->has_handled)
		jw_int(j, "rp_cnp_handled", (long long)c->cnp_handled);
	else
		jw_null(j, "rp_cnp_handled");
	jw_str(j, "note", c->note[0] ? c->note : NULL);
	jw_end_obj(j);
}

/*
 * "observed": packets counted per ToS, as DSCP and ECN; with @np, also the
 * priority @np's DSCP map gives each DSCP.
 */
static void json_observed(struct jw *j, const struct rtune_probe_code *c, int n,
			  const struct rtune_fp *np)
{
	int i;

	jw_arr(j, "observed");
	for (i = 0; i < n; i++) {
		jw_obj(j, NULL);
		jw_int(j, "dscp", c[i].tos >> 2);
		jw_int(j, "ecn", c[i].tos & 3);
		if (np)
			jw_int(j, "prio", rtune_probe_prio_of(np, c[i].tos >> 2));
		jw_int(j, "packets", c[i].count);
		jw_end_obj(j);
	}
	jw_end_arr(j);
}

/* The CNPs the listener sent to the peer's QP (its own report), where it
 * watched its netdev, else null. */
static void json_cnp_sent(struct jw *j, const struct probe_report *p, const struct rtune_fp *np)
{
	if (!p->ran || !p->res.captured) {
		jw_null(j, "cnp_sent");
		return;
	}
	jw_obj(j, "cnp_sent");
	jw_int(j, "cnps", p->res.cnps_sent);
	json_observed(j, p->res.cnp, p->res.ncnp, np);
	jw_end_obj(j);
}

/* The path MTU ladder, where it ran, else null. */
static void json_path_mtu(struct jw *j, const struct probe_report *p)
{
	if (!p->ran || !p->mtu) {
		jw_null(j, "path_mtu");
		return;
	}
	jw_obj(j, "path_mtu");
	jw_int(j, "mtu", p->mtu);
	jw_int(j, "sizes", RTUNE_PROBE_LADDER);
	jw_int(j, "arrived", p->res.ladder);
	if (p->res.ladder)
		jw_int(j, "largest_message", rtune_probe_ladder_size(p->mtu, p->res.ladder - 1));
	else
		jw_null(j, "largest_message");
	if (p->res.captured && p->res.pkt_max)
		jw_int(j, "largest_packet", p->res.pkt_max);
	else
		jw_null(j, "largest_packet");
	jw_end_obj(j);
}

static void json_probe(struct jw *j, const struct probe_report *p, const struct rtune_fp *np)
{
	int i;

	if (!p->requested) {
		jw_null(j, "probe");
		return;
	}
	jw_obj(j, "probe");
	jw_str(j, "result", p->result);
	jw_str(j, "error", p->error[0] ? p->error : NULL);
	jw_int(j, "count", p->count);
	jw_int(j, "size", p->size);
	if (p->sent >= 0)
		jw_int(j, "sent", p->sent);
	if (p->ran) {
		jw_int(j, "received", p->res.received);
		jw_int(j, "qpn", p->res.qpn);
		jw_bool(j, "captured", p->res.captured);
		jw_int(j, "packets", p->res.packets);
		json_observed(j, p->res.code, p->res.ncodes, NULL);
		jw_obj(j, "counters");
		for (i = 0; i < p->res.nctr; i++)
			jw_int(j, p->res.ctr[i].name, (long long)p->res.ctr[i].delta);
		jw_end_obj(j);
		jw_str(j, "note", p->res.note[0] ? p->res.note : NULL);
	}
	json_path_mtu(j, p);
	json_cnp_sent(j, p, np);
	json_cnp(j, p);
	jw_arr(j, "checks");
	for (i = 0; i < p->nfind; i++) {
		const struct rtune_probe_finding *f = &p->find[i];

		jw_obj(j, NULL);
		jw_str(j, "check", f->check);
		jw_str(j, "verdict", f->verdict);
		jw_str(j, "host", f->host);
		jw_str(j, "setting", f->setting[0] ? f->setting : NULL);
		jw_str(j, "value", f->value[0] ? f->value : NULL);
		jw_str(j, "promised", f->promised);
		jw_str(j, "observed", f->observed);
		jw_end_obj(j);
	}
	jw_end_arr(j);
	jw_end_obj(j);
}

static void text_probe(const struct probe_report *p, const struct rtune_fp *np)
{
	static const char *const ecn[] = { "Not-ECT", "ECT(1)", "ECT(0)", "CE" };
	int i;

	if (!p->requested)
		return;
	if (p->ran) {
		printf("  probe: %u of %u messages of %u bytes arrived; QP 0x%x: %u packets seen",
		       p->res.received, p->count, p->size, p->res.qpn, p->res.packets);
		for (i = 0; i < p->res.ncodes; i++)
			printf("%s DSCP %d %s x%u", i ? "," : ":", p->res.code[i].tos >> 2,
			       ecn[p->res.code[i].tos & 3], p->res.code[i].count);
		printf("\n");
		for (i = 0; i < p->res.nctr; i++)
			printf("  probe: counter %s +%llu\n", p->res.ctr[i].name,
			       (unsigned long long)p->res.ctr[i].delta);
	}
	if (p->ran && p->mtu) {
		printf("  probe: path MTU: %u of %d sizes up to %u bytes arrived", p->res.ladder,
		       RTUNE_PROBE_LADDER, p->mtu);
		if (p->res.ladder)
			printf(", the largest %u bytes",
			       rtune_probe_ladder_size(p->mtu, p->res.ladder - 1));
		if (p->res.captured && p->res.pkt_max)
			printf("; largest packet %u IP bytes", p->res.pkt_max);
		printf("\n");
	}
	if (p->ran && p->res.captured && p->res.cnps_sent) {
		printf("  probe: the listener sent %u CNPs", p->res.cnps_sent);
		for (i = 0; i < p->res.ncnp; i++)
			printf("%s DSCP %d (priority %d) %s x%u", i ? "," : ":",
			       p->res.cnp[i].tos >> 2, rtune_probe_prio_of(np, p->res.cnp[i].tos >> 2),
			       ecn[p->res.cnp[i].tos & 3], p->res.cnp[i].count);
		printf("\n");
	}
	if (p->ran && p->cnp) {
		const struct rtune_probe_cnp *c = &p->rp;

		printf("  probe: %u CNPs back to QP 0x%x", c->cnps, c->qpn);
		for (i = 0; i < c->ncodes; i++)
			printf("%s DSCP %d %s x%u", i ? "," : ":", c->code[i].tos >> 2,
			       ecn[c->code[i].tos & 3], c->code[i].count);
		if (c->has_qp)
			printf("; rate %llu -> lowest %llu -> %llu kb/s, %llu cuts",
			       (unsigned long long)c->rate_first_kbps,
			       (unsigned long long)c->rate_min_kbps,
			       (unsigned long long)c->rate_last_kbps,
			       (unsigned long long)c->rate_cuts);
		if (c->has_handled)
			printf("; rp_cnp_handled +%llu", (unsigned long long)c->cnp_handled);
		printf("\n");
	}
	for (i = 0; i < p->nfind; i++) {
		const struct rtune_probe_finding *f = &p->find[i];

		printf("  probe %s: %s: %s%s%s%s%s: promised %s; observed %s\n", f->check,
		       !strcmp(f->verdict, "fail") ? "FAIL" : f->verdict, f->host,
		       f->setting[0] ? " " : "", f->setting, f->value[0] ? "=" : "", f->value,
		       f->promised[0] ? f->promised : "-", f->observed);
	}
	if (p->error[0])
		printf("  probe: ERROR: %s\n", p->error);
	printf("  probe: %s\n", !strcmp(p->result, "pass") ? "PASS" :
	       !strcmp(p->result, "fail") ? "FAIL" : "ERROR");
}

static void report(const struct rtune_verify_opts *o, const struct report *r)
{
	int i, shown = r->ndelta < MAX_DELTAS ? r->ndelta : MAX_DELTAS;
	char hex[40];

	if (o->json) {
		struct jw j;

		jw_init(&j, stdout);
		jw_obj(&j, NULL);
		jw_int(&j, "json_version", RTUNE_JSON_VERSION);
		/* 2: "probe" added; 3: "probe.cnp" and the cnp_dscp and
		 * rate_reaction checks (--probe-cnp); 4: "probe.path_mtu" and
		 * the path_mtu check */
		jw_int(&j, "verify_version", 4);
		jw_str(&j, "tool", "rocetune");
		jw_str(&j, "version", RTUNE_VERSION);
		jw_str(&j, "command", "verify");
		jw_str(&j, "role", r->role);
		json_side(&j, "local", r->have_local ? r->local : NULL, &v_local, NULL);
		json_side(&j, "remote", r->have_remote ? r->remote : NULL, &v_remote, r->addr);
		jw_arr(&j, "differences");
		for (i = 0; i < shown; i++) {
			jw_obj(&j, NULL);
			jw_str(&j, "setting", v_delta[i].key);
			jw_str(&j, "local", v_delta[i].a);
			jw_str(&j, "remote", v_delta[i].b);
			jw_end_obj(&j);
		}
		jw_end_arr(&j);
		json_probe(&j, &v_probe, !strcmp(r->role, "peer") ? &v_remote : &v_local);
		jw_str(&j, "result", r->result);
		jw_str(&j, "reason", r->why[0] ? r->why : NULL);
		jw_int(&j, "exit_code", r->code);
		jw_end_obj(&j);
		fflush(stdout);
		return;
	}
	printf("verify (%s): local %s, remote %s%s%s%s\n", r->role,
	       r->have_local ? r->local : "?", r->have_remote ? r->remote : "?",
	       r->addr[0] ? " (" : "", r->addr, r->addr[0] ? ")" : "");
	if (r->have_local) {
		fp_digest(&v_local, hex);
		printf("  local  fingerprint %s (%d settings)\n", hex, v_local.n);
	}
	if (r->have_remote) {
		fp_digest(&v_remote, hex);
		printf("  remote fingerprint %s (%d settings)\n", hex, v_remote.n);
	}
	for (i = 0; i < shown; i++)
		printf("  differs: %s: local %s; remote %s\n", v_delta[i].key,
		       v_delta[i].a ? v_delta[i].a : "(absent)",
		       v_delta[i].b ? v_delta[i].b : "(absent)");
	text_probe(&v_probe, !strcmp(r->role, "peer") ? &v_remote : &v_local);
	if (!strcmp(r->result, "pass"))
		printf("verify: PASS: %d settings agree%s\n", v_local.n,
		       v_probe.requested ? ", the probe flow passed" : "");
	else if (!strcmp(r->result, "fail"))
		printf("verify: FAIL: %d setting%s differ%s%s\n", r->ndelta, r->ndelta == 1 ? "" : "s",
		       r->ndelta == 1 ? "s" : "", v_probe.requested &&
		       strcmp(v_probe.result, "pass") ? "; the probe flow failed" : "");
	else
		printf("verify: %s: %s\n", !strcmp(r->result, "refused") ? "REFUSED" : "NOT RUN",
		       r->why);
	fflush(stdout);
}

/* Could not verify: @why (may be r->why itself). */
static void not_run(struct report *r, const char *result, const char *why)
{
	r->result = result;
	r->code = RTUNE_VERIFY_NOT_RUN;
	if (why != r->why)
		snprintf(r->why, sizeof(r->why), "%s", why);
}

static void compare(struct report *r)
{
	r->ndelta = rtune_fp_diff(&v_local, &v_remote, v_delta, MAX_DELTAS);
	r->result = r->ndelta ? "fail" : "pass";
	r->code = r->ndelta ? RTUNE_VERIFY_FAIL : RTUNE_VERIFY_PASS;
}

/* The probe's outcome into the report: a failed probe fails a pass, a
 * probe that could not run leaves "not-run" on an otherwise passing one. */
static void probe_verdict(struct report *r, bool local_err)
{
	bool failed = false;

	if (v_probe.ran)
		/* every message asked for must arrive, on both sides' view */
		v_probe.nfind = rtune_probe_check(&v_probe.res, v_probe.count,
						  !strcmp(r->role, "peer") ? r->remote : r->local,
						  !strcmp(r->role, "peer") ? &v_remote : &v_local,
						  !strcmp(r->role, "peer") ? r->local : r->remote,
						  !strcmp(r->role, "peer") ? &v_local : &v_remote,
						  v_probe.find, &failed);
	if (v_probe.ran)
		v_probe.nfind = rtune_probe_check_mtu(&v_probe.res, v_probe.mtu,
						      !strcmp(r->role, "peer") ? r->remote : r->local,
						      !strcmp(r->role, "peer") ? &v_remote : &v_local,
						      !strcmp(r->role, "peer") ? r->local : r->remote,
						      !strcmp(r->role, "peer") ? &v_local : &v_remote,
						      v_probe.find, v_probe.nfind, &failed);
	if (v_probe.ran && v_probe.cnp)
		/* the peer's view only: the listener never sees the CNPs */
		v_probe.nfind = rtune_probe_check_cnp(&v_probe.res, &v_probe.rp, r->remote,
						      &v_remote, r->local, &v_local, v_probe.find,
						      v_probe.nfind, &failed);
	if (v_probe.error[0] && !local_err)
		failed = true;
	v_probe.result = failed ? "fail" : v_probe.error[0] ? "error" : "pass";
	if (!strcmp(r->result, "pass") && failed) {
		r->result = "fail";
		r->code = RTUNE_VERIFY_FAIL;
	} else if (!strcmp(r->result, "pass") && v_probe.error[0]) {
		not_run(r, "not-run", v_probe.error);
	}
}

/* Say why the listener's result is missing, after what the flow said if
 * it failed first: both are needed to tell who gave up. */
static void probe_error_add(const char *why)
{
	size_t n = strlen(v_probe.error);

	if (!n)
		snprintf(v_probe.error, sizeof(v_probe.error), "%.300s", why);
	else if (n < sizeof(v_probe.error) - 1)
		snprintf(v_probe.error + n, sizeof(v_probe.error) - n, "; then %s", why);
}

/*
 * The peer's probe (probe.h), on the authenticated connection @w to the
 * listener at @addr: ask, learn the port, send, read what arrived.
 */
static void probe_peer(const struct rtune_verify_opts *o, struct rtune_vw *w, struct sock_io *s,
		       struct report *r)
{
	struct rtune_probe_req req = {
		o->probe_count ? o->probe_count : o->probe_cnp ? RTUNE_VERIFY_CNP_COUNT :
		RTUNE_VERIFY_PROBE_COUNT,
		o->probe_size ? o->probe_size : o->probe_cnp ? RTUNE_VERIFY_CNP_SIZE :
		RTUNE_VERIFY_PROBE_SIZE, 0 };
	struct rtune_probe_rp rp = { v_netdev, v_ibdev, v_port, &v_probe.rp };
	const char *tos_s = rtune_fp_get(&v_local, "rdma_cm.tos");
	uint8_t buf[RTUNE_PROBE_REQ_LEN], *p;
	bool local_err = false;
	char why[200];
	uint16_t port;
	size_t n;
	int err;

	v_probe.requested = true;
	v_probe.cnp = o->probe_cnp;
	/* full-size messages of the RoCE MTU both hosts have */
	req.mtu = rtune_probe_mtu_of(&v_local, &v_remote);
	v_probe.count = req.count;
	v_probe.size = (uint16_t)req.size;
	v_probe.mtu = req.mtu;
	/* the settings exchange had its time; the probe has its own */
	s->deadline_ms = now_ms() + 2LL * o->timeout_ms + 1000;
	rtune_probe_enc_req(&req, buf);
	err = rtune_vw_send(w, RTUNE_VW_PROBE_REQ, buf, sizeof(buf));
	if (!err)
		err = rtune_vw_recv(w, RTUNE_VW_PROBE_PORT, &p, &n);
	if (err) {
		snprintf(v_probe.error, sizeof(v_probe.error), "probe request: %.300s", w->why);
		goto out;
	}
	err = rtune_probe_parse_port(p, n, &port, why, sizeof(why));
	free(p);
	if (err) {
		snprintf(v_probe.error, sizeof(v_probe.error), "%s", why);
		goto out;
	}
	/* the profile's RDMA-CM ToS as this host has it; the fingerprints
	 * already compared it with the listener's */
	if (rtune_probe_send(r->addr, port, tos_s ? atoi(tos_s) : -1, &req,
			     o->probe_cnp ? &rp : NULL, o->timeout_ms, &v_probe.sent, &local_err,
			     why, sizeof(why))) {
		snprintf(v_probe.error, sizeof(v_probe.error), "probe flow to %s port %u: %s",
			 r->addr, port, why);
		/* tell the listener to stop waiting; its result still follows */
		rtune_vw_send_error(w, "probe: the peer gave up");
	}
	/* the listener's flow is bounded by its --timeout from PROBE_PORT on;
	 * its teardown and result may come after ours timed out: as much again */
	if (s->deadline_ms < now_ms() + o->timeout_ms + 1000)
		s->deadline_ms = now_ms() + o->timeout_ms + 1000;
	err = rtune_vw_recv(w, RTUNE_VW_PROBE_RESULT, &p, &n);
	if (err) {
		snprintf(why, sizeof(why), "probe result: %.180s", w->why);
		probe_error_add(why);
		goto out;
	}
	err = rtune_probe_parse_result(p, n, &v_probe.res, why, sizeof(why));
	free(p);
	if (err) {
		probe_error_add(why);
		goto out;
	}
	v_probe.ran = true;
out:
	probe_verdict(r, local_err);
}

/* The listener's side: after the fingerprints, a probe if the peer asks. */
static void probe_listener(const struct rtune_verify_opts *o, struct rtune_vw *w,
			   struct sock_io *s, struct report *r)
{
	struct sockaddr_storage sa;
	socklen_t salen = sizeof(sa);
	struct rtune_probe_srv *srv;
	struct rtune_probe_req req;
	uint8_t *p, out[RTUNE_PROBE_RESULT_MAX];
	char why[RTUNE_PROBE_NOTE_MAX + 1];
	uint16_t port;
	size_t n;
	int len;

	s->deadline_ms = now_ms() + o->timeout_ms;
	/* a peer that wants no probe closes the connection here */
	if (rtune_vw_recv(w, RTUNE_VW_PROBE_REQ, &p, &n))
		return;
	v_probe.requested = true;
	v_probe.sent = -1;
	if (rtune_probe_parse_req(p, n, &req, why, sizeof(why))) {
		free(p);
		rtune_vw_send_error(w, why);
		snprintf(v_probe.error, sizeof(v_probe.error), "%s", why);
		goto out;
	}
	free(p);
	v_probe.count = req.count;
	v_probe.size = (uint16_t)req.size;
	v_probe.mtu = req.mtu;
	if (getsockname(s->fd, (struct sockaddr *)&sa, &salen)) {
		snprintf(v_probe.error, sizeof(v_probe.error), "getsockname: %s", strerror(errno));
		rtune_vw_send_error(w, "probe: the listener cannot set up");
		goto out;
	}
	if (sa.ss_family == AF_INET6 &&
	    IN6_IS_ADDR_V4MAPPED(&((struct sockaddr_in6 *)&sa)->sin6_addr)) {
		struct sockaddr_in v4 = { .sin_family = AF_INET };

		memcpy(&v4.sin_addr, ((struct sockaddr_in6 *)&sa)->sin6_addr.s6_addr + 12, 4);
		memcpy(&sa, &v4, sizeof(v4));
	}
	srv = rtune_probe_listen((struct sockaddr *)&sa, v_netdev, v_ibdev, v_port, &port, why,
				 sizeof(why));
	if (!srv) {
		snprintf(v_probe.error, sizeof(v_probe.error), "%s", why);
		rtune_vw_send_error(w, "probe: the listener cannot set up");
		goto out;
	}
	rtune_probe_enc_port(port, out);
	s->deadline_ms = now_ms() + 2LL * o->timeout_ms + 1000;
	if (rtune_vw_send(w, RTUNE_VW_PROBE_PORT, out, RTUNE_PROBE_PORT_LEN)) {
		snprintf(v_probe.error, sizeof(v_probe.error), "probe: %.300s", w->why);
		rtune_probe_close(srv);
		goto out;
	}
	rtune_probe_serve(srv, &req, s->fd, o->timeout_ms, &v_probe.res);
	rtune_probe_close(srv);
	v_probe.ran = true;
	/* the result is due now, however long the flow's teardown took */
	s->deadline_ms = now_ms() + o->timeout_ms;
	len = rtune_probe_enc_result(&v_probe.res, out, sizeof(out));
	if (len < 0 || rtune_vw_send(w, RTUNE_VW_PROBE_RESULT, out, (size_t)len))
		snprintf(v_probe.error, sizeof(v_probe.error), "probe: cannot send the result");
out:
	probe_verdict(r, false);
}

/* Connect to @o->peer; the socket, or -1 with @why said. */
static int dial(const struct rtune_verify_opts *o, char *addr, size_t addrlen, char *why,
		size_t whylen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	struct timeval tv = { .tv_sec = o->timeout_ms / 1000,
			      .tv_usec = (o->timeout_ms % 1000) * 1000 };
	int fd = -1, err;

	err = getaddrinfo(o->peer, o->port, &hints, &ai);
	if (err) {
		snprintf(why, whylen, "%s: %s", o->peer, gai_strerror(err));
		return -1;
	}
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0)
			continue;
		/* bounds connect() too */
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		getnameinfo(a->ai_addr, a->ai_addrlen, addr, (socklen_t)addrlen, NULL, 0,
			    NI_NUMERICHOST);
		if (!connect(fd, a->ai_addr, a->ai_addrlen))
			break;
		snprintf(why, whylen, "connect to %s port %s: %s", addr, o->port, strerror(errno));
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

static int run_peer(const struct rtune_verify_opts *o, const uint8_t *key, size_t keylen)
{
	struct report r = { .role = "peer" };
	struct sock_io s;
	struct rtune_vw_io io = { sock_read, sock_write, &s };
	struct rtune_vw w;
	int err;

	if (local_fp(o->dev, r.local, sizeof(r.local), r.why, sizeof(r.why))) {
		not_run(&r, "not-run", r.why);
		goto out;
	}
	r.have_local = true;
	s.fd = dial(o, r.addr, sizeof(r.addr), r.why, sizeof(r.why));
	if (s.fd < 0) {
		not_run(&r, "not-run", r.why);
		goto out;
	}
	s.deadline_ms = now_ms() + o->timeout_ms;
	rtune_vw_init(&w, &io, key, keylen);
	err = rtune_vw_auth_peer(&w);
	if (!err)
		err = rtune_vw_send_fp(&w, r.local, &v_local);
	if (!err)
		err = rtune_vw_recv_fp(&w, r.remote, sizeof(r.remote), &v_remote);
	if (err) {
		close(s.fd);
		not_run(&r, err == RTUNE_VW_EAUTH || (err == RTUNE_VW_EPEER && !w.authed) ?
			"refused" : "not-run", w.why);
		goto out;
	}
	r.have_remote = true;
	compare(&r);
	if (o->probe)
		probe_peer(o, &w, &s, &r);
	close(s.fd);
out:
	report(o, &r);
	return r.code;
}

/* One connection to the listener: 1 when it ended in a verification. */
static int serve(const struct rtune_verify_opts *o, int fd, const char *addr, const uint8_t *key,
		 size_t keylen, int *code)
{
	struct report r = { .role = "listener" };
	struct sock_io s = { fd, now_ms() + o->timeout_ms };

	memset(&v_probe, 0, sizeof(v_probe));
	struct rtune_vw_io io = { sock_read, sock_write, &s };
	char why[300];
	struct rtune_vw w;
	int err;

	snprintf(r.addr, sizeof(r.addr), "%s", addr);
	rtune_vw_init(&w, &io, key, keylen);
	/* nothing but the three authentication frames is read before this passes */
	err = rtune_vw_auth_listener(&w);
	if (err) {
		snprintf(why, sizeof(why), "authentication: %.250s", w.why);
		not_run(&r, "refused", why);
		report(o, &r);
		return 0;
	}
	err = rtune_vw_recv_fp(&w, r.remote, sizeof(r.remote), &v_remote);
	if (err) {
		not_run(&r, "not-run", w.why);
		goto out;
	}
	r.have_remote = true;
	if (local_fp(o->dev, r.local, sizeof(r.local), why, sizeof(why))) {
		rtune_vw_send_error(&w, why);
		not_run(&r, "not-run", why);
		goto out;
	}
	r.have_local = true;
	err = rtune_vw_send_fp(&w, r.local, &v_local);
	if (err) {
		not_run(&r, "not-run", w.why);
		goto out;
	}
	compare(&r);
	probe_listener(o, &w, &s, &r);
out:
	report(o, &r);
	*code = r.code;
	return 1;
}

static int run_listener(const struct rtune_verify_opts *o, const uint8_t *key, size_t keylen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE,
				  .ai_family = o->bind ? AF_UNSPEC : AF_INET6 }, *ai;
	int lfd, err, one = 1, zero = 0, code = RTUNE_VERIFY_NOT_RUN;

	err = getaddrinfo(o->bind, o->port, &hints, &ai);
	if (err && !o->bind) {	/* no IPv6: IPv4 any */
		hints.ai_family = AF_INET;
		err = getaddrinfo(NULL, o->port, &hints, &ai);
	}
	if (err) {
		fprintf(stderr, "rocetune verify: %s: %s\n", o->bind ? o->bind : "any",
			gai_strerror(err));
		return RTUNE_VERIFY_NOT_RUN;
	}
	lfd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
	if (lfd >= 0) {
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6)
			setsockopt(lfd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	}
	/* a backlog of 1: one connection at a time, served to the end */
	if (lfd < 0 || bind(lfd, ai->ai_addr, ai->ai_addrlen) || listen(lfd, 1)) {
		fprintf(stderr, "rocetune verify: cannot listen on port %s: %s\n", o->port,
			strerror(errno));
		freeaddrinfo(ai);
		if (lfd >= 0)
			close(lfd);
		return RTUNE_VERIFY_NOT_RUN;
	}
	freeaddrinfo(ai);
	if (!o->json)
		fprintf(stderr, "rocetune verify: listening on port %s\n", o->port);
	for (;;) {
		struct sockaddr_storage sa;
		socklen_t salen = sizeof(sa);
		char addr[80] = "?";
		int fd = accept4(lfd, (struct sockaddr *)&sa, &salen, SOCK_CLOEXEC), done;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			fprintf(stderr, "rocetune verify: accept: %s\n", strerror(errno));
			break;
		}
		getnameinfo((struct sockaddr *)&sa, salen, addr, sizeof(addr), NULL, 0,
			    NI_NUMERICHOST);
		done = serve(o, fd, addr, key, keylen, &code);
		close(fd);
		if (done && !o->forever)
			break;
	}
	close(lfd);
	return code;
}

int rtune_verify(const struct rtune_verify_opts *o)
{
	static uint8_t key[RTUNE_VW_KEY_MAX];
	size_t keylen = 0;
	char why[400];
	int code;

	if (rtune_vw_load_key(o->key, key, &keylen, why, sizeof(why))) {
		struct report r = { .role = o->listen ? "listener" : "peer" };

		not_run(&r, "not-run", why);
		report(o, &r);
		return r.code;
	}
	code = o->listen ? run_listener(o, key, keylen) : run_peer(o, key, keylen);
	OPENSSL_cleanse(key, sizeof(key));
	return code;
}
