// SPDX-License-Identifier: GPL-2.0
/*
 * rocetune: make a RoCE host match a declared profile.
 *
 *   rocetune [-j] [--force] apply [--dry-run] PROFILE
 *   rocetune [-j] diff PROFILE
 *   rocetune [-j] check PROFILE
 *   rocetune [-j] show [PROFILE | dev NAME...]
 *   rocetune [-j] [--force] watch [--once] [--repair] [--interval S] ... PROFILE...
 *   rocetune [-j] stats [--interval S] [--prometheus [FILE]]
 *                       [--bind-qp-counters | --unbind-qp-counters] [dev NAME...]
 *   rocetune [-j] top [--interval S] [--iterations N] [--sort KEY] [dev NAME...]
 *   rocetune [-j] doctor [--interval S] [--pause-threshold N] [--error-threshold N]
 *                        [PROFILE | dev NAME...]
 *   rocetune [-j] verify --peer HOST | --listen [VERIFY-OPTS]
 *   rocetune params
 *   rocetune help [COMMAND]            (and COMMAND -h|--help)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/netlink.h>
#include "apply.h"
#include "atomic_file.h"
#include "doctor.h"
#include "host.h"
#include "lock.h"
#include "mstcfg.h"
#include "testhook.h"
#include "output.h"
#include "stats_cmd.h"
#include "probe.h"
#include "verify.h"
#include "watch.h"

static struct rtune_host g_host, g_saved;
static struct rtune_profile g_prof;
static struct rtune_diags g_diags;

struct opts {
	bool json, force, dry_run, no_lock;
	int lock_timeout_ms;
	struct rtune_watch_opts watch;
	struct rtune_stats_opts stats;
	struct rtune_verify_opts verify;
	struct rtune_doctor_opts doctor;
	const char *cmd;
	const char *profile;
};

struct cmd {
	const char *name;
	const char *args;	/* synopsis after the command name */
	const char *help;	/* what it does, one line */
	const char *more;	/* details for `rocetune help COMMAND` */
};

