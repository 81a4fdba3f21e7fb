// SPDX-License-Identifier: GPL-2.0
/*
 * The upstream mlx5 surface: debugfs mlx5/<PCI BDF>/cc_params/, created by
 * drivers/infiniband/hw/mlx5/cong.c:mlx5_ib_init_cong_debugfs(). Every
 * file is one firmware field (mlx5_ib_dbg_cc_name[]); a read is a
 * QUERY_CONG_PARAMS printed "%u\n" (get_param()), a write one
 * MODIFY_CONG_PARAMS (set_param(), parsed with kstrtou32_from_user base
 * 0). Writing np_cnp_prio also sets np_cnp_prio_mode to 0
 * (mlx5_ib_set_cc_param_mask_val()).
 *
 * Conversions and ranges: Documentation/hardware.rst. The ranges refused
 * here are NVIDIA's ("DCQCN CC Parameters", DOCA 3.4 documentation); the
 * driver checks none, and what firmware does beyond them is unknown.
 */
#include <errno.h>
#include <stdio.h>
#include "surface.h"

enum {
	F_CLAMP_TGT_RATE,
	F_CLAMP_TGT_RATE_ATI,
	F_TIME_RESET,
	F_BYTE_RESET,
	F_THRESHOLD,
	F_AI_RATE,
	F_MAX_RATE,
	F_HAI_RATE,
	F_MIN_DEC_FAC,
	F_MIN_RATE,
	F_RATE_FIRST_CNP,
	F_DCE_TCP_G,
	F_DCE_TCP_RTT,
	F_RATE_REDUCE_PERIOD,
	F_INITIAL_ALPHA,
	F_GD,
	F_NP_MIN_TIME,
	F_NP_CNP_DSCP,
	F_NP_CNP_PRIO_MODE,
	F_NP_CNP_PRIO,
	F_COUNT,
};

_Static_assert(F_COUNT <= RTUNE_SURF_MAX_FILES, "mlx5 files fit the masks");

/* cong.c's mlx5_ib_dbg_cc_name[] order (the rtt_resp_dscp* pair, which
 * belongs to RTT-based congestion control, is left out). */
static const char *const files[F_COUNT] = {
	"rp_clamp_tgt_rate", "rp_clamp_tgt_rate_ati", "rp_time_reset", "rp_byte_reset",
	"rp_threshold", "rp_ai_rate", "rp_max_rate", "rp_hai_rate", "rp_min_dec_fac",
	"rp_min_rate", "rp_rate_to_set_on_first_cnp", "rp_dce_tcp_g", "rp_dce_tcp_rtt",
	"rp_rate_reduce_monitor_period", "rp_initial_alpha_value", "rp_gd",
	"np_min_time_between_cnps", "np_cnp_dscp", "np_cnp_prio_mode", "np_cnp_prio",
};

#define NO_PRIO_ENABLE \
	"upstream mlx5 has no per-priority congestion-control switch (firmware takes it " \
	"from NVconfig ROCE_CC_PRIO_MASK_P1, set with mstconfig for the next boot; " \
	"MLNX_OFED has ecn/roce_rp|roce_np/enable/<prio>, which rocetune uses when present)"

