// SPDX-License-Identifier: GPL-2.0
/*
 * rocetune watch: drift from the profiles, reported as it happens, and
 * repaired on request.
 *
 * What wakes a check: rtnetlink notifications (RTNLGRP_LINK: MTU, netdevs
 * appearing and going; RTNLGRP_DCB: every dcbnl set), RDMA netlink's
 * device notifications where the kernel sends them (RDMA_NL_GROUP_NOTIFY),
 * and a timer (--interval), because rocetune.ko's and rdma_cm's configfs
 * have no notification at all and older kernels none for RDMA devices.
 * A notification only says "look again": every check reads the whole state
 * of the devices each profile matches (host_collect) and runs the planner
 * (plan.c), so what is reported as drift is exactly what `rocetune diff`
 * would plan, and a lost notification (socket overrun) costs nothing but
 * the wait for the next one or the timer.
 *
 * Drift is kept per device and setting (act_settings: the planner's
 * actions split into the settings they change); a line is written when a
 * setting drifts, when its value changes again, and when it is back in
 * the declared state, so a steady drift is reported once.
 *
 * --repair runs the planned actions of the drifted devices through
 * apply_plan (read-back, rollback) under the apply lock. Rate limit per
 * device: at least repair_interval between two repairs; a setting that
 * drifts again less than W_FIGHT_MS after a repair wrote it is a fight,
 * and each fight doubles the wait (up to backoff_max); after max_repairs
 * fights in a row the device is given up (reported once) until it is
 * back in the declared state by other means. Details: rocetune(8).
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/socket.h>
#include "apply.h"
#include "host.h"
#include "lock.h"
#include "output.h"
#include "rdma.h"
#include "watch.h"

#ifndef NETLINK_RDMA
#define NETLINK_RDMA 20
#endif

#define W_MAX_SET 48		/* settings per device: every object's, every CC parameter */
#define W_DEBOUNCE_MS 100	/* notifications come in bursts (ours too) */
#define W_FIGHT_MS 60000	/* a setting undone this soon after a repair: a fight */
#define W_LOCK_MS 2000		/* how long a repair waits for another apply */

struct wdev {
	int prof;			/* index of the profile that matches it */
	char netdev[16];
	char ibdev[64];
	uint32_t port;
	bool has_ib;
	bool present;			/* matched at the last check */
	bool seen;			/* matched at this check */
	struct rtune_setting drift[W_MAX_SET];
	char object[W_MAX_SET][16];
	int ndrift;
	char notes[512];		/* error notes last reported */
	/* repair */
	bool repaired;			/* last_repair is valid */
	int64_t last_repair;
	int holdoff;			/* ms after last_repair before the next one */
	int strikes;			/* fights in a row */
	bool gave_up;
	int64_t deferred_to;		/* the deferral last reported */
	char fixed[W_MAX_SET][sizeof(((struct rtune_setting *)0)->name)];	/* last repair's */
	int nfixed;
};

struct watch {
	const struct rtune_watch_opts *o;
	struct rtune_profile *prof;
	struct rtune_diags diags;
	char (*host_notes)[512];	/* per profile: host notes last reported */
	bool *blocked;			/* per profile: repair-blocked reported */
	struct wdev *dev;
	int ndev, capdev;
	struct nl_sock *sk;		/* requests and writes */
	struct nl_sock *ev;		/* rtnetlink notifications */
	struct nl_sock *rdma_ev;	/* RDMA notifications, or NULL: polled */
	int sigfd;
	bool dirty;			/* a notification came: check soon */
	int64_t dirty_at;
	bool first;			/* the first check: devices are not "new" */
	bool drift_seen;		/* --once */
	bool error_seen;
};

static struct rtune_host w_host, w_saved;

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* "2026-12-01T02:03:04.567Z" */
static void timestamp(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	char s[24];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03dZ", s, (int)(ts.tv_nsec / 1000000) % 1000);
}

/* ---------------------------------------------------------------- output */

/*
 * One event: a JSON object on one line, or a text line "TIME EVENT ...".
 * ev_begin writes the common part; the caller adds its fields (JSON) or
 * its text, then ev_end.
 */