static const struct cmd cmds[] = {
	{ "apply", "[--dry-run] PROFILE", "make the host match PROFILE",
	  "Reads every device PROFILE matches, writes only what differs, reads each\n"
	  "write back, and rolls back on any failure.\n"
	  "  --dry-run   print the plan, write nothing\n" },
	{ "diff", "PROFILE", "show what apply would change",
	  "The plan of apply, without taking the apply lock; exit 2 when changes\n"
	  "are pending, 0 when the host matches.\n" },
	{ "check", "PROFILE", "validate PROFILE only (no host access)",
	  "Parses and validates PROFILE (rocetune.conf(5)); reads nothing of the host.\n" },
	{ "show", "[PROFILE | dev NAME...]", "show the current state",
	  "Every netdev with DCB or an RDMA port, those PROFILE matches, or the\n"
	  "named netdevs / RDMA devices. Exit 1, saying what was looked for and\n"
	  "found, when there is no such device.\n" },
	{ "watch", "[WATCH-OPTS] PROFILE...",
	  "report (and repair) drift from the profiles",
	  "Watches the devices the profiles match (rtnetlink link and DCB notifications,\n"
	  "RDMA netlink notifications where the kernel has them, else polling; rocetune.ko\n"
	  "and rdma_cm configfs by polling) and prints one line per setting that drifts\n"
	  "from its profile, and when it is back (with -j: one JSON object per line).\n"
	  "Runs until SIGINT or SIGTERM. WATCH-OPTS:\n"
	  "  --once                    check once; exit 0 in sync, 1 drift, 2 error\n"
	  "  --repair                  apply the profile again to a drifted device\n"
	  "  --interval SECONDS        polling interval (default 5)\n"
	  "  --repair-interval SECONDS least time between repairs of a device (default 10)\n"
	  "  --repair-backoff-max SECONDS  the wait doubles, up to this, each time a\n"
	  "                            repair is undone right away or fails (default 600)\n"
	  "  --max-repairs N           give up on a device after N such repairs in a row\n"
	  "                            (default 5): another owner is fighting over it\n" },
	{ "stats", "[STATS-OPTS] [dev NAME...]", "counters and rates per port and QP",
	  "Per port (netdevs with DCB or an RDMA port, or the named ones): PFC pause\n"
	  "frames sent and received per priority, link speed, pause, FCS and symbol\n"
	  "errors, link-down count, netdev traffic and drops, ECN marks, CNPs,\n"
	  "retransmissions, the RDMA port's state and rate; per QP what rocetune.ko's\n"
	  "qp_stats reports, or a hardware QP's RDMA counter (ECN marks, CNPs,\n"
	  "retransmissions). Totals, and rates per second from two samples. A value\n"
	  "a device does not report is shown as not reported (JSON null), never 0.\n"
	  "  --interval SECONDS   time between the two samples (default 1; 0: one\n"
	  "                       sample, no rates)\n"
	  "  --prometheus [FILE]  Prometheus text format (node_exporter textfile\n"
	  "                       collector), to FILE atomically (temporary + rename)\n"
	  "                       or stdout (no FILE, or -)\n"
	  "  --bind-qp-counters   first bind each unbound user QP of the ports to a\n"
	  "                       new RDMA counter (manual mode) and enable the\n"
	  "                       optional cc_* counters; QPs and counters someone\n"
	  "                       else bound, and ports in auto mode, are left alone\n"
	  "  --unbind-qp-counters first remove only what --bind-qp-counters made\n" },
	{ "top", "[TOP-OPTS] [dev NAME...]", "live per-port and per-QP rates",
	  "Refreshes in place (ncurses; plain frames when stdout is not a terminal or\n"
	  "TERM is dumb), most-paused ports and QPs first. Keys: p (pause), b\n"
	  "(traffic), n (name), q (quit).\n"
	  "  --interval SECONDS   refresh interval (default 2)\n"
	  "  --iterations N       N frames, plain, then exit\n"
	  "  --sort pause|busy|name  the order (default pause, then traffic)\n"
	  "With -j, one JSON document per frame.\n" },
	{ "doctor", "[DOCTOR-OPTS] [PROFILE | dev NAME...]", "find what is wrong, with evidence and fix",
	  "Reads the devices (those PROFILE matches, the named ones, or every netdev\n"
	  "with DCB or an RDMA port), samples their counters twice, and reports each\n"
	  "finding with its severity, evidence and fix: PFC pause storm, PFC storm\n"
	  "prevention off, slow link, link errors rising, MTU mismatch (with PROFILE),\n"
	  "ECN/CC off on the RoCE priority, CNP DSCP not mapped to the CNP priority,\n"
	  "RDMA-CM ToS outside the PFC priorities, Soft-RoCE pacing inactive, lldpad\n"
	  "running, DCBX not run by the host. Exit 0 clean, 2 warnings only, 3 errors\n"
	  "found, 1 could not run.\n"
	  "  --interval SECONDS          time between the two samples (default 1)\n"
	  "  --pause-threshold FRAMES/S  a pause storm: PFC frames per second on one\n"
	  "                              priority and direction (default 1000)\n"
	  "  --error-threshold ERRORS/S  link errors: FCS + symbol errors per second\n"
	  "                              above this (default 0: any)\n" },
	{ "verify", "--peer HOST | --listen [VERIFY-OPTS]",
	  "compare this host's settings with another's",
	  "Two hosts exchange the fingerprint of their RoCE device's effective settings\n"
	  "(what `show -j` reads: MTU, ETS, PFC, DSCP map and trust, RDMA-CM mode and ToS,\n"
	  "CC parameters) over a connection authenticated by a pre-shared key, and each\n"
	  "reports every setting that differs, with both values. Run --listen on one\n"
	  "host, then --peer on the other. With --probe the peer then sends an RC flow\n"
	  "(librdmacm, the RDMA-CM ToS of its settings) to the listener, which reports\n"
	  "the DSCP and ECN codepoints its packets arrived with, and how far a ladder of\n"
	  "sizes up to the hosts' active RoCE MTU got (a hop with a smaller MTU eats the\n"
	  "full-size frames); both check them against each host's settings. With\n"
	  "--probe-cnp, for a path with an ECN-marking queue the flow fills, the peer\n"
	  "also checks that CNPs come back with the listener's CNP DSCP (and its own)\n"
	  "and that its QP's rate is cut. Exit 0 pass, 1\n"
	  "settings differ or the probe failed, 4 could not run (no peer, key refused,\n"
	  "no device, timeout). VERIFY-OPTS:\n"
	  "  --peer HOST        connect to the listener on HOST\n"
	  "  --listen           wait for one peer, verify, exit\n"
	  "  --forever          listener: keep serving peers, one at a time\n"
	  "  --bind ADDR        listener: the local address (default: any)\n"
	  "  --port PORT        TCP port (default " RTUNE_VERIFY_PORT ")\n"
	  "  --key FILE         the pre-shared key (default " RTUNE_VERIFY_KEY ", mode 0600)\n"
	  "  --dev NAME         the netdev or RDMA device (default: the only RDMA one)\n"
	  "  --timeout SECONDS  to connect, then for the whole exchange (default 10);\n"
	  "                     the probe flow has as much again\n"
	  "  --probe            peer: prove the path with a probe flow (the listener\n"
	  "                     always serves one when asked)\n"
	  "  --probe-cnp        peer: a bulk probe flow (256 x 8192 bytes unless given);\n"
	  "                     check the CNPs it gets back and its rate's reaction\n"
	  "                     (implies --probe)\n"
	  "  --probe-count N    probe messages, 1 to 256 (default 64; implies --probe)\n"
	  "  --probe-size BYTES each, 1 to 16384 (default 1024; implies --probe)\n" },
	{ "params", "", "list the CC parameters and presets",
	  "Name, unit, range and meaning of each [cc] parameter, and the presets.\n" },
	{ "help", "[COMMAND]", "this text, or the usage of COMMAND", "" },
};
#define NCMDS ((int)(sizeof(cmds) / sizeof(cmds[0])))

