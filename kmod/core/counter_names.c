// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Driver congestion counter names and the neutral name each one feeds.
 * Sources: mlx5 counters.c, bnxt_re hw_counters.c (before and after its
 * rename to the mlx5 names) and the bnxt_re out-of-tree README.
 */
#include "counter_names.h"

const char *const rtune_counter_names[RTUNE_C_COUNT] = {
	[RTUNE_C_CNP_SENT] = "cnp_sent",
	[RTUNE_C_CNP_HANDLED] = "cnp_handled",
	[RTUNE_C_CNP_IGNORED] = "cnp_ignored",
	[RTUNE_C_ECN_MARKED_RX] = "ecn_marked_rx",
};

static const struct {
	const char *driver_name;
	enum rtune_counter_id id;
} rtune_counter_aliases[] = {
	/* mlx5, and bnxt_re since its rename */
	{ "np_cnp_sent", RTUNE_C_CNP_SENT },
	{ "rp_cnp_handled", RTUNE_C_CNP_HANDLED },
	{ "rp_cnp_ignored", RTUNE_C_CNP_IGNORED },
	{ "np_ecn_marked_roce_packets", RTUNE_C_ECN_MARKED_RX },
	/* bnxt_re before the rename */
	{ "tx_cnp_pkts", RTUNE_C_CNP_SENT },
	{ "np_cnp_pkts", RTUNE_C_CNP_SENT },
	{ "rx_cnp_pkts", RTUNE_C_CNP_HANDLED },
	{ "rx_ecn_marked_pkts", RTUNE_C_ECN_MARKED_RX },
	/* bnxt_re out-of-tree (DCN firmware) */
	{ "tx_dcn_cnp", RTUNE_C_CNP_SENT },
	{ "rx_dcn_cnp", RTUNE_C_CNP_HANDLED },
	{ "rx_dcn_cnp_ignored", RTUNE_C_CNP_IGNORED },
};

int rtune_counter_alias(const char *driver_name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rtune_counter_aliases); i++)
		if (!strcmp(rtune_counter_aliases[i].driver_name, driver_name))
			return rtune_counter_aliases[i].id;
	return -1;
}
