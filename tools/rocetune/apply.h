/* SPDX-License-Identifier: GPL-2.0 */
/* Executing a plan with read-back, and rolling back on failure. */
#ifndef ROCETUNE_APPLY_H
#define ROCETUNE_APPLY_H

#include "plan.h"
#include "nl.h"

/* Documented exit codes (rocetune(8)). */
enum {
	RTUNE_EXIT_UNCHANGED = 0,		/* success, nothing needed changing */
	RTUNE_EXIT_FAILED = 1,		/* failure; the host is as it was */
	RTUNE_EXIT_CHANGED = 2,		/* success, changes made (diff: pending) */
	RTUNE_EXIT_PARTIAL = 3,		/* failure, not fully rolled back */
	RTUNE_EXIT_USAGE = 64,
};

struct rtune_apply_result {
	int failed;			/* index of the failed action, -1 if none */
	bool rollback_attempted;
	bool rollback_complete;
	struct rtune_plan rb;		/* the rollback actions and their results */
};

/*
 * Run @pl against @h (which holds the current state and is updated as
 * actions complete); @saved is the state before anything ran.
 */
int apply_plan(struct nl_sock *sk, struct rtune_host *h, const struct rtune_host *saved,
	       struct rtune_plan *pl, struct rtune_apply_result *r);

#endif