static const struct cmd *find_cmd(const char *name)
{
	int i;

	for (i = 0; i < NCMDS; i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

static void usage(FILE *f)
{
	int i;

	fprintf(f, "Usage: rocetune [OPTIONS] COMMAND [ARGS]\n");
	for (i = 0; i < NCMDS; i++) {
		char syn[64];

		snprintf(syn, sizeof(syn), "%s %s", cmds[i].name, cmds[i].args);
		fprintf(f, "  rocetune %-29s %s\n", syn, cmds[i].help);
	}
	fprintf(f,
		"OPTIONS: -j|--json  -f|--force (apply despite conflicting DCB owners)\n"
		"         --lock-timeout SECONDS (default 60)  -V|--version  -h|--help\n"
		"Each command takes -h|--help. Exit: 0 no change, 1 failed (host unchanged),\n"
		"2 changed (diff: pending), 3 failed and not fully rolled back, 64 usage.\n"
		"See rocetune(8).\n");
}

static void cmd_usage(FILE *f, const struct cmd *c)
{
	fprintf(f, "Usage: rocetune [OPTIONS] %s%s%s\n%s: %s.\n%s", c->name, c->args[0] ? " " : "",
		c->args, c->name, c->help, c->more);
	fprintf(f, "OPTIONS (before the command): -j|--json -f|--force --lock-timeout SECONDS.\n"
		   "See rocetune(8).\n");
}

static void json_head(struct jw *j, const struct opts *o)
{
	jw_obj(j, NULL);
	jw_int(j, "json_version", RTUNE_JSON_VERSION);
	jw_str(j, "tool", "rocetune");
	jw_str(j, "version", RTUNE_VERSION);
	jw_str(j, "command", o->cmd);
	jw_str(j, "profile", o->profile);
	jw_bool(j, "dry_run", o->dry_run);
}

static void json_tail(struct jw *j, const char *result, int code)
{
	jw_str(j, "result", result);
	jw_int(j, "exit_code", code);
	jw_int(j, "writes", (long long)rtune_writes);
	jw_end_obj(j);
}

static int load_profile(const struct opts *o)
{
	if (profile_parse_file(o->profile, &g_prof, &g_diags) == 0)
		profile_validate(&g_prof, &g_diags);
	return g_diags.nerr ? -1 : 0;
}

/*
 * Report a failure found before anything was written: the diagnostics
 * (as JSON with @status, or on stderr followed by @human if given).
 */
static int finish_unchanged(const struct opts *o, const char *status,
			    const char *human)
{
	if (o->json) {
		struct jw j;

		jw_init(&j, stdout);
		json_head(&j, o);
		out_diags_json(&j, &g_diags);
		jw_arr(&j, "devices");
		jw_end_arr(&j);
		json_tail(&j, status, RTUNE_EXIT_FAILED);
	} else {
		diag_print(&g_diags, stderr);
		if (human)
			fprintf(stderr, "rocetune: %s: %s\n", o->profile, human);
	}
	return RTUNE_EXIT_FAILED;
}

static int finish_invalid(const struct opts *o)
{
	return finish_unchanged(o, "invalid-profile",
				"invalid profile, nothing was changed");
}

static int cmd_check(const struct opts *o)
{
	if (load_profile(o))
		return finish_invalid(o);
	if (o->json) {
		struct jw j;

		jw_init(&j, stdout);
		json_head(&j, o);
		out_diags_json(&j, &g_diags);
		json_tail(&j, "valid", 0);
	} else {
		diag_print(&g_diags, stderr);
		printf("%s: valid\n", o->profile);
	}
	return 0;
}

static int cmd_params(void)
{
	unsigned int i;
	int k;

	printf("%-28s %-10s %-10s %-11s %s\n", "name", "unit", "min", "max", "help");
	for (k = 0; k < RTUNE_P_COUNT; k++)
		printf("%-28s %-10s %-10u %-11u %s\n", rtune_param_descs[k].name,
		       rtune_param_descs[k].unit, rtune_param_descs[k].min, rtune_param_descs[k].max,
		       rtune_param_descs[k].help);
	printf("\npresets:\n");
	for (i = 0; i < rtune_preset_count; i++)
		printf("  %-10s %s\n", rtune_presets[i].name, rtune_presets[i].help);
	return 0;
}

static int state_write(FILE *f, void *arg)
{
	struct jw j;

	(void)arg;
	jw_init(&j, f);
	jw_obj(&j, NULL);
	jw_int(&j, "json_version", RTUNE_JSON_VERSION);
	jw_str(&j, "profile", g_prof.path);
	out_state_json(&j, "devices", &g_saved);
	jw_end_obj(&j);
	return 0;
}

/* The state before an apply, for the operator (not fsync'd: /run). */
static const char *save_state(void)
{
	static char path[300];
	const char *dir = getenv("ROCETUNE_STATE_DIR");

	if (!dir || !*dir)
		dir = "/run/rocetune";
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/pre-apply.json", dir);
	return rtune_atomic_write(path, 0, state_write, NULL) ? NULL : path;
}

static int cmd_apply(const struct opts *o, bool diff_only)
{
	struct rtune_plan pl = { 0 };
	struct rtune_apply_result r = { .failed = -1 };
	struct nl_sock *sk;
	const char *saved = NULL, *result;
	int lockfd = -1, waited = 0, i, code, err;
	bool executed = false;

	if (load_profile(o))
		return finish_invalid(o);
	if (!diff_only && !o->no_lock) {
		lockfd = rtune_lock(o->lock_timeout_ms, &waited);
		if (lockfd < 0) {
			diag_add(&g_diags, RTUNE_SEV_ERROR, "", 0, "", "", "lock",
				 "cannot take the apply lock: %s", strerror(-lockfd));
			goto fail_early;
		}
		rtune_test_step("apply lock taken");
	}
	sk = rtune_nl_open(NETLINK_ROUTE);
	if (!sk) {
		diag_add(&g_diags, RTUNE_SEV_ERROR, "", 0, "", "", "netlink",
			 "cannot open rtnetlink: %s", strerror(errno));
		goto fail_early;
	}
	err = host_collect(sk, &g_prof, NULL, 0, &g_host);
	if (err) {
		diag_add(&g_diags, RTUNE_SEV_ERROR, "", 0, "", "", "netlink",
			 "cannot read the host state: %s", strerror(-err));
		nl_socket_free(sk);
		goto fail_early;
	}
	if (!g_host.n)
		diag_add(&g_diags, RTUNE_SEV_ERROR, g_prof.path, 0, "match", "", "no-device",
			 "the profile matches no device on this host");
	g_saved = g_host;
	host_check_owners(&g_prof, &g_host, o->force, &pl);
	for (i = 0; i < g_host.n; i++) {
		struct rtune_target t;

		target_from_profile(&g_prof, &g_host.dev[i], i, &t, &pl);
		plan_device(&g_host.dev[i], i, &t, &pl);
	}
	if (diff_only) {
		/* mlx5: what a reboot would bring back (warnings only) */
		rtune_mstcfg_read_host(&g_host);
		rtune_mstcfg_plan_notes(&g_host, &pl);
		/* irdma: what loading the driver again would bring back */
		rtune_irdma_load_read_host(&g_host);
		rtune_irdma_load_plan_notes(&g_host, &pl);
	}
	if (pl.nerr || g_diags.nerr) {
		result = "precondition-failed";
		code = RTUNE_EXIT_FAILED;
	} else if (diff_only || o->dry_run) {
		result = pl.n ? "changes-pending" : "unchanged";
		code = pl.n ? RTUNE_EXIT_CHANGED : RTUNE_EXIT_UNCHANGED;
	} else if (!pl.n) {
		result = "unchanged";
		code = RTUNE_EXIT_UNCHANGED;
	} else {
		saved = save_state();
		if (!saved)
			diag_add(&g_diags, RTUNE_SEV_WARNING, "", 0, "", "", "state-not-saved",
				 "could not save the pre-apply state file (rollback still uses the state in memory)");
		executed = true;
		rtune_test_step("pre-apply state saved");
		apply_plan(sk, &g_host, &g_saved, &pl, &r);
		if (r.failed < 0) {
			result = "changed";
			code = RTUNE_EXIT_CHANGED;
		} else if (r.rollback_complete) {
			result = "failed-rolled-back";
			code = RTUNE_EXIT_FAILED;
		} else {
			result = "failed-not-rolled-back";
			code = RTUNE_EXIT_PARTIAL;
		}
	}
	nl_socket_free(sk);
	rtune_unlock(lockfd);

	if (o->json) {
		struct jw j;

		jw_init(&j, stdout);
		json_head(&j, o);
		out_diags_json(&j, &g_diags);
		jw_arr(&j, "host_notes");
		for (i = 0; i < pl.nnotes; i++) {
			if (pl.notes[i].dev >= 0)
				continue;
			jw_obj(&j, NULL);
			jw_str(&j, "severity", pl.notes[i].sev == RTUNE_SEV_ERROR ? "error" : "warning");
			jw_str(&j, "code", pl.notes[i].code);
			jw_str(&j, "message", pl.notes[i].msg);
			jw_end_obj(&j);
		}
		jw_end_arr(&j);
		out_devices_json(&j, &g_host, &pl, executed);
		out_rollback_json(&j, &g_host, &r);
		jw_str(&j, "saved_state", saved);
		json_tail(&j, result, code);
	} else {
		diag_print(&g_diags, stderr);
		for (i = 0; i < pl.nnotes; i++)
			if (pl.notes[i].dev < 0)
				fprintf(stderr, "%s: %s\n", pl.notes[i].sev == RTUNE_SEV_ERROR ?
					"error" : "warning", pl.notes[i].msg);
		if (waited)
			fprintf(stderr, "rocetune: waited for another rocetune apply to finish\n");
		out_plan_text(stdout, &g_host, &pl, executed);
		if (executed && r.failed >= 0) {
			const struct rtune_action *a = &pl.a[r.failed];
			char buf[1024];

			act_describe(a, buf, sizeof(buf));
			printf("FAILED: %s: %s: %s\n", g_host.dev[a->dev].netdev, buf, a->why);
			out_rollback_text(stdout, &g_host, &r);
		}
		printf("rocetune: %s (%d change%s%s)\n", result, pl.n, pl.n == 1 ? "" : "s",
		       executed ? "" : diff_only || o->dry_run ? " planned" : "");
	}
	plan_free(&pl);
	plan_free(&r.rb);
	return code;

fail_early:
	rtune_unlock(lockfd);
	return finish_unchanged(o, "error", NULL);
}

/* "3 netdevs besides lo (eth0, ifb0, ifb1)" */
static void describe_links(const struct rtune_host *h, char *buf, size_t len)
{
	size_t n;
	int i;

	if (!h->nlinks) {
		snprintf(buf, len, "no netdev besides lo");
		return;
	}
	n = (size_t)snprintf(buf, len, "%d netdev%s besides lo (", h->nlinks,
			     h->nlinks == 1 ? "" : "s");
	for (i = 0; i < h->nlinks && i < 8 && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", h->links[i]);
	if (n < len)
		snprintf(buf + n, len - n, "%s)", h->nlinks > 8 ? ", ..." : "");
}

static void describe_rdma(const struct rtune_host *h, char *buf, size_t len)
{
	if (h->nrdma < 0)
		snprintf(buf, len, "no RDMA device (RDMA netlink: %s)", strerror(-h->nrdma));
	else if (!h->nrdma)
		snprintf(buf, len, "no RDMA device");
	else
		snprintf(buf, len, "%d RDMA port%s", h->nrdma, h->nrdma == 1 ? "" : "s");
}

/* Say what show looked for and what it found, when that is nothing (or
 * not all of what was asked for). Returns the number of problems. */
static int show_missing(const struct opts *o, char **names, int nnames)
{
	char links[200], rdma[100];
	int i, k, bad = 0;

	describe_links(&g_host, links, sizeof(links));
	describe_rdma(&g_host, rdma, sizeof(rdma));
	for (i = 0; i < nnames; i++) {
		for (k = 0; k < g_host.n; k++)
			if (!strcmp(g_host.dev[k].netdev, names[i]) ||
			    (g_host.dev[k].has_ib && !strcmp(g_host.dev[k].ibdev, names[i])))
				break;
		if (k < g_host.n)
			continue;
		diag_add(&g_diags, RTUNE_SEV_ERROR, "", 0, "", "", "no-device",
			 "no netdev or RDMA device named '%s': found %s and %s",
			 names[i], links, rdma);
		bad++;
	}
	if (g_host.n || nnames)
		return bad;
	if (o->profile)
		diag_add(&g_diags, RTUNE_SEV_ERROR, g_prof.path, 0, "match", "", "no-device",
			 "the profile matches no device on this host: found %s and %s", links, rdma);
	else
		diag_add(&g_diags, RTUNE_SEV_ERROR, "", 0, "", "", "no-device",
			 "no RoCE device on this host: looked for netdevs with DCB (dcbnl) or an RDMA port; found %s, none with DCB%s%s%s, and %s",
			 links, g_host.dcb_err ? " (dcbnl: " : "",
			 g_host.dcb_err ? strerror(g_host.dcb_err) : "",
			 g_host.dcb_err ? ")" : "", rdma);
	return 1;
}

static int cmd_show(const struct opts *o, char **names, int nnames)
{
	struct nl_sock *sk = rtune_nl_open(NETLINK_ROUTE);
	const struct rtune_profile *p = NULL;
	int err, code;

	if (!sk) {
		fprintf(stderr, "rocetune: cannot open rtnetlink: %s\n", strerror(errno));
		return RTUNE_EXIT_FAILED;
	}
	if (o->profile) {
		if (load_profile(o)) {
			nl_socket_free(sk);
			return finish_invalid(o);
		}
		p = &g_prof;
	}
	err = host_collect(sk, p, names, nnames, &g_host);
	nl_socket_free(sk);
	if (err) {
		fprintf(stderr, "rocetune: cannot read the host state: %s\n", strerror(-err));
		return RTUNE_EXIT_FAILED;
	}
	rtune_mstcfg_read_host(&g_host);	/* mlx5: the next-boot values */
	rtune_irdma_load_read_host(&g_host);	/* irdma: its load-time parameters */
	code = show_missing(o, names, nnames) ? RTUNE_EXIT_FAILED : 0;
	if (o->json) {
		struct jw j;

		jw_init(&j, stdout);
		json_head(&j, o);
		out_diags_json(&j, &g_diags);
		out_state_json(&j, "state", &g_host);
		json_tail(&j, code ? "error" : "ok", code);
	} else {
		int i;

		for (i = 0; i < g_diags.n; i++)	/* the no-device errors */
			if (g_diags.d[i].sev == RTUNE_SEV_ERROR)
				fprintf(stderr, "rocetune: show: %s\n", g_diags.d[i].msg);
		out_state_text(stdout, &g_host);
	}
	return code;
}

static int usage_error(const struct cmd *c)
{
	cmd_usage(stderr, c);
	return RTUNE_EXIT_USAGE;
}

/* Run command @c with its @npos positional arguments. */
static int run(struct opts *o, const struct cmd *c, char **pos, int npos)
{
	const struct cmd *h;

	if (!strcmp(c->name, "help")) {
		if (!npos) {
			usage(stdout);
			return 0;
		}
		h = npos == 1 ? find_cmd(pos[0]) : NULL;
		if (!h) {
			if (npos == 1)
				fprintf(stderr, "rocetune: unknown command '%s'\n", pos[0]);
			return usage_error(c);
		}
		cmd_usage(stdout, h);
		return 0;
	}
	if (!strcmp(c->name, "params"))
		return npos ? usage_error(c) : cmd_params();
	if (!strcmp(c->name, "show")) {
		if (npos && !strcmp(pos[0], "dev"))
			return npos > 1 ? cmd_show(o, pos + 1, npos - 1) : usage_error(c);
		if (npos > 1)
			return usage_error(c);
		o->profile = npos ? pos[0] : NULL;
		return cmd_show(o, NULL, 0);
	}
	if (!strcmp(c->name, "doctor")) {
		o->doctor.json = o->json;
		if (npos && !strcmp(pos[0], "dev")) {
			if (npos < 2)
				return usage_error(c);
			o->doctor.names = pos + 1;
			o->doctor.nnames = npos - 1;
		} else if (npos > 1) {
			return usage_error(c);
		} else {
			o->doctor.profile = npos ? pos[0] : NULL;
		}
		return rtune_doctor(&o->doctor);
	}
	if (!strcmp(c->name, "verify")) {
		if (npos || !o->verify.listen == !o->verify.peer) {
			if (!npos)
				fprintf(stderr, "rocetune verify: give --peer HOST or --listen\n");
			return usage_error(c);
		}
		o->verify.json = o->json;
		return rtune_verify(&o->verify);
	}
	if (!strcmp(c->name, "watch")) {
		if (!npos)
			return usage_error(c);
		o->watch.json = o->json;
		o->watch.force = o->force;
		o->watch.lock_timeout_ms = o->lock_timeout_ms;
		o->watch.profiles = pos;
		o->watch.nprofiles = npos;
		return rtune_watch(&o->watch);
	}
	if (!strcmp(c->name, "stats") || !strcmp(c->name, "top")) {
		if (npos && (strcmp(pos[0], "dev") || npos < 2))
			return usage_error(c);
		o->stats.json = o->json;
		o->stats.names = npos ? pos + 1 : NULL;
		o->stats.nnames = npos ? npos - 1 : 0;
		if (o->stats.prom && o->json) {
			fprintf(stderr, "rocetune stats: --prometheus and -j exclude each other\n");
			return usage_error(c);
		}
		if (o->stats.bind_qpc && o->stats.unbind_qpc) {
			fprintf(stderr, "rocetune stats: --bind-qp-counters and --unbind-qp-counters exclude each other\n");
			return usage_error(c);
		}
		return c->name[0] == 's' ? rtune_stats(&o->stats) : rtune_top(&o->stats);
	}
	if (npos != 1)
		return usage_error(c);
	o->profile = pos[0];
	if (!strcmp(c->name, "check"))
		return cmd_check(o);
	if (!strcmp(c->name, "diff"))
		return cmd_apply(o, true);
	return cmd_apply(o, false);
}

/* A value in seconds (decimals allowed) into @ms; false if not one. */
static bool seconds(const char *s, int *ms)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0.01 && v <= 86400))
		return false;
	*ms = (int)(v * 1000 + 0.5);
	return true;
}

