// SPDX-License-Identifier: GPL-2.0
/*
 * Broadcom's out-of-tree bnxt_re surface: configfs bnxt_re/<ibdev>/, a
 * group the user makes with mkdir and must remove before bnxt_re can be
 * unloaded, with the congestion-control attributes in ports/1/cc/. From
 * bnxt_re's configfs.c (out-of-tree driver 233.2.77.9):
 *
 * - make_bnxt_re_dev() accepts only an RDMA device bnxt_re has (ENODEV);
 *   make_bnxt_re_cc() gives a PF a cc/ group, a VF none;
 * - every attribute of the base set (bnxt_re_cc_attrs[]) prints the
 *   driver's cached value with "%#x\n" and parses a store with
 *   sscanf("%x") (hex, with or without 0x; rocetune always writes 0x);
 *   a store only stages: it caches the value and sets a bit in a pending
 *   mask;
 * - "echo 0x1 > apply" sends the pending fields to the firmware
 *   (apply_store()), and clears the mask even when that fails (EINVAL):
 *   the files then show values the firmware does not have. With CC off
 *   (ecn_enable 0) it first sets the CNP's DSCP and priority to 0
 *   (bnxt_re_program_cnp_dcb_values()). Reading apply prints the base set
 *   as the firmware has it (apply_show()), which is what rocetune reads
 *   back after an apply.
 *
 * Broadcom's rate control is its own algorithm, as on the upstream
 * surface: only the switch and the markings map (Documentation/
 * hardware.rst has the table). The other files are read, kept in the
 * snapshot and restored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "surface.h"

enum {
	F_ECN_ENABLE,
	F_ECN_MARKING,
	F_CC_MODE,
	F_CNP_DSCP,
	F_CNP_PRIO,
	F_ROCE_DSCP,
	F_ROCE_PRIO,
	F_G,
	F_INIT_CR,
	F_INIT_TR,
	F_INACT_TH,
	F_NPH_PER_STATE,
	F_TIME_PPH,
	F_PKTS_PPH,
	F_RTT,
	F_TCP_CP,
	F_DISABLE_PRIO_VLAN_TX,
	F_COUNT,
};

_Static_assert(F_COUNT <= RTUNE_SURF_MAX_FILES, "bnxt_re files fit the masks");

#define CC "ports/1/cc/"
static const char *const files[F_COUNT] = {
	CC "ecn_enable", CC "ecn_marking", CC "cc_mode", CC "cnp_dscp", CC "cnp_prio",
	CC "roce_dscp", CC "roce_prio", CC "g", CC "init_cr", CC "init_tr", CC "inact_th",
	CC "nph_per_state", CC "time_pph", CC "pkts_pph", CC "rtt", CC "tcp_cp",
	CC "disable_prio_vlan_tx",
};

#define OWN_ALGO \
	"bnxt_re's rate control is Broadcom's own algorithm (cc_mode, g, init_cr, rtt, ...), " \
	"with no documented DCQCN equivalent"
#define EXT_ONLY(f) \
	f " exists on P5/P7 chips only (the extended attribute set), which rocetune does not drive"

static const struct rtune_surf_map map[RTUNE_P_COUNT] = {
	[RTUNE_P_RP_ENABLED_PRIOS]		= { F_ECN_ENABLE, NULL },
	[RTUNE_P_NP_ENABLED_PRIOS]		= { -1, "bnxt_re has one switch for both points, ecn_enable (rp_enabled_prios)" },
	[RTUNE_P_ECN_ENABLED_PRIOS]		= { -1, "bnxt_re marks every RoCE priority alike (ecn_marking, i.e. ecn_codepoint); no per-priority switch" },
	[RTUNE_P_ECN_CODEPOINT]			= { F_ECN_MARKING, NULL },
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
	[RTUNE_P_NP_MIN_CNP_INTERVAL_US]	= { -1, EXT_ONLY("min_time_bet_cnp") },
	[RTUNE_P_NP_CNP_DSCP]			= { F_CNP_DSCP, NULL },
	[RTUNE_P_NP_CNP_PRIO]			= { F_CNP_PRIO, NULL },
	[RTUNE_P_NP_CNP_ECN]			= { -1, EXT_ONLY("cnp_ecn") },
};

static int to_raw(enum rtune_param_id id, uint32_t v, uint32_t *raw, uint32_t *fmask,
		  char *why, size_t wlen)
{
	int f = map[id].file;

	if (f < 0)
		return -EOPNOTSUPP;
	if (id == RTUNE_P_RP_ENABLED_PRIOS) {
		/* one switch for the device: every priority or none */
		if (v != 0 && v != 0xff) {
			snprintf(why, wlen,
				 "bnxt_re's ecn_enable is one switch for every priority: 0-7 or none only");
			return -ERANGE;
		}
		v = v ? 1 : 0;
	}
	/* ecn_marking: 1 ECT(1), 2 ECT(0), rocetune's numbers too */
	raw[f] = v;
	*fmask |= 1u << f;
	return 0;
}

