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
#ifndef _ROCETUNE_CORE_PARAMS_H
#define _ROCETUNE_CORE_PARAMS_H

#include "types.h"

enum rtune_param_id {
	/* Which 802.1p priorities the reaction/notification points act on. */
	RTUNE_P_RP_ENABLED_PRIOS,
	RTUNE_P_NP_ENABLED_PRIOS,
	/* Priorities whose RoCE packets are sent ECN-capable. */
	RTUNE_P_ECN_ENABLED_PRIOS,
	RTUNE_P_ECN_CODEPOINT,

	/* Reaction point (sender): rate limits. */
	RTUNE_P_RP_MIN_RATE_KBPS,
	RTUNE_P_RP_MAX_RATE_KBPS,
	RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS,
	/* Reaction point: rate decrease. */
	RTUNE_P_RP_ALPHA_GAIN_1024THS,
	RTUNE_P_RP_INITIAL_ALPHA_1024THS,
	RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US,
	RTUNE_P_RP_RATE_CUT_SHIFT,
	RTUNE_P_RP_MIN_RATE_FACTOR_PCT,
	RTUNE_P_RP_RATE_REDUCE_PERIOD_US,
	RTUNE_P_RP_CLAMP_TARGET_RATE,
	RTUNE_P_RP_CLAMP_TARGET_AFTER_TIMER,
	/* Reaction point: rate increase. */
	RTUNE_P_RP_RATE_INCREASE_TIMER_US,
	RTUNE_P_RP_BYTE_COUNTER_BYTES,
	RTUNE_P_RP_FAST_RECOVERY_STAGES,
	RTUNE_P_RP_ADDITIVE_INCREASE_KBPS,
	RTUNE_P_RP_HYPER_INCREASE_KBPS,

	/* Notification point (receiver): CNP generation. */
	RTUNE_P_NP_MIN_CNP_INTERVAL_US,
	RTUNE_P_NP_CNP_DSCP,
	RTUNE_P_NP_CNP_PRIO,
	RTUNE_P_NP_CNP_ECN,

	RTUNE_P_COUNT
};

enum rtune_param_kind {
	RTUNE_KIND_U32,		/* decimal number */
	RTUNE_KIND_BOOL,		/* 0 or 1 */
	RTUNE_KIND_PRIO_MASK,	/* priority list: "none", "3", "0,3-5", "0-7" */
};

struct rtune_param_desc {
	const char *name;
	const char *unit;	/* "kb/s", "us", "bytes", "1/1024", ... */
	enum rtune_param_kind kind;
	u32 min;
	u32 max;
	const char *help;
};

/* One complete set of values, indexed by enum rtune_param_id. */
struct rtune_param_set {
	u32 v[RTUNE_P_COUNT];
};

struct rtune_preset {
	const char *name;
	const char *help;
	struct rtune_param_set set;
};

extern const struct rtune_param_desc rtune_param_descs[RTUNE_P_COUNT];
extern const struct rtune_preset rtune_presets[];
extern const unsigned int rtune_preset_count;

/* The preset a freshly attached port starts from. */
#define RTUNE_DEFAULT_PRESET "paper"

/* Longest text rtune_param_format() can produce, with its newline and NUL. */
#define RTUNE_PARAM_TEXT_MAX 24

/* Look a parameter up by name (len bytes, no NUL needed); -1 if unknown. */
int rtune_param_lookup(const char *name, size_t len);

/*
 * Parse the text a user wrote for parameter @id. Accepts exactly one value
 * and at most one trailing newline; rejects empty input, signs, garbage,
 * overflow and values outside the range with -EINVAL and leaves *out alone.
 */
int rtune_param_parse(enum rtune_param_id id, const char *buf, size_t len, u32 *out);

/* Format @v for parameter @id with a trailing newline; returns the length. */
int rtune_param_format(enum rtune_param_id id, u32 v, char *buf, size_t len);

/*
 * Cross-field checks of a whole set. Returns 0, or -EINVAL with a one-line
 * reason (naming the parameters involved) written to @why.
 */
int rtune_params_validate(const struct rtune_param_set *s, char *why, size_t whylen);

/* The values of RTUNE_DEFAULT_PRESET: what a fresh port starts from. */
const struct rtune_param_set *rtune_params_default(void);

/* Look a preset up by name (len bytes, one trailing newline allowed). */
const struct rtune_preset *rtune_preset_lookup(const char *name, size_t len);

/* Parse a strict unsigned decimal (one optional trailing newline). */
int rtune_parse_u32(const char *buf, size_t len, u32 *out);

/* Parse a priority list into an 8-bit mask. */
int rtune_parse_prio_mask(const char *buf, size_t len, u32 *out);

/* Format an 8-bit priority mask as a list ("none", "3", "0-2,5"). */
int rtune_format_prio_mask(u32 mask, char *buf, size_t len);

#endif /* _ROCETUNE_CORE_PARAMS_H */
