// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of `rocetune doctor`'s rules (tools/rocetune/doctor_rules.c)
 * over hand-made snapshots, without a kernel: a clean Soft-RoCE host (the
 * lab's profile applied) has no finding; each fault alone gives exactly its
 * finding with its evidence; thresholds are honoured at their edges; what a
 * device does not report gives no finding; and the helpers (link mode
 * names, the RoCE MTU, the trust map) do what the rules rely on.
 */
#include <errno.h>
#include <linux/if.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/doctor.h"
#include "../../tools/rocetune/ethtool.h"

static const char lab_profile[] =
	"[match]\nrdma_device = rxe*\n"
	"[link]\nmtu = 1500\nroce_mtu = 1024\n"
	"[trust]\nmode = dscp\ndscp_prio = default\n"
	"[pfc]\npriorities = 3\n"
	"[rdma_cm]\nroce_mode = v2\ntos = 106\n"
	"[cc]\npreset = paper\necn_enabled_prios = 3\nrp_enabled_prios = 3\nnp_enabled_prios = 3\n";

static struct rtune_profile prof;
static const struct rtune_doc_cfg cfg = { RTUNE_DOC_PAUSE_RATE, RTUNE_DOC_ERR_RATE };

/* dcb0 carrying rxe0/1 as the lab leaves it once the profile is applied. */
static void clean(struct rtune_doc_snap *s, struct rtune_doc_port *d)
{
	struct rtune_link *l = &d->l;
	int k;

	memset(s, 0, sizeof(*s));
	memset(d, 0, sizeof(*d));
	s->p = d;
	s->n = 1;
	s->interval_s = 0.5;
	snprintf(l->netdev, sizeof(l->netdev), "dcb0");
	l->link_ok = true;
	l->mtu = 1500;
	l->has_ib = true;
	l->roce_mtu_ok = true;
	l->roce_active_mtu = 1024;	/* rxe: the netdev MTU less its 80 bytes of headers */
	snprintf(l->ibdev, sizeof(l->ibdev), "rxe0");
	l->port = 1;
	l->dcb.ok = true;
	l->dcb.has_pfc = true;
	l->dcb.pfc.pfc_en = 1u << 3;
	l->dcb.has_app = true;
	for (k = 0; k < 64; k++)
		l->dcb.dscp_prios[k] = (uint8_t)(1u << (k >> 3));
	l->dcb.has_dcbx = true;
	l->dcb.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	l->cm_ok = true;
	l->roce_mode = 2;
	l->tos = 106;
	l->cc_ok = true;
	snprintf(l->cc_backend, sizeof(l->cc_backend), "rxe-software");
	l->cc = *rtune_params_default();
	l->cc.v[RTUNE_P_ECN_ENABLED_PRIOS] = l->cc.v[RTUNE_P_NP_ENABLED_PRIOS] =
		l->cc.v[RTUNE_P_RP_ENABLED_PRIOS] = 1u << 3;
	l->cc_valid = (1u << RTUNE_P_COUNT) - 1;

	snprintf(d->s.netdev, sizeof(d->s.netdev), "dcb0");
	d->s.has_pfc = d->s.has_pfc_rate = true;
	d->s.pfc_en = 1u << 3;
	d->s.eth.has_speed = d->s.eth.has_lanes = d->s.eth.has_adv = true;
	d->s.eth.speed_mbps = d->s.eth.adv_speed_mbps = 100000;
	d->s.eth.lanes = d->s.eth.adv_lanes = 4;
	d->s.rvalid = (1u << ST_FCS_ERR) | (1u << ST_SYM_ERR) | (1u << ST_LINK_DOWN);
	d->s.has_oper = d->s.admin_up = d->s.carrier = true;
	d->s.operstate = IF_OPER_UP;
	d->s.has_carrier_changes = true;
	d->s.carrier_changes = 2;	/* the first carrier on after creation */
	snprintf(d->s.rdma_state, sizeof(d->s.rdma_state), "ACTIVE");
	d->has_pfc_tout = true;
	d->pfc_tout_ms = 8000;
	snprintf(d->pacing, sizeof(d->pacing), "active fq");
}

static struct rtune_doc_result res;

/* The findings as "code[@prio] ...", or "clean". */
static const char *codes(const struct rtune_doc_snap *s, const struct rtune_profile *p)
{
	static char buf[512];
	int i;

	rtune_doc_run(s, p, &cfg, &res);
	buf[0] = '\0';
	for (i = 0; i < res.n; i++) {
		size_t n = strlen(buf);

		if (res.f[i].prio >= 0)
			snprintf(buf + n, sizeof(buf) - n, "%s%s@%d", n ? " " : "", res.f[i].code,
				 res.f[i].prio);
		else
			snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? " " : "", res.f[i].code);
	}
	return res.n ? buf : "clean";
}

