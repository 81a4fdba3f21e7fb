// SPDX-License-Identifier: GPL-2.0
/*
 * devlink over generic netlink: what `devlink port show`, `devlink dev
 * param show/set` and `devlink port function set ... roce` do, for the
 * port of one netdev and the two generic RoCE parameters. See devlink.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include "devlink.h"
#include "nl.h"

static const char *const param_names[] = {
	[RTUNE_DL_ENABLE_ROCE] = "enable_roce",
	[RTUNE_DL_ENABLE_IWARP] = "enable_iwarp",
};

const char *devlink_param_name(enum rtune_dl_pid id)
{
	return param_names[id];
}

/* The attributes of a genl reply, after the genl header. */
static int genl_table(const struct nlmsghdr *h, const struct nlattr **tb, int max)
{
	int len = (int)h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;

	if (len < 0)
		return -EPROTO;
	return rtune_nla_table((const char *)nlmsg_data(h) + GENL_HDRLEN, len, tb, max);
}

int devlink_parse_port(const struct nlmsghdr *h, int ifindex, struct rtune_devlink *out)
{
	const struct nlattr *tb[DEVLINK_ATTR_MAX + 1], *fn[RTUNE_DL_PORT_FN_ATTR_CAPS + 1];
	struct rtune_devlink d = { 0 };
	uint32_t ifi;

	if (genl_table(h, tb, DEVLINK_ATTR_MAX))
		return -EPROTO;
	if (!tb[DEVLINK_ATTR_PORT_NETDEV_IFINDEX])
		return 0;	/* a port without a netdev */
	if (rtune_nla_u32(tb[DEVLINK_ATTR_PORT_NETDEV_IFINDEX], &ifi) ||
	    rtune_nla_str(tb[DEVLINK_ATTR_BUS_NAME], d.bus, sizeof(d.bus)) ||
	    rtune_nla_str(tb[DEVLINK_ATTR_DEV_NAME], d.dev, sizeof(d.dev)) ||
	    rtune_nla_u32(tb[DEVLINK_ATTR_PORT_INDEX], &d.port))
		return -EPROTO;
	if (ifi != (uint32_t)ifindex)
		return 0;
	/* the physical port's number: mlx5 gives mlx5_get_dev_index() */
	d.phys_port = -2;
	if (tb[DEVLINK_ATTR_PORT_FLAVOUR]) {
		uint32_t num;

		if (nla_len(tb[DEVLINK_ATTR_PORT_FLAVOUR]) < 2)
			return -EPROTO;
		d.phys_port = -1;
		if (nla_get_u16(tb[DEVLINK_ATTR_PORT_FLAVOUR]) == DEVLINK_PORT_FLAVOUR_PHYSICAL &&
		    tb[DEVLINK_ATTR_PORT_NUMBER]) {
			if (rtune_nla_u32(tb[DEVLINK_ATTR_PORT_NUMBER], &num) || num > INT32_MAX)
				return -EPROTO;
			d.phys_port = (int)num;
		}
	}
	if (tb[DEVLINK_ATTR_PORT_FUNCTION]) {
		const struct nlattr *f = tb[DEVLINK_ATTR_PORT_FUNCTION];
		const struct nla_bitfield32 *caps;

		if (rtune_nla_table(nla_data(f), nla_len(f), fn, RTUNE_DL_PORT_FN_ATTR_CAPS))
			return -EPROTO;
		if (fn[RTUNE_DL_PORT_FN_ATTR_CAPS]) {
			if (nla_len(fn[RTUNE_DL_PORT_FN_ATTR_CAPS]) < (int)sizeof(*caps))
				return -EPROTO;
			caps = nla_data(fn[RTUNE_DL_PORT_FN_ATTR_CAPS]);
			if (caps->selector & RTUNE_DL_PORT_FN_CAP_ROCE) {
				d.has_fn_roce = true;
				d.fn_roce = !!(caps->value & RTUNE_DL_PORT_FN_CAP_ROCE);
			}
		}
	}
	d.ok = true;
	*out = d;
	return 1;
}

