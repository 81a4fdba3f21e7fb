// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling for `rocetune stats` and `rocetune top`: which devices (the same
 * selection as `show`, host.c), then per device the counters of each
 * source, each marked valid only when its source reported it; rates from
 * two samples; the sort orders of top.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/if.h>
#include <netlink/route/link.h>
#include "cfs.h"
#include "dcb.h"
#include "host.h"
#include "qpctr.h"
#include "stats.h"
#include "../../kmod/core/counter_names.h"

const struct rtune_st_desc rtune_st_descs[ST_COUNT] = {
	[ST_RX_BYTES] = { "rx_bytes", "rocetune_netdev_receive_bytes_total",
		"Bytes received by the netdev.", ST_NETDEV, "rtnetlink IFLA_STATS64 rx_bytes" },
	[ST_TX_BYTES] = { "tx_bytes", "rocetune_netdev_transmit_bytes_total",
		"Bytes sent by the netdev.", ST_NETDEV, "rtnetlink IFLA_STATS64 tx_bytes" },
	[ST_RX_PACKETS] = { "rx_packets", "rocetune_netdev_receive_packets_total",
		"Packets received by the netdev.", ST_NETDEV, "rtnetlink IFLA_STATS64 rx_packets" },
	[ST_TX_PACKETS] = { "tx_packets", "rocetune_netdev_transmit_packets_total",
		"Packets sent by the netdev.", ST_NETDEV, "rtnetlink IFLA_STATS64 tx_packets" },
	[ST_RX_DROPPED] = { "rx_dropped", "rocetune_netdev_receive_drops_total",
		"Received packets the netdev dropped.", ST_NETDEV, "rtnetlink IFLA_STATS64 rx_dropped" },
	[ST_TX_DROPPED] = { "tx_dropped", "rocetune_netdev_transmit_drops_total",
		"Packets to send the netdev dropped.", ST_NETDEV, "rtnetlink IFLA_STATS64 tx_dropped" },
	[ST_PAUSE_TX] = { "pause_tx_frames", "rocetune_link_pause_frames_sent_total",
		"802.3x pause frames sent (all priorities).", ST_NETDEV,
		"ethtool netlink PAUSE_GET stats tx_pause_frames" },
	[ST_PAUSE_RX] = { "pause_rx_frames", "rocetune_link_pause_frames_received_total",
		"802.3x pause frames received (all priorities).", ST_NETDEV,
		"ethtool netlink PAUSE_GET stats rx_pause_frames" },
	[ST_FCS_ERR] = { "fcs_errors", "rocetune_link_fcs_errors_total",
		"Frames received with a bad frame check sequence.", ST_NETDEV,
		"ethtool netlink STATS_GET eth-mac FrameCheckSequenceErrors" },
	[ST_SYM_ERR] = { "symbol_errors", "rocetune_link_symbol_errors_total",
		"Symbol errors during carrier.", ST_NETDEV,
		"ethtool netlink STATS_GET eth-phy SymbolErrorDuringCarrier" },
	[ST_LINK_DOWN] = { "link_down_events", "rocetune_link_down_events_total",
		"Times the link went down.", ST_NETDEV,
		"ethtool netlink LINKSTATE_GET ext_down_cnt (Linux 6.2+)" },
	[ST_STORM_WARN] = { "pause_storm_warning_events",
		"rocetune_link_pause_storm_warning_events_total",
		"Times the NIC sent PFC pauses for longer than its storm warning watermark.",
		ST_NETDEV, "ethtool -S tx_pause_storm_warning_events (mlx5)" },
	[ST_STORM_ERR] = { "pause_storm_error_events",
		"rocetune_link_pause_storm_error_events_total",
		"Times the NIC's PFC storm prevention stopped its pauses (drops possible).",
		ST_NETDEV, "ethtool -S tx_pause_storm_error_events (mlx5)" },
	[ST_ECN_MARKED] = { "ecn_marked_rx", "rocetune_rdma_ecn_marked_packets_received_total",
		"CE-marked RoCEv2 packets received.", ST_RDMA,
		"rocetune.ko counters ecn_marked_rx, or hw_counters np_ecn_marked_roce_packets (mlx5, bnxt_re)" },
	[ST_CNP_SENT] = { "cnp_sent", "rocetune_rdma_cnp_sent_total",
		"CNPs sent by the notification point.", ST_RDMA,
		"rocetune.ko counters cnp_sent, or hw_counters np_cnp_sent (mlx5, bnxt_re)" },
	[ST_CNP_HANDLED] = { "cnp_handled", "rocetune_rdma_cnp_handled_total",
		"CNPs that cut a rate at the reaction point.", ST_RDMA,
		"rocetune.ko counters cnp_handled, or hw_counters rp_cnp_handled (mlx5, bnxt_re)" },
	[ST_CNP_IGNORED] = { "cnp_ignored", "rocetune_rdma_cnp_ignored_total",
		"CNPs received and not acted on.", ST_RDMA,
		"rocetune.ko counters cnp_ignored, or hw_counters rp_cnp_ignored (mlx5, bnxt_re)" },
	[ST_RETRANS] = { "retransmissions", "rocetune_rdma_retransmissions_total",
		"Times the requester retransmitted after a timeout or NAK.", ST_RDMA,
		"hw_counters completer_retry_err (rxe)" },
	[ST_DUP_REQ] = { "duplicate_requests", "rocetune_rdma_duplicate_requests_total",
		"Duplicate requests received (the responder's view of retransmissions).", ST_RDMA,
		"hw_counters duplicate_request (rxe, mlx5)" },
	[ST_OUT_OF_SEQ] = { "out_of_sequence", "rocetune_rdma_out_of_sequence_total",
		"Out-of-sequence requests received (packet loss on the way in).", ST_RDMA,
		"hw_counters out_of_seq_request (rxe), out_of_sequence (mlx5)" },
};