static double ev(const char *code, const char *key)
{
	int i, k;

	for (i = 0; i < res.n; i++)
		for (k = 0; k < res.f[i].nev; k++)
			if (!strcmp(res.f[i].code, code) && !strcmp(res.f[i].ev[k].key, key))
				return res.f[i].ev[k].is_num ? res.f[i].ev[k].num : NAN;
	return NAN;
}

static const char *ev_s(const char *code, const char *key)
{
	int i, k;

	for (i = 0; i < res.n; i++)
		for (k = 0; k < res.f[i].nev; k++)
			if (!strcmp(res.f[i].code, code) && !strcmp(res.f[i].ev[k].key, key))
				return res.f[i].ev[k].str;
	return "";
}

#define EXPECT(s, p, want, what) do {						\
	const char *got_ = codes(s, p);					\
	if (!tap_check(!strcmp(got_, want), "%s: %s", what, want))		\
		tap_diag("got: %s", got_);					\
} while (0)

static void test_clean(void)
{
	struct rtune_doc_snap s;
	struct rtune_doc_port d;

	clean(&s, &d);
	EXPECT(&s, &prof, "clean", "clean lab host with its profile");
	tap_check(res.nerr == 0 && res.nwarn == 0, "clean: no errors, no warnings");
	EXPECT(&s, NULL, "clean", "clean lab host without a profile");
}

/* The driver's storm counters (mlx5's names) on @d, at @warn and @err
 * totals, rising by @dwarn and @derr over the snapshot's 0.5 s. */
static void storm_ctrs(struct rtune_doc_port *d, uint64_t warn, uint64_t err, double dwarn,
		       double derr)
{
	d->s.valid |= (1u << ST_STORM_WARN) | (1u << ST_STORM_ERR);
	d->s.rvalid |= (1u << ST_STORM_WARN) | (1u << ST_STORM_ERR);
	d->s.v[ST_STORM_WARN] = warn;
	d->s.v[ST_STORM_ERR] = err;
	d->s.rate[ST_STORM_WARN] = dwarn / 0.5;
	d->s.rate[ST_STORM_ERR] = derr / 0.5;
	snprintf(d->s.eth.drv_name[RTUNE_ETH_STORM_WARN], sizeof(d->s.eth.drv_name[0]),
		 "tx_pause_storm_warning_events");
	snprintf(d->s.eth.drv_name[RTUNE_ETH_STORM_ERR], sizeof(d->s.eth.drv_name[0]),
		 "tx_pause_storm_error_events");
}

static void test_storm_counters(void)
{
	struct rtune_doc_snap s;
	struct rtune_doc_port d;

	clean(&s, &d);
	storm_ctrs(&d, 7, 2, 0, 0);
	EXPECT(&s, &prof, "clean", "storm counters present and still: clean");

	clean(&s, &d);
	storm_ctrs(&d, 10, 5, 3, 3);
	EXPECT(&s, &prof, "pause-storm", "storm error counter +3, no pause rate: pause-storm, port-wide");
	tap_check(res.nerr == 1 && res.f[0].sev == DOC_ERROR &&
		  !strcmp(ev_s("pause-storm", "storm_error_counter"), "tx_pause_storm_error_events") &&
		  ev("pause-storm", "storm_error_increase") == 3 &&
		  ev("pause-storm", "storm_error_total") == 5 &&
		  ev("pause-storm", "storm_warning_increase") == 3 &&
		  ev("pause-storm", "pfc_prevention_tout_ms") == 8000,
		  "storm counters: an error naming tx_pause_storm_error_events, +3 of 5, and the warnings");
	tap_check(strstr(res.f[0].summary, "tx_pause_storm_error_events rose by 3") != NULL,
		  "storm counters: the summary says which counter and by how much");

	clean(&s, &d);
	storm_ctrs(&d, 1, 0, 1, 0);
	EXPECT(&s, &prof, "pause-storm", "storm warning counter +1 alone: pause-storm");
	tap_check(res.nerr == 0 && res.nwarn == 1 &&
		  !strcmp(ev_s("pause-storm", "storm_warning_counter"), "tx_pause_storm_warning_events") &&
		  ev("pause-storm", "storm_warning_increase") == 1 &&
		  ev("pause-storm", "storm_error_increase") == 0,
		  "storm warning only: a warning, the counter named, the error counter still");

	clean(&s, &d);
	storm_ctrs(&d, 4, 4, 2, 2);
	d.s.pfc_tx_rate[3] = 5000;
	EXPECT(&s, &prof, "pause-storm@3", "pause rate and storm counters: one finding, on the priority");
	tap_check(ev("pause-storm", "storm_error_increase") == 2 &&
		  ev("pause-storm", "sent_per_s") == 5000,
		  "pause rate and storm counters: the priority's finding carries the counters");

	clean(&s, &d);
	storm_ctrs(&d, 9, 9, 0, 0);
	d.s.rvalid &= ~((1u << ST_STORM_WARN) | (1u << ST_STORM_ERR));	/* reset between samples */
	EXPECT(&s, &prof, "clean", "storm counters without a rate (reset): no finding");
}

