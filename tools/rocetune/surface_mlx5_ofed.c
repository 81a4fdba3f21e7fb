// SPDX-License-Identifier: GPL-2.0
/*
 * The MLNX_OFED mlx5 surface: sysfs /sys/class/net/<netdev>/ecn/, created
 * by MLNX_OFED's drivers/net/ethernet/mellanox/mlx5/core/en_sysfs.c
 * (mlx5e_fill_attributes(), mlx5e_fill_rp_attributes(),
 * mlx5e_fill_np_attributes()) with the handlers of en_ecn.c:
 *
 *   ecn/roce_rp/enable/<0..7>   per-priority reaction point switch
 *   ecn/roce_rp/<16 parameters> firmware's own field names
 *   ecn/roce_np/enable/<0..7>   per-priority notification point switch
 *   ecn/roce_np/<3 parameters>
 *
 * A read is a QUERY_CONG_PARAMS (QUERY_CONG_STATUS for enable/N) printed
 * "%d\n"; a write is parsed with sscanf("%d"), its result unchecked, and
 * sent at once as one MODIFY_CONG_PARAMS with a one-field field_select
 * (MODIFY_CONG_STATUS for enable/N). Writing 1 to an enable/N that reads
 * 1 fails with EPERM, so only priorities that differ are written. The
 * files are 0644 on a PF and 0444 on a VF (set_kobj_mode()).
 *
 * The fields are the ones the upstream debugfs cc_params/ writes, so the
 * conversions are surface_mlx5.c's (rtune_mlx5_to_fw()). Two differences:
 * the per-priority switches exist here, and there is no cnp_prio_mode
 * file (cnp_802p_prio is written alone). Documentation/hardware.rst.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include "surface.h"

enum {
	F_CLAMP_TGT_RATE,
	F_CLAMP_TGT_RATE_ATI,
	F_TIME_RESET,
	F_BYTE_RESET,
	F_THRESHOLD,
	F_MAX_RATE,
	F_AI_RATE,
	F_HAI_RATE,
	F_GD,
	F_MIN_DEC_FAC,
	F_MIN_RATE,
	F_RATE_FIRST_CNP,
	F_DCE_TCP_G,
	F_DCE_TCP_RTT,
	F_RATE_REDUCE_PERIOD,
	F_INITIAL_ALPHA,
	F_NP_MIN_TIME,
	F_NP_CNP_DSCP,
	F_NP_CNP_PRIO,
	F_RP_ENABLE,
	F_NP_ENABLE,
	F_COUNT,
};

_Static_assert(F_COUNT <= RTUNE_SURF_MAX_FILES, "mlx5_ofed files fit the masks");

/* en_sysfs.c's creation order; the two enable directories last */
static const char *const files[F_COUNT] = {
	"roce_rp/clamp_tgt_rate", "roce_rp/clamp_tgt_rate_after_time_inc",
	"roce_rp/rpg_time_reset", "roce_rp/rpg_byte_reset", "roce_rp/rpg_threshold",
	"roce_rp/rpg_max_rate", "roce_rp/rpg_ai_rate", "roce_rp/rpg_hai_rate",
	"roce_rp/rpg_gd", "roce_rp/rpg_min_dec_fac", "roce_rp/rpg_min_rate",
	"roce_rp/rate_to_set_on_first_cnp", "roce_rp/dce_tcp_g", "roce_rp/dce_tcp_rtt",
	"roce_rp/rate_reduce_monitor_period", "roce_rp/initial_alpha_value",
	"roce_np/min_time_between_cnps", "roce_np/cnp_dscp", "roce_np/cnp_802p_prio",
	"roce_rp/enable", "roce_np/enable",
};

static const struct rtune_surf_map map[RTUNE_P_COUNT] = {
	[RTUNE_P_RP_ENABLED_PRIOS]		= { F_RP_ENABLE, NULL },
	[RTUNE_P_NP_ENABLED_PRIOS]		= { F_NP_ENABLE, NULL },
	[RTUNE_P_ECN_ENABLED_PRIOS]		= { -1, "MLNX_OFED has no switch of its own for sending ECN-capable packets: its per-priority switches are roce_rp/enable and roce_np/enable (rp_enabled_prios, np_enabled_prios)" },
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

static int to_raw(enum rtune_param_id id, uint32_t v, uint32_t *raw, uint32_t *fmask,
		  char *why, size_t wlen)
{
	int f = map[id].file;
	uint32_t r;

	if (f < 0)
		return -EOPNOTSUPP;
	if (rtune_mlx5_to_fw(id, v, &r, files[f], why, wlen))
		return -ERANGE;
	/* the driver parses "%d" into an int and prints the field "%d" */
	if (r > INT_MAX) {
		snprintf(why, wlen, "MLNX_OFED reads and writes %s as a signed int: at most %d",
			 files[f], INT_MAX);
		return -ERANGE;
	}
	raw[f] = r;
	*fmask |= 1u << f;
	return 0;
}

static bool decode(enum rtune_param_id id, const uint32_t *raw, uint32_t valid, uint64_t *v)
{
	(void)raw;
	(void)valid;
	return rtune_mlx5_from_fw(id, v);
}

static int writes(const uint32_t *from, const uint32_t *to, uint32_t mask, int *order)
{
	bool min_first;
	uint32_t w = 0;
	int i, n = 0;

	for (i = 0; i < F_COUNT; i++)
		if ((mask & (1u << i)) && from[i] != to[i])
			w |= 1u << i;
	/* never a maximum below the minimum in between */
	min_first = (w & (1u << F_MIN_RATE)) && to[F_MAX_RATE] && to[F_MAX_RATE] < from[F_MIN_RATE];
	if (min_first)
		order[n++] = F_MIN_RATE;
	/* parameters first, then the priorities that use them */
	for (i = 0; i < F_COUNT; i++) {
		if (!(w & (1u << i)) || (min_first && i == F_MIN_RATE))
			continue;
		order[n++] = i;
	}
	return n;
}

const struct rtune_surface rtune_surface_mlx5_ofed = {
	.name = "mlx5_ofed",
	.driver = "mlx5_core",
	.subdir = "ecn",
	.backend = "mlx5-ofed-sysfs",
	.root = RTUNE_SURF_SYSFS_NET,
	.nfiles = F_COUNT,
	.files = files,
	.groups = (1u << F_RP_ENABLE) | (1u << F_NP_ENABLE),
	.ro_by_mode = true,
	.map = map,
	.to_raw = to_raw,
	.decode = decode,
	.writes = writes,
};