const char *const rtune_qp_keys[QP_COUNT] = {
	[QP_RATE_KBPS] = "rate_kbps", [QP_CNP_SENT] = "cnp_sent", [QP_CNP_RCVD] = "cnp_rcvd",
	[QP_CE_RCVD] = "ce_rcvd", [QP_PACED_PKTS] = "paced_pkts", [QP_PACED_BYTES] = "paced_bytes",
	[QP_RATE_CUTS] = "rate_cuts", [QP_RETRANS] = "retransmissions",
	[QP_DUP_REQ] = "duplicate_requests", [QP_OUT_OF_SEQ] = "out_of_sequence",
};

const char *const rtune_st_sort_names[3] = { "pause", "busy", "name" };

int rtune_st_sort_parse(const char *s, enum rtune_st_sort *out)
{
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(s, rtune_st_sort_names[i])) {
			*out = (enum rtune_st_sort)i;
			return 0;
		}
	return -EINVAL;
}

/* --- parsers of configfs/sysfs text (untrusted) --- */

static bool parse_u64(const char *s, const char *end, uint64_t *v)
{
	uint64_t x = 0;

	if (s >= end)
		return false;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return true;
}

/* The next whitespace-separated token of [*p, eol): [*ts, *te). */
static bool token(const char **p, const char *eol, const char **ts, const char **te)
{
	const char *s = *p;

	while (s < eol && (*s == ' ' || *s == '\t'))
		s++;
	if (s >= eol)
		return false;
	*ts = s;
	while (s < eol && *s != ' ' && *s != '\t')
		s++;
	*te = s;
	*p = s;
	return true;
}

int rtune_st_parse_counters(const char *buf, struct rtune_stctr *out, int max)
{
	const char *p = buf;
	int n = 0;

	while (*p && n < max) {
		const char *eol = strchr(p, '\n'), *q = p, *ns, *ne, *vs, *ve, *xs, *xe;

		if (!eol)
			eol = p + strlen(p);
		if (*p != '#' && token(&q, eol, &ns, &ne) && token(&q, eol, &vs, &ve) &&
		    !token(&q, eol, &xs, &xe) && (size_t)(ne - ns) < sizeof(out->name) &&
		    parse_u64(vs, ve, &out[n].v)) {
			memcpy(out[n].name, ns, (size_t)(ne - ns));
			out[n].name[ne - ns] = '\0';
			n++;
		}
		p = *eol ? eol + 1 : eol;
	}
	return n;
}