static const struct rtune_surf_map map[RTUNE_P_COUNT] = {
	[RTUNE_P_RP_ENABLED_PRIOS]		= { -1, NO_PRIO_ENABLE },
	[RTUNE_P_NP_ENABLED_PRIOS]		= { -1, NO_PRIO_ENABLE },
	[RTUNE_P_ECN_ENABLED_PRIOS]		= { -1, NO_PRIO_ENABLE },
	[RTUNE_P_ECN_CODEPOINT]			= { -1, "mlx5 has no knob for the ECN codepoint of RoCE data packets" },
	[RTUNE_P_RP_MIN_RATE_KBPS]		= { F_MIN_RATE, NULL },
	[RTUNE_P_RP_MAX_RATE_KBPS]		= { F_MAX_RATE, NULL },
	[RTUNE_P_RP_INITIAL_RATE_KBPS]		= { -1, "mlx5 firmware starts a QP at its maximum rate; the initial rate with start-up doubling is rocetune's software DCQCN only" },
	[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS]	= { F_RATE_FIRST_CNP, NULL },
	[RTUNE_P_RP_SENT_RATE_WINDOW_US]	= { -1, "mlx5 firmware cuts from its rate limiter's rate; the sent-rate window is rocetune's software DCQCN only" },
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
	[RTUNE_P_RP_PATH_SHARE_PCT]		= { -1, "mlx5 firmware runs each QP on its own; holding a QP above its path's mean rate is rocetune's software DCQCN only" },
	[RTUNE_P_NP_MIN_CNP_INTERVAL_US]	= { F_NP_MIN_TIME, NULL },
	[RTUNE_P_NP_CNP_DSCP]			= { F_NP_CNP_DSCP, NULL },
	[RTUNE_P_NP_CNP_PRIO]			= { F_NP_CNP_PRIO, NULL },
	[RTUNE_P_NP_CNP_ECN]			= { -1, "mlx5 has no knob for the ECN bits of the CNPs it sends" },
};

static bool is_rate(enum rtune_param_id id)
{
	return id == RTUNE_P_RP_MIN_RATE_KBPS || id == RTUNE_P_RP_MAX_RATE_KBPS ||
	       id == RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS ||
	       id == RTUNE_P_RP_ADDITIVE_INCREASE_KBPS || id == RTUNE_P_RP_HYPER_INCREASE_KBPS;
}

int rtune_mlx5_to_fw(enum rtune_param_id id, uint32_t v, uint32_t *r, const char *file,
		     char *why, size_t wlen)
{
	*r = v;
	if (is_rate(id)) {
		/* kb/s to Mb/s, exactly */
		if (v % 1000) {
			snprintf(why, wlen, "mlx5 rates are whole Mb/s (%s), and %u kb/s is not",
				 file, v);
			return -ERANGE;
		}
		*r = v / 1000;
	}
	switch (id) {
	case RTUNE_P_RP_ALPHA_GAIN_1024THS:
		/* alpha = (G/1024) alpha + (1024 - G)/1024 on a CNP: g = 1024 - G */
		*r = 1024 - v;
		break;
	case RTUNE_P_RP_INITIAL_ALPHA_1024THS:
		if (v < 1 || v > 1023) {
			snprintf(why, wlen, "%s is 1..1023 (1/1024)", file);
			return -ERANGE;
		}
		break;
	case RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US:
		if (v > 131071) {
			snprintf(why, wlen, "%s is 1..131071 us", file);
			return -ERANGE;
		}
		break;
	case RTUNE_P_RP_RATE_CUT_SHIFT:
		/* rate -= rate * alpha / 2^gd, alpha in 1/1024: gd = shift + 10 */
		if (v > 1) {
			snprintf(why, wlen, "%s is 10..11, i.e. a cut of alpha/1 or alpha/2 only",
				 file);
			return -ERANGE;
		}
		*r = v + 10;
		break;
	case RTUNE_P_RP_RATE_REDUCE_PERIOD_US:
		if (!v) {
			snprintf(why, wlen,
				 "%s is at least 1 us: 0 (cut on every CNP) has no equivalent", file);
			return -ERANGE;
		}
		break;
	default:
		break;
	}
	return 0;
}

bool rtune_mlx5_from_fw(enum rtune_param_id id, uint64_t *v)
{
	if (is_rate(id))
		*v *= 1000;
	switch (id) {
	case RTUNE_P_RP_ALPHA_GAIN_1024THS:
		*v = 1024 - (*v > 1024 ? 1024 : *v);
		break;
	case RTUNE_P_RP_RATE_CUT_SHIFT:
		if (*v < 10)
			return false;
		*v -= 10;
		break;
	default:
		break;
	}
	return true;
}

