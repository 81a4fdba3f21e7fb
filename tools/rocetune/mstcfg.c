// SPDX-License-Identifier: GPL-2.0
/*
 * Live against persistent CC values of mlx5 devices (mstcfg.h): run
 * `mstconfig -d <PCI BDF> query`, parse it (mstcfg_parse.c), and compare
 * each NVconfig parameter with the surface file that holds the same
 * firmware field (the names are the same fields: mlx5_ifc.h's
 * cong_control_r_roce_ecn_rp/np and mstflint's nv_roce_cc_ecn TLV, in
 * the same units). Only show and diff read them: mstconfig takes seconds
 * on real hardware, and apply at boot has no use for them.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "mstcfg.h"
#include "obj.h"
#include "surface.h"
#include "testhook.h"

/* mstconfig on a busy host takes a few seconds; never hang show */
#define MSTCFG_TIMEOUT_MS 30000

/* An NVconfig parameter and the file of each mlx5 surface with its field. */
static const struct {
	enum rtune_nv nv;
	const char *mlx5;	/* upstream debugfs cc_params/ */
	const char *ofed;	/* MLNX_OFED ecn/ */
} fields[] = {
	/* one mask in NVconfig, one switch per point in MLNX_OFED */
	{ RTUNE_NV_PRIO_MASK, NULL, "roce_rp/enable" },
	{ RTUNE_NV_PRIO_MASK, NULL, "roce_np/enable" },
	{ RTUNE_NV_CLAMP_TGT_RATE, "rp_clamp_tgt_rate", "roce_rp/clamp_tgt_rate" },
	{ RTUNE_NV_CLAMP_TGT_RATE_ATI, "rp_clamp_tgt_rate_ati",
	  "roce_rp/clamp_tgt_rate_after_time_inc" },
	{ RTUNE_NV_TIME_RESET, "rp_time_reset", "roce_rp/rpg_time_reset" },
	{ RTUNE_NV_BYTE_RESET, "rp_byte_reset", "roce_rp/rpg_byte_reset" },
	{ RTUNE_NV_THRESHOLD, "rp_threshold", "roce_rp/rpg_threshold" },
	{ RTUNE_NV_MAX_RATE, "rp_max_rate", "roce_rp/rpg_max_rate" },
	{ RTUNE_NV_AI_RATE, "rp_ai_rate", "roce_rp/rpg_ai_rate" },
	{ RTUNE_NV_HAI_RATE, "rp_hai_rate", "roce_rp/rpg_hai_rate" },
	{ RTUNE_NV_GD, "rp_gd", "roce_rp/rpg_gd" },
	{ RTUNE_NV_MIN_DEC_FAC, "rp_min_dec_fac", "roce_rp/rpg_min_dec_fac" },
	{ RTUNE_NV_MIN_RATE, "rp_min_rate", "roce_rp/rpg_min_rate" },
	{ RTUNE_NV_RATE_FIRST_CNP, "rp_rate_to_set_on_first_cnp",
	  "roce_rp/rate_to_set_on_first_cnp" },
	{ RTUNE_NV_DCE_TCP_G, "rp_dce_tcp_g", "roce_rp/dce_tcp_g" },
	{ RTUNE_NV_DCE_TCP_RTT, "rp_dce_tcp_rtt", "roce_rp/dce_tcp_rtt" },
	{ RTUNE_NV_RATE_REDUCE_PERIOD, "rp_rate_reduce_monitor_period",
	  "roce_rp/rate_reduce_monitor_period" },
	{ RTUNE_NV_INITIAL_ALPHA, "rp_initial_alpha_value", "roce_rp/initial_alpha_value" },
	{ RTUNE_NV_MIN_TIME_CNPS, "np_min_time_between_cnps", "roce_np/min_time_between_cnps" },
	{ RTUNE_NV_CNP_802P_PRIO, "np_cnp_prio", "roce_np/cnp_802p_prio" },
	{ RTUNE_NV_CNP_PRIO_MODE, "np_cnp_prio_mode", NULL },
	{ RTUNE_NV_CNP_DSCP, "np_cnp_dscp", "roce_np/cnp_dscp" },
};

#define NFIELDS ((int)(sizeof(fields) / sizeof(fields[0])))

static bool is_mlx5(const struct rtune_surface *sf)
{
	return sf == &rtune_surface_mlx5 || sf == &rtune_surface_mlx5_ofed;
}

/* The surface file of row @k, or -1 when the surface has none. */
static int field_file(const struct rtune_surface *sf, int k)
{
	const char *name = sf == &rtune_surface_mlx5 ? fields[k].mlx5 : fields[k].ofed;
	int f;

	for (f = 0; name && f < sf->nfiles; f++)
		if (!strcmp(sf->files[f], name))
			return f;
	return -1;
}

