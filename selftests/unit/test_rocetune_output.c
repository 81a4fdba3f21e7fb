// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for what rocetune prints: `show` (text and JSON), plans,
 * apply results and rollbacks (text and JSON), and the diagnostics of every
 * bad profile, for hand-built device states, compared byte for byte with
 * the files in data/rocetune_output/. Scripts and people parse this output
 * (rocetune(8) documents the JSON), so a change must be deliberate: the
 * golden files were written by the code before the one-file-per-object
 * restructuring, and are regenerated only for an intended change
 * (ROCETUNE_GOLDEN_WRITE=1, then review the diff).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/output.h"

static const char lossless[] =
	"[match]\nnetdev = dcb* eth*\n[link]\nmtu = 4200\n[trust]\nmode = dscp\ndscp_prio = default\n"
	"[pfc]\npriorities = 3\n[ets]\nprio_tc = 0 0 0 3 0 0 6 0\n"
	"tsa = ets strict strict ets strict strict strict strict\nbw = 50 0 0 50 0 0 0 0\n"
	"[rdma_cm]\nroce_mode = v2\ntos = 106\n[cc]\npreset = connectx\necn_enabled_prios = 3\n"
	"rp_enabled_prios = 3\nnp_enabled_prios = 3\n";

static const char *datadir(void)
{
	const char *d = getenv("ROCETUNE_TEST_DATA");

	return d ? d : "data";
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(1 << 20);
	*len = buf ? fread(buf, 1, 1 << 20, f) : 0;
	fclose(f);
	return buf;
}

/* Compare @got with data/rocetune_output/@name (or write it). */
static void golden(const char *name, const char *got, size_t len)
{
	char path[512];
	size_t elen = 0, i;
	char *exp;

	snprintf(path, sizeof(path), "%s/rocetune_output/%s", datadir(), name);
	if (getenv("ROCETUNE_GOLDEN_WRITE")) {
		FILE *f = fopen(path, "w");

		tap_check(f && fwrite(got, 1, len, f) == len && !fclose(f), "%s written", name);
		return;
	}
	exp = slurp(path, &elen);
	if (!exp) {
		tap_check(0, "%s: golden file readable", name);
		return;
	}
	for (i = 0; i < len && i < elen && got[i] == exp[i]; i++)
		;
	if (!tap_check(len == elen && i == len, "%s: output byte-identical to the golden file (%zu bytes)",
		       name, elen)) {
		size_t s = i > 60 ? i - 60 : 0;

		tap_diag("first difference at byte %zu", i);
		tap_diag("expected: %.*s", (int)(elen - s < 160 ? elen - s : 160), exp + s);
		tap_diag("got:      %.*s", (int)(len - s < 160 ? len - s : 160), got + s);
	}
	free(exp);
}

static struct rtune_host host, saved;
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

/* dcb0: everything present and configured; eth1: no DCB, no RDMA;
 * dcb2: DCB without PFC/ETS/APP, RDMA without rdma_cm and rocetune.ko;
 * dcb3: like dcb0 without the APP trust table and one CC parameter. */
