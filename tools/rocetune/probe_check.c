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
 *
 * Path MTU: the smaller active RoCE MTU of the two hosts (roce_active_mtu)
 * is what the connection's packets carry at most; a hop with a smaller
 * MTU drops the full-size ones while small probes pass. The ladder of
 * sizes up to it (probe.h) must have arrived whole, and where packets were
 * seen, one of the full size: payload + 44 bytes (IPv4 20, UDP 8, BTH 12,
 * ICRC 4; IPv6's are 20 more). The finding names the host whose RoCE MTU
 * is that size (the receiver when both have it) and, on a failure, the
 * largest size that crossed.
 *
 * CNPs (--probe-cnp): the listener is the notification point, so its
 * cc.active.np_cnp_dscp alone decides the DSCP of the CNPs that come
 * back; the peer's says which DSCP its fabric gives CNPs. One finding,
 * the listener's: every CNP carries its DSCP, and that is the peer's too.
 * Rate: the peer's rp_enabled_prios, for the priority of its DSCP,
 * promises that its QP's rate is cut when CNPs arrive (or, off, that it
 * is not).
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

int rtune_probe_prio_of(const struct rtune_fp *fp, int dscp)
{
	return prio_of(rtune_fp_get(fp, "dcb.dscp_prio"), dscp);
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

static uint32_t ce_marked(const struct rtune_probe_result *r);

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
	} else if (on && ce_marked(r)) {
		/* CE-marked on the way: ECN-capable when sent, say both */
		snprintf(f->observed, sizeof(f->observed), "ECN-capable in all %u packets, %u of them CE",
			 r->packets, ce_marked(r));
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

#define ROCEV2_V4_OVERHEAD 44	/* IPv4 20, UDP 8, BTH 12, ICRC 4 */

uint16_t rtune_probe_mtu_of(const struct rtune_fp *a, const struct rtune_fp *b)
{
	long x = num(rtune_fp_get(a, "roce_active_mtu"), RTUNE_PROBE_MTU_MAX);
	long y = num(rtune_fp_get(b, "roce_active_mtu"), RTUNE_PROBE_MTU_MAX);
	long m = x < y ? x : y;

	if (m < RTUNE_PROBE_MTU_MIN || (m & (m - 1)))
		return 0;
	return (uint16_t)m;
}

int rtune_probe_check_mtu(const struct rtune_probe_result *r, uint16_t mtu, const char *rx_label,
			  const struct rtune_fp *rx, const char *tx_label,
			  const struct rtune_fp *tx, struct rtune_probe_finding *out, int n,
			  bool *failed)
{
	long rx_mtu = num(rtune_fp_get(rx, "roce_active_mtu"), RTUNE_PROBE_MTU_MAX);
	long tx_mtu = num(rtune_fp_get(tx, "roce_active_mtu"), RTUNE_PROBE_MTU_MAX);
	bool tx_sets = rx_mtu != mtu && tx_mtu == mtu;
	struct rtune_probe_finding *f = add(out, &n, "path_mtu", tx_sets ? tx_label : rx_label);
	uint32_t step = rtune_probe_ladder_size(mtu, 0), largest;
	unsigned int full = (unsigned int)mtu + ROCEV2_V4_OVERHEAD;

	snprintf(f->setting, sizeof(f->setting), "roce_active_mtu");
	if (!mtu) {
		f->verdict = "unchecked";
		snprintf(f->observed, sizeof(f->observed), "%s",
			 "a host reports no active RoCE MTU: no full-size messages were sent");
		return n;
	}
	snprintf(f->value, sizeof(f->value), "%u", mtu);
	snprintf(f->promised, sizeof(f->promised), "messages of up to %u bytes, one packet each",
		 mtu);
	if (!r->ladder) {
		/* not even the smallest: the path, not its MTU */
		f->verdict = "unchecked";
		snprintf(f->observed, sizeof(f->observed),
			 "not even the smallest size (%u bytes) arrived", step);
		return n;
	}
	largest = rtune_probe_ladder_size(mtu, r->ladder - 1);
	if (r->ladder < RTUNE_PROBE_LADDER) {
		f->verdict = "fail";
		*failed = true;
		if (r->captured && r->pkt_max)
			snprintf(f->observed, sizeof(f->observed),
				 "the largest to arrive was %u bytes (%u-byte IP packets), of %u..%u in steps of %u: %u bytes and up were lost",
				 largest, r->pkt_max, step, mtu, step, largest + step);
		else
			snprintf(f->observed, sizeof(f->observed),
				 "the largest to arrive was %u bytes, of %u..%u in steps of %u: %u bytes and up were lost",
				 largest, step, mtu, step, largest + step);
		return n;
	}
	if (!r->captured || !r->packets) {
		snprintf(f->observed, sizeof(f->observed),
			 "all %d sizes up to %u bytes arrived (packets not seen on the netdev)",
			 RTUNE_PROBE_LADDER, mtu);
		return n;
	}
	if (r->pkt_max < full) {
		/* the connection cut them below the RoCE MTU: not proven */
		f->verdict = "fail";
		*failed = true;
		snprintf(f->observed, sizeof(f->observed),
			 "all sizes arrived, but no packet was larger than %u IP bytes (%u expected): the connection used a smaller MTU",
			 r->pkt_max, full);
		return n;
	}
	snprintf(f->observed, sizeof(f->observed),
		 "all %d sizes up to %u bytes arrived; largest packet %u IP bytes",
		 RTUNE_PROBE_LADDER, mtu, r->pkt_max);
	return n;
}

/* ECN-capable packets the listener saw marked CE on the way. */
static uint32_t ce_marked(const struct rtune_probe_result *r)
{
	uint32_t n = 0;
	int i;

	for (i = 0; i < r->ncodes; i++)
		if ((r->code[i].tos & 3) == 3)
			n += r->code[i].count;
	return n;
}

static bool ctr(const struct rtune_probe_result *r, const char *name, uint64_t *v)
{
	int i;

	for (i = 0; i < r->nctr; i++)
		if (!strcmp(r->ctr[i].name, name)) {
			*v = r->ctr[i].delta;
			return true;
		}
	return false;
}

/* "priority P on|off" of @fp's @mask_key for the DSCP of its RDMA-CM ToS:
 * 1 on, 0 off, -1 unknown. */
static int prio_enabled(const struct rtune_fp *fp, const char *mask_key, int *prio)
{
	long tos = num(rtune_fp_get(fp, "rdma_cm.tos"), 255);
	long mask = num(rtune_fp_get(fp, mask_key), 255);

	*prio = -1;
	if (tos < 0 || mask < 0)
		return -1;
	*prio = prio_of(rtune_fp_get(fp, "dcb.dscp_prio"), (int)(tos >> 2));
	return (int)(mask >> *prio) & 1;
}

static void cnp_dscp_check(const struct rtune_probe_result *r, const struct rtune_probe_cnp *c,
			   const char *rx_label, const struct rtune_fp *rx, const char *tx_label,
			   const struct rtune_fp *tx, struct rtune_probe_finding *f)
{
	int mine = (int)num(rtune_fp_get(rx, "cc.active.np_cnp_dscp"), 63);
	int theirs = (int)num(rtune_fp_get(tx, "cc.active.np_cnp_dscp"), 63);
	uint32_t marks = ce_marked(r), bad = 0, best = 0;
	uint64_t sent = 0;
	bool have_sent = ctr(r, "qp_cnp_sent", &sent);
	int i, np_prio, np_on = prio_enabled(rx, "cc.active.np_enabled_prios", &np_prio), top = -1;

	snprintf(f->setting, sizeof(f->setting), "cc.active.np_cnp_dscp");
	if (mine < 0) {
		f->verdict = "unchecked";
		snprintf(f->observed, sizeof(f->observed), "%s has no CNP DSCP setting", rx_label);
		return;
	}
	snprintf(f->value, sizeof(f->value), "%d", mine);
	if (theirs >= 0 && theirs != mine)
		snprintf(f->promised, sizeof(f->promised), "DSCP %d, the peer's CNP DSCP (%d)",
			 mine, theirs);
	else
		snprintf(f->promised, sizeof(f->promised), "DSCP %d", mine);
	if (!c->captured) {
		f->verdict = "unchecked";
		snprintf(f->observed, sizeof(f->observed), "%s", c->note[0] ? c->note :
			 "the peer could not watch its netdev");
		return;
	}
	if (!c->cnps) {
		if (c->has_handled && c->cnp_handled) {
			f->verdict = "unchecked";
			snprintf(f->observed, sizeof(f->observed),
				 "no CNP crossed the peer's netdev but rp_cnp_handled +%llu (a NIC that offloads RoCE)",
				 (unsigned long long)c->cnp_handled);
		} else if (!marks) {
			f->verdict = "unchecked";
			snprintf(f->observed, sizeof(f->observed),
				 "no probe packet arrived CE-marked: no congestion on the path to answer");
		} else if (np_on == 0) {
			f->verdict = "unchecked";
			snprintf(f->observed, sizeof(f->observed),
				 "%u CE-marked packets, no CNP: np_enabled_prios leaves priority %d off",
				 marks, np_prio);
		} else {
			f->verdict = "fail";
			if (have_sent)
				snprintf(f->observed, sizeof(f->observed),
					 "no CNP came back for %u CE-marked packets (the listener sent %llu)",
					 marks, (unsigned long long)sent);
			else
				snprintf(f->observed, sizeof(f->observed),
					 "no CNP came back for %u CE-marked packets", marks);
		}
		return;
	}
	for (i = 0; i < c->ncodes; i++) {
		if (c->code[i].tos >> 2 == mine)
			continue;
		bad += c->code[i].count;
		if (c->code[i].count > best) {
			best = c->code[i].count;
			top = c->code[i].tos >> 2;
		}
	}
	if (bad)
		snprintf(f->observed, sizeof(f->observed), "DSCP %d in %u of %u CNPs", top, bad,
			 c->cnps);
	else
		snprintf(f->observed, sizeof(f->observed), "DSCP %d in all %u CNPs", mine, c->cnps);
	if (bad || (theirs >= 0 && theirs != mine)) {
		size_t l = strlen(f->observed);

		f->verdict = "fail";
		if (theirs >= 0 && theirs != mine)
			snprintf(f->observed + l, sizeof(f->observed) - l,
				 "; %s gives CNPs DSCP %d", tx_label, theirs);
	}
}

static void rate_check(const struct rtune_probe_cnp *c, const char *tx_label,
		       const struct rtune_fp *tx, struct rtune_probe_finding *f)
{
	int prio, on = prio_enabled(tx, "cc.active.rp_enabled_prios", &prio);
	uint32_t cnps = c->cnps;

	snprintf(f->setting, sizeof(f->setting), "cc.active.rp_enabled_prios");
	if (on < 0) {
		f->verdict = "unchecked";
		snprintf(f->observed, sizeof(f->observed), "%s has no %s setting", tx_label,
			 "reaction point (cc)");
		return;
	}
	snprintf(f->value, sizeof(f->value), "%s (priority %d %s)",
		 rtune_fp_get(tx, "cc.active.rp_enabled_prios"), prio, on ? "on" : "off");
	snprintf(f->promised, sizeof(f->promised), "%s",
		 on ? "the rate cut on CNPs" : "the rate unchanged");
	if (!c->has_qp) {
		if (c->has_handled && c->cnp_handled && on) {
			snprintf(f->observed, sizeof(f->observed),
				 "rp_cnp_handled +%llu (the device reports no per-QP rate)",
				 (unsigned long long)c->cnp_handled);
			return;
		}
		f->verdict = "unchecked";
		snprintf(f->observed, sizeof(f->observed), "%s",
			 c->has_handled ? "rp_cnp_handled +0 and no per-QP rate from the device" :
			 "the device offers no per-QP rate (rocetune.ko's qp_stats) and no rp_cnp_handled");
		return;
	}
	if (c->cnp_rcvd > cnps)
		cnps = (uint32_t)c->cnp_rcvd;
	if (!cnps) {
		f->verdict = "unchecked";
		snprintf(f->observed, sizeof(f->observed), "no CNP reached QP 0x%x: nothing to react to",
			 c->qpn);
		return;
	}
	snprintf(f->observed, sizeof(f->observed),
		 "QP 0x%x: %llu CNPs accepted, %llu rate cuts, %llu -> lowest %llu -> %llu kb/s",
		 c->qpn, (unsigned long long)c->cnp_rcvd, (unsigned long long)c->rate_cuts,
		 (unsigned long long)c->rate_first_kbps, (unsigned long long)c->rate_min_kbps,
		 (unsigned long long)c->rate_last_kbps);
	if (on ? !c->rate_cuts : !!c->rate_cuts)
		f->verdict = "fail";
}

int rtune_probe_check_cnp(const struct rtune_probe_result *r, const struct rtune_probe_cnp *c,
			  const char *rx_label, const struct rtune_fp *rx, const char *tx_label,
			  const struct rtune_fp *tx, struct rtune_probe_finding *out, int n,
			  bool *failed)
{
	int i, first = n;

	cnp_dscp_check(r, c, rx_label, rx, tx_label, tx, add(out, &n, "cnp_dscp", rx_label));
	rate_check(c, tx_label, tx, add(out, &n, "rate_reaction", tx_label));
	for (i = first; i < n; i++)
		if (!strcmp(out[i].verdict, "fail"))
			*failed = true;
	return n;
}