/* prof_x: the lab profile with @link_extra added to its [link] section. */
static struct rtune_profile prof_x;

static int parse_lab_with(const char *link_extra)
{
	struct rtune_diags dg = { 0 };
	char t[1024];

	snprintf(t, sizeof(t),
		 "[match]\nrdma_device = rxe*\n[link]\nmtu = 1500\nroce_mtu = 1024\n%s"
		 "[trust]\nmode = dscp\ndscp_prio = default\n[pfc]\npriorities = 3\n"
		 "[rdma_cm]\nroce_mode = v2\ntos = 106\n"
		 "[cc]\npreset = paper\necn_enabled_prios = 3\nrp_enabled_prios = 3\nnp_enabled_prios = 3\n",
		 link_extra);
	if (profile_parse_text("lab-x.conf", t, strlen(t), &prof_x, &dg) ||
	    profile_validate(&prof_x, &dg)) {
		diag_print(&dg, stdout);
		return -1;
	}
	return 0;
}

/* slow-link against the profile's [link] expect_speed and expect_lanes. */
static void test_slow_profile(void)
{
	struct rtune_doc_snap s;
	struct rtune_doc_port d;

	if (parse_lab_with("expect_speed = 100G\nexpect_lanes = 4\n")) {
		tap_check(0, "the lab profile with expect_speed 100G, expect_lanes 4 parses");
		return;
	}
	clean(&s, &d);
	EXPECT(&s, &prof_x, "clean", "100G on 4 lanes, the profile expects 100G on 4: clean");
	d.s.eth.speed_mbps = 200000;
	d.s.eth.adv_speed_mbps = 200000;
	EXPECT(&s, &prof_x, "clean", "faster than the profile expects: clean");

	clean(&s, &d);
	d.s.eth.speed_mbps = 50000;
	d.s.eth.lanes = 2;
	EXPECT(&s, &prof_x, "slow-link", "trained down to 50G, the profile expects 100G: one slow-link");
	tap_check(ev("slow-link", "profile_expect_speed_mbps") == 100000 &&
		  ev("slow-link", "speed_mbps") == 50000 &&
		  ev("slow-link", "advertised_speed_mbps") == 100000 &&
		  ev("slow-link", "profile_expect_lanes") == 4 && ev("slow-link", "lanes") == 2 &&
		  strstr(res.f[0].summary, "[link] expect_speed = 100G") &&
		  strstr(res.f[0].summary, "it advertises 100000") &&
		  strstr(res.f[0].fix, "trained down"),
		  "slow link below the profile: the profile's value named in evidence and summary, the retrain fix");

	/* the port itself cannot do what the profile expects */
	if (parse_lab_with("expect_speed = 200G\n")) {
		tap_check(0, "the lab profile with expect_speed 200G parses");
		return;
	}
	clean(&s, &d);
	EXPECT(&s, &prof_x, "slow-link", "100G port, the profile expects 200G: slow-link (the advertised modes alone see nothing)");
	EXPECT(&s, &prof, "clean", "the same port with the lab profile (no expectation): clean");
	codes(&s, &prof_x);
	tap_check(res.nwarn == 1 && ev("slow-link", "profile_expect_speed_mbps") == 200000 &&
		  ev("slow-link", "advertised_speed_mbps") == 100000 &&
		  isnan(ev("slow-link", "profile_expect_lanes")) &&
		  strstr(res.f[0].summary, "its fastest advertised mode is 100000 Mb/s") &&
		  strstr(res.f[0].fix, "does not advertise 200G") && strstr(res.f[0].fix, "lab-x.conf"),
		  "expect_speed above the advertised modes: a warning, the fix says the port cannot reach it");
	clean(&s, &d);
	d.s.eth.has_adv = false;
	d.s.eth.lanes = 0;
	d.s.eth.has_lanes = false;
	EXPECT(&s, &prof_x, "slow-link", "no advertised modes, below the profile: slow-link from the profile alone");
	clean(&s, &d);
	d.s.eth.has_speed = false;
	EXPECT(&s, &prof_x, "clean", "no speed (link down or not reported): no slow-link");

	if (parse_lab_with("expect_lanes = 4\n")) {
		tap_check(0, "the lab profile with expect_lanes 4 parses");
		return;
	}
	clean(&s, &d);
	d.s.eth.lanes = 2;
	d.s.eth.adv_lanes = 0;	/* a mode name without lanes: the advertised modes cannot tell */
	EXPECT(&s, &prof_x, "slow-link", "100G on 2 lanes, the profile expects 4: slow-link");
	tap_check(strstr(res.f[0].summary, "the profile expects 4 ([link] expect_lanes)") &&
		  ev("slow-link", "profile_expect_lanes") == 4 && ev("slow-link", "lanes") == 2,
		  "lanes below the profile: named in the summary and evidence");
}

