/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP 13 output for rocetune's host unit tests, in the kselftest
 * dialect. Header-only so every test is one .c file.
 *
 *	tap_plan(2);
 *	tap_check(x == 3, "x is three (got %d)", x);
 *	tap_skip("needs root", "open /dev/foo");
 *	return tap_done();
 */
#ifndef _ROCETUNE_TAP_H
#define _ROCETUNE_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_npass, tap_nfail, tap_nskip, tap_nplan = -1;

static inline void tap_plan(int n)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..%d\n", n);
	tap_nplan = n;
}

static inline void tap_diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Record one result; returns ok so callers can chain diagnostics. */
static inline int tap_check(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int tap_check(int ok, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (ok)
		tap_npass++;
	else
		tap_nfail++;
	printf("%sok %d ", ok ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return ok;
}

static inline void tap_skip(const char *why, const char *what)
{
	tap_n++;
	tap_nskip++;
	printf("ok %d %s # SKIP %s\n", tap_n, what, why);
}

/* Exit status in kselftest terms: 0 pass, 1 fail, 4 all skipped. */
static inline int tap_done(void)
{
	if (tap_nplan < 0)
		printf("TAP version 13\n1..%d\n", tap_n);
	printf("# Totals: pass:%d fail:%d skip:%d\n", tap_npass, tap_nfail,
	       tap_nskip);
	if (tap_nplan >= 0 && tap_nplan != tap_n) {
		printf("# planned %d tests but ran %d\n", tap_nplan, tap_n);
		return 1;
	}
	if (tap_nfail)
		return 1;
	return (tap_n && tap_nskip == tap_n) ? 4 : 0;
}

#endif /* _ROCETUNE_TAP_H */