/* One DEVLINK_ATTR_PARAM_VALUE: cmode and, for a bool, the flag. */
static int parse_value(const struct nlattr *v, struct rtune_dl_param *out)
{
	const struct nlattr *tb[DEVLINK_ATTR_MAX + 1];
	uint8_t cmode;

	if (rtune_nla_table(nla_data(v), nla_len(v), tb, DEVLINK_ATTR_MAX) ||
	    rtune_nla_u8(tb[DEVLINK_ATTR_PARAM_VALUE_CMODE], &cmode))
		return -EPROTO;
	if (cmode > DEVLINK_PARAM_CMODE_PERMANENT)
		return 0;	/* a newer cmode: not ours to judge */
	out->cmodes |= (uint8_t)(1u << cmode);
	out->val[cmode] = tb[DEVLINK_ATTR_PARAM_VALUE_DATA] != NULL;
	return 0;
}

int devlink_parse_param(const struct nlmsghdr *h, const char *name, struct rtune_dl_param *out)
{
	const struct nlattr *tb[DEVLINK_ATTR_MAX + 1], *pt[DEVLINK_ATTR_MAX + 1];
	struct rtune_dl_param r = { .present = true };
	const struct nlattr *list, *pos;
	char pname[64];
	uint8_t type;
	int rem;

	if (genl_table(h, tb, DEVLINK_ATTR_MAX) || !tb[DEVLINK_ATTR_PARAM])
		return -EPROTO;
	if (rtune_nla_table(nla_data(tb[DEVLINK_ATTR_PARAM]), nla_len(tb[DEVLINK_ATTR_PARAM]),
			    pt, DEVLINK_ATTR_MAX) ||
	    rtune_nla_str(pt[DEVLINK_ATTR_PARAM_NAME], pname, sizeof(pname)) ||
	    rtune_nla_u8(pt[DEVLINK_ATTR_PARAM_TYPE], &type))
		return -EPROTO;
	if (strcmp(pname, name))
		return -ENOENT;
	if (type != NLA_FLAG)	/* DEVLINK_PARAM_TYPE_BOOL */
		return -EPROTO;
	list = pt[DEVLINK_ATTR_PARAM_VALUES_LIST];
	if (!list)
		return -EPROTO;
	nla_for_each_attr(pos, (struct nlattr *)nla_data(list), nla_len(list), rem) {
		if (nla_type(pos) != DEVLINK_ATTR_PARAM_VALUE)
			continue;
		if (parse_value(pos, &r))
			return -EPROTO;
	}
	if (rtune_nla_end_ok(rem))
		return -EPROTO;
	*out = r;
	return 0;
}

/* ---- I/O ---- */

struct dl_sock {
	struct nl_sock *sk;
	int family;
};

static int dl_open(struct dl_sock *s)
{
	s->sk = rtune_nl_open(NETLINK_GENERIC);
	if (!s->sk)
		return -errno;
	s->family = genl_ctrl_resolve(s->sk, DEVLINK_GENL_NAME);
	if (s->family < 0) {
		nl_socket_free(s->sk);
		s->sk = NULL;
		return -ENOENT;	/* no devlink in this kernel */
	}
	return 0;
}