static void ev_begin(struct watch *w, struct jw *j, const char *event, int prof)
{
	char ts[40];

	timestamp(ts, sizeof(ts));
	if (!w->o->json) {
		printf("%s %s", ts, event);
		return;
	}
	jw_init(j, stdout);
	jw_obj(j, NULL);
	jw_int(j, "json_version", RTUNE_JSON_VERSION);
	jw_str(j, "tool", "rocetune");
	jw_str(j, "version", RTUNE_VERSION);
	jw_str(j, "command", "watch");
	jw_str(j, "event", event);
	jw_str(j, "time", ts);
	jw_str(j, "profile", prof >= 0 ? w->prof[prof].path : NULL);
}

static void ev_end(struct watch *w, struct jw *j)
{
	if (w->o->json)
		jw_end_obj(j);
	else
		putchar('\n');
	fflush(stdout);
}

static void ev_dev(struct watch *w, struct jw *j, const struct wdev *d)
{
	if (!w->o->json) {
		printf(" %s", d->netdev);
		if (d->has_ib)
			printf(" (%s/%u)", d->ibdev, d->port);
		return;
	}
	jw_str(j, "netdev", d->netdev);
	jw_str(j, "rdma_device", d->has_ib ? d->ibdev : NULL);
	if (d->has_ib)
		jw_int(j, "port", d->port);
	else
		jw_null(j, "port");
}

static void report_setting(struct watch *w, const struct wdev *d, const char *event,
			   const char *object, const struct rtune_setting *s)
{
	struct jw j;

	ev_begin(w, &j, event, d->prof);
	ev_dev(w, &j, d);
	if (w->o->json) {
		bool back = strcmp(event, "drift") != 0;

		jw_str(&j, "object", object);
		jw_str(&j, "setting", s->name);
		jw_str(&j, "current", back ? s->want : s->cur);
		jw_str(&j, "wanted", s->want);
		if (back)
			jw_str(&j, "was", s->cur);
	} else if (!strcmp(event, "drift")) {
		printf(" %s is '%s', the profile wants '%s' [%s]", s->name, s->cur, s->want,
		       w->prof[d->prof].path);
	} else {
		printf(" %s is '%s' again, as declared [%s]", s->name, s->want,
		       w->prof[d->prof].path);
	}
	ev_end(w, &j);
}

static void report_note(struct watch *w, int prof, const struct wdev *d,
			const struct rtune_note *n)
{
	struct jw j;
	const char *sev = n->sev == RTUNE_SEV_ERROR ? "error" : "warning";

	ev_begin(w, &j, "note", prof);
	if (d)
		ev_dev(w, &j, d);
	if (w->o->json) {
		jw_str(&j, "severity", sev);
		jw_str(&j, "code", n->code);
		jw_str(&j, "message", n->msg);
	} else {
		printf(" %s %s: %s [%s]", sev, n->code, n->msg, w->prof[prof].path);
	}
	ev_end(w, &j);
}

/* "error", "device", "giving-up", ...: a message and nothing else. */
static void report_msg(struct watch *w, const char *event, int prof, const struct wdev *d,
		       const char *code, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void report_msg(struct watch *w, const char *event, int prof, const struct wdev *d,
		       const char *code, const char *fmt, ...)
{
	char msg[600];
	struct jw j;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ev_begin(w, &j, event, prof);
	if (d)
		ev_dev(w, &j, d);
	if (w->o->json) {
		jw_str(&j, "code", code);
		jw_str(&j, "message", msg);
	} else {
		printf("%s%s", d ? ": " : " ", msg);
	}
	ev_end(w, &j);
}

/* ---------------------------------------------------------------- devices */

static struct wdev *wdev_get(struct watch *w, int prof, const struct rtune_link *l)
{
	struct wdev *d;
	int i;

	for (i = 0; i < w->ndev; i++)
		if (w->dev[i].prof == prof && !strcmp(w->dev[i].netdev, l->netdev))
			return &w->dev[i];
	if (w->ndev == w->capdev) {
		int cap = w->capdev ? 2 * w->capdev : 16;
		void *nd = realloc(w->dev, sizeof(*w->dev) * (size_t)cap);

		if (!nd)
			abort();
		w->dev = nd;
		w->capdev = cap;
	}
	d = &w->dev[w->ndev++];
	memset(d, 0, sizeof(*d));
	d->prof = prof;
	snprintf(d->netdev, sizeof(d->netdev), "%s", l->netdev);
	d->holdoff = w->o->repair_interval_ms;
	return d;
}

/* A repair undone right away, or failed: wait twice as long next time. */
static void strike(struct watch *w, struct wdev *d)
{
	d->strikes++;
	d->holdoff = d->holdoff > w->o->backoff_max_ms / 2 ? w->o->backoff_max_ms :
		     d->holdoff * 2;
}

/* A setting is known by its object and name (an APP add and an APP
 * delete both change trust.dscp_prio). */
static const struct rtune_setting *find_setting(const struct rtune_setting *s,
						char (*obj)[16], int n, const char *object,
						const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s[i].name, name) && !strcmp(obj[i], object))
			return &s[i];
	return NULL;
}

