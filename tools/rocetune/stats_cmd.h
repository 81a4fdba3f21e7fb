/* SPDX-License-Identifier: GPL-2.0 */
/* The `stats` and `top` commands. */
#ifndef ROCETUNE_STATS_CMD_H
#define ROCETUNE_STATS_CMD_H

#include <stdbool.h>
#include "stats.h"

struct rtune_stats_opts {
	bool json;
	int interval_ms;	/* stats: 0 = one sample, no rates */
	bool prom;		/* stats --prometheus */
	const char *prom_file;	/* NULL or "-": stdout */
	int iterations;		/* top: 0 = until q, SIGINT or SIGTERM */
	enum rtune_st_sort sort;
	bool bind_qpc;		/* stats --bind-qp-counters */
	bool unbind_qpc;	/* stats --unbind-qp-counters */
	char **names;		/* dev NAME...: netdevs or RDMA devices */
	int nnames;
};

int rtune_stats(const struct rtune_stats_opts *o);
int rtune_top(const struct rtune_stats_opts *o);

#endif
