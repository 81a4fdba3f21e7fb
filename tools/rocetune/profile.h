/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The declared profile: what a RoCE host should look like. Parsed from a
 * rocetune.conf(5) file by profile_parse(); checked by profile_validate().
 * Every field carries a "set" flag: what the profile leaves out, rocetune
 * leaves alone on the host.
 */
#ifndef ROCETUNE_PROFILE_H
#define ROCETUNE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../../kmod/core/params.h"
#include "diag.h"

#define RTUNE_MAX_GLOBS	16
#define RTUNE_GLOB_LEN	64
#define RTUNE_NUM_PRIO	8
#define RTUNE_NUM_TC	8
#define RTUNE_NUM_DSCP	64

/* Overhead the kernel subtracts from the netdev MTU to get the RoCE MTU
 * (iboe_get_mtu(): GRH 40 + UDP 8 + BTH 12 + XRC 4 + AtomicETH 28 + ICRC 4;
 * Documentation/rocetune.rst, "The MTUs"). */
#define RTUNE_ROCE_HDR_OVERHEAD 96

/* The least netdev MTU that gives a port RoCE MTU @roce_mtu: the one
 * number every message and fix that advises an MTU uses (4192 for 4096). */
static inline uint32_t rtune_roce_min_mtu(uint32_t roce_mtu)
{
	return roce_mtu + RTUNE_ROCE_HDR_OVERHEAD;
}

/* [pfc] storm_prevention = auto: ethtool's PFC_STORM_PREVENTION_AUTO (the
 * driver's default timeout); 0 is off, anything else a timeout in ms. */
#define RTUNE_PFC_STORM_AUTO	0xffff

enum rtune_trust { RTUNE_TRUST_UNSET, RTUNE_TRUST_PCP, RTUNE_TRUST_DSCP };
enum rtune_tsa { RTUNE_TSA_STRICT = 0, RTUNE_TSA_CBS = 1, RTUNE_TSA_ETS = 2, RTUNE_TSA_VENDOR = 255 };

struct rtune_profile {
	char path[256];

	/* [match] */
	char netdev_globs[RTUNE_MAX_GLOBS][RTUNE_GLOB_LEN];
	int n_netdev_globs;
	char rdma_globs[RTUNE_MAX_GLOBS][RTUNE_GLOB_LEN];
	int n_rdma_globs;

	/* [link] */
	bool has_mtu;
	uint32_t mtu;
	bool has_roce_mtu;
	uint32_t roce_mtu;		/* 256..4096, default 4096 */
	/* Expectations, never applied (expect.c): the doctor's slow-link
	 * checks the port against them. */
	bool has_expect_speed;
	uint32_t expect_speed;		/* Mb/s, as ethtool reports the speed */
	bool has_expect_lanes;
	uint32_t expect_lanes;		/* 1..8 */

	/* [pfc] */
	bool has_pfc;
	uint8_t pfc_en;			/* bitmap by priority */
	bool has_pfc_delay;
	uint16_t pfc_delay;		/* ieee_pfc.delay, bit times */
	bool has_pfc_storm;
	uint16_t pfc_storm;		/* storm_prevention: ms, 0 off, RTUNE_PFC_STORM_AUTO */

	/* [trust] */
	enum rtune_trust trust;
	bool has_dscp_map;
	uint8_t dscp_map_set[RTUNE_NUM_DSCP];	/* 1 if the DSCP is mapped */
	uint8_t dscp_prio[RTUNE_NUM_DSCP];

	/* [rewrite] (obj_rewr.c): per priority, the DSCP / PCP it is rewritten to */
	bool has_rewr_dscp;
	uint8_t rewr_dscp_set;		/* bit p: priority p has a DSCP */
	uint8_t rewr_dscp[RTUNE_NUM_PRIO];
	bool has_rewr_pcp;
	uint8_t rewr_pcp_set;		/* bit p: priority p has a PCP */
	uint8_t rewr_pcp[RTUNE_NUM_PRIO];