static bool was_fixed(const struct wdev *d, const char *name)
{
	int i;

	for (i = 0; i < d->nfixed; i++)
		if (!strcmp(d->fixed[i], name))
			return true;
	return false;
}

/*
 * The drift of device @idx of w_host, planned in @pl: report what changed
 * since the last check and keep it. A setting drifting again right after
 * a repair wrote it is counted as a fight (the rate limit's input).
 */
static void update_dev(struct watch *w, struct wdev *d, int idx, const struct rtune_plan *pl)
{
	struct rtune_setting now[W_MAX_SET];
	char obj[W_MAX_SET][16], notes[512] = "";
	bool fight = false;
	int n = 0, i, k;
	int64_t t = now_ms();

	for (i = 0; i < pl->n; i++) {
		const struct rtune_action *a = &pl->a[i];
		int m, c;

		if (a->dev != idx)
			continue;
		m = act_settings(a, &now[n], W_MAX_SET - n);
		for (c = n; c < n + m; c++)
			snprintf(obj[c], sizeof(obj[c]), "%s", act_name(a));
		n += m;
	}
	/* the error notes (what blocks checking or applying) */
	for (i = 0; i < pl->nnotes; i++) {
		const struct rtune_note *nt = &pl->notes[i];

		if (nt->dev != idx || nt->sev != RTUNE_SEV_ERROR)
			continue;
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes), "%s;", nt->code);
	}
	if (strcmp(notes, d->notes)) {
		for (i = 0; i < pl->nnotes; i++)
			if (pl->notes[i].dev == idx && pl->notes[i].sev == RTUNE_SEV_ERROR)
				report_note(w, d->prof, d, &pl->notes[i]);
		snprintf(d->notes, sizeof(d->notes), "%s", notes);
	}
	if (notes[0])
		w->drift_seen = true;

	for (i = 0; i < n; i++) {
		const struct rtune_setting *old = find_setting(d->drift, d->object, d->ndrift,
							       obj[i], now[i].name);

		if (old && !strcmp(old->cur, now[i].cur) && !strcmp(old->want, now[i].want))
			continue;
		report_setting(w, d, "drift", obj[i], &now[i]);
		if (!old && d->repaired && t - d->last_repair < W_FIGHT_MS &&
		    was_fixed(d, now[i].name))
			fight = true;
	}
	for (k = 0; k < d->ndrift; k++)
		if (!find_setting(now, obj, n, d->object[k], d->drift[k].name))
			report_setting(w, d, "in-sync", d->object[k], &d->drift[k]);
	if (n)
		w->drift_seen = true;

	if (fight)
		strike(w, d);
	else if (n && !d->ndrift)	/* a new drift, not a fight: start afresh */
		d->strikes = 0, d->holdoff = w->o->repair_interval_ms;
	if (!n && d->ndrift && d->gave_up) {
		/* back in the declared state by someone else's hand: repair again */
		report_msg(w, "repair-resumed", d->prof, d, "in-sync",
			   "back in the declared state: repairs resume");
		d->gave_up = false;
		d->repaired = false;
		d->strikes = 0;
		d->holdoff = w->o->repair_interval_ms;
	}
	memcpy(d->drift, now, sizeof(now[0]) * (size_t)n);
	memcpy(d->object, obj, sizeof(obj[0]) * (size_t)n);
	d->ndrift = n;
}

/* ---------------------------------------------------------------- repair */

/* Repair the devices of profile @pi whose turn it is. @pl holds the plan
 * of every device of w_host (@pl's host notes included). */
