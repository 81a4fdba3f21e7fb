// SPDX-License-Identifier: GPL-2.0
/*
 * The configfs/sysfs text parsers of `rocetune stats`
 * (tools/rocetune/stats.c): rocetune.ko's "name value" counters and the
 * qp_stats table (a header naming the columns, one line per QP). The
 * first byte picks the parser; the rest is the file's text, NUL-ended as
 * read_all()/cfs_read() leave it. What qp_stats accepts must be whole:
 * every QP parsed has its QPN.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../tools/rocetune/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtune_stctr c[32];
	struct rtune_stqp *q;
	char *text;
	int n;

	if (size < 1)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (data[0] & 1) {
		n = rtune_st_parse_qp_stats(text, &q);
		if (n < 0 && q)
			abort();	/* an error leaves nothing allocated */
		if (n > 0 && !q)
			abort();
		free(q);
	} else {
		n = rtune_st_parse_counters(text, c, 32);
		if (n < 0 || n > 32)
			abort();
		while (n--)
			if (strlen(c[n].name) >= sizeof(c[n].name) || !c[n].name[0])
				abort();
	}
	free(text);
	return 0;
}
