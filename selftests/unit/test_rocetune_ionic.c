// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for rocetune's ionic surface (surface_ionic.c) and the
 * kernel-log reader it depends on (kmsg.c): finding the profile that
 * match_default names and refusing when match_rules send QPs elsewhere,
 * the conversions of Documentation/hardware.rst (time_reset in
 * dce_tcp_rtt periods, Mb/s, G = 1024 - g, gd = shift + 10), refusals,
 * the snapshot value that cannot be written back, the matcher of the
 * driver's "dcqcn profile <N> not set" line (which must also say no),
 * and reading a log from a position on. The stores' firmware failures
 * themselves are tested against rocetune_hwsim.ko in a lab guest
 * (selftests/hwsim/ionic.sh): a plain file cannot log one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/kmsg.h"
#include "../../tools/rocetune/obj.h"
#include "../../tools/rocetune/surface.h"
#include "surface_fixture.h"

static const char *const names[19] = {
	"roce_np/icnp_802p_prio", "roce_np/cnp_dscp", "roce_rp/token_bucket_size",
	"roce_rp/initial_alpha_value", "roce_rp/dce_tcp_g", "roce_rp/dce_tcp_rtt",
	"roce_rp/rate_reduce_monitor_period", "roce_rp/rate_to_set_on_first_cnp",
	"roce_rp/min_rate", "roce_rp/gd", "roce_rp/min_dec_fac", "roce_rp/clamp_tgt_rate",
	"roce_rp/clamp_tgt_rate_ati", "roce_rp/threshold", "roce_rp/time_reset",
	"roce_rp/qp_rate", "roce_rp/byte_reset", "roce_rp/ai_rate", "roce_rp/hai_rate",
};
/* the out-of-tree driver's defaults */
static const int start[19] = {
	6, 48, 4000000, 1023, 1019, 55, 4, 0, 1, 11, 50, 0, 1, 5, 5, 100000, 131068, 5, 50,
};
enum { PRIO, DSCP, TB, ALPHA, G, RTT, RRMP, FIRST, MINR, GD, MDF, CL, CLA, THR, TRST, QPR, BR,
       AI, HAI };

static char root[64], dcq[200], prof_dir[256];