/*
 * watch's option at argv[*i]: true if it is one (*i moves past its value;
 * *i = -1 on a bad or missing value, said on stderr).
 */
static bool watch_opt(struct rtune_watch_opts *w, int argc, char **argv, int *i)
{
	static const char *const valued[] = { "--interval", "--repair-interval",
					      "--repair-backoff-max", "--max-repairs" };
	const char *a = argv[*i];
	unsigned int k;
	int *ms[] = { &w->interval_ms, &w->repair_interval_ms, &w->backoff_max_ms };

	if (!strcmp(a, "--once"))
		return w->once = true;
	if (!strcmp(a, "--repair"))
		return w->repair = true;
	for (k = 0; k < 4 && strcmp(a, valued[k]); k++)
		;
	if (k == 4)
		return false;
	if (*i + 1 >= argc) {
		fprintf(stderr, "rocetune watch: %s needs a value\n", a);
		*i = -1;
		return true;
	}
	a = argv[++*i];
	if (k < 3 ? !seconds(a, ms[k]) :
	    (w->max_repairs = atoi(a)) < 1 || w->max_repairs > 1000) {
		fprintf(stderr, "rocetune watch: %s: '%s' is not %s\n", valued[k], a,
			k < 3 ? "a number of seconds (0.01 to 86400)" : "a count (1 to 1000)");
		*i = -1;
	}
	return true;
}

