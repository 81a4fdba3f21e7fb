/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `rocetune doctor`: what is wrong with a RoCE host, each finding with its
 * severity, evidence and fix.
 *
 * Three parts, so that the rules can be tested without a kernel:
 *   doctor_read.c   fills a snapshot (struct rtune_doc_snap) from the host:
 *                   host.c's settings, two stats.c samples for the rates,
 *                   the PFC storm prevention tunable, rocetune.ko's pacing
 *                   state and the root qdisc under it, whether lldpad runs;
 *   doctor_rules.c  pure functions from a snapshot (and the profile, if
 *                   any) to findings: no I/O;
 *   doctor_cmd.c    the command, and the text and JSON output.
 */
#ifndef ROCETUNE_DOCTOR_H
#define ROCETUNE_DOCTOR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "json.h"
#include "profile.h"
#include "qdisc.h"
#include "state.h"
#include "stats.h"

/* One port as the rules see it. */
struct rtune_doc_port {
	struct rtune_link l;	/* settings (host.c): MTU, DCB, RDMA-CM, CC */
	struct rtune_stport s;	/* counters and rates (stats.c); s.qp is NULL */
	bool has_pfc_tout;	/* ETHTOOL_PFC_PREVENTION_TOUT readable */
	uint16_t pfc_tout_ms;	/* 0: storm prevention off */
	char pacing[48];	/* rocetune.ko ports/N/pacing; "" not there */
	/* the netdev's root qdisc, read while pacing is active (fq's orphan
	 * mask); has_qdisc false: not read or the read failed */
	bool has_qdisc;
	struct rtune_root_qdisc qdisc;
};

struct rtune_doc_snap {
	struct rtune_doc_port *p;
	int n;
	bool lldpad;		/* a process named lldpad runs */
	double interval_s;	/* between the two samples */
};

/* Thresholds, with their defaults. */
struct rtune_doc_cfg {
	double pause_rate;	/* PFC frames/s on one priority, one direction */
	double err_rate;	/* FCS + symbol errors per second */
};
#define RTUNE_DOC_PAUSE_RATE 1000.0
#define RTUNE_DOC_ERR_RATE 0.0	/* any error rising */

enum rtune_doc_sev { DOC_ERROR, DOC_WARNING };

/* One item of evidence: a number (with its unit) or a text. */
struct rtune_doc_ev {
	char key[32];
	bool is_num;
	double num;
	char str[64];
};

#define RTUNE_DOC_MAX_EV 16

struct rtune_doc_finding {
	const char *code;	/* stable id: "pause-storm", ... */
	enum rtune_doc_sev sev;
	int port;		/* index into the snapshot; -1 host-wide */
	int prio;		/* the priority concerned, or -1 */
	char summary[192];
	struct rtune_doc_ev ev[RTUNE_DOC_MAX_EV];
	int nev;
	char fix[320];
};

#define RTUNE_DOC_MAX_FINDINGS 128

struct rtune_doc_result {
	struct rtune_doc_finding f[RTUNE_DOC_MAX_FINDINGS];
	int n;
	int nerr, nwarn;
	int dropped;
};

/* The codes, in the order the rules run (documented in rocetune(8)). */
extern const char *const rtune_doc_codes[];
extern const int rtune_doc_ncodes;

/* Run every rule over @s (@p: the profile, or NULL). Pure. */
void rtune_doc_run(const struct rtune_doc_snap *s, const struct rtune_profile *p,
		   const struct rtune_doc_cfg *cfg, struct rtune_doc_result *r);

/* Helpers the rules use, exposed for the tests. */
/* Does the port trust DSCP (its APP trust table, or DSCP entries without one)? */
bool rtune_doc_trusts_dscp(const struct rtune_dcb *d);
/* The priority the port's APP table gives @dscp: the lowest of its entries,
 * 0 when it has none (untagged traffic's priority). */
int rtune_doc_dscp_prio(const struct rtune_dcb *d, unsigned int dscp);
/* The priority RoCE traffic should use: the profile's (its ToS through its
 * DSCP map), else the one PFC-enabled priority, else the ToS through the
 * port's map; -1 when none of them tells. */
int rtune_doc_roce_prio(const struct rtune_doc_port *d, const struct rtune_profile *p);
/* Is the netdev's link down (set down, no carrier, operstate not up)? */
bool rtune_doc_link_down(const struct rtune_stport *p);
/* The RoCE MTU a netdev MTU allows (the kernel's iboe_get_mtu()): 256..4096, 0 if none. */
uint32_t rtune_doc_roce_mtu(uint32_t netdev_mtu);

/* Reading the host (doctor_read.c). @names: netdevs/RDMA devices, or the
 * devices @p matches, or all with DCB or RDMA. 0 or a negative errno. */
int rtune_doc_read(const struct rtune_profile *p, char *const *names, int nnames,
		   int interval_ms, struct rtune_doc_snap *s);
void rtune_doc_free(struct rtune_doc_snap *s);

/* Output (doctor_cmd.c). */
void rtune_doc_text(FILE *f, const struct rtune_doc_snap *s, const struct rtune_doc_result *r);
void rtune_doc_json(struct jw *j, const struct rtune_doc_snap *s, const struct rtune_doc_result *r,
		    const struct rtune_doc_cfg *cfg);

/* The command. */
struct rtune_doctor_opts {
	bool json;
	int interval_ms;
	struct rtune_doc_cfg cfg;
	const char *profile;	/* NULL: none */
	char **names;
	int nnames;
};
int rtune_doctor(const struct rtune_doctor_opts *o);

/* Exit status: 0 clean, 1 could not run, 2 findings (warnings only), 3 errors found. */
enum { RTUNE_DOC_EXIT_CLEAN = 0, RTUNE_DOC_EXIT_FAILED = 1, RTUNE_DOC_EXIT_WARNINGS = 2,
       RTUNE_DOC_EXIT_ERRORS = 3 };

#endif
