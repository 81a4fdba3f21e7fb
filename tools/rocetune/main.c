// SPDX-License-Identifier: GPL-2.0
/*
 * rocetune: make a RoCE host match a declared profile.
 *
 *   rocetune [-j] [--force] apply [--dry-run] PROFILE
 *   rocetune [-j] diff PROFILE
 *   rocetune [-j] check PROFILE
 *   rocetune [-j] show [PROFILE | dev NAME...]
 *   rocetune params
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
#include "host.h"
#include "lock.h"
#include "output.h"

static struct rtune_host g_host, g_saved;
static struct rtune_profile g_prof;
static struct rtune_diags g_diags;

struct opts {
	bool json, force, dry_run, no_lock;
	int lock_timeout_ms;
	const char *cmd;
	const char *profile;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rocetune [OPTIONS] COMMAND\n"
		"  rocetune apply [--dry-run] PROFILE   make the host match PROFILE\n"
		"  rocetune diff PROFILE                show what apply would change\n"
		"  rocetune check PROFILE               validate PROFILE only (no host access)\n"
		"  rocetune show [PROFILE | dev NAME...] show the current state\n"
		"  rocetune params                      list the CC parameters and presets\n"
		"OPTIONS: -j|--json  -f|--force (apply despite conflicting DCB owners)\n"
		"         --lock-timeout SECONDS (default 60)  -V|--version  -h|--help\n"
		"Exit: 0 no change, 1 failed (host unchanged), 2 changed (diff: pending),\n"
		"      3 failed and not fully rolled back, 64 usage. See rocetune(8).\n");
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

static void check_owners(const struct opts *o, struct rtune_plan *pl)
{
	enum rtune_sev sev = o->force ? RTUNE_SEV_WARNING : RTUNE_SEV_ERROR;
	int i;

	if (!plan_wants_dcb(&g_prof))
		return;
	if (host_lldpad_running())
		plan_note(pl, -1, sev, "conflict-lldpad",
			  "lldpad is running and may overwrite DCB settings (stop it, or --force)");
	for (i = 0; i < g_host.n; i++)
		plan_owner_dcbx(&g_host.dev[i], i, o->force, pl);
}

static const char *save_state(void)
{
	static char path[300];
	const char *dir = getenv("ROCETUNE_STATE_DIR");
	char tmp[320];
	struct jw j;
	FILE *f;

	if (!dir || !*dir)
		dir = "/run/rocetune";
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/pre-apply.json", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return NULL;
	jw_init(&j, f);
	jw_obj(&j, NULL);
	jw_int(&j, "json_version", RTUNE_JSON_VERSION);
	jw_str(&j, "profile", g_prof.path);
	out_state_json(&j, "devices", &g_saved);
	jw_end_obj(&j);
	if (fclose(f) || rename(tmp, path))
		return NULL;
	return path;
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
	check_owners(o, &pl);
	for (i = 0; i < g_host.n; i++) {
		struct rtune_target t;

		target_from_profile(&g_prof, &g_host.dev[i], i, &t, &pl);
		plan_device(&g_host.dev[i], i, &t, &pl);
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

static int cmd_show(const struct opts *o, char **names, int nnames)
{
	struct nl_sock *sk = rtune_nl_open(NETLINK_ROUTE);
	const struct rtune_profile *p = NULL;
	int err;

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
	if (o->json) {
		struct jw j;

		jw_init(&j, stdout);
		json_head(&j, o);
		out_diags_json(&j, &g_diags);
		out_state_json(&j, "state", &g_host);
		json_tail(&j, "ok", 0);
	} else {
		out_state_text(stdout, &g_host);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .lock_timeout_ms = 60000 };
	int i = 1;

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
	if (!strcmp(o.cmd, "apply") && i < argc && !strcmp(argv[i], "--dry-run")) {
		o.dry_run = true;
		i++;
	}
	if (!strcmp(o.cmd, "params"))
		return cmd_params();
	if (!strcmp(o.cmd, "show")) {
		if (i < argc && !strcmp(argv[i], "dev"))
			return i + 1 < argc ? cmd_show(&o, argv + i + 1, argc - i - 1) :
					      (usage(stderr), RTUNE_EXIT_USAGE);
		if (i + 1 == argc)
			o.profile = argv[i];
		else if (i != argc)
			return usage(stderr), RTUNE_EXIT_USAGE;
		return cmd_show(&o, NULL, 0);
	}
	if (i + 1 != argc) {
		usage(stderr);
		return RTUNE_EXIT_USAGE;
	}
	o.profile = argv[i];
	if (!strcmp(o.cmd, "check"))
		return cmd_check(&o);
	if (!strcmp(o.cmd, "diff"))
		return cmd_apply(&o, true);
	if (!strcmp(o.cmd, "apply"))
		return cmd_apply(&o, false);
	fprintf(stderr, "rocetune: unknown command '%s'\n", o.cmd);
	usage(stderr);
	return RTUNE_EXIT_USAGE;
}
