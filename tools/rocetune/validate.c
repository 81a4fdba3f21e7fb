// SPDX-License-Identifier: GPL-2.0
/*
 * Checks of a parsed profile: the RoCE design must hang together before
 * anything is written. Each object checks its own keys (obj_*.c); the
 * checks across objects (the RoCE and CNP priorities against the DSCP map,
 * PFC and ECN) are here. Errors stop the apply; warnings are reported and
 * the apply goes on.
 */
#include <string.h>
#include "obj.h"

#define VERR(p, d, line, sec, key, code, ...) \
	diag_add(d, RTUNE_SEV_ERROR, (p)->path, line, sec, key, code, __VA_ARGS__)
#define VWARN(p, d, line, sec, key, code, ...) \
	diag_add(d, RTUNE_SEV_WARNING, (p)->path, line, sec, key, code, __VA_ARGS__)

static void check_roce(const struct rtune_profile *p, struct rtune_diags *d)
{
	unsigned int dscp = p->tos >> 2, ecn = p->tos & 3;
	int prio;
	u32 ecn_prios;

	if (!p->has_tos)
		return;
	if (ecn == 3)
		VERR(p, d, p->w_tos.line, "rdma_cm", "tos", "tos-ce",
		     "tos %u carries ECN CE (3): use DSCP<<2 | 2 (ECT(0)), e.g. %u",
		     p->tos, (dscp << 2) | 2);
	if (p->trust != RTUNE_TRUST_DSCP)
		return;
	prio = profile_dscp_prio(p, dscp);
	if (prio < 0) {
		VERR(p, d, p->w_tos.line, "rdma_cm", "tos", "roce-dscp-unmapped",
		     "RoCE DSCP %u (tos %u) has no priority in [trust] dscp_prio", dscp, p->tos);
		return;
	}
	if (p->has_pfc && p->pfc_en) {
		if (!(p->pfc_en & (1u << prio)))
			VERR(p, d, p->w_pfc.line, "pfc", "priorities", "pfc-prio-mismatch",
			     "PFC is not enabled on priority %d, the priority RoCE DSCP %u (tos %u) maps to; expected priorities = %d",
			     prio, dscp, p->tos, prio);
		else if (p->pfc_en != (1u << prio))
			VWARN(p, d, p->w_pfc.line, "pfc", "priorities", "pfc-extra-prios",
			      "PFC is enabled on more priorities than RoCE's priority %d", prio);
	}
	if (p->cc_set_mask & (1u << RTUNE_P_ECN_ENABLED_PRIOS)) {
		ecn_prios = p->cc.v[RTUNE_P_ECN_ENABLED_PRIOS];
		if (!(ecn_prios & (1u << prio)))
			VWARN(p, d, p->w_cc[RTUNE_P_ECN_ENABLED_PRIOS].line, "cc", "ecn_enabled_prios", "ecn-not-on-roce-prio",
			      "ECN is not enabled on RoCE's priority %d", prio);
		else if (ecn == 0)
			VWARN(p, d, p->w_tos.line, "rdma_cm", "tos", "tos-not-ect",
			      "tos %u has ECN bits 0 (Not-ECT) although ECN is enabled on priority %d; %u sets ECT(0)",
			      p->tos, prio, (dscp << 2) | 2);
	}
	if ((p->cc_set_mask & (1u << RTUNE_P_RP_ENABLED_PRIOS)) &&
	    !(p->cc.v[RTUNE_P_RP_ENABLED_PRIOS] & (1u << prio)))
		VWARN(p, d, p->w_cc[RTUNE_P_RP_ENABLED_PRIOS].line, "cc", "rp_enabled_prios", "rp-not-on-roce-prio",
		      "the reaction point is not enabled on RoCE's priority %d", prio);
	if ((p->cc_set_mask & (1u << RTUNE_P_NP_ENABLED_PRIOS)) &&
	    !(p->cc.v[RTUNE_P_NP_ENABLED_PRIOS] & (1u << prio)))
		VWARN(p, d, p->w_cc[RTUNE_P_NP_ENABLED_PRIOS].line, "cc", "np_enabled_prios", "np-not-on-roce-prio",
		      "the notification point is not enabled on RoCE's priority %d", prio);
}

static void check_cnp(const struct rtune_profile *p, struct rtune_diags *d)
{
	const u32 need = (1u << RTUNE_P_NP_CNP_DSCP) | (1u << RTUNE_P_NP_CNP_PRIO);
	unsigned int cdscp, cprio;
	int line, mapped;

	if ((p->cc_set_mask & need) != need)
		return;
	cdscp = p->cc.v[RTUNE_P_NP_CNP_DSCP];
	cprio = p->cc.v[RTUNE_P_NP_CNP_PRIO];
	line = p->w_cc[RTUNE_P_NP_CNP_PRIO].line ? p->w_cc[RTUNE_P_NP_CNP_PRIO].line :
	       p->w_preset.line;
	if (p->trust == RTUNE_TRUST_DSCP) {
		mapped = profile_dscp_prio(p, cdscp);
		if (mapped < 0)
			VERR(p, d, line, "cc", "np_cnp_dscp", "cnp-dscp-unmapped",
			     "CNP DSCP %u has no priority in [trust] dscp_prio; add '%u:%u'",
			     cdscp, cdscp, cprio);
		else if ((unsigned int)mapped != cprio)
			VERR(p, d, line, "cc", "np_cnp_prio", "cnp-prio-mismatch",
			     "CNP priority %u disagrees with dscp_prio, which maps CNP DSCP %u to priority %d; a switch trusting DSCP queues CNPs on %d",
			     cprio, cdscp, mapped, mapped);
	}
	if (p->has_pfc && (p->pfc_en & (1u << cprio)))
		VWARN(p, d, line, "cc", "np_cnp_prio", "cnp-prio-pfc",
		      "CNP priority %u has PFC enabled: CNPs should go on a strict, lossy priority (NVIDIA: 6)", cprio);
	if (p->has_tos && p->trust == RTUNE_TRUST_DSCP &&
	    profile_dscp_prio(p, p->tos >> 2) == (int)cprio)
		VERR(p, d, line, "cc", "np_cnp_prio", "cnp-prio-same-as-roce",
		     "CNP priority %u is the RoCE data priority: CNPs would queue behind the congested data", cprio);
}

int profile_validate(const struct rtune_profile *p, struct rtune_diags *d)
{
	const struct rtune_obj *o;
	int errs0 = d->nerr, i;
	bool any = false;

	rtune_for_each_obj(i, o) {
		if (o->validate)
			o->validate(p, d);
		any |= o->wanted(p);
	}
	check_roce(p, d);
	check_cnp(p, d);
	if (!any)
		VWARN(p, d, 0, "", "", "empty-profile", "the profile declares nothing to apply");
	return d->nerr > errs0 ? -1 : 0;
}