/* mtu-mismatch over the three MTUs: netdev, the RDMA port's active MTU (read),
 * the profile. */
static void test_mtu_three(void)
{
	struct rtune_doc_snap s;
	struct rtune_doc_port d;

	clean(&s, &d);
	d.l.mtu = 1400;
	EXPECT(&s, &prof, "mtu-mismatch", "netdev MTU 1400 against the profile's 1500");
	tap_check(ev("mtu-mismatch", "roce_active_mtu") == 1024 &&
		  strstr(res.f[0].summary, "active MTU is 1024") &&
		  strstr(res.f[0].fix, "ip link set dev dcb0 mtu 1500"),
		  "netdev MTU off the profile: the read active MTU in evidence and summary, the fix sets the profile's");

	/* rxe's window: 1110 - 80 gives it 1024, iboe_get_mtu() 512 */
	clean(&s, &d);
	d.l.mtu = 1110;
	EXPECT(&s, &prof, "mtu-mismatch", "netdev MTU 1110 against 1500");
	tap_check(ev("mtu-mismatch", "roce_active_mtu") == 1024 && ev("mtu-mismatch", "roce_mtu") == 512,
		  "the active MTU is the one read (1024), not the derived one (512)");
	EXPECT(&s, NULL, "clean", "MTU 1110 without a profile: rxe's 1024 fits with its 80 bytes");

	clean(&s, &d);
	d.l.roce_active_mtu = 512;
	EXPECT(&s, &prof, "mtu-mismatch", "netdev MTU as the profile says, active MTU 512 < the profile's roce_mtu 1024");
	tap_check(ev("mtu-mismatch", "roce_active_mtu") == 512 && ev("mtu-mismatch", "roce_mtu") == 1024 &&
		  ev("mtu-mismatch", "profile_roce_mtu") == 1024 &&
		  strstr(res.f[0].summary, "active MTU is 512, the profile wants RoCE MTU 1024") &&
		  strstr(res.f[0].fix, "did not follow") && strstr(res.f[0].fix, "ibv_devinfo -d rxe0"),
		  "active MTU below the profile while the netdev allows it: the port did not follow");
	EXPECT(&s, NULL, "clean", "active MTU 512 without a profile: no finding (a smaller MTU fits)");

	clean(&s, &d);
	d.l.roce_active_mtu = 4096;
	EXPECT(&s, NULL, "mtu-mismatch", "active MTU 4096 on a 1500-byte netdev, no profile: mtu-mismatch");
	tap_check(res.nerr == 1 && ev("mtu-mismatch", "roce_active_mtu") == 4096 &&
		  ev("mtu-mismatch", "netdev_mtu") == 1500 &&
		  isnan(ev("mtu-mismatch", "profile_mtu")) &&
		  strstr(res.f[0].summary, "does not fit the netdev MTU 1500") &&
		  strstr(res.f[0].fix, "at least 4192"),
		  "active MTU too big for the netdev: an error, the fix raises the MTU to 4192");
	EXPECT(&s, &prof, "mtu-mismatch", "the same with the profile: one finding");

	clean(&s, &d);
	d.l.roce_mtu_ok = false;
	d.l.roce_mtu_err = -ENODEV;
	EXPECT(&s, &prof, "clean", "active MTU unreadable, the netdev MTU allows the profile's: clean");
	d.l.mtu = 1400;
	EXPECT(&s, &prof, "mtu-mismatch", "active MTU unreadable, netdev MTU 1400: mtu-mismatch");
	tap_check(!strcmp(ev_s("mtu-mismatch", "roce_active_mtu"), "unreadable: No such device") &&
		  ev("mtu-mismatch", "roce_mtu") == 1024,
		  "unreadable active MTU: the evidence says so, with the derived RoCE MTU");
}

