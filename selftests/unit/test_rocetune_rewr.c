// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the DCB rewrite table ([rewrite], obj_rewr.c): the
 * keys parse strictly; the planner deletes stale entries before adding
 * missing ones and then has nothing left to do; a rollback target brings
 * back the saved table exactly, an empty one included; a kernel without
 * the table is a blocking note; the IEEE_SET/IEEE_DEL encoding; the reply
 * parser.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/dcb.h"
#include "../../tools/rocetune/obj.h"

static struct rtune_profile prof;
static struct rtune_diags diags;

static int load(const char *text)
{
	memset(&diags, 0, sizeof(diags));
	memset(&prof, 0, sizeof(prof));
	if (profile_parse_text("t.conf", text, strlen(text), &prof, &diags))
		return -1;
	return profile_validate(&prof, &diags);
}

static bool has_code(const char *code)
{
	int i;

	for (i = 0; i < diags.n; i++)
		if (!strcmp(diags.d[i].code, code))
			return true;
	return false;
}

static void fresh(struct rtune_link *v)
{
	memset(v, 0, sizeof(*v));
	strcpy(v->netdev, "dcb0");
	v->link_ok = true;
	v->mtu = 1500;
	v->dcb.ok = v->dcb.has_app = v->dcb.has_rewr = true;
}

/* What a host with the core's table does with an action: apply's entries. */
static void sim(struct rtune_link *v, const struct rtune_action *a)
{
	struct dcb_app e[8 * 80];
	int i, n = rtune_rewr_entries(a, e, 8 * 80);
	bool add = !strcmp(act_name(a), "rewrite-add");

	if (!add && strcmp(act_name(a), "rewrite-del"))
		abort();
	for (i = 0; i < n; i++) {
		if (e[i].selector == RTUNE_DCB_APP_SEL_PCP) {
			if (add)
				v->dcb.rewr_pcp[e[i].priority] |= (uint16_t)(1u << e[i].protocol);
			else
				v->dcb.rewr_pcp[e[i].priority] &= (uint16_t)~(1u << e[i].protocol);
		} else if (add) {
			v->dcb.rewr_dscp[e[i].priority] |= 1ull << e[i].protocol;
		} else {
			v->dcb.rewr_dscp[e[i].priority] &= ~(1ull << e[i].protocol);
		}
	}
}

static int plan1(const struct rtune_link *v, struct rtune_plan *pl)
{
	struct rtune_target t;

	memset(pl, 0, sizeof(*pl));
	target_from_profile(&prof, v, 0, &t, pl);
	return plan_device(v, 0, &t, pl);
}

static void run(struct rtune_link *v, const struct rtune_plan *pl, struct rtune_touched *t)
{
	int i;

	for (i = 0; i < pl->n; i++) {
		if (t)
			plan_touch(t, &pl->a[i]);
		sim(v, &pl->a[i]);
	}
}

static const char base[] = "[match]\nnetdev = dcb*\n[rewrite]\n";

static int load_rewr(const char *keys)
{
	char text[512];

	snprintf(text, sizeof(text), "%s%s", base, keys);
	return load(text);
}

static void test_parse(void)
{
	tap_check(!load_rewr("prio_dscp = 3:26 6:48\nprio_pcp = 0-2:0 3:3\n") &&
		  prof.has_rewr_dscp && prof.rewr_dscp_set == 0x48 && prof.rewr_dscp[3] == 26 &&
		  prof.rewr_dscp[6] == 48 && prof.has_rewr_pcp && prof.rewr_pcp_set == 0x0f &&
		  prof.rewr_pcp[1] == 0 && prof.rewr_pcp[3] == 3,
		  "prio_dscp and prio_pcp parse, ranges of priorities included");
	tap_check(!load_rewr("prio_dscp = none\n") && prof.has_rewr_dscp && !prof.rewr_dscp_set &&
		  !prof.has_rewr_pcp, "'none' declares an empty DSCP table, PCP left alone");
	tap_check(load_rewr("prio_dscp = 3:26 3:24\n") && has_code("duplicate-prio"),
		  "a priority given twice is an error");
	tap_check(load_rewr("prio_pcp = 3:3de\n") && has_code("bad-value"),
		  "PCP with DEI is refused (values 0-7 only)");
	tap_check(load_rewr("prio_dscp = 3:26 none\n") && has_code("bad-value"),
		  "'none' with entries is an error");
	tap_check(load_rewr("prio_dscp = 7-3:1\n") && has_code("bad-value"),
		  "a reversed range is an error");
	tap_check(!load("[match]\nnetdev = dcb*\n[trust]\nmode = dscp\ndscp_prio = default\n"
			"[rdma_cm]\ntos = 106\n[rewrite]\nprio_dscp = 3:26 1:40\n") &&
		  has_code("rewrite-dscp-remapped") && diags.nerr == 0,
		  "a DSCP that dscp_prio maps to another priority is a warning");
	tap_check(load("[match]\nnetdev = dcb*\n[trust]\nmode = dscp\ndscp_prio = default\n"
		       "[rdma_cm]\ntos = 106\n[rewrite]\nprio_dscp = 3:24\n") &&
		  has_code("rewrite-roce-dscp"), "RoCE's priority rewritten to another DSCP is an error");
}