/* qp_stats columns rocetune reads, by header name. */
static int qp_col(const char *s, size_t len)
{
	int k;

	for (k = 0; k < QP_COUNT; k++)
		if (strlen(rtune_qp_keys[k]) == len && !memcmp(rtune_qp_keys[k], s, len))
			return k;
	if (len == 3 && !memcmp(s, "qpn", 3))
		return 100;
	if (len == 8 && !memcmp(s, "peer_qpn", 8))
		return 101;
	if (len == 5 && !memcmp(s, "state", 5))
		return 102;
	return -1;
}

#define QP_MAX_COLS 64
#define QP_MAX 65536

int rtune_st_parse_qp_stats(const char *buf, struct rtune_stqp **out)
{
	int cols[QP_MAX_COLS], ncol = 0, n = 0, cap = 0, c;
	const char *p = buf, *eol, *q, *ts, *te;
	struct rtune_stqp *qp = NULL;
	bool have_qpn = false;

	*out = NULL;
	eol = strchr(p, '\n');
	if (!eol)
		eol = p + strlen(p);
	q = p;
	while (token(&q, eol, &ts, &te)) {
		if (ncol >= QP_MAX_COLS)
			return -EPROTO;
		cols[ncol] = qp_col(ts, (size_t)(te - ts));
		have_qpn |= cols[ncol] == 100;
		ncol++;
	}
	if (!have_qpn)
		return -EPROTO;
	p = *eol ? eol + 1 : eol;
	while (*p) {
		struct rtune_stqp x = { 0 };
		bool ok = true, got_qpn = false;

		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		q = p;
		for (c = 0; c < ncol && ok; c++) {
			uint64_t v;

			if (!token(&q, eol, &ts, &te)) {
				ok = false;
				break;
			}
			if (cols[c] == 102) {
				size_t l = (size_t)(te - ts);

				if (l >= sizeof(x.state))
					l = sizeof(x.state) - 1;
				memcpy(x.state, ts, l);
				x.state[l] = '\0';
				continue;
			}
			if (cols[c] < 0)
				continue;
			if (!parse_u64(ts, te, &v))
				continue;	/* "-": not known yet */
			if (cols[c] == 100) {
				ok = v <= UINT32_MAX;
				x.qpn = (uint32_t)v;
				got_qpn = true;
			} else if (cols[c] == 101) {
				x.has_peer = v <= UINT32_MAX;
				x.peer_qpn = (uint32_t)v;
			} else {
				x.v[cols[c]] = v;
				x.valid |= 1u << cols[c];
			}
		}
		if (*p != '#' && p != eol) {
			if (!ok || !got_qpn) {
				free(qp);
				return -EPROTO;
			}
			if (n == cap) {
				struct rtune_stqp *nq;

				if (cap >= QP_MAX) {
					free(qp);
					return -EPROTO;
				}
				cap = cap ? cap * 2 : 16;
				nq = realloc(qp, (size_t)cap * sizeof(*qp));
				if (!nq) {
					free(qp);
					return -ENOMEM;
				}
				qp = nq;
			}
			qp[n++] = x;
		}
		p = *eol ? eol + 1 : eol;
	}
	if (!n) {
		free(qp);
		qp = NULL;
	}
	*out = qp;
	return n;
}

static void set_v(struct rtune_stport *p, int id, uint64_t v)
{
	p->v[id] = v;
	p->valid |= 1u << id;
}