static void put(const char *d, const char *name, const char *text)
{
	char p[400];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", d, name);
	f = fopen(p, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static int get(const char *name)
{
	char p[400], b[32] = "";
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", prof_dir, name);
	f = fopen(p, "r");
	if (!f || !fgets(b, sizeof(b), f))
		abort();
	fclose(f);
	return atoi(b);
}

static void put_all(void)
{
	char t[16];
	int i;

	for (i = 0; i < 19; i++) {
		snprintf(t, sizeof(t), "%d\n", start[i]);
		put(prof_dir, names[i], t);
	}
}

static void plan_for(const char *cc, const struct rtune_link *v, struct rtune_plan *pl)
{
	char text[512];
	struct rtune_target t;

	snprintf(text, sizeof(text), "[match]\nrdma_device = rxe0\n[cc]\n%s", cc);
	load(text);
	memset(pl, 0, sizeof(*pl));
	target_from_profile(&prof, v, 0, &t, pl);
	if (!pl->nerr)
		plan_device(v, 0, &t, pl);
}

static const char *describe(const struct rtune_plan *pl, char *buf, size_t len)
{
	buf[0] = '\0';
	if (pl->n == 1)
		act_describe(&pl->a[0], buf, len);
	return buf;
}

static bool m(const char *msg, const char *ibdev, int profile)
{
	return rtune_ionic_fw_failed(msg, strlen(msg), ibdev, profile);
}

static void matcher_tests(void)
{
	tap_check(m("ionic 0000:b5:00.0 ionic_0: dcqcn profile 1 not set, error -5", "ionic_0", 1),
		  "matcher: ibdev_warn() with a parent device");
	tap_check(m("ionic_0: dcqcn profile 2 not set, error -110", "ionic_0", 2),
		  "matcher: ibdev_warn() without one");
	tap_check(!m("ionic 0000:b5:00.0 ionic_1: dcqcn profile 1 not set, error -5", "ionic_0", 1),
		  "matcher: another device's failure is not ours");
	tap_check(!m("ionic 0000:b5:00.0 xionic_0: dcqcn profile 1 not set, error -5", "ionic_0", 1),
		  "matcher: a name that only ends in ours is not ours");
	tap_check(!m("ionic_0: dcqcn profile 12 not set, error -5", "ionic_0", 1) &&
		  !m("ionic_0: dcqcn profile 2 not set, error -5", "ionic_0", 1),
		  "matcher: another profile's failure (12, 2) is not profile 1's");
	tap_check(!m("ionic_0: dcqcn initialized 1 out of 2 profiles", "ionic_0", 1) &&
		  !m("ionic_0: dcqcn failed init, error -12", "ionic_0", 1) &&
		  !m("", "ionic_0", 1) && !m("ionic_0: dcqcn profile 1 not se", "ionic_0", 1),
		  "matcher: the driver's other lines, an empty and a cut message say no");
}

struct want {
	const char *ibdev;
	int prof;
};

static bool match_ionic(const char *text, size_t len, const void *arg)
{
	const struct want *w = arg;

	return rtune_ionic_fw_failed(text, len, w->ibdev, w->prof);
}

static void append(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");

	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static void kmsg_tests(void)
{
	static struct rtune_kmsg k;
	const struct want w = { "rxe0", 1 };
	char path[128], hit[128];
	const char *text;
	size_t tlen;
	int r, i;

	tap_check(rtune_kmsg_text("4,1203,99811,-;rxe0: hello", 26, &text, &tlen) &&
		  tlen == 11 && !strncmp(text, "rxe0: hello", 11) &&
		  !rtune_kmsg_text(" DEVICE=+ib:rxe0", 16, &text, &tlen) &&
		  !rtune_kmsg_text("no record here", 14, &text, &tlen),
		  "kmsg: a record's text is after the ';' of its prefix; others are not records");

	snprintf(path, sizeof(path), "%s/kmsg", root);
	append(path, "4,1,10,-;rocetune_hwsim hwsim-ionic rxe0: dcqcn profile 1 not set, error -5\n"
		     " SUBSYSTEM=infiniband\n");
	r = rtune_kmsg_open(&k, path);
	append(path, "4,2,11,-;rxe1: dcqcn profile 1 not set, error -5\n"
		     " DEVICE=+infiniband:rxe1\n"
		     "6,3,12,c;eth0: link up\n");
	tap_check(!r && rtune_kmsg_scan(&k, match_ionic, &w, hit, sizeof(hit)) == 0 && !hit[0],
		  "kmsg: a failure logged before the open, and another device's after, are not seen");
	append(path, "4,4,13,-;rocetune_hwsim hwsim-ionic rxe0: dcqcn profile 1 not set, error -5\n"
		     " SUBSYSTEM=infiniband\n DEVICE=+infiniband:rxe0\n");
	r = rtune_kmsg_scan(&k, match_ionic, &w, hit, sizeof(hit));
	tap_check(r == 1 && strstr(hit, "rxe0: dcqcn profile 1 not set, error -5"),
		  "kmsg: ours after the open is found (%d: %s)", r, hit);
	r = rtune_kmsg_scan(&k, match_ionic, &w, hit, sizeof(hit));
	tap_check(r == 0, "kmsg: and read once only (%d)", r);
	for (i = 0; i <= RTUNE_KMSG_MAX_RECORDS; i++)
		append(path, "6,5,14,-;eth0: chatter\n");
	r = rtune_kmsg_scan(&k, match_ionic, &w, hit, sizeof(hit));
	tap_check(r == -EOVERFLOW,
		  "kmsg: more records than a scan reads is an unknown answer, not a no (%d)", r);
	rtune_kmsg_close(&k);
	snprintf(path, sizeof(path), "%s/nonexistent", root);
	tap_check(rtune_kmsg_open(&k, path) == -ENOENT, "kmsg: a log that cannot be opened says so");
}

/* The tree the out-of-tree driver makes, two profiles, match_default @def. */
static void tree(const char *def, const char *rules)
{
	char p[400];
	int n;

	snprintf(dcq, sizeof(dcq), "%s/rxe0", root);
	mkdir(dcq, 0700);
	snprintf(dcq, sizeof(dcq), "%s/rxe0/dcqcn", root);
	mkdir(dcq, 0700);
	snprintf(p, sizeof(p), "%s/profiles", dcq);
	mkdir(p, 0700);
	for (n = 2; n >= 1; n--) {
		snprintf(prof_dir, sizeof(prof_dir), "%s/profiles/%d", dcq, n);
		mkdir(prof_dir, 0700);
		snprintf(p, sizeof(p), "%s/roce_np", prof_dir);
		mkdir(p, 0700);
		snprintf(p, sizeof(p), "%s/roce_rp", prof_dir);
		mkdir(p, 0700);
		put_all();
	}
	put(dcq, "match_default", def);
	put(dcq, "match_rules", rules);
}

static void surface_tests(void)
{
	const struct rtune_surface *sf = &rtune_surface_ionic;
	struct rtune_link v, s;
	struct rtune_plan pl;
	char buf[1024], kmsg[128];
	uint32_t mask;
	int r;

	setenv(RTUNE_ENV_TEST_SYSFS_IB, root, 1);
	setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=ionic/rxe0", 1);
	tree("0\n", "");
	dev(&v);
	surface_why(&v, buf, sizeof(buf));
	tap_check(v.hw.sf == sf && !v.cc_ok && strstr(buf, "match_default is 0") &&
		  strstr(buf, "none of its profiles"),
		  "match_default 0 (the driver's start): no profile to drive, and why: %s", buf);
	put(dcq, "match_default", "1\n");
	dev(&v);
	tap_check(v.cc_ok && v.hw.sel == 1 && strstr(v.hw.dir, "/rxe0/dcqcn/profiles/1") &&
		  v.hw.raw_valid == (1u << 19) - 1 && !strcmp(v.cc_backend, "ionic-sysfs") &&
		  !strcmp(v.hw.id, "rxe0"),
		  "match_default 1: profiles/1/ under <sysfs ib>/rxe0/dcqcn, its 19 files read");
	tap_check(v.cc.v[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS] == 5000 &&
		  v.cc.v[RTUNE_P_RP_HYPER_INCREASE_KBPS] == 50000 &&
		  v.cc.v[RTUNE_P_RP_MIN_RATE_KBPS] == 1000 &&
		  v.cc.v[RTUNE_P_RP_ALPHA_GAIN_1024THS] == 5 &&
		  v.cc.v[RTUNE_P_RP_RATE_CUT_SHIFT] == 1 &&
		  v.cc.v[RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US] == 55 &&
		  v.cc.v[RTUNE_P_RP_RATE_INCREASE_TIMER_US] == 275 &&
		  v.cc.v[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS] == 0 &&
		  v.cc.v[RTUNE_P_NP_CNP_PRIO] == 6 && v.cc.v[RTUNE_P_NP_CNP_DSCP] == 48 &&
		  v.cc.v[RTUNE_P_RP_FAST_RECOVERY_STAGES] == 5,
		  "Mb/s -> kb/s, G 1019 -> g 5, gd 11 -> shift 1, time_reset 5 x rtt 55 -> 275 us");
	tap_check(!(v.cc_valid & (1u << RTUNE_P_RP_MAX_RATE_KBPS)) &&
		  !(v.cc_valid & (1u << RTUNE_P_NP_MIN_CNP_INTERVAL_US)) &&
		  !(v.cc_valid & (1u << RTUNE_P_RP_ENABLED_PRIOS)),
		  "parameters ionic has no file for are not read");

	plan_for("rp_additive_increase_kbps = 40000\nnp_cnp_dscp = 46\n", &v, &pl);
	describe(&pl, buf, sizeof(buf));
	tap_check(pl.nerr == 0 && strstr(buf, "cc (ionic rxe0 profile 1)") &&
		  strstr(buf, "roce_rp/ai_rate 5 -> 40") && strstr(buf, "roce_np/cnp_dscp 48 -> 46"),
		  "a plan names the profile and writes Mb/s: %s", buf);
	plan_free(&pl);
	plan_for("rp_rate_increase_timer_us = 550\n", &v, &pl);
	tap_check(pl.nerr == 0 && strstr(describe(&pl, buf, sizeof(buf)), "time_reset 5 -> 10"),
		  "the timer in dce_tcp_rtt periods: 550 us = 10 x 55: %s", buf);
	plan_free(&pl);
	plan_for("rp_rate_increase_timer_us = 300\n", &v, &pl);
	tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "not a whole number of them"),
		  "a timer that is not a multiple of dce_tcp_rtt is refused");
	plan_free(&pl);
	plan_for("rp_alpha_update_period_us = 11\n", &v, &pl);
	describe(&pl, buf, sizeof(buf));
	tap_check(pl.nerr == 0 && strstr(buf, "dce_tcp_rtt 55 -> 11") &&
		  strstr(buf, "time_reset 5 -> 25"),
		  "a new alpha period alone keeps the timer's 275 us (time_reset 25): %s", buf);
	plan_free(&pl);
	plan_for("rp_alpha_update_period_us = 50\n", &v, &pl);
	tap_check(pl.nerr == 1 && pl.n == 0 &&
		  note(&pl, "cc-unsupported", "set rp_rate_increase_timer_us too"),
		  "one that cannot keep it (275 / 50) is refused, nothing planned");
	plan_free(&pl);
	plan_for("rp_alpha_update_period_us = 50\nrp_rate_increase_timer_us = 500\n", &v, &pl);
	describe(&pl, buf, sizeof(buf));
	tap_check(pl.nerr == 0 && strstr(buf, "dce_tcp_rtt 55 -> 50") &&
		  strstr(buf, "time_reset 5 -> 10"),
		  "with the timer set too, both convert: %s", buf);
	plan_free(&pl);

	plan_for("rp_rate_on_first_cnp_kbps = 0\n", &v, &pl);
	tap_check(pl.nerr == 0 && pl.n == 0, "rate_to_set_on_first_cnp 0 matching 0: nothing to do");
	plan_free(&pl);
	plan_for("rp_rate_on_first_cnp_kbps = 100000\n", &v, &pl);
	describe(&pl, buf, sizeof(buf));
	tap_check(pl.nerr == 0 && strstr(buf, "rate_to_set_on_first_cnp 0 -> 100") &&
		  note(&pl, "cc-not-restorable", "cannot be written back"),
		  "changing it from 0 warns that a rollback cannot set 0 back: %s", buf);
	plan_free(&pl);
	put(prof_dir, names[FIRST], "100\n");
	dev(&v);
	plan_for("rp_rate_on_first_cnp_kbps = 0\n", &v, &pl);
	tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "takes 1..2147483647 only"),
		  "setting it to 0 from 100 is refused (the store takes 1..)");
	plan_free(&pl);
	put(prof_dir, names[FIRST], "0\n");
	dev(&v);

	{
		static const struct {
			const char *cc, *why;
		} bad[] = {
			{ "rp_byte_counter_bytes = 0\n", "0 (byte counter off) has no equivalent" },
			{ "rp_max_rate_kbps = 0\n", "qp_rate" },
			{ "np_min_cnp_interval_us = 4\n", "pacing of the CNPs" },
			{ "rp_enabled_prios = 3\n", "no per-priority switch" },
			{ "rp_rate_cut_shift = 2\n", "shift 0..1" },
			{ "rp_initial_alpha_1024ths = 1024\n", "0..1023" },
			{ "rp_rate_reduce_period_us = 0\n", "cut on every CNP" },
			{ "rp_min_rate_kbps = 1500\n", "whole Mb/s" },
		};
		size_t i;
		int ok = 1;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			plan_for(bad[i].cc, &v, &pl);
			if (pl.nerr != 1 || pl.n || !note(&pl, "cc-unsupported", bad[i].why)) {
				tap_diag("not refused as expected: %s", bad[i].cc);
				ok = 0;
			}
			plan_free(&pl);
		}
		tap_check(ok, "8 values ionic cannot take are refused with the reason, nothing planned");
	}
	plan_for("rp_initial_alpha_1024ths = 0\n", &v, &pl);
	tap_check(pl.nerr == 0 && strstr(describe(&pl, buf, sizeof(buf)), "initial_alpha_value 1023 -> 0"),
		  "initial alpha 0 is ionic's to take (0..1023, unlike mlx5's 1..)");
	plan_free(&pl);

	put(dcq, "match_rules", "prio 12 1\ngid 3 1\n");
	dev(&v);
	plan_for("np_cnp_dscp = 46\n", &v, &pl);
	tap_check(v.cc_ok && pl.nerr == 0, "rules that all name match_default's profile are fine");
	plan_free(&pl);
	put(dcq, "match_rules", "prio 12 1\ngid 3 2\n");
	dev(&v);
	plan_for("np_cnp_dscp = 46\n", &v, &pl);
	tap_check(v.cc_ok && pl.nerr == 1 && pl.n == 0 &&
		  note(&pl, "cc-unsupported", "match_rules gives QPs \"gid 3\" profile 2"),
		  "a rule sending QPs to another profile: readable, not written");
	plan_free(&pl);
	put(dcq, "match_rules", "prio twelve 1\n");
	dev(&v);
	surface_why(&v, buf, sizeof(buf));
	tap_check(!v.cc_ok && v.hw.err == -EPROTO && strstr(buf, "match_rules"),
		  "match_rules that do not read as rules: unavailable, and why: %s", buf);
	put(dcq, "match_rules", "");
	put(dcq, "match_default", "2\n");
	dev(&v);
	tap_check(v.cc_ok && v.hw.sel == 2 && strstr(v.hw.dir, "/profiles/2"),
		  "match_default 2: profiles/2/");
	put(dcq, "match_default", "1\n");
	snprintf(prof_dir, sizeof(prof_dir), "%s/profiles/1", dcq);

	/* writes: the kernel log is read after each */
	dev(&v);
	plan_for("rp_additive_increase_kbps = 40000\n", &v, &pl);
	snprintf(kmsg, sizeof(kmsg), "%s/nonexistent", root);
	setenv("ROCETUNE_TEST_KMSG", kmsg, 1);
	r = pl.n == 1 ? surface_apply(&v, &pl.a[0]) : 0;
	tap_check(r == -ENOENT && strstr(pl.a[0].why, "cannot read the kernel log") &&
		  get(names[AI]) == 5,
		  "no kernel log to read: nothing written: %s", pl.a[0].why);
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", root);
	setenv("ROCETUNE_TEST_KMSG", kmsg, 1);
	r = pl.n == 1 ? surface_apply(&v, &pl.a[0]) : -1;
	tap_check(r == 0 && get(names[AI]) == 40, "with a quiet log: written and read back (%d)", r);
	plan_free(&pl);

	/* a rollback to rate_to_set_on_first_cnp 0 and ai_rate 10 (plain files
	 * are not truncated by a write, as sysfs files are: same width) */
	dev(&s);
	s.hw.raw[FIRST] = 0;
	s.hw.raw[AI] = 10;
	put(prof_dir, names[FIRST], "100\n");
	dev(&v);
	{
		struct rtune_link want = v;

		surface_restore(&s, &want, &mask);
		memset(&pl, 0, sizeof(pl));
		surface_plan(&v, 0, &want, mask, &pl);
	}
	r = pl.n == 1 ? surface_apply(&v, &pl.a[0]) : -1;
	tap_check(r == -ERANGE && get(names[AI]) == 10 && get(names[FIRST]) == 100 &&
		  strstr(pl.a[0].why, "not restorable: roce_rp/rate_to_set_on_first_cnp stays 100, not 0"),
		  "a rollback restores ai_rate, and reports rate_to_set_on_first_cnp not restorable: %s",
		  pl.n ? pl.a[0].why : "");
	plan_free(&pl);
	unsetenv("ROCETUNE_TEST_KMSG");
	unsetenv(RTUNE_ENV_TEST_SURFACE);
	unsetenv(RTUNE_ENV_TEST_SYSFS_IB);
}

int main(void)
{
	char cmd[128];

	tap_plan(6 + 6 + 22);
	snprintf(root, sizeof(root), "/tmp/rtune-ionic.XXXXXX");
	if (!mkdtemp(root))
		abort();
	matcher_tests();
	kmsg_tests();
	surface_tests();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		tap_diag("could not remove %s", root);
	return tap_done();
}
