/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCETUNE_TESTHOOK_H
#define ROCETUNE_TESTHOOK_H
/*
 * Kill points for the tests of an interrupted apply (selftests/rocetune/
 * apply-kill.sh). rtune_test_step() marks a point where a SIGKILL may land
 * and leave the host half-way; the test build (make SANITIZE=1, which
 * defines RTUNE_TEST_HOOKS) counts the points it passes and, when
 * $ROCETUNE_TEST_KILL_AT is N, sends itself SIGKILL at the N-th, after
 * naming it on stderr. Any other build compiles the calls away.
 */
#ifdef RTUNE_TEST_HOOKS
void rtune_test_step(const char *what);
#else
static inline void rtune_test_step(const char *what)
{
	(void)what;
}
#endif
#endif
