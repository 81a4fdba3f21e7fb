// SPDX-License-Identifier: GPL-2.0
/*
 * The probe's verdict (probe.h): what arrived against what each host's
 * settings promise. Pure: the fingerprints and the listener's counts in,
 * findings out.
 *
 * DSCP: a host promises the DSCP of its RDMA-CM ToS (rdma_cm.tos >> 2):
 * the sender's is what it sends with, the receiver's what its trust map is
 * set up for. ECN: a host whose cc.active.ecn_enabled_prios holds the
 * priority its DSCP map gives that DSCP (its class selector without a map)
 * promises ECN-capable packets (ECT(0), ECT(1), or CE marked on the way);
 * one where it does not, Not-ECT, since ECN-capable traffic to or from a
 * host that takes no part in ECN is marked instead of dropped by an ECN
 * queue and nobody slows down.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fingerprint.h"
#include "probe.h"

static const char *const ecn_names[] = { "Not-ECT", "ECT(1)", "ECT(0)", "CE" };

/* A number in 0..@max from a fingerprint value, or -1. */
static long num(const char *s, long max)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	v = strtol(s, &end, 10);
	return *end || v < 0 || v > max ? -1 : v;
}

/* The priority "D:P D:P ..." gives @dscp, else its class selector. */
static int prio_of(const char *map, int dscp)
{
	const char *s = map;

	while (s && *s) {
		int d, p, used = 0;

		if (sscanf(s, "%d:%d%n", &d, &p, &used) != 2 || !used)
			break;
		if (d == dscp && p >= 0 && p < 8)
			return p;
		s += used;
		while (*s == ' ')
			s++;
	}
	return dscp >> 3;
}

static struct rtune_probe_finding *add(struct rtune_probe_finding *out, int *n, const char *check,
				       const char *host)
{
	struct rtune_probe_finding *f = &out[(*n)++];

	memset(f, 0, sizeof(*f));
	f->check = check;
	f->verdict = "pass";
	snprintf(f->host, sizeof(f->host), "%s", host ? host : "");
	return f;
}

/* The packets not matching @want(tos): how many, and the commonest ToS. */
static uint32_t others(const struct rtune_probe_result *r, bool (*ok)(int tos, int arg), int arg,
		       int *top)
{
	uint32_t n = 0, best = 0;
	int i;

	*top = -1;
	for (i = 0; i < r->ncodes; i++) {
		if (ok(r->code[i].tos, arg))
			continue;
		n += r->code[i].count;
		if (r->code[i].count > best) {
			best = r->code[i].count;
			*top = r->code[i].tos;
		}
	}
	return n;
}

static bool dscp_is(int tos, int dscp)
{
	return tos >> 2 == dscp;
}

static bool ecn_capable_is(int tos, int capable)
{
	return !!(tos & 3) == !!capable;
}

static void dscp_check(const struct rtune_probe_result *r, const char *label,
		       const struct rtune_fp *fp, struct rtune_probe_finding *f)
{
	long tos = num(rtune_fp_get(fp, "rdma_cm.tos"), 255);
	uint32_t bad;
	int top;

	snprintf(f->setting, sizeof(f->setting), "rdma_cm.tos");
	if (tos < 0) {
		f->verdict = "unchecked";
		snprintf(f->observed, sizeof(f->observed), "%s has no RDMA-CM ToS setting", label);
		return;
	}
	snprintf(f->value, sizeof(f->value), "%ld", tos);
	snprintf(f->promised, sizeof(f->promised), "DSCP %ld", tos >> 2);
	bad = others(r, dscp_is, (int)(tos >> 2), &top);
	if (bad) {
		f->verdict = "fail";
		snprintf(f->observed, sizeof(f->observed), "DSCP %d in %u of %u packets", top >> 2,
			 bad, r->packets);
	} else {
		snprintf(f->observed, sizeof(f->observed), "DSCP %ld in all %u packets", tos >> 2,
			 r->packets);
	}
}

static void ecn_check(const struct rtune_probe_result *r, const char *label,
		      const struct rtune_fp *fp, struct rtune_probe_finding *f)
{
	long tos = num(rtune_fp_get(fp, "rdma_cm.tos"), 255);
	long mask = num(rtune_fp_get(fp, "cc.active.ecn_enabled_prios"), 255);
	uint32_t bad;
	int prio, top, on;

	snprintf(f->setting, sizeof(f->setting), "cc.active.ecn_enabled_prios");
	if (mask < 0 || tos < 0) {
		f->verdict = "unchecked";
		snprintf(f->observed, sizeof(f->observed), "%s has no %s setting", label,
			 mask < 0 ? "ECN (cc)" : "RDMA-CM ToS");
		return;
	}
	prio = prio_of(rtune_fp_get(fp, "dcb.dscp_prio"), (int)(tos >> 2));
	on = (int)(mask >> prio) & 1;
	snprintf(f->value, sizeof(f->value), "%ld (priority %d %s)", mask, prio,
		 on ? "on" : "off");
	snprintf(f->promised, sizeof(f->promised), "%s", on ? "ECT(0), ECT(1) or CE" : "Not-ECT");
	bad = others(r, ecn_capable_is, on, &top);
	if (bad) {
		f->verdict = "fail";
		snprintf(f->observed, sizeof(f->observed), "%s in %u of %u packets", ecn_names[top & 3],
			 bad, r->packets);
	} else {
		snprintf(f->observed, sizeof(f->observed), "%s in all %u packets",
			 r->ncodes ? ecn_names[r->code[0].tos & 3] : "-", r->packets);
	}
}

int rtune_probe_check(const struct rtune_probe_result *r, int sent, const char *rx_label,
		      const struct rtune_fp *rx, const char *tx_label, const struct rtune_fp *tx,
		      struct rtune_probe_finding *out, bool *failed)
{
	struct rtune_probe_finding *f;
	int n = 0, i;

	*failed = false;
	f = add(out, &n, "delivery", rx_label);
	snprintf(f->promised, sizeof(f->promised), "%d messages", sent < 0 ? (int)r->received : sent);
	snprintf(f->observed, sizeof(f->observed), "%u arrived%s%s", r->received,
		 r->note[0] ? ": " : "", r->note);
	if (!r->received || (sent >= 0 && r->received != (uint32_t)sent))
		f->verdict = "fail";
	if (!r->captured || !r->packets) {
		/* nothing seen to check: say why, never pass */
		for (i = 0; i < 2; i++) {
			f = add(out, &n, i ? "ecn" : "dscp", rx_label);
			f->verdict = "unchecked";
			snprintf(f->observed, sizeof(f->observed), "%s",
				 !r->received ? "no probe message arrived" :
				 !r->captured ? r->note :
				 "the probe QP's packets did not cross the receiver's netdev (a NIC that offloads RoCE): see the counters");
		}
	} else {
		dscp_check(r, rx_label, rx, add(out, &n, "dscp", rx_label));
		dscp_check(r, tx_label, tx, add(out, &n, "dscp", tx_label));
		ecn_check(r, rx_label, rx, add(out, &n, "ecn", rx_label));
		ecn_check(r, tx_label, tx, add(out, &n, "ecn", tx_label));
	}
	for (i = 0; i < n; i++)
		if (!strcmp(out[i].verdict, "fail"))
			*failed = true;
	return n;
}
