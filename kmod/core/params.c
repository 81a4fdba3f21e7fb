// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The vendor-neutral congestion-control parameter table, presets, and the
 * strict parsers behind every configfs write and every profile value.
 */
#include "params.h"

#define RATE_MAX_KBPS	1600000000u	/* 1.6 Tb/s: above any port today */
#define PERIOD_MAX_US	10000000u	/* 10 s */

const struct rtune_param_desc rtune_param_descs[RTUNE_P_COUNT] = {
	[RTUNE_P_RP_ENABLED_PRIOS] = {
		"rp_enabled_prios", "priorities", RTUNE_KIND_PRIO_MASK, 0, 0xff,
		"priorities on which the reaction point adjusts the sending rate on CNPs" },
	[RTUNE_P_NP_ENABLED_PRIOS] = {
		"np_enabled_prios", "priorities", RTUNE_KIND_PRIO_MASK, 0, 0xff,
		"priorities on which the notification point answers CE marks with CNPs" },
	[RTUNE_P_ECN_ENABLED_PRIOS] = {
		"ecn_enabled_prios", "priorities", RTUNE_KIND_PRIO_MASK, 0, 0xff,
		"priorities whose RoCE packets are sent ECN-capable" },
	[RTUNE_P_ECN_CODEPOINT] = {
		"ecn_codepoint", "ECN", RTUNE_KIND_U32, 1, 2,
		"ECN-capable codepoint for data packets: 1 = ECT(1), 2 = ECT(0)" },

	[RTUNE_P_RP_MIN_RATE_KBPS] = {
		"rp_min_rate_kbps", "kb/s", RTUNE_KIND_U32, 1, RATE_MAX_KBPS,
		"floor of the rate limiter" },
	[RTUNE_P_RP_MAX_RATE_KBPS] = {
		"rp_max_rate_kbps", "kb/s", RTUNE_KIND_U32, 0, RATE_MAX_KBPS,
		"ceiling of the rate limiter; 0 = line rate" },
	[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS] = {
		"rp_rate_on_first_cnp_kbps", "kb/s", RTUNE_KIND_U32, 0, RATE_MAX_KBPS,
		"rate a flow is set to on its first CNP; 0 = cut from the current rate" },
	[RTUNE_P_RP_ALPHA_GAIN_1024THS] = {
		"rp_alpha_gain_1024ths", "1/1024", RTUNE_KIND_U32, 1, 1023,
		"g: weight of a CNP in the alpha average (alpha = (1-g)alpha + g)" },
	[RTUNE_P_RP_INITIAL_ALPHA_1024THS] = {
		"rp_initial_alpha_1024ths", "1/1024", RTUNE_KIND_U32, 0, 1024,
		"alpha of a flow before its first CNP" },
	[RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US] = {
		"rp_alpha_update_period_us", "us", RTUNE_KIND_U32, 1, PERIOD_MAX_US,
		"K: alpha decays by (1-g) after each period without a CNP" },
	[RTUNE_P_RP_RATE_CUT_SHIFT] = {
		"rp_rate_cut_shift", "log2", RTUNE_KIND_U32, 0, 10,
		"a CNP cuts the rate by alpha/2^shift (1 = alpha/2, the paper's cut)" },
	[RTUNE_P_RP_MIN_RATE_FACTOR_PCT] = {
		"rp_min_rate_factor_pct", "%", RTUNE_KIND_U32, 0, 100,
		"one cut never leaves less than this share of the previous rate" },
	[RTUNE_P_RP_RATE_REDUCE_PERIOD_US] = {
		"rp_rate_reduce_period_us", "us", RTUNE_KIND_U32, 0, PERIOD_MAX_US,
		"minimum time between two cuts of one flow; 0 = cut on every CNP" },
	[RTUNE_P_RP_CLAMP_TARGET_RATE] = {
		"rp_clamp_target_rate", "bool", RTUNE_KIND_BOOL, 0, 1,
		"on every CNP set the target rate to the current rate" },
	[RTUNE_P_RP_CLAMP_TARGET_AFTER_TIMER] = {
		"rp_clamp_target_after_timer", "bool", RTUNE_KIND_BOOL, 0, 1,
		"also clamp the target on a CNP after a timer-driven increase" },
	[RTUNE_P_RP_RATE_INCREASE_TIMER_US] = {
		"rp_rate_increase_timer_us", "us", RTUNE_KIND_U32, 1, PERIOD_MAX_US,
		"T: period of timer-driven rate increase" },
	[RTUNE_P_RP_BYTE_COUNTER_BYTES] = {
		"rp_byte_counter_bytes", "bytes", RTUNE_KIND_U32, 0, 0xffffffffu,
		"B: bytes sent between byte-counter rate increases; 0 = off" },
	[RTUNE_P_RP_FAST_RECOVERY_STAGES] = {
		"rp_fast_recovery_stages", "stages", RTUNE_KIND_U32, 1, 31,
		"F: increase stages of fast recovery before additive increase" },
	[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS] = {
		"rp_additive_increase_kbps", "kb/s", RTUNE_KIND_U32, 1, RATE_MAX_KBPS,
		"R_AI: target-rate step in additive increase" },
	[RTUNE_P_RP_HYPER_INCREASE_KBPS] = {
		"rp_hyper_increase_kbps", "kb/s", RTUNE_KIND_U32, 1, RATE_MAX_KBPS,
		"R_HAI: target-rate step in hyper increase" },

	[RTUNE_P_NP_MIN_CNP_INTERVAL_US] = {
		"np_min_cnp_interval_us", "us", RTUNE_KIND_U32, 0, PERIOD_MAX_US,
		"N: at most one CNP per flow in this interval" },
	[RTUNE_P_NP_CNP_DSCP] = {
		"np_cnp_dscp", "DSCP", RTUNE_KIND_U32, 0, 63,
		"DSCP of generated CNPs" },
	[RTUNE_P_NP_CNP_PRIO] = {
		"np_cnp_prio", "802.1p", RTUNE_KIND_U32, 0, 7,
		"802.1p priority of generated CNPs" },
	[RTUNE_P_NP_CNP_ECN] = {
		"np_cnp_ecn", "ECN", RTUNE_KIND_U32, 0, 2,
		"ECN codepoint of generated CNPs: 0 = Not-ECT, 1 = ECT(1), 2 = ECT(0)" },
};

