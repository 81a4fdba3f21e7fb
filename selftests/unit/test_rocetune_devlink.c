// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for rocetune's devlink object: the [devlink] keys,
 * the reply parsers (devlink.c) on messages built as the kernel builds
 * them, and the plan: which cmode is written, what needs a reload, the
 * order RoCE and iWARP are switched in, and the rollback target.
 */
#include <stdio.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <netlink/genl/genl.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/devlink.h"
#include "../../tools/rocetune/obj.h"

static struct rtune_profile prof;

static int load(const char *text)
{
	struct rtune_diags d;
	int r;

	memset(&d, 0, sizeof(d));
	memset(&prof, 0, sizeof(prof));
	r = profile_parse_text("t.conf", text, strlen(text), &prof, &d);
	if (!r)
		r = profile_validate(&prof, &d);
	return r;
}

static void test_keys(void)
{
	tap_check(!load("[match]\nnetdev = dcb*\n[devlink]\nenable_roce = true\nenable_iwarp = false\nport_fn_roce = false\n") &&
		  prof.has_dl_roce && prof.dl_roce && prof.has_dl_iwarp && !prof.dl_iwarp &&
		  prof.has_dl_fn_roce && !prof.dl_fn_roce, "[devlink] keys parse");
	tap_check(load("[match]\nnetdev = x\n[devlink]\nenable_roce = yes\n") != 0,
		  "enable_roce = yes is refused (true or false only)");
	tap_check(load("[match]\nnetdev = x\n[devlink]\nenable_roce = true\nenable_iwarp = true\n") != 0,
		  "enable_roce and enable_iwarp both true is refused");
	tap_check(load("[match]\nnetdev = x\n[devlink]\nreload = true\n") != 0,
		  "an unknown [devlink] key is refused");
}

/* ---- replies ---- */

static struct nl_msg *reply(uint8_t cmd)
{
	struct nl_msg *m = nlmsg_alloc();

	genlmsg_put(m, 0, 1, 0x20, 0, 0, cmd, DEVLINK_GENL_VERSION);
	nla_put_string(m, DEVLINK_ATTR_BUS_NAME, "platform");
	nla_put_string(m, DEVLINK_ATTR_DEV_NAME, "rocetune_dcbsim");
	return m;
}

static struct nl_msg *port_reply(uint32_t ifindex, int caps)
{
	struct nl_msg *m = reply(DEVLINK_CMD_PORT_NEW);

	nla_put_u32(m, DEVLINK_ATTR_PORT_INDEX, 2);
	nla_put_u32(m, DEVLINK_ATTR_PORT_NETDEV_IFINDEX, ifindex);
	if (caps >= 0) {
		/* an mlx5 PF's uplink: flavour physical, its port number */
		nla_put_u16(m, DEVLINK_ATTR_PORT_FLAVOUR, DEVLINK_PORT_FLAVOUR_PHYSICAL);
		nla_put_u32(m, DEVLINK_ATTR_PORT_NUMBER, 1);
	}
	if (caps >= 0) {
		struct nla_bitfield32 bf = { .value = (uint32_t)caps, .selector = RTUNE_DL_PORT_FN_CAP_ROCE };
		struct nlattr *fn = nla_nest_start(m, DEVLINK_ATTR_PORT_FUNCTION);

		nla_put(m, RTUNE_DL_PORT_FN_ATTR_CAPS, sizeof(bf), &bf);
		nla_nest_end(m, fn);
	}
	return m;
}

static void test_parse_port(void)
{
	struct rtune_devlink d;
	struct nl_msg *m = port_reply(7, 1);

	memset(&d, 0, sizeof(d));
	tap_check(devlink_parse_port(nlmsg_hdr(m), 7, &d) == 1 && d.ok && d.port == 2 &&
		  !strcmp(d.bus, "platform") && !strcmp(d.dev, "rocetune_dcbsim") &&
		  d.has_fn_roce && d.fn_roce && d.phys_port == 1,
		  "port of ifindex 7: handle, index, physical port number, roce cap on");
	tap_check(devlink_parse_port(nlmsg_hdr(m), 8, &d) == 0, "another ifindex does not match");
	nlmsg_free(m);
	m = port_reply(7, -1);
	memset(&d, 0, sizeof(d));
	tap_check(devlink_parse_port(nlmsg_hdr(m), 7, &d) == 1 && !d.has_fn_roce && d.phys_port == -2,
		  "no port function (Linux 6.1): no roce cap; no flavour: no physical port");
	nlmsg_free(m);
	m = port_reply(7, 0);
	nlmsg_hdr(m)->nlmsg_len -= 4;	/* cut into the bitfield */
	tap_check(devlink_parse_port(nlmsg_hdr(m), 7, &d) == -EPROTO, "a truncated reply is refused");
	nlmsg_free(m);
}

