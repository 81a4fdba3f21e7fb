// SPDX-License-Identifier: GPL-2.0
/* Kill points and test doubles of the test build (testhook.h). */
#include "testhook.h"

#ifdef RTUNE_TEST_HOOKS
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void rtune_test_step(const char *what)
{
	static long n;
	const char *at = getenv("ROCETUNE_TEST_KILL_AT");

	n++;
	if (!at || strtol(at, NULL, 10) != n)
		return;
	fprintf(stderr, "rocetune: test: SIGKILL at step %ld (%s)\n", n, what);
	fflush(stderr);
	kill(getpid(), SIGKILL);
}

const char *rtune_test_mstconfig(void)
{
	const char *p = getenv("ROCETUNE_TEST_MSTCONFIG");

	return p && *p ? p : NULL;
}

const char *rtune_test_kmsg(void)
{
	const char *p = getenv("ROCETUNE_TEST_KMSG");

	return p && *p ? p : NULL;
}
#endif