/*
 * "paper": DCQCN as published (Zhu et al., SIGCOMM 2015) and in its
 * author's reference simulation. "connectx": the values NVIDIA ConnectX
 * firmware ships (mlxconfig defaults), translated to these units.
 */
const struct rtune_preset rtune_presets[] = {
	{
		.name = "paper",
		.help = "DCQCN as published (Zhu et al., SIGCOMM 2015)",
		.set.v = {
			[RTUNE_P_RP_ENABLED_PRIOS] = 0xff,
			[RTUNE_P_NP_ENABLED_PRIOS] = 0xff,
			[RTUNE_P_ECN_ENABLED_PRIOS] = 0xff,
			[RTUNE_P_ECN_CODEPOINT] = 2,
			[RTUNE_P_RP_MIN_RATE_KBPS] = 1000,
			[RTUNE_P_RP_MAX_RATE_KBPS] = 0,
			[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS] = 0,
			[RTUNE_P_RP_ALPHA_GAIN_1024THS] = 4,
			[RTUNE_P_RP_INITIAL_ALPHA_1024THS] = 1024,
			[RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US] = 55,
			[RTUNE_P_RP_RATE_CUT_SHIFT] = 1,
			[RTUNE_P_RP_MIN_RATE_FACTOR_PCT] = 50,
			[RTUNE_P_RP_RATE_REDUCE_PERIOD_US] = 0,
			[RTUNE_P_RP_CLAMP_TARGET_RATE] = 1,
			[RTUNE_P_RP_CLAMP_TARGET_AFTER_TIMER] = 1,
			[RTUNE_P_RP_RATE_INCREASE_TIMER_US] = 55,
			[RTUNE_P_RP_BYTE_COUNTER_BYTES] = 10000000,
			[RTUNE_P_RP_FAST_RECOVERY_STAGES] = 5,
			[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS] = 40000,
			[RTUNE_P_RP_HYPER_INCREASE_KBPS] = 200000,
			[RTUNE_P_NP_MIN_CNP_INTERVAL_US] = 50,
			[RTUNE_P_NP_CNP_DSCP] = 48,
			[RTUNE_P_NP_CNP_PRIO] = 6,
			[RTUNE_P_NP_CNP_ECN] = 0,
		},
	},
	{
		.name = "connectx",
		.help = "NVIDIA ConnectX firmware defaults",
		.set.v = {
			[RTUNE_P_RP_ENABLED_PRIOS] = 0xff,
			[RTUNE_P_NP_ENABLED_PRIOS] = 0xff,
			[RTUNE_P_ECN_ENABLED_PRIOS] = 0xff,
			[RTUNE_P_ECN_CODEPOINT] = 2,
			[RTUNE_P_RP_MIN_RATE_KBPS] = 1000,
			[RTUNE_P_RP_MAX_RATE_KBPS] = 0,
			[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS] = 0,
			[RTUNE_P_RP_ALPHA_GAIN_1024THS] = 5,
			[RTUNE_P_RP_INITIAL_ALPHA_1024THS] = 1023,
			[RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US] = 1,
			[RTUNE_P_RP_RATE_CUT_SHIFT] = 1,
			[RTUNE_P_RP_MIN_RATE_FACTOR_PCT] = 50,
			[RTUNE_P_RP_RATE_REDUCE_PERIOD_US] = 4,
			[RTUNE_P_RP_CLAMP_TARGET_RATE] = 0,
			[RTUNE_P_RP_CLAMP_TARGET_AFTER_TIMER] = 1,
			[RTUNE_P_RP_RATE_INCREASE_TIMER_US] = 300,
			[RTUNE_P_RP_BYTE_COUNTER_BYTES] = 32767,
			[RTUNE_P_RP_FAST_RECOVERY_STAGES] = 1,
			[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS] = 5000,
			[RTUNE_P_RP_HYPER_INCREASE_KBPS] = 50000,
			[RTUNE_P_NP_MIN_CNP_INTERVAL_US] = 4,
			[RTUNE_P_NP_CNP_DSCP] = 48,
			[RTUNE_P_NP_CNP_PRIO] = 6,
			[RTUNE_P_NP_CNP_ECN] = 0,
		},
	},
};