static struct nl_msg *param_reply(const char *name, int cmodes, int vals)
{
	struct nl_msg *m = reply(DEVLINK_CMD_PARAM_GET);
	struct nlattr *p = nla_nest_start(m, DEVLINK_ATTR_PARAM), *list;
	int cm;

	nla_put_string(m, DEVLINK_ATTR_PARAM_NAME, name);
	nla_put_flag(m, DEVLINK_ATTR_PARAM_GENERIC);
	nla_put_u8(m, DEVLINK_ATTR_PARAM_TYPE, NLA_FLAG);
	list = nla_nest_start(m, DEVLINK_ATTR_PARAM_VALUES_LIST);
	for (cm = 0; cm < 3; cm++) {
		struct nlattr *v;

		if (!(cmodes & 1 << cm))
			continue;
		v = nla_nest_start(m, DEVLINK_ATTR_PARAM_VALUE);
		nla_put_u8(m, DEVLINK_ATTR_PARAM_VALUE_CMODE, (uint8_t)cm);
		if (vals & 1 << cm)
			nla_put_flag(m, DEVLINK_ATTR_PARAM_VALUE_DATA);
		nla_nest_end(m, v);
	}
	nla_nest_end(m, list);
	nla_nest_end(m, p);
	return m;
}

static void test_parse_param(void)
{
	struct rtune_dl_param p;
	struct nl_msg *m = param_reply("enable_roce", 3, 1);

	memset(&p, 0, sizeof(p));
	tap_check(!devlink_parse_param(nlmsg_hdr(m), "enable_roce", &p) && p.present &&
		  p.cmodes == 3 && p.val[DEVLINK_PARAM_CMODE_RUNTIME] &&
		  !p.val[DEVLINK_PARAM_CMODE_DRIVERINIT],
		  "enable_roce: runtime true, driverinit false (flag absent)");
	tap_check(devlink_parse_param(nlmsg_hdr(m), "enable_iwarp", &p) == -ENOENT,
		  "a reply for another parameter is not taken");
	nlmsg_free(m);
}

/* ---- plans ---- */

static void dev_with(struct rtune_link *v, int roce_cmodes, int roce_vals)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->netdev, sizeof(v->netdev), "dcb0");
	v->link_ok = true;
	v->dl.ok = true;
	snprintf(v->dl.bus, sizeof(v->dl.bus), "platform");
	snprintf(v->dl.dev, sizeof(v->dl.dev), "rocetune_dcbsim");
	v->dl.roce.present = true;
	v->dl.roce.cmodes = (uint8_t)roce_cmodes;
	v->dl.roce.val[0] = roce_vals & 1;
	v->dl.roce.val[1] = roce_vals & 2;
	v->dl.iwarp.present = true;
	v->dl.iwarp.cmodes = 1;
	v->dl.has_fn_roce = true;
	v->dl.fn_roce = true;
}

static bool has_note(const struct rtune_plan *pl, const char *code)
{
	int i;

	for (i = 0; i < pl->nnotes; i++)
		if (!strcmp(pl->notes[i].code, code))
			return true;
	return false;
}

static void plan_for(const char *text, const struct rtune_link *v, struct rtune_plan *pl)
{
	struct rtune_target t;

	memset(pl, 0, sizeof(*pl));
	if (load(text))
		return;
	target_from_profile(&prof, v, 0, &t, pl);
	plan_device(v, 0, &t, pl);
}

