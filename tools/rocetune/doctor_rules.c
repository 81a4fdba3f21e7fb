// SPDX-License-Identifier: GPL-2.0
/*
 * The doctor's rules: pure functions from a snapshot of the host (and the
 * profile, if any) to findings. No I/O here: selftests/unit/
 * test_rocetune_doctor.c builds snapshots by hand and runs them.
 *
 * A rule that lacks a value it needs (a driver that does not report it, no
 * rocetune.ko) finds nothing: the doctor reports what it can show, never a
 * guess. Each rule adds at most one finding per port (per priority for the
 * pause storm), with the numbers that made it fire.
 */
#include <stdarg.h>
#include <linux/if.h>
#include <stdio.h>
#include <string.h>
#include "doctor.h"
#include "expect.h"
#include "plan.h"
#include "surface.h"

const char *const rtune_doc_codes[] = {
	"pause-storm", "storm-prevention-off", "link-down", "slow-link", "link-errors",
	"mtu-mismatch",
	"ecn-off", "cnp-dscp-unmapped", "cm-tos-lossy", "pacing-inactive", "pacing-shared-flows",
	"lldpad-running", "dcbx-not-host",
};
const int rtune_doc_ncodes = (int)(sizeof(rtune_doc_codes) / sizeof(rtune_doc_codes[0]));

static struct rtune_doc_finding *add(struct rtune_doc_result *r, const char *code,
				     enum rtune_doc_sev sev, int port, int prio)
{
	static struct rtune_doc_finding sink;
	struct rtune_doc_finding *f;

	if (r->n >= RTUNE_DOC_MAX_FINDINGS) {
		r->dropped++;
		memset(&sink, 0, sizeof(sink));
		return &sink;	/* written to, never reported */
	}
	f = &r->f[r->n++];
	memset(f, 0, sizeof(*f));
	f->code = code;
	f->sev = sev;
	f->port = port;
	f->prio = prio;
	if (sev == DOC_ERROR)
		r->nerr++;
	else
		r->nwarn++;
	return f;
}

static void summary(struct rtune_doc_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void summary(struct rtune_doc_finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->summary, sizeof(f->summary), fmt, ap);
	va_end(ap);
}

static void fix(struct rtune_doc_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fix(struct rtune_doc_finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->fix, sizeof(f->fix), fmt, ap);
	va_end(ap);
}

static void ev_num(struct rtune_doc_finding *f, const char *key, double v)
{
	struct rtune_doc_ev *e;

	if (f->nev >= RTUNE_DOC_MAX_EV)
		return;
	e = &f->ev[f->nev++];
	snprintf(e->key, sizeof(e->key), "%s", key);
	e->is_num = true;
	e->num = v;
}

static void ev_str(struct rtune_doc_finding *f, const char *key, const char *v)
{
	struct rtune_doc_ev *e;

	if (f->nev >= RTUNE_DOC_MAX_EV)
		return;
	e = &f->ev[f->nev++];
	snprintf(e->key, sizeof(e->key), "%s", key);
	snprintf(e->str, sizeof(e->str), "%s", v);
}

static bool cc_has(const struct rtune_link *l, enum rtune_param_id id)
{
	return (l->cc_ok || l->hw.sf) && (l->cc_valid & (1u << id));
}

/* --- helpers --- */

bool rtune_doc_trusts_dscp(const struct rtune_dcb *d)
{
	int i;

	if (!d->ok)
		return false;
	if (d->has_trust && d->ntrust > 0) {
		for (i = 0; i < d->ntrust && i < 8; i++)
			if (d->trust[i] == IEEE_8021QAZ_APP_SEL_DSCP)
				return true;
		return false;
	}
	for (i = 0; i < RTUNE_NUM_DSCP; i++)
		if (d->dscp_prios[i])
			return true;
	return false;
}

int rtune_doc_dscp_prio(const struct rtune_dcb *d, unsigned int dscp)
{
	int k;

	if (dscp >= RTUNE_NUM_DSCP)
		return 0;
	for (k = 0; k < 8; k++)
		if (d->dscp_prios[dscp] & (1u << k))
			return k;
	return 0;
}

static int single_prio(uint8_t mask)
{
	int k, found = -1;

	for (k = 0; k < 8; k++)
		if (mask & (1u << k)) {
			if (found >= 0)
				return -1;
			found = k;
		}
	return found;
}

int rtune_doc_roce_prio(const struct rtune_doc_port *d, const struct rtune_profile *p)
{
	int pr;

	if (p && p->has_tos && p->trust == RTUNE_TRUST_DSCP &&
	    (pr = profile_dscp_prio(p, p->tos >> 2)) >= 0)
		return pr;
	if (p && p->has_pfc && (pr = single_prio(p->pfc_en)) >= 0)
		return pr;
	if (d->l.dcb.ok && d->l.dcb.has_pfc && (pr = single_prio(d->l.dcb.pfc.pfc_en)) >= 0)
		return pr;
	if (d->l.cm_ok && rtune_doc_trusts_dscp(&d->l.dcb))
		return rtune_doc_dscp_prio(&d->l.dcb, (unsigned int)d->l.tos >> 2);
	return -1;
}

