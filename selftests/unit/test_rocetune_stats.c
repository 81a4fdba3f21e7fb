// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for `rocetune stats`/`top` without a device: the
 * configfs/sysfs text parsers and the ethtool netlink reply parsers
 * (untrusted input: malformed replies are refused, not read), rates from
 * two samples (resets give none, vanished ports are reported), the sort
 * orders, and the three formatters (absent values are absent, never 0;
 * Prometheus naming; promtool accepts the output when it is installed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <netlink/genl/genl.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/atomic_file.h"
#include "../../tools/rocetune/stats.h"

static void test_counters(void)
{
	struct rtune_stctr c[8];
	int n = rtune_st_parse_counters("cnp_sent 12\n# truncated: 3 more\nbad\nx -1\n"
					"y 99999999999999999999999\nz 7 extra\nrcvd_pkts\t5\n"
					"a_name_far_too_long_for_the_fixed_forty_eight_bytes 1\n",
					c, 8);

	tap_check(n == 2 && !strcmp(c[0].name, "cnp_sent") && c[0].v == 12 &&
		  !strcmp(c[1].name, "rcvd_pkts") && c[1].v == 5,
		  "counters: name value lines kept, comments, junk, negatives, overflow and long names skipped (got %d)",
		  n);
	n = rtune_st_parse_counters("a 1\nb 2\nc 3\n", c, 2);
	tap_check(n == 2, "counters: at most max entries");
}

static void test_qp_stats(void)
{
	struct rtune_stqp *q;
	int n;

	n = rtune_st_parse_qp_stats("qpn peer_qpn state rate_kbps target_kbps alpha_1024ths cnp_sent "
				    "cnp_rcvd cnp_rejected ce_rcvd paced_pkts paced_bytes rate_cuts "
				    "rate_increases since_last_cnp_us cc_enable rate_cap_kbps\n"
				    "17 18 live 40000 40000 1024 3 4 0 5 6 7000 2 1 - 1 0\n"
				    "19 - new 100 100 0 0 0 0 0 0 0 0 0 123 1 0\n", &q);
	tap_check(n == 2 && q[0].qpn == 17 && q[0].has_peer && q[0].peer_qpn == 18 &&
		  !strcmp(q[0].state, "live") && q[0].v[QP_RATE_KBPS] == 40000 &&
		  q[0].v[QP_CNP_RCVD] == 4 && q[0].v[QP_PACED_BYTES] == 7000 &&
		  q[0].v[QP_RATE_CUTS] == 2 && q[0].valid == (1u << (QP_RATE_CUTS + 1)) - 1 &&
		  q[1].qpn == 19 && !q[1].has_peer,
		  "qp_stats: columns by header name, '-' is unknown");
	free(q);
	n = rtune_st_parse_qp_stats("state cnp_sent qpn\nlive 9 33\n", &q);
	tap_check(n == 1 && q[0].qpn == 33 && q[0].v[QP_CNP_SENT] == 9 &&
		  !(q[0].valid & (1u << QP_RATE_KBPS)),
		  "qp_stats: any column order; a column not there stays absent");
	free(q);
	tap_check(rtune_st_parse_qp_stats("rate_kbps\n5\n", &q) == -EPROTO && !q,
		  "qp_stats: no qpn column is malformed");
	tap_check(rtune_st_parse_qp_stats("qpn rate_kbps\n5\n", &q) == -EPROTO && !q,
		  "qp_stats: a short row is malformed");
	tap_check(rtune_st_parse_qp_stats("qpn\n99999999999\n", &q) == -EPROTO,
		  "qp_stats: a QPN beyond 32 bits is malformed");
	tap_check(rtune_st_parse_qp_stats("qpn rate_kbps\n", &q) == 0 && !q,
		  "qp_stats: header only is no QP");
}

static void test_map_hw(void)
{
	struct rtune_stport p;

	memset(&p, 0, sizeof(p));
	snprintf(p.hw[0].name, sizeof(p.hw[0].name), "completer_retry_err");
	p.hw[0].v = 4;
	snprintf(p.hw[1].name, sizeof(p.hw[1].name), "duplicate_request");
	p.hw[1].v = 5;
	snprintf(p.hw[2].name, sizeof(p.hw[2].name), "tx_cnp_pkts");
	p.hw[2].v = 6;
	snprintf(p.hw[3].name, sizeof(p.hw[3].name), "np_cnp_pkts");
	p.hw[3].v = 1;
	snprintf(p.hw[4].name, sizeof(p.hw[4].name), "rcvd_pkts");
	p.hw[4].v = 100;
	p.nhw = 5;
	rtune_st_map_hw(&p);
	tap_check((p.valid & (1u << ST_RETRANS)) && p.v[ST_RETRANS] == 4 &&
		  (p.valid & (1u << ST_DUP_REQ)) && p.v[ST_DUP_REQ] == 5 &&
		  (p.valid & (1u << ST_CNP_SENT)) && p.v[ST_CNP_SENT] == 7 &&
		  !(p.valid & (1u << ST_ECN_MARKED)) && !(p.valid & (1u << ST_CNP_HANDLED)),
		  "hw_counters: rxe and bnxt_re names map to the neutral counters; the rest stay absent");
}

/* A generic netlink reply of the ethtool family, built with libnl. */
static struct nl_msg *reply(int cmd)
{
	struct nl_msg *m = nlmsg_alloc();

	genlmsg_put(m, 0, 1, 21, 0, 0, (uint8_t)cmd, 1);
	return m;
}

static void test_ethtool_parsers(void)
{
	struct rtune_eth e;
	struct nl_msg *m;
	struct nlattr *n, *g, *s;

	memset(&e, 0, sizeof(e));
	m = reply(ETHTOOL_MSG_LINKMODES_GET_REPLY);
	nla_put_u32(m, ETHTOOL_A_LINKMODES_SPEED, 25000);
	tap_check(eth_parse_linkmodes(nlmsg_hdr(m), &e) == 0 && e.has_speed && e.speed_mbps == 25000,
		  "ethtool: LINKMODES speed read");
	nlmsg_free(m);
	memset(&e, 0, sizeof(e));
	m = reply(ETHTOOL_MSG_LINKMODES_GET_REPLY);
	nla_put_u32(m, ETHTOOL_A_LINKMODES_SPEED, (uint32_t)SPEED_UNKNOWN);
	tap_check(eth_parse_linkmodes(nlmsg_hdr(m), &e) == 0 && !e.has_speed,
		  "ethtool: SPEED_UNKNOWN is no speed, not a number");
	nlmsg_free(m);
	m = reply(ETHTOOL_MSG_LINKMODES_GET_REPLY);
	nla_put_u8(m, ETHTOOL_A_LINKMODES_SPEED, 1);
	tap_check(eth_parse_linkmodes(nlmsg_hdr(m), &e) == -EPROTO,
		  "ethtool: a too short speed attribute is refused");
	nlmsg_free(m);

	memset(&e, 0, sizeof(e));
	m = reply(ETHTOOL_MSG_PAUSE_GET_REPLY);
	n = nla_nest_start(m, ETHTOOL_A_PAUSE_STATS);
	nla_put_u64(m, ETHTOOL_A_PAUSE_STAT_TX_FRAMES, 11);
	nla_nest_end(m, n);
	tap_check(eth_parse_pause(nlmsg_hdr(m), &e) == 0 && e.has_pause_tx && e.pause_tx == 11 &&
		  !e.has_pause_rx, "ethtool: PAUSE stats, a missing one stays absent");
	nlmsg_free(m);

	memset(&e, 0, sizeof(e));
	m = reply(ETHTOOL_MSG_STATS_GET_REPLY);
	g = nla_nest_start(m, ETHTOOL_A_STATS_GRP);
	s = nla_nest_start(m, ETHTOOL_A_STATS_GRP_STAT);
	nla_put_u64(m, ETHTOOL_A_STATS_ETH_MAC_6_FCS_ERR, 3);
	nla_nest_end(m, s);
	nla_put_u32(m, ETHTOOL_A_STATS_GRP_ID, ETHTOOL_STATS_ETH_MAC);	/* after its stats */
	nla_nest_end(m, g);
	g = nla_nest_start(m, ETHTOOL_A_STATS_GRP);
	nla_put_u32(m, ETHTOOL_A_STATS_GRP_ID, ETHTOOL_STATS_ETH_PHY);
	s = nla_nest_start(m, ETHTOOL_A_STATS_GRP_STAT);
	nla_put_u64(m, ETHTOOL_A_STATS_ETH_PHY_5_SYM_ERR, 8);
	nla_nest_end(m, s);
	nla_nest_end(m, g);
	tap_check(eth_parse_stats(nlmsg_hdr(m), &e) == 0 && e.has_fcs_err && e.fcs_err == 3 &&
		  e.has_sym_err && e.sym_err == 8,
		  "ethtool: STATS eth-mac FCS and eth-phy symbol errors, group id in any place");
	/* cut the message inside the last attribute: refused */
	nlmsg_hdr(m)->nlmsg_len -= 6;
	memset(&e, 0, sizeof(e));
	tap_check(eth_parse_stats(nlmsg_hdr(m), &e) == -EPROTO,
		  "ethtool: a STATS reply cut short is refused");
	nlmsg_free(m);

	m = reply(ETHTOOL_MSG_STATS_GET_REPLY);
	g = nla_nest_start(m, ETHTOOL_A_STATS_GRP);
	s = nla_nest_start(m, ETHTOOL_A_STATS_GRP_STAT);
	nla_put_u32(m, ETHTOOL_A_STATS_ETH_MAC_6_FCS_ERR, 3);	/* u32, not u64 */
	nla_nest_end(m, s);
	nla_nest_end(m, g);
	tap_check(eth_parse_stats(nlmsg_hdr(m), &e) == -EPROTO,
		  "ethtool: a stat shorter than u64 is refused");
	nlmsg_free(m);

	memset(&e, 0, sizeof(e));
	m = reply(ETHTOOL_MSG_LINKSTATE_GET_REPLY);
	nla_put_u8(m, ETHTOOL_A_LINKSTATE_LINK, 1);
	tap_check(eth_parse_linkstate(nlmsg_hdr(m), &e) == 0 && !e.has_link_down,
		  "ethtool: LINKSTATE without ext_down_cnt (Linux < 6.2): link-down count absent");
	/* the UAPI's numbers, not the header's: EXT_SUBSTATE 6 (u8), EXT_DOWN_CNT 7 */
	nla_put_u8(m, 6, 3);
	tap_check(eth_parse_linkstate(nlmsg_hdr(m), &e) == 0 && !e.has_link_down,
		  "ethtool: LINKSTATE ext_substate (attribute 6, u8) is not the link-down count");
	nla_put_u32(m, 7, 4);
	tap_check(eth_parse_linkstate(nlmsg_hdr(m), &e) == 0 && e.has_link_down && e.link_down == 4,
		  "ethtool: LINKSTATE ext_down_cnt (attribute 7, Linux 6.2+) read");
	nlmsg_free(m);
}

/* ethtool -S names and values (ETHTOOL_GSTRINGS/GSTATS), picked by name. */
static void test_gstats_pick(void)
{
	static char names[5][RTUNE_ETH_GSTRING_LEN];
	static const uint64_t vals[5] = { 1, 2, 3, 4, 5 };
	struct rtune_eth e;

	memset(names, 0, sizeof(names));
	memset(&e, 0, sizeof(e));
	snprintf(names[0], sizeof(names[0]), "rx_prio3_pause");
	snprintf(names[1], sizeof(names[1]), "tx_pause_storm_error_events");
	snprintf(names[2], sizeof(names[2]), "tx_pause_storm_warning_events");
	snprintf(names[3], sizeof(names[3]), "tx_pause_storm_error_events");	/* again */
	memset(names[4], 'x', sizeof(names[4]));	/* fills its 32 bytes: no NUL */
	tap_check(rtune_eth_gstats_pick(names[0], 5, vals, 5, &e) == 0 &&
		  e.has_drv[RTUNE_ETH_STORM_ERR] && e.drv[RTUNE_ETH_STORM_ERR] == 2 &&
		  e.has_drv[RTUNE_ETH_STORM_WARN] && e.drv[RTUNE_ETH_STORM_WARN] == 3 &&
		  !strcmp(e.drv_name[RTUNE_ETH_STORM_ERR], "tx_pause_storm_error_events"),
		  "ethtool -S: mlx5's storm counters picked by name, the first of a repeated name");
	tap_check(rtune_eth_gstats_pick(names[0], 5, vals, 4, &e) == -EPROTO &&
		  !e.has_drv[RTUNE_ETH_STORM_ERR] && !e.has_drv[RTUNE_ETH_STORM_WARN],
		  "ethtool -S: names and values of different counts are refused, nothing read");
	memcpy(names[1], "tx_pause_storm_error_events_x", 30);	/* a longer name */
	memcpy(names[2], "tx_pause_storm_warning_event", 29);	/* a prefix */
	memset(names[3], 0, sizeof(names[3]));
	tap_check(rtune_eth_gstats_pick(names[0], 5, vals, 5, &e) == 0 &&
		  !e.has_drv[RTUNE_ETH_STORM_ERR] && !e.has_drv[RTUNE_ETH_STORM_WARN],
		  "ethtool -S: only exact names count, not a prefix or a longer name");
	tap_check(rtune_eth_gstats_pick(NULL, 0, NULL, 0, &e) == 0 &&
		  !e.has_drv[RTUNE_ETH_STORM_ERR], "ethtool -S: no statistics, none read");

	memset(names, 0, sizeof(names));
	snprintf(names[0], sizeof(names[0]), "rx_prio3_pause_duration");
	snprintf(names[1], sizeof(names[1]), "tx_prio7_pause_duration");
	snprintf(names[2], sizeof(names[2]), "rx_prio8_pause_duration");	/* no priority 8 */
	snprintf(names[3], sizeof(names[3]), "rx_prio3_pause_duration_x");
	snprintf(names[4], sizeof(names[4]), "rx_global_pause_duration");
	tap_check(rtune_eth_gstats_pick(names[0], 5, vals, 5, &e) == 0 &&
		  e.pause_us_rx_mask == 1u << 3 && e.pause_us_rx[3] == 1 &&
		  e.pause_us_tx_mask == 1u << 7 && e.pause_us_tx[7] == 2,
		  "ethtool -S: mlx5's per-priority pause durations, priorities 0-7 only, exact names");
}

/* Two ports: A pauses on priority 3, B carries more traffic; B gone later. */
static void mk(struct rtune_stsnap *s, double t, uint64_t base, bool with_b, uint64_t a_pfc3)
{
	struct rtune_stport *p;

	memset(s, 0, sizeof(*s));
	s->t = t;
	s->p = calloc(2, sizeof(*s->p));
	p = &s->p[s->n++];
	snprintf(p->netdev, sizeof(p->netdev), "dcbA");
	p->ifindex = 5;
	p->has_ib = true;
	snprintf(p->ibdev, sizeof(p->ibdev), "rxe\"0\\");	/* label escaping */
	p->port = 1;
	p->rdma_rate_gbps = -1;
	p->valid = (1u << ST_RX_BYTES) | (1u << ST_TX_BYTES) | (1u << ST_CNP_SENT) |
		   (1u << ST_STORM_ERR);
	p->v[ST_STORM_ERR] = base / 1000;	/* a driver storm counter (ethtool -S) */
	p->eth.pause_us_rx_mask = 1u << 3;	/* and a pause duration, in us */
	p->eth.pause_us_rx[3] = base * 1000 + 7;
	p->v[ST_RX_BYTES] = base;
	p->v[ST_TX_BYTES] = base;
	p->v[ST_CNP_SENT] = 100 - base / 1000;	/* goes down: a reset */
	p->has_pfc = true;
	p->pfc_en = 0x08;
	p->pfc_tx[3] = a_pfc3;
	p->pfc_rx[3] = a_pfc3 / 2;
	p->has_qp_stats = true;
	p->qp = calloc(2, sizeof(*p->qp));
	p->nqp = 2;
	p->qp[0].qpn = 17;
	p->qp[0].valid = 1u << QP_CNP_RCVD;
	p->qp[0].v[QP_CNP_RCVD] = base / 100;
	p->qp[1].qpn = 18;
	p->qp[1].valid = 1u << QP_CNP_RCVD;
	p->qp[1].v[QP_CNP_RCVD] = base / 10;
	if (!with_b)
		return;
	p = &s->p[s->n++];
	snprintf(p->netdev, sizeof(p->netdev), "dcbB");
	p->ifindex = 6;
	p->rdma_rate_gbps = -1;
	p->valid = (1u << ST_RX_BYTES) | (1u << ST_TX_BYTES);
	p->v[ST_RX_BYTES] = base * 10;
	p->v[ST_TX_BYTES] = base * 10;
	p->has_pfc = true;
}

static char *capture_prom(const struct rtune_stsnap *s, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	rtune_st_prom(f, s);
	fclose(f);
	return buf;
}

static void check_prom_names(const char *buf)
{
	const char *l = buf;
	int bad = 0, nsamples = 0;

	while (*l) {
		const char *e = strchr(l, '\n');
		char name[128];

		if (!e)
			break;
		if (!strncmp(l, "# TYPE ", 7)) {
			char type[16];

			if (sscanf(l, "# TYPE %127s %15s", name, type) != 2 ||
			    strncmp(name, "rocetune_", 9) ||
			    (!strcmp(type, "counter") !=
			     (strlen(name) > 6 && !strcmp(name + strlen(name) - 6, "_total"))))
				bad++;
		} else if (*l != '#') {
			nsamples++;
		}
		l = e + 1;
	}
	tap_check(!bad && nsamples > 0,
		  "prometheus: rocetune_ prefix, counters and only counters end in _total (%d bad)",
		  bad);
}

static void test_rates_and_output(void)
{
	struct rtune_stsnap a, b;
	char *buf = NULL, path[] = "/tmp/rocetune-stats-test.XXXXXX", file[300];
	size_t len = 0;
	FILE *f;
	int fd;

	mk(&a, 10.0, 1000, true, 100);
	mk(&b, 12.0, 5000, false, 500);
	rtune_st_rates(&a, &b);
	tap_check(b.n == 2 && b.p[1].gone && !strcmp(b.p[1].netdev, "dcbB"),
		  "rates: a port missing from the second sample is reported gone");
	tap_check((b.p[0].rvalid & (1u << ST_RX_BYTES)) && b.p[0].rate[ST_RX_BYTES] == 2000.0,
		  "rates: (5000 - 1000) B over 2 s is 2000 B/s");
	tap_check(!(b.p[0].rvalid & (1u << ST_CNP_SENT)),
		  "rates: a counter that went down (reset) has no rate");
	tap_check(b.p[0].has_pfc_rate && b.p[0].pfc_tx_rate[3] == 200.0 &&
		  b.p[0].pfc_rx_rate[3] == 100.0 && b.p[0].pfc_tx_rate[0] == 0,
		  "rates: PFC per priority");
	tap_check((b.p[0].qp[1].rvalid & (1u << QP_CNP_RCVD)) &&
		  b.p[0].qp[1].rate[QP_CNP_RCVD] == 200.0, "rates: per QP by QPN");

	rtune_st_sort(&b, ST_SORT_NAME);
	tap_check(b.p[1].gone && b.p[0].qp[0].qpn == 17, "sort name: gone ports last, QPs by number");
	rtune_st_sort(&b, ST_SORT_PAUSE);
	tap_check(b.p[0].qp[0].qpn == 18, "sort pause: the QP with more CNPs per second first");

	f = open_memstream(&buf, &len);
	{
		struct jw j;

		jw_init(&j, f);
		jw_obj(&j, NULL);
		rtune_st_json(&j, &b, 2000);
		jw_end_obj(&j);
	}
	fclose(f);
	tap_check(strstr(buf, "\"pause_tx_frames\":{\"total\":null,\"rate\":null}") &&
		  strstr(buf, "\"cnp_sent\":{\"total\":95,\"rate\":null}") &&
		  strstr(buf, "\"state\":\"gone\"") && strstr(buf, "\"interval_ms\":2000"),
		  "json: absent values are null, a reset counter has a total and a null rate");
	tap_check(strstr(buf, "\"received_pause_us\":{\"total\":5000007,\"rate\":2000000") &&
		  strstr(buf, "\"sent_pause_us\":{\"total\":null,\"rate\":null}"),
		  "json: a priority's pause duration and its rate (us/s); null where not reported");
	free(buf);

	buf = capture_prom(&b, &len);
	tap_check(strstr(buf, "# HELP rocetune_pfc_pause_frames_sent_total ") &&
		  strstr(buf, "# TYPE rocetune_pfc_pause_frames_sent_total counter\n") &&
		  strstr(buf, "rocetune_pfc_pause_frames_sent_total{device=\"dcbA\",priority=\"3\"} 500\n") &&
		  strstr(buf, "rocetune_pfc_enabled{device=\"dcbA\",priority=\"3\"} 1\n"),
		  "prometheus: per-priority PFC counters with HELP and TYPE");
	tap_check(strstr(buf, "# TYPE rocetune_link_pause_storm_error_events_total counter\n") &&
		  strstr(buf, "rocetune_link_pause_storm_error_events_total{device=\"dcbA\"} 5\n") &&
		  !strstr(buf, "rocetune_link_pause_storm_warning_events_total{"),
		  "prometheus: the driver's storm error counter where it has one, no warning sample without");
	tap_check(strstr(buf, "rocetune_pfc_pause_received_duration_seconds_total{device=\"dcbA\",priority=\"3\"} 5.000007\n") &&
		  !strstr(buf, "rocetune_pfc_pause_received_duration_seconds_total{device=\"dcbA\",priority=\"2\"}") &&
		  !strstr(buf, "rocetune_pfc_pause_sent_duration_seconds_total{"),
		  "prometheus: pause durations in seconds, only where the driver reports them");
	tap_check(strstr(buf, "rocetune_rdma_cnp_sent_total{device=\"rxe\\\"0\\\\\",port=\"1\"} 95\n") != NULL,
		  "prometheus: label values escaped");
	tap_check(!strstr(buf, "rocetune_link_pause_frames_sent_total{") &&
		  !strstr(buf, "dcbB") && !strstr(buf, "rocetune_link_speed_bytes_per_second{"),
		  "prometheus: absent values and gone ports have no sample");
	tap_check(strstr(buf, "rocetune_qp_cnp_received_total{device=\"rxe\\\"0\\\\\",port=\"1\",qpn=\"18\"} 500\n") != NULL,
		  "prometheus: per-QP counters labelled with qpn");
	check_prom_names(buf);

	fd = mkstemp(path);
	if (fd >= 0)
		close(fd);
	snprintf(file, sizeof(file), "%s", path);
	tap_check(rtune_st_prom_file(file, &b) == 0, "prometheus file: written");
	{
		char *back = malloc(len + 1);
		FILE *r = fopen(file, "r");
		size_t n = r ? fread(back, 1, len + 1, r) : 0;

		tap_check(n == len && !memcmp(back, buf, len),
			  "prometheus file: the same bytes as stdout, renamed over the old file");
		if (r)
			fclose(r);
		free(back);
	}
	if (access("/usr/bin/promtool", X_OK) == 0) {
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "promtool check metrics < %s >/dev/null 2>&1", file);
		tap_check(system(cmd) == 0, "promtool check metrics accepts the output");
	} else {
		tap_skip("promtool not installed (scripts/install-deps.sh)", "promtool check metrics");
	}
	unlink(file);
	tap_check(rtune_st_prom_file("/nonexistent-dir/x.prom", &b) == -ENOENT,
		  "prometheus file: an unwritable directory is an error");
	free(buf);
	rtune_st_free(&a);
	rtune_st_free(&b);
}

