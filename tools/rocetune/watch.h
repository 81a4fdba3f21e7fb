/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `rocetune watch`: report drift from the profiles as it happens, and with
 * --repair apply them again, rate-limited. See rocetune(8) and
 * Documentation/rocetune.rst ("Watching for drift").
 */
#ifndef ROCETUNE_WATCH_H
#define ROCETUNE_WATCH_H

#include <stdbool.h>

struct rtune_watch_opts {
	bool json;
	bool force;		/* repair despite conflicting DCB owners */
	bool once;		/* check once, exit 0 (no drift) or 1 */
	bool repair;
	int interval_ms;	/* polling of configfs (and RDMA without events) */
	int repair_interval_ms;	/* least time between two repairs of a device */
	int backoff_max_ms;	/* the most that time doubles to while fighting */
	int max_repairs;	/* repairs undone right away before giving up */
	int lock_timeout_ms;
	char **profiles;
	int nprofiles;
};

/* Exit status of `watch --once` beyond rocetune's usual ones. */
enum {
	RTUNE_WATCH_IN_SYNC = 0,
	RTUNE_WATCH_DRIFT = 1,
	RTUNE_WATCH_ERROR = 2,	/* invalid profile, host unreadable */
};

/* Run the watch; returns the exit status. */
int rtune_watch(const struct rtune_watch_opts *o);

#endif
