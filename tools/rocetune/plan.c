// SPDX-License-Identifier: GPL-2.0
/* The difference engine: pure functions over in-memory state. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan.h"

static const char *const act_names[ACT__COUNT] = {
	[ACT_ETS] = "ets", [ACT_PFC] = "pfc", [ACT_APP_ADD] = "app-add",
	[ACT_APP_DEL] = "app-del", [ACT_TRUST] = "apptrust", [ACT_MTU] = "mtu",
	[ACT_CM_MODE] = "roce-mode", [ACT_CM_TOS] = "roce-tos", [ACT_CC] = "cc",
};

const char *act_name(enum rtune_act_kind k)
{
	return (unsigned int)k < ACT__COUNT ? act_names[k] : "?";
}

void plan_note(struct rtune_plan *pl, int dev, enum rtune_sev sev, const char *code,
	       const char *fmt, ...)
{
	struct rtune_note *n;
	va_list ap;

	if (sev == RTUNE_SEV_ERROR)
		pl->nerr++;
	if (pl->nnotes >= (int)(sizeof(pl->notes) / sizeof(pl->notes[0])))
		return;
	n = &pl->notes[pl->nnotes++];
	n->dev = dev;
	n->sev = sev;
	snprintf(n->code, sizeof(n->code), "%s", code);
	va_start(ap, fmt);
	vsnprintf(n->msg, sizeof(n->msg), fmt, ap);
	va_end(ap);
}

void plan_free(struct rtune_plan *pl)
{
	int i;

	for (i = 0; i < pl->n; i++)
		free(pl->a[i].apps);
	free(pl->a);
	pl->a = NULL;
	pl->n = pl->cap = 0;
}

static struct rtune_action *push(struct rtune_plan *pl, enum rtune_act_kind k, int dev)
{
	struct rtune_action *a;

	if (pl->n == pl->cap) {
		int cap = pl->cap ? pl->cap * 2 : 16;
		void *na = realloc(pl->a, sizeof(*pl->a) * (size_t)cap);

		if (!na)
			abort();
		pl->a = na;
		pl->cap = cap;
	}
	a = &pl->a[pl->n++];
	memset(a, 0, sizeof(*a));
	a->kind = k;
	a->dev = dev;
	return a;
}

void target_from_profile(const struct rtune_profile *p, const struct rtune_link *dev,
			 int devidx, struct rtune_target *t, struct rtune_plan *pl)
{
	bool dcb_wanted = p->has_pfc || p->has_ets || p->trust != RTUNE_TRUST_UNSET;
	unsigned int d;

	memset(t, 0, sizeof(*t));
	if (p->has_mtu) {
		t->mtu = true;
		t->mtu_v = p->mtu;
	}
	if (dcb_wanted && !dev->dcb.ok) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-dcb",
			  "%s does not support DCB (dcbnl: %s): cannot apply [pfc]/[ets]/[trust]",
			  dev->netdev, strerror(dev->dcb.err ? dev->dcb.err : EOPNOTSUPP));
		dcb_wanted = false;
	}
	if (dcb_wanted) {
		if (p->has_pfc) {
			if (!dev->dcb.has_pfc)
				plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-pfc",
					  "%s: the driver reports no IEEE PFC state", dev->netdev);
			t->pfc = dev->dcb.has_pfc;
			t->pfc_en = p->pfc_en;
		}
		if (p->has_ets) {
			if (!dev->dcb.has_ets)
				plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-ets",
					  "%s: the driver reports no IEEE ETS state", dev->netdev);
			t->ets = dev->dcb.has_ets;
			memcpy(t->prio_tc, p->prio_tc, 8);
			memcpy(t->tc_tsa, p->tc_tsa, 8);
			memcpy(t->tc_bw, p->tc_bw, 8);
		}
		if (p->trust != RTUNE_TRUST_UNSET) {
			t->app = true;
			for (d = 0; d < 64; d++)
				t->dscp_prios[d] = (p->trust == RTUNE_TRUST_DSCP && p->dscp_map_set[d]) ?
						   (uint8_t)(1u << p->dscp_prio[d]) : 0;
			if (dev->dcb.has_trust) {
				t->trust = true;
				t->ntrust = 1;
				t->trust_sel[0] = p->trust == RTUNE_TRUST_DSCP ?
						  IEEE_8021QAZ_APP_SEL_DSCP : RTUNE_DCB_APP_SEL_PCP;
			} else {
				plan_note(pl, devidx, RTUNE_SEV_WARNING, "trust-implicit",
					  "%s: no APP trust table (kernel < 6.2 or driver without it): trust %s is expressed by the DSCP APP entries alone",
					  dev->netdev, p->trust == RTUNE_TRUST_DSCP ? "dscp" : "pcp");
			}
		}
	}
	if (p->has_roce_mode || p->has_tos || p->has_cc) {
		if (!dev->has_ib) {
			plan_note(pl, devidx, RTUNE_SEV_WARNING, "no-rdma-device",
				  "%s has no RDMA device: [rdma_cm] and [cc] do not apply to it",
				  dev->netdev);
			return;
		}
	}
	if (p->has_roce_mode || p->has_tos) {
		if (!dev->cm_ok) {
			plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-rdma-cm",
				  "%s/%u: rdma_cm configfs is not available (modprobe rdma_cm; mount configfs)",
				  dev->ibdev, dev->port);
		} else {
			t->cm_mode = p->has_roce_mode;
			t->mode = p->roce_mode;
			t->cm_tos = p->has_tos;
			t->tos = p->tos;
		}
	}
	if (p->has_cc) {
		uint32_t miss;

		if (!dev->cc_ok) {
			plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-cc",
				  "%s/%u: rocetune.ko configfs is not available (insmod rocetune.ko)",
				  dev->ibdev, dev->port);
			return;
		}
		miss = p->cc_set_mask & ~dev->cc_valid;
		if (miss) {
			int i;

			for (i = 0; !(miss & (1u << i)); i++)
				;
			plan_note(pl, devidx, RTUNE_SEV_ERROR, "cc-param-missing",
				  "%s/%u: rocetune.ko does not expose %s", dev->ibdev, dev->port,
				  rtune_param_descs[i].name);
			return;
		}
		t->cc_mask = p->cc_set_mask;
		t->cc = p->cc;
		if (!p->preset) {
			/* overrides on top of what is active must still be coherent */
			struct rtune_param_set s = dev->cc;
			char why[160];
			int i;

			for (i = 0; i < RTUNE_P_COUNT; i++)
				if (t->cc_mask & (1u << i))
					s.v[i] = t->cc.v[i];
			if (rtune_params_validate(&s, why, sizeof(why)))
				plan_note(pl, devidx, RTUNE_SEV_ERROR, "cc-invalid",
					  "%s/%u: with the active values, the CC set would be inconsistent: %s",
					  dev->ibdev, dev->port, why);
		}
	}
}

