// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for rocetune's planner on in-memory device state:
 * a fresh device gets exactly the writes the profile needs, applying them
 * leaves nothing to do (idempotence), a rollback target undoes them, and
 * the per-device preconditions are reported; actions split into the named
 * settings `rocetune watch` reports.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/obj.h"

static const char lossless[] =
	"[match]\nnetdev = dcb*\n[link]\nmtu = 4200\n[trust]\nmode = dscp\ndscp_prio = default\n"
	"[pfc]\npriorities = 3\n[ets]\nprio_tc = 0 0 0 3 0 0 6 0\n"
	"tsa = ets strict strict ets strict strict strict strict\nbw = 50 0 0 50 0 0 0 0\n"
	"[rdma_cm]\nroce_mode = v2\ntos = 106\n[cc]\npreset = connectx\necn_enabled_prios = 3\n"
	"rp_enabled_prios = 3\nnp_enabled_prios = 3\n";

static struct rtune_profile prof;

static void load(const char *text)
{
	static struct rtune_diags d;

	memset(&d, 0, sizeof(d));
	if (profile_parse_text("t.conf", text, strlen(text), &prof, &d) ||
	    profile_validate(&prof, &d)) {
		diag_print(&d, stdout);
		abort();
	}
}

static void fresh(struct rtune_link *v)
{
	memset(v, 0, sizeof(*v));
	strcpy(v->netdev, "dcb0");
	v->ifindex = 5;
	v->link_ok = true;
	v->mtu = 1500;
	v->dcb.ok = v->dcb.has_pfc = v->dcb.has_ets = v->dcb.has_app = v->dcb.has_dcbx = true;
	v->dcb.pfc.pfc_cap = 8;
	v->dcb.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	v->has_ib = true;
	strcpy(v->ibdev, "rxe0");
	v->port = 1;
	v->cm_ok = true;
	v->roce_mode = 1;
	v->tos = 0;
	v->cc_ok = true;
	v->cc = rtune_preset_lookup("paper", 5)->set;
	v->cc_valid = (1u << RTUNE_P_COUNT) - 1;
}

/* What a well-behaved host does with each action. The DSCP entries go
 * through rtune_app_entries(), the list that apply sends. */
static void sim(struct rtune_link *v, const struct rtune_action *a)
{
	const char *k = act_name(a);
	struct dcb_app apps[64 * 8];
	int i, n;

	if (!strcmp(k, "ets")) {
		v->dcb.ets = a->to.dcb.ets;
	} else if (!strcmp(k, "pfc")) {
		v->dcb.pfc.pfc_en = a->to.dcb.pfc.pfc_en;
		v->dcb.pfc.delay = a->to.dcb.pfc.delay;
	} else if (!strcmp(k, "app-add") || !strcmp(k, "app-del")) {
		n = rtune_app_entries(a, apps, 64 * 8);
		for (i = 0; i < n; i++)
			if (!strcmp(k, "app-add"))
				v->dcb.dscp_prios[apps[i].protocol] |= (uint8_t)(1u << apps[i].priority);
			else
				v->dcb.dscp_prios[apps[i].protocol] &= (uint8_t)~(1u << apps[i].priority);
	} else if (!strcmp(k, "apptrust")) {
		v->dcb.ntrust = a->to.dcb.ntrust;
		memcpy(v->dcb.trust, a->to.dcb.trust, 8);
	} else if (!strcmp(k, "pfc-storm")) {
		/* drivers report the timeout auto stands for (mlx5: 100 ms) */
		v->pfc_storm_ms = a->to.pfc_storm_ms == RTUNE_PFC_STORM_AUTO ? 100 :
				  a->to.pfc_storm_ms;
	} else if (!strcmp(k, "mtu")) {
		v->mtu = a->to.mtu;
	} else if (!strcmp(k, "roce-mode")) {
		v->roce_mode = a->to.roce_mode;
	} else if (!strcmp(k, "roce-tos")) {
		v->tos = a->to.tos;
	} else if (!strcmp(k, "cc")) {
		v->cc = a->to.cc;
	} else {
		abort();
	}
}