/*
 * stats' and top's option at argv[*i], like watch_opt(); @top picks the
 * command. --interval 0 is allowed for stats (one sample).
 */
static bool stats_opt(struct rtune_stats_opts *so, bool top, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;
	char *end;
	long n;

	if (!top && !strcmp(a, "--bind-qp-counters"))
		return so->bind_qpc = true;
	if (!top && !strcmp(a, "--unbind-qp-counters"))
		return so->unbind_qpc = true;
	if (!top && !strcmp(a, "--prometheus")) {
		so->prom = true;
		if (*i + 1 < argc && strcmp(argv[*i + 1], "dev") &&
		    (argv[*i + 1][0] != '-' || !strcmp(argv[*i + 1], "-")))
			so->prom_file = argv[++*i];
		return true;
	}
	if (strcmp(a, "--interval") && (!top || (strcmp(a, "--iterations") && strcmp(a, "--sort"))))
		return false;
	if (*i + 1 >= argc) {
		fprintf(stderr, "rocetune: %s needs a value\n", a);
		*i = -1;
		return true;
	}
	v = argv[++*i];
	if (!strcmp(a, "--interval")) {
		if (!top && !strcmp(v, "0"))
			so->interval_ms = 0;
		else if (!seconds(v, &so->interval_ms)) {
			fprintf(stderr, "rocetune: --interval: '%s' is not a number of seconds (0.01 to 86400%s)\n",
				v, top ? "" : ", or 0");
			*i = -1;
		}
	} else if (!strcmp(a, "--iterations")) {
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno || end == v || *end || n < 1 || n > 1000000) {
			fprintf(stderr, "rocetune: --iterations: '%s' is not a count (1 to 1000000)\n", v);
			*i = -1;
		} else {
			so->iterations = (int)n;
		}
	} else if (rtune_st_sort_parse(v, &so->sort)) {
		fprintf(stderr, "rocetune: --sort: '%s' is not pause, busy or name\n", v);
		*i = -1;
	}
	return true;
}

