// SPDX-License-Identifier: GPL-2.0
/*
 * AMD Pensando's out-of-tree ionic surface: sysfs kobjects under the RDMA
 * device, /sys/class/infiniband/<ibdev>/dcqcn/ (ionic_dcqcn.c, Pensando
 * 2018-2020: kobject "dcqcn" added with the ib_device's kobject as its
 * parent; no node was available to confirm it):
 *
 *   match_default          the profile a QP gets when no rule matches,
 *                          0..<profiles>; 0 = none of these
 *   match_rules            "prio <mask> <profile>" / "gid <index> <profile>"
 *                          lines, the first that matches a QP's address
 *                          handle wins (ionic_dcqcn_select_profile())
 *   profiles/<N>/roce_np/, roce_rp/   one file per parameter, 0644
 *
 * A parameter reads "%d\n" from the driver's copy. A store is
 * kstrtoint(buf, 0) with a range check (EINVAL), then the driver's copy
 * takes the value and the whole profile goes to the firmware
 * (IONIC_V1_ADMIN_MODIFY_DCQCN). When that command fails, the store still
 * returns success: the driver only logs "dcqcn profile <N> not set, error
 * <rc>" with ibdev_warn(), and its copy, which every read shows, keeps
 * the value the firmware refused. That log line is the only sign, so
 * rocetune reads the kernel log after every write (surface.c,
 * rtune_ionic_fw_failed() below) and fails the write on one. A firmware
 * that answers success and keeps nothing cannot be seen at all.
 *
 * rocetune drives one profile: the one match_default names, and only
 * while no rule sends a QP elsewhere (locate()). Its parameters have
 * mlx5's names and units, so the mapping is mlx5's (Documentation/
 * hardware.rst has the table), with ionic's ranges and two differences:
 * time_reset counts dce_tcp_rtt periods, not microseconds, and
 * rate_to_set_on_first_cnp and byte_reset take no 0.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cfs.h"
#include "state.h"
#include "surface.h"

enum {
	F_NP_PRIO,
	F_NP_DSCP,
	F_TOKEN_BUCKET,
	F_INITIAL_ALPHA,
	F_DCE_TCP_G,
	F_DCE_TCP_RTT,
	F_RATE_REDUCE_PERIOD,
	F_RATE_FIRST_CNP,
	F_MIN_RATE,
	F_GD,
	F_MIN_DEC_FAC,
	F_CLAMP_TGT_RATE,
	F_CLAMP_TGT_RATE_ATI,
	F_THRESHOLD,
	F_TIME_RESET,
	F_QP_RATE,
	F_BYTE_RESET,
	F_AI_RATE,
	F_HAI_RATE,
	F_COUNT,
};

_Static_assert(F_COUNT <= RTUNE_SURF_MAX_FILES, "ionic files fit the masks");
/* to_raw() of the timer uses dce_tcp_rtt as the profile sets it */
_Static_assert(RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US < RTUNE_P_RP_RATE_INCREASE_TIMER_US,
	       "the alpha period is converted before the timer");

/* The driver's attribute order, relative to profiles/<N>/. */
static const char *const files[F_COUNT] = {
	"roce_np/icnp_802p_prio", "roce_np/cnp_dscp", "roce_rp/token_bucket_size",
	"roce_rp/initial_alpha_value", "roce_rp/dce_tcp_g", "roce_rp/dce_tcp_rtt",
	"roce_rp/rate_reduce_monitor_period", "roce_rp/rate_to_set_on_first_cnp",
	"roce_rp/min_rate", "roce_rp/gd", "roce_rp/min_dec_fac", "roce_rp/clamp_tgt_rate",
	"roce_rp/clamp_tgt_rate_ati", "roce_rp/threshold", "roce_rp/time_reset",
	"roce_rp/qp_rate", "roce_rp/byte_reset", "roce_rp/ai_rate", "roce_rp/hai_rate",
};

#define NO_PRIO \
	"ionic has no per-priority switch: a profile applies to the QPs that match_default " \
	"and match_rules give it, and rocetune does not write those"

