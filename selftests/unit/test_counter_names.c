// SPDX-License-Identifier: GPL-2.0
/* Host unit tests for kmod/core/counter_names.c: vendor counter aliases. */
#include <string.h>

#include "../lib/tap.h"
#include "counter_names.h"

int main(void)
{
	static const struct { const char *name; int id; } cases[] = {
		{ "np_cnp_sent", RTUNE_C_CNP_SENT },		/* mlx5 */
		{ "rp_cnp_handled", RTUNE_C_CNP_HANDLED },	/* mlx5 */
		{ "rp_cnp_ignored", RTUNE_C_CNP_IGNORED },	/* mlx5 */
		{ "np_ecn_marked_roce_packets", RTUNE_C_ECN_MARKED_RX },
		{ "tx_cnp_pkts", RTUNE_C_CNP_SENT },		/* bnxt_re, old */
		{ "rx_cnp_pkts", RTUNE_C_CNP_HANDLED },	/* bnxt_re, old */
		{ "rx_ecn_marked_pkts", RTUNE_C_ECN_MARKED_RX },
		{ "sent_pkts", -1 },			/* rxe: no alias */
		{ "np_cnp_sent_", -1 },
		{ "", -1 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tap_check(rtune_counter_alias(cases[i].name) == cases[i].id,
			  "\"%s\" -> %s", cases[i].name,
			  cases[i].id < 0 ? "no alias" : rtune_counter_names[cases[i].id]);
	for (i = 0; i < RTUNE_C_COUNT; i++)
		tap_check(rtune_counter_names[i] && strlen(rtune_counter_names[i]),
			  "neutral counter %u has a name", i);
	return tap_done();
}
