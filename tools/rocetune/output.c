// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "output.h"

static const char *sel_name(uint8_t s)
{
	switch (s) {
	case 1: return "ethtype";
	case 2: return "stream-port";
	case 3: return "dgram-port";
	case 4: return "port";
	case IEEE_8021QAZ_APP_SEL_DSCP: return "dscp";
	case RTUNE_DCB_APP_SEL_PCP: return "pcp";
	default: return "unknown";
	}
}

static void prio_list(char *buf, size_t len, uint32_t m)
{
	rtune_format_prio_mask(m, buf, len);
}

void out_state_text(FILE *f, const struct rtune_host *h)
{
	int i, k, d, p;

	for (i = 0; i < h->n; i++) {
		const struct rtune_link *v = &h->dev[i];
		char buf[64];

		fprintf(f, "%s: ifindex %d mtu %u", v->netdev, v->ifindex, v->mtu);
		if (v->has_ib)
			fprintf(f, " rdma %s/%u", v->ibdev, v->port);
		fputc('\n', f);
		if (!v->dcb.ok) {
			fprintf(f, "    dcb: not supported (%s)\n", strerror(v->dcb.err));
		} else {
			if (v->dcb.has_dcbx)
				fprintf(f, "    dcbx: 0x%02x%s%s\n", v->dcb.dcbx,
					v->dcb.dcbx & DCB_CAP_DCBX_HOST ? " host" : "",
					v->dcb.dcbx & DCB_CAP_DCBX_VER_IEEE ? " ieee" : "");
			if (v->dcb.has_pfc) {
				prio_list(buf, sizeof(buf), v->dcb.pfc.pfc_en);
				fprintf(f, "    pfc: priorities %s (cap %u)\n", buf, v->dcb.pfc.pfc_cap);
			}
			if (v->dcb.has_ets) {
				fprintf(f, "    ets: willing %u prio_tc", v->dcb.ets.willing);
				for (k = 0; k < 8; k++)
					fprintf(f, " %u", v->dcb.ets.prio_tc[k]);
				fprintf(f, " tsa");
				for (k = 0; k < 8; k++)
					fprintf(f, " %s", rtune_tsa_name(v->dcb.ets.tc_tsa[k]));
				fprintf(f, " bw");
				for (k = 0; k < 8; k++)
					fprintf(f, " %u", v->dcb.ets.tc_tx_bw[k]);
				fputc('\n', f);
			}
			if (v->dcb.has_app) {
				int n = 0;

				fprintf(f, "    dscp-prio:");
				for (d = 0; d < 64; d++)
					for (p = 0; p < 8; p++)
						if (v->dcb.dscp_prios[d] & (1u << p)) {
							fprintf(f, " %d:%d", d, p);
							n++;
						}
				fprintf(f, "%s (%d entries, %d other APP entries)\n", n ? "" : " none",
					n, v->dcb.n_other_app);
			}
			if (v->dcb.has_trust) {
				fprintf(f, "    apptrust:");
				for (k = 0; k < v->dcb.ntrust; k++)
					fprintf(f, " %s", sel_name(v->dcb.trust[k]));
				fprintf(f, "%s\n", v->dcb.ntrust ? "" : " none");
			}
		}
		if (v->has_ib) {
			if (v->cm_ok)
				fprintf(f, "    rdma_cm: roce_mode %s tos %d\n",
					v->roce_mode == 2 ? "v2" : v->roce_mode == 1 ? "v1" : "?", v->tos);
			else
				fprintf(f, "    rdma_cm: not available\n");
			if (v->cc_ok) {
				fprintf(f, "    cc (%s):", v->cc_backend[0] ? v->cc_backend : "?");
				for (k = 0; k < RTUNE_P_COUNT; k++) {
					char t[RTUNE_PARAM_TEXT_MAX];

					if (!(v->cc_valid & (1u << k)))
						continue;
					rtune_param_format((enum rtune_param_id)k, v->cc.v[k], t, sizeof(t));
					t[strcspn(t, "\n")] = '\0';
					fprintf(f, "%s%s %s", k % 4 ? "  " : "\n        ",
						rtune_param_descs[k].name, t);
				}
				fputc('\n', f);
			} else {
				fprintf(f, "    cc: rocetune.ko not present\n");
			}
		}
	}
}

static void arr8j(struct jw *j, const char *key, const uint8_t *v)
{
	int k;

	jw_arr(j, key);
	for (k = 0; k < 8; k++)
		jw_int(j, NULL, v[k]);
	jw_end_arr(j);
}