static struct nl_msg *dl_msg(const struct dl_sock *s, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, s->family, 0, flags, cmd,
				DEVLINK_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int put_handle(struct nl_msg *msg, const struct rtune_devlink *dl)
{
	return nla_put_string(msg, DEVLINK_ATTR_BUS_NAME, dl->bus) < 0 ||
	       nla_put_string(msg, DEVLINK_ATTR_DEV_NAME, dl->dev) < 0 ? -ENOMEM : 0;
}

struct port_find {
	int ifindex;
	struct rtune_devlink *out;
	bool found;
};

static int port_cb(struct nlmsghdr *h, void *arg)
{
	struct port_find *f = arg;
	struct rtune_devlink d;
	int r;

	if (f->found)
		return 0;
	r = devlink_parse_port(h, f->ifindex, &d);
	if (r < 0)
		return r;
	if (r) {
		d.err = 0;
		d.roce = f->out->roce;
		d.iwarp = f->out->iwarp;
		*f->out = d;
		f->found = true;
	}
	return 0;
}

struct param_find {
	const char *name;
	struct rtune_dl_param *out;
};

static int param_cb(struct nlmsghdr *h, void *arg)
{
	struct param_find *f = arg;
	int r = devlink_parse_param(h, f->name, f->out);

	return r == -ENOENT ? 0 : r;
}

static int read_param(struct dl_sock *s, const struct rtune_devlink *dl, enum rtune_dl_pid id,
		      struct rtune_dl_param *out)
{
	struct param_find f = { .name = param_names[id], .out = out };
	struct nl_msg *msg = dl_msg(s, DEVLINK_CMD_PARAM_GET, NLM_F_REQUEST | NLM_F_ACK);
	int err;

	memset(out, 0, sizeof(*out));
	if (!msg)
		return -ENOMEM;
	if (put_handle(msg, dl) ||
	    nla_put_string(msg, DEVLINK_ATTR_PARAM_NAME, param_names[id]) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	err = rtune_nl_transact(s->sk, msg, param_cb, &f);
	return err == -EINVAL ? 0 : err;	/* the instance has no such parameter */
}

void devlink_read_dev(struct rtune_link *d)
{
	struct port_find f = { .ifindex = d->ifindex, .out = &d->dl };
	struct dl_sock s;
	struct nl_msg *msg;
	int err;

	memset(&d->dl, 0, sizeof(d->dl));
	err = dl_open(&s);
	if (err) {
		d->dl.err = err;
		return;
	}
	msg = dl_msg(&s, DEVLINK_CMD_PORT_GET, NLM_F_REQUEST | NLM_F_DUMP);
	err = msg ? rtune_nl_transact(s.sk, msg, port_cb, &f) : -ENOMEM;
	if (!err && !f.found)
		err = -ENODEV;
	if (!err)
		err = read_param(&s, &d->dl, RTUNE_DL_ENABLE_ROCE, &d->dl.roce);
	if (!err)
		err = read_param(&s, &d->dl, RTUNE_DL_ENABLE_IWARP, &d->dl.iwarp);
	if (err) {
		d->dl.ok = false;
		d->dl.err = err;
	}
	nl_socket_free(s.sk);
}

static int dl_write(struct dl_sock *s, struct nl_msg *msg)
{
	int err = rtune_nl_transact(s->sk, msg, NULL, NULL);

	rtune_writes++;
	nl_socket_free(s->sk);
	return err;
}

int devlink_param_set(const struct rtune_devlink *dl, enum rtune_dl_pid id, int cmode, bool val)
{
	struct dl_sock s;
	struct nl_msg *msg;
	int err = dl_open(&s);

	if (err)
		return err;
	msg = dl_msg(&s, DEVLINK_CMD_PARAM_SET, NLM_F_REQUEST | NLM_F_ACK);
	if (!msg || put_handle(msg, dl) ||
	    nla_put_string(msg, DEVLINK_ATTR_PARAM_NAME, param_names[id]) < 0 ||
	    nla_put_u8(msg, DEVLINK_ATTR_PARAM_TYPE, NLA_FLAG) < 0 ||
	    nla_put_u8(msg, DEVLINK_ATTR_PARAM_VALUE_CMODE, (uint8_t)cmode) < 0 ||
	    (val && nla_put_flag(msg, DEVLINK_ATTR_PARAM_VALUE_DATA) < 0)) {
		if (msg)
			nlmsg_free(msg);
		nl_socket_free(s.sk);
		return -ENOMEM;
	}
	return dl_write(&s, msg);
}

int devlink_fn_roce_set(const struct rtune_devlink *dl, bool on)
{
	struct nla_bitfield32 caps = {
		.value = on ? RTUNE_DL_PORT_FN_CAP_ROCE : 0,
		.selector = RTUNE_DL_PORT_FN_CAP_ROCE,
	};
	struct nlattr *fn;
	struct dl_sock s;
	struct nl_msg *msg;
	int err = dl_open(&s);

	if (err)
		return err;
	msg = dl_msg(&s, DEVLINK_CMD_PORT_SET, NLM_F_REQUEST | NLM_F_ACK);
	if (!msg || put_handle(msg, dl) ||
	    nla_put_u32(msg, DEVLINK_ATTR_PORT_INDEX, dl->port) < 0 ||
	    !(fn = nla_nest_start(msg, DEVLINK_ATTR_PORT_FUNCTION)) ||
	    nla_put(msg, RTUNE_DL_PORT_FN_ATTR_CAPS, sizeof(caps), &caps) < 0) {
		if (msg)
			nlmsg_free(msg);
		nl_socket_free(s.sk);
		return -ENOMEM;
	}
	nla_nest_end(msg, fn);
	return dl_write(&s, msg);
}