static int count(const struct rtune_plan *pl, const char *k)
{
	int i, n = 0;

	for (i = 0; i < pl->n; i++)
		n += !strcmp(act_name(&pl->a[i]), k);
	return n;
}

static bool is(const struct rtune_action *a, const char *k)
{
	return !strcmp(act_name(a), k);
}

static int napps(const struct rtune_action *a)
{
	struct dcb_app apps[64 * 8];

	return rtune_app_entries(a, apps, 64 * 8);
}

static int plan1(const struct rtune_link *v, struct rtune_plan *pl)
{
	struct rtune_target t;

	memset(pl, 0, sizeof(*pl));
	target_from_profile(&prof, v, 0, &t, pl);
	return plan_device(v, 0, &t, pl);
}

static void test_fresh_and_idempotent(void)
{
	static struct rtune_link v, saved;
	struct rtune_plan pl, rb = { 0 };
	struct rtune_target t;
	struct rtune_touched touched = { { 0 } };
	char buf[1024];
	int i, n;

	load(lossless);
	fresh(&v);
	saved = v;
	n = plan1(&v, &pl);
	tap_check(pl.nerr == 0, "no blocking notes on a capable device");
	tap_check(n == 7, "7 actions on a fresh device (got %d)", n);
	tap_check(count(&pl, "ets") == 1 && count(&pl, "pfc") == 1 && count(&pl, "app-add") == 1 &&
		  count(&pl, "app-del") == 0 && count(&pl, "mtu") == 1 && count(&pl, "roce-mode") == 1 &&
		  count(&pl, "roce-tos") == 1 && count(&pl, "cc") == 1, "one of each needed kind");
	tap_check(is(&pl.a[0], "ets") && is(&pl.a[1], "pfc") && is(&pl.a[2], "app-add"),
		  "DCB is written first in ETS, PFC, APP order");
	for (i = 0; i < pl.n; i++)
		if (is(&pl.a[i], "app-add"))
			tap_check(napps(&pl.a[i]) == 64, "all 64 DSCP entries are added (%d)", napps(&pl.a[i]));
	for (i = 0; i < pl.nnotes; i++)
		if (!strcmp(pl.notes[i].code, "trust-implicit"))
			break;
	tap_check(i < pl.nnotes, "no apptrust table: trust is noted as implicit");
	for (i = 0; i < pl.n; i++)
		if (is(&pl.a[i], "cc")) {
			act_describe(&pl.a[i], buf, sizeof(buf));
			tap_check(strstr(buf, "ecn_enabled_prios 0-7 -> 3") &&
				  strstr(buf, "rp_alpha_gain_1024ths 4 -> 5") &&
				  !strstr(buf, "np_cnp_dscp"), "CC diff names only changed parameters: %s", buf);
		}
	for (i = 0; i < pl.n; i++) {
		plan_touch(&touched, &pl.a[i]);
		sim(&v, &pl.a[i]);
	}
	plan_free(&pl);
	tap_check(plan1(&v, &pl) == 0, "second plan after applying is empty (idempotent)");
	plan_free(&pl);

	target_from_state(&saved, &touched, &t);
	n = plan_device(&v, 0, &t, &rb);
	tap_check(n == 7 && count(&rb, "app-del") == 1 && count(&rb, "app-add") == 0,
		  "rollback plan has 7 inverse actions (got %d)", n);
	for (i = 0; i < rb.n; i++)
		sim(&v, &rb.a[i]);
	tap_check(v.mtu == saved.mtu && v.roce_mode == saved.roce_mode && v.tos == saved.tos &&
		  !memcmp(&v.dcb.ets, &saved.dcb.ets, sizeof(v.dcb.ets)) &&
		  v.dcb.pfc.pfc_en == saved.dcb.pfc.pfc_en &&
		  !memcmp(v.dcb.dscp_prios, saved.dcb.dscp_prios, 64) &&
		  !memcmp(&v.cc, &saved.cc, sizeof(v.cc)), "rollback restores the saved state exactly");
	plan_free(&rb);
}

