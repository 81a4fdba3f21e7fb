// SPDX-License-Identifier: GPL-2.0
/*
 * rocetune.conf(5) parser and validator: profile_parse_text() on any bytes,
 * then profile_validate() and the lookups on what it accepted; the
 * diagnostics are formatted (to /dev/null) as the tool prints them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../tools/rocetune/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rtune_profile p;
	static struct rtune_diags d;
	static FILE *null;
	unsigned int i;
	char *text;

	/* exact-size copy, no terminator: the parser is told the length */
	text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	memset(&d, 0, sizeof(d));
	if (profile_parse_text("fuzz.conf", text, size, &p, &d) == 0) {
		profile_validate(&p, &d);
		profile_matches(&p, "eth0", "rxe0");
		profile_matches(&p, "eth0", NULL);
		for (i = 0; i < RTUNE_NUM_DSCP; i++)
			profile_dscp_prio(&p, i);
	}
	if (!null)
		null = fopen("/dev/null", "w");
	if (null)
		diag_print(&d, null);
	free(text);
	return 0;
}