static int64_t repair_profile(struct watch *w, int pi, struct rtune_plan *pl)
{
	struct rtune_plan sub = { 0 };
	struct rtune_apply_result r = { .failed = -1 };
	struct wdev *which[RTUNE_MAX_DEVS];
	int64_t t = now_ms(), wake = 0;
	int i, k, ndev = 0, lockfd, waited = 0;

	for (i = 0; i < w_host.n; i++) {
		struct wdev *d = wdev_get(w, pi, &w_host.dev[i]);
		int64_t due = d->last_repair + d->holdoff;
		bool blocked = d->notes[0] != '\0';

		which[i] = NULL;
		if (!d->ndrift || d->gave_up || blocked)
			continue;
		if (d->strikes >= w->o->max_repairs) {
			d->gave_up = true;
			report_msg(w, "giving-up", pi, d, "fighting",
				   "giving up: %d repairs in a row were undone right away or failed (now drifted: %s%s): another owner (an agent, lldpad, firmware) is fighting over it, or the driver does not keep it; no more repairs of %s until it is back in the declared state",
				   d->strikes, d->drift[0].name, d->ndrift > 1 ? ", ..." : "",
				   d->netdev);
			continue;
		}
		if (d->repaired && t < due) {
			if (d->deferred_to != due)
				report_msg(w, "repair-deferred", pi, d, "rate-limit",
					   "next repair in %.1f s (%d repair%s undone right away so far; at most one repair per %.1f s)",
					   (double)(due - t) / 1000, d->strikes,
					   d->strikes == 1 ? "" : "s", (double)d->holdoff / 1000);
			d->deferred_to = due;
			if (!wake || due < wake)
				wake = due;
			continue;
		}
		which[i] = d;
		ndev++;
	}
	if (!ndev)
		return wake;
	for (i = 0; i < pl->nnotes; i++) {
		if (pl->notes[i].dev < 0 && pl->notes[i].sev == RTUNE_SEV_ERROR) {
			if (!w->blocked[pi])
				report_msg(w, "repair-blocked", pi, NULL, pl->notes[i].code,
					   "not repairing: %s", pl->notes[i].msg);
			w->blocked[pi] = true;
			return wake;
		}
	}
	w->blocked[pi] = false;
	lockfd = rtune_lock(W_LOCK_MS, &waited);
	if (lockfd < 0) {
		report_msg(w, "repair-deferred", pi, NULL, "lock",
			   "cannot take the apply lock (%s): another rocetune apply runs; trying again in %.1f s",
			   strerror(-lockfd), (double)w->o->repair_interval_ms / 1000);
		return t + w->o->repair_interval_ms;
	}
	for (i = 0; i < pl->n; i++) {
		struct rtune_action *a;

		if (!which[pl->a[i].dev])
			continue;
		a = plan_push(&sub, pl->a[i].obj, pl->a[i].op, pl->a[i].dev, &pl->a[i].from);
		*a = pl->a[i];
	}
	w_saved = w_host;
	apply_plan(w->sk, &w_host, &w_saved, &sub, &r);
	rtune_unlock(lockfd);

	for (i = 0; i < w_host.n; i++) {
		struct wdev *d = which[i];
		const char *result;
		struct jw j;
		int nset = 0;

		if (!d)
			continue;
		d->repaired = true;
		d->last_repair = now_ms();
		d->nfixed = 0;
		for (k = 0; k < d->ndrift && k < W_MAX_SET; k++)
			memcpy(d->fixed[d->nfixed++], d->drift[k].name, sizeof(d->fixed[0]));
		if (r.failed >= 0)
			strike(w, d);
		if (r.failed < 0)
			result = "repaired";
		else if (r.rollback_complete)
			result = "failed-rolled-back";
		else
			result = "failed-not-rolled-back";
		ev_begin(w, &j, "repair", pi);
		ev_dev(w, &j, d);
		if (w->o->json) {
			jw_str(&j, "result", result);
			jw_int(&j, "strikes", d->strikes);
			jw_arr(&j, "actions");
		} else {
			printf(": %s", result);
		}
		for (k = 0; k < sub.n; k++) {
			const struct rtune_action *a = &sub.a[k];
			char buf[1024];

			if (a->dev != i)
				continue;
			act_describe(a, buf, sizeof(buf));
			nset++;
			if (w->o->json) {
				jw_obj(&j, NULL);
				jw_str(&j, "object", act_name(a));
				jw_str(&j, "change", buf);
				jw_str(&j, "status", act_status(a, true));
				jw_str(&j, "error", a->err ? a->why : NULL);
				jw_end_obj(&j);
			} else {
				printf("%s [%s] %s%s%s", nset == 1 ? ":" : ";", act_status(a, true),
				       buf, a->err ? ": " : "", a->err ? a->why : "");
			}
		}
		if (w->o->json)
			jw_end_arr(&j);
		ev_end(w, &j);
		if (r.rollback_attempted && !w->o->json)
			out_rollback_text(stdout, &w_host, &r);
		if (r.failed < 0) {
			/* read back as written: in sync now, and a drift seen from
			 * now on is someone undoing the repair */
			for (k = 0; k < d->ndrift; k++)
				report_setting(w, d, "in-sync", d->object[k], &d->drift[k]);
			d->ndrift = 0;
		}
	}
	if (r.failed >= 0)
		w->error_seen = true;
	plan_free(&sub);
	plan_free(&r.rb);
	/* our writes come back as notifications; look again in any case */
	w->dirty = true;
	w->dirty_at = now_ms();
	return wake;
}