uint32_t rtune_doc_roce_mtu(uint32_t netdev_mtu)
{
	uint32_t m;

	if (netdev_mtu < 256 + RTUNE_ROCE_HDR_OVERHEAD)
		return 0;
	for (m = 4096; m > netdev_mtu - RTUNE_ROCE_HDR_OVERHEAD; m >>= 1)
		;
	return m;
}

static const char *dev_name(const struct rtune_doc_port *d)
{
	return d->l.netdev;
}

/* --- the rules, one per code --- */

static const char storm_sent[] =
	"this host sends the pauses: its receive path on that priority is stuck or too slow (a hung consumer, a full buffer)";
static const char storm_ctr_sent[] =
	"this host sent the pauses (the NIC counts its own): its receive path is stuck or too slow (a hung consumer, a full buffer)";
static const char storm_rcvd[] =
	"the peer or switch sends the pauses: look at the switch port's PFC counters and the hosts behind it";

/* The driver's storm counters (ethtool -S, stats.c's ST_STORM_*): the
 * neutral id, its key stem in the evidence, and its words. */
static const struct {
	int st;
	enum rtune_eth_drv drv;
	const char *key, *what;
} storm_ctrs[] = {
	{ ST_STORM_ERR, RTUNE_ETH_STORM_ERR, "storm_error",
	  "storm prevention stopped the NIC's pauses" },
	{ ST_STORM_WARN, RTUNE_ETH_STORM_WARN, "storm_warning",
	  "the NIC paused past its storm warning watermark" },
};
#define NSTORM ((int)(sizeof(storm_ctrs) / sizeof(storm_ctrs[0])))

/* How much storm counter @c rose during the sample; -1 when the driver
 * does not report it (or it went back: a reset). */
static double storm_rise(const struct rtune_doc_snap *s, const struct rtune_stport *p, int c)
{
	int id = storm_ctrs[c].st;

	if (!(p->rvalid & (1u << id)))
		return -1;
	return (double)(uint64_t)(p->rate[id] * s->interval_s + 0.5);	/* a count */
}

static const char *storm_name(const struct rtune_doc_port *d, int c)
{
	const char *n = d->s.eth.drv_name[storm_ctrs[c].drv];

	return *n ? n : storm_ctrs[c].key;
}

/* Evidence of each storm counter the driver has: its driver name, how much
 * it rose in the sample and its total. */
static void storm_evidence(const struct rtune_doc_snap *s, const struct rtune_doc_port *d,
			   struct rtune_doc_finding *f)
{
	char key[32];
	int c;

	for (c = 0; c < NSTORM; c++) {
		double rise = storm_rise(s, &d->s, c);

		if (!(d->s.valid & (1u << storm_ctrs[c].st)))
			continue;
		snprintf(key, sizeof(key), "%s_counter", storm_ctrs[c].key);
		ev_str(f, key, storm_name(d, c));
		if (rise >= 0) {
			snprintf(key, sizeof(key), "%s_increase", storm_ctrs[c].key);
			ev_num(f, key, rise);
		}
		snprintf(key, sizeof(key), "%s_total", storm_ctrs[c].key);
		ev_num(f, key, (double)d->s.v[storm_ctrs[c].st]);
	}
}

static void tout_evidence(const struct rtune_doc_port *d, struct rtune_doc_finding *f)
{
	if (d->has_pfc_tout)
		ev_num(f, "pfc_prevention_tout_ms", d->pfc_tout_ms);
	else
		ev_str(f, "pfc_prevention_tout_ms", "not reported");
}

/*
 * PFC frames on one priority past the threshold: sent (this host's receive
 * side cannot drain) or received (the peer or switch pauses us). Or, below
 * the threshold, the NIC's own storm counters (mlx5's, ethtool -S) rising:
 * the NIC saw itself pause for too long. Those are per port, not per
 * priority, so that finding has no priority; when a priority's rate fired
 * too, its finding carries the counters as evidence instead.
 */
static void r_pause_storm(const struct rtune_doc_snap *s, int i, const struct rtune_doc_cfg *c,
			  struct rtune_doc_result *r)
{
	const struct rtune_doc_port *d = &s->p[i];
	struct rtune_doc_finding *f;
	int k, nfound = 0, err = -1, warn = -1;
	double rise;

	for (k = 0; d->s.has_pfc_rate && k < 8; k++) {
		double tx = d->s.pfc_tx_rate[k], rx = d->s.pfc_rx_rate[k];
		bool sent = tx >= c->pause_rate && tx >= rx;

		if (tx < c->pause_rate && rx < c->pause_rate)
			continue;
		nfound++;
		f = add(r, "pause-storm", DOC_ERROR, i, k);
		summary(f, "%s: PFC pause storm on priority %d: %.0f pause frames/s %s (threshold %.0f/s)",
			dev_name(d), k, sent ? tx : rx, sent ? "sent" : "received", c->pause_rate);
		ev_num(f, "sent_per_s", tx);
		ev_num(f, "received_per_s", rx);
		ev_num(f, "sent_total", (double)d->s.pfc_tx[k]);
		ev_num(f, "received_total", (double)d->s.pfc_rx[k]);
		ev_num(f, "threshold_per_s", c->pause_rate);
		ev_num(f, "interval_s", s->interval_s);
		tout_evidence(d, f);
		storm_evidence(s, d, f);
		if (!sent)
			fix(f, "%s; storm prevention belongs on the sender of the pauses", storm_rcvd);
		else if (d->has_pfc_tout && d->pfc_tout_ms)
			fix(f, "%s; storm prevention is on (%u ms): the NIC stops sending pauses once its receive side is stuck that long",
			    storm_sent, d->pfc_tout_ms);
		else
			fix(f, "%s; limit the damage: [pfc] storm_prevention = auto in the profile (rocetune apply), or ethtool --set-tunable %s pfc-prevention-tout auto",
			    storm_sent, dev_name(d));
	}
	if (nfound)
		return;