void target_from_state(const struct rtune_link *s, uint32_t kinds, struct rtune_target *t)
{
	memset(t, 0, sizeof(*t));
	if (kinds & (1u << ACT_MTU)) {
		t->mtu = true;
		t->mtu_v = s->mtu;
	}
	if ((kinds & (1u << ACT_PFC)) && s->dcb.has_pfc) {
		t->pfc = true;
		t->pfc_en = s->dcb.pfc.pfc_en;
	}
	if ((kinds & (1u << ACT_ETS)) && s->dcb.has_ets) {
		t->ets = true;
		memcpy(t->prio_tc, s->dcb.ets.prio_tc, 8);
		memcpy(t->tc_tsa, s->dcb.ets.tc_tsa, 8);
		memcpy(t->tc_bw, s->dcb.ets.tc_tx_bw, 8);
		t->ets_willing = s->dcb.ets.willing;
	}
	if (kinds & ((1u << ACT_APP_ADD) | (1u << ACT_APP_DEL))) {
		t->app = true;
		memcpy(t->dscp_prios, s->dcb.dscp_prios, 64);
	}
	if ((kinds & (1u << ACT_TRUST)) && s->dcb.has_trust) {
		t->trust = true;
		t->ntrust = s->dcb.ntrust;
		memcpy(t->trust_sel, s->dcb.trust, 8);
	}
	if ((kinds & (1u << ACT_CM_MODE)) && s->roce_mode) {
		t->cm_mode = true;
		t->mode = s->roce_mode;
	}
	if (kinds & (1u << ACT_CM_TOS)) {
		t->cm_tos = true;
		t->tos = s->tos;
	}
	if (kinds & (1u << ACT_CC)) {
		t->cc_mask = s->cc_valid;
		t->cc = s->cc;
	}
}

