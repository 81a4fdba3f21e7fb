/* SPDX-License-Identifier: GPL-2.0 */
/* Rendering state, plans, results and diagnostics for people and JSON. */
#ifndef ROCETUNE_OUTPUT_H
#define ROCETUNE_OUTPUT_H

#include <stdio.h>
#include "apply.h"
#include "json.h"
#include "plan.h"
#include "print.h"

#define RTUNE_JSON_VERSION 1
/* From the top-level VERSION file (Makefile); the module reports the same. */
#ifndef RTUNE_VERSION
#error "RTUNE_VERSION must be defined by the build (see tools/rocetune/Makefile)"
#endif

/* The current state of every device of @h (`show`, the saved state). */
void out_state(struct rtune_pr *pr, const char *key, const struct rtune_host *h);
/* One device's settings, without what identifies it (fingerprint.c). */
void out_dev_settings(struct rtune_pr *pr, const struct rtune_link *v);
void out_state_text(FILE *f, const struct rtune_host *h);
void out_state_json(struct jw *j, const char *key, const struct rtune_host *h);
void out_diags_json(struct jw *j, const struct rtune_diags *d);
const char *act_status(const struct rtune_action *a, bool executed);
void out_plan_text(FILE *f, const struct rtune_host *h, const struct rtune_plan *pl, bool executed);
void out_devices_json(struct jw *j, const struct rtune_host *h, const struct rtune_plan *pl,
		      bool executed);
void out_rollback_text(FILE *f, const struct rtune_host *h, const struct rtune_apply_result *r);
void out_rollback_json(struct jw *j, const struct rtune_host *h, const struct rtune_apply_result *r);

#endif