	/* the counters alone: error events first, they say more */
	for (k = 0; k < NSTORM; k++) {
		rise = storm_rise(s, &d->s, k);
		if (rise > 0 && storm_ctrs[k].st == ST_STORM_ERR)
			err = k;
		else if (rise > 0)
			warn = k;
	}
	k = err >= 0 ? err : warn;
	if (k < 0)
		return;
	f = add(r, "pause-storm", err >= 0 ? DOC_ERROR : DOC_WARNING, i, -1);
	summary(f, "%s: PFC pause storm detected by the NIC: %s rose by %.0f in %.1f s (%s)%s",
		dev_name(d), storm_name(d, k), storm_rise(s, &d->s, k), s->interval_s,
		storm_ctrs[k].what, d->s.has_pfc_rate ? ", pause frames below the threshold" : "");
	storm_evidence(s, d, f);
	ev_num(f, "threshold_per_s", c->pause_rate);
	ev_num(f, "interval_s", s->interval_s);
	tout_evidence(d, f);
	if (err >= 0)
		fix(f, "%s; storm prevention stopped the pauses, so PFC was off meanwhile (drops): find what stalls the receive path (CPU, PCIe, the application), watch ethtool -S %s",
		    storm_ctr_sent, dev_name(d));
	else if (d->has_pfc_tout && d->pfc_tout_ms)
		fix(f, "%s; storm prevention is on (%u ms) and will stop the pauses if it lasts: find what stalls the receive path and watch ethtool -S %s",
		    storm_ctr_sent, d->pfc_tout_ms, dev_name(d));
	else
		fix(f, "%s; limit the damage: [pfc] storm_prevention = auto in the profile (rocetune apply), or ethtool --set-tunable %s pfc-prevention-tout auto",
		    storm_ctr_sent, dev_name(d));
}

/* PFC enabled, and the NIC would honour a storm for ever. */
static void r_storm_prevention(const struct rtune_doc_snap *s, int i, struct rtune_doc_result *r)
{
	const struct rtune_doc_port *d = &s->p[i];
	struct rtune_doc_finding *f;

	if (!d->has_pfc_tout || d->pfc_tout_ms || !d->l.dcb.ok || !d->l.dcb.has_pfc ||
	    !d->l.dcb.pfc.pfc_en)
		return;
	f = add(r, "storm-prevention-off", DOC_WARNING, i, -1);
	summary(f, "%s: PFC is on but PFC storm prevention is off: a stuck receiver can pause the fabric for ever",
		dev_name(d));
	ev_num(f, "pfc_prevention_tout_ms", 0);
	ev_num(f, "pfc_enabled_mask", d->l.dcb.pfc.pfc_en);
	fix(f, "[pfc] storm_prevention = auto (or a timeout in ms) in the profile, then rocetune apply; or ethtool --set-tunable %s pfc-prevention-tout auto",
	    dev_name(d));
}

/*
 * The link below what is expected of it: the profile's [link] expect_speed
 * and expect_lanes (expect.c), and the port's own fastest advertised mode.
 * Each needs the value it compares: no speed (the link is down, or the
 * driver does not say), no finding.
 */
static void r_slow_link(const struct rtune_doc_snap *s, int i, const struct rtune_profile *p,
			struct rtune_doc_result *r)
{
	const struct rtune_doc_port *d = &s->p[i];
	const struct rtune_eth *e = &d->s.eth;
	struct rtune_doc_finding *f;
	bool slow_adv, slow_prof, lanes_adv, lanes_prof;
	char want[16];

