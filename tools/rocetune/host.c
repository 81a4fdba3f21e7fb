// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc.h"
#include "cfs.h"
#include "dcb.h"
#include "devlink.h"
#include "ethtool.h"
#include "host.h"
#include "ibport.h"
#include "link.h"
#include "rdma.h"
#include "rdmacm.h"
#include "surface.h"

struct collect {
	const struct rtune_profile *p;
	char *const *names;
	int nnames;
	struct rtune_ibport ib[RTUNE_MAX_DEVS];
	int nib;
	struct rtune_host *h;
};

static const struct rtune_ibport *ib_for(const struct collect *c, const char *netdev)
{
	int i;

	for (i = 0; i < c->nib; i++)
		if (c->ib[i].netdev[0] && !strcmp(c->ib[i].netdev, netdev))
			return &c->ib[i];
	return NULL;
}

static void on_link(const char *name, int ifindex, uint32_t mtu, void *arg)
{
	struct collect *c = arg;
	const struct rtune_ibport *ib = ib_for(c, name);
	struct rtune_link *d;
	int i, want = 0;

	if (strcmp(name, "lo")) {
		if (c->h->nlinks < 8)
			snprintf(c->h->links[c->h->nlinks], sizeof(c->h->links[0]), "%s", name);
		c->h->nlinks++;
	}
	if (c->p) {
		want = profile_matches(c->p, name, ib ? ib->ibdev : NULL);
	} else if (c->nnames) {
		for (i = 0; i < c->nnames; i++)
			if (!strcmp(c->names[i], name) || (ib && !strcmp(c->names[i], ib->ibdev)))
				want = 1;
	} else {
		want = strcmp(name, "lo") != 0;	/* filtered after the DCB read */
	}
	if (!want || c->h->n >= RTUNE_MAX_DEVS)
		return;
	d = &c->h->dev[c->h->n++];
	memset(d, 0, sizeof(*d));
	snprintf(d->netdev, sizeof(d->netdev), "%s", name);
	d->ifindex = ifindex;
	d->mtu = mtu;
	d->link_ok = true;
	if (ib) {
		d->has_ib = true;
		snprintf(d->ibdev, sizeof(d->ibdev), "%s", ib->ibdev);
		d->port = ib->port;
	}
}

void host_read_dev(struct nl_sock *sk, struct rtune_link *d)
{
	int mode = 0, tos = 0;

	d->link_ok = link_get_mtu(sk, d->netdev, &d->ifindex, &d->mtu) == 0;
	dcb_get(sk, d->netdev, &d->dcb);
	d->pfc_storm_err = rtune_ethtool_pfc_tout(d->netdev, &d->pfc_storm_ms);
	devlink_read_dev(d);
	d->cm_ok = false;
	d->cc_ok = false;
	if (!d->has_ib)
		return;
	d->roce_mtu_err = rtune_ibport_active_mtu(d->ibdev, d->port, &d->roce_active_mtu);
	d->roce_mtu_ok = d->roce_mtu_err == 0;
	if (cm_get(d->ibdev, d->port, &mode, &tos) == 0) {
		d->cm_ok = true;
		d->roce_mode = mode;
		d->tos = tos;
	}
	memset(&d->cc, 0, sizeof(d->cc));
	/* a vendor surface, if the device has one, else rocetune.ko */
	surface_read_dev(d);
	if (d->hw.sf)
		return;
	if (cc_get(d->ibdev, d->port, &d->cc, &d->cc_valid, d->cc_backend,
		   sizeof(d->cc_backend)) == 0) {
		d->cc_ok = true;
		if (cc_driver(d->ibdev, d->cc_driver, sizeof(d->cc_driver)))
			d->cc_driver[0] = '\0';
	}
}

static int by_ifindex(const void *a, const void *b)
{
	return ((const struct rtune_link *)a)->ifindex - ((const struct rtune_link *)b)->ifindex;
}

int host_collect(struct nl_sock *sk, const struct rtune_profile *p,
		 char *const *names, int nnames, struct rtune_host *h)
{
	static struct collect c;
	int n, i, err, k;

	memset(&c, 0, sizeof(c));
	c.p = p;
	c.names = names;
	c.nnames = nnames;
	c.h = h;
	h->n = 0;
	h->nlinks = 0;
	h->dcb_err = 0;
	n = rdma_map(c.ib, RTUNE_MAX_DEVS);
	c.nib = n > 0 ? n : 0;	/* no RDMA netlink: no RDMA devices */
	h->nrdma = n;
	err = link_foreach(sk, on_link, &c);
	if (err)
		return err;
	qsort(h->dev, (size_t)h->n, sizeof(h->dev[0]), by_ifindex);
	for (i = 0; i < h->n; i++)
		host_read_dev(sk, &h->dev[i]);
	if (!p && !nnames) {
		for (i = k = 0; i < h->n; i++) {
			if (!h->dev[i].dcb.ok && !h->dcb_err)
				h->dcb_err = h->dev[i].dcb.err;
			if (h->dev[i].dcb.ok || h->dev[i].has_ib)
				h->dev[k++] = h->dev[i];
		}
		h->n = k;
	}
	return 0;
}

bool host_lldpad_running(void)
{
	DIR *dir = opendir("/proc");
	struct dirent *de;
	bool found = false;

	if (!dir)
		return false;
	while (!found && (de = readdir(dir))) {
		char path[300], comm[64];

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (cfs_read(path, comm, sizeof(comm)) == 0 && !strcmp(comm, "lldpad"))
			found = true;
	}
	closedir(dir);
	return found;
}

void host_check_owners(const struct rtune_profile *p, const struct rtune_host *h, bool force,
		       struct rtune_plan *pl)
{
	enum rtune_sev sev = force ? RTUNE_SEV_WARNING : RTUNE_SEV_ERROR;
	int i;

	if (!plan_wants_dcb(p))
		return;
	if (host_lldpad_running())
		plan_note(pl, -1, sev, "conflict-lldpad",
			  "lldpad is running and may overwrite DCB settings (stop it, or --force)");
	for (i = 0; i < h->n; i++)
		plan_owner_dcbx(&h->dev[i], i, force, pl);
}
