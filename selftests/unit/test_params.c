// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for kmod/core/params.c: the strict parsers behind
 * every configfs write and profile value, the table's internal
 * consistency, the presets and the cross-field validation.
 */
#include <string.h>

#include "../lib/tap.h"
#include "params.h"

static int parses(enum rtune_param_id id, const char *s, u32 *out)
{
	return rtune_param_parse(id, s, strlen(s), out) == 0;
}

static void test_u32_parser(void)
{
	static const char *const bad[] = {
		"", "\n", "-1", "+1", " 1", "1 ", "0x10", "1.5", "abc", "12abc",
		"4294967296", "99999999999999999999", "1\n\n", "\n1",
	};
	unsigned int i;
	u32 v = 77;

	tap_check(!rtune_parse_u32("0", 1, &v) && v == 0, "u32: 0");
	tap_check(!rtune_parse_u32("4294967295\n", 11, &v) && v == 4294967295u,
		  "u32: 2^32-1 with newline");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		v = 77;
		tap_check(rtune_parse_u32(bad[i], strlen(bad[i]), &v) == -EINVAL &&
			  v == 77, "u32: rejects \"%s\" and leaves the output",
			  bad[i][0] == '\n' ? "\\n" : bad[i]);
	}
	/* Length is honoured: no NUL needed, trailing bytes ignored. */
	tap_check(!rtune_parse_u32("123xyz", 3, &v) && v == 123,
		  "u32: parses only len bytes");
}

static void test_prio_lists(void)
{
	static const struct { const char *in; u32 mask; const char *out; } ok[] = {
		{ "none", 0x00, "none" }, { "0-7", 0xff, "0-7" },
		{ "3", 0x08, "3" }, { "0,3-5", 0x39, "0,3-5" },
		{ "7,0", 0x81, "0,7" }, { "1,2,3", 0x0e, "1-3" },
		{ "3-3\n", 0x08, "3" }, { "0,2,5,7", 0xa5, "0,2,5,7" },
	};
	static const char *const bad[] = {
		"", "8", "3-1", "3,", ",3", "a", "-1", " 3", "0-8", "0x3",
		"3,,4", "none,3", "3-", "NONE",
	};
	unsigned int i;
	char buf[32];
	u32 m;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		m = 0xdead;
		tap_check(!rtune_parse_prio_mask(ok[i].in, strlen(ok[i].in), &m) &&
			  m == ok[i].mask, "prio list \"%s\" -> 0x%02x (got 0x%x)",
			  ok[i].in[strlen(ok[i].in) - 1] == '\n' ? "3-3\\n" : ok[i].in,
			  ok[i].mask, m);
		rtune_format_prio_mask(ok[i].mask, buf, sizeof(buf));
		tap_check(!strcmp(buf, ok[i].out), "prio mask 0x%02x formats as %s (got %s)",
			  ok[i].mask, ok[i].out, buf);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		m = 0xdead;
		tap_check(rtune_parse_prio_mask(bad[i], strlen(bad[i]), &m) == -EINVAL &&
			  m == 0xdead, "prio list rejects \"%s\"", bad[i]);
	}
	/* Every mask round-trips through format and parse. */
	for (m = 0; m < 256; m++) {
		u32 back = 0xdead;

		rtune_format_prio_mask(m, buf, sizeof(buf));
		if (rtune_parse_prio_mask(buf, strlen(buf), &back) || back != m)
			break;
	}
	tap_check(m == 256, "all 256 masks round-trip (first failure at %u)", m);
}

