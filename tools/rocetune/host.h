/* SPDX-License-Identifier: GPL-2.0 */
/* Reading the whole current state of the devices a profile matches. */
#ifndef ROCETUNE_HOST_H
#define ROCETUNE_HOST_H

#include "profile.h"
#include "state.h"
#include "nl.h"
#include "plan.h"

/*
 * Fill @h with every netdev matched by @p (or, with @p NULL, named in
 * @names, or all netdevs with DCB or RDMA when @nnames is 0).
 * Returns 0 or a negative errno (netlink unavailable).
 */
int host_collect(struct nl_sock *sk, const struct rtune_profile *p,
		 char *const *names, int nnames, struct rtune_host *h);
/* Re-read everything about one device. */
void host_read_dev(struct nl_sock *sk, struct rtune_link *d);
/* Conflicting owners of DCB: lldpad running. */
bool host_lldpad_running(void);
/* Note in @pl the conflicting DCB owners (lldpad, DCBX not run by the host)
 * when @p sets DCB: errors, or warnings with @force. */
void host_check_owners(const struct rtune_profile *p, const struct rtune_host *h, bool force,
		       struct rtune_plan *pl);

#endif