	slow_adv = e->has_speed && e->has_adv && e->speed_mbps < e->adv_speed_mbps;
	slow_prof = e->has_speed && p && p->has_expect_speed && e->speed_mbps < p->expect_speed;
	lanes_adv = !slow_adv && e->has_speed && e->has_adv && e->has_lanes && e->adv_lanes &&
		    e->lanes < e->adv_lanes;
	lanes_prof = e->has_lanes && p && p->has_expect_lanes && e->lanes < p->expect_lanes;
	if (!slow_adv && !slow_prof && !lanes_adv && !lanes_prof)
		return;
	f = add(r, "slow-link", DOC_WARNING, i, -1);
	if (slow_prof) {
		rtune_fmt_speed(want, sizeof(want), p->expect_speed);
		if (slow_adv)
			summary(f, "%s: link at %u Mb/s, below the %u Mb/s the profile expects ([link] expect_speed = %s); it advertises %u Mb/s",
				dev_name(d), e->speed_mbps, p->expect_speed, want, e->adv_speed_mbps);
		else if (e->has_adv)
			summary(f, "%s: link at %u Mb/s, below the %u Mb/s the profile expects ([link] expect_speed = %s); its fastest advertised mode is %u Mb/s",
				dev_name(d), e->speed_mbps, p->expect_speed, want, e->adv_speed_mbps);
		else
			summary(f, "%s: link at %u Mb/s, below the %u Mb/s the profile expects ([link] expect_speed = %s)",
				dev_name(d), e->speed_mbps, p->expect_speed, want);
	} else if (slow_adv) {
		summary(f, "%s: link at %u Mb/s, below the %u Mb/s it advertises", dev_name(d),
			e->speed_mbps, e->adv_speed_mbps);
	} else if (lanes_prof) {
		summary(f, "%s: link on %u lanes, the profile expects %u ([link] expect_lanes)",
			dev_name(d), e->lanes, p->expect_lanes);
	} else {
		summary(f, "%s: link on %u lanes, the %u Mb/s mode has %u", dev_name(d), e->lanes,
			e->speed_mbps, e->adv_lanes);
	}
	if (e->has_speed)
		ev_num(f, "speed_mbps", e->speed_mbps);
	if (e->has_adv)
		ev_num(f, "advertised_speed_mbps", e->adv_speed_mbps);
	if (p && p->has_expect_speed)
		ev_num(f, "profile_expect_speed_mbps", p->expect_speed);
	if (e->has_lanes)
		ev_num(f, "lanes", e->lanes);
	if (e->has_adv && e->adv_lanes)
		ev_num(f, "advertised_lanes", e->adv_lanes);
	if (p && p->has_expect_lanes)
		ev_num(f, "profile_expect_lanes", p->expect_lanes);
	/* the port cannot reach the profile's speed: no retraining helps */
	if (slow_prof && e->has_adv && e->adv_speed_mbps < p->expect_speed)
		fix(f, "the port does not advertise %s: check that the NIC, the transceiver and the cable are rated for it (ethtool %s, ethtool -m %s), or correct [link] expect_speed in %s",
		    want, dev_name(d), dev_name(d), p->path);
	else
		fix(f, "the port trained down: check the cable or transceiver and the switch port (ethtool %s, ethtool -m %s); reseat, or retrain with ethtool -s %s autoneg on",
		    dev_name(d), dev_name(d), dev_name(d));
}

static const char *operstate_name(uint8_t o)
{
	static const char *const names[] = {
		[IF_OPER_UNKNOWN] = "unknown", [IF_OPER_NOTPRESENT] = "notpresent",
		[IF_OPER_DOWN] = "down", [IF_OPER_LOWERLAYERDOWN] = "lowerlayerdown",
		[IF_OPER_TESTING] = "testing", [IF_OPER_DORMANT] = "dormant", [IF_OPER_UP] = "up",
	};

	return o < sizeof(names) / sizeof(names[0]) && names[o] ? names[o] : "?";
}

bool rtune_doc_link_down(const struct rtune_stport *p)
{
	return p->has_oper && (!p->admin_up || !p->carrier ||
			       (p->operstate != IF_OPER_UP && p->operstate != IF_OPER_UNKNOWN));
}

/*
 * A RoCE port (one with an RDMA port, or one the profile matched) whose
 * link is down: set down, no carrier (a cable, a transceiver, the switch
 * port), or an RFC 2863 operational state other than up ("unknown", which
 * drivers without link detection report, counts as up while there is
 * carrier). It carries no RoCE at all, and the other link rules cannot see
 * it: a link that is down has no speed to compare and no errors rising.
 * The evidence: the states, and the link-down counts the kernel keeps
 * (rtnetlink's carrier changes; ethtool's link-down events, Linux 6.2+).
 */
static void r_link_down(const struct rtune_doc_snap *s, int i, const struct rtune_profile *p,
			struct rtune_doc_result *r)
{
	const struct rtune_doc_port *d = &s->p[i];
	const struct rtune_stport *st = &d->s;
	const char *os = operstate_name(st->operstate);
	struct rtune_doc_finding *f;

