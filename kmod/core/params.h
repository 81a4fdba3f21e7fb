/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The vendor-neutral congestion-control parameter set: one list
 * (params_list.h) gives every tunable its name (with its unit in the
 * name), kind, valid range, preset values and help text; presets give
 * whole default sets. The module's configfs tree, the DCQCN core, the
 * simulator and `rocetune apply` all use these names, so a value means
 * the same thing everywhere.
 *
 * Documentation/configfs.rst maps each name to each vendor's knob.
 */
#ifndef _ROCETUNE_CORE_PARAMS_H
#define _ROCETUNE_CORE_PARAMS_H

#include "types.h"
#include "params_list.h"

/* RTUNE_P_RP_ENABLED_PRIOS, ...: one per entry of RTUNE_PARAMS, in order. */
enum rtune_param_id {
#define RTUNE_PARAM_ENUM(id, name, unit, kind, min, max, paper, connectx, help) \
	RTUNE_P_##id,
	RTUNE_PARAMS(RTUNE_PARAM_ENUM)
#undef RTUNE_PARAM_ENUM
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

/* Longest text rtune_param_format() can produce, with its NUL. */
#define RTUNE_PARAM_TEXT_MAX 24

/* Look a parameter up by name (len bytes, no NUL needed); -1 if unknown. */
int rtune_param_lookup(const char *name, size_t len);

/*
 * Parse the text a user wrote for parameter @id. Accepts exactly one value
 * and at most one trailing newline; rejects empty input, signs, garbage,
 * overflow and values outside the range with -EINVAL and leaves *out alone.
 */
int rtune_param_parse(enum rtune_param_id id, const char *buf, size_t len, u32 *out);

/*
 * Format @v for parameter @id, without a newline (the caller adds one
 * where its format needs it); returns the length, or -EINVAL if @id is
 * unknown or @buf too small.
 */
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