static void test_faults(void)
{
	struct rtune_doc_snap s;
	struct rtune_doc_port d;

	clean(&s, &d);
	d.s.pfc_rx_rate[3] = 20000;
	d.s.pfc_rx[3] = 40000;
	EXPECT(&s, &prof, "pause-storm@3", "pause storm received on priority 3");
	tap_check(ev("pause-storm", "received_per_s") == 20000 &&
		  ev("pause-storm", "pfc_prevention_tout_ms") == 8000 &&
		  ev("pause-storm", "received_total") == 40000 && res.nerr == 1,
		  "pause storm: an error, with the rate, total and the tout as evidence");
	tap_check(strstr(res.f[0].fix, "peer or switch") != NULL,
		  "pause storm received: the fix points at the sender");

	clean(&s, &d);
	d.s.pfc_tx_rate[5] = 5000;
	d.pfc_tout_ms = 0;
	d.l.dcb.pfc.pfc_en = 1u << 3;
	EXPECT(&s, &prof, "pause-storm@5 storm-prevention-off", "pause storm sent, prevention off");
	tap_check(strstr(res.f[0].fix, "[pfc] storm_prevention = auto") != NULL &&
		  strstr(res.f[0].fix, "ethtool --set-tunable dcb0 pfc-prevention-tout") != NULL,
		  "pause storm sent without prevention: the fix names the profile key and the tunable on dcb0");

	clean(&s, &d);
	d.s.pfc_rx_rate[3] = RTUNE_DOC_PAUSE_RATE - 1;
	EXPECT(&s, &prof, "clean", "pause rate just below the threshold");
	d.s.pfc_rx_rate[3] = RTUNE_DOC_PAUSE_RATE;
	EXPECT(&s, &prof, "pause-storm@3", "pause rate at the threshold");
	d.s.has_pfc_rate = false;
	EXPECT(&s, &prof, "clean", "no PFC rates (one sample, or not reported): no storm");

	test_storm_counters();

	clean(&s, &d);
	d.pfc_tout_ms = 0;
	EXPECT(&s, &prof, "storm-prevention-off", "pfc-prevention-tout 0 with PFC on");
	tap_check(strstr(res.f[0].fix, "[pfc] storm_prevention = auto") != NULL &&
		  strstr(res.f[0].fix, "ethtool --set-tunable dcb0 pfc-prevention-tout auto") != NULL,
		  "storm prevention off: the fix names the profile key and the tunable on dcb0");
	d.l.dcb.pfc.pfc_en = 0;
	EXPECT(&s, NULL, "clean", "pfc-prevention-tout 0 without PFC: nothing to prevent");
	clean(&s, &d);
	d.has_pfc_tout = false;
	EXPECT(&s, &prof, "clean", "no tunable (driver without it): no finding");

	clean(&s, &d);
	d.s.eth.speed_mbps = 50000;
	d.s.eth.lanes = 2;
	EXPECT(&s, &prof, "slow-link", "trained down to 50G");
	tap_check(ev("slow-link", "speed_mbps") == 50000 &&
		  ev("slow-link", "advertised_speed_mbps") == 100000 && ev("slow-link", "lanes") == 2,
		  "slow link: speed, advertised speed and lanes as evidence");
	clean(&s, &d);
	d.s.eth.lanes = 2;
	EXPECT(&s, &prof, "slow-link", "100G on 2 of 4 lanes");
	clean(&s, &d);
	d.s.eth.has_adv = false;
	d.s.eth.speed_mbps = 1000;
	EXPECT(&s, &prof, "clean", "no advertised modes: no slow-link");
	test_slow_profile();

	clean(&s, &d);
	d.s.rate[ST_FCS_ERR] = 100;
	d.s.v[ST_FCS_ERR] = 5000;
	EXPECT(&s, &prof, "link-errors", "FCS errors rising");
	tap_check(ev("link-errors", "fcs_errors_per_s") == 100 &&
		  ev("link-errors", "fcs_errors_total") == 5000, "link errors: rate and total");
	clean(&s, &d);
	d.s.rate[ST_LINK_DOWN] = 0.5;
	EXPECT(&s, &prof, "link-errors", "link flapping");
	clean(&s, &d);
	d.s.rate[ST_SYM_ERR] = 3;
	rtune_doc_run(&s, &prof, &(struct rtune_doc_cfg){ 1000, 5 }, &res);
	tap_check(res.n == 0, "3 symbol errors/s under an --error-threshold of 5: no finding");

	clean(&s, &d);
	d.l.mtu = 1400;
	EXPECT(&s, &prof, "mtu-mismatch", "MTU 1400 against the profile's 1500");
	tap_check(ev("mtu-mismatch", "netdev_mtu") == 1400 && ev("mtu-mismatch", "roce_mtu") == 1024 &&
		  ev("mtu-mismatch", "profile_mtu") == 1500, "MTU mismatch: the three MTUs");
	EXPECT(&s, NULL, "clean", "MTU 1400 without a profile: no finding");
	d.l.mtu = 1100;
	d.l.roce_mtu_ok = false;	/* not read: the derived RoCE MTU stands in */
	d.l.roce_mtu_err = -ENOENT;
	prof.has_mtu = false;
	EXPECT(&s, &prof, "mtu-mismatch", "MTU 1100 allows RoCE MTU 512 < the profile's 1024");
	tap_check(ev("mtu-mismatch", "roce_mtu") == 512, "RoCE MTU 512 as evidence");
	tap_check(!strcmp(ev_s("mtu-mismatch", "roce_active_mtu"), "unreadable: No such file or directory") &&
		  strstr(res.f[0].summary, "active MTU was not read") &&
		  strstr(res.f[0].fix, "ip link set dev dcb0 mtu 1120"),
		  "active MTU unreadable: the evidence says why, the summary says so, the fix raises the MTU");
	prof.has_mtu = true;
	test_mtu_three();

	clean(&s, &d);
	d.l.cc.v[RTUNE_P_ECN_ENABLED_PRIOS] = 0;
	EXPECT(&s, &prof, "ecn-off@3", "ECN off on the RoCE priority");
	tap_check(!strcmp(ev_s("ecn-off", "ecn_enabled_prios"), "none") &&
		  ev("ecn-off", "roce_priority") == 3, "ECN off: the setting and the priority");
	EXPECT(&s, NULL, "ecn-off@3", "ECN off without a profile (the one PFC priority)");
	clean(&s, &d);
	d.l.cc.v[RTUNE_P_RP_ENABLED_PRIOS] = 1u << 4;
	EXPECT(&s, &prof, "ecn-off@3", "reaction point off on the RoCE priority");
	clean(&s, &d);
	d.l.cc_ok = false;
	d.l.cc_valid = 0;
	EXPECT(&s, &prof, "clean", "no CC readable (no rocetune.ko): no ECN or CNP finding");

	clean(&s, &d);
	d.l.cc.v[RTUNE_P_NP_CNP_DSCP] = 40;
	EXPECT(&s, &prof, "cnp-dscp-unmapped@6", "CNP DSCP 40 maps to 5, CNPs are priority 6");
	tap_check(ev("cnp-dscp-unmapped", "mapped_priority") == 5 &&
		  ev("cnp-dscp-unmapped", "np_cnp_dscp") == 40, "CNP: DSCP and where it goes");
	clean(&s, &d);
	d.l.dcb.dscp_prios[48] = 0;
	EXPECT(&s, &prof, "cnp-dscp-unmapped@6", "CNP DSCP 48 not in the APP table (priority 0)");
	clean(&s, &d);
	memset(d.l.dcb.dscp_prios, 0, sizeof(d.l.dcb.dscp_prios));
	d.l.dcb.has_trust = true;
	d.l.dcb.ntrust = 1;
	d.l.dcb.trust[0] = RTUNE_DCB_APP_SEL_PCP;
	EXPECT(&s, NULL, "clean", "PCP trust: the DSCP of CNPs and of RDMA-CM do not pick the priority");

	clean(&s, &d);
	d.l.tos = 0;
	EXPECT(&s, &prof, "cm-tos-lossy@0", "RDMA-CM ToS 0: priority 0, no PFC");
	tap_check(strstr(res.f[0].fix, "echo 96 > /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos") != NULL,
		  "CM ToS: the fix writes a ToS of priority 3 (DSCP 24)");
	clean(&s, &d);
	d.l.dcb.pfc.pfc_en = 0;
	d.s.pfc_en = 0;
	d.l.tos = 0;
	EXPECT(&s, NULL, "ecn-off@0",
	       "no PFC (lossy RoCE): no cm-tos-lossy; ECN is checked on the ToS's priority 0");

	clean(&s, &d);
	snprintf(d.pacing, sizeof(d.pacing), "inactive pfifo_fast");
	EXPECT(&s, &prof, "pacing-inactive", "pacing inactive");
	tap_check(!strcmp(ev_s("pacing-inactive", "root_qdisc"), "pfifo_fast") &&
		  !strcmp(res.f[0].fix, "tc qdisc replace dev dcb0 root fq orphan_mask 4294967295"),
		  "pacing: the qdisc, and the tc command");
	snprintf(d.pacing, sizeof(d.pacing), "unavailable old-rxe");
	EXPECT(&s, &prof, "pacing-inactive", "pacing unavailable (old rxe)");
	tap_check(!strcmp(ev_s("pacing-inactive", "pacing"), "unavailable old-rxe") &&
		  strstr(res.f[0].summary, "before 6.1") &&
		  strstr(res.f[0].fix, "force_rxe_pacing=1") &&
		  !strstr(res.f[0].fix, "tc qdisc"),
		  "pacing unavailable: the kernel named, no qdisc advice");

	clean(&s, &d);
	d.has_qdisc = true;
	snprintf(d.qdisc.kind, sizeof(d.qdisc.kind), "fq");
	d.qdisc.has_orphan_mask = true;
	d.qdisc.orphan_mask = 1023;
	EXPECT(&s, &prof, "pacing-shared-flows", "pacing active under fq's default orphan mask 1023");
	tap_check(!strcmp(ev_s("pacing-shared-flows", "orphan_mask"), "0x3ff") &&
		  ev("pacing-shared-flows", "flows") == 1024 && res.nwarn == 1 && res.nerr == 0 &&
		  !strcmp(res.f[0].fix, "tc qdisc replace dev dcb0 root fq orphan_mask 4294967295"),
		  "shared flows: a warning, mask 0x3ff, 1024 flows, the tc command");
	d.qdisc.orphan_mask = UINT32_MAX;
	EXPECT(&s, &prof, "clean", "orphan mask 0xffffffff: clean");
	d.qdisc.orphan_mask = 1023;
	d.has_qdisc = false;
	EXPECT(&s, &prof, "clean", "root qdisc not read: no shared-flows finding");
	d.has_qdisc = true;
	d.qdisc.has_orphan_mask = false;
	EXPECT(&s, &prof, "clean", "fq that reported no mask: no shared-flows finding");
	d.qdisc.has_orphan_mask = true;
	snprintf(d.qdisc.kind, sizeof(d.qdisc.kind), "fq_codel");
	EXPECT(&s, &prof, "clean", "a root that is not fq: no shared-flows finding");
	snprintf(d.qdisc.kind, sizeof(d.qdisc.kind), "fq");
	snprintf(d.pacing, sizeof(d.pacing), "inactive pfifo_fast");
	EXPECT(&s, &prof, "pacing-inactive", "pacing inactive: pacing-inactive alone, whatever was read");
	snprintf(d.pacing, sizeof(d.pacing), "unsupported");
	EXPECT(&s, &prof, "clean", "pacing unsupported (not rxe): no finding");

	clean(&s, &d);
	s.lldpad = true;
	EXPECT(&s, &prof, "lldpad-running", "lldpad running");
	tap_check(res.f[0].port == -1, "lldpad: a host-wide finding");

	clean(&s, &d);
	d.l.dcb.dcbx = DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE;
	EXPECT(&s, &prof, "dcbx-not-host", "DCBX LLD-managed");

	clean(&s, &d);
	d.s.gone = true;
	d.l.mtu = 1;
	EXPECT(&s, &prof, "clean", "a port gone between the samples: no finding about it");
}