	if (!rtune_doc_link_down(st) || (!d->l.has_ib && !p))
		return;
	f = add(r, "link-down", DOC_ERROR, i, -1);
	if (!st->admin_up)
		summary(f, "%s: the link is set down (operstate %s): no RoCE traffic on it",
			dev_name(d), os);
	else if (!st->carrier)
		summary(f, "%s: the link is down, no carrier (operstate %s): no RoCE traffic on it",
			dev_name(d), os);
	else
		summary(f, "%s: the link is not up (operstate %s): no RoCE traffic on it",
			dev_name(d), os);
	ev_str(f, "operstate", os);
	ev_str(f, "admin_state", st->admin_up ? "up" : "down");
	ev_num(f, "carrier", st->carrier);
	if (st->has_carrier_changes)
		ev_num(f, "carrier_changes", st->carrier_changes);
	if (st->valid & (1u << ST_LINK_DOWN))
		ev_num(f, "link_down_events_total", (double)st->v[ST_LINK_DOWN]);
	else
		ev_str(f, "link_down_events_total", "not reported (ethtool link state, Linux 6.2+)");
	if (d->l.has_ib && st->rdma_state[0])
		ev_str(f, "port_state", st->rdma_state);
	if (!st->admin_up)
		fix(f, "bring it up: ip link set dev %s up (and find what set it down: networkd, NetworkManager or ifupdown configuration)",
		    dev_name(d));
	else if (!st->carrier && st->operstate == IF_OPER_LOWERLAYERDOWN)
		fix(f, "the device under %s has no link: check its cable or transceiver and the switch port (ip -d link show %s, ethtool on the lower device)",
		    dev_name(d), dev_name(d));
	else
		fix(f, "no link: check the cable or transceiver and the switch port's state (ethtool %s, ethtool -m %s); reseat, or retrain with ethtool -s %s autoneg on",
		    dev_name(d), dev_name(d), dev_name(d));
}

/* FCS or symbol errors, or link flaps, rising during the sample. */
static void r_link_errors(const struct rtune_doc_snap *s, int i, const struct rtune_doc_cfg *c,
			  struct rtune_doc_result *r)
{
	const struct rtune_doc_port *d = &s->p[i];
	const struct rtune_stport *p = &d->s;
	double fcs = p->rvalid & (1u << ST_FCS_ERR) ? p->rate[ST_FCS_ERR] : 0;
	double sym = p->rvalid & (1u << ST_SYM_ERR) ? p->rate[ST_SYM_ERR] : 0;
	double down = p->rvalid & (1u << ST_LINK_DOWN) ? p->rate[ST_LINK_DOWN] : 0;
	struct rtune_doc_finding *f;

	if (fcs + sym <= c->err_rate && down <= 0)
		return;
	f = add(r, "link-errors", DOC_ERROR, i, -1);
	summary(f, "%s: link errors rising: %.1f FCS errors/s, %.1f symbol errors/s, %.1f link-down events/s",
		dev_name(d), fcs, sym, down);
	if (p->rvalid & (1u << ST_FCS_ERR)) {
		ev_num(f, "fcs_errors_per_s", fcs);
		ev_num(f, "fcs_errors_total", (double)p->v[ST_FCS_ERR]);
	}
	if (p->rvalid & (1u << ST_SYM_ERR)) {
		ev_num(f, "symbol_errors_per_s", sym);
		ev_num(f, "symbol_errors_total", (double)p->v[ST_SYM_ERR]);
	}
	if (p->rvalid & (1u << ST_LINK_DOWN))
		ev_num(f, "link_down_per_s", down);
	ev_num(f, "threshold_per_s", c->err_rate);
	ev_num(f, "interval_s", s->interval_s);
	fix(f, "a bad cable, transceiver or switch port: watch ethtool -S %s, clean or replace the optics and cable",
	    dev_name(d));
}

/*
 * The headers of the largest RoCE packet that carries a full MTU of
 * payload: an RDMA WRITE's first packet over IPv6 (GRH 40, UDP 8, BTH 12,
 * RETH 16, ICRC 4), rxe's RXE_MAX_HDR_LENGTH. A port whose active MTU plus
 * these exceeds the netdev MTU sends frames the netdev cannot carry. (The
 * kernel's iboe_get_mtu() reserves more, RTUNE_ROCE_HDR_OVERHEAD, so a port
 * derived that way is never caught here.)
 */
#define DOC_ROCE_FULL_HDR 80

/*
 * The three MTUs: the netdev's, the RDMA port's active MTU (read through
 * libibverbs, ibport.c) and the profile's [link] mtu and roce_mtu. One
 * finding per port, the worst first: the active MTU does not fit the
 * netdev MTU (with or without a profile); the netdev MTU is not the
 * profile's; the active MTU is below the profile's roce_mtu. When the
 * active MTU cannot be read, the one the netdev MTU allows stands in for
 * it, and the evidence says it was not read.
 */
static void r_mtu(const struct rtune_doc_snap *s, int i, const struct rtune_profile *p,
		  struct rtune_doc_result *r)
{
	const struct rtune_doc_port *d = &s->p[i];
	uint32_t allowed = rtune_doc_roce_mtu(d->l.mtu), active;
	bool read = d->l.has_ib && d->l.roce_mtu_ok, too_big, mtu_bad, roce_bad;
	struct rtune_doc_finding *f;
	char why[64];