static void test_app_replace(void)
{
	static struct rtune_link v;
	struct rtune_plan pl;
	int i, add = -1, del = -1;

	load("[match]\nnetdev = dcb*\n[trust]\nmode = dscp\ndscp_prio = 26:3 48:6\n");
	fresh(&v);
	v.dcb.dscp_prios[26] = (1u << 3) | (1u << 5);	/* stale duplicate */
	v.dcb.dscp_prios[10] = 1u << 1;			/* not declared */
	v.dcb.dscp_prios[48] = 1u << 6;			/* already right */
	plan1(&v, &pl);
	for (i = 0; i < pl.n; i++) {
		if (is(&pl.a[i], "app-add"))
			add = i;
		if (is(&pl.a[i], "app-del"))
			del = i;
	}
	tap_check(add < 0, "nothing to add when the wanted entries exist");
	tap_check(del >= 0 && napps(&pl.a[del]) == 2, "stale 26:5 and undeclared 10:1 are deleted");
	plan_free(&pl);

	v.dcb.dscp_prios[26] = 1u << 5;
	plan1(&v, &pl);
	tap_check(pl.n == 2 && is(&pl.a[0], "app-add") && is(&pl.a[1], "app-del"),
		  "replacing a mapping adds before deleting (mlx5 keeps DSCP trust)");
	plan_free(&pl);

	load("[match]\nnetdev = dcb*\n[trust]\nmode = pcp\n");
	plan1(&v, &pl);
	tap_check(pl.n == 1 && is(&pl.a[0], "app-del") && napps(&pl.a[0]) == 3,
		  "trust pcp deletes every DSCP entry");
	plan_free(&pl);
}

static void test_trust_table(void)
{
	static struct rtune_link v;
	struct rtune_plan pl;

	load("[match]\nnetdev = dcb*\n[trust]\nmode = dscp\ndscp_prio = default\n");
	fresh(&v);
	v.dcb.has_trust = true;
	v.dcb.ntrust = 1;
	v.dcb.trust[0] = RTUNE_DCB_APP_SEL_PCP;
	plan1(&v, &pl);
	tap_check(count(&pl, "apptrust") == 1 && pl.a[pl.n - 1].to.dcb.ntrust == 1 &&
		  pl.a[pl.n - 1].to.dcb.trust[0] == IEEE_8021QAZ_APP_SEL_DSCP,
		  "apptrust table set to [dscp] where the driver has it");
	plan_free(&pl);
}

