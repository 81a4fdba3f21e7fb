// SPDX-License-Identifier: GPL-2.0
/*
 * Output of `rocetune stats` / `top`: text, JSON (json_version 1, command
 * "stats"), and the Prometheus text exposition format (version 0.0.4) for
 * node_exporter's textfile collector. Metric names, units and labels are
 * documented in Documentation/rocetune.rst ("Metrics"); the tables here
 * (rtune_st_descs, prom_qp) are the single source for both.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "atomic_file.h"
#include "output.h"
#include "stats.h"

static bool has(uint32_t mask, int id)
{
	return mask & (1u << id);
}

/* A rate for people: "-" when unknown; k/M/G above 10^4. */
static const char *hr(char *buf, size_t len, bool ok, double v)
{
	if (!ok)
		snprintf(buf, len, "-");
	else if (v >= 1e10)
		snprintf(buf, len, "%.1fG", v / 1e9);
	else if (v >= 1e7)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

static const char *why(int err)
{
	return err == EOPNOTSUPP ? "not reported" : strerror(err);
}

/* --- text --- */

/* One priority's pause duration (us), or "-" when the driver has none. */
static void pause_us_cell(FILE *f, uint8_t mask, const uint64_t *us, int k)
{
	if (mask & (1u << k))
		fprintf(f, " %10llu ", (unsigned long long)us[k]);
	else
		fprintf(f, " %10s ", "-");
}

void rtune_st_text(FILE *f, const struct rtune_stsnap *s, bool rates)
{
	int i, k;

	for (i = 0; i < s->n; i++) {
		const struct rtune_stport *p = &s->p[i];
		char b1[32];

		fprintf(f, "%s", p->netdev);
		if (p->has_ib)
			fprintf(f, " (%s/%u)", p->ibdev, p->port);
		if (p->gone) {
			fprintf(f, ": gone (the device vanished between samples)\n");
			continue;
		}
		fprintf(f, ": link ");
		if (p->has_speed)
			fprintf(f, "%u Mb/s", p->speed_mbps);
		else
			fprintf(f, "speed %s", why(p->eth.linkmodes_err ? p->eth.linkmodes_err : EOPNOTSUPP));
		if (p->has_ib) {
			fprintf(f, ", rdma %s", p->rdma_state[0] ? p->rdma_state : "state unknown");
			if (p->rdma_rate_gbps >= 0)
				fprintf(f, " %g Gb/s", p->rdma_rate_gbps);
		}
		fprintf(f, "\n");
		if (p->has_pfc) {
			fprintf(f, "    pfc  prio:   ");
			for (k = 0; k < 8; k++)
				fprintf(f, " %10d%c", k, p->pfc_en & (1u << k) ? '*' : ' ');
			fprintf(f, "\n    pfc  sent:   ");
			for (k = 0; k < 8; k++)
				fprintf(f, " %10llu ", (unsigned long long)p->pfc_tx[k]);
			fprintf(f, "\n    pfc  recv:   ");
			for (k = 0; k < 8; k++)
				fprintf(f, " %10llu ", (unsigned long long)p->pfc_rx[k]);
			if (p->eth.pause_us_tx_mask | p->eth.pause_us_rx_mask) {
				fprintf(f, "\n    pfc  sent us:");
				for (k = 0; k < 8; k++)
					pause_us_cell(f, p->eth.pause_us_tx_mask, p->eth.pause_us_tx, k);
				fprintf(f, "\n    pfc  recv us:");
				for (k = 0; k < 8; k++)
					pause_us_cell(f, p->eth.pause_us_rx_mask, p->eth.pause_us_rx, k);
			}
			if (rates && p->has_pfc_rate) {
				fprintf(f, "\n    pfc  sent/s: ");
				for (k = 0; k < 8; k++)
					fprintf(f, " %10s ", hr(b1, sizeof(b1), true, p->pfc_tx_rate[k]));
				fprintf(f, "\n    pfc  recv/s: ");
				for (k = 0; k < 8; k++)
					fprintf(f, " %10s ", hr(b1, sizeof(b1), true, p->pfc_rx_rate[k]));
			}
			fprintf(f, "\n");
		} else {
			fprintf(f, "    pfc: %s\n", why(p->dcb_err ? p->dcb_err : EOPNOTSUPP));
		}
		for (k = 0; k < ST_COUNT; k++) {
			const struct rtune_st_desc *d = &rtune_st_descs[k];

			if (d->scope == ST_RDMA && !p->has_ib)
				continue;
			fprintf(f, "    %-20s ", d->key);
			if (!has(p->valid, k)) {
				fprintf(f, "%20s\n", "not reported");
				continue;
			}
			fprintf(f, "%20llu", (unsigned long long)p->v[k]);
			if (rates)
				fprintf(f, "  %10s/s", hr(b1, sizeof(b1), has(p->rvalid, k), p->rate[k]));
			fprintf(f, "\n");
		}
		if (p->has_ib && !p->has_qp_stats && !p->nqpc)
			fprintf(f, "    qps: not reported (rocetune.ko's qp_stats not found%s)\n",
				p->qpc_err ? "" : ", no QP bound to an RDMA counter");
		for (k = 0; k < p->nqp; k++) {
			const struct rtune_stqp *q = &p->qp[k];
			int c;

			fprintf(f, "    qp %u%s%s", q->qpn, q->state[0] ? " " : "", q->state);
			if (q->counter_id)
				fprintf(f, " (rdma counter %u%s%s)", q->counter_id,
					q->counter_ours ? ", rocetune's" : "",
					q->counter_qps > 1 ? ", shared: the sum of its QPs" : "");
			fputc(':', f);
			for (c = 0; c < QP_COUNT; c++) {
				if (!has(q->valid, c))
					continue;
				fprintf(f, " %s %llu", rtune_qp_keys[c], (unsigned long long)q->v[c]);
				if (rates && has(q->rvalid, c))
					fprintf(f, " (%s/s)", hr(b1, sizeof(b1), true, q->rate[c]));
			}
			fprintf(f, "\n");
		}
	}
}

/* --- JSON --- */

static void j_ctr(struct jw *j, const char *key, bool ok, uint64_t v, bool rok, double r)
{
	jw_obj(j, key);
	if (ok)
		jw_int(j, "total", (long long)v);
	else
		jw_null(j, "total");
	if (rok)
		jw_double(j, "rate", r);
	else
		jw_null(j, "rate");
	jw_end_obj(j);
}

static void j_errs(struct jw *j, const struct rtune_stport *p)
{
	const struct { const char *name; int err; } g[] = {
		{ "dcb_pfc", p->has_pfc ? 0 : p->dcb_err ? p->dcb_err : EOPNOTSUPP },
		{ "ethtool_linkmodes", p->has_speed ? 0 : p->eth.linkmodes_err ? p->eth.linkmodes_err : EOPNOTSUPP },
		{ "ethtool_linkstate", p->eth.has_link_down ? 0 : p->eth.linkstate_err ? p->eth.linkstate_err : EOPNOTSUPP },
		{ "ethtool_pause", p->eth.pause_err },
		{ "ethtool_stats", p->eth.stats_err },
		{ "ethtool_driver_stats", p->eth.gstats_err },
	};
	unsigned int i;

	jw_obj(j, "not_reported");
	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++)
		if (g[i].err)
			jw_str(j, g[i].name, why(g[i].err));
	if (p->has_ib && !p->has_qp_stats)
		jw_str(j, "qp_stats", "not reported");
	if (p->has_ib && p->qpc_err)
		jw_str(j, "rdma_counters", why(p->qpc_err));
	jw_end_obj(j);
}