	/* [ets] */
	bool has_ets;
	uint8_t prio_tc[RTUNE_NUM_PRIO];
	uint8_t tc_tsa[RTUNE_NUM_TC];
	uint8_t tc_bw[RTUNE_NUM_TC];

	/* [rdma_cm] */
	bool has_roce_mode;
	int roce_mode;			/* 1 or 2 */
	bool has_tos;
	uint8_t tos;

	/* [cc] */
	bool has_cc;
	const struct rtune_preset *preset;
	uint32_t cc_set_mask;		/* bit i: parameter i declared (or from preset) */
	struct rtune_param_set cc;

	/* [devlink] */
	bool has_dl_roce;
	bool dl_roce;			/* enable_roce */
	bool has_dl_iwarp;
	bool dl_iwarp;			/* enable_iwarp */
	bool has_dl_fn_roce;
	bool dl_fn_roce;		/* port_fn_roce */

	/* where each setting came from, for cross-field messages */
	struct rtune_where {
		int line;
	} w_mtu, w_roce_mtu, w_pfc, w_trust, w_map, w_ets, w_bw, w_mode, w_tos,
	  w_rewr_dscp, w_rewr_pcp, w_pfc_storm, w_expect_speed, w_expect_lanes,
	  w_cc[RTUNE_P_COUNT], w_preset, w_dl_roce, w_dl_iwarp;
};

/*
 * Parsing keys. profile.c reads lines and sections; the keys of each section
 * are parsed by the object that owns the section (obj_*.c), through these.
 */
#define RTUNE_MAX_LINE 1024

struct rtune_pctx {
	const char *file;
	struct rtune_profile *p;
	struct rtune_diags *d;
	int line;
	const char *section;
	const char *key;
};

struct rtune_key {
	const char *name;
	int (*parse)(struct rtune_pctx *c, const char *v);	/* 0 or -1 (error added) */
};

struct rtune_section {
	const char *name;
	const struct rtune_key *keys;	/* ends with { NULL } */
	/* Keys beyond the table (the CC parameters): lookup gives an index
	 * below nmore or -1; their names are suggested on typos, and
	 * more_what ends the list of valid keys. Optional. */
	int (*more_lookup)(const char *key);
	int (*more_parse)(struct rtune_pctx *c, int idx, const char *v);
	const char *(*more_name)(int idx);
	int nmore;
	const char *more_what;
	/* After the whole file, for every section (@seen 0 if it was absent):
	 * @seen has bit i for keys[i] given, @all for every key of the
	 * table. Optional. */
	void (*finish)(struct rtune_pctx *c, uint64_t seen, uint64_t all);
};

/* An error at the current line, section and key. */
void rtune_key_err(struct rtune_pctx *c, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A decimal in [min, max]; 0 or -1. */
int rtune_parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *out);
/* Split @v on blanks into at most @max tokens (copied into @buf); count or -1. */
int rtune_split(const char *v, char *buf, size_t buflen, char **tok, int max);
/* The parser's error for a bad priority list. */
#define RTUNE_PRIO_LIST_HELP "expected 'none' or priorities 0-7 like '3' or '0,3-5'"

/* Parse @path into @p. Errors and warnings go to @d. Returns 0 or -1. */
int profile_parse_file(const char *path, struct rtune_profile *p, struct rtune_diags *d);
/* Parse text already in memory (name is used in messages). */
int profile_parse_text(const char *name, const char *text, size_t len,
		       struct rtune_profile *p, struct rtune_diags *d);
/* Cross-field checks. Returns 0 or -1 (errors in @d). */
int profile_validate(const struct rtune_profile *p, struct rtune_diags *d);

/* Does the profile apply to this netdev / RDMA device (NULL = none)? */
bool profile_matches(const struct rtune_profile *p, const char *netdev,
		     const char *ibdev);

/* The priority a DSCP maps to under the profile, or -1. */
int profile_dscp_prio(const struct rtune_profile *p, unsigned int dscp);

const char *rtune_tsa_name(uint8_t tsa);

/* Closest candidate to @word (edit distance <= 2 or a prefix), or NULL. */
const char *rtune_suggest(const char *word, const char *const *cands, int n);

#endif
