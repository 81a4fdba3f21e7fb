/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `rocetune stats` and `rocetune top`: per-port and per-QP counters from
 * rtnetlink, dcbnl, ethtool netlink, the RDMA core's sysfs and rocetune.ko's
 * configfs; rates from two samples; text, JSON and Prometheus output.
 *
 * A value that a source did not report is absent (its valid bit clear),
 * never 0: the outputs print "-" (text), null (JSON) or no sample
 * (Prometheus).
 */
#ifndef ROCETUNE_STATS_H
#define ROCETUNE_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "ethtool.h"
#include "json.h"

/* Per-port scalar counters, in output order. */
enum rtune_st_id {
	ST_RX_BYTES, ST_TX_BYTES, ST_RX_PACKETS, ST_TX_PACKETS, ST_RX_DROPPED, ST_TX_DROPPED,
	ST_PAUSE_TX, ST_PAUSE_RX, ST_FCS_ERR, ST_SYM_ERR, ST_LINK_DOWN,
	ST_STORM_WARN, ST_STORM_ERR,
	ST_ECN_MARKED, ST_CNP_SENT, ST_CNP_HANDLED, ST_CNP_IGNORED,
	ST_RETRANS, ST_DUP_REQ, ST_OUT_OF_SEQ,
	ST_COUNT
};

enum rtune_st_scope { ST_NETDEV, ST_RDMA };

/* What each counter is: names for JSON and Prometheus, and its source. */
struct rtune_st_desc {
	const char *key;	/* JSON and text name */
	const char *prom;	/* Prometheus metric name (a _total counter) */
	const char *help;
	enum rtune_st_scope scope;	/* labels: device=netdev, or device=ibdev,port */
	const char *source;
};
extern const struct rtune_st_desc rtune_st_descs[ST_COUNT];

/*
 * Per-QP counters, in output order: rocetune.ko's qp_stats on Soft-RoCE
 * (datapath.rst), and the same names from a hardware QP's RDMA counter
 * (qpctr.h; the last three only from hardware).
 */
enum rtune_qp_id {
	QP_RATE_KBPS, QP_CNP_SENT, QP_CNP_RCVD, QP_CE_RCVD, QP_PACED_PKTS, QP_PACED_BYTES,
	QP_RATE_CUTS, QP_RETRANS, QP_DUP_REQ, QP_OUT_OF_SEQ, QP_COUNT
};
extern const char *const rtune_qp_keys[QP_COUNT];

struct rtune_stqp {
	uint32_t qpn;
	bool has_peer;
	uint32_t peer_qpn;
	char state[16];
	uint64_t v[QP_COUNT];
	uint32_t valid;		/* bit i: v[i] was read */
	double rate[QP_COUNT];
	uint32_t rvalid;	/* bit i: rate[i] computed */
	/* from an RDMA counter (qpctr.h): its id (0: none), how many QPs it
	 * counts (more than 1: the values are theirs together), and whether
	 * rocetune bound it (stats --bind-qp-counters) */
	uint32_t counter_id, counter_qps;
	bool counter_ours;
};

struct rtune_qpc;
/* The neutral per-QP counters of an RDMA counter's hardware counters. */
void rtune_st_map_qpc(const struct rtune_qpc *c, struct rtune_stqp *q);

struct rtune_stctr {
	char name[48];
	uint64_t v;
};

#define RTUNE_ST_MAX_HW 128

struct rtune_stport {
	char netdev[16];
	int ifindex;
	bool has_ib;
	char ibdev[64];
	uint32_t port;
	bool gone;		/* was in the previous sample, is no more */

	uint64_t v[ST_COUNT];
	uint32_t valid;		/* bit i: v[i] was read */
	double rate[ST_COUNT];
	uint32_t rvalid;

	/* dcbnl IEEE PFC: requests = pause frames sent, indications = received */
	bool has_pfc;
	uint8_t pfc_en;
	uint64_t pfc_tx[8], pfc_rx[8];
	bool has_pfc_rate;
	double pfc_tx_rate[8], pfc_rx_rate[8];
	/* the pause durations' rates (us/s), from eth.pause_us_*; bit N: set */
	uint8_t pause_us_tx_rmask, pause_us_rx_rmask;
	double pause_us_tx_rate[8], pause_us_rx_rate[8];
	int dcb_err;		/* positive errno when dcbnl did not answer */

