// SPDX-License-Identifier: GPL-2.0
/*
 * dcbnl over rtnetlink, built on libnl-3 core (libnl-route has no DCB
 * object). A SET is acknowledged twice: the netlink ACK says the message
 * was parsed, the u8 DCB_ATTR_IEEE in the reply carries the driver's
 * result (a negative errno cast to s8, or a positive driver code). Both are
 * checked here; read-back is the caller's job.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include "dcb.h"

unsigned long rtune_writes;

struct nl_msg *dcb_msg_ieee(int type, int cmd, const char *ifname)
{
	struct dcbmsg dm = { .dcb_family = AF_UNSPEC, .cmd = (uint8_t)cmd };
	struct nl_msg *msg = nlmsg_alloc_simple(type, NLM_F_REQUEST | NLM_F_ACK);

	if (!msg)
		return NULL;
	if (nlmsg_append(msg, &dm, sizeof(dm), NLMSG_ALIGNTO) < 0 ||
	    nla_put_string(msg, DCB_ATTR_IFNAME, ifname) < 0) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int parse_app_table(const struct nlattr *tab, struct rtune_dcb *out)
{
	struct nlattr *a;
	int rem;

	out->has_app = true;
	nla_for_each_nested(a, (struct nlattr *)tab, rem) {
		struct dcb_app app;

		if (nla_type(a) != DCB_ATTR_IEEE_APP) {
			out->n_other_app++;
			continue;
		}
		if (nla_len(a) < (int)sizeof(app))
			return -EPROTO;
		memcpy(&app, nla_data(a), sizeof(app));
		if (app.selector == IEEE_8021QAZ_APP_SEL_DSCP &&
		    app.protocol < 64 && app.priority < 8)
			out->dscp_prios[app.protocol] |= (uint8_t)(1u << app.priority);
		else
			out->n_other_app++;
	}
	return rtune_nla_end_ok(rem);
}

static int parse_trust(const struct nlattr *tab, struct rtune_dcb *out)
{
	struct nlattr *a;
	int rem;

	out->has_trust = true;
	out->ntrust = 0;
	nla_for_each_nested(a, (struct nlattr *)tab, rem) {
		uint8_t sel;

		if (rtune_nla_u8(a, &sel))
			return -EPROTO;
		if (out->ntrust < 8)
			out->trust[out->ntrust++] = sel;
	}
	return rtune_nla_end_ok(rem);
}

/*
 * The rewrite table (Linux 6.3): struct dcb_app entries where .priority is
 * the priority and .protocol the PCP or DSCP it is rewritten to. The
 * kernel sends the table, even empty, for every dcbnl device; its absence
 * means a kernel without one.
 */
static int parse_rewr(const struct nlattr *tab, struct rtune_dcb *out)
{
	struct nlattr *a;
	int rem;

	out->has_rewr = true;
	nla_for_each_nested(a, (struct nlattr *)tab, rem) {
		struct dcb_app app;

		if (nla_type(a) != DCB_ATTR_IEEE_APP && nla_type(a) != RTUNE_DCB_ATTR_DCB_APP) {
			out->n_other_rewr++;
			continue;
		}
		if (nla_len(a) < (int)sizeof(app))
			return -EPROTO;
		memcpy(&app, nla_data(a), sizeof(app));
		if (app.selector == IEEE_8021QAZ_APP_SEL_DSCP && app.protocol < 64 &&
		    app.priority < 8)
			out->rewr_dscp[app.priority] |= 1ull << app.protocol;
		else if (app.selector == RTUNE_DCB_APP_SEL_PCP && app.protocol < 16 &&
			 app.priority < 8)
			out->rewr_pcp[app.priority] |= (uint16_t)(1u << app.protocol);
		else
			out->n_other_rewr++;
	}
	return rtune_nla_end_ok(rem);
}

