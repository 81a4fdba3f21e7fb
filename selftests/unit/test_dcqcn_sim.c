// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for tools/dcqcn-sim: the CSV it prints for the trace fixtures
 * in data/ must equal the expected CSVs next to them, which were worked
 * out by hand from the DCQCN equations (the working is in the comments of
 * each .trace file). Also checks the command-line and trace errors.
 *
 * DCQCN_SIM overrides the simulator binary, DCQCN_TEST_DATA the data dir.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "../lib/tap.h"

#ifndef DCQCN_SIM_PATH
#define DCQCN_SIM_PATH "../../tools/dcqcn-sim/dcqcn-sim"
#endif

static const char *sim(void)
{
	const char *s = getenv("DCQCN_SIM");

	return s ? s : DCQCN_SIM_PATH;
}

static const char *datadir(void)
{
	const char *d = getenv("DCQCN_TEST_DATA");

	return d ? d : "data";
}

/* Run "sh -c cmd", capture stdout+stderr (up to @len - 1 bytes). */
static int run(const char *cmd, char *out, size_t len)
{
	FILE *f = popen(cmd, "r");
	size_t n = 0;
	int st;

	out[0] = '\0';
	if (!f)
		return -1;
	while (n + 1 < len) {
		size_t r = fread(out + n, 1, len - 1 - n, f);

		if (!r)
			break;
		n += r;
	}
	out[n] = '\0';
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Compare line by line and report the first difference. */
static void check_csv(const char *name, const char *args)
{
	static char out[65536];
	char cmd[1024], path[512], *want;
	const char *g, *w;
	int rc, line = 1;

	snprintf(cmd, sizeof(cmd), "%s %s %s/%s.trace 2>&1", sim(), args,
		 datadir(), name);
	rc = run(cmd, out, sizeof(out));
	snprintf(path, sizeof(path), "%s/%s.expected.csv", datadir(), name);
	want = slurp(path);
	if (!want) {
		tap_check(0, "%s: read %s", name, path);
		return;
	}
	for (g = out, w = want; *g && *w && *g == *w; g++, w++)
		if (*g == '\n')
			line++;
	if (!tap_check(rc == 0 && !*g && !*w,
		       "%s: CSV equals the hand-derived %s.expected.csv", name, name)) {
		tap_diag("exit %d; first difference at line %d", rc, line);
		tap_diag("got:  %.60s", g);
		tap_diag("want: %.60s", w);
	}
	free(want);
}

/* Expect exit status @want_rc and @needle in the output. */
static void check_err(const char *what, const char *cmd_tail, int want_rc,
		      const char *needle)
{
	static char out[8192];
	char cmd[1024];
	int rc;

	snprintf(cmd, sizeof(cmd), "%s 2>&1", cmd_tail);
	rc = run(cmd, out, sizeof(out));
	if (!tap_check(rc == want_rc && strstr(out, needle),
		       "%s: exit %d, says \"%.*s\"", what, want_rc,
		       (int)strcspn(needle, "\n"), needle))
		tap_diag("exit %d, output: %.200s", rc, out);
}

int main(void)
{
	char cmd[1024];
	const char *s = sim();

	tap_plan(17);

	check_csv("dcqcn_paper",
		  "--preset paper --line-rate-mbps 2000"
		  " --set rp_rate_increase_timer_us=100"
		  " --set rp_alpha_update_period_us=150"
		  " --set rp_byte_counter_bytes=50000"
		  " --set rp_fast_recovery_stages=2"
		  " --set rp_rate_reduce_period_us=20"
		  " --set rp_hyper_increase_kbps=50000");
	/* Option order and the --opt=value form do not matter. */
	check_csv("dcqcn_connectx",
		  "--set rp_alpha_update_period_us=1000"
		  " --set=rp_rate_on_first_cnp_kbps=60000 --line-rate-mbps=100"
		  " --set rp_min_rate_kbps=20000 --set rp_rate_cut_shift=0"
		  " --preset connectx");

	snprintf(cmd, sizeof(cmd), "printf '' | %s -", s);
	check_err("empty trace", cmd, 0, "time_us,rate_mbps,target_mbps,alpha\n0,40000.000,40000.000,1.000000\n");

	snprintf(cmd, sizeof(cmd), "%s --set rp_bogus=1 -", s);
	check_err("unknown parameter", cmd, 2, "unknown parameter 'rp_bogus'");
	snprintf(cmd, sizeof(cmd), "%s --set rp_fast_recovery_stages=32 -", s);
	check_err("value out of range", cmd, 2,
		  "invalid value '32' for rp_fast_recovery_stages: expected a decimal number 1..31");
	snprintf(cmd, sizeof(cmd), "%s --set rp_clamp_target_rate=yes -", s);
	check_err("bad bool", cmd, 2, "expected 0 or 1");
	snprintf(cmd, sizeof(cmd), "%s --set rp_min_rate_kbps -", s);
	check_err("--set without =", cmd, 2, "--set wants name=value");
	snprintf(cmd, sizeof(cmd), "%s --preset fast -", s);
	check_err("unknown preset", cmd, 2, "unknown preset 'fast' (known: paper, connectx)");
	snprintf(cmd, sizeof(cmd),
		 "%s --set rp_min_rate_kbps=100000 --set rp_max_rate_kbps=50000 -", s);
	check_err("inconsistent set", cmd, 2,
		  "rp_min_rate_kbps=100000 exceeds rp_max_rate_kbps=50000");
	snprintf(cmd, sizeof(cmd), "%s --line-rate-mbps 0 -", s);
	check_err("bad line rate", cmd, 2, "bad --line-rate-mbps '0'");
	snprintf(cmd, sizeof(cmd), "%s --frobnicate -", s);
	check_err("unknown option", cmd, 2, "unknown option '--frobnicate'");

	snprintf(cmd, sizeof(cmd), "printf '10 cnp\\n# c\\n\\n5 cnp\\n' | %s -", s);
	check_err("time going back", cmd, 1, "<stdin>:4: time goes backwards (5 after 10)");
	snprintf(cmd, sizeof(cmd), "printf '10 ecn\\n' | %s -", s);
	check_err("unknown event", cmd, 1, "<stdin>:1: unknown event 'ecn'");
	snprintf(cmd, sizeof(cmd), "printf '1 cnp\\n2 tx\\n' | %s -", s);
	check_err("tx without bytes", cmd, 1, "<stdin>:2: 'tx' wants one byte count");
	snprintf(cmd, sizeof(cmd), "printf '1 tx 5000000000\\n' | %s -", s);
	check_err("byte count too big", cmd, 1, "<stdin>:1: bad byte count '5000000000'");
	snprintf(cmd, sizeof(cmd), "printf '1x cnp\\n' | %s -", s);
	check_err("bad time", cmd, 1, "<stdin>:1: bad time '1x'");
	snprintf(cmd, sizeof(cmd), "printf '5 end\\n6 cnp\\n' | %s -", s);
	check_err("event after end", cmd, 1, "<stdin>:2: event after 'end'");

	return tap_done();
}