/* ---------------------------------------------------------------- check */

/* Check every profile; repair if asked. Returns when to wake for a
 * deferred repair (0: none). */
static int64_t check(struct watch *w)
{
	int64_t wake = 0;
	int pi, i;

	for (i = 0; i < w->ndev; i++)
		w->dev[i].seen = false;
	for (pi = 0; pi < w->o->nprofiles; pi++) {
		struct rtune_plan pl = { 0 };
		char hn[512] = "";
		int err = host_collect(w->sk, &w->prof[pi], NULL, 0, &w_host);

		if (err) {
			report_msg(w, "error", pi, NULL, "netlink",
				   "cannot read the host state: %s", strerror(-err));
			w->error_seen = true;
			continue;
		}
		host_check_owners(&w->prof[pi], &w_host, w->o->force, &pl);
		for (i = 0; i < w_host.n; i++) {
			struct rtune_target t;

			target_from_profile(&w->prof[pi], &w_host.dev[i], i, &t, &pl);
			plan_device(&w_host.dev[i], i, &t, &pl);
		}
		for (i = 0; i < pl.nnotes; i++)
			if (pl.notes[i].dev < 0)
				snprintf(hn + strlen(hn), sizeof(hn) - strlen(hn), "%s;",
					 pl.notes[i].code);
		if (strcmp(hn, w->host_notes[pi])) {
			for (i = 0; i < pl.nnotes; i++)
				if (pl.notes[i].dev < 0)
					report_note(w, pi, NULL, &pl.notes[i]);
			snprintf(w->host_notes[pi], sizeof(w->host_notes[0]), "%s", hn);
		}
		for (i = 0; i < w_host.n; i++) {
			const struct rtune_link *l = &w_host.dev[i];
			struct wdev *d = wdev_get(w, pi, l);

			d->seen = true;
			if (!d->present || d->has_ib != l->has_ib ||
			    (l->has_ib && strcmp(d->ibdev, l->ibdev))) {
				d->has_ib = l->has_ib;
				snprintf(d->ibdev, sizeof(d->ibdev), "%s", l->ibdev);
				d->port = l->port;
				if (!w->first)
					report_msg(w, "device", pi, d, "new",
						   "%s the profile: checked from now on",
						   d->present ? "now has an RDMA port, matched by" :
						   "new device, matched by");
			}
			d->present = true;
			update_dev(w, d, i, &pl);
		}
		if (w->o->repair) {
			int64_t t = repair_profile(w, pi, &pl);

			if (t && (!wake || t < wake))
				wake = t;
		}
		plan_free(&pl);
	}
	for (i = 0; i < w->ndev; i++) {
		struct wdev *d = &w->dev[i];

		if (d->present && !d->seen) {
			report_msg(w, "device", d->prof, d, "gone",
				   "gone, or no longer matched by the profile");
			d->present = false;
			d->ndrift = 0;
			d->notes[0] = '\0';
		}
	}
	w->first = false;
	return wake;
}