int dcb_parse_get(struct nlmsghdr *h, void *arg)
{
	struct rtune_dcb *out = arg;
	const struct nlattr *tb[DCB_ATTR_MAX + 1], *ie[RTUNE_DCB_ATTR_DCB_REWR_TABLE + 1];
	int hdr = NLMSG_ALIGN(sizeof(struct dcbmsg));
	int err;

	if (h->nlmsg_type != RTM_GETDCB || h->nlmsg_len < NLMSG_HDRLEN + (unsigned int)hdr)
		return -EPROTO;
	if (rtune_nla_table((const char *)nlmsg_data(h) + hdr,
			 (int)h->nlmsg_len - NLMSG_HDRLEN - hdr, tb, DCB_ATTR_MAX))
		return -EPROTO;
	out->ok = true;
	if (tb[DCB_ATTR_DCBX] && !rtune_nla_u8(tb[DCB_ATTR_DCBX], &out->dcbx))
		out->has_dcbx = true;
	if (!tb[DCB_ATTR_IEEE])
		return 0;
	if (rtune_nla_table(nla_data(tb[DCB_ATTR_IEEE]), nla_len(tb[DCB_ATTR_IEEE]),
			 ie, RTUNE_DCB_ATTR_DCB_REWR_TABLE))
		return -EPROTO;
	if (ie[DCB_ATTR_IEEE_ETS]) {
		if (nla_len(ie[DCB_ATTR_IEEE_ETS]) < (int)sizeof(out->ets))
			return -EPROTO;
		memcpy(&out->ets, nla_data(ie[DCB_ATTR_IEEE_ETS]), sizeof(out->ets));
		out->has_ets = true;
	}
	if (ie[DCB_ATTR_IEEE_PFC]) {
		if (nla_len(ie[DCB_ATTR_IEEE_PFC]) < (int)sizeof(out->pfc))
			return -EPROTO;
		memcpy(&out->pfc, nla_data(ie[DCB_ATTR_IEEE_PFC]), sizeof(out->pfc));
		out->has_pfc = true;
	}
	if (ie[DCB_ATTR_IEEE_APP_TABLE]) {
		err = parse_app_table(ie[DCB_ATTR_IEEE_APP_TABLE], out);
		if (err)
			return err;
	}
	if (ie[RTUNE_DCB_ATTR_DCB_APP_TRUST_TABLE]) {
		err = parse_trust(ie[RTUNE_DCB_ATTR_DCB_APP_TRUST_TABLE], out);
		if (err)
			return err;
	}
	if (ie[RTUNE_DCB_ATTR_DCB_REWR_TABLE]) {
		err = parse_rewr(ie[RTUNE_DCB_ATTR_DCB_REWR_TABLE], out);
		if (err)
			return err;
	}
	return 0;
}

int dcb_get(struct nl_sock *sk, const char *ifname, struct rtune_dcb *out)
{
	struct nl_msg *msg = dcb_msg_ieee(RTM_GETDCB, DCB_CMD_IEEE_GET, ifname);
	int err;

	memset(out, 0, sizeof(*out));
	if (!msg)
		return -ENOMEM;
	err = rtune_nl_transact(sk, msg, dcb_parse_get, out);
	if (err) {
		memset(out, 0, sizeof(*out));
		out->err = -err;
	}
	return err;
}

/* The reply to IEEE_SET/IEEE_DEL: a u8 DCB_ATTR_IEEE status. */
struct set_status {
	int seen;
	int status;
};

static int set_cb(struct nlmsghdr *h, void *arg)
{
	struct set_status *st = arg;
	const struct nlattr *tb[DCB_ATTR_MAX + 1];
	int hdr = NLMSG_ALIGN(sizeof(struct dcbmsg));
	uint8_t v;

	if (h->nlmsg_len < NLMSG_HDRLEN + (unsigned int)hdr)
		return -EPROTO;
	if (rtune_nla_table((const char *)nlmsg_data(h) + hdr,
			 (int)h->nlmsg_len - NLMSG_HDRLEN - hdr, tb, DCB_ATTR_MAX))
		return -EPROTO;
	if (rtune_nla_u8(tb[DCB_ATTR_IEEE], &v))
		return -EPROTO;
	st->seen = 1;
	st->status = (int8_t)v;
	return 0;
}

static int send_set(struct nl_sock *sk, struct nl_msg *msg)
{
	struct set_status st = { 0, 0 };
	int err;

	rtune_writes++;
	err = rtune_nl_transact(sk, msg, set_cb, &st);
	if (err)
		return err;
	if (!st.seen)
		return -EPROTO;		/* no status byte: do not assume success */
	if (st.status < 0)
		return st.status;
	if (st.status > 0)
		return -EREMOTEIO;	/* positive driver code (ice): stopped the batch */
	return 0;
}