	if (!d->l.link_ok)
		return;
	active = read ? d->l.roce_active_mtu : allowed;
	too_big = read && active + DOC_ROCE_FULL_HDR > d->l.mtu;
	mtu_bad = p && p->has_mtu && d->l.mtu != p->mtu;
	roce_bad = p && p->has_roce_mtu && active < p->roce_mtu;
	if (!too_big && !mtu_bad && !roce_bad)
		return;
	f = add(r, "mtu-mismatch", DOC_ERROR, i, -1);
	if (too_big)
		summary(f, "%s (%s/%u): the RDMA port's active MTU %u does not fit the netdev MTU %u with RoCE's headers (%u bytes): full-size RoCE frames cannot be sent",
			dev_name(d), d->l.ibdev, d->l.port, active, d->l.mtu, DOC_ROCE_FULL_HDR);
	else if (mtu_bad && read)
		summary(f, "%s: MTU %u, the profile says %u (the RDMA port's active MTU is %u)",
			dev_name(d), d->l.mtu, p->mtu, active);
	else if (mtu_bad)
		summary(f, "%s: MTU %u, the profile says %u", dev_name(d), d->l.mtu, p->mtu);
	else if (read)
		summary(f, "%s (%s/%u): the RDMA port's active MTU is %u, the profile wants RoCE MTU %u (the netdev MTU %u allows %u)",
			dev_name(d), d->l.ibdev, d->l.port, active, p->roce_mtu, d->l.mtu, allowed);
	else
		summary(f, "%s: MTU %u allows RoCE MTU %u, the profile wants RoCE MTU %u (the RDMA port's active MTU was not read)",
			dev_name(d), d->l.mtu, allowed, p->roce_mtu);
	ev_num(f, "netdev_mtu", d->l.mtu);
	if (read) {
		ev_num(f, "roce_active_mtu", active);
	} else if (d->l.has_ib) {
		snprintf(why, sizeof(why), "unreadable: %s",
			 d->l.roce_mtu_err ? strerror(-d->l.roce_mtu_err) : "not read");
		ev_str(f, "roce_active_mtu", why);
	} else {
		ev_str(f, "roce_active_mtu", "no RDMA port");
	}
	ev_num(f, "roce_mtu", allowed);	/* what the netdev MTU allows (iboe_get_mtu) */
	if (p && p->has_mtu)
		ev_num(f, "profile_mtu", p->mtu);
	if (p && p->has_roce_mtu)
		ev_num(f, "profile_roce_mtu", p->roce_mtu);
	if (mtu_bad || (roce_bad && allowed < p->roce_mtu))
		fix(f, "ip link set dev %s mtu %u (profile key [link] mtu; rocetune apply %s)",
		    dev_name(d), p->has_mtu ? p->mtu : rtune_roce_min_mtu(p->roce_mtu),
		    p->path);
	else if (too_big)
		fix(f, "raise the MTU to at least %u (ip link set dev %s mtu %u, and [link] mtu in the profile), or make the RDMA port follow the netdev MTU (set the MTU again, or reload the RDMA driver)",
		    rtune_roce_min_mtu(active), dev_name(d), rtune_roce_min_mtu(active));
	else
		fix(f, "the netdev MTU allows RoCE MTU %u but the RDMA port did not follow it: set the MTU again (ip link set dev %s mtu %u) or reload the RDMA driver; check ibv_devinfo -d %s",
		    allowed, dev_name(d), d->l.mtu, d->l.ibdev);
}

/* ECN marking, the notification point or the reaction point off on the RoCE priority. */
static void r_ecn(const struct rtune_doc_snap *s, int i, const struct rtune_profile *p,
		  struct rtune_doc_result *r)
{
	static const struct { enum rtune_param_id id; const char *what; } need[] = {
		{ RTUNE_P_ECN_ENABLED_PRIOS, "ECN marking (ecn_enabled_prios)" },
		{ RTUNE_P_NP_ENABLED_PRIOS, "CNP generation (np_enabled_prios)" },
		{ RTUNE_P_RP_ENABLED_PRIOS, "rate reaction (rp_enabled_prios)" },
	};
	const struct rtune_doc_port *d = &s->p[i];
	int pr = rtune_doc_roce_prio(d, p), k, nbad = 0;
	char off[160] = "";
	struct rtune_doc_finding *f;

	if (pr < 0 || !d->l.has_ib)
		return;
	for (k = 0; k < 3; k++)
		if (cc_has(&d->l, need[k].id) && !(d->l.cc.v[need[k].id] & (1u << pr))) {
			size_t len = strlen(off);

			snprintf(off + len, sizeof(off) - len, "%s%s", nbad++ ? ", " : "", need[k].what);
		}
	if (!nbad)
		return;
	f = add(r, "ecn-off", DOC_ERROR, i, pr);
	summary(f, "%s (%s/%u): congestion control off on the RoCE priority %d: %s", dev_name(d),
		d->l.ibdev, d->l.port, pr, off);
	for (k = 0; k < 3; k++)
		if (cc_has(&d->l, need[k].id)) {
			char buf[RTUNE_PARAM_TEXT_MAX];

			rtune_param_format(need[k].id, d->l.cc.v[need[k].id], buf, sizeof(buf));
			ev_str(f, rtune_param_descs[need[k].id].name, buf);
		}
	ev_num(f, "roce_priority", pr);
	ev_str(f, "cc_backend", d->l.hw.sf ? d->l.hw.sf->backend : d->l.cc_backend);
	fix(f, "add priority %d to ecn_enabled_prios, np_enabled_prios and rp_enabled_prios ([cc] keys; rocetune apply PROFILE)",
	    pr);
}