void rtune_st_map_hw(struct rtune_stport *p)
{
	static const int neutral[RTUNE_C_COUNT] = {
		[RTUNE_C_CNP_SENT] = ST_CNP_SENT, [RTUNE_C_CNP_HANDLED] = ST_CNP_HANDLED,
		[RTUNE_C_CNP_IGNORED] = ST_CNP_IGNORED, [RTUNE_C_ECN_MARKED_RX] = ST_ECN_MARKED,
	};
	int i, a;

	for (i = 0; i < p->nhw; i++) {
		const char *n = p->hw[i].name;

		a = rtune_counter_alias(n);
		if (a >= 0 && a < RTUNE_C_COUNT) {
			if (!(p->valid & (1u << neutral[a])))
				set_v(p, neutral[a], 0);
			p->v[neutral[a]] += p->hw[i].v;	/* bnxt_re has two per name */
		} else if (!strcmp(n, "completer_retry_err")) {
			set_v(p, ST_RETRANS, p->hw[i].v);
		} else if (!strcmp(n, "duplicate_request")) {
			set_v(p, ST_DUP_REQ, p->hw[i].v);
		} else if (!strcmp(n, "out_of_seq_request") || !strcmp(n, "out_of_sequence")) {
			set_v(p, ST_OUT_OF_SEQ, p->hw[i].v);
		}
	}
}

/*
 * An RDMA counter's hardware counters under the per-QP neutral names
 * (Documentation/hardware.rst, "Per-QP congestion counters"): mlx5's
 * optional cc_* counters, and its q-counters for retransmissions (the
 * events that make the requester retransmit: an ACK timeout, a NAK
 * sequence error, an implied NAK), duplicate requests and out-of-sequence
 * packets. A neutral counter none of whose sources is there stays unset.
 */
void rtune_st_map_qpc(const struct rtune_qpc *c, struct rtune_stqp *q)
{
	static const struct { const char *name; int id; } map[] = {
		{ "cc_rx_ce_pkts", QP_CE_RCVD }, { "cc_rx_cnp_pkts", QP_CNP_RCVD },
		{ "cc_tx_cnp_pkts", QP_CNP_SENT },
		{ "local_ack_timeout_err", QP_RETRANS }, { "packet_seq_err", QP_RETRANS },
		{ "implied_nak_seq_err", QP_RETRANS },
		{ "duplicate_request", QP_DUP_REQ }, { "out_of_sequence", QP_OUT_OF_SEQ },
	};
	unsigned int k;
	int i;

	q->counter_id = c->id;
	q->counter_qps = c->nqp;
	q->counter_ours = c->ours;
	for (i = 0; i < c->nhw; i++)
		for (k = 0; k < sizeof(map) / sizeof(map[0]); k++) {
			int id = map[k].id;

			if (strcmp(c->hw[i].name, map[k].name))
				continue;
			if (!(q->valid & (1u << id)))
				q->v[id] = 0;
			q->v[id] += c->hw[i].v;
			q->valid |= 1u << id;
		}
}

/* --- reading one device --- */

/* A whole file of any size (qp_stats is a binary attribute), NUL-ended. */
static char *read_all(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0, cap = 4096;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		ssize_t r;

		if (len + 1 >= cap) {
			char *nb = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;

			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0) {
			free(buf);
			buf = NULL;
		} else if (r == 0) {
			buf[len] = '\0';
			break;
		} else {
			len += (size_t)r;
		}
	}
	close(fd);
	return buf;
}

static const char *cfs_root(void)
{
	const char *r = getenv("ROCETUNE_CONFIGFS");

	return r && *r ? r : "/sys/kernel/config";
}

/*
 * The port's RDMA counters: one QP entry per counter, under its first QP
 * (a counter an operator bound several QPs to counts them together).
 */
static void read_qpc(struct rtune_qpc_io *io, struct rtune_stport *p)
{
	struct rtune_qpc_port qp;
	char state[4096];
	uint32_t idx;
	int i, k, err;

	memset(&qp, 0, sizeof(qp));
	p->qpc_err = EOPNOTSUPP;
	if (!io->xact)
		return;
	err = qpc_dev_index(io, p->ibdev, &idx);
	if (!err)
		err = qpc_port_read(io, p->ibdev, idx, p->port, &qp);
	if (err) {
		p->qpc_err = -err;
		qpc_port_free(&qp);
		return;
	}
	qpc_state_path(state, sizeof(state));
	qpc_mark_ours(state, &qp);
	p->qpc_err = 0;
	p->qpc_mode = qp.mode;
	p->nqpc = qp.nc;
	for (i = 0; i < qp.nc; i++) {
		struct rtune_stqp *q = NULL, *nq;

		if (!qp.c[i].nqp)
			continue;
		for (k = 0; k < p->nqp; k++)
			if (p->qp[k].qpn == qp.c[i].qpn[0])
				q = &p->qp[k];
		if (!q) {
			nq = realloc(p->qp, (size_t)(p->nqp + 1) * sizeof(*nq));
			if (!nq)
				break;
			p->qp = nq;
			q = &nq[p->nqp++];
			memset(q, 0, sizeof(*q));
			q->qpn = qp.c[i].qpn[0];
		}
		rtune_st_map_qpc(&qp.c[i], q);
	}
	qpc_port_free(&qp);
}