/* ---------------------------------------------------------------- events */

static int on_event(struct nl_msg *msg, void *arg)
{
	struct watch *w = arg;

	(void)msg;
	if (!w->dirty) {
		w->dirty = true;
		w->dirty_at = now_ms();
	}
	return NL_OK;
}

static struct nl_sock *event_socket(struct watch *w, int protocol, int group1, int group2)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (!sk)
		return NULL;
	nl_socket_disable_seq_check(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_event, w);
	if (nl_connect(sk, protocol) < 0 ||
	    nl_socket_add_memberships(sk, group1, group2, 0) < 0 ||
	    nl_socket_set_nonblocking(sk) < 0) {
		nl_socket_free(sk);
		return NULL;
	}
	nl_socket_set_buffer_size(sk, 1 << 20, 0);
	return sk;
}

static void drain(struct watch *w, struct nl_sock *sk)
{
	int err = nl_recvmsgs_default(sk);

	/* an overrun (or anything odd) loses notifications: look again */
	if (err < 0 && err != -NLE_AGAIN) {
		w->dirty = true;
		w->dirty_at = now_ms();
	}
}

static void report_start(struct watch *w)
{
	struct jw j;
	int pi, i;

	for (pi = 0; pi < w->o->nprofiles; pi++) {
		int n = 0;

		ev_begin(w, &j, "start", pi);
		if (w->o->json) {
			jw_bool(&j, "repair", w->o->repair);
			jw_str(&j, "rdma_events", w->rdma_ev ? "netlink" : "poll");
			jw_int(&j, "poll_interval_ms", w->o->interval_ms);
			jw_arr(&j, "devices");
			for (i = 0; i < w->ndev; i++)
				if (w->dev[i].prof == pi && w->dev[i].present)
					jw_str(&j, NULL, w->dev[i].netdev);
			jw_end_arr(&j);
		} else {
			printf(" %s: watching", w->prof[pi].path);
			for (i = 0; i < w->ndev; i++)
				if (w->dev[i].prof == pi && w->dev[i].present)
					printf("%s%s", n++ ? ", " : " ", w->dev[i].netdev);
			if (!n)
				printf(" (no device matches yet)");
			printf("; rtnetlink link and DCB notifications; RDMA devices %s; rocetune.ko and rdma_cm configfs polled every %.1f s; repair %s",
			       w->rdma_ev ? "by RDMA netlink notifications" :
			       "polled (this kernel sends no RDMA_NL_GROUP_NOTIFY)",
			       (double)w->o->interval_ms / 1000, w->o->repair ? "on" : "off");
		}
		ev_end(w, &j);
	}
}

static int load_profiles(struct watch *w)
{
	int i;

	w->prof = calloc((size_t)w->o->nprofiles, sizeof(*w->prof));
	w->host_notes = calloc((size_t)w->o->nprofiles, sizeof(*w->host_notes));
	w->blocked = calloc((size_t)w->o->nprofiles, sizeof(*w->blocked));
	if (!w->prof || !w->host_notes || !w->blocked)
		return -1;
	for (i = 0; i < w->o->nprofiles; i++)
		if (profile_parse_file(w->o->profiles[i], &w->prof[i], &w->diags) == 0)
			profile_validate(&w->prof[i], &w->diags);
	return w->diags.nerr ? -1 : 0;
}