static int write_text(FILE *f, void *arg)
{
	fputs(arg, f);
	return 0;
}

static int write_fails(FILE *f, void *arg)
{
	(void)arg;
	fputs("half", f);
	return -EINVAL;
}

/* atomic_file.c, which the Prometheus file and the QP counter records use */
static void test_atomic_file(void)
{
	char dir[] = "/tmp/rtune-af.XXXXXX", path[64], tmp[96], back[16] = "";
	FILE *f;
	size_t n;

	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/f", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	tap_check(rtune_atomic_write(path, RTUNE_AF_FSYNC, write_text, "old\n") == 0 &&
		  rtune_atomic_write(path, 0, write_text, "new\n") == 0,
		  "atomic file: written, then replaced (with and without fsync)");
	tap_check(rtune_atomic_write(path, 0, write_fails, NULL) == -EINVAL && access(tmp, F_OK),
		  "atomic file: the writer's error is returned, the temporary removed");
	f = fopen(path, "r");
	n = f ? fread(back, 1, sizeof(back) - 1, f) : 0;
	if (f)
		fclose(f);
	tap_check(n == 4 && !strcmp(back, "new\n"), "atomic file: a failed write leaves the old file whole");
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	tap_plan(47);
	test_atomic_file();
	test_counters();
	test_gstats_pick();
	test_qp_stats();
	test_map_hw();
	test_ethtool_parsers();
	test_rates_and_output();
	return tap_done();
}