static const struct rtune_surf_map map[RTUNE_P_COUNT] = {
	[RTUNE_P_RP_ENABLED_PRIOS]		= { -1, NO_PRIO },
	[RTUNE_P_NP_ENABLED_PRIOS]		= { -1, NO_PRIO },
	[RTUNE_P_ECN_ENABLED_PRIOS]		= { -1, NO_PRIO },
	[RTUNE_P_ECN_CODEPOINT]			= { -1, "ionic has no knob for the ECN codepoint of RoCE data packets" },
	[RTUNE_P_RP_MIN_RATE_KBPS]		= { F_MIN_RATE, NULL },
	[RTUNE_P_RP_MAX_RATE_KBPS]		= { -1, "ionic has no maximum-rate file; its qp_rate (Mb/s) is not documented as one (nor whether it is a QP's starting or highest rate), so rocetune keeps it as it is" },
	[RTUNE_P_RP_INITIAL_RATE_KBPS]		= { -1, "ionic firmware starts a QP at its own rate; the initial rate with start-up doubling is rocetune's software DCQCN only" },
	[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS]	= { F_RATE_FIRST_CNP, NULL },
	[RTUNE_P_RP_SENT_RATE_WINDOW_US]	= { -1, "ionic firmware cuts from its rate limiter's rate; the sent-rate window is rocetune's software DCQCN only" },
	[RTUNE_P_RP_ALPHA_GAIN_1024THS]		= { F_DCE_TCP_G, NULL },
	[RTUNE_P_RP_INITIAL_ALPHA_1024THS]	= { F_INITIAL_ALPHA, NULL },
	[RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US]	= { F_DCE_TCP_RTT, NULL },
	[RTUNE_P_RP_RATE_CUT_SHIFT]		= { F_GD, NULL },
	[RTUNE_P_RP_MIN_RATE_FACTOR_PCT]	= { F_MIN_DEC_FAC, NULL },
	[RTUNE_P_RP_RATE_REDUCE_PERIOD_US]	= { F_RATE_REDUCE_PERIOD, NULL },
	[RTUNE_P_RP_CLAMP_TARGET_RATE]		= { F_CLAMP_TGT_RATE, NULL },
	[RTUNE_P_RP_CLAMP_TARGET_AFTER_TIMER]	= { F_CLAMP_TGT_RATE_ATI, NULL },
	[RTUNE_P_RP_RATE_INCREASE_TIMER_US]	= { F_TIME_RESET, NULL },
	[RTUNE_P_RP_BYTE_COUNTER_BYTES]		= { F_BYTE_RESET, NULL },
	[RTUNE_P_RP_FAST_RECOVERY_STAGES]	= { F_THRESHOLD, NULL },
	[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS]	= { F_AI_RATE, NULL },
	[RTUNE_P_RP_HYPER_INCREASE_KBPS]	= { F_HAI_RATE, NULL },
	[RTUNE_P_RP_PATH_SHARE_PCT]		= { -1, "ionic firmware runs each QP on its own; holding a QP above its path's mean rate is rocetune's software DCQCN only" },
	[RTUNE_P_NP_MIN_CNP_INTERVAL_US]	= { -1, "ionic has no knob for the pacing of the CNPs it sends" },
	[RTUNE_P_NP_CNP_DSCP]			= { F_NP_DSCP, NULL },
	[RTUNE_P_NP_CNP_PRIO]			= { F_NP_PRIO, NULL },
	[RTUNE_P_NP_CNP_ECN]			= { -1, "ionic has no knob for the ECN bits of the CNPs it sends" },
};

static bool is_rate(enum rtune_param_id id)
{
	return id == RTUNE_P_RP_MIN_RATE_KBPS || id == RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS ||
	       id == RTUNE_P_RP_ADDITIVE_INCREASE_KBPS || id == RTUNE_P_RP_HYPER_INCREASE_KBPS;
}

/* The neutral rate-increase timer, in us: time_reset dce_tcp_rtt periods. */
static bool timer_us(const uint32_t *raw, uint64_t *us)
{
	*us = (uint64_t)raw[F_TIME_RESET] * raw[F_DCE_TCP_RTT];
	return raw[F_DCE_TCP_RTT] != 0;
}

static int range(uint32_t r, uint32_t lo, uint32_t hi, const char *file, const char *unit,
		 char *why, size_t wlen)
{
	if (r >= lo && r <= hi)
		return 0;
	snprintf(why, wlen, "ionic's %s takes %u..%u%s", file, lo, hi, unit);
	return -ERANGE;
}