static void test_plan_apply_rollback(void)
{
	static struct rtune_link v, saved;
	struct rtune_touched touched = { { 0 } };
	struct rtune_plan pl, rb = { 0 };
	struct rtune_target t;
	struct rtune_setting s[4];
	char buf[256];
	int n;

	load_rewr("prio_dscp = 3:26 6:48\nprio_pcp = 3:3\n");
	fresh(&v);
	v.dcb.rewr_dscp[3] = 1ull << 24;	/* stale: 3 -> 24 */
	v.dcb.rewr_dscp[1] = 1ull << 10;	/* undeclared: 1 -> 10 */
	v.dcb.rewr_pcp[5] = 1u << 5;		/* undeclared PCP */
	saved = v;
	n = plan1(&v, &pl);
	tap_check(n == 2 && !strcmp(act_name(&pl.a[0]), "rewrite-del") &&
		  !strcmp(act_name(&pl.a[1]), "rewrite-add"), "delete first, then add (got %d)", n);
	act_describe(&pl.a[0], buf, sizeof(buf));
	tap_check(!strcmp(buf, "rewrite del prio-dscp 1:10 3:24, prio-pcp 5:5"), "del: %s", buf);
	act_describe(&pl.a[1], buf, sizeof(buf));
	tap_check(!strcmp(buf, "rewrite add prio-dscp 3:26 6:48, prio-pcp 3:3"), "add: %s", buf);
	n = act_settings(&pl.a[1], s, 4);
	tap_check(n == 2 && !strcmp(s[0].name, "rewrite.prio_dscp") && !strcmp(s[0].cur, "none") &&
		  !strcmp(s[0].want, "3:26 6:48") && !strcmp(s[1].name, "rewrite.prio_pcp") &&
		  !strcmp(s[1].want, "3:3"), "settings: %s %s -> %s", s[0].name, s[0].cur, s[0].want);
	run(&v, &pl, &touched);
	plan_free(&pl);
	tap_check(v.dcb.rewr_dscp[3] == 1ull << 26 && v.dcb.rewr_dscp[6] == 1ull << 48 &&
		  !v.dcb.rewr_dscp[1] && v.dcb.rewr_pcp[3] == 1u << 3 && !v.dcb.rewr_pcp[5],
		  "after the plan the table is the declared one");
	tap_check(plan1(&v, &pl) == 0, "a second plan is empty (idempotent)");
	plan_free(&pl);

	target_from_state(&saved, &touched, &t);
	plan_device(&v, 0, &t, &rb);
	run(&v, &rb, NULL);
	tap_check(!memcmp(v.dcb.rewr_dscp, saved.dcb.rewr_dscp, sizeof(saved.dcb.rewr_dscp)) &&
		  !memcmp(v.dcb.rewr_pcp, saved.dcb.rewr_pcp, sizeof(saved.dcb.rewr_pcp)),
		  "the rollback plan restores the saved table exactly (%d actions)", rb.n);
	plan_free(&rb);

	/* from an empty table: rollback deletes everything again */
	fresh(&v);
	saved = v;
	memset(&touched, 0, sizeof(touched));
	plan1(&v, &pl);
	run(&v, &pl, &touched);
	plan_free(&pl);
	target_from_state(&saved, &touched, &t);
	memset(&rb, 0, sizeof(rb));
	plan_device(&v, 0, &t, &rb);
	tap_check(rb.n == 1 && !strcmp(act_name(&rb.a[0]), "rewrite-del"),
		  "rollback to an empty table is one delete");
	run(&v, &rb, NULL);
	tap_check(!memcmp(&v.dcb, &saved.dcb, sizeof(v.dcb)), "... and leaves the table empty");
	plan_free(&rb);
}

static void test_partial_keys(void)
{
	static struct rtune_link v;
	struct rtune_plan pl;

	load_rewr("prio_pcp = 3:3\n");
	fresh(&v);
	v.dcb.rewr_dscp[1] = 1ull << 10;
	plan1(&v, &pl);
	run(&v, &pl, NULL);
	plan_free(&pl);
	tap_check(v.dcb.rewr_dscp[1] == 1ull << 10 && v.dcb.rewr_pcp[3] == 1u << 3,
		  "prio_pcp alone leaves the DSCP entries alone");
	load_rewr("prio_dscp = none\n");
	plan1(&v, &pl);
	run(&v, &pl, NULL);
	tap_check(pl.n == 1 && !v.dcb.rewr_dscp[1] && v.dcb.rewr_pcp[3] == 1u << 3,
		  "prio_dscp = none deletes the DSCP entries only");
	plan_free(&pl);
}

