// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * dcqcn-sim: run rocetune's DCQCN reaction point (kmod/core/dcqcn.c, the
 * same code the module runs) over a trace of events and print its
 * trajectory as CSV. See Documentation/dcqcn.rst for the formats.
 *
 *   dcqcn-sim [--preset NAME] [--set name=value]... [--line-rate-mbps N]
 *             [TRACE|-]
 *
 * Exit status: 0 success, 1 bad trace or I/O error, 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "dcqcn.h"

#define DEFAULT_LINE_RATE_MBPS 40000u	/* the paper's 40 Gb/s links */

enum ev_kind { EV_CNP, EV_TX, EV_END };

struct event {
	u64 t;
	u32 bytes;
	enum ev_kind kind;
};

static const char *prog = "dcqcn-sim";

/* The trace being read; file scope so that an exit() on error leaks nothing. */
static struct event *events;
static char *linebuf;
static const char **set_args;	/* the --set values, in order */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--preset NAME] [--set name=value]... [--line-rate-mbps N] [TRACE|-]\n"
		"       %s --list [--preset NAME] [--set name=value]...\n"
		"\n"
		"Runs one DCQCN reaction point over TRACE (standard input if absent or '-')\n"
		"and prints time_us,rate_mbps,target_mbps,alpha at every change.\n"
		"\n"
		"  --preset NAME        starting parameter set (default %s)\n"
		"  --set name=value     override one parameter (the configfs names)\n"
		"  --line-rate-mbps N   link speed (default %u)\n"
		"  --list               print every parameter: value, meaning, range\n"
		"\n"
		"Trace: one event per line, '#' starts a comment:\n"
		"  <time_us> cnp        a CNP arrives\n"
		"  <time_us> tx <bytes> the flow sent <bytes>\n"
		"  <time_us> end        run timers up to <time_us> and stop (last line)\n",
		prog, prog, RTUNE_DEFAULT_PRESET, DEFAULT_LINE_RATE_MBPS);
}

static void die_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	exit(2);
}

static const char *kind_text(const struct rtune_param_desc *d, char *buf, size_t len)
{
	switch (d->kind) {
	case RTUNE_KIND_BOOL:
		snprintf(buf, len, "0 or 1");
		break;
	case RTUNE_KIND_PRIO_MASK:
		snprintf(buf, len, "a priority list such as 0,3-5 or none");
		break;
	default:
		snprintf(buf, len, "a decimal number %u..%u (%s)", d->min, d->max,
			 d->unit);
		break;
	}
	return buf;
}

static void apply_set(struct rtune_param_set *set, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char what[96], name[64];
	u32 v;
	int id;

	if (!eq || eq == arg)
		die_usage("--set wants name=value, got '%s'", arg);
	id = rtune_param_lookup(arg, (size_t)(eq - arg));
	if (id < 0) {
		snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
		die_usage("unknown parameter '%s' (see --list)", name);
	}
	if (rtune_param_parse(id, eq + 1, strlen(eq + 1), &v))
		die_usage("invalid value '%s' for %s: expected %s", eq + 1,
			  rtune_param_descs[id].name,
			  kind_text(&rtune_param_descs[id], what, sizeof(what)));
	set->v[id] = v;
}

static void list_params(const struct rtune_preset *preset,
			const struct rtune_param_set *set)
{
	char buf[RTUNE_PARAM_TEXT_MAX], what[96];
	int i;

	printf("# preset %s: %s\n", preset->name, preset->help);
	for (i = 0; i < RTUNE_P_COUNT; i++) {
		const struct rtune_param_desc *d = &rtune_param_descs[i];

		if (rtune_param_format(i, set->v[i], buf, sizeof(buf)) < 0)
			snprintf(buf, sizeof(buf), "?");
		printf("%s=%s\t# %s; %s\n", d->name, buf, d->help,
		       kind_text(d, what, sizeof(what)));
	}
}

/* Strict unsigned decimal into u64: digits only, no overflow. */
static int parse_u64(const char *s, u64 *out)
{
	u64 v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (~(u64)0 - (u64)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (u64)(*s - '0');
	}
	*out = v;
	return 0;
}