static void read_rdma(struct rtune_qpc_io *io, struct rtune_stport *p)
{
	char dir[256], path[600], buf[4096];
	struct rtune_stctr ko[32];
	struct dirent *de;
	DIR *d;
	char *qs;
	int i, n;

	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%u", p->ibdev, p->port);
	p->rdma_rate_gbps = -1;
	snprintf(path, sizeof(path), "%s/state", dir);
	if (!cfs_read(path, buf, sizeof(buf))) {	/* "4: ACTIVE" */
		const char *s = strchr(buf, ':');

		snprintf(p->rdma_state, sizeof(p->rdma_state), "%.15s", s ? s + 1 + (s[1] == ' ') : buf);
	}
	snprintf(path, sizeof(path), "%s/rate", dir);
	if (!cfs_read(path, buf, sizeof(buf))) {	/* "10 Gb/sec (4X QDR)" */
		char *end;
		double g = strtod(buf, &end);

		if (end != buf && g >= 0 && !strncmp(end, " Gb/sec", 7))
			p->rdma_rate_gbps = g;
	}
	snprintf(path, sizeof(path), "%s/hw_counters", dir);
	d = opendir(path);
	while (d && (de = readdir(d)) && p->nhw < RTUNE_ST_MAX_HW) {
		struct rtune_stctr c;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "lifespan") ||
		    strlen(de->d_name) >= sizeof(c.name))
			continue;
		snprintf(path, sizeof(path), "%s/hw_counters/%s", dir, de->d_name);
		if (cfs_read(path, buf, 64) || !parse_u64(buf, buf + strlen(buf), &c.v))
			continue;
		snprintf(c.name, sizeof(c.name), "%.47s", de->d_name);
		p->hw[p->nhw++] = c;
	}
	if (d)
		closedir(d);
	rtune_st_map_hw(p);

	/* rocetune.ko: its neutral counters take precedence (it may run DCQCN itself) */
	snprintf(dir, sizeof(dir), "%s/rocetune/%s/ports/%u", cfs_root(), p->ibdev, p->port);
	snprintf(path, sizeof(path), "%s/counters", dir);
	if (!cfs_read(path, buf, sizeof(buf))) {
		n = rtune_st_parse_counters(buf, ko, 32);
		for (i = 0; i < n; i++) {
			int a = -1, k;

			for (k = 0; k < RTUNE_C_COUNT; k++)
				if (!strcmp(ko[i].name, rtune_counter_names[k]))
					a = k;
			if (a == RTUNE_C_CNP_SENT)
				set_v(p, ST_CNP_SENT, ko[i].v);
			else if (a == RTUNE_C_CNP_HANDLED)
				set_v(p, ST_CNP_HANDLED, ko[i].v);
			else if (a == RTUNE_C_CNP_IGNORED)
				set_v(p, ST_CNP_IGNORED, ko[i].v);
			else if (a == RTUNE_C_ECN_MARKED_RX)
				set_v(p, ST_ECN_MARKED, ko[i].v);
		}
	}
	snprintf(path, sizeof(path), "%s/qp_stats", dir);
	qs = read_all(path);
	if (qs) {
		n = rtune_st_parse_qp_stats(qs, &p->qp);
		if (n >= 0) {
			p->nqp = n;
			p->has_qp_stats = true;
		}
		free(qs);
	}
	read_qpc(io, p);
}

