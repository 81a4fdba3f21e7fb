/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intel's out-of-tree irdma: the DCQCN module parameters it was loaded
 * with (/sys/module/irdma/parameters/dcqcn_*, all 0444), against the
 * live switch in its configfs group. irdma copies dcqcn_enable into every
 * device's roce_dcqcn_enable when it probes the device (main.c:
 * iwdev->roce_dcqcn_en = rf->dcqcn_ena), and takes the other dcqcn_*
 * only when dcqcn_enable was set at load (irdma_set_rf_user_cfg_params()
 * returns before reading them otherwise). So a roce_dcqcn_enable set
 * through configfs lasts until irdma is loaded again, and turning it on
 * in a driver loaded without dcqcn_enable runs DCQCN on the firmware's
 * defaults. `rocetune show` and `diff` say both (Documentation/
 * hardware.rst, "Live and load-time values (irdma)").
 */
#ifndef ROCETUNE_IRDMA_LOAD_H
#define ROCETUNE_IRDMA_LOAD_H

#include <stddef.h>
#include <stdint.h>

struct rtune_host;
struct rtune_link;
struct rtune_plan;
struct rtune_pr;

/* Stands for /sys/module in tests. */
#define RTUNE_ENV_TEST_SYSFS_MODULE "ROCETUNE_TEST_SYSFS_MODULE"

enum rtune_irdma_mp {
	RTUNE_IRDMA_MP_ENABLE,		/* dcqcn_enable (bool) */
	RTUNE_IRDMA_MP_CFG_VALID,	/* dcqcn_cc_cfg_valid (bool) */
	RTUNE_IRDMA_MP_MIN_DEC_FACTOR,	/* byte */
	RTUNE_IRDMA_MP_MIN_RATE_MBPS,	/* byte */
	RTUNE_IRDMA_MP_F,		/* byte */
	RTUNE_IRDMA_MP_T,		/* ushort */
	RTUNE_IRDMA_MP_B,		/* uint */
	RTUNE_IRDMA_MP_RAI_FACTOR,	/* ushort */
	RTUNE_IRDMA_MP_HAI_FACTOR,	/* ushort */
	RTUNE_IRDMA_MP_RREDUCE_MPERIOD,	/* uint */
	RTUNE_IRDMA_MP_COUNT,
};

extern const char *const rtune_irdma_mp_names[RTUNE_IRDMA_MP_COUNT];

/*
 * Parse one parameter file's text (@len bytes, need not end in NUL) as
 * the kernel prints that parameter's type: "Y"/"N" for a bool, decimal
 * within the type's range otherwise, one trailing newline allowed.
 * 0 or -EINVAL.
 */
int rtune_irdma_mp_parse(enum rtune_irdma_mp id, const char *text, size_t len, uint32_t *v);

/* Read the parameters of every irdma device of @h (show, diff). */
void rtune_irdma_load_read_host(struct rtune_host *h);
/* diff: warn where, after the plan, roce_dcqcn_enable differs from
 * dcqcn_enable, or where DCQCN is on without the load-time parameters. */
void rtune_irdma_load_plan_notes(const struct rtune_host *h, struct rtune_plan *pl);
/* show: the load-time values of @v, if read ("load_time" in JSON). */
void rtune_irdma_load_show(struct rtune_pr *pr, const struct rtune_link *v);

#endif