static void trace_error(const char *file, unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
static void trace_error(const char *file, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s:%lu: ", prog, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Read and check the whole trace before simulating anything. */
static struct event *read_trace(FILE *in, const char *file, size_t *count)
{
	size_t n = 0, cap = 0, linecap = 0;
	unsigned long lineno = 0;
	u64 last_t = 0;
	bool ended = false;
	ssize_t len;
	char *line;

	while ((len = getline(&linebuf, &linecap, in)) >= 0) {
		char *tok[4], *save = NULL, *p;
		struct event e = { 0 };
		int ntok = 0;

		line = linebuf;
		lineno++;
		if ((size_t)len != strlen(line))
			trace_error(file, lineno, "NUL byte in line");
		line[strcspn(line, "#\r\n")] = '\0';
		for (p = strtok_r(line, " \t", &save); p;
		     p = strtok_r(NULL, " \t", &save)) {
			if (ntok == 4)
				trace_error(file, lineno, "too many fields");
			tok[ntok++] = p;
		}
		if (!ntok)
			continue;
		if (ended)
			trace_error(file, lineno, "event after 'end'");
		if (parse_u64(tok[0], &e.t))
			trace_error(file, lineno,
				    "bad time '%s' (microseconds, a decimal number)",
				    tok[0]);
		if (ntok < 2)
			trace_error(file, lineno, "missing event after time %s",
				    tok[0]);
		if (!strcmp(tok[1], "cnp") || !strcmp(tok[1], "end")) {
			e.kind = tok[1][0] == 'c' ? EV_CNP : EV_END;
			if (ntok != 2)
				trace_error(file, lineno,
					    "'%s' takes no argument", tok[1]);
			ended = e.kind == EV_END;
		} else if (!strcmp(tok[1], "tx")) {
			u64 b;

			e.kind = EV_TX;
			if (ntok != 3)
				trace_error(file, lineno,
					    "'tx' wants one byte count");
			if (parse_u64(tok[2], &b) || b > 0xffffffffull)
				trace_error(file, lineno,
					    "bad byte count '%s' (0..4294967295)",
					    tok[2]);
			e.bytes = (u32)b;
		} else {
			trace_error(file, lineno,
				    "unknown event '%s' (cnp, tx or end)", tok[1]);
		}
		if (n && e.t < last_t)
			trace_error(file, lineno,
				    "time goes backwards (%llu after %llu)",
				    (unsigned long long)e.t,
				    (unsigned long long)last_t);
		last_t = e.t;
		if (n == cap) {
			struct event *more;

			cap = cap ? 2 * cap : 256;
			more = realloc(events, cap * sizeof(*events));
			if (!more) {
				fprintf(stderr, "%s: out of memory\n", prog);
				exit(1);
			}
			events = more;
		}
		events[n++] = e;
	}
	if (ferror(in)) {
		fprintf(stderr, "%s: %s: read error: %s\n", prog, file,
			strerror(errno));
		exit(1);
	}
	free(linebuf);
	linebuf = NULL;
	*count = n;
	return events;
}

struct row {
	u32 rc, rt, alpha;
	bool printed;
};

static void fmt_rate(char *buf, size_t len, u32 kbps)
{
	snprintf(buf, len, "%u.%03u", kbps / 1000, kbps % 1000);
}

/* Alpha (Q20) as a decimal with 6 places, rounded to nearest. */
static void fmt_alpha(char *buf, size_t len, u32 alpha)
{
	u64 micro = ((u64)alpha * 1000000u + (DCQCN_ALPHA_ONE / 2)) >>
		    DCQCN_ALPHA_SHIFT;

	snprintf(buf, len, "%u.%06u", (unsigned int)(micro / 1000000u),
		 (unsigned int)(micro % 1000000u));
}

static void emit(struct row *last, const struct dcqcn_rp *rp, u64 t)
{
	char rc[24], rt[24], al[24];

	if (last->printed && last->rc == rp->rc_kbps && last->rt == rp->rt_kbps &&
	    last->alpha == rp->alpha)
		return;
	last->printed = true;
	last->rc = rp->rc_kbps;
	last->rt = rp->rt_kbps;
	last->alpha = rp->alpha;
	fmt_rate(rc, sizeof(rc), rp->rc_kbps);
	fmt_rate(rt, sizeof(rt), rp->rt_kbps);
	fmt_alpha(al, sizeof(al), rp->alpha);
	printf("%llu,%s,%s,%s\n", (unsigned long long)t, rc, rt, al);
}

/* Run time-driven events one instant at a time, up to and including @t. */
static void run_until(struct dcqcn_rp *rp, const struct dcqcn_params *p,
		      struct row *last, u64 t)
{
	u64 next;

	while ((next = dcqcn_rp_next_event_us(rp)) <= t) {
		dcqcn_rp_advance(rp, p, next);
		emit(last, rp, next);
	}
}

int main(int argc, char **argv)
{
	const struct rtune_preset *preset = rtune_preset_lookup(RTUNE_DEFAULT_PRESET,
							  strlen(RTUNE_DEFAULT_PRESET));
	u32 line_rate = DEFAULT_LINE_RATE_MBPS;
	const char *trace = NULL;
	struct dcqcn_params params;
	struct rtune_param_set set;
	struct dcqcn_rp rp;
	struct row last = { 0 };
	struct event *ev;
	bool list = false, opts_done = false;
	char why[160];
	size_t nev, i;
	int nsets = 0, a;
	FILE *in;

	set_args = calloc((size_t)argc, sizeof(*set_args));
	if (!set_args || !preset)
		return 1;
	for (a = 1; a < argc; a++) {
		const char *arg = argv[a], *val = NULL;
		size_t olen;

		if (opts_done || arg[0] != '-' || !strcmp(arg, "-")) {
			if (trace)
				die_usage("more than one trace given ('%s' and '%s')",
					  trace, arg);
			trace = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			opts_done = true;
			continue;
		}
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(arg, "--list")) {
			list = true;
			continue;
		}
		olen = strcspn(arg, "=");
		if (arg[olen] == '=')
			val = arg + olen + 1;
#define OPT(name) (olen == strlen(name) && !strncmp(arg, name, olen))
		if (!OPT("--preset") && !OPT("--set") && !OPT("--line-rate-mbps"))
			die_usage("unknown option '%s'", arg);
		if (!val) {
			if (a + 1 >= argc)
				die_usage("option '%s' needs a value", arg);
			val = argv[++a];
		}
		if (OPT("--preset")) {
			preset = rtune_preset_lookup(val, strlen(val));
			if (!preset) {
				char names[128] = "";
				unsigned int k;

				for (k = 0; k < rtune_preset_count; k++)
					snprintf(names + strlen(names),
						 sizeof(names) - strlen(names), "%s%s",
						 k ? ", " : "", rtune_presets[k].name);
				die_usage("unknown preset '%s' (known: %s)", val, names);
			}
		} else if (OPT("--set")) {
			set_args[nsets++] = val;
		} else {
			/* Mb/s, up to the largest rate rtune_params accepts. */
			u32 hi = rtune_param_descs[RTUNE_P_RP_MAX_RATE_KBPS].max / 1000;

			if (rtune_parse_u32(val, strlen(val), &line_rate) ||
			    !line_rate || line_rate > hi)
				die_usage("bad --line-rate-mbps '%s' (expected 1..%u)",
					  val, hi);
		}
#undef OPT
	}

	/* The preset is the base, whatever the order; --set applies in order. */
	set = preset->set;
	for (a = 0; a < nsets; a++)
		apply_set(&set, set_args[a]);
	free(set_args);
	set_args = NULL;
	if (rtune_params_validate(&set, why, sizeof(why)))
		die_usage("inconsistent parameters: %s", why);
	if (dcqcn_params_from_set(&set, line_rate, &params))
		die_usage("parameters rejected");
	if (list) {
		list_params(preset, &set);
		return 0;
	}

	if (!trace || !strcmp(trace, "-")) {
		in = stdin;
		trace = "<stdin>";
	} else {
		in = fopen(trace, "r");
		if (!in) {
			fprintf(stderr, "%s: %s: %s\n", prog, trace, strerror(errno));
			return 1;
		}
	}
	ev = read_trace(in, trace, &nev);
	if (in != stdin)
		fclose(in);

	printf("time_us,rate_mbps,target_mbps,alpha\n");
	dcqcn_rp_init(&rp, &params, 0);
	emit(&last, &rp, 0);
	for (i = 0; i < nev; i++) {
		run_until(&rp, &params, &last, ev[i].t);
		switch (ev[i].kind) {
		case EV_CNP:
			dcqcn_rp_on_cnp(&rp, &params, ev[i].t);
			break;
		case EV_TX:
			dcqcn_rp_on_tx(&rp, &params, ev[i].t, ev[i].bytes);
			break;
		case EV_END:
			break;
		}
		emit(&last, &rp, ev[i].t);
	}
	free(ev);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
		return 1;
	}
	return 0;
}
