// SPDX-License-Identifier: GPL-2.0
/*
 * The doctor's snapshot of the host, from the readers the other commands
 * use: host.c for the settings of the devices (those a profile matches,
 * the named ones, or all with DCB or RDMA), stats.c's sampler twice for
 * counters and rates over the interval (host.c's settings include the PFC
 * storm prevention tunable), plus what only the doctor needs: rocetune.ko's
 * pacing state, the root qdisc that paces (qdisc.c) and whether lldpad runs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cfs.h"
#include "doctor.h"
#include "ethtool.h"
#include "host.h"
#include "nl.h"

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static const char *cfs_root(void)
{
	const char *r = getenv("ROCETUNE_CONFIGFS");

	return r && *r ? r : "/sys/kernel/config";
}

static void read_extra(struct nl_sock *sk, struct rtune_doc_port *d)
{
	char path[512];

	/* host.c read the tunable with the rest of the settings */
	d->has_pfc_tout = d->l.pfc_storm_err == 0;
	d->pfc_tout_ms = d->l.pfc_storm_ms;
	if (!d->l.has_ib)
		return;
	snprintf(path, sizeof(path), "%s/rocetune/%s/ports/%u/pacing", cfs_root(), d->l.ibdev,
		 d->l.port);
	if (cfs_read(path, d->pacing, sizeof(d->pacing)))
		d->pacing[0] = '\0';
	/* fq paces; how it sorts QPs into flows is its orphan mask */
	if (sk && !strncmp(d->pacing, "active", 6))
		d->has_qdisc = !rtune_root_qdisc_read(sk, d->l.ifindex, &d->qdisc);
}

int rtune_doc_read(const struct rtune_profile *p, char *const *names, int nnames,
		   int interval_ms, struct rtune_doc_snap *s)
{
	static struct rtune_host h;
	struct rtune_stsnap a = { 0 }, b = { 0 };
	struct nl_sock *sk;
	char **devs = NULL;
	int err, i, k;

	memset(s, 0, sizeof(*s));
	sk = rtune_nl_open(NETLINK_ROUTE);
	if (!sk)
		return -errno;
	err = host_collect(sk, p, names, nnames, &h);
	if (err) {
		nl_socket_free(sk);
		return err;
	}
	s->p = calloc((size_t)h.n + 1, sizeof(*s->p));
	devs = calloc((size_t)h.n + 1, sizeof(*devs));
	if (!s->p || !devs) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < h.n; i++)
		devs[i] = h.dev[i].netdev;
	/* the same devices, by netdev name, for the counters; none: no sample */
	if (h.n) {
		err = rtune_st_sample(devs, h.n, &a);
		if (!err) {
			sleep_ms(interval_ms);
			err = rtune_st_sample(devs, h.n, &b);
		}
		if (err)
			goto out;
		rtune_st_rates(&a, &b);
		s->interval_s = b.t - a.t;
	}
	for (i = 0; i < h.n; i++) {
		struct rtune_doc_port *d = &s->p[s->n++];

		d->l = h.dev[i];
		for (k = 0; k < b.n; k++)
			if (!strcmp(b.p[k].netdev, d->l.netdev))
				break;
		if (k < b.n) {
			d->s = b.p[k];
			d->s.qp = NULL;	/* b's, freed with it */
			d->s.nqp = 0;
		}	/* else no counters: the rules that need them find nothing */
		read_extra(sk, d);
	}
	s->lldpad = host_lldpad_running();
out:
	nl_socket_free(sk);
	rtune_st_free(&a);
	rtune_st_free(&b);
	free(devs);
	if (err)
		rtune_doc_free(s);
	return err;
}

void rtune_doc_free(struct rtune_doc_snap *s)
{
	free(s->p);
	memset(s, 0, sizeof(*s));
}