static int set_one(struct nl_sock *sk, const char *ifname, int attr,
		   const void *data, int len)
{
	struct nl_msg *msg = dcb_msg_ieee(RTM_SETDCB, DCB_CMD_IEEE_SET, ifname);
	struct nlattr *nest;

	if (!msg)
		return -ENOMEM;
	nest = nla_nest_start(msg, DCB_ATTR_IEEE);
	if (!nest || nla_put(msg, attr, len, data) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nla_nest_end(msg, nest);
	return send_set(sk, msg);
}

int dcb_set_pfc(struct nl_sock *sk, const char *ifname, const struct ieee_pfc *pfc)
{
	struct ieee_pfc p = *pfc;

	memset(p.requests, 0, sizeof(p.requests));
	memset(p.indications, 0, sizeof(p.indications));
	return set_one(sk, ifname, DCB_ATTR_IEEE_PFC, &p, sizeof(p));
}

int dcb_set_ets(struct nl_sock *sk, const char *ifname, const struct ieee_ets *ets)
{
	return set_one(sk, ifname, DCB_ATTR_IEEE_ETS, ets, sizeof(*ets));
}

int dcb_app_change(struct nl_sock *sk, const char *ifname, bool add,
		   const struct dcb_app *apps, int n)
{
	struct nl_msg *msg;
	struct nlattr *nest, *tab;
	int i;

	if (n <= 0)
		return 0;
	msg = dcb_msg_ieee(RTM_SETDCB, add ? DCB_CMD_IEEE_SET : DCB_CMD_IEEE_DEL, ifname);
	if (!msg)
		return -ENOMEM;
	nest = nla_nest_start(msg, DCB_ATTR_IEEE);
	tab = nest ? nla_nest_start(msg, DCB_ATTR_IEEE_APP_TABLE) : NULL;
	if (!tab)
		goto nomem;
	for (i = 0; i < n; i++)
		if (nla_put(msg, DCB_ATTR_IEEE_APP, sizeof(apps[i]), &apps[i]) < 0)
			goto nomem;
	nla_nest_end(msg, tab);
	nla_nest_end(msg, nest);
	return send_set(sk, msg);
nomem:
	nlmsg_free(msg);
	return -ENOMEM;
}

/*
 * An empty trust table is a request too: "trust nothing" is how a rollback
 * restores a device that had no trust list. libnl's nla_nest_end() drops
 * an empty nest, and with it the whole DCB_ATTR_IEEE, which the kernel
 * refuses (EINVAL): both nests are closed keeping them, even empty.
 */
struct nl_msg *dcb_msg_trust(const char *ifname, const uint8_t *sel, int n)
{
	struct nl_msg *msg = dcb_msg_ieee(RTM_SETDCB, DCB_CMD_IEEE_SET, ifname);
	struct nlattr *nest, *tab;
	int i;

	if (!msg)
		return NULL;
	nest = nla_nest_start(msg, DCB_ATTR_IEEE);
	tab = nest ? nla_nest_start(msg, RTUNE_DCB_ATTR_DCB_APP_TRUST_TABLE) : NULL;
	if (!tab)
		goto nomem;
	for (i = 0; i < n; i++)
		if (nla_put_u8(msg, sel[i] == RTUNE_DCB_APP_SEL_PCP ? RTUNE_DCB_ATTR_DCB_APP :
			       DCB_ATTR_IEEE_APP, sel[i]) < 0)
			goto nomem;
	if (nla_nest_end_keep_empty(msg, tab) < 0 || nla_nest_end_keep_empty(msg, nest) < 0)
		goto nomem;
	return msg;
nomem:
	nlmsg_free(msg);
	return NULL;
}

int dcb_set_trust(struct nl_sock *sk, const char *ifname, const uint8_t *sel, int n)
{
	struct nl_msg *msg = dcb_msg_trust(ifname, sel, n);

	if (!msg)
		return -ENOMEM;
	return send_set(sk, msg);
}

/*
 * The rewrite table has no "replace the whole table" request: entries are
 * added (IEEE_SET) and deleted (IEEE_DEL) one by one, so an empty table is
 * reached by deleting, and no request here is ever an empty table (libnl's
 * nla_nest_end() would drop an empty nest, and the kernel would refuse
 * the message). The nests are still closed keeping them, whatever they hold.
 */
struct nl_msg *dcb_msg_rewr(const char *ifname, bool add, const struct dcb_app *apps, int n)
{
	struct nl_msg *msg;
	struct nlattr *nest, *tab;
	int i;

	if (n <= 0)
		return NULL;
	msg = dcb_msg_ieee(RTM_SETDCB, add ? DCB_CMD_IEEE_SET : DCB_CMD_IEEE_DEL, ifname);
	if (!msg)
		return NULL;
	nest = nla_nest_start(msg, DCB_ATTR_IEEE);
	tab = nest ? nla_nest_start(msg, RTUNE_DCB_ATTR_DCB_REWR_TABLE) : NULL;
	if (!tab)
		goto nomem;
	for (i = 0; i < n; i++)
		if (nla_put(msg, apps[i].selector == RTUNE_DCB_APP_SEL_PCP ? RTUNE_DCB_ATTR_DCB_APP :
			    DCB_ATTR_IEEE_APP, sizeof(apps[i]), &apps[i]) < 0)
			goto nomem;
	if (nla_nest_end_keep_empty(msg, tab) < 0 || nla_nest_end_keep_empty(msg, nest) < 0)
		goto nomem;
	return msg;
nomem:
	nlmsg_free(msg);
	return NULL;
}

int dcb_rewr_change(struct nl_sock *sk, const char *ifname, bool add,
		    const struct dcb_app *apps, int n)
{
	struct nl_msg *msg;

	if (n <= 0)
		return 0;
	msg = dcb_msg_rewr(ifname, add, apps, n);
	if (!msg)
		return -ENOMEM;
	return send_set(sk, msg);
}