static void test_table(void)
{
	int i, bad = 0, j;

	for (i = 0; i < RTUNE_P_COUNT; i++) {
		const struct rtune_param_desc *d = &rtune_param_descs[i];

		if (!d->name || !d->unit || !d->help || d->min > d->max ||
		    rtune_param_lookup(d->name, strlen(d->name)) != i)
			bad++;
		for (j = 0; j < i; j++)
			if (!strcmp(d->name, rtune_param_descs[j].name))
				bad++;
	}
	tap_check(!bad, "every parameter has a unique name, unit, help and min <= max");
	/* The five rates: kb/s, from 0 or 1 kb/s up to at least 400 Gb/s. */
	for (i = 0, j = 0; i < RTUNE_P_COUNT; i++) {
		const struct rtune_param_desc *d = &rtune_param_descs[i];
		size_t n = strlen(d->name);

		if (n < 5 || strcmp(d->name + n - 5, "_kbps"))
			continue;
		j++;
		tap_check(!strcmp(d->unit, "kb/s") && d->min <= 1 &&
			  d->max >= 400000000u,
			  "%s: kb/s, %u..%u, up to at least 400 Gb/s", d->name,
			  d->min, d->max);
	}
	tap_check(j == 6, "six rate parameters in kb/s (%d)", j);
	tap_check(rtune_param_descs[RTUNE_P_RP_MIN_RATE_KBPS].min == 1,
		  "the minimum rate can be as low as 1 kb/s");
	tap_check(rtune_param_lookup("rp_min_rate_kbps\n", 17) == RTUNE_P_RP_MIN_RATE_KBPS,
		  "lookup accepts one trailing newline");
	tap_check(rtune_param_lookup("rp_min_rate", 11) == -1 &&
		  rtune_param_lookup("rp_min_rate_kbpsx", 17) == -1,
		  "lookup rejects prefixes and extensions");
}

static void test_edges(void)
{
	int i, bad = 0;

	for (i = 0; i < RTUNE_P_COUNT; i++) {
		const struct rtune_param_desc *d = &rtune_param_descs[i];
		char buf[RTUNE_PARAM_TEXT_MAX];
		u32 v;

		if (d->kind == RTUNE_KIND_PRIO_MASK)
			continue;
		snprintf(buf, sizeof(buf), "%u", d->min);
		if (!parses(i, buf, &v) || v != d->min)
			bad++;
		snprintf(buf, sizeof(buf), "%u", d->max);
		if (!parses(i, buf, &v) || v != d->max)
			bad++;
		if (d->min > 0) {
			snprintf(buf, sizeof(buf), "%u", d->min - 1);
			if (parses(i, buf, &v))
				bad++;
		}
		if (d->max < 0xffffffffu) {
			snprintf(buf, sizeof(buf), "%u", d->max + 1);
			if (parses(i, buf, &v))
				bad++;
		}
		/* format then parse gives the value back */
		if (rtune_param_format(i, d->max, buf, sizeof(buf)) <= 0 ||
		    !parses(i, buf, &v) || v != d->max)
			bad++;
	}
	tap_check(!bad, "every numeric parameter: edges accepted, one past rejected, format round-trips (%d bad)", bad);
}

/* The text of one value: exactly the value, no newline, bounded by len. */
static void test_format(void)
{
	char buf[RTUNE_PARAM_TEXT_MAX];
	int n;

	memset(buf, 'x', sizeof(buf));
	n = rtune_param_format(RTUNE_P_RP_ENABLED_PRIOS, 0x39, buf, sizeof(buf));
	tap_check(n == 5 && !strcmp(buf, "0,3-5"),
		  "format: prio mask 0x39 is \"0,3-5\", length 5 (got %d)", n);
	n = rtune_param_format(RTUNE_P_NP_CNP_DSCP, 48, buf, sizeof(buf));
	tap_check(n == 2 && !strcmp(buf, "48"), "format: 48 is \"48\", no newline (got %d)", n);
	n = rtune_param_format(RTUNE_P_RP_BYTE_COUNTER_BYTES, 4294967295u, buf, 11);
	tap_check(n == 10 && !strcmp(buf, "4294967295"),
		  "format: 2^32-1 fits 11 bytes exactly (got %d)", n);
	tap_check(rtune_param_format(RTUNE_P_RP_BYTE_COUNTER_BYTES, 4294967295u, buf, 10) == -EINVAL,
		  "format: one byte short is -EINVAL");
	tap_check(rtune_param_format(RTUNE_P_COUNT, 1, buf, sizeof(buf)) == -EINVAL &&
		  rtune_param_format(RTUNE_P_NP_CNP_DSCP, 1, buf, 0) == -EINVAL,
		  "format: unknown parameter and empty buffer are -EINVAL");
}