/* The CNP's DSCP, under DSCP trust, lands on another priority than the CNP's. */
static void r_cnp(const struct rtune_doc_snap *s, int i, const struct rtune_profile *p,
		  struct rtune_doc_result *r)
{
	const struct rtune_doc_port *d = &s->p[i];
	struct rtune_doc_finding *f;
	unsigned int dscp;
	int want, got;

	if (!d->l.has_ib || !rtune_doc_trusts_dscp(&d->l.dcb) ||
	    !cc_has(&d->l, RTUNE_P_NP_CNP_DSCP) || !cc_has(&d->l, RTUNE_P_NP_CNP_PRIO))
		return;
	dscp = d->l.cc.v[RTUNE_P_NP_CNP_DSCP];
	want = (int)d->l.cc.v[RTUNE_P_NP_CNP_PRIO];
	if (p && p->has_cc && (p->cc_set_mask & (1u << RTUNE_P_NP_CNP_PRIO)))
		want = (int)p->cc.v[RTUNE_P_NP_CNP_PRIO];
	got = rtune_doc_dscp_prio(&d->l.dcb, dscp);
	if (got == want)
		return;
	f = add(r, "cnp-dscp-unmapped", DOC_ERROR, i, want);
	summary(f, "%s (%s/%u): CNPs carry DSCP %u, which the trust map sends to priority %d%s, not the CNP priority %d",
		dev_name(d), d->l.ibdev, d->l.port, dscp, got,
		d->l.dcb.dscp_prios[dscp] ? "" : " (unmapped)", want);
	ev_num(f, "np_cnp_dscp", dscp);
	ev_num(f, "np_cnp_prio", want);
	ev_num(f, "mapped_priority", got);
	ev_str(f, "trust", "dscp");
	fix(f, "map DSCP %u to priority %d: dcb app replace dev %s dscp-prio %u:%d ([trust] dscp_prio %u:%d), or set np_cnp_dscp to a DSCP of priority %d",
	    dscp, want, dev_name(d), dscp, want, dscp, want, want);
}

/* RDMA-CM's ToS, through the trust map, lands on a priority without PFC. */
static void r_cm_tos(const struct rtune_doc_snap *s, int i, struct rtune_doc_result *r)
{
	const struct rtune_doc_port *d = &s->p[i];
	const struct rtune_dcb *dcb = &d->l.dcb;
	struct rtune_doc_finding *f;
	unsigned int dscp;
	int pr, lossless;

	if (!d->l.has_ib || !d->l.cm_ok || !dcb->ok || !dcb->has_pfc || !dcb->pfc.pfc_en ||
	    !rtune_doc_trusts_dscp(dcb))
		return;
	dscp = (unsigned int)d->l.tos >> 2;
	pr = rtune_doc_dscp_prio(dcb, dscp);
	if (dcb->pfc.pfc_en & (1u << pr))
		return;
	lossless = single_prio(dcb->pfc.pfc_en);
	f = add(r, "cm-tos-lossy", DOC_ERROR, i, pr);
	summary(f, "%s (%s/%u): RDMA-CM ToS %d (DSCP %u) lands on priority %d, which has no PFC (PFC on %s%d)",
		dev_name(d), d->l.ibdev, d->l.port, d->l.tos, dscp, pr,
		lossless < 0 ? "several, e.g. " : "", lossless < 0 ? __builtin_ctz(dcb->pfc.pfc_en) : lossless);
	ev_num(f, "tos", d->l.tos);
	ev_num(f, "dscp", dscp);
	ev_num(f, "priority", pr);
	ev_num(f, "pfc_enabled_mask", dcb->pfc.pfc_en);
	if (lossless >= 0) {
		int k;

		for (k = 0; k < RTUNE_NUM_DSCP; k++)
			if (rtune_doc_dscp_prio(dcb, (unsigned int)k) == lossless && dcb->dscp_prios[k])
				break;
		if (k < RTUNE_NUM_DSCP) {
			fix(f, "echo %d > /sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos (DSCP %d, priority %d; profile key [rdma_cm] tos)",
			    k << 2, d->l.ibdev, d->l.port, k, lossless);
			return;
		}
	}
	fix(f, "set [rdma_cm] tos to a ToS whose DSCP the trust map sends to a PFC priority (/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos)",
	    d->l.ibdev, d->l.port);
}

/*
 * Pacing is active, but fq's orphan mask is narrower than the flow hash:
 * rxe's QP sockets are not connected, so fq files each QP's packets under
 * hash & orphan_mask, and QPs whose hashes agree in those bits share one
 * flow, whose departures follow whichever QP's rate the last packet
 * carried (Documentation/datapath.rst, "Paced egress"). fq's default,
 * 1023, makes that likely from a few dozen QPs on.
 */