static void test_preconditions(void)
{
	static struct rtune_link v;
	struct rtune_plan pl;
	int i;

	load(lossless);
	fresh(&v);
	v.dcb.ok = false;
	v.dcb.err = 95;
	plan1(&v, &pl);
	tap_check(pl.nerr >= 1 && !strcmp(pl.notes[0].code, "no-dcb") &&
		  !count(&pl, "pfc") && !count(&pl, "app-add"), "no dcbnl: blocking error, no DCB writes");
	plan_free(&pl);

	fresh(&v);
	v.has_ib = false;
	plan1(&v, &pl);
	for (i = 0; i < pl.nnotes; i++)
		if (!strcmp(pl.notes[i].code, "no-rdma-device"))
			break;
	tap_check(pl.nerr == 0 && i < pl.nnotes && !count(&pl, "cc") && !count(&pl, "roce-tos"),
		  "netdev without RDMA: rdma_cm and cc skipped with a warning");
	plan_free(&pl);

	fresh(&v);
	v.cc_ok = false;
	plan1(&v, &pl);
	tap_check(pl.nerr == 1 && !strcmp(pl.notes[pl.nnotes - 1].code, "no-cc"),
		  "[cc] without rocetune.ko is a blocking error");
	plan_free(&pl);

	/* rocetune.ko attached, no backend: nothing read, nothing to stage */
	fresh(&v);
	strcpy(v.cc_backend, "none");
	strcpy(v.cc_driver, "hns");
	v.cc_valid = 0;
	plan1(&v, &pl);
	tap_check(pl.nerr == 1 && !strcmp(pl.notes[pl.nnotes - 1].code, "no-cc-backend") &&
		  strstr(pl.notes[pl.nnotes - 1].msg, "driver hns") && !count(&pl, "cc"),
		  "[cc] on a device rocetune.ko runs no DCQCN for: no-cc-backend naming the driver");
	plan_free(&pl);

	load("[match]\nnetdev = dcb*\n[cc]\nrp_additive_increase_kbps = 300000\n");
	fresh(&v);
	plan1(&v, &pl);
	tap_check(pl.nerr == 1 && !strcmp(pl.notes[0].code, "cc-invalid"),
		  "an override incoherent with the active set is refused before writing");
	plan_free(&pl);

	load("[match]\nnetdev = dcb*\n[cc]\nrp_hyper_increase_kbps = 300000\n");
	plan1(&v, &pl);
	tap_check(pl.nerr == 0 && pl.n == 1 && pl.a[0].mask == 1u << RTUNE_P_RP_HYPER_INCREASE_KBPS,
		  "without a preset only the overrides are compared");
	plan_free(&pl);
}

static void test_pfc_delay(void)
{
	static struct rtune_link v, saved;
	struct rtune_plan pl, rb = { 0 };
	struct rtune_touched touched = { { 0 } };
	struct rtune_target t;
	char buf[256];

	load("[match]\nnetdev = dcb*\n[pfc]\ndelay = 4096\n");
	fresh(&v);
	v.dcb.pfc.pfc_en = 0x08;
	v.dcb.pfc.delay = 100;
	saved = v;
	plan1(&v, &pl);
	act_describe(&pl.a[0], buf, sizeof(buf));
	tap_check(pl.n == 1 && is(&pl.a[0], "pfc") && pl.a[0].to.dcb.pfc.delay == 4096 &&
		  pl.a[0].to.dcb.pfc.pfc_en == 0x08 && !strcmp(buf, "pfc delay 100 -> 4096"),
		  "delay alone: one PFC write, the enable bitmap kept: %s", buf);
	plan_touch(&touched, &pl.a[0]);
	sim(&v, &pl.a[0]);
	plan_free(&pl);
	tap_check(plan1(&v, &pl) == 0, "delay applied: nothing left to do");
	plan_free(&pl);
	target_from_state(&saved, &touched, &t);
	tap_check(plan_device(&v, 0, &t, &rb) == 1 && rb.a[0].to.dcb.pfc.delay == 100,
		  "rollback restores the delay");
	plan_free(&rb);

	load("[match]\nnetdev = dcb*\n[pfc]\npriorities = 3\ndelay = 4096\n");
	fresh(&v);
	plan1(&v, &pl);
	act_describe(&pl.a[0], buf, sizeof(buf));
	tap_check(pl.n == 1 && !strcmp(buf, "pfc priorities none -> 3; pfc delay 0 -> 4096"),
		  "both PFC fields in one write: %s", buf);
	plan_free(&pl);
}

static void settings_of(const struct rtune_plan *pl, char *buf, size_t len);

