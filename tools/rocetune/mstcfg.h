/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The persistent (next boot) congestion-control values of an mlx5 device:
 * firmware NVconfig, read with `mstconfig -d <PCI BDF> query` (Debian
 * package mstflint), compared with the live values of its surface
 * (surface_mlx5.c, surface_mlx5_ofed.c). `rocetune show` and `diff` say
 * which live values a reboot or firmware reset would replace
 * (Documentation/hardware.rst, "Live and persistent values").
 *
 * mstcfg_parse.c parses mstconfig's output (untrusted: bounded, clear
 * errors, fuzzed by selftests/fuzz/fuzz_stats.c); mstcfg.c runs the tool
 * and compares.
 */
#ifndef ROCETUNE_MSTCFG_H
#define ROCETUNE_MSTCFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rtune_link;
struct rtune_pr;
struct rtune_plan;
struct rtune_host;

/* NVconfig parameters (mstflint's mlxconfig_host.db, TLVs nv_roce_cc and
 * nv_roce_cc_ecn, class Physical_Port), each per physical port: the name
 * plus "_P1" .. "_P<n>", n the device's port count (at most 8). */
enum rtune_nv {
	RTUNE_NV_PRIO_MASK,		/* ROCE_CC_PRIO_MASK */
	RTUNE_NV_ALGORITHM,		/* ROCE_CC_ALGORITHM: ECN(0), QCN(1) */
	RTUNE_NV_CLAMP_TGT_RATE,
	RTUNE_NV_CLAMP_TGT_RATE_ATI,
	RTUNE_NV_TIME_RESET,
	RTUNE_NV_BYTE_RESET,
	RTUNE_NV_THRESHOLD,
	RTUNE_NV_MAX_RATE,
	RTUNE_NV_AI_RATE,
	RTUNE_NV_HAI_RATE,
	RTUNE_NV_GD,
	RTUNE_NV_MIN_DEC_FAC,
	RTUNE_NV_MIN_RATE,
	RTUNE_NV_RATE_FIRST_CNP,
	RTUNE_NV_DCE_TCP_G,
	RTUNE_NV_DCE_TCP_RTT,
	RTUNE_NV_RATE_REDUCE_PERIOD,
	RTUNE_NV_INITIAL_ALPHA,
	RTUNE_NV_MIN_TIME_CNPS,
	RTUNE_NV_CNP_802P_PRIO,
	RTUNE_NV_CNP_PRIO_MODE,		/* CNP_RES_PRIO_MODE */
	RTUNE_NV_CNP_DSCP,
	RTUNE_NV_COUNT,
};

extern const char *const rtune_nv_names[RTUNE_NV_COUNT];

/* The highest port mstconfig names (mlxcfg_tlv.cpp getMaxPort's default). */
#define RTUNE_NV_MAX_PORT 8

/* The most output of mstconfig read, and the longest line parsed. */
#define RTUNE_MSTCFG_MAX_OUT (256 * 1024)
#define RTUNE_MSTCFG_MAX_LINE 1024

/* One port's parameters as the "Next Boot" column shows them. */
struct rtune_nvcc {
	uint32_t v[RTUNE_NV_COUNT];
	uint32_t valid;		/* bit n: v[n] was shown as a number */
	uint32_t na;		/* bit n: shown, but as N/A (the device default) */
};

/*
 * Parse `mstconfig -d DEV query` output (@len bytes, need not end in NUL)
 * for port @port (1 .. RTUNE_NV_MAX_PORT). Returns 0, or -EPROTO (-E2BIG: over
 * RTUNE_MSTCFG_MAX_OUT) with @err saying what, and where, in one line.
 */
int rtune_mstcfg_parse(const char *text, size_t len, int port, struct rtune_nvcc *nv,
		       char *err, size_t elen);

/* Run mstconfig for PCI function @pci (the test build's
 * ROCETUNE_TEST_MSTCONFIG replaces it) and parse its output for the port
 * of the function: @phys is the devlink port_number of the function's
 * physical port, -1 for a devlink port of another flavour, -2 when
 * devlink has no port for it (then the PCI function number + 1). *@port
 * and *@from ("devlink", "pci-function") say which. 0, or -errno with
 * @why (-ENOENT: mstconfig is not installed). */
int rtune_mstcfg_query(const char *pci, int phys, struct rtune_nvcc *nv, int *port,
		       const char **from, char *why, size_t wlen);

/* For show and diff: read the persistent values of every mlx5 device of
 * @h that has a readable surface (into dev->hw.nv). */
void rtune_mstcfg_read_host(struct rtune_host *h);

/* In show's cc object: the live values that differ from the persistent. */
void rtune_mstcfg_show(struct rtune_pr *pr, const struct rtune_link *v);

/* diff: a warning per device whose values after the plan differ from the
 * persistent ones (or whose persistent ones could not be read). */
void rtune_mstcfg_plan_notes(const struct rtune_host *h, struct rtune_plan *pl);

#endif