static int to_raw(enum rtune_param_id id, uint32_t v, uint32_t *raw, uint32_t *fmask,
		  char *why, size_t wlen)
{
	int f = map[id].file;
	uint32_t r;

	if (f < 0)
		return -EOPNOTSUPP;
	if (rtune_mlx5_to_fw(id, v, &r, files[f], why, wlen))
		return -ERANGE;
	if (id == RTUNE_P_NP_CNP_PRIO) {
		/* an explicit 802.1p priority: np_cnp_prio_mode 0 */
		raw[F_NP_CNP_PRIO_MODE] = 0;
		*fmask |= 1u << F_NP_CNP_PRIO_MODE;
	}
	raw[f] = r;
	*fmask |= 1u << f;
	return 0;
}

static bool decode(enum rtune_param_id id, const uint32_t *raw, uint32_t valid, uint64_t *v)
{
	/* mode 1: the port's priority, not one of ours */
	if (id == RTUNE_P_NP_CNP_PRIO &&
	    (!(valid & (1u << F_NP_CNP_PRIO_MODE)) || raw[F_NP_CNP_PRIO_MODE]))
		return false;
	return rtune_mlx5_from_fw(id, v);
}

static int writes(const uint32_t *from, const uint32_t *to, uint32_t mask, int *order)
{
	/* np_cnp_prio before np_cnp_prio_mode: the first resets the second */
	static const int base[F_COUNT] = {
		F_CLAMP_TGT_RATE, F_CLAMP_TGT_RATE_ATI, F_TIME_RESET, F_BYTE_RESET,
		F_THRESHOLD, F_AI_RATE, F_MAX_RATE, F_HAI_RATE, F_MIN_DEC_FAC, F_MIN_RATE,
		F_RATE_FIRST_CNP, F_DCE_TCP_G, F_DCE_TCP_RTT, F_RATE_REDUCE_PERIOD,
		F_INITIAL_ALPHA, F_GD, F_NP_MIN_TIME, F_NP_CNP_DSCP, F_NP_CNP_PRIO,
		F_NP_CNP_PRIO_MODE,
	};
	const uint32_t prio = 1u << F_NP_CNP_PRIO, mode = 1u << F_NP_CNP_PRIO_MODE;
	bool min_first;
	uint32_t w = 0;
	int i, n = 0;

	for (i = 0; i < F_COUNT; i++)
		if ((mask & (1u << i)) && from[i] != to[i])
			w |= 1u << i;
	/*
	 * Mode 0 is reached by writing np_cnp_prio, never np_cnp_prio_mode:
	 * the driver sends cnp_802p_prio 0 along with a mode write, under the
	 * same field_select bit, and what firmware makes of it is unknown.
	 */
	if ((w & mode) && !to[F_NP_CNP_PRIO_MODE] && (mask & prio)) {
		w |= prio;
		w &= ~mode;
	}
	/* a write of np_cnp_prio resets the mode: write it again after */
	if ((w & prio) && (mask & mode) && to[F_NP_CNP_PRIO_MODE])
		w |= mode;
	/* never a maximum below the minimum in between */
	min_first = (w & (1u << F_MIN_RATE)) && to[F_MAX_RATE] && to[F_MAX_RATE] < from[F_MIN_RATE];
	if (min_first)
		order[n++] = F_MIN_RATE;
	for (i = 0; i < F_COUNT; i++) {
		if (!(w & (1u << base[i])) || (min_first && base[i] == F_MIN_RATE))
			continue;
		order[n++] = base[i];
	}
	return n;
}

static uint32_t after_write(int w, uint32_t v, int file, uint32_t cur)
{
	if (w == file)
		return v;
	if (w == F_NP_CNP_PRIO && file == F_NP_CNP_PRIO_MODE)
		return 0;
	return cur;
}

const struct rtune_surface rtune_surface_mlx5 = {
	.name = "mlx5",
	.driver = "mlx5_core",
	.subdir = "cc_params",
	.backend = "mlx5-debugfs",
	.root = RTUNE_SURF_DEBUGFS_PCI,
	.nfiles = F_COUNT,
	.files = files,
	.map = map,
	.to_raw = to_raw,
	.decode = decode,
	.writes = writes,
	.after_write = after_write,
};
