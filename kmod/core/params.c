// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The vendor-neutral congestion-control parameter table and presets (both
 * generated from params_list.h), and the strict parsers behind every
 * configfs write and every profile value.
 */
#include "params.h"

#define RTUNE_PARAM_DESC(id, name, unit, kind, min, max, paper, connectx, help) \
	[RTUNE_P_##id] = { #name, unit, RTUNE_KIND_##kind, min, max, help },

const struct rtune_param_desc rtune_param_descs[RTUNE_P_COUNT] = {
	RTUNE_PARAMS(RTUNE_PARAM_DESC)
};

#define RTUNE_PARAM_PAPER(id, name, unit, kind, min, max, paper, connectx, help) \
	[RTUNE_P_##id] = paper,
#define RTUNE_PARAM_CONNECTX(id, name, unit, kind, min, max, paper, connectx, help) \
	[RTUNE_P_##id] = connectx,

/* The values of each preset are columns of params_list.h. */
const struct rtune_preset rtune_presets[] = {
	{
		.name = "paper",
		.help = "DCQCN as published (Zhu et al., SIGCOMM 2015)",
		.set.v = { RTUNE_PARAMS(RTUNE_PARAM_PAPER) },
	},
	{
		.name = "connectx",
		.help = "NVIDIA ConnectX firmware defaults",
		.set.v = { RTUNE_PARAMS(RTUNE_PARAM_CONNECTX) },
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

	if ((unsigned int)id >= RTUNE_P_COUNT || !len)
		return -EINVAL;
	if (rtune_param_descs[id].kind == RTUNE_KIND_PRIO_MASK)
		n = rtune_format_prio_mask(v, buf, len);
	else
		n = snprintf(buf, len, "%u", v);
	if (n < 0 || (size_t)n >= len)
		return -EINVAL;
	return n;
}

/*
 * Rates that are 0 (unset) or lie within rp_min_rate_kbps..
 * rp_max_rate_kbps (a maximum of 0 is the line rate: no upper bound here).
 */
static const enum rtune_param_id rtune_rates_within_limits[] = {
	RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS,
	RTUNE_P_RP_INITIAL_RATE_KBPS,
};

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
	for (i = 0; i < (int)ARRAY_SIZE(rtune_rates_within_limits); i++) {
		enum rtune_param_id id = rtune_rates_within_limits[i];

		if (v[id] && (v[id] < v[RTUNE_P_RP_MIN_RATE_KBPS] ||
			      (v[RTUNE_P_RP_MAX_RATE_KBPS] &&
			       v[id] > v[RTUNE_P_RP_MAX_RATE_KBPS]))) {
			snprintf(why, whylen,
				 "%s=%u is outside rp_min_rate_kbps..rp_max_rate_kbps",
				 rtune_param_descs[id].name, v[id]);
			return -EINVAL;
		}
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