static void prios_j(struct jw *j, const char *key, uint32_t m)
{
	int k;

	jw_arr(j, key);
	for (k = 0; k < 8; k++)
		if (m & (1u << k))
			jw_int(j, NULL, k);
	jw_end_arr(j);
}

void out_state_json(struct jw *j, const char *key, const struct rtune_host *h)
{
	int i, k, d, p;

	jw_arr(j, key);
	for (i = 0; i < h->n; i++) {
		const struct rtune_link *v = &h->dev[i];

		jw_obj(j, NULL);
		jw_str(j, "netdev", v->netdev);
		jw_int(j, "ifindex", v->ifindex);
		jw_int(j, "mtu", v->mtu);
		if (v->has_ib) {
			jw_str(j, "rdma_device", v->ibdev);
			jw_int(j, "port", v->port);
		} else {
			jw_null(j, "rdma_device");
			jw_null(j, "port");
		}
		jw_obj(j, "dcb");
		jw_bool(j, "supported", v->dcb.ok);
		if (v->dcb.has_dcbx)
			jw_int(j, "dcbx", v->dcb.dcbx);
		else
			jw_null(j, "dcbx");
		if (v->dcb.has_pfc)
			prios_j(j, "pfc_priorities", v->dcb.pfc.pfc_en);
		else
			jw_null(j, "pfc_priorities");
		if (v->dcb.has_ets) {
			jw_obj(j, "ets");
			jw_int(j, "willing", v->dcb.ets.willing);
			arr8j(j, "prio_tc", v->dcb.ets.prio_tc);
			jw_arr(j, "tsa");
			for (k = 0; k < 8; k++)
				jw_str(j, NULL, rtune_tsa_name(v->dcb.ets.tc_tsa[k]));
			jw_end_arr(j);
			arr8j(j, "bw", v->dcb.ets.tc_tx_bw);
			jw_end_obj(j);
		} else {
			jw_null(j, "ets");
		}
		jw_arr(j, "dscp_prio");
		for (d = 0; d < 64; d++)
			for (p = 0; p < 8; p++)
				if (v->dcb.dscp_prios[d] & (1u << p)) {
					jw_arr(j, NULL);
					jw_int(j, NULL, d);
					jw_int(j, NULL, p);
					jw_end_arr(j);
				}
		jw_end_arr(j);
		if (v->dcb.has_trust) {
			jw_arr(j, "apptrust");
			for (k = 0; k < v->dcb.ntrust; k++)
				jw_str(j, NULL, sel_name(v->dcb.trust[k]));
			jw_end_arr(j);
		} else {
			jw_null(j, "apptrust");
		}
		jw_end_obj(j);
		if (v->cm_ok) {
			jw_obj(j, "rdma_cm");
			jw_str(j, "roce_mode", v->roce_mode == 2 ? "v2" : v->roce_mode == 1 ? "v1" : NULL);
			jw_int(j, "tos", v->tos);
			jw_end_obj(j);
		} else {
			jw_null(j, "rdma_cm");
		}
		if (v->cc_ok) {
			jw_obj(j, "cc");
			jw_str(j, "backend", v->cc_backend);
			jw_obj(j, "active");
			for (k = 0; k < RTUNE_P_COUNT; k++)
				if (v->cc_valid & (1u << k))
					jw_int(j, rtune_param_descs[k].name, v->cc.v[k]);
			jw_end_obj(j);
			jw_end_obj(j);
		} else {
			jw_null(j, "cc");
		}
		jw_end_obj(j);
	}
	jw_end_arr(j);
}

void out_diags_json(struct jw *j, const struct rtune_diags *d)
{
	int i;

	jw_arr(j, "diagnostics");
	for (i = 0; i < d->n; i++) {
		const struct rtune_diag *x = &d->d[i];

		jw_obj(j, NULL);
		jw_str(j, "severity", x->sev == RTUNE_SEV_ERROR ? "error" : "warning");
		jw_str(j, "code", x->code);
		jw_str(j, "file", x->file[0] ? x->file : NULL);
		if (x->line)
			jw_int(j, "line", x->line);
		else
			jw_null(j, "line");
		jw_str(j, "section", x->section[0] ? x->section : NULL);
		jw_str(j, "key", x->key[0] ? x->key : NULL);
		jw_str(j, "message", x->msg);
		jw_end_obj(j);
	}
	jw_end_arr(j);
}

const char *act_status(const struct rtune_action *a, bool executed)
{
	if (!executed)
		return "planned";
	if (a->done)
		return "applied";
	if (a->err)
		return "failed";
	return "not-run";
}