static void test_helpers(void)
{
	uint32_t sp = 0, ln = 0;
	struct rtune_dcb dcb = { .ok = true };

	tap_check(rtune_linkmode_parse("100000baseCR4/Full", &sp, &ln) && sp == 100000 && ln == 4,
		  "link mode 100000baseCR4/Full: 100000 Mb/s, 4 lanes");
	tap_check(rtune_linkmode_parse("25000baseCR/Full", &sp, &ln) && sp == 25000 && ln == 1,
		  "link mode 25000baseCR/Full: 1 lane");
	tap_check(rtune_linkmode_parse("10baseT/Half", &sp, &ln) && sp == 10 && ln == 1,
		  "link mode 10baseT/Half: 10 Mb/s");
	tap_check(!rtune_linkmode_parse("Autoneg", &sp, &ln) && !rtune_linkmode_parse("base", &sp, &ln) &&
		  !rtune_linkmode_parse("99999999999baseT/Full", &sp, &ln),
		  "not a speed: Autoneg, no digits, more than 32 bits");
	tap_check(rtune_doc_roce_mtu(1500) == 1024 && rtune_doc_roce_mtu(4200) == 4096 &&
		  rtune_doc_roce_mtu(9000) == 4096 && rtune_doc_roce_mtu(352) == 256 &&
		  rtune_doc_roce_mtu(351) == 0 && rtune_doc_roce_mtu(1120) == 1024,
		  "RoCE MTU of 1500, 4200, 9000, 352, 351, 1120: 1024, 4096, 4096, 256, none, 1024");
	tap_check(!rtune_doc_trusts_dscp(&dcb) && rtune_doc_dscp_prio(&dcb, 26) == 0 &&
		  rtune_doc_dscp_prio(&dcb, 99) == 0,
		  "empty APP table: DSCP not trusted, every DSCP priority 0");
	dcb.dscp_prios[26] = (1u << 3) | (1u << 5);
	tap_check(rtune_doc_trusts_dscp(&dcb) && rtune_doc_dscp_prio(&dcb, 26) == 3,
		  "DSCP 26 on priorities 3 and 5: trusted (no trust table), the lowest, 3");
}

