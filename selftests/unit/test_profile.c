// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the rocetune.conf(5) parser and validator: the
 * example profiles parse clean, every file in data/profiles/bad fails with
 * the error its "# expect: CODE LINE [KEY]" header names, and the messages
 * carry file, line, key, valid values and near-miss suggestions.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/expect.h"
#include "../../tools/rocetune/profile.h"

static const char *datadir(void)
{
	const char *d = getenv("ROCETUNE_TEST_DATA");

	return d ? d : "data/profiles";
}

static const char *examples(void)
{
	const char *d = getenv("ROCETUNE_EXAMPLES");

	return d ? d : "../../profiles";
}

static int parse(const char *text, struct rtune_profile *p, struct rtune_diags *d)
{
	memset(d, 0, sizeof(*d));
	if (profile_parse_text("t.conf", text, strlen(text), p, d))
		return -1;
	return profile_validate(p, d);
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_dir(const char *dir, char **names, int max)
{
	DIR *dd = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!dd)
		return 0;
	while ((de = readdir(dd)) && n < max)
		if (strstr(de->d_name, ".conf"))
			names[n++] = strdup(de->d_name);
	closedir(dd);
	qsort(names, (size_t)n, sizeof(*names), cmpstr);
	return n;
}

static void test_corpus_bad(void)
{
	static struct rtune_profile p;
	static struct rtune_diags d;
	char dir[512], *names[128];
	int n, i;

	snprintf(dir, sizeof(dir), "%s/bad", datadir());
	n = list_dir(dir, names, 128);
	tap_check(n >= 30, "bad-profile corpus has %d files (>= 30)", n);
	for (i = 0; i < n; i++) {
		char path[1024], line[256], code[64] = "", key[64] = "";
		int eline = -1, ok;
		const struct rtune_diag *e = NULL;
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		f = fopen(path, "r");
		if (!f || !fgets(line, sizeof(line), f) ||
		    sscanf(line, "# expect: %63s %d %63s", code, &eline, key) < 2) {
			tap_check(0, "%s: has an '# expect:' header", names[i]);
			if (f)
				fclose(f);
			free(names[i]);
			continue;
		}
		fclose(f);
		memset(&d, 0, sizeof(d));
		if (profile_parse_file(path, &p, &d) == 0)
			profile_validate(&p, &d);
		for (int k = 0; k < d.n; k++)
			if (d.d[k].sev == RTUNE_SEV_ERROR) {
				e = &d.d[k];
				break;
			}
		ok = e && !strcmp(e->code, code) && e->line == eline &&
		     (!key[0] || !strcmp(e->key, key)) && !strcmp(e->file, path);
		if (!tap_check(ok, "%s fails with %s at line %d%s%s", names[i], code, eline,
			       key[0] ? " key " : "", key))
			diag_print(&d, stdout);
		free(names[i]);
	}
}

/* Every example profile of @sub ("" or "/hardware") parses and validates
 * with no warnings; at least @min of them. */
static void test_corpus_good_in(const char *sub, int min)
{
	static struct rtune_profile p;
	static struct rtune_diags d;
	char dir[512], *names[32];
	int n, i;

	snprintf(dir, sizeof(dir), "%s%s", examples(), sub);
	n = list_dir(dir, names, 32);
	tap_check(n >= min, "%d example profiles in %s", n, dir);
	for (i = 0; i < n; i++) {
		char path[1024];
		int r;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		memset(&d, 0, sizeof(d));
		r = profile_parse_file(path, &p, &d);
		if (!r)
			r = profile_validate(&p, &d);
		if (!tap_check(!r && d.nerr == 0 && d.nwarn == 0, "%s is valid with no warnings",
			       names[i]))
			diag_print(&d, stdout);
		free(names[i]);
	}
}