static void mkhost(void)
{
	struct rtune_link *v;
	int d;

	memset(&host, 0, sizeof(host));
	host.n = 4;
	v = &host.dev[0];
	strcpy(v->netdev, "dcb0");
	v->ifindex = 5;
	v->link_ok = true;
	v->mtu = 1500;
	v->dcb.ok = v->dcb.has_pfc = v->dcb.has_ets = v->dcb.has_app = v->dcb.has_dcbx = true;
	v->dcb.pfc.pfc_cap = 8;
	v->dcb.pfc.pfc_en = 0x09;
	v->dcb.pfc.delay = 4096;
	v->pfc_storm_ms = 8000;
	v->dcb.ets.willing = 1;
	v->dcb.ets.prio_tc[7] = 7;
	v->dcb.ets.tc_tsa[0] = 2;
	v->dcb.ets.tc_tsa[7] = 255;
	v->dcb.ets.tc_tx_bw[0] = 100;
	for (d = 8; d < 16; d++)
		v->dcb.dscp_prios[d] = 1u << 1;
	v->dcb.dscp_prios[26] = (1u << 3) | (1u << 5);
	v->dcb.n_other_app = 2;
	v->dcb.has_trust = true;
	v->dcb.ntrust = 2;
	v->dcb.trust[0] = RTUNE_DCB_APP_SEL_PCP;
	v->dcb.trust[1] = 3;
	v->dcb.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	v->has_ib = true;
	strcpy(v->ibdev, "rxe0");
	v->port = 1;
	v->cm_ok = true;
	v->roce_mode = 1;
	v->tos = 0;
	v->cc_ok = true;
	strcpy(v->cc_backend, "rxe-sw");
	v->cc = rtune_preset_lookup("paper", 5)->set;
	v->cc_valid = (1u << RTUNE_P_COUNT) - 1;

	v = &host.dev[1];
	strcpy(v->netdev, "eth1");
	v->ifindex = 6;
	v->link_ok = true;
	v->pfc_storm_err = -EOPNOTSUPP;
	v->mtu = 9000;
	v->dcb.err = 95;

	v = &host.dev[2];
	strcpy(v->netdev, "dcb2");
	v->ifindex = 7;
	v->link_ok = true;
	v->mtu = 4200;
	v->dcb.ok = true;
	v->has_ib = true;
	strcpy(v->ibdev, "mlx5_0");
	v->port = 2;

	v = &host.dev[3];
	*v = host.dev[0];
	strcpy(v->netdev, "dcb3");
	v->ifindex = 8;
	strcpy(v->ibdev, "rxe3");
	v->dcb.has_trust = false;
	v->dcb.pfc.pfc_en = 0x08;
	v->roce_mode = 0;
	v->tos = 106;
	v->cc_valid &= ~(1u << 2);
}

typedef void (*render_fn)(FILE *f, const struct rtune_plan *pl, const struct rtune_apply_result *r);

static void render(const char *name, render_fn fn, const struct rtune_plan *pl,
		   const struct rtune_apply_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, pl, r);
	fclose(f);
	golden(name, buf, len);
	free(buf);
}

static void r_state_text(FILE *f, const struct rtune_plan *pl, const struct rtune_apply_result *r)
{
	(void)pl;
	(void)r;
	out_state_text(f, &host);
}

static void r_state_json(FILE *f, const struct rtune_plan *pl, const struct rtune_apply_result *r)
{
	struct jw j;

	(void)pl;
	(void)r;
	jw_init(&j, f);
	jw_obj(&j, NULL);
	out_state_json(&j, "state", &host);
	jw_end_obj(&j);
}

static void r_plan_text(FILE *f, const struct rtune_plan *pl, const struct rtune_apply_result *r)
{
	out_plan_text(f, &host, pl, r != NULL);
	if (r)
		out_rollback_text(f, &host, r);
}

static void r_plan_json(FILE *f, const struct rtune_plan *pl, const struct rtune_apply_result *r)
{
	static const struct rtune_apply_result none = { .failed = -1 };
	struct jw j;

	jw_init(&j, f);
	jw_obj(&j, NULL);
	out_devices_json(&j, &host, pl, r != NULL);
	out_rollback_json(&j, &host, r ? r : &none);
	jw_end_obj(&j);
}

static void test_state(void)
{
	mkhost();
	render("show.txt", r_state_text, NULL, NULL);
	render("show.json", r_state_json, NULL, NULL);
}

/* The rollback target for what @pl touched on device @i. */
static void restore_target(const struct rtune_plan *pl, int i, struct rtune_target *t)
{
	struct rtune_touched touched = { { 0 } };
	int k;

	for (k = 0; k < pl->n; k++)
		if (pl->a[k].dev == i)
			plan_touch(&touched, &pl->a[k]);
	target_from_state(&saved.dev[i], &touched, t);
}

