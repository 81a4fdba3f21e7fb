/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one list of congestion-control parameters. Everything per parameter
 * is generated from it: enum rtune_param_id and rtune_param_descs[] (this
 * directory, shared with userspace), the two presets' value sets, and the
 * module's configfs files staged/<name> and active/<name>. Adding a
 * parameter is one entry here plus what it means (the DCQCN core or the
 * datapath, Documentation/configfs.rst); the order of the entries is the
 * order of the enum, of cc/params and of the configfs directories.
 *
 * X(ID, name, unit, kind, min, max, paper, connectx, help)
 *   ID        enum rtune_param_id suffix: RTUNE_P_<ID>
 *   name      the configfs file and profile key (a bare token, so that the
 *             module can paste it into function names)
 *   unit      shown in cc/params; also in the name where it is a unit
 *   kind      rtune_param_kind suffix: U32, BOOL or PRIO_MASK
 *   min, max  valid range, inclusive
 *   paper     value in the "paper" preset: DCQCN as published (Zhu et al.,
 *             SIGCOMM 2015) and in its author's reference simulation
 *   connectx  value in the "connectx" preset: what NVIDIA ConnectX firmware
 *             ships (mlxconfig defaults), translated to these units
 *   help      one line for cc/params readers and the simulator's listing
 */
#ifndef _ROCETUNE_CORE_PARAMS_LIST_H
#define _ROCETUNE_CORE_PARAMS_LIST_H

#define RTUNE_RATE_MAX_KBPS	1600000000u	/* 1.6 Tb/s: above any port today */
#define RTUNE_PERIOD_MAX_US	10000000u	/* 10 s */