/* mstconfig in $PATH (or the test build's stand-in), into @buf. */
static int find_mstconfig(char *buf, size_t len)
{
	const char *t = rtune_test_mstconfig(), *path = getenv("PATH");
	char dirs[1024], *save = NULL, *d;

	if (t) {
		snprintf(buf, len, "%s", t);
		return 0;
	}
	snprintf(dirs, sizeof(dirs), "%s:/usr/sbin:/usr/bin:/sbin:/bin", path ? path : "");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (*d != '/')
			continue;	/* never a relative directory as root */
		snprintf(buf, len, "%s/mstconfig", d);
		if (!access(buf, X_OK))
			return 0;
	}
	return -ENOENT;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/*
 * Run @exe -d @pci query, its stdout and stderr into *@out (malloc'd,
 * *@n bytes). Returns the exit status (0..255), or -errno with @why.
 */
static int run(const char *exe, const char *pci, char **out, size_t *n, char *why, size_t wlen)
{
	char *const argv[] = { (char *)"mstconfig", (char *)"-d", (char *)pci, (char *)"query", NULL };
	long deadline = now_ms() + MSTCFG_TIMEOUT_MS;
	int p[2], st, err = 0;
	pid_t pid;
	char *buf;

	*out = NULL;
	*n = 0;
	buf = malloc(RTUNE_MSTCFG_MAX_OUT + 1);
	if (!buf || pipe2(p, O_CLOEXEC)) {
		err = buf ? -errno : -ENOMEM;
		free(buf);
		snprintf(why, wlen, "cannot run %s: %s", exe, strerror(-err));
		return err;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		err = -errno;
		snprintf(why, wlen, "cannot run %s: %s", exe, strerror(errno));
		close(p[0]);
		close(p[1]);
		free(buf);
		return err;
	}
	if (!pid) {
		int nul = open("/dev/null", O_RDONLY);

		if (nul >= 0)
			dup2(nul, 0);
		dup2(p[1], 1);
		dup2(p[1], 2);
		execv(exe, argv);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		long left = deadline - now_ms();
		ssize_t r;

		if (left <= 0) {
			err = -ETIMEDOUT;
			snprintf(why, wlen, "%s -d %s query did not finish in %d s", exe, pci,
				 MSTCFG_TIMEOUT_MS / 1000);
			break;
		}
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR) {
			err = -errno;
			snprintf(why, wlen, "poll: %s", strerror(errno));
			break;
		}
		if (!pfd.revents)
			continue;
		r = read(p[0], buf + *n, RTUNE_MSTCFG_MAX_OUT + 1 - *n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		*n += (size_t)r;
		if (*n > RTUNE_MSTCFG_MAX_OUT) {
			err = -E2BIG;
			snprintf(why, wlen, "%s printed more than %d bytes", exe, RTUNE_MSTCFG_MAX_OUT);
			break;
		}
	}
	close(p[0]);
	if (err)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (err) {
		free(buf);
		*n = 0;
		return err;
	}
	*out = buf;
	if (WIFSIGNALED(st)) {
		snprintf(why, wlen, "%s killed by signal %d", exe, WTERMSIG(st));
		return -EIO;
	}
	if (WEXITSTATUS(st) == 127) {
		snprintf(why, wlen, "cannot execute %s", exe);
		return -ENOEXEC;
	}
	return WEXITSTATUS(st);
}

/*
 * NVconfig's port of PCI function @pci. The _Pn names are the firmware's
 * physical ports (mstflint: the TLV's port field, 1-based). Linux's mlx5
 * gives a PF's devlink port flavour "physical" with port_number
 * mlx5_get_dev_index(): the function's native_port_num capability - 1,
 * or the PCI function number when the firmware reports none
 * (include/linux/mlx5/driver.h, en/devlink.c, Linux 6.1). So: devlink's
 * number + 1 (@phys >= 0); a port of another flavour (a VF, an SF; @phys
 * -1) has no NVconfig of its own; without a devlink port (@phys -2:
 * older kernels, or none found) the PCI function + 1, the same fallback.
 */
static int nv_port(const char *pci, int phys, const char **from, char *why, size_t wlen)
{
	const char *dot = strrchr(pci, '.');

	*from = "devlink";
	if (phys >= 0 && phys < RTUNE_NV_MAX_PORT)
		return phys + 1;
	if (phys >= 0) {
		snprintf(why, wlen, "devlink's physical port %d of %s: mstconfig names ports 1 to %d",
			 phys, pci, RTUNE_NV_MAX_PORT);
		return -ERANGE;
	}
	if (phys == -1) {
		snprintf(why, wlen,
			 "%s is not a physical port's function (devlink flavour): NVconfig is read and set through the PF",
			 pci);
		return -EOPNOTSUPP;
	}
	*from = "pci-function";
	if (!dot || dot[1] < '0' || dot[1] > '7' || dot[2]) {
		snprintf(why, wlen, "%s is not a PCI address", pci);
		return -EINVAL;
	}
	return dot[1] - '0' + 1;
}