static void read_port(struct nl_sock *sk, struct rtune_ethtool *et, struct rtune_qpc_io *io,
		      const struct rtune_link *l, struct rtune_stport *p)
{
	static const struct { int id; rtnl_link_stat_id_t nl; } rt[] = {
		{ ST_RX_BYTES, RTNL_LINK_RX_BYTES }, { ST_TX_BYTES, RTNL_LINK_TX_BYTES },
		{ ST_RX_PACKETS, RTNL_LINK_RX_PACKETS }, { ST_TX_PACKETS, RTNL_LINK_TX_PACKETS },
		{ ST_RX_DROPPED, RTNL_LINK_RX_DROPPED }, { ST_TX_DROPPED, RTNL_LINK_TX_DROPPED },
	};
	struct rtnl_link *rl;
	struct rtune_dcb dcb;
	unsigned int i;
	int k;

	memset(p, 0, sizeof(*p));
	snprintf(p->netdev, sizeof(p->netdev), "%s", l->netdev);
	p->ifindex = l->ifindex;
	p->has_ib = l->has_ib;
	snprintf(p->ibdev, sizeof(p->ibdev), "%s", l->ibdev);
	p->port = l->port;
	p->rdma_rate_gbps = -1;

	if (rtnl_link_get_kernel(sk, 0, l->netdev, &rl) < 0) {
		p->gone = true;	/* vanished since the device list was read */
		return;
	}
	if (rtnl_link_get_ifindex(rl) != l->ifindex)
		p->gone = true;	/* a new netdev under the old name */
	for (i = 0; i < sizeof(rt) / sizeof(rt[0]); i++)
		set_v(p, rt[i].id, rtnl_link_get_stat(rl, rt[i].nl));
	p->has_oper = true;
	p->operstate = rtnl_link_get_operstate(rl);
	p->admin_up = rtnl_link_get_flags(rl) & IFF_UP;
	p->carrier = rtnl_link_get_carrier(rl);
	p->has_carrier_changes = rtnl_link_get_carrier_changes(rl, &p->carrier_changes) == 0;
	rtnl_link_put(rl);
	if (p->gone) {
		p->valid = 0;
		return;
	}

	if (dcb_get(sk, l->netdev, &dcb) == 0 && dcb.has_pfc) {
		p->has_pfc = true;
		p->pfc_en = dcb.pfc.pfc_en;
		for (k = 0; k < 8; k++) {
			p->pfc_tx[k] = dcb.pfc.requests[k];
			p->pfc_rx[k] = dcb.pfc.indications[k];
		}
	} else {
		p->dcb_err = dcb.ok ? EOPNOTSUPP : dcb.err;
	}

	rtune_ethtool_read(et, l->netdev, &p->eth);
	p->has_speed = p->eth.has_speed;
	p->speed_mbps = p->eth.speed_mbps;
	if (p->eth.has_pause_tx)
		set_v(p, ST_PAUSE_TX, p->eth.pause_tx);
	if (p->eth.has_pause_rx)
		set_v(p, ST_PAUSE_RX, p->eth.pause_rx);
	if (p->eth.has_fcs_err)
		set_v(p, ST_FCS_ERR, p->eth.fcs_err);
	if (p->eth.has_sym_err)
		set_v(p, ST_SYM_ERR, p->eth.sym_err);
	if (p->eth.has_link_down)
		set_v(p, ST_LINK_DOWN, p->eth.link_down);
	if (p->eth.has_drv[RTUNE_ETH_STORM_WARN])
		set_v(p, ST_STORM_WARN, p->eth.drv[RTUNE_ETH_STORM_WARN]);
	if (p->eth.has_drv[RTUNE_ETH_STORM_ERR])
		set_v(p, ST_STORM_ERR, p->eth.drv[RTUNE_ETH_STORM_ERR]);

	if (p->has_ib)
		read_rdma(io, p);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int rtune_st_sample(char *const *names, int nnames, struct rtune_stsnap *s)
{
	static struct rtune_host h;
	struct rtune_ethtool et = { 0 };
	struct rtune_qpc_io io = { .xact = NULL };
	struct nl_sock *sk = rtune_nl_open(NETLINK_ROUTE);
	int err, i;

	memset(s, 0, sizeof(*s));
	if (!sk)
		return -errno;
	err = host_collect(sk, NULL, names, nnames, &h);
	if (err)
		goto out;
	s->p = calloc((size_t)h.n + 1, sizeof(*s->p));
	if (!s->p) {
		err = -ENOMEM;
		goto out;
	}
	rtune_ethtool_open(&et);	/* without it, each group is "not reported" */
	if (qpc_io_open(&io))
		io.xact = NULL;	/* without it, the RDMA counters are "not reported" */
	s->t = now_s();
	for (i = 0; i < h.n; i++)
		read_port(sk, &et, &io, &h.dev[i], &s->p[s->n++]);
	rtune_ethtool_close(&et);
	qpc_io_close(&io);
out:
	nl_socket_free(sk);
	return err;
}

void rtune_st_free(struct rtune_stsnap *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		free(s->p[i].qp);
	free(s->p);
	memset(s, 0, sizeof(*s));
}

static bool rate_of(uint64_t a, uint64_t b, double dt, double *r)
{
	if (b < a || dt <= 0)
		return false;	/* reset or wrapped: no rate */
	*r = (double)(b - a) / dt;
	return true;
}

static const struct rtune_stport *find_port(const struct rtune_stsnap *s,
					    const struct rtune_stport *x)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->p[i].netdev, x->netdev) && s->p[i].ifindex == x->ifindex)
			return &s->p[i];
	return NULL;
}