/* doctor's option at argv[*i], as watch_opt(). */
static bool doctor_opt(struct rtune_doctor_opts *d, int argc, char **argv, int *i)
{
	static const char *const valued[] = { "--interval", "--pause-threshold",
					      "--error-threshold" };
	const char *a = argv[*i];
	unsigned int k;
	char *end;
	double v;

	for (k = 0; k < 3 && strcmp(a, valued[k]); k++)
		;
	if (k == 3)
		return false;
	if (*i + 1 >= argc) {
		fprintf(stderr, "rocetune doctor: %s needs a value\n", a);
		*i = -1;
		return true;
	}
	a = argv[++*i];
	if (k == 0) {
		if (!seconds(a, &d->interval_ms)) {
			fprintf(stderr, "rocetune doctor: --interval: '%s' is not a number of seconds (0.01 to 86400)\n", a);
			*i = -1;
		}
		return true;
	}
	errno = 0;
	v = strtod(a, &end);
	if (errno || end == a || *end || !(v >= 0 && v <= 1e12)) {
		fprintf(stderr, "rocetune doctor: %s: '%s' is not a rate per second (0 to 1e12)\n",
			valued[k], a);
		*i = -1;
	} else if (k == 1) {
		d->cfg.pause_rate = v;
	} else {
		d->cfg.err_rate = v;
	}
	return true;
}