/* [pfc] storm_prevention: the ethtool tunable, its own write. */
static void test_pfc_storm(void)
{
	static struct rtune_link v, saved;
	struct rtune_plan pl, rb = { 0 };
	struct rtune_touched touched = { { 0 } };
	struct rtune_target t;
	char buf[256], set[256];

	load("[match]\nnetdev = dcb*\n[pfc]\nstorm_prevention = 500\n");
	fresh(&v);
	saved = v;
	plan1(&v, &pl);
	act_describe(&pl.a[0], buf, sizeof(buf));
	settings_of(&pl, set, sizeof(set));
	tap_check(pl.n == 1 && is(&pl.a[0], "pfc-storm") && pl.a[0].to.pfc_storm_ms == 500 &&
		  !strcmp(buf, "pfc storm_prevention off -> 500") &&
		  !strcmp(set, "pfc.storm_prevention=off>500"),
		  "storm_prevention alone: one tunable write, no PFC write: %s; %s", buf, set);
	plan_touch(&touched, &pl.a[0]);
	sim(&v, &pl.a[0]);
	plan_free(&pl);
	tap_check(plan1(&v, &pl) == 0, "storm_prevention applied: nothing left to do");
	plan_free(&pl);
	target_from_state(&saved, &touched, &t);
	tap_check(plan_device(&v, 0, &t, &rb) == 1 && is(&rb.a[0], "pfc-storm") &&
		  rb.a[0].to.pfc_storm_ms == 0, "rollback turns storm prevention back off");
	plan_free(&rb);

	v.pfc_storm_ms = 8000;
	load("[match]\nnetdev = dcb*\n[pfc]\nstorm_prevention = off\n");
	plan1(&v, &pl);
	act_describe(&pl.a[0], buf, sizeof(buf));
	tap_check(pl.n == 1 && pl.a[0].to.pfc_storm_ms == 0 &&
		  !strcmp(buf, "pfc storm_prevention 8000 -> off"), "off from 8000 ms: %s", buf);
	plan_free(&pl);

	load("[match]\nnetdev = dcb*\n[pfc]\nstorm_prevention = auto\n");
	tap_check(plan1(&v, &pl) == 0, "auto where a timeout is on (8000 ms): nothing to write");
	plan_free(&pl);
	v.pfc_storm_ms = 0;
	plan1(&v, &pl);
	tap_check(pl.n == 1 && pl.a[0].to.pfc_storm_ms == RTUNE_PFC_STORM_AUTO,
		  "auto where it is off: one write of ethtool's auto (0xffff)");
	sim(&v, &pl.a[0]);
	plan_free(&pl);
	tap_check(plan1(&v, &pl) == 0 && v.pfc_storm_ms == 100,
		  "auto read back as the driver's 100 ms: nothing left to do");
	plan_free(&pl);

	fresh(&v);
	v.pfc_storm_err = -EOPNOTSUPP;
	plan1(&v, &pl);
	tap_check(pl.n == 0 && pl.nerr == 1 &&
		  !strcmp(pl.notes[0].code, "no-pfc-storm-prevention") &&
		  strstr(pl.notes[0].msg, "dcb0") && strstr(pl.notes[0].msg, "storm_prevention"),
		  "a driver without the tunable: a blocking note, no write: %s", pl.notes[0].msg);
	plan_free(&pl);

	load(lossless);
	plan1(&v, &pl);
	tap_check(pl.nerr == 0 && count(&pl, "pfc-storm") == 0,
		  "a profile without storm_prevention neither writes nor needs the tunable");
	plan_free(&pl);
}

/* The settings of every action of @pl, "name=cur>want" joined by '|'. */
static void settings_of(const struct rtune_plan *pl, char *buf, size_t len)
{
	struct rtune_setting st[48];
	size_t w = 0;
	int i, k, n;

	buf[0] = '\0';
	for (i = 0; i < pl->n; i++) {
		n = act_settings(&pl->a[i], st, 48);
		for (k = 0; k < n && w < len; k++)
			w += (size_t)snprintf(buf + w, len - w, "%s%s=%s>%s", w ? "|" : "",
					      st[k].name, st[k].cur, st[k].want);
	}
}