static void qp_rates(const struct rtune_stport *a, struct rtune_stport *b, double dt)
{
	int i, k, j;

	for (i = 0; i < b->nqp; i++) {
		struct rtune_stqp *q = &b->qp[i];

		for (j = 0; j < a->nqp && a->qp[j].qpn != q->qpn; j++)
			;
		if (j == a->nqp)
			continue;
		for (k = 0; k < QP_COUNT; k++) {
			if (k == QP_RATE_KBPS)	/* a gauge */
				continue;
			if ((q->valid & a->qp[j].valid & (1u << k)) &&
			    rate_of(a->qp[j].v[k], q->v[k], dt, &q->rate[k]))
				q->rvalid |= 1u << k;
		}
	}
}

void rtune_st_rates(const struct rtune_stsnap *prev, struct rtune_stsnap *cur)
{
	double dt = cur->t - prev->t;
	int i, k, n = cur->n;
	struct rtune_stport *np;

	for (i = 0; i < n; i++) {
		struct rtune_stport *b = &cur->p[i];
		const struct rtune_stport *a = find_port(prev, b);

		if (!a || a->gone || b->gone)
			continue;
		for (k = 0; k < ST_COUNT; k++)
			if ((a->valid & b->valid & (1u << k)) && rate_of(a->v[k], b->v[k], dt, &b->rate[k]))
				b->rvalid |= 1u << k;
		for (k = 0; k < 8; k++) {
			uint8_t bit = (uint8_t)(1u << k);

			if ((a->eth.pause_us_tx_mask & b->eth.pause_us_tx_mask & bit) &&
			    rate_of(a->eth.pause_us_tx[k], b->eth.pause_us_tx[k], dt,
				    &b->pause_us_tx_rate[k]))
				b->pause_us_tx_rmask |= bit;
			if ((a->eth.pause_us_rx_mask & b->eth.pause_us_rx_mask & bit) &&
			    rate_of(a->eth.pause_us_rx[k], b->eth.pause_us_rx[k], dt,
				    &b->pause_us_rx_rate[k]))
				b->pause_us_rx_rmask |= bit;
		}
		if (a->has_pfc && b->has_pfc) {
			b->has_pfc_rate = true;
			for (k = 0; k < 8; k++)
				if (!rate_of(a->pfc_tx[k], b->pfc_tx[k], dt, &b->pfc_tx_rate[k]) ||
				    !rate_of(a->pfc_rx[k], b->pfc_rx[k], dt, &b->pfc_rx_rate[k]))
					b->has_pfc_rate = false;
		}
		qp_rates(a, b, dt);
	}
	/* ports that vanished: reported as gone, without values */
	for (i = 0; i < prev->n; i++) {
		const struct rtune_stport *a = &prev->p[i];

		if (a->gone || find_port(cur, a))
			continue;
		np = realloc(cur->p, (size_t)(cur->n + 1) * sizeof(*np));
		if (!np)
			return;
		cur->p = np;
		np = &cur->p[cur->n++];
		memset(np, 0, sizeof(*np));
		snprintf(np->netdev, sizeof(np->netdev), "%s", a->netdev);
		np->ifindex = a->ifindex;
		np->has_ib = a->has_ib;
		snprintf(np->ibdev, sizeof(np->ibdev), "%s", a->ibdev);
		np->port = a->port;
		np->rdma_rate_gbps = -1;
		np->gone = true;
	}
}