int rtune_watch(const struct rtune_watch_opts *o)
{
	static struct watch w;
	struct rtune_watch_opts eo;
	sigset_t mask;
	int code = RTUNE_WATCH_IN_SYNC, stop = 0, k;

	memset(&w, 0, sizeof(w));
	w.o = &eo;
	eo = *o;
	/* the wait only grows from the repair interval */
	if (eo.backoff_max_ms < eo.repair_interval_ms)
		eo.backoff_max_ms = eo.repair_interval_ms;
	o = &eo;
	w.sigfd = -1;
	w.first = true;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (load_profiles(&w)) {
		diag_print(&w.diags, stderr);
		fprintf(stderr, "rocetune: watch: invalid profile, not watching\n");
		for (k = 0; o->json && k < w.diags.n; k++)
			if (w.diags.d[k].sev == RTUNE_SEV_ERROR)
				report_msg(&w, "error", -1, NULL, w.diags.d[k].code, "%s:%d: %s",
					   w.diags.d[k].file, w.diags.d[k].line, w.diags.d[k].msg);
		code = RTUNE_WATCH_ERROR;
		goto out;
	}
	diag_print(&w.diags, stderr);	/* warnings */
	w.sk = rtune_nl_open(NETLINK_ROUTE);
	if (!w.sk) {
		fprintf(stderr, "rocetune: watch: cannot open rtnetlink: %s\n", strerror(errno));
		code = RTUNE_WATCH_ERROR;
		goto out;
	}
	if (!o->once) {
		/* subscribe before the first check, so nothing falls between */
		w.ev = event_socket(&w, NETLINK_ROUTE, RTNLGRP_LINK, RTNLGRP_DCB);
		if (!w.ev) {
			fprintf(stderr, "rocetune: watch: cannot subscribe to rtnetlink notifications\n");
			code = RTUNE_WATCH_ERROR;
			goto out;
		}
		if (rdma_has_notify())
			w.rdma_ev = event_socket(&w, NETLINK_RDMA, RTUNE_NL_GROUP_NOTIFY, 0);
		sigemptyset(&mask);
		sigaddset(&mask, SIGINT);
		sigaddset(&mask, SIGTERM);
		sigprocmask(SIG_BLOCK, &mask, NULL);
		w.sigfd = signalfd(-1, &mask, SFD_CLOEXEC);
		if (w.sigfd < 0) {
			fprintf(stderr, "rocetune: watch: signalfd: %s\n", strerror(errno));
			code = RTUNE_WATCH_ERROR;
			goto out;
		}
	}

	if (o->once) {
		w.first = true;
		check(&w);
		if (w.error_seen)
			code = RTUNE_WATCH_ERROR;
		else if (w.drift_seen)
			code = RTUNE_WATCH_DRIFT;
		goto out;
	}

	{
		int64_t next_poll, wake;
		/* the first check reports the drift already there, then "start" */
		wake = check(&w);
		report_start(&w);
		next_poll = now_ms() + o->interval_ms;
		while (!stop) {
			struct pollfd fds[3];
			int nfds = 0, tmo, i;
			int64_t t = now_ms(), due = next_poll;

			if (w.dirty && w.dirty_at + W_DEBOUNCE_MS < due)
				due = w.dirty_at + W_DEBOUNCE_MS;
			if (wake && wake < due)
				due = wake;
			tmo = due > t ? (int)(due - t) : 0;
			fds[nfds++] = (struct pollfd){ .fd = w.sigfd, .events = POLLIN };
			fds[nfds++] = (struct pollfd){ .fd = nl_socket_get_fd(w.ev), .events = POLLIN };
			if (w.rdma_ev)
				fds[nfds++] = (struct pollfd){ .fd = nl_socket_get_fd(w.rdma_ev),
							       .events = POLLIN };
			if (poll(fds, (nfds_t)nfds, tmo) < 0 && errno != EINTR) {
				fprintf(stderr, "rocetune: watch: poll: %s\n", strerror(errno));
				code = RTUNE_WATCH_ERROR;
				break;
			}
			if (fds[0].revents & POLLIN) {
				struct signalfd_siginfo si;

				if (read(w.sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
					report_msg(&w, "stop", -1, NULL, "signal", "%s: stopping",
						   si.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM");
					stop = 1;
					break;
				}
			}
			for (i = 1; i < nfds; i++)
				if (fds[i].revents & POLLIN)
					drain(&w, i == 1 ? w.ev : w.rdma_ev);
			t = now_ms();
			if ((w.dirty && t >= w.dirty_at + W_DEBOUNCE_MS) || t >= next_poll ||
			    (wake && t >= wake)) {
				w.dirty = false;
				wake = check(&w);
				if (t >= next_poll)
					next_poll = t + o->interval_ms;
			}
		}
	}
out:
	if (w.sigfd >= 0)
		close(w.sigfd);
	if (w.ev)
		nl_socket_free(w.ev);
	if (w.rdma_ev)
		nl_socket_free(w.rdma_ev);
	if (w.sk)
		nl_socket_free(w.sk);
	free(w.prof);
	free(w.host_notes);
	free(w.blocked);
	free(w.dev);
	return code;
}