/* verify's option at argv[*i], as watch_opt(). */
static bool verify_opt(struct rtune_verify_opts *v, int argc, char **argv, int *i)
{
	static const char *const valued[] = { "--peer", "--port", "--key", "--dev", "--bind",
					      "--timeout" };
	const char **dst[] = { &v->peer, &v->port, &v->key, &v->dev, &v->bind };
	const char *a = argv[*i];
	unsigned int k;

	if (!strcmp(a, "--listen"))
		return v->listen = true;
	if (!strcmp(a, "--forever"))
		return v->forever = true;
	if (!strcmp(a, "--probe"))
		return v->probe = true;
	if (!strcmp(a, "--probe-cnp"))
		return v->probe = v->probe_cnp = true;
	if (!strcmp(a, "--probe-count") || !strcmp(a, "--probe-size")) {
		bool cnt = !strcmp(a, "--probe-count");
		int max = cnt ? RTUNE_PROBE_COUNT_MAX : RTUNE_PROBE_SIZE_MAX;
		char *end;
		long n;

		if (*i + 1 >= argc) {
			fprintf(stderr, "rocetune verify: %s needs a value\n", a);
			*i = -1;
			return true;
		}
		n = strtol(argv[++*i], &end, 10);
		if (*end || end == argv[*i] || n < 1 || n > max) {
			fprintf(stderr, "rocetune verify: %s: '%s' is not a number from 1 to %d\n", a,
				argv[*i], max);
			*i = -1;
			return true;
		}
		*(cnt ? &v->probe_count : &v->probe_size) = (int)n;
		return v->probe = true;
	}
	for (k = 0; k < 6 && strcmp(a, valued[k]); k++)
		;
	if (k == 6)
		return false;
	if (*i + 1 >= argc || !argv[*i + 1][0]) {
		fprintf(stderr, "rocetune verify: %s needs a value\n", a);
		*i = -1;
		return true;
	}
	a = argv[++*i];
	if (k < 5) {
		*dst[k] = a;
	} else if (!seconds(a, &v->timeout_ms)) {
		fprintf(stderr, "rocetune verify: --timeout: '%s' is not a number of seconds (0.01 to 86400)\n", a);
		*i = -1;
	}
	return true;
}

