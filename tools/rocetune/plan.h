/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Targets and plans. A target says what one device should look like: the
 * wanted values in the shape of the device state (struct rtune_link) and,
 * per object, which of its fields are wanted at all. The planner compares
 * it with the device's current state and emits only the writes that
 * differ. The same planner builds the rollback plan, with a target made
 * from the state saved before apply, and checks that the rollback left
 * nothing to do. Pure: no I/O here or in the objects' plan functions.
 *
 * What each object reads, compares, writes and prints is in its own file
 * (obj_*.c, see obj.h); this file only loops over them.
 */
#ifndef ROCETUNE_PLAN_H
#define ROCETUNE_PLAN_H

#include "profile.h"
#include "state.h"

/* Room for the objects in the registry (obj.c:rtune_objs). */
#define RTUNE_MAX_OBJS 9

struct rtune_obj;

struct rtune_target {
	struct rtune_link want;		/* wanted values */
	uint32_t mask[RTUNE_MAX_OBJS];	/* per object: which fields are wanted */
};

struct rtune_action {
	const struct rtune_obj *obj;
	int op;				/* the object's kind of write (APP: add, del, trust) */
	int dev;			/* index in rtune_host */
	uint32_t mask;			/* the object's fields it changes (CC: parameters) */
	struct rtune_link from, to;	/* the object's part of the state before and after */
	/* results */
	int err;			/* 0 when done */
	bool done;
	char why[200];
};

/*
 * One setting an action changes, as text: its name as the profile says it
 * ("pfc.priorities", "cc.<param>"), the value the device has and the value
 * the action writes. `rocetune watch` reports drift one setting a line.
 */
struct rtune_setting {
	char name[48];
	char cur[200];
	char want[200];
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

/* Per object, the fields that actions changed on one device (for rollback). */
struct rtune_touched {
	uint32_t mask[RTUNE_MAX_OBJS];
};

/* The target a profile asks of @dev (parts that do not apply are noted). */
void target_from_profile(const struct rtune_profile *p, const struct rtune_link *dev,
			 int devidx, struct rtune_target *t, struct rtune_plan *pl);
/* The target that restores @saved for what @touched says was changed. */
void target_from_state(const struct rtune_link *saved, const struct rtune_touched *touched,
		       struct rtune_target *t);
/* Record in @t what @a changes; true if anything is recorded in @t. */
void plan_touch(struct rtune_touched *t, const struct rtune_action *a);
bool plan_touched(const struct rtune_touched *t);

/* Append to @pl the actions taking @cur to @t. Returns count added. */
int plan_device(const struct rtune_link *cur, int devidx, const struct rtune_target *t,
		struct rtune_plan *pl);
/* For the objects: a new action of @o on device @dev, from and to @cur. */
struct rtune_action *plan_push(struct rtune_plan *pl, const struct rtune_obj *o, int op,
			       int dev, const struct rtune_link *cur);

void plan_note(struct rtune_plan *pl, int dev, enum rtune_sev sev, const char *code,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void plan_free(struct rtune_plan *pl);
/* DCBX reported as run by an LLDP agent or firmware, not the host. */
bool plan_dcbx_foreign(const struct rtune_dcb *d);
/* Conflicting owner: DCBX run by an LLDP agent or firmware, not the host. */
void plan_owner_dcbx(const struct rtune_link *dev, int devidx, bool force, struct rtune_plan *pl);
/* Does the profile set anything that goes through dcbnl? */
bool plan_wants_dcb(const struct rtune_profile *p);

/* The action's "object" in the output ("ets", "app-add", "roce-tos", ...). */
const char *act_name(const struct rtune_action *a);
/* One-line human description "from -> to" of an action. */
void act_describe(const struct rtune_action *a, char *buf, size_t len);
/* The settings @a changes, at most @max in @s; returns the count (an
 * object without its own split gives one setting from its description). */
int act_settings(const struct rtune_action *a, struct rtune_setting *s, int max);
/* For the objects' settings functions: fill one. */
void plan_setting(struct rtune_setting *s, const char *name, const char *cur, const char *want);

#endif