static void test_lossless_semantics(void)
{
	static struct rtune_profile p;
	static struct rtune_diags d;
	char path[512];
	int r;

	snprintf(path, sizeof(path), "%s/lossless-roce.conf", examples());
	memset(&d, 0, sizeof(d));
	r = profile_parse_file(path, &p, &d);
	tap_check(!r, "lossless profile parses");
	tap_check(p.has_mtu && p.mtu == 4200, "mtu 4200");
	tap_check(p.trust == RTUNE_TRUST_DSCP && profile_dscp_prio(&p, 26) == 3 &&
		  profile_dscp_prio(&p, 48) == 6, "DSCP 26 -> 3, 48 -> 6");
	tap_check(p.has_pfc && p.pfc_en == 0x08, "PFC on priority 3 only (0x%02x)", p.pfc_en);
	tap_check(p.has_tos && p.tos == 106 && p.roce_mode == 2, "ToS 106, RoCE v2");
	tap_check(p.preset && !strcmp(p.preset->name, "connectx") &&
		  p.cc.v[RTUNE_P_RP_ALPHA_GAIN_1024THS] == 5, "preset connectx fills the set");
	tap_check(p.cc_set_mask == (1u << RTUNE_P_COUNT) - 1, "a preset declares every parameter");
	tap_check(p.cc.v[RTUNE_P_ECN_ENABLED_PRIOS] == 0x08 && p.cc.v[RTUNE_P_NP_CNP_PRIO] == 6 &&
		  p.cc.v[RTUNE_P_NP_CNP_DSCP] == 48, "overrides win over the preset");
	tap_check(p.has_ets && p.prio_tc[3] == 3 && p.prio_tc[6] == 6 &&
		  p.tc_tsa[0] == RTUNE_TSA_ETS && p.tc_bw[3] == 50, "ETS parsed");
	tap_check(profile_matches(&p, "enp1s0f0", NULL) && profile_matches(&p, "ens3", NULL) &&
		  !profile_matches(&p, "lo", NULL), "netdev globs match");
}

static void test_messages(void)
{
	static struct rtune_profile p;
	static struct rtune_diags d;
	const struct rtune_diag *e;

	parse("[match]\nnetdev = x\n[link]\nmtuu = 4200\n", &p, &d);
	e = diag_find(&d, "unknown-key");
	tap_check(e && e->line == 4 && !strcmp(e->key, "mtuu") && strstr(e->msg, "did you mean 'mtu'") &&
		  strstr(e->msg, "roce_mtu"), "unknown key names line, key, suggestion and valid keys: %s",
		  e ? e->msg : "(none)");

	parse("[match]\nnetdev = x\n[cc]\nrp_hyper_increse_kbps = 5000\n", &p, &d);
	e = diag_find(&d, "unknown-key");
	tap_check(e && strstr(e->msg, "rp_hyper_increase_kbps"), "near miss of a CC name is suggested");

	parse("[match]\nnetdev = x\n[cc]\nrp_alpha_gain_1024ths = 0\n", &p, &d);
	e = diag_find(&d, "bad-value");
	tap_check(e && strstr(e->msg, "1..1023") && strstr(e->msg, "1/1024"),
		  "CC range error gives the rtune_params range and unit: %s", e ? e->msg : "");

	parse("[match]\nnetdev = x\n[cc]\npreset = nope\n", &p, &d);
	e = diag_find(&d, "bad-value");
	tap_check(e && strstr(e->msg, "paper") && strstr(e->msg, "connectx"), "preset error lists presets");

	parse("[matc]\nnetdev = x\n", &p, &d);
	e = diag_find(&d, "unknown-section");
	tap_check(e && strstr(e->msg, "[match]"), "unknown section suggests [match]");

	parse("[match]\nnetdev = x\n[link]\nmtu = 1500\n", &p, &d);
	e = diag_find(&d, "mtu-too-small");
	tap_check(e && strstr(e->msg, "needs at least 4192") && strstr(e->msg, "96 bytes"),
		  "MTU check explains the need: %s", e ? e->msg : "");
	/* one rule, RoCE MTU + 96, in every number it advises (it said
	 * "use 4200" beside it, and "use 2152" for 2048) */
	parse("[match]\nnetdev = x\n[link]\nmtu = 2100\nroce_mtu = 2048\n", &p, &d);
	e = diag_find(&d, "mtu-too-small");
	tap_check(e && strstr(e->msg, "needs at least 2144") && !strstr(e->msg, "2152") &&
		  !strstr(e->msg, "use "),
		  "MTU check for 2048 advises 2144 only: %s", e ? e->msg : "");
	parse("[match]\nnetdev = x\n[link]\nmtu = 2144\nroce_mtu = 2048\n", &p, &d);
	tap_check(d.nerr == 0, "mtu 2144, the least it advises, fits roce_mtu 2048");

	parse("[match]\nnetdev = x\n[link]\nmtu = 2200\nroce_mtu = 2048\n", &p, &d);
	tap_check(d.nerr == 0, "mtu 2200 fits roce_mtu 2048");
}

