/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Targets and plans. A target says what one device should look like (only
 * the parts it sets); the planner compares it with the device's current
 * state and emits only the writes that differ. The same planner builds the
 * rollback plan, with a target made from the state saved before apply.
 */
#ifndef ROCETUNE_PLAN_H
#define ROCETUNE_PLAN_H

#include "profile.h"
#include "state.h"

enum rtune_act_kind {
	ACT_ETS, ACT_PFC, ACT_APP_ADD, ACT_APP_DEL, ACT_TRUST,
	ACT_MTU, ACT_CM_MODE, ACT_CM_TOS, ACT_CC, ACT__COUNT
};

struct rtune_target {
	bool mtu;
	uint32_t mtu_v;
	bool pfc;
	uint8_t pfc_en;
	bool ets;
	uint8_t ets_willing;
	uint8_t prio_tc[8], tc_tsa[8], tc_bw[8];
	bool app;
	uint8_t dscp_prios[64];	/* per DSCP, bitmask of priorities wanted */
	bool trust;
	uint8_t trust_sel[8];
	int ntrust;
	bool cm_mode;
	int mode;
	bool cm_tos;
	int tos;
	uint32_t cc_mask;
	struct rtune_param_set cc;
};

struct rtune_action {
	enum rtune_act_kind kind;
	int dev;			/* index in rtune_host */
	uint32_t from, to;		/* MTU, mode, ToS, pfc_en */
	struct ieee_ets ets_from, ets_to;
	struct ieee_pfc pfc_to;
	struct dcb_app *apps;		/* ACT_APP_* */
	int napps;
	uint8_t trust_from[8], trust_to[8];
	int ntrust_from, ntrust_to;
	struct rtune_param_set cc_from, cc_to;
	uint32_t cc_mask;		/* parameters that differ */
	/* results */
	int err;			/* 0 when done */
	bool done;
	char why[200];
};

struct rtune_note {
	int dev;
	enum rtune_sev sev;
	char code[32];
	char msg[256];
};

struct rtune_plan {
	struct rtune_action *a;
	int n, cap;
	struct rtune_note notes[128];
	int nnotes;
	int nerr;			/* blocking problems found while planning */
};

/* The target a profile asks of @dev (parts that do not apply are noted). */
void target_from_profile(const struct rtune_profile *p, const struct rtune_link *dev,
			 int devidx, struct rtune_target *t, struct rtune_plan *pl);
/* The target that restores @saved for the action kinds in @kinds. */
void target_from_state(const struct rtune_link *saved, uint32_t kinds, struct rtune_target *t);

/* Append to @pl the actions taking @cur to @t. Returns count added. */
int plan_device(const struct rtune_link *cur, int devidx, const struct rtune_target *t,
		struct rtune_plan *pl);

void plan_note(struct rtune_plan *pl, int dev, enum rtune_sev sev, const char *code,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void plan_free(struct rtune_plan *pl);
/* Conflicting owner: DCBX run by an LLDP agent or firmware, not the host. */
void plan_owner_dcbx(const struct rtune_link *dev, int devidx, bool force, struct rtune_plan *pl);

const char *act_name(enum rtune_act_kind k);
/* One-line human description "from -> to" of an action. */
void act_describe(const struct rtune_action *a, char *buf, size_t len);

#endif