/* What `rocetune watch` reports: each action split into named settings. */
static void test_settings(void)
{
	static struct rtune_link v;
	struct rtune_plan pl;
	static char buf[8192];
	int k;

	load(lossless);
	fresh(&v);
	v.dcb.dscp_prios[10] = 1u << 5;	/* a stray entry, and 26 missing */
	plan1(&v, &pl);
	settings_of(&pl, buf, sizeof(buf));
	tap_check(strstr(buf, "ets.prio_tc=0 0 0 0 0 0 0 0>0 0 0 3 0 0 6 0|ets.tsa=strict strict strict strict strict strict strict strict>ets strict strict ets strict strict strict strict|ets.bw=0 0 0 0 0 0 0 0>50 0 0 50 0 0 0 0|") &&
		  strstr(buf, "|pfc.priorities=none>3|") && strstr(buf, "|link.mtu=1500>4200|") &&
		  strstr(buf, "|rdma_cm.roce_mode=v1>v2|rdma_cm.tos=0>106|") &&
		  strstr(buf, "|cc.ecn_enabled_prios="),
		  "a fresh device: ETS, PFC, MTU, RDMA-CM and CC settings by name, current > wanted");
	tap_check(strstr(buf, "trust.dscp_prio=0:none 1:none") && strstr(buf, " 10:5 11:none ") && strstr(buf, " ...>0:0 1:0 ") &&
		  strstr(buf, "10:1,5 ") && strstr(buf, "trust.dscp_prio=10:1,5>10:1|"),
		  "DSCP map: the DSCPs that change, with their priorities (add, then the stray delete): %.300s", strstr(buf, "trust") ? strstr(buf, "trust") : buf);
	for (k = 0; k < pl.n && !is(&pl.a[k], "cc"); k++)
		;
	tap_check(k < pl.n && act_settings(&pl.a[k], (struct rtune_setting[48]){ 0 }, 48) ==
		  __builtin_popcount(pl.a[k].mask) && act_settings(&pl.a[k], (struct rtune_setting[2]){ 0 }, 2) == 2,
		  "CC: one setting per differing parameter, never more than asked for");
	plan_free(&pl);

	load("[match]\nnetdev = dcb*\n[pfc]\npriorities = 3\ndelay = 4096\n");
	fresh(&v);
	plan1(&v, &pl);
	settings_of(&pl, buf, sizeof(buf));
	tap_check(!strcmp(buf, "pfc.priorities=none>3|pfc.delay=0>4096"),
		  "one PFC write is two settings: %s", buf);
	plan_free(&pl);
}

static void test_owner(void)
{
	static struct rtune_link v;
	struct rtune_plan pl;

	fresh(&v);
	memset(&pl, 0, sizeof(pl));
	plan_owner_dcbx(&v, 0, false, &pl);
	tap_check(pl.nnotes == 0, "host-managed IEEE DCBX: no conflict");
	v.dcb.dcbx = DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE;
	plan_owner_dcbx(&v, 0, false, &pl);
	tap_check(pl.nerr == 1 && !strcmp(pl.notes[0].code, "conflict-dcbx") &&
		  strstr(pl.notes[0].msg, "LLDP agent"), "LLD-managed DCBX is a blocking conflict");
	memset(&pl, 0, sizeof(pl));
	v.dcb.dcbx = DCB_CAP_DCBX_VER_IEEE;
	plan_owner_dcbx(&v, 0, false, &pl);
	tap_check(pl.nerr == 1 && strstr(pl.notes[0].msg, "firmware"),
		  "DCBX without the host bit is firmware-managed: conflict");
	memset(&pl, 0, sizeof(pl));
	plan_owner_dcbx(&v, 0, true, &pl);
	tap_check(pl.nerr == 0 && pl.nnotes == 1 && pl.notes[0].sev == RTUNE_SEV_WARNING,
		  "--force turns the conflict into a warning");
}

int main(void)
{
	test_owner();
	test_fresh_and_idempotent();
	test_app_replace();
	test_trust_table();
	test_preconditions();
	test_pfc_delay();
	test_settings();
	test_pfc_storm();
	return tap_done();
}
