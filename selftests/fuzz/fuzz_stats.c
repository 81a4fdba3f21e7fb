// SPDX-License-Identifier: GPL-2.0
/*
 * The text parsers of what rocetune reads from files and programs: the
 * configfs/sysfs text of `rocetune stats` (tools/rocetune/stats.c):
 * rocetune.ko's "name value" counters and the qp_stats table (a header
 * naming the columns, one line per QP), and the output of `mstconfig -d
 * DEV query` that show and diff read (tools/rocetune/mstcfg_parse.c),
 * and irdma's module parameter files (tools/rocetune/irdma_load.c).
 * The first byte picks the parser (bit 3: an irdma parameter, which one by
 * the high nibble; bit 1: mstconfig, for port 1 or 2 by
 * bit 2; else bit 0: qp_stats or counters); the rest is the text,
 * NUL-ended as read_all()/cfs_read() leave it, or for mstconfig exactly
 * as long as the pipe gave it (no NUL). What qp_stats accepts must be
 * whole: every QP parsed has its QPN; what mstconfig's parser accepts is
 * a value or N/A per parameter, never both, and an error always says why;
 * an irdma parameter is a value of its type or an error that leaves the
 * value as it was.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../tools/rocetune/irdma_load.h"
#include "../../tools/rocetune/mstcfg.h"
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
	if (data[0] & 8) {
		enum rtune_irdma_mp id = (enum rtune_irdma_mp)((data[0] >> 4) % RTUNE_IRDMA_MP_COUNT);
		uint32_t v = 0xdeadbeef;

		/* exactly as long as the file was, no NUL */
		if (rtune_irdma_mp_parse(id, (const char *)data + 1, size - 1, &v)) {
			if (v != 0xdeadbeef)
				abort();	/* a refused text changes nothing */
		} else if ((id <= RTUNE_IRDMA_MP_CFG_VALID && v > 1) ||
			   (id <= RTUNE_IRDMA_MP_F && id >= RTUNE_IRDMA_MP_MIN_DEC_FACTOR && v > 0xff)) {
			abort();	/* a value outside its type */
		}
		return 0;
	}
	if (data[0] & 2) {
		struct rtune_nvcc nv;
		char err[200];
		char *out = malloc(size - 1 ? size - 1 : 1);
		int r;

		if (!out)
			return 0;
		memcpy(out, data + 1, size - 1);
		r = rtune_mstcfg_parse(out, size - 1, (data[0] >> 2 & 1) + 1, &nv, err, sizeof(err));
		if (strlen(err) >= sizeof(err) || (r && !err[0]) || (!r && err[0]))
			abort();	/* an error says why; success says nothing */
		if ((nv.valid & nv.na) || (nv.valid | nv.na) >> RTUNE_NV_COUNT)
			abort();
		free(out);
		return 0;
	}
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