static void r_pacing_flows(const struct rtune_doc_snap *s, int i, struct rtune_doc_result *r)
{
	const struct rtune_doc_port *d = &s->p[i];
	struct rtune_doc_finding *f;
	char buf[16];

	if (!d->has_qdisc || strcmp(d->qdisc.kind, "fq") || !d->qdisc.has_orphan_mask ||
	    d->qdisc.orphan_mask == UINT32_MAX)
		return;
	f = add(r, "pacing-shared-flows", DOC_WARNING, i, -1);
	summary(f, "%s (%s/%u): fq's orphan_mask is %#x, so QPs whose flow hashes agree in those bits share one fq flow and are paced as one",
		dev_name(d), d->l.ibdev, d->l.port, d->qdisc.orphan_mask);
	snprintf(buf, sizeof(buf), "%#x", d->qdisc.orphan_mask);
	ev_str(f, "orphan_mask", buf);
	/* how many flows the QPs are spread over (the mask is not all ones) */
	ev_num(f, "flows", (double)(1ULL << __builtin_popcount(d->qdisc.orphan_mask)));
	fix(f, "tc qdisc replace dev %s root fq orphan_mask 4294967295", dev_name(d));
}

/*
 * rocetune.ko's Soft-RoCE pacing cannot pace: the root qdisc is not fq
 * ("inactive <qdisc>"), or the kernel's rxe is too old to let packets
 * wait past their QP ("unavailable old-rxe", Documentation/kernels.rst).
 */
static void r_pacing(const struct rtune_doc_snap *s, int i, struct rtune_doc_result *r)
{
	const struct rtune_doc_port *d = &s->p[i];
	struct rtune_doc_finding *f;
	const char *qd;

	if (!strncmp(d->pacing, "unavailable ", 12)) {
		f = add(r, "pacing-inactive", DOC_WARNING, i, -1);
		summary(f, "%s (%s/%u): Soft-RoCE pacing unavailable: this kernel's rxe (before 6.1) frees a destroyed QP's CQs under its queued packets, so DCQCN's rate cuts are not enforced",
			dev_name(d), d->l.ibdev, d->l.port);
		ev_str(f, "pacing", d->pacing);
		fix(f, "boot Linux 6.1 or later; if this kernel's rxe has 6.1's QP teardown backported, load rocetune with force_rxe_pacing=1");
		return;
	}
	/* a port set down has the noop qdisc until it is up again */
	if (rtune_doc_link_down(&d->s))
		return;
	if (!strncmp(d->pacing, "active", 6)) {
		r_pacing_flows(s, i, r);
		return;
	}
	if (strncmp(d->pacing, "inactive", 8))
		return;
	qd = d->pacing[8] == ' ' ? d->pacing + 9 : "?";
	f = add(r, "pacing-inactive", DOC_WARNING, i, -1);
	summary(f, "%s (%s/%u): Soft-RoCE pacing inactive: the root qdisc is %s, not fq, so DCQCN's rate cuts are not enforced",
		dev_name(d), d->l.ibdev, d->l.port, qd);
	ev_str(f, "pacing", d->pacing);
	ev_str(f, "root_qdisc", qd);
	fix(f, "tc qdisc replace dev %s root fq orphan_mask 4294967295", dev_name(d));
}

static void r_dcbx(const struct rtune_doc_snap *s, int i, struct rtune_doc_result *r)
{
	const struct rtune_doc_port *d = &s->p[i];
	struct rtune_doc_finding *f;
	char buf[8];

	if (!plan_dcbx_foreign(&d->l.dcb))
		return;
	f = add(r, "dcbx-not-host", DOC_WARNING, i, -1);
	summary(f, "%s: DCBX is run by %s (dcbx 0x%02x), which can overwrite the DCB settings",
		dev_name(d), d->l.dcb.dcbx & DCB_CAP_DCBX_LLD_MANAGED ? "the NIC's firmware" :
		"something other than the host", d->l.dcb.dcbx);
	snprintf(buf, sizeof(buf), "0x%02x", d->l.dcb.dcbx);
	ev_str(f, "dcbx", buf);
	ev_str(f, "lld_managed", d->l.dcb.dcbx & DCB_CAP_DCBX_LLD_MANAGED ? "yes" : "no");
	fix(f, "hand DCB to the host: dcb dcbx set dev %s host ieee (or the vendor's tool: mlnx_qos, the firmware's LLDP setting)",
	    dev_name(d));
}

void rtune_doc_run(const struct rtune_doc_snap *s, const struct rtune_profile *p,
		   const struct rtune_doc_cfg *cfg, struct rtune_doc_result *r)
{
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < s->n; i++) {
		if (s->p[i].s.gone)
			continue;
		r_pause_storm(s, i, cfg, r);
		r_storm_prevention(s, i, r);
		r_link_down(s, i, p, r);
		r_slow_link(s, i, p, r);
		r_link_errors(s, i, cfg, r);
		r_mtu(s, i, p, r);
		r_ecn(s, i, p, r);
		r_cnp(s, i, p, r);
		r_cm_tos(s, i, r);
		r_pacing(s, i, r);
	}
	if (s->lldpad) {
		struct rtune_doc_finding *f = add(r, "lldpad-running", DOC_WARNING, -1, -1);

		summary(f, "lldpad is running: it runs DCBX and can overwrite the DCB settings");
		ev_str(f, "process", "lldpad");
		fix(f, "systemctl disable --now lldpad, or keep it and configure DCB through lldptool only");
	}
	for (i = 0; i < s->n; i++)
		if (!s->p[i].s.gone)
			r_dcbx(s, i, r);
}