static int to_raw(enum rtune_param_id id, uint32_t v, uint32_t *raw, uint32_t *fmask,
		  char *why, size_t wlen)
{
	int f = map[id].file;
	uint32_t r = v;

	if (f < 0)
		return -EOPNOTSUPP;
	if (is_rate(id)) {
		/* kb/s to Mb/s, exactly, as mlx5 */
		if (v % 1000) {
			snprintf(why, wlen, "ionic rates are whole Mb/s (%s), and %u kb/s is not",
				 files[f], v);
			return -ERANGE;
		}
		r = v / 1000;
	}
	switch (id) {
	case RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS:
		/* 0 is the driver's default, and its store refuses it */
		if (!r && raw[f]) {
			snprintf(why, wlen,
				 "0 (no preset rate) is ionic's default for %s, but its store takes 1..%d only",
				 files[f], INT_MAX);
			return -ERANGE;
		}
		if (r && range(r, 1, INT_MAX, files[f], " Mb/s", why, wlen))
			return -ERANGE;
		break;
	case RTUNE_P_RP_MIN_RATE_KBPS:
	case RTUNE_P_RP_ADDITIVE_INCREASE_KBPS:
	case RTUNE_P_RP_HYPER_INCREASE_KBPS:
		if (range(r, 1, INT_MAX, files[f], " Mb/s", why, wlen))
			return -ERANGE;
		break;
	case RTUNE_P_RP_ALPHA_GAIN_1024THS:
		/* alpha = (G/1024) alpha + (1024 - G)/1024 on a CNP: G = 1024 - g */
		r = 1024 - v;
		break;
	case RTUNE_P_RP_INITIAL_ALPHA_1024THS:
		if (range(r, 0, 1023, files[f], " (1/1024)", why, wlen))
			return -ERANGE;
		break;
	case RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US: {
		uint64_t t;

		if (range(r, 1, 131071, files[f], " us", why, wlen))
			return -ERANGE;
		/*
		 * time_reset counts dce_tcp_rtt periods: keep the timer's
		 * microseconds, or mark time_reset 0 (never valid) for check()
		 * when they are not a whole number of new periods. A timer
		 * the profile also sets replaces this (converted after).
		 */
		if (raw[F_DCE_TCP_RTT] != r && timer_us(raw, &t)) {
			raw[F_TIME_RESET] = t % r || t / r > 32767 ? 0 : (uint32_t)(t / r);
			*fmask |= 1u << F_TIME_RESET;
		}
		break;
	}
	case RTUNE_P_RP_RATE_CUT_SHIFT:
		/* rate -= rate * alpha / 2^gd, alpha in 1/1024: gd = shift + 10 */
		if (v > 1) {
			snprintf(why, wlen,
				 "%s is shift + 10 and ionic takes 1..11: a cut of alpha/1 or alpha/2 (shift 0..1) only",
				 files[f]);
			return -ERANGE;
		}
		r = v + 10;
		break;
	case RTUNE_P_RP_RATE_REDUCE_PERIOD_US:
		if (range(r, 1, INT_MAX, files[f],
			  " us: 0 (cut on every CNP) has no equivalent", why, wlen))
			return -ERANGE;
		break;
	case RTUNE_P_RP_RATE_INCREASE_TIMER_US: {
		uint32_t rtt = raw[F_DCE_TCP_RTT];

		if (!rtt || v % rtt) {
			snprintf(why, wlen,
				 "%s counts dce_tcp_rtt periods (%u us): %u us is not a whole number of them",
				 files[f], rtt, v);
			return -ERANGE;
		}
		r = v / rtt;
		if (range(r, 1, 32767, files[f], " periods of dce_tcp_rtt", why, wlen))
			return -ERANGE;
		break;
	}
	case RTUNE_P_RP_BYTE_COUNTER_BYTES:
		if (range(r, 1, INT_MAX, files[f], " bytes: 0 (byte counter off) has no equivalent",
			  why, wlen))
			return -ERANGE;
		break;
	case RTUNE_P_RP_FAST_RECOVERY_STAGES:
		if (range(r, 1, 31, files[f], "", why, wlen))
			return -ERANGE;
		break;
	default:
		break;
	}
	raw[f] = r;
	*fmask |= 1u << f;
	return 0;
}

static bool decode(enum rtune_param_id id, const uint32_t *raw, uint32_t valid, uint64_t *v)
{
	const uint32_t both = (1u << F_TIME_RESET) | (1u << F_DCE_TCP_RTT);

	if (is_rate(id))
		*v *= 1000;
	switch (id) {
	case RTUNE_P_RP_ALPHA_GAIN_1024THS:
		*v = 1024 - (*v > 1024 ? 1024 : *v);
		break;
	case RTUNE_P_RP_RATE_CUT_SHIFT:
		/* gd 1..9: a cut of more than alpha, which no shift expresses */
		if (*v < 10)
			return false;
		*v -= 10;
		break;
	case RTUNE_P_RP_RATE_INCREASE_TIMER_US:
		if ((valid & both) != both)
			return false;
		return timer_us(raw, v);
	default:
		break;
	}
	return true;
}

static int check(const uint32_t *raw, uint32_t fmask, char *why, size_t wlen)
{
	if ((fmask & (1u << F_TIME_RESET)) && !raw[F_TIME_RESET]) {
		snprintf(why, wlen,
			 "time_reset counts dce_tcp_rtt periods, so a new rp_alpha_update_period_us (%u us) changes the rate-increase timer: set rp_rate_increase_timer_us too, to a multiple of it",
			 raw[F_DCE_TCP_RTT]);
		return -ERANGE;
	}
	return 0;
}

static const char *unwritable(int f, uint32_t v)
{
	if (f == F_RATE_FIRST_CNP && !v)
		return "ionic shows 0, its default, but its store takes 1..2147483647 only";
	return NULL;
}