int rtune_mstcfg_query(const char *pci, int phys, struct rtune_nvcc *nv, int *port,
		       const char **from, char *why, size_t wlen)
{
	char exe[300], perr[240];
	size_t n;
	char *out;
	int rc, err;

	memset(nv, 0, sizeof(*nv));
	*port = nv_port(pci, phys, from, why, wlen);
	if (*port < 0)
		return *port;
	if (find_mstconfig(exe, sizeof(exe))) {
		snprintf(why, wlen, "mstconfig not found in PATH (Debian package mstflint)");
		return -ENOENT;
	}
	rc = run(exe, pci, &out, &n, why, wlen);
	if (rc < 0) {
		free(out);
		return rc;
	}
	err = rtune_mstcfg_parse(out, n, *port, nv, perr, sizeof(perr));
	free(out);
	if (rc) {
		/* its own "-E-" line says why, when it printed one */
		if (err && !strncmp(perr, "mstconfig: ", 11))
			snprintf(why, wlen, "mstconfig -d %s query failed (exit %d): %s", pci, rc,
				 perr + 11);
		else
			snprintf(why, wlen, "mstconfig -d %s query failed (exit %d)", pci, rc);
		return -EIO;
	}
	if (err) {
		snprintf(why, wlen, "mstconfig -d %s query: %s", pci, perr);
		return err;
	}
	if (!nv->valid && !nv->na) {
		snprintf(why, wlen,
			 "mstconfig -d %s query shows no RoCE congestion-control parameter of port %d",
			 pci, *port);
		return -ENODATA;
	}
	return 0;
}

void rtune_mstcfg_read_host(struct rtune_host *h)
{
	int i;

	for (i = 0; i < h->n; i++) {
		struct rtune_link *d = &h->dev[i];
		struct rtune_hwnv *s = &d->hw.nv;
		int err;

		if (!d->hw.sf || !is_mlx5(d->hw.sf) || !d->cc_ok)
			continue;
		err = rtune_mstcfg_query(d->hw.pci, d->dl.ok ? d->dl.phys_port : -2, &s->cc,
					 &s->port, &s->port_from, s->why, sizeof(s->why));
		s->state = err ? err : 1;
	}
}

/* A raw value as text: a priority list for a per-priority switch. */
static void raw_text(const struct rtune_surface *sf, int f, uint32_t v, char *buf, size_t len)
{
	if ((sf->groups & (1u << f)) && v <= 0xff)
		rtune_param_format(RTUNE_P_RP_ENABLED_PRIOS, v, buf, len);
	else
		snprintf(buf, len, "%u", v);
}

/* "file live (NAME_Pn next)" for each file of @raw that differs; count. */
static int differ_text(const struct rtune_link *v, const uint32_t *raw, char *buf, size_t len)
{
	const struct rtune_surface *sf = v->hw.sf;
	const struct rtune_hwnv *s = &v->hw.nv;
	size_t n = 0;
	int k, cnt = 0;

	buf[0] = '\0';
	for (k = 0; k < NFIELDS; k++) {
		int f = field_file(sf, k);
		char a[32], b[32];

		if (f < 0 || !(v->hw.raw_valid & (1u << f)) || !(s->cc.valid & (1u << fields[k].nv)) ||
		    raw[f] == s->cc.v[fields[k].nv])
			continue;
		cnt++;
		raw_text(sf, f, raw[f], a, sizeof(a));
		raw_text(sf, f, s->cc.v[fields[k].nv], b, sizeof(b));
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s %s (%s_P%d %s)", n ? ", " : "",
					      sf->files[f], a, rtune_nv_names[fields[k].nv], s->port, b);
	}
	return cnt;
}

