// SPDX-License-Identifier: GPL-2.0
/*
 * The configfs text readers: cc_get() (tools/rocetune/cc.c) reads each
 * active/<param> file with cfs_read() and parses it with
 * rtune_param_parse() (kmod/core/params.c, also the module's store
 * parser). Every parameter parses the fuzzer's text; what it accepts must
 * format (as cc_apply() writes it) and parse back to the same value.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/core/params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1);
	char out[RTUNE_PARAM_TEXT_MAX];
	int i, n;

	if (!text)
		return 0;
	memcpy(text, data, size);
	for (i = 0; i < RTUNE_P_COUNT; i++) {
		u32 v, back;

		if (rtune_param_parse((enum rtune_param_id)i, text, size, &v))
			continue;
		n = rtune_param_format((enum rtune_param_id)i, v, out, sizeof(out));
		if (n <= 0 || (size_t)n >= sizeof(out))
			abort();	/* accepted but cannot be written back */
		if (rtune_param_parse((enum rtune_param_id)i, out, (size_t)n, &back) ||
		    back != v)
			abort();	/* write-back does not read back the same */
	}
	free(text);
	return 0;
}
