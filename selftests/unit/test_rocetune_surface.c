// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for rocetune's vendor surfaces (surface.c,
 * surface_mlx5.c, surface_mlx5_ofed.c, surface_bnxt_re.c): discovery
 * through the test-only environment, reading a cc_params/ or ecn/
 * directory of plain files, the neutral <-> vendor conversions of
 * Documentation/hardware.rst, refusals, and the write order. Writes
 * themselves are tested against rocetune_hwsim.ko in a lab guest
 * (selftests/hwsim/mlx5.sh): plain files do not behave like debugfs.
 * And the persistent side of mlx5 (mstcfg.c): the parser of mstconfig's
 * output on the samples of data/mstconfig/, and show and diff with a
 * stand-in mstconfig (the test build's ROCETUNE_TEST_MSTCONFIG).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/cfs.h"
#include "../../tools/rocetune/obj.h"
#include "../../tools/rocetune/rdmacm.h"
#include "../../tools/rocetune/surface.h"
#include "surface_fixture.h"
#include "../../tools/rocetune/mstcfg.h"
#include "../../tools/rocetune/irdma_load.h"
#include "../../tools/rocetune/state.h"

/* The registry index of @o (what struct rtune_touched is indexed by). */
static int obj_idx(const struct rtune_obj *o)
{
	int i;

	for (i = 0; rtune_objs[i] != o; i++)
		;
	return i;
}

static const char *const names[] = {
	"rp_clamp_tgt_rate", "rp_clamp_tgt_rate_ati", "rp_time_reset", "rp_byte_reset",
	"rp_threshold", "rp_ai_rate", "rp_max_rate", "rp_hai_rate", "rp_min_dec_fac",
	"rp_min_rate", "rp_rate_to_set_on_first_cnp", "rp_dce_tcp_g", "rp_dce_tcp_rtt",
	"rp_rate_reduce_monitor_period", "rp_initial_alpha_value", "rp_gd",
	"np_min_time_between_cnps", "np_cnp_dscp", "np_cnp_prio_mode", "np_cnp_prio",
};
/* NVIDIA's defaults, np_cnp_prio_mode 1 (as rocetune_hwsim starts) */
static const unsigned int start[20] = {
	0, 1, 300, 32767, 1, 5, 0, 50, 50, 1, 0, 1019, 1, 4, 1023, 11, 4, 48, 1, 6,
};
enum { AI = 5, MAXR = 6, HAI = 7, MINR = 9, G = 11, GD = 15, DSCP = 17, MODE = 18, PRIO = 19 };

static char root[64], dir[256];

static void put(const char *name, const char *text)
{
	char p[400];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static void put_all(const unsigned int *v)
{
	char t[16];
	int i;

	for (i = 0; i < 20; i++) {
		snprintf(t, sizeof(t), "%u\n", v[i]);
		put(names[i], t);
	}
}

/* Target and plan @text on @v; returns the plan (caller frees). */
static void plan_for(const char *text, const struct rtune_link *v, struct rtune_plan *pl)
{
	struct rtune_target t;

	load(text);
	memset(pl, 0, sizeof(*pl));
	target_from_profile(&prof, v, 0, &t, pl);
	if (!pl->nerr)
		plan_device(v, 0, &t, pl);
}


/* The text of data/mstconfig/@name (malloc'd, *len bytes). */
static char *sample(const char *name, size_t *len)
{
	char p[300];
	FILE *f;
	char *b = malloc(RTUNE_MSTCFG_MAX_OUT + 2);

	snprintf(p, sizeof(p), "data/mstconfig/%s", name);
	f = fopen(p, "r");
	if (!f || !b)
		abort();
	*len = fread(b, 1, RTUNE_MSTCFG_MAX_OUT + 1, f);
	fclose(f);
	return b;
}

/* Parse sample @name for port @port: the return value, @err set. */
static int parse_sample(const char *name, int port, struct rtune_nvcc *nv, char *err, size_t elen)
{
	size_t len;
	char *t = sample(name, &len);
	int r = rtune_mstcfg_parse(t, len, port, nv, err, elen);

	free(t);
	return r;
}

/* show of @v's cc object, as text (@json false) or JSON, into @buf. */
static void show_cc(const struct rtune_link *v, bool json, char *buf, size_t len)
{
	struct rtune_pr pr;
	struct jw j;
	FILE *f = fmemopen(buf, len, "w");

	if (!f)
		abort();
	if (json) {
		jw_init(&j, f);
		pr_init_json(&pr, &j);
		pr_obj(&pr, NULL);
	} else {
		pr_init_text(&pr, f);
	}
	rtune_obj_cc.show(&pr, v);
	if (json)
		pr_end_obj(&pr);
	fclose(f);
}

static int mstcfg_tests(struct rtune_link *v)
{
	static const struct {
		const char *file, *needle;
	} bad[] = {
		{ "bad-value.txt", "line 10: CNP_DSCP_P1: \"forty-eight\" is not a number" },
		{ "bad-twice.txt", "line 3: CNP_DSCP_P1 appears twice" },
		{ "bad-columns.txt", "line 2: CNP_DSCP_P1 has 2 values for 3 columns" },
		{ "bad-no-section.txt", "no \"Configurations:\" section" },
		{ "bad-two-devices.txt", "line 4: a second Configurations section" },
		{ "error-open.txt", "mstconfig: -E- Failed to open the device" },
		{ "tlv-failed.txt",
		  "mstconfig: -E- Failed to query some of the TLVs: Failed to query the next values of the following TLVs: nv_roce_cc_ecn" },
	};
	static struct rtune_host h;
	struct rtune_nvcc nv;
	struct rtune_plan pl;
	char err[240], buf[8192], exe[300];
	size_t len;
	char *big;
	int i, ok, checks = 0;

	ok = parse_sample("cx6dx-query.txt", 1, &nv, err, sizeof(err)) == 0 &&
	     nv.valid == (1u << RTUNE_NV_COUNT) - 1 && !nv.na &&
	     nv.v[RTUNE_NV_PRIO_MASK] == 255 && nv.v[RTUNE_NV_ALGORITHM] == 0 &&
	     nv.v[RTUNE_NV_CLAMP_TGT_RATE_ATI] == 1 && nv.v[RTUNE_NV_CNP_PRIO_MODE] == 1 &&
	     nv.v[RTUNE_NV_CNP_DSCP] == 48 && nv.v[RTUNE_NV_DCE_TCP_G] == 1019;
	checks += tap_check(ok, "mstconfig query: port 1's 22 CC parameters, LABEL(n) as n (%s)", err);
	ok = parse_sample("cx6dx-query.txt", 2, &nv, err, sizeof(err)) == 0 &&
	     nv.v[RTUNE_NV_CNP_DSCP] == 26 && nv.v[RTUNE_NV_PRIO_MASK] == 8 &&
	     nv.v[RTUNE_NV_CNP_PRIO_MODE] == 0;
	checks += tap_check(ok, "mstconfig query: port 2 reads the _P2 names");
	ok = parse_sample("cx6dx-query-verbose.txt", 1, &nv, err, sizeof(err)) == 0 &&
	     nv.v[RTUNE_NV_CNP_DSCP] == 24 && nv.v[RTUNE_NV_AI_RATE] == 10 &&
	     nv.valid == (1u << RTUNE_NV_COUNT) - 1;
	checks += tap_check(ok, "--enable_verbosity: the Next Boot column of three, '*' lines too (%s)",
			    err);
	ok = parse_sample("cx6dx-query-4.36.txt", 2, &nv, err, sizeof(err)) == 0 &&
	     nv.valid == (1u << RTUNE_NV_COUNT) - 1 && nv.v[RTUNE_NV_CNP_DSCP] == 26 &&
	     nv.v[RTUNE_NV_ALGORITHM] == 0 && nv.v[RTUNE_NV_PRIO_MASK] == 8;
	checks += tap_check(ok, "mstflint 4.26+ layout: 48-wide names, 33-wide values, RO marks (%s)",
			    err);
	ok = parse_sample("cx6dx-query.txt", RTUNE_NV_MAX_PORT, &nv, err, sizeof(err)) == 0 &&
	     !nv.valid && !nv.na &&
	     parse_sample("cx6dx-query.txt", RTUNE_NV_MAX_PORT + 1, &nv, err, sizeof(err)) == -EINVAL &&
	     strstr(err, "NVconfig names ports 1 to 8");
	checks += tap_check(ok, "ports 1 to 8 (mstflint's most), port 9 refused (%s)", err);
	ok = parse_sample("na.txt", 1, &nv, err, sizeof(err)) == 0 &&
	     nv.na == 1u << RTUNE_NV_PRIO_MASK && nv.valid == 1u << RTUNE_NV_CNP_DSCP &&
	     nv.v[RTUNE_NV_CNP_DSCP] == 0x30;
	checks += tap_check(ok, "N/A is not a value; 0x30 is 48");
	for (i = 0, ok = 1; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		if (parse_sample(bad[i].file, 1, &nv, err, sizeof(err)) != -EPROTO ||
		    !strstr(err, bad[i].needle)) {
			tap_diag("%s: \"%s\", expected \"%s\"", bad[i].file, err, bad[i].needle);
			ok = 0;
		}
	}
	checks += tap_check(ok, "bad output: each error says what and on which line (%d samples)", i);
	big = sample("cx6dx-query.txt", &len);
	memset(big, ' ', RTUNE_MSTCFG_MAX_OUT + 1);
	ok = rtune_mstcfg_parse(big, RTUNE_MSTCFG_MAX_OUT + 1, 1, &nv, err, sizeof(err)) == -E2BIG;
	memset(big, 'x', RTUNE_MSTCFG_MAX_LINE + 1);
	big[RTUNE_MSTCFG_MAX_LINE + 1] = '\n';
	ok &= rtune_mstcfg_parse(big, RTUNE_MSTCFG_MAX_LINE + 2, 1, &nv, err, sizeof(err)) == -EPROTO &&
	      strstr(err, "line 1 is longer than") != NULL;
	memcpy(big, "Configurations:   Next Boot\n  CNP_DSCP_P1  4\0\n", 46);
	ok &= rtune_mstcfg_parse(big, 46, 1, &nv, err, sizeof(err)) == -EPROTO &&
	      strstr(err, "NUL") != NULL;
	free(big);
	checks += tap_check(ok, "bounded: over %d bytes, a line over %d, a NUL byte", RTUNE_MSTCFG_MAX_OUT,
			    RTUNE_MSTCFG_MAX_LINE);

	/* show and diff through the stand-in: v is rxe0 on mlx5 0000:fe:00.0 at start[] */
	if (!realpath("data/mstconfig/mstconfig", exe))
		abort();
	setenv("ROCETUNE_TEST_MSTCONFIG", exe, 1);
	setenv("MSTCONFIG_DEV", "0000:fe:00.0", 1);
	setenv("MSTCONFIG_SAMPLE", "data/mstconfig/cx6dx-query.txt", 1);
	memset(&h, 0, sizeof(h));
	h.dev[0] = *v;
	h.dev[0].hw.raw[DSCP] = 46;	/* live CNP DSCP 46, next boot 48 */
	h.dev[0].cc.v[RTUNE_P_NP_CNP_DSCP] = 46;
	h.n = 1;
	rtune_mstcfg_read_host(&h);
	show_cc(&h.dev[0], false, buf, sizeof(buf));
	ok = h.dev[0].hw.nv.state == 1 && h.dev[0].hw.nv.port == 1 &&
	     strstr(buf, "live differs from persistent (mstconfig -d 0000:fe:00.0, next boot): np_cnp_dscp 46 (CNP_DSCP_P1 48), np_cnp_prio_mode 1 (CNP_RES_PRIO_MODE_P1 1)") == NULL &&
	     strstr(buf, "live differs from persistent (mstconfig -d 0000:fe:00.0, next boot): np_cnp_dscp 46 (CNP_DSCP_P1 48);") != NULL &&
	     strstr(buf, "next boot only (no live file on mlx5): ROCE_CC_PRIO_MASK_P1 0-7, ROCE_CC_ALGORITHM_P1 ECN") != NULL;
	checks += tap_check(ok, "show: the one live value that differs, and what only NVconfig has");
	if (!ok)
		tap_diag("%s", buf);
	show_cc(&h.dev[0], true, buf, sizeof(buf));
	ok = strstr(buf, "\"persistent\":{\"source\":\"mstconfig\",\"pci\":\"0000:fe:00.0\",\"error\":null,\"port\":1,\"port_from\":\"pci-function\",\"differs\":[{\"file\":\"np_cnp_dscp\",\"live\":46,\"nvconfig\":\"CNP_DSCP_P1\",\"next_boot\":48}],\"next_boot_only\":{\"ROCE_CC_PRIO_MASK_P1\":255,\"ROCE_CC_ALGORITHM_P1\":0}}") != NULL;
	checks += tap_check(ok, "show --json: persistent.differs and next_boot_only");
	if (!ok)
		tap_diag("%s", buf);

	{
		/* MLNX_OFED's files, en_sysfs.c order: the switches compare with the one mask */
		static const uint32_t ofed[21] = {
			0, 1, 300, 32767, 1, 0, 5, 50, 11, 50, 1, 0, 1019, 1, 4, 1023, 4, 48, 6,
			0x08, 0xff,
		};
		static struct rtune_link o;

		o = h.dev[0];
		o.hw.sf = &rtune_surface_mlx5_ofed;
		memcpy(o.hw.raw, ofed, sizeof(ofed));
		o.hw.raw_valid = (1u << 21) - 1;
		show_cc(&o, false, buf, sizeof(buf));
		ok = strstr(buf, "next boot): roce_rp/enable 3 (ROCE_CC_PRIO_MASK_P1 0-7);") != NULL &&
		     strstr(buf, "next boot only (no live file on mlx5_ofed): ROCE_CC_ALGORITHM_P1 ECN, CNP_RES_PRIO_MODE_P1 1") != NULL;
		checks += tap_check(ok, "MLNX_OFED: its per-priority switches against ROCE_CC_PRIO_MASK_P1");
		if (!ok)
			tap_diag("%s", buf);
	}

	/* diff: a plan that sets CNP DSCP 48 makes live and next boot agree */
	memset(&pl, 0, sizeof(pl));
	rtune_mstcfg_plan_notes(&h, &pl);
	ok = note(&pl, "cc-not-persistent", "rxe0/1: 1 live value differs from the next-boot firmware config, which a reboot or firmware reset brings back (mstconfig -d 0000:fe:00.0): np_cnp_dscp 46 (CNP_DSCP_P1 48)") &&
	     !pl.nerr;
	plan_free(&pl);
	plan_for("[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 48\n", &h.dev[0], &pl);
	rtune_mstcfg_plan_notes(&h, &pl);
	ok &= pl.n == 1 && !note(&pl, "cc-not-persistent", NULL);
	plan_free(&pl);
	plan_for("[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 26\n", &h.dev[0], &pl);
	rtune_mstcfg_plan_notes(&h, &pl);
	ok &= note(&pl, "cc-not-persistent", "rxe0/1: after this apply, 1 live value differs from the next-boot firmware config, which a reboot or firmware reset brings back (mstconfig -d 0000:fe:00.0): np_cnp_dscp 26 (CNP_DSCP_P1 48)") &&
	      !pl.nerr;
	plan_free(&pl);
	checks += tap_check(ok, "diff: a warning with the values after the plan, none when they agree");

	/* mstconfig fails, or is not there: said, never an error */
	setenv("MSTCONFIG_SAMPLE", "data/mstconfig/error-open.txt", 1);
	setenv("MSTCONFIG_EXIT", "3", 1);	/* MLX_CFG_ERROR */
	rtune_mstcfg_read_host(&h);
	show_cc(&h.dev[0], false, buf, sizeof(buf));
	ok = h.dev[0].hw.nv.state == -EIO &&
	     strstr(buf, "persistent (next boot): not read: mstconfig -d 0000:fe:00.0 query failed (exit 3): -E- Failed to open the device; whether the live values survive a reboot is unknown") != NULL &&
	     strstr(buf, "cc (mlx5-debugfs)") != NULL;
	unsetenv("MSTCONFIG_EXIT");
	plan_for("[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 26\n", &h.dev[0], &pl);
	rtune_mstcfg_plan_notes(&h, &pl);
	ok &= note(&pl, "cc-persistent-unknown", "the [cc] change is live only, and the next-boot values could not be read: mstconfig -d 0000:fe:00.0 query failed (exit 3)") &&
	      !pl.nerr;
	plan_free(&pl);
	checks += tap_check(ok, "mstconfig's -E- line is shown, and diff warns that the change is live only");
	if (!ok)
		tap_diag("%s", buf);
	setenv("MSTCONFIG_DEV", "0000:fe:00.1", 1);
	setenv("MSTCONFIG_SAMPLE", "data/mstconfig/cx6dx-query.txt", 1);
	snprintf(h.dev[0].hw.pci, sizeof(h.dev[0].hw.pci), "0000:fe:00.1");
	rtune_mstcfg_read_host(&h);
	ok = h.dev[0].hw.nv.state == 1 && h.dev[0].hw.nv.port == 2 &&
	     h.dev[0].hw.nv.cc.v[RTUNE_NV_CNP_DSCP] == 26;
	snprintf(h.dev[0].hw.pci, sizeof(h.dev[0].hw.pci), "0000:fe:00.2");
	setenv("MSTCONFIG_DEV", "0000:fe:00.2", 1);
	rtune_mstcfg_read_host(&h);
	ok &= h.dev[0].hw.nv.state == -ENODATA && h.dev[0].hw.nv.port == 3 &&
	      strstr(h.dev[0].hw.nv.why, "no RoCE congestion-control parameter of port 3");
	checks += tap_check(ok, "no devlink port: PCI function F reads _P(F+1) (%s)", h.dev[0].hw.nv.why);
	/* devlink's physical port number wins over the PCI function */
	h.dev[0].dl.ok = true;
	h.dev[0].dl.phys_port = 1;
	rtune_mstcfg_read_host(&h);
	ok = h.dev[0].hw.nv.state == 1 && h.dev[0].hw.nv.port == 2 &&
	     !strcmp(h.dev[0].hw.nv.port_from, "devlink") &&
	     h.dev[0].hw.nv.cc.v[RTUNE_NV_CNP_DSCP] == 26;
	h.dev[0].dl.phys_port = -1;
	rtune_mstcfg_read_host(&h);
	ok &= h.dev[0].hw.nv.state == -EOPNOTSUPP &&
	      strstr(h.dev[0].hw.nv.why, "is not a physical port's function");
	h.dev[0].dl.ok = false;
	setenv("MSTCONFIG_DEV", "0000:fe:00.0", 1);
	checks += tap_check(ok, "devlink physical port 1 reads _P2 on function .2; a VF's port is refused");
	setenv("ROCETUNE_TEST_MSTCONFIG", "/nonexistent/mstconfig", 1);
	snprintf(h.dev[0].hw.pci, sizeof(h.dev[0].hw.pci), "0000:fe:00.0");
	rtune_mstcfg_read_host(&h);
	ok = h.dev[0].hw.nv.state == -ENOEXEC && strstr(h.dev[0].hw.nv.why, "cannot execute /nonexistent/mstconfig");
	checks += tap_check(ok, "a stand-in that cannot run: said (%s)", h.dev[0].hw.nv.why);
	unsetenv("ROCETUNE_TEST_MSTCONFIG");
	if (access("/usr/sbin/mstconfig", X_OK) && access("/usr/bin/mstconfig", X_OK) &&
	    access("/sbin/mstconfig", X_OK) && access("/bin/mstconfig", X_OK)) {
		char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

		setenv("PATH", "/nonexistent", 1);
		rtune_mstcfg_read_host(&h);
		show_cc(&h.dev[0], false, buf, sizeof(buf));
		ok = h.dev[0].hw.nv.state == -ENOENT &&
		     strstr(buf, "persistent (next boot): not read: mstconfig not found in PATH (Debian package mstflint)") != NULL;
		checks += tap_check(ok, "no mstconfig: show says so, and how to get it");
		if (path)
			setenv("PATH", path, 1);
		free(path);
	} else {
		tap_skip("mstconfig is installed on this host", "no mstconfig: show says so");
		checks++;
	}
	unsetenv("MSTCONFIG_DEV");
	unsetenv("MSTCONFIG_SAMPLE");
	return checks;
}

/* "name text" lines as files of @mdir/irdma/parameters/ (made empty first). */
static void put_params(const char *mdir, const char *lines)
{
	char p[400], name[64], text[64];
	const char *l = lines;
	FILE *f;
	int n;

	snprintf(p, sizeof(p), "rm -rf '%s' && mkdir -p '%s/irdma/parameters'", mdir, mdir);
	if (system(p))
		abort();
	while (sscanf(l, "%63s %63s%n", name, text, &n) == 2) {
		snprintf(p, sizeof(p), "%s/irdma/parameters/%s", mdir, name);
		f = fopen(p, "w");
		if (!f)
			abort();
		fprintf(f, "%s\n", text);
		fclose(f);
		l += n;
	}
}

/*
 * irdma's load-time module parameters (irdma_load.c) against the live
 * roce_dcqcn_enable of @r (0 here): parsing, the diff warning, show.
 */
static void irdma_load_tests(const struct rtune_link *r)
{
	static struct rtune_host h;
	static const char params[] =
		"dcqcn_enable N dcqcn_cc_cfg_valid N dcqcn_min_dec_factor 1 dcqcn_min_rate_MBps 0 "
		"dcqcn_F 5 dcqcn_T 55 dcqcn_B 150000 dcqcn_rai_factor 1 dcqcn_hai_factor 5 "
		"dcqcn_rreduce_mperiod 50";
	const char *on = "[match]\nrdma_device = rxe0\n[cc]\nrp_enabled_prios = 0-7\n";
	char mdir[128], buf[2048];
	struct rtune_plan pl;
	uint32_t v = 7;
	bool ok;

	ok = !rtune_irdma_mp_parse(RTUNE_IRDMA_MP_ENABLE, "Y", 1, &v) && v == 1 &&
	     !rtune_irdma_mp_parse(RTUNE_IRDMA_MP_ENABLE, "N\n", 2, &v) && v == 0 &&
	     !rtune_irdma_mp_parse(RTUNE_IRDMA_MP_F, "255", 3, &v) && v == 255 &&
	     !rtune_irdma_mp_parse(RTUNE_IRDMA_MP_B, "4294967295", 10, &v) && v == 4294967295u;
	tap_check(ok, "irdma load-time: Y/N booleans and each type's largest value parse");
	v = 7;
	ok = rtune_irdma_mp_parse(RTUNE_IRDMA_MP_ENABLE, "1", 1, &v) &&
	     rtune_irdma_mp_parse(RTUNE_IRDMA_MP_F, "256", 3, &v) &&
	     rtune_irdma_mp_parse(RTUNE_IRDMA_MP_T, "65536", 5, &v) &&
	     rtune_irdma_mp_parse(RTUNE_IRDMA_MP_B, "4294967296", 10, &v) &&
	     rtune_irdma_mp_parse(RTUNE_IRDMA_MP_B, "-1", 2, &v) &&
	     rtune_irdma_mp_parse(RTUNE_IRDMA_MP_B, "0x10", 4, &v) &&
	     rtune_irdma_mp_parse(RTUNE_IRDMA_MP_B, "12 ", 3, &v) &&
	     rtune_irdma_mp_parse(RTUNE_IRDMA_MP_B, "", 0, &v) &&
	     rtune_irdma_mp_parse(RTUNE_IRDMA_MP_B, "1\0", 2, &v) && v == 7;
	tap_check(ok, "irdma load-time: a bool as 1, out of range, signs, hex, junk refused, value untouched");

	snprintf(mdir, sizeof(mdir), "%s/module", root);
	setenv(RTUNE_ENV_TEST_SYSFS_MODULE, mdir, 1);
	put_params(mdir, params);
	memset(&h, 0, sizeof(h));
	h.n = 1;
	h.dev[0] = *r;
	rtune_irdma_load_read_host(&h);
	tap_check(h.dev[0].hw.ld.state == 1 && h.dev[0].hw.ld.valid == 0x3ff &&
		  h.dev[0].hw.ld.v[RTUNE_IRDMA_MP_B] == 150000,
		  "irdma load-time: the ten parameters read (state %d, valid %#x)",
		  h.dev[0].hw.ld.state, h.dev[0].hw.ld.valid);

	/* switching DCQCN on in a driver loaded without dcqcn_enable */
	plan_for(on, &h.dev[0], &pl);
	rtune_irdma_load_plan_notes(&h, &pl);
	tap_check(note(&pl, "cc-not-persistent", "after this apply, roce_dcqcn_enable 1 differs from irdma's module parameter dcqcn_enable (N)") &&
		  note(&pl, "cc-not-persistent", "options irdma dcqcn_enable=Y") &&
		  note(&pl, "cc-firmware-defaults", "ignored its other dcqcn_* parameters"),
		  "irdma load-time: DCQCN on, loaded without dcqcn_enable: live only, and the firmware's defaults");
	plan_free(&pl);

	/* loaded with it: the same change survives a reload */
	put_params(mdir, "dcqcn_enable Y");
	rtune_irdma_load_read_host(&h);
	plan_for(on, &h.dev[0], &pl);
	rtune_irdma_load_plan_notes(&h, &pl);
	tap_check(h.dev[0].hw.ld.state == 1 && h.dev[0].hw.ld.valid == 1 && pl.n == 1 &&
		  !note(&pl, "cc-not-persistent", NULL) && !note(&pl, "cc-persistent-unknown", NULL),
		  "irdma load-time: loaded with dcqcn_enable: no warning; absent parameters are only absent");
	plan_free(&pl);

	/* the live switch off, the module's on: a reload would turn it on */
	plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_enabled_prios = none\n", &h.dev[0], &pl);
	rtune_irdma_load_plan_notes(&h, &pl);
	tap_check(pl.n == 0 && note(&pl, "cc-not-persistent", "roce_dcqcn_enable 0 differs") &&
		  !note(&pl, "cc-not-persistent", "after this apply") &&
		  !note(&pl, "cc-firmware-defaults", NULL),
		  "irdma load-time: nothing to apply, the live switch still differs: said");
	plan_free(&pl);

	/* no dcqcn_enable, or one that is not a bool: unknown, and said */
	put_params(mdir, "dcqcn_F 5");
	rtune_irdma_load_read_host(&h);
	plan_for(on, &h.dev[0], &pl);
	rtune_irdma_load_plan_notes(&h, &pl);
	tap_check(h.dev[0].hw.ld.state == -ENOENT &&
		  note(&pl, "cc-persistent-unknown", "dcqcn_enable: No such file"),
		  "irdma load-time: no dcqcn_enable: the change is live only, unknown until a reload");
	plan_free(&pl);
	put_params(mdir, "dcqcn_enable maybe");
	rtune_irdma_load_read_host(&h);
	tap_check(h.dev[0].hw.ld.state == -EPROTO && strstr(h.dev[0].hw.ld.why, "'maybe'"),
		  "irdma load-time: a value not of its type is an error naming it: %s",
		  h.dev[0].hw.ld.why);

	/* show: JSON and text */
	put_params(mdir, params);
	rtune_irdma_load_read_host(&h);
	h.dev[0].hw.raw[0] = 1;	/* roce_dcqcn_enable on, live */
	show_cc(&h.dev[0], true, buf, sizeof(buf));
	tap_check(strstr(buf, "\"load_time\":{\"source\":\"irdma module parameters\",\"error\":null,"
			      "\"params\":{\"dcqcn_enable\":false,\"dcqcn_cc_cfg_valid\":false,"
			      "\"dcqcn_min_dec_factor\":1,") &&
		  strstr(buf, "\"differs\":[{\"file\":\"roce_dcqcn_enable\",\"live\":1,"
			      "\"param\":\"dcqcn_enable\",\"load_time\":false}],"
			      "\"dcqcn_params_used\":false}"),
		  "irdma load-time: show --json has load_time with the parameters and the difference");
	show_cc(&h.dev[0], false, buf, sizeof(buf));
	tap_check(strstr(buf, "load-time (irdma module parameters): dcqcn_enable N  dcqcn_cc_cfg_valid N  dcqcn_min_dec_factor 1") &&
		  strstr(buf, "live roce_dcqcn_enable 1 differs from dcqcn_enable N: loading irdma again brings back N") &&
		  strstr(buf, "loaded without dcqcn_enable: irdma ignored its other dcqcn_*"),
		  "irdma load-time: show says the values, the difference and what is ignored");
	unsetenv(RTUNE_ENV_TEST_SYSFS_MODULE);
}

int main(void)
{
	struct rtune_link v, s;
	struct rtune_plan pl;
	unsigned int raw[20];
	char buf[1024];
	int order[32], n;

	tap_plan(69 + 21 + 10);
	snprintf(root, sizeof(root), "/tmp/rtune-surface.XXXXXX");
	if (!mkdtemp(root))
		abort();
	snprintf(dir, sizeof(dir), "%s/mlx5", root);
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s/mlx5/0000:fe:00.0", root);
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s/mlx5/0000:fe:00.0/cc_params", root);
	mkdir(dir, 0700);
	setenv(RTUNE_ENV_TEST_DEBUGFS, root, 1);
	setenv(RTUNE_ENV_TEST_SURFACE, "mlx5_9=mlx5/0000:aa:00.0,rxe0=mlx5/0000:fe:00.0", 1);
	put_all(start);

	/* discovery and reading */
	dev(&v);
	tap_check(v.hw.sf == &rtune_surface_mlx5 && !strcmp(v.hw.id, "0000:fe:00.0") &&
		  !strcmp(v.hw.dir, dir), "the test mapping gives rxe0 the mlx5 surface at its BDF");
	tap_check(v.cc_ok && v.hw.raw_valid == (1u << 20) - 1 && !strcmp(v.cc_backend, "mlx5-debugfs"),
		  "all 20 files read (backend %s)", v.cc_backend);
	tap_check(v.cc.v[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS] == 5000 &&
		  v.cc.v[RTUNE_P_RP_MIN_RATE_KBPS] == 1000 &&
		  v.cc.v[RTUNE_P_RP_ALPHA_GAIN_1024THS] == 5 &&
		  v.cc.v[RTUNE_P_RP_RATE_CUT_SHIFT] == 1 &&
		  v.cc.v[RTUNE_P_RP_INITIAL_ALPHA_1024THS] == 1023,
		  "Mb/s -> kb/s, G 1019 -> g 5, gd 11 -> shift 1, alpha as is");
	tap_check(!(v.cc_valid & (1u << RTUNE_P_NP_CNP_PRIO)) &&
		  !(v.cc_valid & (1u << RTUNE_P_ECN_CODEPOINT)),
		  "np_cnp_prio in mode 1 and knob-less parameters are not read");
	{
		const struct rtune_param_set *cx = &rtune_preset_lookup("connectx", 8)->set;
		uint32_t m = v.cc_valid;
		int i, same = 1;

		for (i = 0; i < RTUNE_P_COUNT; i++)
			if ((m & (1u << i)) && v.cc.v[i] != cx->v[i])
				same = 0;
		tap_check(same && __builtin_popcount(m) == 18,
			  "NVIDIA's defaults read as the connectx preset (%d parameters)",
			  __builtin_popcount(m));
	}

	/* unavailable surfaces, said plainly */
	setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=mlx5/0000:fe:00.1", 1);
	dev(&s);
	surface_why(&s, buf, sizeof(buf));
	tap_check(!s.cc_ok && s.hw.err == -ENOENT && strstr(buf, "is debugfs mounted"),
		  "missing device directory: %s", buf);
	setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=mlx5/0000:fe:00.0", 1);
	put("rp_gd", "eleven\n");
	dev(&s);
	surface_why(&s, buf, sizeof(buf));
	tap_check(!s.cc_ok && strstr(buf, "rp_gd does not read as a decimal"), "garbage: %s", buf);
	put("rp_gd", "11\n");
	memset(&pl, 0, sizeof(pl));
	s.hw.err = -EPERM;
	s.cc_ok = false;
	plan_for("[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 26\n", &s, &pl);
	tap_check(pl.nerr == 1 && note(&pl, "no-cc-surface", "lockdown") && pl.n == 0,
		  "EPERM: blocking no-cc-surface naming lockdown");
	plan_free(&pl);
	unsetenv(RTUNE_ENV_TEST_SURFACE);
	dev(&s);
	tap_check(!s.hw.sf, "without the test mapping rxe0 has no surface (its driver is not mlx5_core)");
	setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=mlx5/0000:fe:00.0", 1);
	s = v;
	s.port = 2;
	surface_read_dev(&s);
	tap_check(!s.cc_ok && s.hw.err == -EOPNOTSUPP, "port 2 has no surface of its own");

	/* the example profile */
	plan_for("[match]\nrdma_device = rxe0\n[cc]\npreset = connectx\nnp_cnp_dscp = 48\n"
		 "np_cnp_prio = 6\nrp_additive_increase_kbps = 40000\n"
		 "rp_hyper_increase_kbps = 200000\n", &v, &pl);
	tap_check(pl.nerr == 0 && pl.n == 1, "example: one cc action, no error");
	tap_check(note(&pl, "cc-not-set", "rp_enabled_prios, np_enabled_prios, ecn_enabled_prios, ecn_codepoint, np_cnp_ecn"),
		  "example: the preset's knob-less values are a warning, listed");
	if (pl.n == 1) {
		const struct rtune_action *a = &pl.a[0];

		tap_check(a->to.hw.raw[AI] == 40 && a->to.hw.raw[HAI] == 200 &&
			  a->to.hw.raw[PRIO] == 6 && a->to.hw.raw[MODE] == 0 &&
			  a->to.hw.raw[G] == 1019 && a->to.hw.raw[GD] == 11,
			  "example: 40/200 Mb/s, prio 6 in mode 0, G and gd unchanged");
		n = rtune_surface_mlx5.writes(a->from.hw.raw, a->to.hw.raw, a->mask, order);
		tap_check(n == 3 && order[0] == AI && order[1] == HAI && order[2] == PRIO,
			  "example: writes rp_ai_rate, rp_hai_rate, np_cnp_prio (mode implied), %d", n);
		act_describe(a, buf, sizeof(buf));
		tap_check(!strcmp(buf, "cc (mlx5 0000:fe:00.0) rp_ai_rate 5 -> 40; rp_hai_rate 50 -> 200; "
				  "np_cnp_prio_mode 1 -> 0"), "describe: %s", buf);
	} else {
		tap_check(0, "example: the action's raw values");
		tap_check(0, "example: the writes");
		tap_check(0, "example: describe");
	}
	plan_free(&pl);

	/* after it: nothing to do */
	memcpy(raw, start, sizeof(raw));
	raw[AI] = 40;
	raw[HAI] = 200;
	raw[MODE] = 0;
	put_all(raw);
	dev(&s);
	plan_for("[match]\nrdma_device = rxe0\n[cc]\npreset = connectx\nnp_cnp_dscp = 48\n"
		 "np_cnp_prio = 6\nrp_additive_increase_kbps = 40000\n"
		 "rp_hyper_increase_kbps = 200000\n", &s, &pl);
	tap_check(pl.nerr == 0 && pl.n == 0, "example again: no action");
	plan_free(&pl);

	/* rollback to the start: prio first, then mode 1 again */
	{
		struct rtune_touched t = { { 0 } };
		struct rtune_target tg;

		t.mask[obj_idx(&rtune_obj_cc)] = 1;
		target_from_state(&v, &t, &tg);
		memset(&pl, 0, sizeof(pl));
		plan_device(&s, 0, &tg, &pl);
		n = pl.n == 1 ? rtune_surface_mlx5.writes(pl.a[0].from.hw.raw, pl.a[0].to.hw.raw,
							  pl.a[0].mask, order) : 0;
		tap_check(n == 3 && order[0] == AI && order[1] == HAI && order[2] == MODE &&
			  pl.a[0].mask == (1u << 20) - 1,
			  "rollback checks every file and writes ai, hai and np_cnp_prio_mode 1 (%d)", n);
		plan_free(&pl);
	}

	/* rollback from prio 3 (mode 0) to prio 6 in mode 1 */
	memcpy(raw, start, sizeof(raw));
	raw[PRIO] = 3;
	raw[MODE] = 0;
	put_all(raw);
	dev(&s);
	{
		struct rtune_touched t = { { 0 } };
		struct rtune_target tg;

		t.mask[obj_idx(&rtune_obj_cc)] = 1;
		target_from_state(&v, &t, &tg);
		memset(&pl, 0, sizeof(pl));
		plan_device(&s, 0, &tg, &pl);
		n = pl.n == 1 ? rtune_surface_mlx5.writes(pl.a[0].from.hw.raw, pl.a[0].to.hw.raw,
							  pl.a[0].mask, order) : 0;
		tap_check(n == 2 && order[0] == PRIO && order[1] == MODE,
			  "rollback of prio and mode: np_cnp_prio, then np_cnp_prio_mode (%d)", n);
		plan_free(&pl);
	}

	/* rollback onto a surface that stopped reading: write, do not skip */
	s = v;
	s.cc_ok = false;
	s.hw.err = -EPERM;
	s.hw.raw_valid = 0;
	{
		struct rtune_touched t = { { 0 } };
		struct rtune_target tg;

		t.mask[obj_idx(&rtune_obj_cc)] = 1;
		target_from_state(&v, &t, &tg);
		memset(&pl, 0, sizeof(pl));
		plan_device(&s, 0, &tg, &pl);
		buf[0] = '\0';
		if (pl.n == 1)
			act_describe(&pl.a[0], buf, sizeof(buf));
		tap_check(pl.n == 1 && strstr(buf, "rp_clamp_tgt_rate (unread) -> 0;") &&
			  strstr(buf, "np_cnp_prio (unread) -> 6"),
			  "rollback on an unreadable surface plans every file: %.80s...", buf);
		plan_free(&pl);
	}

	/* refusals */
	plan_for("[match]\nrdma_device = rxe0\n[cc]\necn_codepoint = 1\n", &v, &pl);
	tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "ecn_codepoint") && !pl.n,
		  "an explicit knob-less parameter is refused");
	plan_free(&pl);
	/* rocetune's software DCQCN only: refused when set, 0 accepted silently. */
	for (n = 0; n < 3; n++) {
		static const char *const sw_only[3][2] = {
			{ "rp_sent_rate_window_us", "300000" },
			{ "rp_initial_rate_kbps", "500" },
			{ "rp_path_share_pct", "10" },
		};
		const char *name = sw_only[n][0];
		char prof[160];

		snprintf(prof, sizeof(prof), "[match]\nrdma_device = rxe0\n[cc]\n%s = %s\n",
			 name, sw_only[n][1]);
		plan_for(prof, &v, &pl);
		tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", name) && !pl.n,
			  "%s is refused on mlx5 (software DCQCN only)", name);
		plan_free(&pl);
		snprintf(prof, sizeof(prof), "[match]\nrdma_device = rxe0\n[cc]\n%s = 0\n", name);
		plan_for(prof, &v, &pl);
		tap_check(pl.nerr == 0 && !note(&pl, "cc-unsupported", name) &&
			  !note(&pl, "cc-not-set", name),
			  "an explicit %s of 0 is what mlx5 does: no error, no warning", name);
		plan_free(&pl);
	}
	plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_enabled_prios = 3\n", &v, &pl);
	tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "ROCE_CC_PRIO_MASK_P1"),
		  "per-priority enable refused, pointing to the firmware setting");
	plan_free(&pl);
	plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_min_rate_kbps = 1500\n", &v, &pl);
	tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "whole Mb/s"),
		  "a rate that is not whole Mb/s is refused");
	plan_free(&pl);
	plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_rate_cut_shift = 2\n", &v, &pl);
	tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "rp_gd is 10..11"),
		  "rp_rate_cut_shift 2 (rp_gd 12) is refused");
	plan_free(&pl);
	plan_for("[match]\nrdma_device = rxe0\n[cc]\npreset = paper\n", &v, &pl);
	tap_check(pl.nerr == 2 && note(&pl, "cc-unsupported", "rp_initial_alpha_1024ths = 1024") &&
		  note(&pl, "cc-unsupported", "rp_rate_reduce_period_us = 0"),
		  "the paper preset: initial alpha 1024 and reduce period 0 refused");
	plan_free(&pl);
	plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_alpha_gain_1024ths = 16\n"
		 "rp_alpha_update_period_us = 131071\n", &v, &pl);
	tap_check(pl.nerr == 0 && pl.n == 1 && pl.a[0].to.hw.raw[G] == 1008 &&
		  pl.a[0].to.hw.raw[12] == 131071, "g 16 -> G 1008; the longest alpha period");
	plan_free(&pl);

	/* order: a lowered maximum after the minimum it would fall below */
	memcpy(raw, start, sizeof(raw));
	raw[MINR] = 100;
	put_all(raw);
	dev(&s);
	plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_min_rate_kbps = 10000\n"
		 "rp_max_rate_kbps = 50000\n", &s, &pl);
	n = pl.n == 1 ? rtune_surface_mlx5.writes(pl.a[0].from.hw.raw, pl.a[0].to.hw.raw,
						  pl.a[0].mask, order) : 0;
	tap_check(n == 2 && order[0] == MINR && order[1] == MAXR,
		  "min 100 -> 10, max 0 -> 50: the minimum goes first");
	plan_free(&pl);
	(void)DSCP;

	/* bnxt_re: cc_config/, 13 files read ("%d"), only the markings map */
	{
		static const char *const bn[13] = {
			"enable_cc", "run_avg_weight_g", "num_phase_per_state", "init_cr",
			"init_tr", "tos_ecn", "tos_dscp", "alt_vlan_pcp", "alt_vlan_dscp", "rtt",
			"cc_mode", "tcp_cp", "inactivity_cp",
		};
		static const char *const bv[13] = {
			"1\n", "0\n", "0\n", "0\n", "0\n", "2\n", "26\n", "6\n", "48\n",
			"0\n", "0\n", "0\n", "0\n",
		};
		int i;

		snprintf(dir, sizeof(dir), "%s/bnxt_re", root);
		mkdir(dir, 0700);
		snprintf(dir, sizeof(dir), "%s/bnxt_re/0000:fd:00.0", root);
		mkdir(dir, 0700);
		snprintf(dir, sizeof(dir), "%s/bnxt_re/0000:fd:00.0/cc_config", root);
		mkdir(dir, 0700);
		for (i = 0; i < 13; i++)
			put(bn[i], bv[i]);
		setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=bnxt_re/0000:fd:00.0", 1);
		dev(&s);
		tap_check(s.cc_ok && s.hw.sf == &rtune_surface_bnxt_re && s.hw.raw_valid == (1u << 13) - 1 &&
			  s.cc_valid == ((1u << RTUNE_P_ECN_CODEPOINT) | (1u << RTUNE_P_NP_CNP_DSCP) |
					 (1u << RTUNE_P_NP_CNP_PRIO)) &&
			  s.cc.v[RTUNE_P_NP_CNP_DSCP] == 48 && s.cc.v[RTUNE_P_NP_CNP_PRIO] == 6 &&
			  s.cc.v[RTUNE_P_ECN_CODEPOINT] == 2,
			  "bnxt_re: ECN codepoint, CNP DSCP and priority read from tos_ecn, alt_vlan_dscp, alt_vlan_pcp");
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 46\nnp_cnp_prio = 5\n"
			 "ecn_codepoint = 1\n", &s, &pl);
		buf[0] = '\0';
		if (pl.n == 1)
			act_describe(&pl.a[0], buf, sizeof(buf));
		tap_check(pl.nerr == 0 && !strcmp(buf, "cc (bnxt_re 0000:fd:00.0) tos_ecn 2 -> 1; "
						  "alt_vlan_pcp 6 -> 5; alt_vlan_dscp 48 -> 46"),
			  "bnxt_re: %s", buf);
		plan_free(&pl);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_additive_increase_kbps = 40000\n", &s, &pl);
		tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "Broadcom's own algorithm"),
			  "bnxt_re: DCQCN rate parameters refused with the reason");
		plan_free(&pl);

		/* before Linux 6.15: bnxt_re/<BDF>/ without cc_config/, or none */
		snprintf(dir, sizeof(dir), "%s/bnxt_re/0000:fd:00.1", root);
		mkdir(dir, 0700);
		setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=bnxt_re/0000:fd:00.1", 1);
		dev(&s);
		surface_why(&s, buf, sizeof(buf));
		tap_check(!s.cc_ok && strstr(buf, "0000:fd:00.1/cc_config does not exist: the upstream bnxt_re driver creates it from Linux 6.15 on (this kernel is ") &&
			  !strstr(buf, "firmware"),
			  "bnxt_re: no cc_config/ is the kernel's version, not the firmware's: %s", buf);
		setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=bnxt_re/0000:fd:00.2", 1);
		dev(&s);
		surface_why(&s, buf, sizeof(buf));
		tap_check(!s.cc_ok && strstr(buf, "0000:fd:00.2 does not exist (is debugfs mounted") &&
			  strstr(buf, "from Linux 6.15 on"),
			  "bnxt_re: no device directory: debugfs or the kernel: %s", buf);
		setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=bnxt_re/0000:fd:00.0", 1);
	}


	/* MLNX_OFED: ecn/ of a netdev, per-priority switches as bitmasks */
	{
		static const char *const on[19] = {
			"roce_rp/clamp_tgt_rate", "roce_rp/clamp_tgt_rate_after_time_inc",
			"roce_rp/rpg_time_reset", "roce_rp/rpg_byte_reset", "roce_rp/rpg_threshold",
			"roce_rp/rpg_max_rate", "roce_rp/rpg_ai_rate", "roce_rp/rpg_hai_rate",
			"roce_rp/rpg_gd", "roce_rp/rpg_min_dec_fac", "roce_rp/rpg_min_rate",
			"roce_rp/rate_to_set_on_first_cnp", "roce_rp/dce_tcp_g",
			"roce_rp/dce_tcp_rtt", "roce_rp/rate_reduce_monitor_period",
			"roce_rp/initial_alpha_value", "roce_np/min_time_between_cnps",
			"roce_np/cnp_dscp", "roce_np/cnp_802p_prio",
		};
		static const unsigned int ov[19] = {
			0, 1, 300, 32767, 1, 0, 5, 50, 11, 50, 1, 0, 1019, 1, 4, 1023, 4, 48, 6,
		};
		char net[128], ecn[200], t[16], p[400];
		struct rtune_link o;
		int i, k;

		snprintf(net, sizeof(net), "%s/net", root);
		mkdir(net, 0700);
		snprintf(ecn, sizeof(ecn), "%s/eth0", net);
		mkdir(ecn, 0700);
		snprintf(ecn, sizeof(ecn), "%s/eth0/ecn", net);
		mkdir(ecn, 0700);
		for (i = 0; i < 2; i++) {
			snprintf(p, sizeof(p), "%s/%s", ecn, i ? "roce_np" : "roce_rp");
			mkdir(p, 0700);
			snprintf(p, sizeof(p), "%s/%s/enable", ecn, i ? "roce_np" : "roce_rp");
			mkdir(p, 0700);
		}
		snprintf(dir, sizeof(dir), "%s", ecn);
		for (i = 0; i < 19; i++) {
			snprintf(t, sizeof(t), "%u\n", ov[i]);
			put(on[i], t);
		}
		for (k = 0; k < 8; k++) {
			snprintf(p, sizeof(p), "roce_rp/enable/%d", k);
			put(p, "1\n");
			snprintf(p, sizeof(p), "roce_np/enable/%d", k);
			put(p, k == 3 ? "1\n" : "0\n");
		}
		setenv(RTUNE_ENV_TEST_SYSFS_NET, net, 1);
		setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=mlx5_ofed/eth0", 1);
		dev(&o);
		tap_check(o.cc_ok && o.hw.sf == &rtune_surface_mlx5_ofed && !strcmp(o.hw.dir, ecn) &&
			  o.hw.raw_valid == (1u << 21) - 1 && !o.hw.ro &&
			  !strcmp(o.cc_backend, "mlx5-ofed-sysfs"),
			  "ofed: 19 files and 2 x 8 switches read from <net>/eth0/ecn (%s)", o.hw.dir);
		tap_check(o.cc.v[RTUNE_P_RP_ENABLED_PRIOS] == 0xff &&
			  o.cc.v[RTUNE_P_NP_ENABLED_PRIOS] == 0x08 &&
			  o.cc.v[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS] == 5000 &&
			  o.cc.v[RTUNE_P_RP_ALPHA_GAIN_1024THS] == 5 &&
			  o.cc.v[RTUNE_P_RP_RATE_CUT_SHIFT] == 1 && o.cc.v[RTUNE_P_NP_CNP_PRIO] == 6 &&
			  (o.cc_valid & (1u << RTUNE_P_NP_CNP_PRIO)),
			  "ofed: switches as masks (rp 0-7, np 3), mlx5's conversions, cnp_802p_prio read");
		plan_for("[match]\nrdma_device = rxe0\n[cc]\npreset = connectx\nrp_enabled_prios = 3\n"
			 "np_enabled_prios = 3\nnp_cnp_dscp = 48\nnp_cnp_prio = 6\n"
			 "rp_additive_increase_kbps = 40000\nrp_hyper_increase_kbps = 200000\n", &o, &pl);
		buf[0] = '\0';
		if (pl.n == 1)
			act_describe(&pl.a[0], buf, sizeof(buf));
		tap_check(pl.nerr == 0 && !strcmp(buf, "cc (mlx5_ofed eth0) roce_rp/rpg_ai_rate 5 -> 40; "
						  "roce_rp/rpg_hai_rate 50 -> 200; roce_rp/enable 0-7 -> 3"),
			  "ofed example: %s", buf);
		tap_check(note(&pl, "cc-not-set", "ecn_enabled_prios, ecn_codepoint, np_cnp_ecn") &&
			  !note(&pl, "cc-not-set", "rp_enabled_prios"),
			  "ofed example: only the three knob-less preset values are a warning");
		n = pl.n == 1 ? rtune_surface_mlx5_ofed.writes(pl.a[0].from.hw.raw, pl.a[0].to.hw.raw,
							       pl.a[0].mask, order) : 0;
		tap_check(n == 3 && order[0] == 6 && order[1] == 7 && order[2] == 19,
			  "ofed: parameters first, then the switches (%d writes)", n);
		plan_free(&pl);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\necn_enabled_prios = 3\n", &o, &pl);
		tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "roce_rp/enable"),
			  "ofed: ecn_enabled_prios refused, pointing to the switches");
		plan_free(&pl);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_byte_counter_bytes = 3000000000\n",
			 &o, &pl);
		tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "signed int"),
			  "ofed: a value above INT_MAX refused (the driver's %%d)");
		plan_free(&pl);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_rate_cut_shift = 2\n", &o, &pl);
		tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "roce_rp/rpg_gd is 10..11"),
			  "ofed: mlx5's ranges, with OFED's file names");
		plan_free(&pl);

		/* a switch that reads neither 0 nor 1 */
		put("roce_np/enable/5", "2\n");
		dev(&s);
		surface_why(&s, buf, sizeof(buf));
		tap_check(!s.cc_ok && s.hw.err == -EPROTO && strstr(buf, "roce_np/enable/5") &&
			  strstr(buf, "reads 0 or 1"), "ofed: a bad switch: %s", buf);
		put("roce_np/enable/5", "0\n");

		/* a VF: no write bit */
		snprintf(p, sizeof(p), "%s/roce_rp/rpg_ai_rate", ecn);
		chmod(p, 0444);
		dev(&s);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_additive_increase_kbps = 40000\n", &s, &pl);
		tap_check(s.cc_ok && s.hw.ro && pl.nerr == 1 && !pl.n &&
			  note(&pl, "cc-read-only", "virtual function"),
			  "ofed VF: a change is refused with cc-read-only");
		plan_free(&pl);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_additive_increase_kbps = 5000\n", &s, &pl);
		tap_check(pl.nerr == 0 && !pl.n, "ofed VF: a profile it matches is fine");
		plan_free(&pl);
		chmod(p, 0644);

		/* both trees: mlx5 mapped by BDF, OFED's ecn/ found through the netdev */
		setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=mlx5/0000:fe:00.0", 1);
		dev(&s);
		tap_check(s.hw.sf == &rtune_surface_mlx5_ofed && !strcmp(s.hw.id, "eth0") &&
			  strstr(s.hw.unused, "cc_params/ of 0000:fe:00.0"),
			  "both trees: MLNX_OFED's is used, debugfs named as not used (%s)", s.hw.unused);
		unsetenv(RTUNE_ENV_TEST_SYSFS_NET);
		dev(&s);
		tap_check(s.hw.sf == &rtune_surface_mlx5 && !s.hw.unused[0],
			  "without ecn/ the debugfs tree is used");
	}

	/* irdma: a configfs group made for each access and removed after */
	{
		char cfs[128], grp[200], p[400], stamp[400], sd[160];
		struct rtune_link r;
		pid_t kid;
		FILE *f;

		snprintf(cfs, sizeof(cfs), "%s/irdma", root);
		mkdir(cfs, 0700);
		snprintf(sd, sizeof(sd), "%s/state", root);
		setenv("ROCETUNE_STATE_DIR", sd, 1);
		setenv(RTUNE_ENV_TEST_IRDMA_CONFIGFS, cfs, 1);
		setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=irdma/rxe0", 1);
		snprintf(grp, sizeof(grp), "%s/rxe0", cfs);
		snprintf(stamp, sizeof(stamp), "%s/cfs-group%s", sd, grp);
		for (char *q = stamp + strlen(sd) + strlen("/cfs-group"); *q; q++)
			if (*q == '/')
				*q = '_';

		/* mkdir, nothing in it (a plain directory): the read fails, the group goes */
		dev(&r);
		surface_why(&r, buf, sizeof(buf));
		tap_check(r.hw.sf == &rtune_surface_irdma && !r.cc_ok && r.hw.err == -ENOENT &&
			  access(grp, F_OK) && access(stamp, F_OK),
			  "irdma: made, read failed, removed again with its stamp: %s", buf);

		/* a group that exists is someone's: read, left alone */
		mkdir(grp, 0700);
		snprintf(dir, sizeof(dir), "%s", grp);
		put("roce_dcqcn_enable", "0\n");
		put("roce_dctcp_enable", "0\n");
		put("roce_timely_enable", "0\n");
		put("cnp_up_override", "0\n");
		dev(&r);
		tap_check(r.cc_ok && r.hw.raw_valid == 0xf && !access(grp, F_OK) &&
			  !strcmp(r.cc_backend, "irdma-configfs") &&
			  (r.cc_valid & (1u << RTUNE_P_RP_ENABLED_PRIOS)) &&
			  r.cc.v[RTUNE_P_RP_ENABLED_PRIOS] == 0,
			  "irdma: an existing group is read and left; dcqcn 0 reads as rp_enabled_prios none");
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_enabled_prios = 0-7\n", &r, &pl);
		buf[0] = '\0';
		if (pl.n == 1)
			act_describe(&pl.a[0], buf, sizeof(buf));
		tap_check(pl.nerr == 0 && !strcmp(buf, "cc (irdma rxe0) roce_dcqcn_enable 0 -> 1") &&
			  note(&pl, "cc-new-qps-only", "new QPs only"),
			  "irdma: rp_enabled_prios 0-7 writes roce_dcqcn_enable 1, new QPs only: %s", buf);
		plan_free(&pl);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_enabled_prios = 3\n", &r, &pl);
		tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "one switch for every priority"),
			  "irdma: a single priority is refused (one switch)");
		plan_free(&pl);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_fast_recovery_stages = 5\n", &r, &pl);
		tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "dcqcn_F") &&
			  note(&pl, "cc-unsupported", "needs a reload"),
			  "irdma: DCQCN tuning refused as a module parameter that needs a reload");
		plan_free(&pl);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_enabled_prios = none\n", &r, &pl);
		tap_check(pl.nerr == 0 && pl.n == 0 && !note(&pl, "cc-new-qps-only", NULL),
			  "irdma: nothing to change, no warning");
		plan_free(&pl);
		irdma_load_tests(&r);

		/* a stamp whose process is gone: the group a killed run left, removed */
		put("roce_dcqcn_enable", "1\n");
		snprintf(p, sizeof(p), "%s/roce_dcqcn_enable", grp);
		kid = fork();
		if (!kid)
			_exit(0);
		waitpid(kid, NULL, 0);
		/* make the group removable (plain rmdir needs it empty) */
		snprintf(p, sizeof(p), "rm -f '%s'/*", grp);
		if (system(p))
			abort();
		mkdir(sd, 0700);
		f = fopen(stamp, "w");
		if (f) {
			fprintf(f, "%ld\n", (long)getppid());
			fclose(f);
		}
		dev(&r);
		tap_check(!access(grp, F_OK) && !access(stamp, F_OK),
			  "irdma: a stamp of a live process: its group is left alone");
		f = fopen(stamp, "w");
		if (f) {
			fprintf(f, "%ld\n", (long)kid);
			fclose(f);
		}
		dev(&r);
		tap_check(access(grp, F_OK) && access(stamp, F_OK),
			  "irdma: a stamp of a dead process: the orphaned group and stamp are removed");

		/* no irdma configfs at all */
		setenv(RTUNE_ENV_TEST_IRDMA_CONFIGFS, "/nonexistent/irdma", 1);
		dev(&r);
		surface_why(&r, buf, sizeof(buf));
		tap_check(!r.cc_ok && r.hw.err == -ENOENT && strstr(buf, "out-of-tree irdma"),
			  "irdma: no configfs subsystem: %s", buf);
		unsetenv(RTUNE_ENV_TEST_IRDMA_CONFIGFS);
	}

	/* rdma_cm: its group a killed apply left is removed by the next read */
	{
		char cfs[128], grp[200], stamp[400], sd[160];
		int mode = -1, tos = -1;
		pid_t kid;
		FILE *f;

		snprintf(cfs, sizeof(cfs), "%s/cmfs", root);
		mkdir(cfs, 0700);
		setenv("ROCETUNE_CONFIGFS", cfs, 1);
		snprintf(sd, sizeof(sd), "%s/state", root);
		setenv("ROCETUNE_STATE_DIR", sd, 1);
		snprintf(grp, sizeof(grp), "%s/rdma_cm", cfs);
		mkdir(grp, 0700);
		snprintf(grp, sizeof(grp), "%s/rdma_cm/rxe0", cfs);
		snprintf(stamp, sizeof(stamp), "%s/cfs-group%s", sd, grp);
		for (char *q = stamp + strlen(sd) + strlen("/cfs-group"); *q; q++)
			if (*q == '/')
				*q = '_';

		/* a plain directory: the read fails, the group it made goes */
		tap_check(cm_get("rxe0", 1, &mode, &tos) == -ENOENT &&
			  access(grp, F_OK) && access(stamp, F_OK),
			  "rdma_cm: made for the read, removed after with its stamp");
		kid = fork();
		if (!kid)
			_exit(0);
		waitpid(kid, NULL, 0);
		mkdir(grp, 0700);
		mkdir(sd, 0700);
		f = fopen(stamp, "w");
		if (f) {
			fprintf(f, "%ld\n", (long)getppid());
			fclose(f);
		}
		cm_get("rxe0", 1, &mode, &tos);
		tap_check(!access(grp, F_OK) && !access(stamp, F_OK),
			  "rdma_cm: a group stamped by a live process is left alone");
		f = fopen(stamp, "w");
		if (f) {
			fprintf(f, "%ld\n", (long)kid);
			fclose(f);
		}
		cm_get("rxe0", 1, &mode, &tos);
		tap_check(access(grp, F_OK) && access(stamp, F_OK),
			  "rdma_cm: a group stamped by a dead process (a killed apply) is removed");
		rmdir(grp);
		unlink(stamp);
		/* a group nobody stamped is someone else's: left alone */
		mkdir(grp, 0700);
		cm_get("rxe0", 1, &mode, &tos);
		tap_check(!access(grp, F_OK), "rdma_cm: an unstamped group is left alone");
		rmdir(grp);
		unsetenv("ROCETUNE_CONFIGFS");
	}

	/* Broadcom's out-of-tree bnxt_re: configfs group, "%#x" files, staged */
	{
		static const char *const oot[17] = {
			"ecn_enable", "ecn_marking", "cc_mode", "cnp_dscp", "cnp_prio", "roce_dscp",
			"roce_prio", "g", "init_cr", "init_tr", "inact_th", "nph_per_state",
			"time_pph", "pkts_pph", "rtt", "tcp_cp", "disable_prio_vlan_tx",
		};
		static const char *const val[17] = {
			"0x1\n", "0x1\n", "0\n", "0x30\n", "0x7\n", "0x1a\n", "0x3\n", "0x8\n",
			"0x3c0\n", "0x3c0\n", "0x2710\n", "0x4\n", "0x3\n", "0x4\n", "0x2d\n",
			"0x3ff\n", "0\n",
		};
		const struct rtune_surface *sf = &rtune_surface_bnxt_re_oot;
		char cfs[128], grp[200], p[400], sd[160];
		uint32_t raw[RTUNE_SURF_MAX_FILES] = { 0 }, valid;
		struct rtune_link r;
		int i;

		snprintf(cfs, sizeof(cfs), "%s/bnxt_re", root);
		mkdir(cfs, 0700);
		snprintf(sd, sizeof(sd), "%s/state", root);
		setenv("ROCETUNE_STATE_DIR", sd, 1);
		setenv(RTUNE_ENV_TEST_BNXT_RE_CONFIGFS, cfs, 1);
		setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=bnxt_re_oot/rxe0", 1);
		snprintf(grp, sizeof(grp), "%s/rxe0", cfs);
		mkdir(grp, 0700);
		snprintf(p, sizeof(p), "%s/ports", grp);
		mkdir(p, 0700);
		snprintf(p, sizeof(p), "%s/ports/1", grp);
		mkdir(p, 0700);
		snprintf(dir, sizeof(dir), "%s/ports/1/cc", grp);
		mkdir(dir, 0700);
		for (i = 0; i < 17; i++)
			put(oot[i], val[i]);
		dev(&r);
		tap_check(r.cc_ok && r.hw.sf == sf && r.hw.raw_valid == 0x1ffff &&
			  r.hw.raw[3] == 48 && r.hw.raw[2] == 0 && r.hw.raw[10] == 10000 &&
			  r.cc.v[RTUNE_P_NP_CNP_DSCP] == 48 && r.cc.v[RTUNE_P_NP_CNP_PRIO] == 7 &&
			  r.cc.v[RTUNE_P_RP_ENABLED_PRIOS] == 0xff && r.cc.v[RTUNE_P_ECN_CODEPOINT] == 1 &&
			  !strcmp(r.cc_backend, "bnxt_re-configfs"),
			  "bnxt_re oot: the 17 files read as %%#x (0 and 0x..), mapped to neutral values");
		put("cnp_dscp", "48\n");
		dev(&r);
		surface_why(&r, buf, sizeof(buf));
		tap_check(!r.cc_ok && r.hw.err == -EPROTO && strstr(buf, "%#x"),
			  "bnxt_re oot: a file not in %%#x is refused: %s", buf);
		put("cnp_dscp", "0x30\n");
		put("apply", "ecn status (ecn_enable)\t\t\t\t\t: Enabled\n"
		    "ecn marking (ecn_marking)\t\t\t\t: ECT(0)\n"
		    "congestion control mode (cc_mode)\t\t\t: DCQCN-D\n"
		    "send priority vlan (VLAN 0)\t\t\t\t: Enabled\n"
		    "running avg. weight(g)\t\t\t\t\t: 8\n"
		    "inactivity threshold (inact_th)\t\t\t\t: 10000 usec\n"
		    "initial current rate (init_cr)\t\t\t\t: 0x3c0\n"
		    "cnp dscp (cnp_dscp)\t\t\t\t\t: 46\n"
		    "tcp congestion probability\t\t: 0x3ff\n");
		snprintf(p, sizeof(p), "%s/apply", dir);
		{
			char text[1024];

			cfs_read(p, text, sizeof(text));
			surface_parse_dump(sf, text, raw, &valid);
		}
		tap_check(valid == ((1u << 0) | (1u << 1) | (1u << 2) | (1u << 7) | (1u << 10) |
				    (1u << 8) | (1u << 3)) &&
			  raw[0] == 1 && raw[1] == 2 && raw[2] == 0 && raw[7] == 8 && raw[10] == 10000 &&
			  raw[8] == 0x3c0 && raw[3] == 46,
			  "bnxt_re oot: cat apply parsed (words, %%u, usec, %%#x; lines without a key skipped)");
		dev(&r);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nnp_cnp_dscp = 46\nnp_cnp_prio = 5\n"
			 "ecn_codepoint = 2\n", &r, &pl);
		buf[0] = '\0';
		if (pl.n == 1)
			act_describe(&pl.a[0], buf, sizeof(buf));
		tap_check(pl.nerr == 0 && strstr(buf, "ports/1/cc/ecn_marking 1 -> 2") &&
			  strstr(buf, "ports/1/cc/cnp_dscp 48 -> 46") &&
			  note(&pl, "cc-not-in-firmware", "ports/1/cc/ecn_marking: the firmware has 2, the file 1"),
			  "bnxt_re oot: markings planned; a cache differing from the firmware is a warning: %s",
			  buf);
		plan_free(&pl);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_hyper_increase_kbps = 50000\n", &r, &pl);
		tap_check(pl.nerr == 1 && pl.n == 0 && note(&pl, "cc-unsupported", "own algorithm"),
			  "bnxt_re oot: DCQCN rate parameters refused, nothing planned");
		plan_free(&pl);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_enabled_prios = none\nnp_cnp_dscp = 46\n",
			 &r, &pl);
		tap_check(pl.nerr == 1 && pl.n == 0 && note(&pl, "cc-unsupported", "resets cnp_dscp"),
			  "bnxt_re oot: CNP marking with CC off refused (the apply would reset it)");
		plan_free(&pl);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nrp_enabled_prios = 3\n", &r, &pl);
		tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "0-7 or none only"),
			  "bnxt_re oot: one priority refused (one switch)");
		plan_free(&pl);
		plan_for("[match]\nrdma_device = rxe0\n[cc]\nnp_min_cnp_interval_us = 4\n", &r, &pl);
		tap_check(pl.nerr == 1 && note(&pl, "cc-unsupported", "P5/P7"),
			  "bnxt_re oot: extended-set parameters refused with the reason");
		plan_free(&pl);

		/* a bnxt_en device finds the out-of-tree surface when its configfs is there */
		setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=bnxt_re/0000:fd:00.0", 1);
		dev(&r);
		tap_check(r.hw.sf == sf && !strcmp(r.hw.id, "rxe0"),
			  "bnxt_re oot: preferred to debugfs when bnxt_re's configfs exists");
		setenv(RTUNE_ENV_TEST_BNXT_RE_CONFIGFS, "/nonexistent/bnxt_re", 1);
		dev(&r);
		tap_check(r.hw.sf == &rtune_surface_bnxt_re, "bnxt_re oot: else the upstream debugfs");
		unsetenv(RTUNE_ENV_TEST_BNXT_RE_CONFIGFS);
		unsetenv(RTUNE_ENV_TEST_SURFACE);
	}

	snprintf(dir, sizeof(dir), "%s/mlx5/0000:fe:00.0/cc_params", root);
	put_all(start);
	setenv(RTUNE_ENV_TEST_SURFACE, "rxe0=mlx5/0000:fe:00.0", 1);
	dev(&v);
	mstcfg_tests(&v);
	unsetenv(RTUNE_ENV_TEST_SURFACE);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			tap_diag("could not remove %s", root);
	}
	return tap_done();
}