static void test_json(void)
{
	struct rtune_doc_snap s;
	struct rtune_doc_port d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char *line, *nl = NULL;
	struct jw j;
	int ok;

	clean(&s, &d);
	d.s.pfc_rx_rate[3] = 20000;
	rtune_doc_run(&s, &prof, &cfg, &res);
	jw_init(&j, f);
	jw_obj(&j, NULL);
	rtune_doc_json(&j, &s, &res, &cfg);
	jw_end_obj(&j);
	fclose(f);
	tap_check(buf && strstr(buf, "\"code\":\"pause-storm\"") && strstr(buf, "\"priority\":3") &&
		  strstr(buf, "\"received_per_s\":20000") && strstr(buf, "\"interval_ms\":500") &&
		  strstr(buf, "\"errors\":1"),
		  "JSON: code, priority, evidence, interval and counts");
	if (buf && !strstr(buf, "\"code\":\"pause-storm\""))
		tap_diag("%s", buf);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	rtune_doc_text(f, &s, &res);
	fclose(f);
	ok = tap_check(buf && strstr(buf, "  dcb0 (rxe0/1)\n") && strstr(buf, "1 finding: 1 error, 0 warnings\n") &&
		  strstr(buf, "\nerror   pause-storm: dcb0: PFC pause storm on priority 3: 20000 pause frames/s received (threshold 1000/s)\n") &&
		  strstr(buf, "  evidence: sent_per_s=0 received_per_s=20000 ") &&
		  strstr(buf, " interval_s=0.5 pfc_prevention_tout_ms=8000\n  fix: the peer or switch"),
		  "text: the device, the count, the finding, its evidence and fix");
	for (line = buf; !ok && line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		tap_diag("%.*s", nl ? (int)(nl - line) : (int)strlen(line), line);
	}
	free(buf);
}