int main(int argc, char **argv)
{
	struct opts o = { .lock_timeout_ms = 60000,
			  .watch = { .interval_ms = 5000, .repair_interval_ms = 10000,
				     .backoff_max_ms = 600000, .max_repairs = 5 },
			  .stats = { .interval_ms = 1000, .sort = ST_SORT_PAUSE },
			  .verify = { .port = RTUNE_VERIFY_PORT, .key = RTUNE_VERIFY_KEY,
				      .timeout_ms = 10000 },
			  .doctor = { .interval_ms = 1000,
				      .cfg = { RTUNE_DOC_PAUSE_RATE, RTUNE_DOC_ERR_RATE } } };
	const struct cmd *c;
	char **pos;
	int i = 1, npos = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-j") || !strcmp(a, "--json"))
			o.json = true;
		else if (!strcmp(a, "-f") || !strcmp(a, "--force"))
			o.force = true;
		else if (!strcmp(a, "--no-lock"))
			o.no_lock = true;
		else if (!strcmp(a, "--lock-timeout") && i + 1 < argc)
			o.lock_timeout_ms = atoi(argv[++i]) * 1000;
		else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("rocetune %s (json_version %d)\n", RTUNE_VERSION, RTUNE_JSON_VERSION);
			return 0;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "rocetune: unknown option '%s'\n", a);
			usage(stderr);
			return RTUNE_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return RTUNE_EXIT_USAGE;
	}
	o.cmd = argv[i++];
	c = find_cmd(o.cmd);
	if (c && !strcmp(c->name, "top"))
		o.stats.interval_ms = 2000;
	if (!c) {
		fprintf(stderr, "rocetune: unknown command '%s'\n", o.cmd);
		usage(stderr);
		return RTUNE_EXIT_USAGE;
	}
	/* the command's own arguments: -h|--help, apply's --dry-run; "--" ends options */
	pos = calloc((size_t)argc, sizeof(*pos));
	if (!pos)
		return RTUNE_EXIT_FAILED;
	for (; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			while (++i < argc)
				pos[npos++] = argv[i];
			break;
		}
		if (a[0] != '-' || !a[1]) {
			pos[npos++] = argv[i];
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cmd_usage(stdout, c);
			free(pos);
			return 0;
		} else if (!strcmp(c->name, "apply") && !strcmp(a, "--dry-run")) {
			o.dry_run = true;
		} else if ((!strcmp(c->name, "stats") || !strcmp(c->name, "top")) &&
			   stats_opt(&o.stats, c->name[0] == 't', argc, argv, &i)) {
			if (i < 0) {
				cmd_usage(stderr, c);
				free(pos);
				return RTUNE_EXIT_USAGE;
			}
		} else if ((!strcmp(c->name, "watch") && watch_opt(&o.watch, argc, argv, &i)) ||
			   (!strcmp(c->name, "doctor") && doctor_opt(&o.doctor, argc, argv, &i)) ||
			   (!strcmp(c->name, "verify") && verify_opt(&o.verify, argc, argv, &i))) {
			if (i < 0) {
				cmd_usage(stderr, c);
				free(pos);
				return RTUNE_EXIT_USAGE;
			}
		} else {
			fprintf(stderr, "rocetune %s: unknown option '%s'\n", c->name, a);
			cmd_usage(stderr, c);
			free(pos);
			return RTUNE_EXIT_USAGE;
		}
	}
	i = run(&o, c, pos, npos);
	free(pos);
	return i;
}