static void test_syntax(void)
{
	static struct rtune_profile p;
	static struct rtune_diags d;

	tap_check(parse("# c\n; c\n\n[match]   \r\n  netdev = a b*  # trailing comment\r\n", &p, &d) == 0 &&
		  p.n_netdev_globs == 2 && !strcmp(p.netdev_globs[1], "b*"),
		  "comments, CRLF and blanks are accepted");
	tap_check(parse("[match]\nnetdev = a\n\0mtu=1\n", &p, &d) == 0,
		  "parsing stops at the given length");
	{
		char big[3000];

		memset(big, 'a', sizeof(big));
		memcpy(big, "[match]\nnetdev = ", 17);
		big[sizeof(big) - 1] = '\0';
		tap_check(parse(big, &p, &d) < 0 && diag_find(&d, "syntax"), "overlong line is an error");
	}
	{
		const char t[] = "[match]\nnetdev = a\0b\n";

		memset(&d, 0, sizeof(d));
		tap_check(profile_parse_text("t", t, sizeof(t) - 1, &p, &d) < 0 &&
			  diag_find(&d, "syntax"), "NUL byte is an error");
	}
	tap_check(parse("[match]\nnetdev = a\n[trust]\nmode = dscp\ndscp_prio = default 26:5 40-47:2\n", &p, &d) == 0 &&
		  profile_dscp_prio(&p, 26) == 5 && profile_dscp_prio(&p, 44) == 2 &&
		  profile_dscp_prio(&p, 0) == 0, "dscp_prio: default then overrides and ranges");
	tap_check(parse("[match]\nnetdev = a\n[trust]\nmode = dscp\ndscp_prio = 26:3\n", &p, &d) == 0 &&
		  profile_dscp_prio(&p, 0) == -1, "without 'default' only listed DSCPs are mapped");
	tap_check(parse("[match]\nnetdev = a\n[pfc]\npriorities = none\n", &p, &d) == 0 &&
		  p.has_pfc && p.pfc_en == 0, "pfc none");
	tap_check(parse("[match]\nnetdev = a\n[pfc]\ndelay = 4096\n", &p, &d) == 0 &&
		  !p.has_pfc && p.has_pfc_delay && p.pfc_delay == 4096 && d.nwarn == 0,
		  "pfc delay alone: the enable bitmap is left alone");
	tap_check(parse("[match]\nnetdev = a\n[pfc]\nstorm_prevention = auto\n", &p, &d) == 0 &&
		  !p.has_pfc && !p.has_pfc_delay && p.has_pfc_storm &&
		  p.pfc_storm == RTUNE_PFC_STORM_AUTO && d.nwarn == 0,
		  "pfc storm_prevention auto alone: PFC itself is left alone");
	tap_check(parse("[match]\nnetdev = a\n[pfc]\nstorm_prevention = off\n", &p, &d) == 0 &&
		  p.has_pfc_storm && p.pfc_storm == 0 &&
		  parse("[match]\nnetdev = a\n[pfc]\nstorm_prevention = 0\n", &p, &d) == 0 &&
		  p.has_pfc_storm && p.pfc_storm == 0,
		  "pfc storm_prevention off and 0 are both off");
	tap_check(parse("[match]\nnetdev = a\n[pfc]\nstorm_prevention = 65534\n", &p, &d) == 0 &&
		  p.pfc_storm == 65534 &&
		  parse("[match]\nnetdev = a\n[pfc]\nstorm_prevention = 500\n", &p, &d) == 0 &&
		  p.pfc_storm == 500, "pfc storm_prevention in ms, up to 65534");
	{
		static const char *const bad[] = { "65535", "70000", "-1", "fast", "auto 5", "1e3" };
		size_t i, nbad = 0;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char t[128];

			snprintf(t, sizeof(t), "[match]\nnetdev = a\n[pfc]\nstorm_prevention = %s\n",
				 bad[i]);
			if (parse(t, &p, &d) < 0 && diag_find(&d, "bad-value") &&
			    strstr(diag_find(&d, "bad-value")->msg, "storm prevention timeout"))
				nbad++;
			else
				tap_diag("storm_prevention = %s accepted or not bad-value", bad[i]);
		}
		tap_check(nbad == sizeof(bad) / sizeof(bad[0]),
			  "pfc storm_prevention: 65535 (ethtool's auto), out of range and garbage are bad-value");
	}
	tap_check(parse("[match]\nrdma_device = rxe*\n", &p, &d) == 0 && d.nwarn == 1 &&
		  diag_find(&d, "empty-profile"), "an empty profile is valid with a warning");
	tap_check(profile_matches(&p, "eth0", "rxe0") && !profile_matches(&p, "eth0", NULL),
		  "rdma_device glob matches through the RDMA device");
	tap_check(parse("[match]\nnetdev = a\n[rdma_cm]\ntos = 104\n[trust]\nmode = dscp\ndscp_prio = default\n[cc]\necn_enabled_prios = 3\n", &p, &d) == 0 &&
		  diag_find(&d, "tos-not-ect"), "ToS without ECT on an ECN priority warns");
}

