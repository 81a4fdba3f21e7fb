/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The objects rocetune manages, one file each: obj_ets.c, obj_pfc.c,
 * obj_pfc_storm.c (the PFC storm prevention tunable; its key is in
 * obj_pfc.c's [pfc]), obj_app.c (DSCP map and trust), obj_rewr.c (the rewrite table), obj_mtu.c,
 * obj_cm.c (RDMA-CM RoCE mode and ToS), obj_cc.c (DCQCN parameters),
 * obj_devlink.c (enable_roce, enable_iwarp, the port function's roce
 * capability). Each file has one table of
 * operations, struct rtune_obj, holding everything about the object: its
 * profile section and keys, its checks, the target it takes from a profile
 * and from saved state, the plan (diff), the write with its read-back, the
 * description of a change and the printer of its state (text and JSON
 * from the same calls).
 *
 * profile.c, validate.c, plan.c, apply.c and output.c loop over rtune_objs
 * and never name an object. Adding an object: a new obj_*.c, its line in
 * obj.c's registry, its extern below, and the Makefiles (tools/rocetune and
 * selftests/unit).
 */
#ifndef ROCETUNE_OBJ_H
#define ROCETUNE_OBJ_H

#include "plan.h"
#include "print.h"

struct nl_sock;

/* What a device needs for an object to apply to it. */
enum rtune_scope {
	RTUNE_SCOPE_LINK,	/* every netdev */
	RTUNE_SCOPE_DCB,	/* dcbnl: shown under "dcb" */
	RTUNE_SCOPE_RDMA,	/* an RDMA port on the netdev */
	RTUNE_SCOPE_DEVLINK,	/* a devlink port: shown under "devlink" */
};

struct rtune_obj {
	const char *name;
	enum rtune_scope scope;
	/* per op: the action's "object" in the output (rocetune(8)) */
	const char *const *act_names;
	/* the profile section it owns (rocetune.conf(5)), or NULL */
	const struct rtune_section *section;

	/* Does the profile set anything of this object? */
	bool (*wanted)(const struct rtune_profile *p);
	/* Checks of its own keys (cross-object checks: validate.c). Optional. */
	void (*validate)(const struct rtune_profile *p, struct rtune_diags *d);
	/* Fill @want and @mask from the profile for @dev; note what cannot apply. */
	void (*target)(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		       struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl);
	/* Fill @want and @mask to restore @saved for the @touched fields. */
	void (*restore)(const struct rtune_link *saved, uint32_t touched,
			struct rtune_link *want, uint32_t *mask);
	/* Push the actions taking @cur to @want for the fields in @mask. Pure. */
	void (*plan)(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		     uint32_t mask, struct rtune_plan *pl);
	/* Write @a, read it back into @d; 0 or -errno with a->why set. */
	int (*apply)(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a);
	void (*describe)(const struct rtune_action *a, char *buf, size_t len);
	/* Split @a into the settings it changes (plan.h); count, <= @max. */
	int (*settings)(const struct rtune_action *a, struct rtune_setting *s, int max);
	/* Print the object's current state on @v. */
	void (*show)(struct rtune_pr *pr, const struct rtune_link *v);
};

/* The registry, in write order: a plan writes the objects in this order,
 * and sections, notes and `show` follow it. NULL-terminated. */
extern const struct rtune_obj *const rtune_objs[];

extern const struct rtune_obj rtune_obj_ets, rtune_obj_pfc, rtune_obj_pfc_storm, rtune_obj_app,
	rtune_obj_rewr, rtune_obj_mtu, rtune_obj_cm, rtune_obj_cc, rtune_obj_devlink;

#define rtune_for_each_obj(i, o) \
	for ((i) = 0; ((o) = rtune_objs[i]) != NULL; (i)++)

/* For obj_app.c and its tests: the DSCP entries an APP add or delete
 * writes, in DSCP then priority order. Returns the count. */
int rtune_app_entries(const struct rtune_action *a, struct dcb_app *out, int max);

/* For obj_rewr.c and its tests: the rewrite entries a rewrite add or
 * delete writes, DSCP ones (by priority, then DSCP) then PCP ones. */
int rtune_rewr_entries(const struct rtune_action *a, struct dcb_app *out, int max);

/* Shared by the DCB objects: re-read the whole DCB state of @d after a
 * write; on failure a->why says so. */
int rtune_obj_reread_dcb(struct nl_sock *sk, struct rtune_link *d, struct rtune_action *a);

/* A [pfc] storm_prevention value as the profile writes it: off, auto or ms. */
void rtune_fmt_pfc_storm(char *buf, size_t len, uint16_t v);

/* "a b c" of @n numbers, or of TSA names with @tsa. */
void rtune_fmt_u8s(char *buf, size_t len, const uint8_t *v, int n, bool tsa);

#endif