static bool decode(enum rtune_param_id id, const uint32_t *raw, uint32_t valid, uint64_t *v)
{
	(void)raw;
	(void)valid;
	/* is_cc_enabled(): any value but 0 */
	if (id == RTUNE_P_RP_ENABLED_PRIOS)
		*v = *v ? 0xff : 0;
	return true;
}

static int check(const uint32_t *raw, uint32_t fmask, char *why, size_t wlen)
{
	const uint32_t cnp = (1u << F_CNP_DSCP) | (1u << F_CNP_PRIO);

	if ((fmask & cnp) && !raw[F_ECN_ENABLE] && (raw[F_CNP_DSCP] || raw[F_CNP_PRIO])) {
		snprintf(why, wlen,
			 "with congestion control off (ecn_enable 0) an apply resets cnp_dscp and cnp_prio to 0 (bnxt_re_program_cnp_dcb_values()): set np_cnp_dscp/np_cnp_prio with rp_enabled_prios = 0-7");
		return -ERANGE;
	}
	return 0;
}

static void after_commit(uint32_t *raw)
{
	if (!raw[F_ECN_ENABLE]) {
		raw[F_CNP_DSCP] = 0;
		raw[F_CNP_PRIO] = 0;
	}
}

/* apply_show()'s lines: "(key) ... : value" in the driver's words */
static bool dump_value(const char *key, const char *val, int *file, uint32_t *v)
{
	static const struct {
		const char *key;
		int file;
	} keys[] = {
		{ "ecn_enable", F_ECN_ENABLE }, { "ecn_marking", F_ECN_MARKING },
		{ "cc_mode", F_CC_MODE }, { "g", F_G }, { "inact_th", F_INACT_TH },
		{ "init_cr", F_INIT_CR }, { "init_tr", F_INIT_TR },
		{ "roce_prio", F_ROCE_PRIO }, { "roce_dscp", F_ROCE_DSCP },
		{ "cnp_prio", F_CNP_PRIO }, { "cnp_dscp", F_CNP_DSCP },
	};
	static const struct {
		const char *word;
		uint32_t v;
	} words[] = {
		{ "Enabled", 1 }, { "Disabled", 0 }, { "Not-ECT", 0 }, { "ECT(1)", 1 },
		{ "ECT(0)", 2 }, { "DCQCN-D", 0 }, { "TCP", 1 }, { "DCQCN-P", 1 },
	};
	unsigned long x;
	char *end;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].key, key))
			break;
	if (i == sizeof(keys) / sizeof(keys[0]))
		return false;
	*file = keys[i].file;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!strcmp(words[i].word, val)) {
			*v = words[i].v;
			return true;
		}
	}
	/* "%u", "%d", "%#x", "%u usec" */
	if (*val < '0' || *val > '9')
		return false;
	errno = 0;
	x = strtoul(val, &end, 0);
	if (errno || x > UINT32_MAX || (*end && strcmp(end, " usec")))
		return false;
	*v = (uint32_t)x;
	return true;
}

const struct rtune_surface rtune_surface_bnxt_re_oot = {
	.name = "bnxt_re_oot",
	.driver = "bnxt_en",
	.subdir = "",
	.backend = "bnxt_re-configfs",
	.root = RTUNE_SURF_CONFIGFS_GROUP,
	.nfiles = F_COUNT,
	.files = files,
	.map = map,
	.to_raw = to_raw,
	.decode = decode,
	.group = "bnxt_re",
	.test_env = RTUNE_ENV_TEST_BNXT_RE_CONFIGFS,
	.hex = true,
	.commit = CC "apply",
	.dump = CC "apply",
	.dump_value = dump_value,
	.after_commit = after_commit,
	.check = check,
};
