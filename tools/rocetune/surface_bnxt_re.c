// SPDX-License-Identifier: GPL-2.0
/*
 * The upstream bnxt_re surface: debugfs bnxt_re/<PCI BDF>/cc_config/,
 * created by drivers/infiniband/hw/bnxt_re/debugfs.c:
 * bnxt_re_debugfs_add_pdev(). A read queries the firmware and prints
 * "%d\n" (bnxt_re_cc_config_get()); a write is parsed with kstrtou32 base
 * 0 and sent at once, and the firmware's answer is ignored
 * (bnxt_re_configure_cc()), so only the read-back can tell a refused
 * write. tx_queue cannot be read (EINVAL) or written (EOPNOTSUPP) and is
 * left out.
 *
 * Broadcom's rate control is its own algorithm: of rocetune's parameters
 * only the markings have an equivalent whose meaning the sources show
 * (Documentation/hardware.rst).
 */
#include <errno.h>
#include <stdio.h>
#include "surface.h"

enum {
	F_ENABLE_CC,
	F_G,
	F_NPH_PER_STATE,
	F_INIT_CR,
	F_INIT_TR,
	F_TOS_ECN,
	F_TOS_DSCP,
	F_ALT_VLAN_PCP,
	F_ALT_VLAN_DSCP,
	F_RTT,
	F_CC_MODE,
	F_TCP_CP,
	F_INACT,
	F_COUNT,
};

/* bnxt_re_cc_gen0_name[] order, without tx_queue */
static const char *const files[F_COUNT] = {
	"enable_cc", "run_avg_weight_g", "num_phase_per_state", "init_cr", "init_tr",
	"tos_ecn", "tos_dscp", "alt_vlan_pcp", "alt_vlan_dscp", "rtt", "cc_mode", "tcp_cp",
	"inactivity_cp",
};

#define OWN_ALGO \
	"bnxt_re's rate control is Broadcom's own algorithm (cc_mode, run_avg_weight_g, " \
	"init_cr, rtt, ...), with no documented DCQCN equivalent"
#define NO_PRIO_ENABLE \
	"bnxt_re has one device-wide enable_cc, no per-priority switch"

static const struct rtune_surf_map map[RTUNE_P_COUNT] = {
	[RTUNE_P_RP_ENABLED_PRIOS]		= { -1, NO_PRIO_ENABLE },
	[RTUNE_P_NP_ENABLED_PRIOS]		= { -1, NO_PRIO_ENABLE },
	[RTUNE_P_ECN_ENABLED_PRIOS]		= { -1, NO_PRIO_ENABLE },
	[RTUNE_P_ECN_CODEPOINT]			= { F_TOS_ECN, NULL },
	[RTUNE_P_RP_MIN_RATE_KBPS]		= { -1, OWN_ALGO },
	[RTUNE_P_RP_MAX_RATE_KBPS]		= { -1, OWN_ALGO },
	[RTUNE_P_RP_INITIAL_RATE_KBPS]		= { -1, OWN_ALGO },
	[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS]	= { -1, OWN_ALGO },
	[RTUNE_P_RP_SENT_RATE_WINDOW_US]	= { -1, OWN_ALGO },
	[RTUNE_P_RP_ALPHA_GAIN_1024THS]		= { -1, OWN_ALGO },
	[RTUNE_P_RP_INITIAL_ALPHA_1024THS]	= { -1, OWN_ALGO },
	[RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US]	= { -1, OWN_ALGO },
	[RTUNE_P_RP_RATE_CUT_SHIFT]		= { -1, OWN_ALGO },
	[RTUNE_P_RP_MIN_RATE_FACTOR_PCT]	= { -1, OWN_ALGO },
	[RTUNE_P_RP_RATE_REDUCE_PERIOD_US]	= { -1, OWN_ALGO },
	[RTUNE_P_RP_CLAMP_TARGET_RATE]		= { -1, OWN_ALGO },
	[RTUNE_P_RP_CLAMP_TARGET_AFTER_TIMER]	= { -1, OWN_ALGO },
	[RTUNE_P_RP_RATE_INCREASE_TIMER_US]	= { -1, OWN_ALGO },
	[RTUNE_P_RP_BYTE_COUNTER_BYTES]		= { -1, OWN_ALGO },
	[RTUNE_P_RP_FAST_RECOVERY_STAGES]	= { -1, OWN_ALGO },
	[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS]	= { -1, OWN_ALGO },
	[RTUNE_P_RP_HYPER_INCREASE_KBPS]	= { -1, OWN_ALGO },
	[RTUNE_P_RP_PATH_SHARE_PCT]		= { -1, OWN_ALGO },
	[RTUNE_P_NP_MIN_CNP_INTERVAL_US]	= { -1, "min_time_bet_cnp is in the out-of-tree driver's configfs only" },
	[RTUNE_P_NP_CNP_DSCP]			= { F_ALT_VLAN_DSCP, NULL },
	[RTUNE_P_NP_CNP_PRIO]			= { F_ALT_VLAN_PCP, NULL },
	[RTUNE_P_NP_CNP_ECN]			= { -1, "cnp_ecn is in the out-of-tree driver's configfs only" },
};

static int to_raw(enum rtune_param_id id, uint32_t v, uint32_t *raw, uint32_t *fmask,
		  char *why, size_t wlen)
{
	int f = map[id].file;

	(void)why;
	(void)wlen;
	if (f < 0)
		return -EOPNOTSUPP;
	/* ECN field of the IP TOS byte, as rocetune numbers it: 1 ECT(1), 2 ECT(0) */
	raw[f] = v;
	*fmask |= 1u << f;
	return 0;
}

const struct rtune_surface rtune_surface_bnxt_re = {
	.name = "bnxt_re",
	.driver = "bnxt_en",
	.subdir = "cc_config",
	.backend = "bnxt_re-debugfs",
	.root = RTUNE_SURF_DEBUGFS_PCI,
	.nfiles = F_COUNT,
	.files = files,
	.map = map,
	.to_raw = to_raw,
};