double rtune_st_pause_rate(const struct rtune_stport *p)
{
	double r = 0;
	int k;

	if (p->has_pfc_rate)
		for (k = 0; k < 8; k++)
			r += p->pfc_tx_rate[k] + p->pfc_rx_rate[k];
	if (p->rvalid & (1u << ST_PAUSE_TX))
		r += p->rate[ST_PAUSE_TX];
	if (p->rvalid & (1u << ST_PAUSE_RX))
		r += p->rate[ST_PAUSE_RX];
	return r;
}

double rtune_st_busy_rate(const struct rtune_stport *p)
{
	double r = 0;

	if (p->rvalid & (1u << ST_RX_BYTES))
		r += p->rate[ST_RX_BYTES];
	if (p->rvalid & (1u << ST_TX_BYTES))
		r += p->rate[ST_TX_BYTES];
	return r;
}

static double qp_pause(const struct rtune_stqp *q)
{
	return (q->rvalid & (1u << QP_CNP_RCVD) ? q->rate[QP_CNP_RCVD] : 0) +
	       (q->rvalid & (1u << QP_CE_RCVD) ? q->rate[QP_CE_RCVD] : 0);
}

static double qp_busy(const struct rtune_stqp *q)
{
	if (q->rvalid & (1u << QP_PACED_BYTES))
		return q->rate[QP_PACED_BYTES];
	return q->valid & (1u << QP_RATE_KBPS) ? (double)q->v[QP_RATE_KBPS] * 125 : 0;
}

static enum rtune_st_sort g_key;

static int cmp_d(double a, double b)
{
	return a > b ? -1 : a < b ? 1 : 0;	/* descending */
}

static int cmp_port(const void *x, const void *y)
{
	const struct rtune_stport *a = x, *b = y;
	int c = 0;

	if (a->gone != b->gone)
		return a->gone ? 1 : -1;
	if (g_key == ST_SORT_PAUSE)
		c = cmp_d(rtune_st_pause_rate(a), rtune_st_pause_rate(b));
	if (!c && g_key != ST_SORT_NAME)
		c = cmp_d(rtune_st_busy_rate(a), rtune_st_busy_rate(b));
	if (!c && g_key == ST_SORT_BUSY)
		c = cmp_d(rtune_st_pause_rate(a), rtune_st_pause_rate(b));
	return c ? c : strcmp(a->netdev, b->netdev);
}

static int cmp_qp(const void *x, const void *y)
{
	const struct rtune_stqp *a = x, *b = y;
	int c = 0;

	if (g_key == ST_SORT_PAUSE)
		c = cmp_d(qp_pause(a), qp_pause(b));
	if (!c && g_key != ST_SORT_NAME)
		c = cmp_d(qp_busy(a), qp_busy(b));
	if (!c && g_key == ST_SORT_BUSY)
		c = cmp_d(qp_pause(a), qp_pause(b));
	return c ? c : a->qpn < b->qpn ? -1 : a->qpn > b->qpn;
}

void rtune_st_sort(struct rtune_stsnap *s, enum rtune_st_sort key)
{
	int i;

	g_key = key;
	qsort(s->p, (size_t)s->n, sizeof(*s->p), cmp_port);
	for (i = 0; i < s->n; i++)
		if (s->p[i].nqp > 1)
			qsort(s->p[i].qp, (size_t)s->p[i].nqp, sizeof(*s->p[i].qp), cmp_qp);
}