static void test_presets_and_validation(void)
{
	const struct rtune_preset *paper = rtune_preset_lookup("paper", 5);
	const struct rtune_preset *cx = rtune_preset_lookup("connectx\n", 9);
	struct rtune_param_set s;
	char why[160];
	unsigned int i;

	tap_check(paper && cx && !rtune_preset_lookup("bogus", 5) &&
		  rtune_params_default() == &rtune_preset_lookup(RTUNE_DEFAULT_PRESET, strlen(RTUNE_DEFAULT_PRESET))->set,
		  "presets paper and connectx exist, bogus does not, the default is " RTUNE_DEFAULT_PRESET);
	if (!paper || !cx)
		return;
	/* The definition of the paper preset. */
	tap_check(paper->set.v[RTUNE_P_RP_ALPHA_GAIN_1024THS] == 4 &&
		  paper->set.v[RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US] == 55 &&
		  paper->set.v[RTUNE_P_RP_RATE_INCREASE_TIMER_US] == 55 &&
		  paper->set.v[RTUNE_P_RP_BYTE_COUNTER_BYTES] == 10000000 &&
		  paper->set.v[RTUNE_P_RP_FAST_RECOVERY_STAGES] == 5 &&
		  paper->set.v[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS] == 40000 &&
		  paper->set.v[RTUNE_P_RP_HYPER_INCREASE_KBPS] == 200000 &&
		  paper->set.v[RTUNE_P_NP_MIN_CNP_INTERVAL_US] == 50,
		  "paper preset: g=1/256, K=T=55us, B=10MB, F=5, AI 40000, HAI 200000 kb/s, "
		  "N=50us");
	for (i = 0; i < rtune_preset_count; i++)
		tap_check(!rtune_params_validate(&rtune_presets[i].set, why, sizeof(why)),
			  "preset %s passes validation %s", rtune_presets[i].name, why);

	s = paper->set;
	s.v[RTUNE_P_RP_MAX_RATE_KBPS] = 100000;
	s.v[RTUNE_P_RP_MIN_RATE_KBPS] = 200000;
	tap_check(rtune_params_validate(&s, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "rp_min_rate_kbps") && strstr(why, "rp_max_rate_kbps"),
		  "min rate above max rate refused, both named: %s", why);
	s.v[RTUNE_P_RP_MAX_RATE_KBPS] = 0;
	tap_check(!rtune_params_validate(&s, why, sizeof(why)),
		  "max rate 0 means line rate: any min rate is fine");
	s = paper->set;
	s.v[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS] = 300000;
	tap_check(rtune_params_validate(&s, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "rp_hyper_increase_kbps"),
		  "additive step above hyper step refused: %s", why);
	s = paper->set;
	s.v[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS] = 50000;
	s.v[RTUNE_P_RP_MAX_RATE_KBPS] = 40000;
	tap_check(rtune_params_validate(&s, why, sizeof(why)) == -EINVAL,
		  "rate on first CNP above max rate refused: %s", why);
	s = paper->set;
	s.v[RTUNE_P_RP_INITIAL_RATE_KBPS] = 50000;
	s.v[RTUNE_P_RP_MAX_RATE_KBPS] = 40000;
	tap_check(rtune_params_validate(&s, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "rp_initial_rate_kbps"),
		  "initial rate above max rate refused: %s", why);
	s.v[RTUNE_P_RP_INITIAL_RATE_KBPS] = 500;
	tap_check(rtune_params_validate(&s, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "rp_initial_rate_kbps"),
		  "initial rate below min rate refused: %s", why);
	s.v[RTUNE_P_RP_INITIAL_RATE_KBPS] = 0;
	tap_check(!rtune_params_validate(&s, why, sizeof(why)),
		  "initial rate 0 (the maximum) is fine");
	s = paper->set;
	s.v[RTUNE_P_NP_CNP_DSCP] = 64;
	tap_check(rtune_params_validate(&s, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "np_cnp_dscp"),
		  "a set built by hand with an out-of-range value is refused: %s", why);
}

int main(void)
{
	test_u32_parser();
	test_prio_lists();
	test_table();
	test_edges();
	test_format();
	test_presets_and_validation();
	return tap_done();
}
