// SPDX-License-Identifier: GPL-2.0
/*
 * Intel's out-of-tree irdma surface (E810): configfs irdma/<ibdev>/, a
 * group the user makes with mkdir and must remove again (its item type
 * pins the module: irdma cannot be unloaded while one exists). From
 * irdma's src/irdma/configfs.c (irdma 1.14.33):
 *
 * - irdma_vsi_make_group() accepts only a name irdma knows
 *   (irdma_find_device_by_name(): ENODEV otherwise) and gives a RoCE
 *   device irdma_roce_vsi_attrs[];
 * - roce_dcqcn_enable, roce_dctcp_enable, roce_timely_enable print "%d\n"
 *   and take kstrtobool (irdma_configfs_set_vsi_attr()); the value is a
 *   field of the device, kept after rmdir, and copied into a QP's context
 *   when the QP is created (verbs.c: irdma_roce_fill_and_set_qpctx_info())
 *   so QPs that exist keep the old one;
 * - cnp_up_override prints "%d\n", takes kstrtou8 base 0, at most 0x3f.
 *
 * DCQCN's parameters are module parameters read at load (main.c:
 * dcqcn_enable, dcqcn_cc_cfg_valid, dcqcn_min_dec_factor,
 * dcqcn_min_rate_MBps, dcqcn_F, dcqcn_T, dcqcn_B, dcqcn_rai_factor,
 * dcqcn_hai_factor, dcqcn_rreduce_mperiod, all 0444): refused, with why.
 * Documentation/hardware.rst.
 */
#include <errno.h>
#include <stdio.h>
#include "surface.h"

enum {
	F_DCQCN,
	F_DCTCP,
	F_TIMELY,
	F_CNP_UP_OVERRIDE,
	F_COUNT,
};

static const char *const files[F_COUNT] = {
	"roce_dcqcn_enable", "roce_dctcp_enable", "roce_timely_enable", "cnp_up_override",
};

#define MODPARAM(p) \
	"irdma takes it at load only, as the module parameter " p " (with dcqcn_enable=1 " \
	"dcqcn_cc_cfg_valid=1): a module parameter, needs a reload of irdma, which rocetune does not do"
#define MSS(p) \
	"irdma's DCQCN is window based: " p " is in MSS added to the window, not a rate, " \
	"and a module parameter read at load"
#define NO_KNOB "irdma has no such knob"

static const struct rtune_surf_map map[RTUNE_P_COUNT] = {
	[RTUNE_P_RP_ENABLED_PRIOS]		= { F_DCQCN, NULL },
	[RTUNE_P_NP_ENABLED_PRIOS]		= { -1, "irdma has one DCQCN switch, roce_dcqcn_enable (rp_enabled_prios); no separate notification point switch" },
	[RTUNE_P_ECN_ENABLED_PRIOS]		= { -1, NO_KNOB },
	[RTUNE_P_ECN_CODEPOINT]			= { -1, NO_KNOB },
	[RTUNE_P_RP_MIN_RATE_KBPS]		= { -1, MODPARAM("dcqcn_min_rate_MBps") },
	[RTUNE_P_RP_MAX_RATE_KBPS]		= { -1, NO_KNOB },
	[RTUNE_P_RP_INITIAL_RATE_KBPS]		= { -1, NO_KNOB },
	[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS]	= { -1, NO_KNOB },
	[RTUNE_P_RP_SENT_RATE_WINDOW_US]	= { -1, NO_KNOB },
	[RTUNE_P_RP_ALPHA_GAIN_1024THS]		= { -1, NO_KNOB },
	[RTUNE_P_RP_INITIAL_ALPHA_1024THS]	= { -1, NO_KNOB },
	[RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US]	= { -1, NO_KNOB },
	[RTUNE_P_RP_RATE_CUT_SHIFT]		= { -1, NO_KNOB },
	[RTUNE_P_RP_MIN_RATE_FACTOR_PCT]	= { -1, MODPARAM("dcqcn_min_dec_factor") },
	[RTUNE_P_RP_RATE_REDUCE_PERIOD_US]	= { -1, MODPARAM("dcqcn_rreduce_mperiod") },
	[RTUNE_P_RP_CLAMP_TARGET_RATE]		= { -1, NO_KNOB },
	[RTUNE_P_RP_CLAMP_TARGET_AFTER_TIMER]	= { -1, NO_KNOB },
	[RTUNE_P_RP_RATE_INCREASE_TIMER_US]	= { -1, MODPARAM("dcqcn_T") },
	[RTUNE_P_RP_BYTE_COUNTER_BYTES]		= { -1, MODPARAM("dcqcn_B") },
	[RTUNE_P_RP_FAST_RECOVERY_STAGES]	= { -1, MODPARAM("dcqcn_F") },
	[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS]	= { -1, MSS("dcqcn_rai_factor") },
	[RTUNE_P_RP_HYPER_INCREASE_KBPS]	= { -1, MSS("dcqcn_hai_factor") },
	[RTUNE_P_RP_PATH_SHARE_PCT]		= { -1, NO_KNOB },
	[RTUNE_P_NP_MIN_CNP_INTERVAL_US]	= { -1, NO_KNOB },
	[RTUNE_P_NP_CNP_DSCP]			= { -1, NO_KNOB },
	[RTUNE_P_NP_CNP_PRIO]			= { -1, "irdma's cnp_up_override (0..0x3f, used with up_map_enable) is not documented as a priority; rocetune leaves it alone" },
	[RTUNE_P_NP_CNP_ECN]			= { -1, NO_KNOB },
};

static int to_raw(enum rtune_param_id id, uint32_t v, uint32_t *raw, uint32_t *fmask,
		  char *why, size_t wlen)
{
	int f = map[id].file;

	if (f < 0)
		return -EOPNOTSUPP;
	/* one switch for the device: every priority or none */
	if (v != 0 && v != 0xff) {
		snprintf(why, wlen,
			 "irdma's roce_dcqcn_enable is one switch for every priority: 0-7 or none only");
		return -ERANGE;
	}
	raw[f] = v ? 1 : 0;
	*fmask |= 1u << f;
	return 0;
}

static bool decode(enum rtune_param_id id, const uint32_t *raw, uint32_t valid, uint64_t *v)
{
	(void)id;
	(void)raw;
	(void)valid;
	if (*v > 1)
		return false;
	*v = *v ? 0xff : 0;
	return true;
}

const struct rtune_surface rtune_surface_irdma = {
	.name = "irdma",
	.driver = "ice",
	.subdir = "",
	.backend = "irdma-configfs",
	.test_env = RTUNE_ENV_TEST_IRDMA_CONFIGFS,
	.root = RTUNE_SURF_CONFIGFS_GROUP,
	.nfiles = F_COUNT,
	.files = files,
	.applies = "irdma copies roce_dcqcn_enable into a QP's context when the QP is created: "
		   "new QPs only, QPs that exist keep their setting until they are re-created",
	.map = map,
	.to_raw = to_raw,
	.decode = decode,
};
