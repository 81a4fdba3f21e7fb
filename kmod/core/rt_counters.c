// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Driver congestion counter names and the neutral name each one feeds.
 * Sources: mlx5 counters.c, bnxt_re hw_counters.c (before and after its
 * rename to the mlx5 names) and the bnxt_re out-of-tree README.
 */
#include "rt_counters.h"

const char *const rt_counter_names[RT_C_COUNT] = {
	[RT_C_CNP_SENT] = "cnp_sent",
	[RT_C_CNP_HANDLED] = "cnp_handled",
	[RT_C_CNP_IGNORED] = "cnp_ignored",
	[RT_C_ECN_MARKED_RX] = "ecn_marked_rx",
};

static const struct {
	const char *driver_name;
	enum rt_counter_id id;
} rt_counter_aliases[] = {
	/* mlx5, and bnxt_re since its rename */
	{ "np_cnp_sent", RT_C_CNP_SENT },
	{ "rp_cnp_handled", RT_C_CNP_HANDLED },
	{ "rp_cnp_ignored", RT_C_CNP_IGNORED },
	{ "np_ecn_marked_roce_packets", RT_C_ECN_MARKED_RX },
	/* bnxt_re before the rename */
	{ "tx_cnp_pkts", RT_C_CNP_SENT },
	{ "np_cnp_pkts", RT_C_CNP_SENT },
	{ "rx_cnp_pkts", RT_C_CNP_HANDLED },
	{ "rx_ecn_marked_pkts", RT_C_ECN_MARKED_RX },
	/* bnxt_re out-of-tree (DCN firmware) */
	{ "tx_dcn_cnp", RT_C_CNP_SENT },
	{ "rx_dcn_cnp", RT_C_CNP_HANDLED },
	{ "rx_dcn_cnp_ignored", RT_C_CNP_IGNORED },
};

int rt_counter_alias(const char *driver_name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rt_counter_aliases); i++)
		if (!strcmp(rt_counter_aliases[i].driver_name, driver_name))
			return rt_counter_aliases[i].id;
	return -1;
}
