/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The vendor-neutral congestion-control parameter set: one table gives
 * every tunable its name (with its unit in the name), kind, valid range and
 * help text; presets give whole default sets. The module's configfs tree,
 * the DCQCN core, the simulator and `rocetune apply` all use these names,
 * so a value means the same thing everywhere.
 *
 * Documentation/configfs.rst maps each name to each vendor's knob.
 */
#ifndef _ROCETUNE_RT_PARAMS_H
#define _ROCETUNE_RT_PARAMS_H

#include "rt_types.h"

enum rt_param_id {
	/* Which 802.1p priorities the reaction/notification points act on. */
	RT_P_RP_ENABLED_PRIOS,
	RT_P_NP_ENABLED_PRIOS,
	/* Priorities whose RoCE packets are sent ECN-capable. */
	RT_P_ECN_ENABLED_PRIOS,
	RT_P_ECN_CODEPOINT,

	/* Reaction point (sender): rate limits. */
	RT_P_RP_MIN_RATE_KBPS,
	RT_P_RP_MAX_RATE_KBPS,
	RT_P_RP_RATE_ON_FIRST_CNP_KBPS,
	/* Reaction point: rate decrease. */
	RT_P_RP_ALPHA_GAIN_1024THS,
	RT_P_RP_INITIAL_ALPHA_1024THS,
	RT_P_RP_ALPHA_UPDATE_PERIOD_US,
	RT_P_RP_RATE_CUT_SHIFT,
	RT_P_RP_MIN_RATE_FACTOR_PCT,
	RT_P_RP_RATE_REDUCE_PERIOD_US,
	RT_P_RP_CLAMP_TARGET_RATE,
	RT_P_RP_CLAMP_TARGET_AFTER_TIMER,
	/* Reaction point: rate increase. */
	RT_P_RP_RATE_INCREASE_TIMER_US,
	RT_P_RP_BYTE_COUNTER_BYTES,
	RT_P_RP_FAST_RECOVERY_STAGES,
	RT_P_RP_ADDITIVE_INCREASE_KBPS,
	RT_P_RP_HYPER_INCREASE_KBPS,

	/* Notification point (receiver): CNP generation. */
	RT_P_NP_MIN_CNP_INTERVAL_US,
	RT_P_NP_CNP_DSCP,
	RT_P_NP_CNP_PRIO,
	RT_P_NP_CNP_ECN,

	RT_P_COUNT
};

enum rt_param_kind {
	RT_KIND_U32,		/* decimal number */
	RT_KIND_BOOL,		/* 0 or 1 */
	RT_KIND_PRIO_MASK,	/* priority list: "none", "3", "0,3-5", "0-7" */
};

struct rt_param_desc {
	const char *name;
	const char *unit;	/* "kb/s", "us", "bytes", "1/1024", ... */
	enum rt_param_kind kind;
	u32 min;
	u32 max;
	const char *help;
};

/* One complete set of values, indexed by enum rt_param_id. */
struct rt_param_set {
	u32 v[RT_P_COUNT];
};

struct rt_preset {
	const char *name;
	const char *help;
	struct rt_param_set set;
};

extern const struct rt_param_desc rt_param_descs[RT_P_COUNT];
extern const struct rt_preset rt_presets[];
extern const unsigned int rt_preset_count;

/* The preset a freshly attached port starts from. */
#define RT_DEFAULT_PRESET "paper"

/* Longest text rt_param_format() can produce, with its newline and NUL. */
#define RT_PARAM_TEXT_MAX 24

/* Look a parameter up by name (len bytes, no NUL needed); -1 if unknown. */
int rt_param_lookup(const char *name, size_t len);

/*
 * Parse the text a user wrote for parameter @id. Accepts exactly one value
 * and at most one trailing newline; rejects empty input, signs, garbage,
 * overflow and values outside the range with -EINVAL and leaves *out alone.
 */
int rt_param_parse(enum rt_param_id id, const char *buf, size_t len, u32 *out);

/* Format @v for parameter @id with a trailing newline; returns the length. */
int rt_param_format(enum rt_param_id id, u32 v, char *buf, size_t len);

/*
 * Cross-field checks of a whole set. Returns 0, or -EINVAL with a one-line
 * reason (naming the parameters involved) written to @why.
 */
int rt_params_validate(const struct rt_param_set *s, char *why, size_t whylen);

/* The values of RT_DEFAULT_PRESET: what a fresh port starts from. */
const struct rt_param_set *rt_params_default(void);

/* Look a preset up by name (len bytes, one trailing newline allowed). */
const struct rt_preset *rt_preset_lookup(const char *name, size_t len);

/* Parse a strict unsigned decimal (one optional trailing newline). */
int rt_parse_u32(const char *buf, size_t len, u32 *out);

/* Parse a priority list into an 8-bit mask. */
int rt_parse_prio_mask(const char *buf, size_t len, u32 *out);

/* Format an 8-bit priority mask as a list ("none", "3", "0-2,5"). */
int rt_format_prio_mask(u32 mask, char *buf, size_t len);

#endif /* _ROCETUNE_RT_PARAMS_H */