#define RTUNE_PARAMS(X)								\
	/* Which 802.1p priorities the reaction/notification points act on. */	\
	X(RP_ENABLED_PRIOS, rp_enabled_prios, "priorities", PRIO_MASK,		\
	  0, 0xff, 0xff, 0xff,							\
	  "priorities on which the reaction point adjusts the sending rate on CNPs") \
	X(NP_ENABLED_PRIOS, np_enabled_prios, "priorities", PRIO_MASK,		\
	  0, 0xff, 0xff, 0xff,							\
	  "priorities on which the notification point answers CE marks with CNPs") \
	/* Priorities whose RoCE packets are sent ECN-capable. */		\
	X(ECN_ENABLED_PRIOS, ecn_enabled_prios, "priorities", PRIO_MASK,	\
	  0, 0xff, 0xff, 0xff,							\
	  "priorities whose RoCE packets are sent ECN-capable")			\
	X(ECN_CODEPOINT, ecn_codepoint, "ECN", U32,				\
	  1, 2, 2, 2,								\
	  "ECN-capable codepoint for data packets: 1 = ECT(1), 2 = ECT(0)")	\
										\
	/* Reaction point (sender): rate limits. */				\
	X(RP_MIN_RATE_KBPS, rp_min_rate_kbps, "kb/s", U32,			\
	  1, RTUNE_RATE_MAX_KBPS, 1000, 1000,					\
	  "floor of the rate limiter")						\
	X(RP_MAX_RATE_KBPS, rp_max_rate_kbps, "kb/s", U32,			\
	  0, RTUNE_RATE_MAX_KBPS, 0, 0,						\
	  "ceiling of the rate limiter; 0 = line rate")				\
	X(RP_INITIAL_RATE_KBPS, rp_initial_rate_kbps, "kb/s", U32,		\
	  0, RTUNE_RATE_MAX_KBPS, 0, 0,						\
	  "rate a new flow starts at, doubled every T until its first CNP; 0 = the ceiling") \
	X(RP_RATE_ON_FIRST_CNP_KBPS, rp_rate_on_first_cnp_kbps, "kb/s", U32,	\
	  0, RTUNE_RATE_MAX_KBPS, 0, 0,						\
	  "rate a flow is set to on its first CNP; 0 = cut from the current rate") \
	X(RP_SENT_RATE_WINDOW_US, rp_sent_rate_window_us, "us", U32,		\
	  0, RTUNE_PERIOD_MAX_US, 0, 0,						\
	  "a CNP cuts from the rate sent in a window this long, if under RC/2; 0 = off") \
	/* Reaction point: rate decrease. */					\
	X(RP_ALPHA_GAIN_1024THS, rp_alpha_gain_1024ths, "1/1024", U32,		\
	  1, 1023, 4, 5,							\
	  "g: weight of a CNP in the alpha average (alpha = (1-g)alpha + g)")	\
	X(RP_INITIAL_ALPHA_1024THS, rp_initial_alpha_1024ths, "1/1024", U32,	\
	  0, 1024, 1024, 1023,							\
	  "alpha of a flow before its first CNP")				\
	X(RP_ALPHA_UPDATE_PERIOD_US, rp_alpha_update_period_us, "us", U32,	\
	  1, RTUNE_PERIOD_MAX_US, 55, 1,					\
	  "K: alpha decays by (1-g) after each period without a CNP")		\
	X(RP_RATE_CUT_SHIFT, rp_rate_cut_shift, "log2", U32,			\
	  0, 10, 1, 1,								\
	  "a CNP cuts the rate by alpha/2^shift (1 = alpha/2, the paper's cut)") \
	X(RP_MIN_RATE_FACTOR_PCT, rp_min_rate_factor_pct, "%", U32,		\
	  0, 100, 50, 50,							\
	  "one cut never leaves less than this share of the previous rate")	\
	X(RP_RATE_REDUCE_PERIOD_US, rp_rate_reduce_period_us, "us", U32,	\
	  0, RTUNE_PERIOD_MAX_US, 0, 4,						\
	  "minimum time between two cuts of one flow; 0 = cut on every CNP")	\
	X(RP_CLAMP_TARGET_RATE, rp_clamp_target_rate, "bool", BOOL,		\
	  0, 1, 1, 0,								\
	  "on every CNP set the target rate to the current rate")		\
	X(RP_CLAMP_TARGET_AFTER_TIMER, rp_clamp_target_after_timer, "bool", BOOL, \
	  0, 1, 1, 1,								\
	  "also clamp the target on a CNP after a timer-driven increase")	\
	/* Reaction point: rate increase. */					\
	X(RP_RATE_INCREASE_TIMER_US, rp_rate_increase_timer_us, "us", U32,	\
	  1, RTUNE_PERIOD_MAX_US, 55, 300,					\
	  "T: period of timer-driven rate increase")				\
	X(RP_BYTE_COUNTER_BYTES, rp_byte_counter_bytes, "bytes", U32,		\
	  0, 0xffffffffu, 10000000, 32767,					\
	  "B: bytes sent between byte-counter rate increases; 0 = off")		\
	X(RP_FAST_RECOVERY_STAGES, rp_fast_recovery_stages, "stages", U32,	\
	  1, 31, 5, 1,								\
	  "F: increase stages of fast recovery before additive increase")	\
	X(RP_ADDITIVE_INCREASE_KBPS, rp_additive_increase_kbps, "kb/s", U32,	\
	  1, RTUNE_RATE_MAX_KBPS, 40000, 5000,					\
	  "R_AI: target-rate step in additive increase")			\
	X(RP_HYPER_INCREASE_KBPS, rp_hyper_increase_kbps, "kb/s", U32,		\
	  1, RTUNE_RATE_MAX_KBPS, 200000, 50000,				\
	  "R_HAI: target-rate step in hyper increase")				\
	X(RP_PATH_SHARE_PCT, rp_path_share_pct, "%", U32,			\
	  0, 100, 0, 0,								\
	  "no increase this far above the path's mean rate while it is congested; 0 = off") \
										\
	/* Notification point (receiver): CNP generation. */			\
	X(NP_MIN_CNP_INTERVAL_US, np_min_cnp_interval_us, "us", U32,		\
	  0, RTUNE_PERIOD_MAX_US, 50, 4,					\
	  "N: at most one CNP per flow in this interval")			\
	X(NP_CNP_DSCP, np_cnp_dscp, "DSCP", U32,				\
	  0, 63, 48, 48,							\
	  "DSCP of generated CNPs")						\
	X(NP_CNP_PRIO, np_cnp_prio, "802.1p", U32,				\
	  0, 7, 6, 6,								\
	  "802.1p priority of generated CNPs")					\
	X(NP_CNP_ECN, np_cnp_ecn, "ECN", U32,					\
	  0, 2, 0, 0,								\
	  "ECN codepoint of generated CNPs: 0 = Not-ECT, 1 = ECT(1), 2 = ECT(0)")

#endif /* _ROCETUNE_CORE_PARAMS_LIST_H */