/* A whole "%d\n" number in @path (0 or -errno, -EPROTO if not one). */
static int read_int(const char *path, long *v)
{
	char buf[32], *end;
	int err = cfs_read(path, buf, sizeof(buf));

	if (err)
		return err;
	errno = 0;
	*v = strtol(buf, &end, 10);
	return errno || end == buf || *end ? -EPROTO : 0;
}

/*
 * The first rule in match_rules ("<name> <cond> <profile>" lines) that
 * gives a QP another profile than @sel, into @why; 0 when there is none,
 * -EPROTO when a line does not read as one.
 */
static int rules_elsewhere(const char *text, long sel, char *why, size_t wlen)
{
	const char *line = text;

	why[0] = '\0';
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		char l[96], name[16];
		int cond, prof, end = 0;

		snprintf(l, sizeof(l), "%.*s", (int)(n < sizeof(l) ? n : sizeof(l) - 1), line);
		line += n + (nl ? 1 : 0);
		if (!l[0])
			continue;
		if (sscanf(l, "%15s %d %d%n", name, &cond, &prof, &end) != 3 || l[end])
			return -EPROTO;
		if (prof == sel)
			continue;
		snprintf(why, wlen,
			 "match_rules gives QPs \"%s %d\" profile %d, not match_default's %ld: rocetune sets one profile per device and cannot say which QPs get which; empty match_rules, or make its rules name profile %ld",
			 name, cond, prof, sel, sel);
		return 0;
	}
	return 0;
}

static int locate(struct rtune_hwcc *hw)
{
	char path[PATH_MAX], rules[4096];
	long sel;
	int err;

	hw->sel = 0;
	snprintf(path, sizeof(path), "%s/match_default", hw->dir);
	err = read_int(path, &sel);
	if (err == -ENOENT) {
		snprintf(hw->errwhy, sizeof(hw->errwhy),
			 "%.90s does not exist: the out-of-tree ionic driver (which has dcqcn/ in sysfs) is not loaded or made no profile",
			 hw->dir);
		return err;
	}
	if (err) {
		snprintf(hw->errwhy, sizeof(hw->errwhy), "%.120s: %s", path,
			 err == -EPROTO ? "not a number" : strerror(-err));
		return err;
	}
	if (sel <= 0) {
		snprintf(hw->errwhy, sizeof(hw->errwhy),
			 "%.50s/match_default is %ld: QPs get none of its profiles; choose one (echo N > match_default: QPs set up after)",
			 hw->dir, sel);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/match_rules", hw->dir);
	err = cfs_read(path, rules, sizeof(rules));
	if (!err)
		err = rules_elsewhere(rules, sel, hw->refuse, sizeof(hw->refuse));
	if (err) {
		snprintf(hw->errwhy, sizeof(hw->errwhy), "%.120s: %s", path,
			 err == -EPROTO ? "a line is not \"<name> <cond> <profile>\"" : strerror(-err));
		return err;
	}
	hw->sel = (int)sel;
	snprintf(path, sizeof(path), "%s", hw->dir);
	if ((size_t)snprintf(hw->dir, sizeof(hw->dir), "%.200s/profiles/%ld", path, sel) >=
	    sizeof(hw->dir))
		return -ENAMETOOLONG;
	return 0;
}

bool rtune_ionic_fw_failed(const char *msg, size_t len, const char *ibdev, int profile)
{
	char want[96];
	size_t wl, i, il = strlen(ibdev);

	/* ibdev_warn(): "[<driver> <parent> ]<ibdev>: dcqcn profile <N> not set, ..." */
	wl = (size_t)snprintf(want, sizeof(want), "%s: dcqcn profile %d not set", ibdev, profile);
	if (!il || wl >= sizeof(want))
		return false;
	for (i = 0; i + wl <= len; i++) {
		if (i && msg[i - 1] != ' ')
			continue;
		if (memcmp(msg + i, want, wl))
			continue;
		/* "profile 1" is not "profile 12" */
		if (i + wl == len || msg[i + wl] == ',' || msg[i + wl] == '\n')
			return true;
	}
	return false;
}

static bool fw_log(const struct rtune_hwcc *hw, const char *msg, size_t len)
{
	return rtune_ionic_fw_failed(msg, len, hw->id, hw->sel);
}

const struct rtune_surface rtune_surface_ionic = {
	.name = "ionic",
	.driver = "ionic",
	.subdir = "dcqcn",
	.backend = "ionic-sysfs",
	.root = RTUNE_SURF_SYSFS_IB,
	.nfiles = F_COUNT,
	.files = files,
	.map = map,
	.to_raw = to_raw,
	.decode = decode,
	.check = check,
	.locate = locate,
	.fw_log = fw_log,
	.unwritable = unwritable,
};