static void j_port(struct jw *j, const struct rtune_stport *p)
{
	int k;

	jw_obj(j, NULL);
	jw_str(j, "netdev", p->netdev);
	jw_int(j, "ifindex", p->ifindex);
	jw_str(j, "rdma_device", p->has_ib ? p->ibdev : NULL);
	if (p->has_ib)
		jw_int(j, "port", p->port);
	else
		jw_null(j, "port");
	jw_str(j, "state", p->gone ? "gone" : "present");
	if (p->has_speed)
		jw_int(j, "speed_mbps", p->speed_mbps);
	else
		jw_null(j, "speed_mbps");
	jw_obj(j, "counters");
	for (k = 0; k < ST_COUNT; k++)
		j_ctr(j, rtune_st_descs[k].key, has(p->valid, k), p->v[k], has(p->rvalid, k),
		      p->rate[k]);
	jw_end_obj(j);
	if (p->has_pfc) {
		jw_obj(j, "pfc");
		jw_arr(j, "priorities");
		for (k = 0; k < 8; k++) {
			jw_obj(j, NULL);
			jw_int(j, "priority", k);
			jw_bool(j, "enabled", p->pfc_en & (1u << k));
			j_ctr(j, "sent", true, p->pfc_tx[k], p->has_pfc_rate, p->pfc_tx_rate[k]);
			j_ctr(j, "received", true, p->pfc_rx[k], p->has_pfc_rate, p->pfc_rx_rate[k]);
			j_ctr(j, "sent_pause_us", has(p->eth.pause_us_tx_mask, k), p->eth.pause_us_tx[k],
			      has(p->pause_us_tx_rmask, k), p->pause_us_tx_rate[k]);
			j_ctr(j, "received_pause_us", has(p->eth.pause_us_rx_mask, k),
			      p->eth.pause_us_rx[k], has(p->pause_us_rx_rmask, k),
			      p->pause_us_rx_rate[k]);
			jw_end_obj(j);
		}
		jw_end_arr(j);
		jw_end_obj(j);
	} else {
		jw_null(j, "pfc");
	}
	if (p->has_ib && !p->gone) {
		jw_obj(j, "rdma");
		jw_str(j, "port_state", p->rdma_state[0] ? p->rdma_state : NULL);
		if (p->rdma_rate_gbps >= 0)
			jw_double(j, "rate_gbps", p->rdma_rate_gbps);
		else
			jw_null(j, "rate_gbps");
		jw_obj(j, "hw_counters");
		for (k = 0; k < p->nhw; k++)
			jw_int(j, p->hw[k].name, (long long)p->hw[k].v);
		jw_end_obj(j);
		jw_end_obj(j);
	} else {
		jw_null(j, "rdma");
	}
	if (p->has_qp_stats || p->nqp) {
		jw_arr(j, "qps");
		for (k = 0; k < p->nqp; k++) {
			const struct rtune_stqp *q = &p->qp[k];
			int c;

			jw_obj(j, NULL);
			jw_int(j, "qpn", q->qpn);
			if (q->has_peer)
				jw_int(j, "peer_qpn", q->peer_qpn);
			else
				jw_null(j, "peer_qpn");
			jw_str(j, "state", q->state[0] ? q->state : NULL);
			if (q->counter_id) {
				jw_obj(j, "rdma_counter");
				jw_int(j, "id", q->counter_id);
				jw_int(j, "qps", q->counter_qps);
				jw_bool(j, "rocetune", q->counter_ours);
				jw_end_obj(j);
			}
			jw_obj(j, "counters");
			for (c = 0; c < QP_COUNT; c++)
				j_ctr(j, rtune_qp_keys[c], has(q->valid, c), q->v[c], has(q->rvalid, c),
				      q->rate[c]);
			jw_end_obj(j);
			jw_end_obj(j);
		}
		jw_end_arr(j);
	} else {
		jw_null(j, "qps");
	}
	if (!p->gone)
		j_errs(j, p);
	else
		jw_null(j, "not_reported");
	jw_end_obj(j);
}