static void test_plan(void)
{
	struct rtune_link v;
	struct rtune_plan pl;
	char buf[200];

	/* mlx5-like plus runtime view: driverinit true, runtime true */
	dev_with(&v, 3, 3);
	plan_for("[match]\nnetdev = dcb0\n[devlink]\nenable_roce = false\n", &v, &pl);
	tap_check(pl.n == 1 && pl.a[0].to.dl.roce.cmodes == 1 << DEVLINK_PARAM_CMODE_DRIVERINIT,
		  "enable_roce false is written to driverinit");
	if (pl.n == 1)
		act_describe(&pl.a[0], buf, sizeof(buf));
	tap_check(pl.n == 1 && strstr(buf, "needs `devlink dev reload`"),
		  "the action says it needs a reload: %s", pl.n ? buf : "");
	tap_check(has_note(&pl, "devlink-reload"), "the plan notes the pending reload");
	plan_free(&pl);

	/* written, not reloaded: driverinit false, runtime true */
	dev_with(&v, 3, 1);
	plan_for("[match]\nnetdev = dcb0\n[devlink]\nenable_roce = false\n", &v, &pl);
	tap_check(pl.n == 0 && has_note(&pl, "devlink-reload"),
		  "re-apply before the reload: no write, reload still pending");
	plan_free(&pl);

	/* ice-like: runtime only */
	dev_with(&v, 1, 1);
	plan_for("[match]\nnetdev = dcb0\n[devlink]\nenable_roce = false\nenable_iwarp = true\n",
		 &v, &pl);
	tap_check(pl.n == 2 && pl.a[0].op == 0 &&
		  pl.a[0].to.dl.roce.cmodes == 1 << DEVLINK_PARAM_CMODE_RUNTIME && pl.a[1].op == 1,
		  "runtime only: RoCE off is written before iWARP on");
	tap_check(!has_note(&pl, "devlink-reload"), "a runtime change needs no reload");
	plan_free(&pl);

	/* permanent only */
	dev_with(&v, 4, 4);
	plan_for("[match]\nnetdev = dcb0\n[devlink]\nenable_roce = false\n", &v, &pl);
	tap_check(pl.n == 0 && pl.nerr && has_note(&pl, "devlink-permanent"),
		  "a permanent-only parameter is refused, not written");
	plan_free(&pl);

	/* port function */
	dev_with(&v, 3, 3);
	plan_for("[match]\nnetdev = dcb0\n[devlink]\nport_fn_roce = false\n", &v, &pl);
	tap_check(pl.n == 1 && pl.a[0].op == 2 && !pl.a[0].to.dl.fn_roce,
		  "port_fn_roce false: one port function write");
	plan_free(&pl);
	v.dl.has_fn_roce = false;
	plan_for("[match]\nnetdev = dcb0\n[devlink]\nport_fn_roce = false\n", &v, &pl);
	tap_check(pl.n == 0 && pl.nerr && has_note(&pl, "no-port-fn-roce"),
		  "no port function roce cap (Linux 6.1): an error, nothing written");
	plan_free(&pl);

	/* no devlink port */
	v.dl.ok = false;
	v.dl.err = -ENODEV;
	plan_for("[match]\nnetdev = dcb0\n[devlink]\nenable_roce = true\n", &v, &pl);
	tap_check(pl.n == 0 && pl.nerr && has_note(&pl, "no-devlink"),
		  "a netdev without a devlink port: an error, nothing written");
	plan_free(&pl);
}

static void test_rollback(void)
{
	struct rtune_link saved, now;
	struct rtune_touched touched = { { 0 } };
	struct rtune_target t;
	struct rtune_plan pl;
	int i;

	dev_with(&saved, 3, 3);
	now = saved;
	now.dl.roce.val[1] = false;	/* driverinit was written false */
	for (i = 0; rtune_objs[i] != &rtune_obj_devlink; i++)
		;
	touched.mask[i] = 1;		/* DL_ROCE */
	target_from_state(&saved, &touched, &t);
	memset(&pl, 0, sizeof(pl));
	plan_device(&now, 0, &t, &pl);
	tap_check(pl.n == 1 && pl.a[0].to.dl.roce.val[1] &&
		  pl.a[0].to.dl.roce.cmodes == 1 << DEVLINK_PARAM_CMODE_DRIVERINIT,
		  "rollback writes driverinit true back");
	plan_free(&pl);
}

int main(void)
{
	test_keys();
	test_parse_port();
	test_parse_param();
	test_plan();
	test_rollback();
	return tap_done();
}