void rtune_mstcfg_show(struct rtune_pr *pr, const struct rtune_link *v)
{
	const struct rtune_surface *sf = v->hw.sf;
	const struct rtune_hwnv *s = &v->hw.nv;
	char name[48], diff[1024], a[32], b[32];
	int k, nv;
	bool live[RTUNE_NV_COUNT] = { false };

	if (!s->state || !sf)
		return;
	pr_obj(pr, "persistent");
	pr_str(pr, PR_JSON, "source", NULL, "mstconfig");
	pr_str(pr, PR_JSON, "pci", NULL, v->hw.pci);
	if (s->state < 0) {
		pr_str(pr, PR_JSON, "error", NULL, s->why);
		pr_text(pr, "        persistent (next boot): not read: %s; whether the live values survive a reboot is unknown\n",
			s->why);
		pr_end_obj(pr);
		return;
	}
	pr_null(pr, "error");
	pr_uint(pr, PR_JSON, "port", NULL, (unsigned int)s->port);
	pr_str(pr, PR_JSON, "port_from", NULL, s->port_from);
	if (differ_text(v, v->hw.raw, diff, sizeof(diff)))
		pr_text(pr, "        live differs from persistent (mstconfig -d %s, next boot): %s; a reboot or firmware reset brings back the next-boot values\n",
			v->hw.pci, diff);
	else
		pr_text(pr, "        persistent (mstconfig -d %s, next boot): the live values match\n",
			v->hw.pci);
	pr_arr(pr, "differs");
	for (k = 0; k < NFIELDS; k++) {
		int f = field_file(sf, k);

		if (f < 0)
			continue;
		live[fields[k].nv] = true;
		if (!(v->hw.raw_valid & (1u << f)) || !(s->cc.valid & (1u << fields[k].nv)) ||
		    v->hw.raw[f] == s->cc.v[fields[k].nv])
			continue;
		snprintf(name, sizeof(name), "%s_P%d", rtune_nv_names[fields[k].nv], s->port);
		pr_obj(pr, NULL);
		pr_str(pr, PR_JSON, "file", NULL, sf->files[f]);
		pr_uint(pr, PR_JSON, "live", NULL, v->hw.raw[f]);
		pr_str(pr, PR_JSON, "nvconfig", NULL, name);
		pr_uint(pr, PR_JSON, "next_boot", NULL, s->cc.v[fields[k].nv]);
		pr_end_obj(pr);
	}
	pr_end_arr(pr);
	/* what only the firmware config shows on this surface */
	pr_obj(pr, "next_boot_only");
	diff[0] = '\0';
	for (nv = 0; nv < RTUNE_NV_COUNT; nv++) {
		if (live[nv] || !(s->cc.valid & (1u << nv)))
			continue;
		snprintf(name, sizeof(name), "%s_P%d", rtune_nv_names[nv], s->port);
		pr_uint(pr, PR_JSON, name, NULL, s->cc.v[nv]);
		if (nv == RTUNE_NV_PRIO_MASK && s->cc.v[nv] <= 0xff)
			rtune_param_format(RTUNE_P_RP_ENABLED_PRIOS, s->cc.v[nv], a, sizeof(a));
		else if (nv == RTUNE_NV_ALGORITHM)
			snprintf(a, sizeof(a), "%s", s->cc.v[nv] == 0 ? "ECN" :
				 s->cc.v[nv] == 1 ? "QCN" : "?");
		else
			snprintf(a, sizeof(a), "%u", s->cc.v[nv]);
		snprintf(b, sizeof(b), "%s", diff[0] ? ", " : "");
		snprintf(diff + strlen(diff), sizeof(diff) - strlen(diff), "%s%s %s", b, name, a);
	}
	pr_end_obj(pr);
	if (diff[0])
		pr_text(pr, "        next boot only (no live file on %s): %s\n", sf->name, diff);
	pr_end_obj(pr);
}

void rtune_mstcfg_plan_notes(const struct rtune_host *h, struct rtune_plan *pl)
{
	int i, k;

	for (i = 0; i < h->n; i++) {
		const struct rtune_link *d = &h->dev[i];
		uint32_t raw[RTUNE_SURF_MAX_FILES];
		bool changes = false;
		char diff[600];
		int cnt;

		if (!d->hw.sf || !d->hw.nv.state)
			continue;
		/* the values after the plan: the current ones, then each cc action's */
		memcpy(raw, d->hw.raw, sizeof(raw));
		for (k = 0; k < pl->n; k++) {
			const struct rtune_action *a = &pl->a[k];
			int f;

			if (a->dev != i || a->obj != &rtune_obj_cc || !a->from.hw.sf)
				continue;
			for (f = 0; f < d->hw.sf->nfiles; f++)
				if (a->mask & (1u << f)) {
					changes |= raw[f] != a->to.hw.raw[f];
					raw[f] = a->to.hw.raw[f];
				}
		}
		if (d->hw.nv.state < 0) {
			if (changes)
				plan_note(pl, i, RTUNE_SEV_WARNING, "cc-persistent-unknown",
					  "%s/%u: the [cc] change is live only, and the next-boot values could not be read: %s",
					  d->ibdev, d->port, d->hw.nv.why);
			continue;
		}
		/* the list last: a note that is too long loses its tail only */
		cnt = differ_text(d, raw, diff, sizeof(diff));
		if (cnt)
			plan_note(pl, i, RTUNE_SEV_WARNING, "cc-not-persistent",
				  "%s/%u: %s%d live value%s from the next-boot firmware config, which a reboot or firmware reset brings back (mstconfig -d %s): %s",
				  d->ibdev, d->port, changes ? "after this apply, " : "", cnt,
				  cnt == 1 ? " differs" : "s differ", d->hw.pci, diff);
	}
}