static bool ets_differs(const struct ieee_ets *e, const struct rtune_target *t)
{
	return e->willing != t->ets_willing || memcmp(e->prio_tc, t->prio_tc, 8) ||
	       memcmp(e->tc_tsa, t->tc_tsa, 8) || memcmp(e->tc_tx_bw, t->tc_bw, 8);
}

int plan_device(const struct rtune_link *cur, int devidx, const struct rtune_target *t,
		struct rtune_plan *pl)
{
	int n0 = pl->n, i;
	struct rtune_action *a;

	if (t->ets && cur->dcb.has_ets && ets_differs(&cur->dcb.ets, t)) {
		a = push(pl, ACT_ETS, devidx);
		a->ets_from = cur->dcb.ets;
		a->ets_to = cur->dcb.ets;
		a->ets_to.willing = t->ets_willing;
		memcpy(a->ets_to.prio_tc, t->prio_tc, 8);
		memcpy(a->ets_to.tc_tsa, t->tc_tsa, 8);
		memcpy(a->ets_to.tc_tx_bw, t->tc_bw, 8);
	}
	if (t->pfc && cur->dcb.has_pfc && cur->dcb.pfc.pfc_en != t->pfc_en) {
		a = push(pl, ACT_PFC, devidx);
		a->from = cur->dcb.pfc.pfc_en;
		a->to = t->pfc_en;
		a->pfc_to = cur->dcb.pfc;
		a->pfc_to.pfc_en = t->pfc_en;
	}
	if (t->app) {
		struct dcb_app add[64 * 8], del[64 * 8];
		int nadd = 0, ndel = 0;
		unsigned int d, p;

		for (d = 0; d < 64; d++) {
			uint8_t have = cur->dcb.dscp_prios[d], want = t->dscp_prios[d];

			for (p = 0; p < 8; p++) {
				struct dcb_app e = { IEEE_8021QAZ_APP_SEL_DSCP, (uint8_t)p, (uint16_t)d };

				if ((want & (1u << p)) && !(have & (1u << p)))
					add[nadd++] = e;
				else if (!(want & (1u << p)) && (have & (1u << p)))
					del[ndel++] = e;
			}
		}
		/* add before delete: on mlx5 deleting the last DSCP entry drops
		 * the port back to PCP trust */
		if (nadd) {
			a = push(pl, ACT_APP_ADD, devidx);
			a->apps = malloc(sizeof(*a->apps) * (size_t)nadd);
			if (!a->apps)
				abort();
			memcpy(a->apps, add, sizeof(*a->apps) * (size_t)nadd);
			a->napps = nadd;
		}
		if (ndel) {
			a = push(pl, ACT_APP_DEL, devidx);
			a->apps = malloc(sizeof(*a->apps) * (size_t)ndel);
			if (!a->apps)
				abort();
			memcpy(a->apps, del, sizeof(*a->apps) * (size_t)ndel);
			a->napps = ndel;
		}
	}
	if (t->trust && cur->dcb.has_trust &&
	    (t->ntrust != cur->dcb.ntrust ||
	     memcmp(t->trust_sel, cur->dcb.trust, (size_t)t->ntrust))) {
		a = push(pl, ACT_TRUST, devidx);
		a->ntrust_from = cur->dcb.ntrust;
		memcpy(a->trust_from, cur->dcb.trust, 8);
		a->ntrust_to = t->ntrust;
		memcpy(a->trust_to, t->trust_sel, 8);
	}
	if (t->mtu && cur->link_ok && cur->mtu != t->mtu_v) {
		a = push(pl, ACT_MTU, devidx);
		a->from = cur->mtu;
		a->to = t->mtu_v;
	}
	if (t->cm_mode && cur->cm_ok && cur->roce_mode != t->mode) {
		a = push(pl, ACT_CM_MODE, devidx);
		a->from = (uint32_t)cur->roce_mode;
		a->to = (uint32_t)t->mode;
	}
	if (t->cm_tos && cur->cm_ok && cur->tos != t->tos) {
		a = push(pl, ACT_CM_TOS, devidx);
		a->from = (uint32_t)cur->tos;
		a->to = (uint32_t)t->tos;
	}
	if (t->cc_mask && cur->cc_ok) {
		uint32_t diff = 0;

		for (i = 0; i < RTUNE_P_COUNT; i++)
			if ((t->cc_mask & (1u << i)) && cur->cc.v[i] != t->cc.v[i])
				diff |= 1u << i;
		if (diff) {
			a = push(pl, ACT_CC, devidx);
			a->cc_from = cur->cc;
			a->cc_to = cur->cc;
			for (i = 0; i < RTUNE_P_COUNT; i++)
				if (diff & (1u << i))
					a->cc_to.v[i] = t->cc.v[i];
			a->cc_mask = diff;
		}
	}
	return pl->n - n0;
}

