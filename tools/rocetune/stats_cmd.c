// SPDX-License-Identifier: GPL-2.0
/*
 * The `stats` and `top` commands: sampling loops around stats.c, output
 * through stats_out.c. top draws with ncurses on a terminal, and prints
 * plain frames one after the other when stdout is not a tty or TERM is
 * unset or "dumb" (and always with --iterations, so tests can read it).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <curses.h>
#include "output.h"
#include "qpctr.h"
#include "stats.h"
#include "stats_cmd.h"

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void json_doc_head(struct jw *j, const char *cmd)
{
	jw_obj(j, NULL);
	jw_int(j, "json_version", RTUNE_JSON_VERSION);
	jw_str(j, "tool", "rocetune");
	jw_str(j, "version", RTUNE_VERSION);
	jw_str(j, "command", cmd);
}

static void json_doc_tail(struct jw *j, const char *result, int code)
{
	jw_str(j, "result", result);
	jw_int(j, "exit_code", code);
	jw_end_obj(j);
}

/* Two samples @interval_ms apart (one when 0), rates in @cur. */
static int two_samples(const struct rtune_stats_opts *o, struct rtune_stsnap *cur)
{
	struct rtune_stsnap prev;
	int err;

	err = rtune_st_sample(o->names, o->nnames, o->interval_ms ? &prev : cur);
	if (err || !o->interval_ms)
		return err;
	sleep_ms(o->interval_ms);
	err = rtune_st_sample(o->names, o->nnames, cur);
	if (!err)
		rtune_st_rates(&prev, cur);
	rtune_st_free(&prev);
	return err;
}

/* The named devices not found: said on stderr; returns how many. */
static int missing(const struct rtune_stats_opts *o, const struct rtune_stsnap *s)
{
	int i, k, bad = 0;

	for (i = 0; i < o->nnames; i++) {
		for (k = 0; k < s->n; k++)
			if (!strcmp(s->p[k].netdev, o->names[i]) ||
			    (s->p[k].has_ib && !strcmp(s->p[k].ibdev, o->names[i])))
				break;
		if (k == s->n) {
			fprintf(stderr, "rocetune: no netdev or RDMA device named '%s'\n", o->names[i]);
			bad++;
		}
	}
	return bad;
}

/* The PCI driver of an RDMA device, "" when it has none (Soft-RoCE). */
static void ib_driver(const char *ibdev, char *drv, size_t len)
{
	char path[512], link[512];
	ssize_t n;
	const char *b;

	drv[0] = '\0';
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device/driver", ibdev);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	b = strrchr(link, '/');
	snprintf(drv, len, "%.63s", b ? b + 1 : link);
}

/*
 * --bind-qp-counters / --unbind-qp-counters on every RDMA port of the
 * selection (qpctr.h), one line per port on stderr. Exit 1 when a bind or
 * unbind failed, or when no port could bind at all.
 */
static int qpc_action(const struct rtune_stats_opts *o)
{
	struct rtune_stsnap s;
	struct rtune_qpc_io io;
	char state[4096], drv[64];
	int i, err, code = 0, ok = 0, ports = 0;

	err = rtune_st_sample(o->names, o->nnames, &s);
	if (!err)
		err = qpc_io_open(&io);
	if (err) {
		fprintf(stderr, "rocetune: stats: cannot read the host: %s\n", strerror(-err));
		rtune_st_free(&s);
		return RTUNE_EXIT_FAILED;
	}
	qpc_state_path(state, sizeof(state));
	for (i = 0; i < s.n; i++) {
		const struct rtune_stport *p = &s.p[i];
		struct rtune_qpc_result r;

		if (!p->has_ib || p->gone)
			continue;
		ports++;
		if (o->bind_qpc) {
			ib_driver(p->ibdev, drv, sizeof(drv));
			err = qpc_bind(&io, state, p->ibdev, drv, p->port, &r);
		} else {
			err = qpc_unbind(&io, state, p->ibdev, p->port, &r);
		}
		if (err) {
			fprintf(stderr, "rocetune: qp counters: %s/%u: %s\n", p->ibdev, p->port, strerror(-err));
			code = RTUNE_EXIT_FAILED;
		} else if (r.unsupported || r.auto_mode) {
			fprintf(stderr, "rocetune: qp counters: %s/%u: %s: %s\n", p->ibdev, p->port,
				r.unsupported ? "unsupported" : "left alone", r.why);
		} else if (o->bind_qpc) {
			fprintf(stderr, "rocetune: qp counters: %s/%u: %d QP%s bound, %d bound already (kept), %d not counted (kernel or type), %d failed, %d optional counter%s enabled%s%s\n",
				p->ibdev, p->port, r.bound, r.bound == 1 ? "" : "s", r.already, r.skipped,
				r.failed, r.enabled, r.enabled == 1 ? "" : "s", r.why[0] ? ": " : "", r.why);
			ok++;
		} else {
			fprintf(stderr, "rocetune: qp counters: %s/%u: %d binding%s removed, %d gone already, %d failed, %d optional counter%s disabled%s%s\n",
				p->ibdev, p->port, r.removed, r.removed == 1 ? "" : "s", r.gone, r.failed,
				r.disabled, r.disabled == 1 ? "" : "s", r.why[0] ? ": " : "", r.why);
			ok++;
		}
		if (!err && r.failed)
			code = RTUNE_EXIT_FAILED;
	}
	if (o->bind_qpc && ports && !ok)
		code = RTUNE_EXIT_FAILED;	/* nothing could be bound anywhere */
	qpc_io_close(&io);
	rtune_st_free(&s);
	return code;
}