void rtune_st_json(struct jw *j, const struct rtune_stsnap *s, int interval_ms)
{
	int i;

	if (interval_ms > 0)
		jw_int(j, "interval_ms", interval_ms);
	else
		jw_null(j, "interval_ms");
	jw_arr(j, "ports");
	for (i = 0; i < s->n; i++)
		j_port(j, &s->p[i]);
	jw_end_arr(j);
}

/* --- Prometheus --- */

static void prom_label(FILE *f, const char *name, const char *v, bool first)
{
	fprintf(f, "%s%s=\"", first ? "{" : ",", name);
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

static void prom_head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* The port's labels: device=netdev, or device=ibdev,port for RDMA. */
static void prom_port(FILE *f, const struct rtune_stport *p, bool rdma)
{
	char port[16];

	if (!rdma) {
		prom_label(f, "device", p->netdev, true);
		return;
	}
	snprintf(port, sizeof(port), "%u", p->port);
	prom_label(f, "device", p->ibdev, true);
	prom_label(f, "port", port, false);
}

static const struct {
	int id;
	const char *name, *help;
} prom_qp[] = {
	{ QP_CNP_SENT, "rocetune_qp_cnp_sent_total", "CNPs the notification point sent for the QP." },
	{ QP_CNP_RCVD, "rocetune_qp_cnp_received_total", "CNPs received for the QP." },
	{ QP_CE_RCVD, "rocetune_qp_ce_marked_packets_received_total",
	  "CE-marked packets received on the QP." },
	{ QP_PACED_PKTS, "rocetune_qp_paced_packets_total", "Packets of the QP the datapath paced." },
	{ QP_PACED_BYTES, "rocetune_qp_paced_bytes_total", "Bytes of the QP the datapath paced." },
	{ QP_RATE_CUTS, "rocetune_qp_rate_cuts_total", "DCQCN rate cuts of the QP." },
	{ QP_RETRANS, "rocetune_qp_retransmissions_total",
	  "Times the QP's requester retransmitted (ACK timeout, NAK sequence error, implied NAK)." },
	{ QP_DUP_REQ, "rocetune_qp_duplicate_requests_total", "Duplicate requests the QP received." },
	{ QP_OUT_OF_SEQ, "rocetune_qp_out_of_sequence_total",
	  "Out-of-sequence packets the QP received." },
};

static void prom_qp_labels(FILE *f, const struct rtune_stport *p, const struct rtune_stqp *q)
{
	char qpn[16];

	prom_port(f, p, true);
	snprintf(qpn, sizeof(qpn), "%u", q->qpn);
	prom_label(f, "qpn", qpn, false);
	fputc('}', f);
}

void rtune_st_prom(FILE *f, const struct rtune_stsnap *s)
{
	unsigned int m;
	int i, k, c;

	for (k = 0; k < ST_COUNT; k++) {
		const struct rtune_st_desc *d = &rtune_st_descs[k];

		prom_head(f, d->prom, "counter", d->help);
		for (i = 0; i < s->n; i++) {
			const struct rtune_stport *p = &s->p[i];

			if (p->gone || !has(p->valid, k) || (d->scope == ST_RDMA && !p->has_ib))
				continue;
			fputs(d->prom, f);
			prom_port(f, p, d->scope == ST_RDMA);
			fprintf(f, "} %llu\n", (unsigned long long)p->v[k]);
		}
	}
	for (c = 0; c < 3; c++) {
		static const char *const n[3] = { "rocetune_pfc_pause_frames_sent_total",
			"rocetune_pfc_pause_frames_received_total", "rocetune_pfc_enabled" };
		static const char *const h[3] = {
			"PFC pause frames sent, per priority (dcbnl IEEE PFC requests).",
			"PFC pause frames received, per priority (dcbnl IEEE PFC indications).",
			"1 if PFC is enabled for the priority (dcbnl IEEE PFC pfc_en)." };

		prom_head(f, n[c], c < 2 ? "counter" : "gauge", h[c]);
		for (i = 0; i < s->n; i++) {
			const struct rtune_stport *p = &s->p[i];

			if (p->gone || !p->has_pfc)
				continue;
			for (k = 0; k < 8; k++) {
				char prio[12];

				snprintf(prio, sizeof(prio), "%d", k);
				fputs(n[c], f);
				prom_port(f, p, false);
				prom_label(f, "priority", prio, false);
				fprintf(f, "} %llu\n", (unsigned long long)(c == 0 ? p->pfc_tx[k] :
					c == 1 ? p->pfc_rx[k] : !!(p->pfc_en & (1u << k))));
			}
		}
	}
	for (c = 0; c < 2; c++) {
		static const char *const n[2] = { "rocetune_pfc_pause_sent_duration_seconds_total",
			"rocetune_pfc_pause_received_duration_seconds_total" };
		static const char *const h[2] = {
			"Time the priority's pauses sent asked the peer to hold back (ethtool -S tx_prio<N>_pause_duration), in seconds.",
			"Time the priority was held back by pauses received (ethtool -S rx_prio<N>_pause_duration), in seconds." };

		prom_head(f, n[c], "counter", h[c]);
		for (i = 0; i < s->n; i++) {
			const struct rtune_stport *p = &s->p[i];
			uint8_t mask = c ? p->eth.pause_us_rx_mask : p->eth.pause_us_tx_mask;
			const uint64_t *us = c ? p->eth.pause_us_rx : p->eth.pause_us_tx;

			for (k = 0; !p->gone && k < 8; k++) {
				char prio[12];

				if (!has(mask, k))
					continue;
				snprintf(prio, sizeof(prio), "%d", k);
				fputs(n[c], f);
				prom_port(f, p, false);
				prom_label(f, "priority", prio, false);
				fprintf(f, "} %llu.%06llu\n", (unsigned long long)(us[k] / 1000000),
					(unsigned long long)(us[k] % 1000000));
			}
		}
	}
	prom_head(f, "rocetune_link_speed_bytes_per_second", "gauge",
		  "Link speed (ethtool netlink LINKMODES_GET), in bytes per second.");
	for (i = 0; i < s->n; i++)
		if (!s->p[i].gone && s->p[i].has_speed) {
			fputs("rocetune_link_speed_bytes_per_second", f);
			prom_port(f, &s->p[i], false);
			fprintf(f, "} %llu\n", (unsigned long long)s->p[i].speed_mbps * 125000ULL);
		}
	prom_head(f, "rocetune_rdma_port_info", "gauge",
		  "1 for each RDMA port, with its netdev as a label.");
	for (i = 0; i < s->n; i++)
		if (!s->p[i].gone && s->p[i].has_ib) {
			fputs("rocetune_rdma_port_info", f);
			prom_port(f, &s->p[i], true);
			prom_label(f, "netdev", s->p[i].netdev, false);
			fputs("} 1\n", f);
		}
	prom_head(f, "rocetune_rdma_port_active", "gauge",
		  "1 if the RDMA port's state is ACTIVE, else 0.");
	for (i = 0; i < s->n; i++)
		if (!s->p[i].gone && s->p[i].has_ib && s->p[i].rdma_state[0]) {
			fputs("rocetune_rdma_port_active", f);
			prom_port(f, &s->p[i], true);
			fprintf(f, "} %d\n", !strcmp(s->p[i].rdma_state, "ACTIVE"));
		}
	prom_head(f, "rocetune_rdma_port_rate_bytes_per_second", "gauge",
		  "The RDMA port's rate (sysfs rate), in bytes per second.");
	for (i = 0; i < s->n; i++)
		if (!s->p[i].gone && s->p[i].has_ib && s->p[i].rdma_rate_gbps >= 0) {
			fputs("rocetune_rdma_port_rate_bytes_per_second", f);
			prom_port(f, &s->p[i], true);
			fprintf(f, "} %.0f\n", s->p[i].rdma_rate_gbps * 125e6);
		}
	prom_head(f, "rocetune_qp_rate_bytes_per_second", "gauge",
		  "The QP's DCQCN current rate (rocetune.ko qp_stats rate_kbps), in bytes per second.");
	for (i = 0; i < s->n; i++)
		for (k = 0; !s->p[i].gone && k < s->p[i].nqp; k++)
			if (has(s->p[i].qp[k].valid, QP_RATE_KBPS)) {
				fputs("rocetune_qp_rate_bytes_per_second", f);
				prom_qp_labels(f, &s->p[i], &s->p[i].qp[k]);
				fprintf(f, " %llu\n", (unsigned long long)s->p[i].qp[k].v[QP_RATE_KBPS] * 125ULL);
			}
	for (m = 0; m < sizeof(prom_qp) / sizeof(prom_qp[0]); m++) {
		prom_head(f, prom_qp[m].name, "counter", prom_qp[m].help);
		for (i = 0; i < s->n; i++)
			for (k = 0; !s->p[i].gone && k < s->p[i].nqp; k++)
				if (has(s->p[i].qp[k].valid, prom_qp[m].id) &&
				    s->p[i].qp[k].counter_qps <= 1) {	/* a shared counter is not one QP's */
					fputs(prom_qp[m].name, f);
					prom_qp_labels(f, &s->p[i], &s->p[i].qp[k]);
					fprintf(f, " %llu\n",
						(unsigned long long)s->p[i].qp[k].v[prom_qp[m].id]);
				}
	}
}

static int prom_write(FILE *f, void *arg)
{
	rtune_st_prom(f, arg);
	return 0;
}

/* fsync'd: node_exporter may read the file at any time, and a crash must
 * leave the old samples or the new, never an empty file */
int rtune_st_prom_file(const char *path, const struct rtune_stsnap *s)
{
	return rtune_atomic_write(path, RTUNE_AF_FSYNC, prom_write, (void *)s);
}

/* --- top --- */

void rtune_st_top_frame(FILE *f, const struct rtune_stsnap *s, enum rtune_st_sort key,
			double interval_s)
{
	char a[16], b[16], c[16], d[16], e[16], g[16], pp[64];
	int i, k, nq = 0;

	fprintf(f, "rocetune top: %d port%s, sorted by %s, every %.2g s (rates per second)\n",
		s->n, s->n == 1 ? "" : "s", rtune_st_sort_names[key], interval_s);
	fprintf(f, "%-15s %-12s %-22s %9s %9s %9s %9s %9s %9s\n", "NETDEV", "RDMA", "PFC PAUSE/s tx|rx",
		"RX B/s", "TX B/s", "DROPS/s", "CNP/s", "ECN/s", "RETX/s");
	for (i = 0; i < s->n; i++) {
		const struct rtune_stport *p = &s->p[i];
		char rd[80];
		int top = -1;
		double best = 0;

		snprintf(rd, sizeof(rd), "%s", p->has_ib ? p->ibdev : "-");
		if (p->has_ib)
			snprintf(rd + strlen(rd), sizeof(rd) - strlen(rd), "/%u", p->port);
		if (p->gone) {
			fprintf(f, "%-15s %-12.12s gone\n", p->netdev, rd);
			continue;
		}
		nq += p->nqp;
		if (!p->has_pfc_rate) {
			snprintf(pp, sizeof(pp), "%s", p->has_pfc ? "-" : "no pfc");
		} else {
			for (k = 0; k < 8; k++)
				if (p->pfc_tx_rate[k] + p->pfc_rx_rate[k] > best) {
					best = p->pfc_tx_rate[k] + p->pfc_rx_rate[k];
					top = k;
				}
			if (top < 0)
				snprintf(pp, sizeof(pp), "0");
			else
				snprintf(pp, sizeof(pp), "p%d %s|%s", top,
					 hr(a, sizeof(a), true, p->pfc_tx_rate[top]),
					 hr(b, sizeof(b), true, p->pfc_rx_rate[top]));
		}
		fprintf(f, "%-15s %-12.12s %-22s %9s %9s %9s %9s %9s %9s\n", p->netdev, rd, pp,
			hr(a, sizeof(a), has(p->rvalid, ST_RX_BYTES), p->rate[ST_RX_BYTES]),
			hr(b, sizeof(b), has(p->rvalid, ST_TX_BYTES), p->rate[ST_TX_BYTES]),
			hr(c, sizeof(c), has(p->rvalid, ST_RX_DROPPED) && has(p->rvalid, ST_TX_DROPPED),
			   p->rate[ST_RX_DROPPED] + p->rate[ST_TX_DROPPED]),
			hr(d, sizeof(d), has(p->rvalid, ST_CNP_HANDLED), p->rate[ST_CNP_HANDLED]),
			hr(e, sizeof(e), has(p->rvalid, ST_ECN_MARKED), p->rate[ST_ECN_MARKED]),
			hr(g, sizeof(g), has(p->rvalid, ST_RETRANS), p->rate[ST_RETRANS]));
	}
	if (!nq)
		return;
	fprintf(f, "\n%-12s %8s %10s %9s %9s %11s %9s\n", "RDMA", "QPN", "RATE Mb/s", "CNP/s", "CE/s",
		"PACED B/s", "CUTS/s");
	for (i = 0; i < s->n; i++) {
		const struct rtune_stport *p = &s->p[i];

		for (k = 0; !p->gone && k < p->nqp; k++) {
			const struct rtune_stqp *q = &p->qp[k];
			char rd[80];

			snprintf(rd, sizeof(rd), "%s/%u", p->ibdev, p->port);
			fprintf(f, "%-12.12s %8u %10s %9s %9s %11s %9s\n", rd, q->qpn,
				hr(a, sizeof(a), has(q->valid, QP_RATE_KBPS),
				   (double)q->v[QP_RATE_KBPS] / 1000),
				hr(b, sizeof(b), has(q->rvalid, QP_CNP_RCVD), q->rate[QP_CNP_RCVD]),
				hr(c, sizeof(c), has(q->rvalid, QP_CE_RCVD), q->rate[QP_CE_RCVD]),
				hr(d, sizeof(d), has(q->rvalid, QP_PACED_BYTES), q->rate[QP_PACED_BYTES]),
				hr(e, sizeof(e), has(q->rvalid, QP_RATE_CUTS), q->rate[QP_RATE_CUTS]));
		}
	}
}