static void mask8(char *buf, size_t len, uint32_t m)
{
	rtune_format_prio_mask(m, buf, len);
}

static void arr8(char *buf, size_t len, const uint8_t *v, bool tsa)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 8 && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "",
				      tsa ? rtune_tsa_name(v[i]) : "");
	if (!tsa) {
		n = 0;
		for (i = 0; i < 8 && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%u", i ? " " : "", v[i]);
	}
}

static const char *trust_name(uint8_t s)
{
	return s == IEEE_8021QAZ_APP_SEL_DSCP ? "dscp" : s == RTUNE_DCB_APP_SEL_PCP ? "pcp" :
	       s == 1 ? "ethtype" : s == 2 ? "stream-port" : s == 3 ? "dgram-port" : "port";
}

void act_describe(const struct rtune_action *a, char *buf, size_t len)
{
	char x[96], y[96];
	size_t n;
	int i;

	switch (a->kind) {
	case ACT_MTU:
		snprintf(buf, len, "mtu %u -> %u", a->from, a->to);
		break;
	case ACT_PFC:
		mask8(x, sizeof(x), a->from);
		mask8(y, sizeof(y), a->to);
		snprintf(buf, len, "pfc priorities %s -> %s", x, y);
		break;
	case ACT_ETS:
		n = 0;
		if (memcmp(a->ets_from.prio_tc, a->ets_to.prio_tc, 8)) {
			arr8(x, sizeof(x), a->ets_from.prio_tc, false);
			arr8(y, sizeof(y), a->ets_to.prio_tc, false);
			n += (size_t)snprintf(buf + n, len - n, "ets prio_tc [%s] -> [%s]; ", x, y);
		}
		if (n < len && memcmp(a->ets_from.tc_tsa, a->ets_to.tc_tsa, 8)) {
			arr8(x, sizeof(x), a->ets_from.tc_tsa, true);
			arr8(y, sizeof(y), a->ets_to.tc_tsa, true);
			n += (size_t)snprintf(buf + n, len - n, "ets tsa [%s] -> [%s]; ", x, y);
		}
		if (n < len && memcmp(a->ets_from.tc_tx_bw, a->ets_to.tc_tx_bw, 8)) {
			arr8(x, sizeof(x), a->ets_from.tc_tx_bw, false);
			arr8(y, sizeof(y), a->ets_to.tc_tx_bw, false);
			n += (size_t)snprintf(buf + n, len - n, "ets bw [%s] -> [%s]; ", x, y);
		}
		if (n < len && a->ets_from.willing != a->ets_to.willing)
			n += (size_t)snprintf(buf + n, len - n, "ets willing %u -> %u; ",
					      a->ets_from.willing, a->ets_to.willing);
		if (n >= 2 && n < len)
			buf[n - 2] = '\0';
		break;
	case ACT_APP_ADD:
	case ACT_APP_DEL:
		n = (size_t)snprintf(buf, len, "dscp-prio %s %d entr%s:",
				     a->kind == ACT_APP_ADD ? "add" : "del", a->napps,
				     a->napps == 1 ? "y" : "ies");
		for (i = 0; i < a->napps && n < len; i++) {
			if (i == 8 && a->napps > 10) {
				n += (size_t)snprintf(buf + n, len - n, " ...");
				break;
			}
			n += (size_t)snprintf(buf + n, len - n, " %u:%u", a->apps[i].protocol,
					      a->apps[i].priority);
		}
		break;
	case ACT_TRUST:
		x[0] = y[0] = '\0';
		for (i = 0; i < a->ntrust_from; i++)
			snprintf(x + strlen(x), sizeof(x) - strlen(x), "%s%s", i ? "," : "",
				 trust_name(a->trust_from[i]));
		for (i = 0; i < a->ntrust_to; i++)
			snprintf(y + strlen(y), sizeof(y) - strlen(y), "%s%s", i ? "," : "",
				 trust_name(a->trust_to[i]));
		snprintf(buf, len, "apptrust [%s] -> [%s]", x, y);
		break;
	case ACT_CM_MODE:
		snprintf(buf, len, "rdma_cm roce_mode %s -> %s",
			 a->from == 2 ? "v2" : a->from == 1 ? "v1" : "?", a->to == 2 ? "v2" : "v1");
		break;
	case ACT_CM_TOS:
		snprintf(buf, len, "rdma_cm tos %u -> %u", a->from, a->to);
		break;
	case ACT_CC:
		n = (size_t)snprintf(buf, len, "cc");
		for (i = 0; i < RTUNE_P_COUNT && n < len; i++) {
			char f[RTUNE_PARAM_TEXT_MAX], t[RTUNE_PARAM_TEXT_MAX];

			if (!(a->cc_mask & (1u << i)))
				continue;
			rtune_param_format((enum rtune_param_id)i, a->cc_from.v[i], f, sizeof(f));
			rtune_param_format((enum rtune_param_id)i, a->cc_to.v[i], t, sizeof(t));
			f[strcspn(f, "\n")] = '\0';
			t[strcspn(t, "\n")] = '\0';
			n += (size_t)snprintf(buf + n, len - n, " %s %s -> %s;",
					      rtune_param_descs[i].name, f, t);
		}
		if (n < len && buf[n - 1] == ';')
			buf[n - 1] = '\0';
		break;
	default:
		snprintf(buf, len, "?");
	}
}

void plan_owner_dcbx(const struct rtune_link *dev, int devidx, bool force, struct rtune_plan *pl)
{
	const struct rtune_dcb *d = &dev->dcb;

	if (d->ok && d->has_dcbx &&
	    ((d->dcbx & DCB_CAP_DCBX_LLD_MANAGED) || !(d->dcbx & DCB_CAP_DCBX_HOST)))
		plan_note(pl, devidx, force ? RTUNE_SEV_WARNING : RTUNE_SEV_ERROR, "conflict-dcbx",
			  "%s: DCBX is managed by %s (dcbx 0x%02x), not the host: settings may be overwritten (or --force)",
			  dev->netdev, d->dcbx & DCB_CAP_DCBX_LLD_MANAGED ? "an LLDP agent" : "firmware",
			  d->dcbx);
}