const unsigned int rtune_preset_count = ARRAY_SIZE(rtune_presets);

/* Length of @buf without one trailing newline (echo adds one). */
static size_t strip_newline(const char *buf, size_t len)
{
	if (len && buf[len - 1] == '\n')
		len--;
	return len;
}

int rtune_parse_u32(const char *buf, size_t len, u32 *out)
{
	u64 v = 0;
	size_t i;

	len = strip_newline(buf, len);
	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
		v = v * 10 + (u64)(buf[i] - '0');
		if (v > 0xffffffffull)
			return -EINVAL;
	}
	*out = (u32)v;
	return 0;
}

/* Parse one priority digit 0..7 at buf[*i], advancing *i. */
static int parse_prio_digit(const char *buf, size_t len, size_t *i)
{
	int p;

	if (*i >= len || buf[*i] < '0' || buf[*i] > '7')
		return -EINVAL;
	p = buf[*i] - '0';
	(*i)++;
	return p;
}

int rtune_parse_prio_mask(const char *buf, size_t len, u32 *out)
{
	u32 mask = 0;
	size_t i = 0;

	len = strip_newline(buf, len);
	if (len == 4 && !memcmp(buf, "none", 4)) {
		*out = 0;
		return 0;
	}
	if (!len)
		return -EINVAL;
	for (;;) {
		int lo, hi, p;

		lo = parse_prio_digit(buf, len, &i);
		if (lo < 0)
			return -EINVAL;
		hi = lo;
		if (i < len && buf[i] == '-') {
			i++;
			hi = parse_prio_digit(buf, len, &i);
			if (hi < lo)
				return -EINVAL;
		}
		for (p = lo; p <= hi; p++)
			mask |= 1u << p;
		if (i == len)
			break;
		if (buf[i] != ',')
			return -EINVAL;
		i++;
	}
	*out = mask;
	return 0;
}

int rtune_format_prio_mask(u32 mask, char *buf, size_t len)
{
	size_t n = 0;
	int p = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	mask &= 0xff;
	if (!mask)
		return snprintf(buf, len, "none");
	while (p < 8) {
		int q;

		if (!(mask & (1u << p))) {
			p++;
			continue;
		}
		for (q = p; q + 1 < 8 && (mask & (1u << (q + 1))); q++)
			;
		if (q == p)
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%d",
				      n ? "," : "", p);
		else
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%d-%d",
				      n ? "," : "", p, q);
		p = q + 1;
	}
	return (int)n;
}