void out_plan_text(FILE *f, const struct rtune_host *h, const struct rtune_plan *pl, bool executed)
{
	int i, k;

	for (i = 0; i < h->n; i++) {
		const struct rtune_link *v = &h->dev[i];
		int n = 0;

		for (k = 0; k < pl->n; k++)
			n += pl->a[k].dev == i;
		fprintf(f, "%s", v->netdev);
		if (v->has_ib)
			fprintf(f, " (%s/%u)", v->ibdev, v->port);
		fprintf(f, ":%s\n", n ? "" : " in the declared state");
		for (k = 0; k < pl->nnotes; k++)
			if (pl->notes[k].dev == i)
				fprintf(f, "    %s: %s\n",
					pl->notes[k].sev == RTUNE_SEV_ERROR ? "error" : "note",
					pl->notes[k].msg);
		for (k = 0; k < pl->n; k++) {
			char buf[1024];
			const struct rtune_action *a = &pl->a[k];

			if (a->dev != i)
				continue;
			act_describe(a, buf, sizeof(buf));
			if (executed)
				fprintf(f, "    [%s] %s%s%s\n", act_status(a, true), buf,
					a->err ? ": " : "", a->err ? a->why : "");
			else
				fprintf(f, "    %s\n", buf);
		}
	}
}

void out_devices_json(struct jw *j, const struct rtune_host *h, const struct rtune_plan *pl,
		      bool executed)
{
	int i, k;

	jw_arr(j, "devices");
	for (i = 0; i < h->n; i++) {
		const struct rtune_link *v = &h->dev[i];

		jw_obj(j, NULL);
		jw_str(j, "netdev", v->netdev);
		jw_str(j, "rdma_device", v->has_ib ? v->ibdev : NULL);
		if (v->has_ib)
			jw_int(j, "port", v->port);
		else
			jw_null(j, "port");
		jw_arr(j, "notes");
		for (k = 0; k < pl->nnotes; k++) {
			if (pl->notes[k].dev != i)
				continue;
			jw_obj(j, NULL);
			jw_str(j, "severity", pl->notes[k].sev == RTUNE_SEV_ERROR ? "error" : "warning");
			jw_str(j, "code", pl->notes[k].code);
			jw_str(j, "message", pl->notes[k].msg);
			jw_end_obj(j);
		}
		jw_end_arr(j);
		jw_arr(j, "actions");
		for (k = 0; k < pl->n; k++) {
			const struct rtune_action *a = &pl->a[k];
			char buf[1024];

			if (a->dev != i)
				continue;
			act_describe(a, buf, sizeof(buf));
			jw_obj(j, NULL);
			jw_str(j, "object", act_name(a->kind));
			jw_str(j, "change", buf);
			jw_str(j, "status", act_status(a, executed));
			jw_str(j, "error", a->err ? a->why : NULL);
			jw_end_obj(j);
		}
		jw_end_arr(j);
		jw_end_obj(j);
	}
	jw_end_arr(j);
}

void out_rollback_text(FILE *f, const struct rtune_host *h, const struct rtune_apply_result *r)
{
	int k;

	if (!r->rollback_attempted)
		return;
	fprintf(f, "rollback: %s\n", r->rollback_complete ?
		"complete, the host is back in its previous state" :
		"INCOMPLETE, the host is not in its previous state");
	for (k = 0; k < r->rb.n; k++) {
		const struct rtune_action *a = &r->rb.a[k];
		char buf[1024];

		act_describe(a, buf, sizeof(buf));
		fprintf(f, "    %s: [%s] %s%s%s\n", h->dev[a->dev].netdev,
			a->done ? "restored" : "failed", buf, a->err ? ": " : "",
			a->err ? a->why : "");
	}
}

void out_rollback_json(struct jw *j, const struct rtune_host *h, const struct rtune_apply_result *r)
{
	int k;

	jw_obj(j, "rollback");
	jw_bool(j, "attempted", r->rollback_attempted);
	jw_bool(j, "complete", r->rollback_attempted && r->rollback_complete);
	jw_arr(j, "actions");
	for (k = 0; k < r->rb.n; k++) {
		const struct rtune_action *a = &r->rb.a[k];
		char buf[1024];

		act_describe(a, buf, sizeof(buf));
		jw_obj(j, NULL);
		jw_str(j, "netdev", h->dev[a->dev].netdev);
		jw_str(j, "object", act_name(a->kind));
		jw_str(j, "change", buf);
		jw_str(j, "status", a->done ? "restored" : "failed");
		jw_str(j, "error", a->err ? a->why : NULL);
		jw_end_obj(j);
	}
	jw_end_arr(j);
	jw_end_obj(j);
}