/*
 * A down RoCE port is a finding, whatever its configured speed: down, the
 * port reports no speed, so slow-link sees nothing and the doctor used to
 * report a port with a pulled cable clean.
 */
static void test_link_down(void)
{
	struct rtune_doc_snap s;
	struct rtune_doc_port d;

	if (parse_lab_with("expect_speed = 100G\nexpect_lanes = 4\n")) {
		tap_check(0, "the lab profile with expect_speed 100G parses");
		return;
	}
	/* no carrier, as ethtool shows a link that is down: no speed */
	clean(&s, &d);
	d.s.carrier = false;
	d.s.operstate = IF_OPER_LOWERLAYERDOWN;
	d.s.carrier_changes = 3;
	d.s.eth.has_speed = d.s.eth.has_lanes = false;
	snprintf(d.s.rdma_state, sizeof(d.s.rdma_state), "DOWN");
	EXPECT(&s, &prof_x, "link-down", "no carrier, the profile expects 100G (the configured speed): link-down");
	tap_check(res.nerr == 1 && !strcmp(ev_s("link-down", "operstate"), "lowerlayerdown") &&
		  ev("link-down", "carrier") == 0 && !strcmp(ev_s("link-down", "admin_state"), "up") &&
		  ev("link-down", "carrier_changes") == 3 &&
		  !strcmp(ev_s("link-down", "port_state"), "DOWN") &&
		  !strncmp(ev_s("link-down", "link_down_events_total"), "not reported", 12),
		  "link-down: an error; operstate, admin state, carrier, carrier changes, port state; no link-down count on this kernel said so");
	tap_check(strstr(res.f[0].summary, "no carrier") && strstr(res.f[0].fix, "cable"),
		  "link-down without carrier: the summary says so, the fix names the cable");
	d.s.valid |= 1u << ST_LINK_DOWN;
	d.s.v[ST_LINK_DOWN] = 7;
	EXPECT(&s, &prof, "link-down", "no carrier, the lab profile: link-down");
	tap_check(ev("link-down", "link_down_events_total") == 7,
		  "link-down evidence: ethtool's link-down count where the kernel has it (6.2+)");
	EXPECT(&s, NULL, "link-down", "no carrier, no profile (the port has RDMA): link-down");
	d.l.has_ib = false;
	EXPECT(&s, NULL, "clean", "no carrier on a netdev without RDMA, no profile: not a RoCE port, clean");
	EXPECT(&s, &prof, "link-down", "... the same netdev matched by a profile: link-down");

	clean(&s, &d);
	d.s.admin_up = false;
	d.s.carrier = false;
	d.s.operstate = IF_OPER_DOWN;
	snprintf(d.pacing, sizeof(d.pacing), "inactive noop");
	EXPECT(&s, &prof, "link-down", "set down (ip link set down), the noop qdisc meanwhile: link-down only");
	tap_check(!strcmp(ev_s("link-down", "admin_state"), "down") &&
		  !strcmp(ev_s("link-down", "operstate"), "down") &&
		  strstr(res.f[0].fix, "ip link set dev dcb0 up"),
		  "link-down, set down: admin_state down, the fix brings it up");

	clean(&s, &d);
	d.s.operstate = IF_OPER_DORMANT;
	EXPECT(&s, &prof, "link-down", "carrier but operstate dormant: link-down");
	d.s.operstate = IF_OPER_UNKNOWN;
	EXPECT(&s, &prof, "clean", "operstate unknown with carrier (no link detection): clean");
	d.s.carrier = false;
	d.s.has_oper = false;
	EXPECT(&s, &prof, "clean", "link state not read: no finding");
}

int main(void)
{
	struct rtune_diags dg = { 0 };

	tap_plan(113);
	if (profile_parse_text("lab.conf", lab_profile, sizeof(lab_profile) - 1, &prof, &dg) ||
	    profile_validate(&prof, &dg)) {
		diag_print(&dg, stdout);
		tap_check(0, "the lab profile parses");
		return tap_done();
	}
	test_clean();
	test_faults();
	test_link_down();
	test_helpers();
	test_json();
	return tap_done();
}