static void test_no_table(void)
{
	static struct rtune_link v;
	struct rtune_plan pl;
	int n;

	load_rewr("prio_dscp = 3:26\n");
	fresh(&v);
	v.dcb.has_rewr = false;
	n = plan1(&v, &pl);
	tap_check(n == 0 && pl.nerr == 1 && pl.nnotes == 1 &&
		  !strcmp(pl.notes[0].code, "no-rewrite") &&
		  strstr(pl.notes[0].msg, "Linux < 6.3"),
		  "no rewrite table: a blocking note naming the kernel feature, no action");
	plan_free(&pl);
	load("[match]\nnetdev = dcb*\n[pfc]\npriorities = 3\n");
	v.dcb.has_pfc = true;
	plan1(&v, &pl);
	tap_check(pl.nerr == 0, "a profile without [rewrite] does not need the table");
	plan_free(&pl);
}

static void test_encode(void)
{
	const struct dcb_app e[] = {
		{ IEEE_8021QAZ_APP_SEL_DSCP, 3, 26 },
		{ RTUNE_DCB_APP_SEL_PCP, 3, 3 },
	};
	struct nl_msg *m = dcb_msg_rewr("dcb0", false, e, 2);
	struct nlattr *nest, *tab, *a;
	int rem, n = 0, ok = 1;

	tap_check(m && ((struct dcbmsg *)nlmsg_data(nlmsg_hdr(m)))->cmd == DCB_CMD_IEEE_DEL &&
		  nlmsg_hdr(m)->nlmsg_type == RTM_SETDCB, "a delete is RTM_SETDCB/IEEE_DEL");
	nest = m ? nlmsg_find_attr(nlmsg_hdr(m), sizeof(struct dcbmsg), DCB_ATTR_IEEE) : NULL;
	tab = nest ? nla_find(nla_data(nest), nla_len(nest), RTUNE_DCB_ATTR_DCB_REWR_TABLE) : NULL;
	if (tab) {
		nla_for_each_nested(a, tab, rem) {
			if (n < 2 && nla_len(a) == sizeof(e[n]))
				ok &= !memcmp(nla_data(a), &e[n], sizeof(e[n])) &&
				      nla_type(a) == (n ? RTUNE_DCB_ATTR_DCB_APP : DCB_ATTR_IEEE_APP);
			else
				ok = 0;
			n++;
		}
	}
	tap_check(tab && n == 2 && ok,
		  "DCB_ATTR_DCB_REWR_TABLE: DSCP as IEEE_APP, PCP as DCB_APP, in order");
	nlmsg_free(m);
	m = dcb_msg_rewr("dcb0", true, e, 0);
	tap_check(!m, "no message for no entries (an empty table is never sent)");
}

static void test_parse_reply(void)
{
	struct rtune_dcb d;
	struct nl_msg *m = nlmsg_alloc_simple(RTM_GETDCB, 0);
	struct dcbmsg dm = { .dcb_family = AF_UNSPEC, .cmd = DCB_CMD_IEEE_GET };
	struct dcb_app dscp = { IEEE_8021QAZ_APP_SEL_DSCP, 3, 26 };
	struct dcb_app pcp = { RTUNE_DCB_APP_SEL_PCP, 6, 11 };
	struct dcb_app other = { IEEE_8021QAZ_APP_SEL_ETHERTYPE, 2, 0x8915 };
	struct nlattr *ie, *tab;

	nlmsg_append(m, &dm, sizeof(dm), NLMSG_ALIGNTO);
	ie = nla_nest_start(m, DCB_ATTR_IEEE);
	tab = nla_nest_start(m, RTUNE_DCB_ATTR_DCB_REWR_TABLE);
	nla_put(m, DCB_ATTR_IEEE_APP, sizeof(dscp), &dscp);
	nla_put(m, RTUNE_DCB_ATTR_DCB_APP, sizeof(pcp), &pcp);
	nla_put(m, DCB_ATTR_IEEE_APP, sizeof(other), &other);
	nla_nest_end(m, tab);
	nla_nest_end(m, ie);
	memset(&d, 0, sizeof(d));
	tap_check(!dcb_parse_get(nlmsg_hdr(m), &d) && d.has_rewr &&
		  d.rewr_dscp[3] == 1ull << 26 && d.rewr_pcp[6] == 1u << 11 && d.n_other_rewr == 1,
		  "reply: DSCP and PCP (with DEI) entries read, another selector counted");
	nlmsg_free(m);

	m = nlmsg_alloc_simple(RTM_GETDCB, 0);
	nlmsg_append(m, &dm, sizeof(dm), NLMSG_ALIGNTO);
	ie = nla_nest_start(m, DCB_ATTR_IEEE);
	nla_nest_end_keep_empty(m, ie);
	memset(&d, 0, sizeof(d));
	tap_check(!dcb_parse_get(nlmsg_hdr(m), &d) && !d.has_rewr,
		  "reply without the table (Linux < 6.3): has_rewr false");
	nlmsg_free(m);
}

int main(void)
{
	test_parse();
	test_plan_apply_rollback();
	test_partial_keys();
	test_no_table();
	test_encode();
	test_parse_reply();
	return tap_done();
}