	/* rtnetlink's link state (has_oper: read): RFC 2863's operstate
	 * (IF_OPER_*), IFF_UP, IFLA_CARRIER and IFLA_CARRIER_CHANGES */
	bool has_oper;
	uint8_t operstate;
	bool admin_up, carrier;
	bool has_carrier_changes;
	uint32_t carrier_changes;

	bool has_speed;
	uint32_t speed_mbps;
	struct rtune_eth eth;	/* the errors say why an ethtool group is missing */

	char rdma_state[16];	/* "" unknown; ACTIVE, DOWN, ... */
	double rdma_rate_gbps;	/* < 0 unknown */
	struct rtune_stctr hw[RTUNE_ST_MAX_HW];	/* the driver's hw_counters, raw */
	int nhw;

	struct rtune_stqp *qp;	/* rocetune.ko's qp_stats and RDMA counters, NULL/0 without */
	int nqp;
	bool has_qp_stats;
	/* RDMA counters (qpctr.h): qpc_err 0 when they were read */
	int qpc_err;
	uint32_t qpc_mode;	/* the port's counter mode: none, auto, manual */
	int nqpc;		/* counters read */
};

struct rtune_stsnap {
	double t;		/* CLOCK_MONOTONIC seconds */
	struct rtune_stport *p;
	int n;
};

/* Sort keys for top (and the order of stats' output). */
enum rtune_st_sort { ST_SORT_PAUSE, ST_SORT_BUSY, ST_SORT_NAME };
int rtune_st_sort_parse(const char *s, enum rtune_st_sort *out);
extern const char *const rtune_st_sort_names[3];

/*
 * Take a sample of the netdevs with DCB or an RDMA port (or those named in
 * @names). Returns 0, or a negative errno when the host cannot be read at
 * all (rtnetlink unavailable).
 */
int rtune_st_sample(char *const *names, int nnames, struct rtune_stsnap *s);
void rtune_st_free(struct rtune_stsnap *s);
/*
 * Rates of @cur against @prev: per-second differences of every counter
 * present in both samples (a counter that went down, a reset, gets none).
 * Ports of @prev missing from @cur are appended to @cur as gone.
 */
void rtune_st_rates(const struct rtune_stsnap *prev, struct rtune_stsnap *cur);
void rtune_st_sort(struct rtune_stsnap *s, enum rtune_st_sort key);
/* Sort keys of a port and a QP (per-second rates; 0 when unknown). */
double rtune_st_pause_rate(const struct rtune_stport *p);
double rtune_st_busy_rate(const struct rtune_stport *p);

/* Parsers of the configfs and sysfs text (untrusted: fuzzed). */
/* "name value" lines (rocetune.ko's counters): fills @out, returns the count. */
int rtune_st_parse_counters(const char *buf, struct rtune_stctr *out, int max);
/* qp_stats: a header line naming the columns, then one line per QP.
 * Returns the number of QPs (*out malloc'd, NULL when 0) or -EPROTO. */
int rtune_st_parse_qp_stats(const char *buf, struct rtune_stqp **out);
/* The neutral counters of the raw @hw counters (kmod/core/counter_names). */
void rtune_st_map_hw(struct rtune_stport *p);

/* Output. @interval_ms < 0: a single sample (no rates). */
void rtune_st_text(FILE *f, const struct rtune_stsnap *s, bool rates);
void rtune_st_json(struct jw *j, const struct rtune_stsnap *s, int interval_ms);
/* The Prometheus text exposition format. */
void rtune_st_prom(FILE *f, const struct rtune_stsnap *s);
/* Write it to @path atomically (a temporary file in the same directory,
 * fsync, rename). 0 or a negative errno. */
int rtune_st_prom_file(const char *path, const struct rtune_stsnap *s);

/* One line per port and QP, for top; @rows limits the lines (0: all). */
void rtune_st_top_frame(FILE *f, const struct rtune_stsnap *s, enum rtune_st_sort key,
			double interval_s);

#endif