/* [link] expect_speed and expect_lanes: expectations the doctor checks,
 * never applied. */
static void test_expect(void)
{
	static const struct { const char *v; uint32_t mbps; } good[] = {
		{ "100G", 100000 }, { "25g", 25000 }, { "2.5G", 2500 }, { "100000", 100000 },
		{ "400000M", 400000 }, { "1600G", 1600000 }, { "10M", 10 }, { "0.1G", 100 },
	};
	static const char *const bad[] = {
		"fast", "100 G", "0", "9", "2.5", "1.2345G", "1601G", "1600001", "100T", "G",
		"-1", ".5G", "2.G", "100Gb/s",
	};
	static struct rtune_profile p;
	static struct rtune_diags d;
	const struct rtune_diag *e;
	size_t i, ngood = 0, nbad = 0;
	char t[160], buf[16];

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(t, sizeof(t), "[match]\nnetdev = a\n[link]\nexpect_speed = %s\n", good[i].v);
		if (parse(t, &p, &d) == 0 && p.has_expect_speed && p.expect_speed == good[i].mbps)
			ngood++;
		else
			tap_diag("expect_speed = %s: not %u Mb/s", good[i].v, good[i].mbps);
	}
	tap_check(ngood == sizeof(good) / sizeof(good[0]),
		  "expect_speed: 100G, 25g, 2.5G, 100000, 400000M, 1600G, 10M, 0.1G in Mb/s");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(t, sizeof(t), "[match]\nnetdev = a\n[link]\nexpect_speed = %s\n", bad[i]);
		e = parse(t, &p, &d) < 0 ? diag_find(&d, "bad-value") : NULL;
		if (e && e->line == 4 && !strcmp(e->key, "expect_speed") && strstr(e->msg, "100G") &&
		    !p.has_expect_speed)
			nbad++;
		else
			tap_diag("expect_speed = %s accepted, or not a bad-value naming 100G", bad[i]);
	}
	tap_check(nbad == sizeof(bad) / sizeof(bad[0]),
		  "expect_speed: garbage, blanks, out of range, 4 decimals, units other than M/G are bad-value");
	tap_check(parse("[match]\nnetdev = a\n[link]\nexpect_lanes = 4\n", &p, &d) == 0 &&
		  p.has_expect_lanes && p.expect_lanes == 4 && !p.has_expect_speed,
		  "expect_lanes 4 alone");
	nbad = 0;
	for (i = 0; i < 4; i++) {
		static const char *const lb[] = { "0", "9", "four", "2 4" };

		snprintf(t, sizeof(t), "[match]\nnetdev = a\n[link]\nexpect_lanes = %s\n", lb[i]);
		e = parse(t, &p, &d) < 0 ? diag_find(&d, "bad-value") : NULL;
		if (e && strstr(e->msg, "1..8"))
			nbad++;
		else
			tap_diag("expect_lanes = %s accepted, or not a bad-value naming 1..8", lb[i]);
	}
	tap_check(nbad == 4, "expect_lanes: 0, 9, four, '2 4' are bad-value naming 1..8");
	tap_check(parse("[match]\nnetdev = a\n[link]\nexpect_speed = 100G\nexpect_lanes = 4\n", &p, &d) == 0 &&
		  d.nwarn == 1 && diag_find(&d, "empty-profile"),
		  "expectations alone: nothing to apply (empty-profile warning)");
	tap_check(parse("[match]\nnetdev = a\n[link]\nexpect_speed = 100G\nexpect_speed = 50G\n", &p, &d) < 0 &&
		  diag_find(&d, "duplicate-key"), "expect_speed given twice: duplicate-key");
	rtune_fmt_speed(buf, sizeof(buf), 100000);
	ngood = !strcmp(buf, "100G");
	rtune_fmt_speed(buf, sizeof(buf), 2500);
	ngood += !strcmp(buf, "2.5G");
	rtune_fmt_speed(buf, sizeof(buf), 100);
	ngood += !strcmp(buf, "100M");
	rtune_fmt_speed(buf, sizeof(buf), 2520);
	ngood += !strcmp(buf, "2520M");
	tap_check(ngood == 4, "speeds written back as 100G, 2.5G, 100M, 2520M");
}

int main(void)
{
	test_corpus_bad();
	test_corpus_good_in("", 3);
	test_corpus_good_in("/hardware", 5);
	test_lossless_semantics();
	test_messages();
	test_syntax();
	test_expect();
	return tap_done();
}