int rtune_stats(const struct rtune_stats_opts *o)
{
	struct rtune_stsnap s;
	int err, code = 0;

	if (o->bind_qpc || o->unbind_qpc)
		code = qpc_action(o);
	err = two_samples(o, &s);
	if (err) {
		fprintf(stderr, "rocetune: stats: cannot read the host: %s\n", strerror(-err));
		return RTUNE_EXIT_FAILED;
	}
	if (missing(o, &s) || (!s.n && !o->nnames && !o->prom))
		code = RTUNE_EXIT_FAILED;
	if (!s.n && !o->nnames)
		fprintf(stderr, "rocetune: stats: no netdev with DCB or an RDMA port\n");
	rtune_st_sort(&s, ST_SORT_NAME);
	if (o->prom) {
		if (!o->prom_file || !strcmp(o->prom_file, "-")) {
			rtune_st_prom(stdout, &s);
		} else {
			err = rtune_st_prom_file(o->prom_file, &s);
			if (err) {
				fprintf(stderr, "rocetune: stats: cannot write %s: %s\n", o->prom_file,
					strerror(-err));
				code = RTUNE_EXIT_FAILED;
			}
		}
	} else if (o->json) {
		struct jw j;

		jw_init(&j, stdout);
		json_doc_head(&j, "stats");
		rtune_st_json(&j, &s, o->interval_ms);
		json_doc_tail(&j, code ? "error" : "ok", code);
	} else {
		rtune_st_text(stdout, &s, o->interval_ms > 0);
	}
	rtune_st_free(&s);
	return code;
}

static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}

static bool use_curses(const struct rtune_stats_opts *o)
{
	const char *term = getenv("TERM");

	return !o->iterations && !o->json && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) &&
	       term && *term && strcmp(term, "dumb");
}

/* Draw one frame on the curses screen, from a memory stream of the text frame. */
static void curses_frame(const struct rtune_stsnap *s, enum rtune_st_sort key, double iv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	rtune_st_top_frame(m, s, key, iv);
	fclose(m);
	erase();
	mvaddstr(0, 0, buf);
	mvaddstr(LINES - 1, 0, "keys: p sort by pause, b by traffic, n by name, q quit");
	refresh();
	free(buf);
}

/* A key pressed during @ms (curses): q quits, p/b/n pick the sort. */
static bool curses_wait(int ms, enum rtune_st_sort *key)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };

	while (!g_stop && poll(&pfd, 1, ms) > 0) {
		int c = getch();

		if (c == 'q' || c == 'Q')
			return false;
		if (c == 'p')
			*key = ST_SORT_PAUSE;
		else if (c == 'b')
			*key = ST_SORT_BUSY;
		else if (c == 'n')
			*key = ST_SORT_NAME;
		else
			continue;
		return true;	/* redraw now, in the new order */
	}
	return !g_stop;
}

int rtune_top(const struct rtune_stats_opts *o)
{
	struct rtune_stsnap prev, cur;
	enum rtune_st_sort key = o->sort;
	bool curses = use_curses(o);
	double iv = o->interval_ms / 1000.0;
	int err, n = 0, code = 0;
	struct sigaction sa = { .sa_handler = on_signal };
	SCREEN *screen = NULL;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	err = rtune_st_sample(o->names, o->nnames, &prev);
	if (err) {
		fprintf(stderr, "rocetune: top: cannot read the host: %s\n", strerror(-err));
		return RTUNE_EXIT_FAILED;
	}
	if (missing(o, &prev)) {
		rtune_st_free(&prev);
		return RTUNE_EXIT_FAILED;
	}
	/* newterm, not initscr: a terminal curses cannot drive (an unknown
	 * TERM) falls back to plain frames instead of exiting */
	if (curses && !(screen = newterm(NULL, stdout, stdin)))
		curses = false;
	if (curses) {
		cbreak();
		noecho();
		nodelay(stdscr, TRUE);
		curs_set(0);
	}
	while (!g_stop && (!o->iterations || n < o->iterations)) {
		if (curses) {
			if (!curses_wait(o->interval_ms, &key))
				break;
		} else {
			sleep_ms(o->interval_ms);
		}
		if (g_stop)
			break;
		err = rtune_st_sample(o->names, o->nnames, &cur);
		if (err) {
			code = RTUNE_EXIT_FAILED;
			break;
		}
		rtune_st_rates(&prev, &cur);
		rtune_st_sort(&cur, key);
		if (curses) {
			curses_frame(&cur, key, iv);
		} else if (o->json) {
			struct jw j;

			jw_init(&j, stdout);
			json_doc_head(&j, "top");
			jw_int(&j, "iteration", n + 1);
			jw_str(&j, "sort", rtune_st_sort_names[key]);
			rtune_st_json(&j, &cur, o->interval_ms);
			json_doc_tail(&j, "ok", 0);
		} else {
			if (n)
				fputc('\n', stdout);
			rtune_st_top_frame(stdout, &cur, key, iv);
		}
		fflush(stdout);
		rtune_st_free(&prev);
		prev = cur;
		n++;
	}
	if (curses) {
		endwin();
		delscreen(screen);
	}
	rtune_st_free(&prev);
	if (err)
		fprintf(stderr, "rocetune: top: cannot read the host: %s\n", strerror(-err));
	return code;
}