int rtune_param_lookup(const char *name, size_t len)
{
	int i;

	len = strip_newline(name, len);
	for (i = 0; i < RTUNE_P_COUNT; i++) {
		const char *n = rtune_param_descs[i].name;

		if (strlen(n) == len && !memcmp(n, name, len))
			return i;
	}
	return -1;
}

int rtune_param_parse(enum rtune_param_id id, const char *buf, size_t len, u32 *out)
{
	const struct rtune_param_desc *d;
	u32 v;
	int err;

	if ((unsigned int)id >= RTUNE_P_COUNT)
		return -EINVAL;
	d = &rtune_param_descs[id];
	if (d->kind == RTUNE_KIND_PRIO_MASK)
		err = rtune_parse_prio_mask(buf, len, &v);
	else
		err = rtune_parse_u32(buf, len, &v);
	if (err)
		return err;
	if (v < d->min || v > d->max)
		return -EINVAL;
	*out = v;
	return 0;
}

int rtune_param_format(enum rtune_param_id id, u32 v, char *buf, size_t len)
{
	int n;

	if ((unsigned int)id >= RTUNE_P_COUNT || len < 2)
		return -EINVAL;
	if (rtune_param_descs[id].kind == RTUNE_KIND_PRIO_MASK)
		n = rtune_format_prio_mask(v, buf, len - 1);
	else
		n = snprintf(buf, len - 1, "%u", v);
	if (n < 0 || (size_t)n >= len - 1)
		return -EINVAL;
	buf[n++] = '\n';
	buf[n] = '\0';
	return n;
}

int rtune_params_validate(const struct rtune_param_set *s, char *why, size_t whylen)
{
	const u32 *v = s->v;
	int i;

	/* Every value on its own first: a set built by hand may skip parse. */
	for (i = 0; i < RTUNE_P_COUNT; i++) {
		if (v[i] < rtune_param_descs[i].min || v[i] > rtune_param_descs[i].max) {
			snprintf(why, whylen, "%s=%u is outside %u..%u",
				 rtune_param_descs[i].name, v[i],
				 rtune_param_descs[i].min, rtune_param_descs[i].max);
			return -EINVAL;
		}
	}
	if (v[RTUNE_P_RP_MAX_RATE_KBPS] &&
	    v[RTUNE_P_RP_MIN_RATE_KBPS] > v[RTUNE_P_RP_MAX_RATE_KBPS]) {
		snprintf(why, whylen,
			 "rp_min_rate_kbps=%u exceeds rp_max_rate_kbps=%u",
			 v[RTUNE_P_RP_MIN_RATE_KBPS], v[RTUNE_P_RP_MAX_RATE_KBPS]);
		return -EINVAL;
	}
	if (v[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS] &&
	    (v[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS] < v[RTUNE_P_RP_MIN_RATE_KBPS] ||
	     (v[RTUNE_P_RP_MAX_RATE_KBPS] &&
	      v[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS] > v[RTUNE_P_RP_MAX_RATE_KBPS]))) {
		snprintf(why, whylen,
			 "rp_rate_on_first_cnp_kbps=%u is outside rp_min_rate_kbps..rp_max_rate_kbps",
			 v[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS]);
		return -EINVAL;
	}
	if (v[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS] > v[RTUNE_P_RP_HYPER_INCREASE_KBPS]) {
		snprintf(why, whylen,
			 "rp_additive_increase_kbps=%u exceeds rp_hyper_increase_kbps=%u",
			 v[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS],
			 v[RTUNE_P_RP_HYPER_INCREASE_KBPS]);
		return -EINVAL;
	}
	if (whylen)
		why[0] = '\0';
	return 0;
}

const struct rtune_param_set *rtune_params_default(void)
{
	return &rtune_preset_lookup(RTUNE_DEFAULT_PRESET,
				 strlen(RTUNE_DEFAULT_PRESET))->set;
}

const struct rtune_preset *rtune_preset_lookup(const char *name, size_t len)
{
	unsigned int i;

	len = strip_newline(name, len);
	for (i = 0; i < rtune_preset_count; i++) {
		const char *n = rtune_presets[i].name;

		if (strlen(n) == len && !memcmp(n, name, len))
			return &rtune_presets[i];
	}
	return NULL;
}
