/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the vendor-surface unit tests (test_rocetune_surface.c,
 * test_rocetune_ionic.c) share: the profile under test, parsed and
 * validated from text, a device as surface_read_dev() finds it, and a
 * look for one note in a plan. Included once per test program.
 */
#ifndef ROCETUNE_UNIT_SURFACE_FIXTURE_H
#define ROCETUNE_UNIT_SURFACE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../tools/rocetune/diag.h"
#include "../../tools/rocetune/plan.h"
#include "../../tools/rocetune/profile.h"
#include "../../tools/rocetune/surface.h"

static struct rtune_profile prof;

/* Parse and validate @text into prof; a bad profile is the test's bug. */
static void load(const char *text)
{
	static struct rtune_diags d;

	memset(&d, 0, sizeof(d));
	memset(&prof, 0, sizeof(prof));
	if (profile_parse_text("t.conf", text, strlen(text), &prof, &d) ||
	    profile_validate(&prof, &d)) {
		diag_print(&d, stdout);
		abort();
	}
}

/* eth0 carrying rxe0 port 1, with its vendor surface read. */
static void dev(struct rtune_link *v)
{
	memset(v, 0, sizeof(*v));
	strcpy(v->netdev, "eth0");
	v->has_ib = true;
	strcpy(v->ibdev, "rxe0");
	v->port = 1;
	surface_read_dev(v);
}

/* Whether @pl has a note @code whose message holds @needle (NULL: any). */
static int note(const struct rtune_plan *pl, const char *code, const char *needle)
{
	int i;

	for (i = 0; i < pl->nnotes; i++)
		if (!strcmp(pl->notes[i].code, code) &&
		    (!needle || strstr(pl->notes[i].msg, needle)))
			return 1;
	return 0;
}

#endif