static void test_plan(void)
{
	struct rtune_plan pl = { 0 };
	struct rtune_apply_result r = { .failed = -1 };
	struct rtune_target t;
	int i, k;

	mkhost();
	saved = host;
	load(lossless);
	plan_owner_dcbx(&host.dev[0], 0, false, &pl);
	plan_note(&pl, -1, RTUNE_SEV_WARNING, "host-note", "a note about the host");
	for (i = 0; i < host.n; i++) {
		target_from_profile(&prof, &host.dev[i], i, &t, &pl);
		plan_device(&host.dev[i], i, &t, &pl);
	}
	render("plan.txt", r_plan_text, &pl, NULL);
	render("plan.json", r_plan_json, &pl, NULL);

	/* as if executed: all applied up to the fifth action, which failed */
	for (k = 0; k < pl.n; k++) {
		pl.a[k].done = k < 4;
		if (k == 4) {
			pl.a[k].err = -5;
			snprintf(pl.a[k].why, sizeof(pl.a[k].why), "read-back MTU is %u", 1500u);
		}
	}
	r.failed = 4;
	r.rollback_attempted = true;
	/* the host as the applied part left it: dcb0 with the new DCB */
	host.dev[0].dcb.ets.willing = 0;
	memcpy(host.dev[0].dcb.ets.prio_tc, prof.prio_tc, 8);
	memcpy(host.dev[0].dcb.ets.tc_tsa, prof.tc_tsa, 8);
	memcpy(host.dev[0].dcb.ets.tc_tx_bw, prof.tc_bw, 8);
	host.dev[0].dcb.pfc.pfc_en = 0x08;
	for (k = 0; k < 64; k++)
		host.dev[0].dcb.dscp_prios[k] |= (uint8_t)(1u << (k >> 3));
	restore_target(&pl, 0, &t);
	plan_device(&host.dev[0], 0, &t, &r.rb);
	for (k = 0; k < r.rb.n; k++) {
		r.rb.a[k].done = k != 1;
		if (k == 1) {
			r.rb.a[k].err = -22;
			snprintf(r.rb.a[k].why, sizeof(r.rb.a[k].why), "Invalid argument");
		}
	}
	render("apply-failed.txt", r_plan_text, &pl, &r);
	render("apply-failed.json", r_plan_json, &pl, &r);
	plan_free(&pl);
	plan_free(&r.rb);
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every bad profile's diagnostics, as `rocetune check` prints them. */
static void test_diags(void)
{
	static struct rtune_profile p;
	static struct rtune_diags d;
	char dir[512], path[1024], *names[128];
	char *buf = NULL;
	size_t len = 0;
	struct dirent *de;
	FILE *f = open_memstream(&buf, &len);
	DIR *dd;
	int n = 0, i;

	snprintf(dir, sizeof(dir), "%s/profiles/bad", datadir());
	dd = opendir(dir);
	while (dd && (de = readdir(dd)) && n < 128)
		if (strstr(de->d_name, ".conf"))
			names[n++] = strdup(de->d_name);
	if (dd)
		closedir(dd);
	qsort(names, (size_t)n, sizeof(*names), cmpstr);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "profiles/bad/%s", names[i]);
		memset(&d, 0, sizeof(d));
		{
			char full[1200];

			snprintf(full, sizeof(full), "%s/%s", datadir(), path);
			if (profile_parse_file(full, &p, &d) == 0)
				profile_validate(&p, &d);
		}
		for (int k = 0; k < d.n; k++) {
			/* the file name without the data directory */
			char *s = strstr(d.d[k].file, "profiles/bad/");

			if (s)
				memmove(d.d[k].file, s, strlen(s) + 1);
		}
		diag_print(&d, f);
		free(names[i]);
	}
	fclose(f);
	tap_check(n >= 30, "%d bad profiles", n);
	golden("bad-profiles.txt", buf, len);
	free(buf);
}

int main(void)
{
	test_state();
	test_plan();
	test_diags();
	return tap_done();
}
