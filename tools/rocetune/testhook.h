/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCETUNE_TESTHOOK_H
#define ROCETUNE_TESTHOOK_H
#include <stddef.h>
/*
 * Kill points for the tests of an interrupted apply (selftests/rocetune/
 * apply-kill.sh). rtune_test_step() marks a point where a SIGKILL may land
 * and leave the host half-way; the test build (make SANITIZE=1, which
 * defines RTUNE_TEST_HOOKS) counts the points it passes and, when
 * $ROCETUNE_TEST_KILL_AT is N, sends itself SIGKILL at the N-th, after
 * naming it on stderr. Any other build compiles the calls away.
 * And the test build's other hooks: test doubles of programs rocetune runs.
 */
#ifdef RTUNE_TEST_HOOKS
void rtune_test_step(const char *what);
#else
static inline void rtune_test_step(const char *what)
{
	(void)what;
}
#endif

/*
 * The mstconfig that show and diff run (mstcfg.c): in the test build,
 * $ROCETUNE_TEST_MSTCONFIG when set (a stand-in that prints a sample
 * query); NULL otherwise, and always NULL in any other build, so that a
 * root rocetune never runs a program named by its environment.
 */
#ifdef RTUNE_TEST_HOOKS
const char *rtune_test_mstconfig(void);
#else
static inline const char *rtune_test_mstconfig(void)
{
	return NULL;
}
#endif

/*
 * The kernel log that surface writes check (kmsg.h): in the test build,
 * $ROCETUNE_TEST_KMSG when set (a file of records); NULL, i.e. /dev/kmsg,
 * otherwise and in any other build.
 */
#ifdef RTUNE_TEST_HOOKS
const char *rtune_test_kmsg(void);
#else
static inline const char *rtune_test_kmsg(void)
{
	return NULL;
}
#endif
#endif
