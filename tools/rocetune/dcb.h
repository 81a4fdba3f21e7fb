/* SPDX-License-Identifier: GPL-2.0 */
/* IEEE DCB through dcbnl (RTM_GETDCB/RTM_SETDCB) on a libnl-3 core socket. */
#ifndef ROCETUNE_DCB_H
#define ROCETUNE_DCB_H

#include "state.h"
#include "nl.h"

/* One IEEE_GET: ETS, PFC, APP table, APP trust table, rewrite table, DCBX mode. */
int dcb_get(struct nl_sock *sk, const char *ifname, struct rtune_dcb *out);

/* Writes. Each returns 0 or a negative errno; both the netlink ACK and the
 * DCB status byte in the reply are checked. */
int dcb_set_pfc(struct nl_sock *sk, const char *ifname, const struct ieee_pfc *pfc);
int dcb_set_ets(struct nl_sock *sk, const char *ifname, const struct ieee_ets *ets);
int dcb_app_change(struct nl_sock *sk, const char *ifname, bool add,
		   const struct dcb_app *apps, int n);
int dcb_set_trust(struct nl_sock *sk, const char *ifname, const uint8_t *sel, int n);
/* Add (IEEE_SET) or delete (IEEE_DEL) rewrite entries; n == 0 sends nothing. */
int dcb_rewr_change(struct nl_sock *sk, const char *ifname, bool add,
		    const struct dcb_app *apps, int n);

/* Encoders, exposed for unit tests of the wire format. */
struct nl_msg *dcb_msg_ieee(int type, int cmd, const char *ifname);
/* IEEE_SET of the APP trust table @sel[0..n-1]; n == 0 sends an empty table. */
struct nl_msg *dcb_msg_trust(const char *ifname, const uint8_t *sel, int n);
/* IEEE_SET (@add) or IEEE_DEL of rewrite entries, each PCP entry as a
 * DCB_ATTR_DCB_APP, each other as a DCB_ATTR_IEEE_APP; NULL if n <= 0. */
struct nl_msg *dcb_msg_rewr(const char *ifname, bool add, const struct dcb_app *apps, int n);
/* Parse an IEEE_GET reply into a struct rtune_dcb (@arg); -EPROTO if malformed. */
int dcb_parse_get(struct nlmsghdr *h, void *arg);

#endif
