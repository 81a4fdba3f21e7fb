// SPDX-License-Identifier: GPL-2.0
/*
 * Vendor surfaces, the generic part (surface.h): which surface an RDMA
 * device has, reading all its files, the target and plan in raw values,
 * writing in the surface's order and reading everything back.
 *
 * Discovery: /sys/class/infiniband/<ibdev>/device is the PCI function
 * (its name the BDF), device/driver its driver; a surface whose driver
 * matches lives at <debugfs>/<surface>/<BDF>/<subdir>/. An mlx5 device
 * whose netdev has MLNX_OFED's /sys/class/net/<netdev>/ecn/ uses that
 * instead (prefer_ofed()). For tests only, ROCETUNE_TEST_DEBUGFS replaces
 * the debugfs root, ROCETUNE_TEST_SYSFS_NET /sys/class/net, and
 * ROCETUNE_TEST_SURFACE ("ibdev=surface/ID[,...]") assigns a surface to
 * an RDMA device whatever its driver (Documentation/hardware.rst).
 */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "cfs.h"
#include "cfs_group.h"
#include "kmsg.h"
#include "obj.h"
#include "rdmacm.h"
#include "surface.h"
#include "testhook.h"

static const struct rtune_surface *const surfaces[] = {
	/* first of those with the same driver: what the driver finds */
	&rtune_surface_mlx5,
	&rtune_surface_mlx5_ofed,
	&rtune_surface_bnxt_re,
	&rtune_surface_irdma,
	&rtune_surface_bnxt_re_oot,
	&rtune_surface_ionic,
	NULL,
};

static const char *debugfs_root(void)
{
	const char *r = getenv(RTUNE_ENV_TEST_DEBUGFS);

	return r && *r ? r : "/sys/kernel/debug";
}

static const char *sysfs_ib_root(void)
{
	const char *r = getenv(RTUNE_ENV_TEST_SYSFS_IB);

	return r && *r ? r : "/sys/class/infiniband";
}

static const char *sysfs_net_root(void)
{
	const char *r = getenv(RTUNE_ENV_TEST_SYSFS_NET);

	return r && *r ? r : "/sys/class/net";
}

/* Where the configfs groups of @sf are made: <configfs>/<name>. */
static void group_root(const struct rtune_surface *sf, char *buf, size_t len)
{
	const char *r = sf->test_env ? getenv(sf->test_env) : NULL;

	if (r && *r)
		snprintf(buf, len, "%s", r);
	else
		snprintf(buf, len, "%s/%s", rtune_configfs_root(), sf->group ? sf->group : sf->name);
}

static void surface_dir(const struct rtune_surface *sf, const char *id, char *buf, size_t len)
{
	char root[256];

	if (sf->root == RTUNE_SURF_CONFIGFS_GROUP) {
		group_root(sf, root, sizeof(root));
		snprintf(buf, len, "%s/%s", root, id);
		return;
	}
	if (sf->root == RTUNE_SURF_SYSFS_NET)
		snprintf(buf, len, "%s/%s/%s", sysfs_net_root(), id, sf->subdir);
	else if (sf->root == RTUNE_SURF_SYSFS_IB)
		snprintf(buf, len, "%s/%s/%s", sysfs_ib_root(), id, sf->subdir);
	else
		snprintf(buf, len, "%s/%s/%s/%s", debugfs_root(), sf->name, id, sf->subdir);
}

static const struct rtune_surface *surface_by(const char *name, const char *driver)
{
	int i;

	for (i = 0; surfaces[i]; i++)
		if ((name && !strcmp(surfaces[i]->name, name)) ||
		    (driver && !strcmp(surfaces[i]->driver, driver)))
			return surfaces[i];
	return NULL;
}

/* The test mapping: "ibdev=surface/id,ibdev=surface/id". */
static bool test_map(const char *ibdev, const struct rtune_surface **sf, char *id, size_t idlen)
{
	const char *m = getenv(RTUNE_ENV_TEST_SURFACE);
	char buf[512], *save = NULL, *tok;

	if (!m || !*m)
		return false;
	snprintf(buf, sizeof(buf), "%s", m);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *slash;

		if (!eq)
			continue;
		*eq = '\0';
		slash = strchr(eq + 1, '/');
		if (strcmp(tok, ibdev) || !slash)
			continue;
		*slash = '\0';
		*sf = surface_by(eq + 1, NULL);
		snprintf(id, idlen, "%s", slash + 1);
		return *sf != NULL;
	}
	return false;
}

/* Basename of the target of symlink @path, or -errno. */
static int link_base(const char *path, char *out, size_t len)
{
	char t[PATH_MAX];
	ssize_t n = readlink(path, t, sizeof(t) - 1);

	if (n < 0)
		return -errno;
	t[n] = '\0';
	snprintf(out, len, "%s", basename(t));
	return 0;
}

/*
 * An mlx5 device with MLNX_OFED's ecn/ tree uses it rather than the
 * upstream debugfs cc_params/: both write the same firmware fields, but
 * only ecn/ has the per-priority switches, it needs no debugfs mount, and
 * kernel lockdown does not close it. The debugfs tree, when it is there
 * too, is named in hw->unused so that show and apply say which is used.
 */
static void prefer_ofed(const char *netdev, const struct rtune_surface **sf, char *id,
			size_t idlen, struct rtune_hwcc *hw)
{
	char path[PATH_MAX], dbg[PATH_MAX];

	if (*sf != &rtune_surface_mlx5 || !netdev || !*netdev)
		return;
	surface_dir(&rtune_surface_mlx5_ofed, netdev, path, sizeof(path));
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/roce_rp");
	if (access(path, F_OK))
		return;
	surface_dir(*sf, id, dbg, sizeof(dbg));
	if (!access(dbg, F_OK))
		snprintf(hw->unused, sizeof(hw->unused), "mlx5 debugfs cc_params/ of %s", id);
	*sf = &rtune_surface_mlx5_ofed;
	snprintf(id, idlen, "%s", netdev);
}

/*
 * A bnxt_en device whose driver is Broadcom's out-of-tree bnxt_re, which
 * has configfs bnxt_re/ (and no upstream debugfs cc_config/), uses that:
 * the group is the RDMA device's name.
 */
static void prefer_bnxt_oot(const char *ibdev, const struct rtune_surface **sf, char *id,
			    size_t idlen)
{
	char root[PATH_MAX];

	if (*sf != &rtune_surface_bnxt_re)
		return;
	group_root(&rtune_surface_bnxt_re_oot, root, sizeof(root));
	if (access(root, F_OK))
		return;
	*sf = &rtune_surface_bnxt_re_oot;
	snprintf(id, idlen, "%s", ibdev);
}

static void probe(const char *ibdev, const char *netdev, struct rtune_hwcc *hw)
{
	char path[PATH_MAX], drv[64], id[32];
	const struct rtune_surface *sf = NULL;

	if (!test_map(ibdev, &sf, id, sizeof(id))) {
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device/driver", ibdev);
		if (link_base(path, drv, sizeof(drv)))
			return;
		sf = surface_by(NULL, drv);
		if (!sf)
			return;
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device", ibdev);
		if (sf->root == RTUNE_SURF_CONFIGFS_GROUP || sf->root == RTUNE_SURF_SYSFS_IB)
			snprintf(id, sizeof(id), "%s", ibdev);
		else if (link_base(path, id, sizeof(id)))
			return;
	}
	snprintf(hw->pci, sizeof(hw->pci), "%s", id);
	prefer_ofed(netdev, &sf, id, sizeof(id), hw);
	prefer_bnxt_oot(ibdev, &sf, id, sizeof(id));
	hw->sf = sf;
	snprintf(hw->id, sizeof(hw->id), "%s", id);
	surface_dir(sf, id, hw->dir, sizeof(hw->dir));
}

/* A file's text as the driver prints it: one decimal u32 ("%u\n"). */
static int parse_u32(const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	if (*s < '0' || *s > '9')
		return -EPROTO;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x > UINT32_MAX)
		return -EPROTO;
	*v = (uint32_t)x;
	return 0;
}

/* As the driver prints "%#x": "0", or "0x" and lower-case hex digits. */
static int parse_hex(const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	if (!strcmp(s, "0")) {
		*v = 0;
		return 0;
	}
	if (strncmp(s, "0x", 2) || !isxdigit((unsigned char)s[2]))
		return -EPROTO;
	errno = 0;
	x = strtoull(s + 2, &end, 16);
	if (errno || *end || x > UINT32_MAX)
		return -EPROTO;
	*v = (uint32_t)x;
	return 0;
}

static int parse_raw(const struct rtune_surface *sf, const char *s, uint32_t *v)
{
	return sf->hex ? parse_hex(s, v) : parse_u32(s, v);
}

/*
 * A per-priority directory (sf->groups): <name>/0 .. <name>/7, each "0" or
 * "1", as the bitmask of the priorities that read 1. On an error, @bad
 * names the file.
 */
static int read_group(const char *dir, const char *name, uint32_t *mask, char *bad,
		      size_t blen)
{
	char path[PATH_MAX], buf[32];
	uint32_t v;
	int p, err;

	*mask = 0;
	for (p = 0; p < 8; p++) {
		snprintf(path, sizeof(path), "%s/%s/%d", dir, name, p);
		err = cfs_read(path, buf, sizeof(buf));
		if (!err)
			err = parse_u32(buf, &v);
		if (!err && v > 1)
			err = -EPROTO;
		if (err) {
			snprintf(bad, blen, "%s/%d", name, p);
			return err;
		}
		*mask |= v << p;
	}
	return 0;
}

/* Read every file of the surface into hw->raw; stops at the first error. */
static int read_raw(struct rtune_hwcc *hw)
{
	const struct rtune_surface *sf = hw->sf;
	char path[PATH_MAX], buf[32];
	struct stat st;
	int i, err;

	hw->raw_valid = 0;
	hw->err = 0;
	hw->ro = false;
	hw->errfile[0] = '\0';
	for (i = 0; i < sf->nfiles; i++) {
		snprintf(path, sizeof(path), "%s/%s", hw->dir, sf->files[i]);
		snprintf(hw->errfile, sizeof(hw->errfile), "%s", sf->files[i]);
		if (sf->groups & (1u << i)) {
			err = read_group(hw->dir, sf->files[i], &hw->raw[i], hw->errfile,
					 sizeof(hw->errfile));
		} else {
			err = cfs_read(path, buf, sizeof(buf));
			if (!err)
				err = parse_raw(sf, buf, &hw->raw[i]);
			/* the mode is the driver's answer to "can this be written?" */
			if (!err && sf->ro_by_mode && !stat(path, &st) && !(st.st_mode & 0222))
				hw->ro = true;
		}
		if (err) {
			hw->err = err;
			return err;
		}
		hw->raw_valid |= 1u << i;
	}
	hw->errfile[0] = '\0';
	return 0;
}

/*
 * The neutral values the raw files express: a bit in *nvalid per
 * parameter mapped to a file that was read and decodes within range.
 */
static void decode_raw(const struct rtune_hwcc *hw, struct rtune_param_set *s,
		       uint32_t *nvalid)
{
	const struct rtune_surface *sf = hw->sf;
	int id;

	*nvalid = 0;
	for (id = 0; id < RTUNE_P_COUNT; id++) {
		const struct rtune_param_desc *pd = &rtune_param_descs[id];
		int f = sf->map[id].file;
		uint64_t v;

		if (f < 0 || !(hw->raw_valid & (1u << f)))
			continue;
		v = hw->raw[f];
		if (sf->decode &&
		    !sf->decode((enum rtune_param_id)id, hw->raw, hw->raw_valid, &v))
			continue;
		if (v < pd->min || v > pd->max)
			continue;
		s->v[id] = (uint32_t)v;
		*nvalid |= 1u << id;
	}
}

/*
 * A configfs group (RTUNE_SURF_CONFIGFS_GROUP) is made for each read or
 * write and removed after (cfs_group.h), once its parent exists.
 */
static int group_enter(const struct rtune_hwcc *hw, bool *made)
{
	char root[PATH_MAX];

	*made = false;
	if (hw->sf->root != RTUNE_SURF_CONFIGFS_GROUP)
		return 0;
	group_root(hw->sf, root, sizeof(root));
	if (access(root, F_OK))
		return -ENOENT;
	return cfs_group_enter(hw->dir, made);
}

static void group_leave(const struct rtune_hwcc *hw, bool made)
{
	cfs_group_leave(hw->dir, made);
}

/* The surface's write order, or by default the files that differ, in order. */
static int write_order(const struct rtune_surface *sf, const uint32_t *from,
		       const uint32_t *to, uint32_t mask, int *order)
{
	int i, n = 0;

	if (sf->writes)
		return sf->writes(from, to, mask, order);
	for (i = 0; i < sf->nfiles; i++)
		if ((mask & (1u << i)) && from[i] != to[i])
			order[n++] = i;
	return n;
}

/* What @file shows after writing @v to @w (by default: only @w changes). */
static uint32_t shown_after(const struct rtune_surface *sf, int w, uint32_t v, int file,
			    uint32_t cur)
{
	if (sf->after_write)
		return sf->after_write(w, v, file, cur);
	return w == file ? v : cur;
}

void surface_parse_dump(const struct rtune_surface *sf, const char *text, uint32_t *raw,
			uint32_t *valid)
{
	const char *line = text;

	*valid = 0;
	while (line && *line) {
		const char *nl = strchr(line, '\n'), *lp, *rp, *colon;
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		char l[256], key[64], val[64];
		uint32_t v;
		int f;

		snprintf(l, sizeof(l), "%.*s", (int)(n < sizeof(l) ? n : sizeof(l) - 1), line);
		line = nl ? nl + 1 : NULL;
		/* "description (key)<tabs>: value", the value may have "(" too */
		colon = strchr(l, ':');
		if (!colon)
			continue;
		for (lp = colon; lp > l && *lp != '('; lp--)
			;
		rp = strchr(lp, ')');
		if (*lp != '(' || !rp || rp > colon || (size_t)(rp - lp - 1) >= sizeof(key))
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)(rp - lp - 1), lp + 1);
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		snprintf(val, sizeof(val), "%s", colon);
		if (sf->dump_value(key, val, &f, &v) && f >= 0 && f < sf->nfiles) {
			raw[f] = v;
			*valid |= 1u << f;
		}
	}
}

/*
 * The files whose firmware value, as the dump shows it, is not @expect's:
 * "; "-separated text in @bad. 0, or -errno reading the dump.
 */
static int dump_check(const struct rtune_hwcc *hw, const uint32_t *expect, char *bad,
		      size_t blen)
{
	const struct rtune_surface *sf = hw->sf;
	uint32_t fw[RTUNE_SURF_MAX_FILES], valid;
	char path[PATH_MAX], text[4096];
	size_t n = 0;
	int f, err;

	bad[0] = '\0';
	if (!sf->dump)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", hw->dir, sf->dump);
	err = cfs_read(path, text, sizeof(text));
	if (err)
		return err;
	surface_parse_dump(sf, text, fw, &valid);
	for (f = 0; f < sf->nfiles && n < blen; f++) {
		if (!(valid & (1u << f)) || fw[f] == expect[f])
			continue;
		n += (size_t)snprintf(bad + n, blen - n, "%s%s: the firmware has %u, the file %u",
				      n ? "; " : "", sf->files[f], fw[f], expect[f]);
	}
	return 0;
}

void surface_read_dev(struct rtune_link *d)
{
	struct rtune_hwcc *hw = &d->hw;

	memset(hw, 0, sizeof(*hw));
	if (!d->has_ib)
		return;
	probe(d->ibdev, d->netdev, hw);
	if (!hw->sf)
		return;
	d->cc_ok = false;
	d->cc_valid = 0;
	snprintf(d->cc_backend, sizeof(d->cc_backend), "%s", hw->sf->backend);
	/* One PCI function, one set: cong.c creates cc_params per native
	 * port mdev, and only port 1 maps to the device's own BDF (and
	 * MLNX_OFED's ecn/ is per netdev, i.e. per function, too). */
	if (d->port != 1) {
		hw->err = -EOPNOTSUPP;
		return;
	}
	if (hw->sf->locate) {
		int err = hw->sf->locate(hw);

		if (err) {
			hw->err = err;
			return;
		}
	}
	{
		bool made;
		int err = group_enter(hw, &made);

		if (err) {
			hw->err = err;
			hw->errfile[0] = '\0';
			return;
		}
		err = read_raw(hw);
		group_leave(hw, made);
		if (err)
			return;
	}
	decode_raw(hw, &d->cc, &d->cc_valid);
	d->cc_ok = true;
}

/*
 * Upstream bnxt_re has cc_config/ from Linux 6.15 on (commit 656dff55da19,
 * Documentation/hardware.rst); before, its absence is the kernel's, not
 * the firmware's as for mlx5. @p is bnxt_re/<BDF> under the debugfs root.
 */
static void bnxt_re_missing(const struct rtune_hwcc *hw, const char *p, char *buf, size_t len)
{
	struct utsname u;
	const char *rel = uname(&u) ? "?" : u.release;

	if (access(p, F_OK))
		snprintf(buf, len,
			 "%s does not exist (is debugfs mounted at %s? the upstream bnxt_re driver has cc_config/ from Linux 6.15 on; this kernel is %s)",
			 p, debugfs_root(), rel);
	else
		snprintf(buf, len,
			 "%s does not exist: the upstream bnxt_re driver creates it from Linux 6.15 on (this kernel is %s)",
			 hw->dir, rel);
}

void surface_why(const struct rtune_link *d, char *buf, size_t len)
{
	const struct rtune_hwcc *hw = &d->hw;
	char p[PATH_MAX];

	if (hw->errwhy[0]) {
		snprintf(buf, len, "%s", hw->errwhy);
		return;
	}
	if (hw->sf->root == RTUNE_SURF_CONFIGFS_GROUP && !hw->errfile[0]) {
		group_root(hw->sf, p, sizeof(p));
		if (hw->err == -ENOENT)
			snprintf(buf, len,
				 "%s does not exist: the vendor's out-of-tree %s driver (which has configfs) is not loaded, or configfs is not mounted",
				 p, hw->sf->group ? hw->sf->group : hw->sf->name);
		else if (hw->err == -ENODEV)
			snprintf(buf, len, "mkdir %s: %s does not know %s (ENODEV)", hw->dir,
				 hw->sf->name, hw->id);
		else
			snprintf(buf, len, "mkdir %s: %s", hw->dir, strerror(-hw->err));
		return;
	}
	switch (-hw->err) {
	case EOPNOTSUPP:
		snprintf(buf, len, "port %u: only port 1 of a PCI function has a %s surface",
			 d->port, hw->sf->name);
		return;
	case EPERM:
		snprintf(buf, len,
			 "debugfs refused %s/%s (EPERM): kernel lockdown (Secure Boot) closes debugfs files that can be written; see /sys/kernel/security/lockdown",
			 hw->dir, hw->errfile);
		return;
	case EACCES:
		snprintf(buf, len, "%s/%s: permission denied (needs root)", hw->dir, hw->errfile);
		return;
	case EPROTO:
		snprintf(buf, len, "%s/%s does not read as a %s number%s", hw->dir, hw->errfile,
			 hw->sf->hex ? "\"%#x\"" : "decimal",
			 hw->sf->groups ? " (a priority switch reads 0 or 1)" : "");
		return;
	case ENOENT:
		if (hw->sf == &rtune_surface_bnxt_re_oot) {
			snprintf(buf, len,
				 "%s/%s does not exist: bnxt_re gives a physical function a cc/ group, a virtual function none; set it on the PF",
				 hw->dir, hw->errfile);
			return;
		}
		if (hw->sf->root != RTUNE_SURF_DEBUGFS_PCI) {
			snprintf(buf, len, "%s/%s does not exist", hw->dir, hw->errfile);
			return;
		}
		if (access(debugfs_root(), F_OK) || access(hw->dir, F_OK)) {
			snprintf(p, sizeof(p), "%s/%s/%s", debugfs_root(), hw->sf->name, hw->id);
			if (hw->sf == &rtune_surface_bnxt_re) {
				bnxt_re_missing(hw, p, buf, len);
				return;
			}
			if (access(p, F_OK))
				snprintf(buf, len, "%s does not exist (is debugfs mounted at %s?)", p,
					 debugfs_root());
			else
				snprintf(buf, len,
					 "%s does not exist: the firmware does not allow congestion-control query and modify (cc_query_allowed/cc_modify_allowed), so the driver did not create it",
					 hw->dir);
			return;
		}
		snprintf(buf, len, "%s/%s does not exist", hw->dir, hw->errfile);
		return;
	default:
		snprintf(buf, len, "%s/%s: %s", hw->dir, hw->errfile, strerror(-hw->err));
	}
}

void surface_target(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		    struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl)
{
	const struct rtune_surface *sf = dev->hw.sf;
	uint32_t raw[RTUNE_SURF_MAX_FILES], fm = 0;
	char why[300], notset[200] = "";
	int i, bad = 0;

	if (!dev->cc_ok) {
		surface_why(dev, why, sizeof(why));
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "no-cc-surface",
			  "%s/%u: the %s congestion-control surface of %s is unavailable: %s",
			  dev->ibdev, dev->port, sf->name, dev->hw.id, why);
		return;
	}
	memcpy(raw, dev->hw.raw, sizeof(raw));
	for (i = 0; i < RTUNE_P_COUNT; i++) {
		const struct rtune_param_desc *pd = &rtune_param_descs[i];
		char val[RTUNE_PARAM_TEXT_MAX];

		if (!(p->cc_set_mask & (1u << i)))
			continue;
		rtune_param_format((enum rtune_param_id)i, p->cc.v[i], val, sizeof(val));
		if (sf->map[i].file < 0) {
			/*
			 * 0 of a software-only knob is what every firmware
			 * does (no sent-rate window; a QP starts at the
			 * device's own rate; no QP waits on another's):
			 * nothing to set.
			 */
			if ((i == RTUNE_P_RP_SENT_RATE_WINDOW_US ||
			     i == RTUNE_P_RP_INITIAL_RATE_KBPS ||
			     i == RTUNE_P_RP_PATH_SHARE_PCT) && !p->cc.v[i])
				continue;
			/* a preset's value is not the user's request */
			if (p->preset && !p->w_cc[i].line) {
				snprintf(notset + strlen(notset), sizeof(notset) - strlen(notset),
					 "%s%s", notset[0] ? ", " : "", pd->name);
				continue;
			}
			plan_note(pl, devidx, RTUNE_SEV_ERROR, "cc-unsupported",
				  "%s/%u: %s cannot be set on %s %s: %s", dev->ibdev, dev->port,
				  pd->name, sf->name, dev->hw.id, sf->map[i].why);
			bad++;
			continue;
		}
		why[0] = '\0';
		if (sf->to_raw((enum rtune_param_id)i, p->cc.v[i], raw, &fm, why, sizeof(why))) {
			plan_note(pl, devidx, RTUNE_SEV_ERROR, "cc-unsupported",
				  "%s/%u: %s = %s cannot be set on %s %s: %s", dev->ibdev, dev->port,
				  pd->name, val, sf->name, dev->hw.id, why);
			bad++;
		}
	}
	if (!bad && dev->hw.refuse[0]) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "cc-unsupported", "%s/%u: %s %s: %s",
			  dev->ibdev, dev->port, sf->name, dev->hw.id, dev->hw.refuse);
		bad++;
	}
	if (!bad && sf->check && sf->check(raw, fm, why, sizeof(why))) {
		plan_note(pl, devidx, RTUNE_SEV_ERROR, "cc-unsupported", "%s/%u: %s %s: %s",
			  dev->ibdev, dev->port, sf->name, dev->hw.id, why);
		bad++;
	}
	if (sf->dump) {
		char diff[240];
		bool made;

		if (!group_enter(&dev->hw, &made)) {
			if (!dump_check(&dev->hw, dev->hw.raw, diff, sizeof(diff)) && diff[0])
				plan_note(pl, devidx, RTUNE_SEV_WARNING, "cc-not-in-firmware",
					  "%s/%u: %s's files are the driver's cache, and differ from the firmware (a change staged and not applied, or an apply that failed): %s",
					  dev->ibdev, dev->port, sf->name, diff);
			group_leave(&dev->hw, made);
		}
	}
	for (i = 0; !bad && sf->unwritable && i < sf->nfiles; i++) {
		const char *no = sf->unwritable(i, dev->hw.raw[i]);

		if ((fm & (1u << i)) && raw[i] != dev->hw.raw[i] && no)
			plan_note(pl, devidx, RTUNE_SEV_WARNING, "cc-not-restorable",
				  "%s/%u: %s reads %u, which cannot be written back (%s): if this apply fails, a rollback leaves it at the new value",
				  dev->ibdev, dev->port, sf->files[i], dev->hw.raw[i], no);
	}
	if (notset[0])
		plan_note(pl, devidx, RTUNE_SEV_WARNING, "cc-not-set",
			  "%s/%u: %s has no knob for the preset's %s: left as they are",
			  dev->ibdev, dev->port, sf->name, notset);
	if (bad)
		return;
	if (dev->hw.ro) {
		for (i = 0; i < sf->nfiles; i++)
			if ((fm & (1u << i)) && raw[i] != dev->hw.raw[i])
				break;
		if (i < sf->nfiles) {
			plan_note(pl, devidx, RTUNE_SEV_ERROR, "cc-read-only",
				  "%s/%u: %s/%s is read-only: %s %s is a virtual function (MLNX_OFED makes ecn/ writable on the physical function only); set it on the PF",
				  dev->ibdev, dev->port, dev->hw.dir, sf->files[i], sf->name, dev->hw.id);
			return;
		}
	}
	if (sf->applies) {
		for (i = 0; i < sf->nfiles; i++)
			if ((fm & (1u << i)) && raw[i] != dev->hw.raw[i])
				break;
		if (i < sf->nfiles)
			plan_note(pl, devidx, RTUNE_SEV_WARNING, "cc-new-qps-only", "%s/%u: %s",
				  dev->ibdev, dev->port, sf->applies);
	}
	if (!p->preset) {
		/*
		 * Overrides on top of what is active must still be coherent.
		 * Parameters the surface does not show take the default
		 * preset's value: they only need to be in range.
		 */
		struct rtune_param_set s = *rtune_params_default();

		for (i = 0; i < RTUNE_P_COUNT; i++) {
			if (p->cc_set_mask & (1u << i))
				s.v[i] = p->cc.v[i];
			else if (dev->cc_valid & (1u << i))
				s.v[i] = dev->cc.v[i];
		}
		if (rtune_params_validate(&s, why, sizeof(why)))
			plan_note(pl, devidx, RTUNE_SEV_ERROR, "cc-invalid",
				  "%s/%u: with the active values, the CC set would be inconsistent: %s",
				  dev->ibdev, dev->port, why);
	}
	memcpy(want->hw.raw, raw, sizeof(raw));
	*mask = fm;
}

void surface_restore(const struct rtune_link *saved, struct rtune_link *want, uint32_t *mask)
{
	memcpy(want->hw.raw, saved->hw.raw, sizeof(want->hw.raw));
	*mask = saved->hw.raw_valid;
}

void surface_plan(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		  uint32_t mask, struct rtune_plan *pl)
{
	const struct rtune_surface *sf = cur->hw.sf;
	int order[RTUNE_SURF_MAX_FILES], i;
	struct rtune_link from = *cur;
	struct rtune_action *a;

	/*
	 * A target from a profile exists only for a readable surface. A
	 * rollback target may meet one that no longer reads: plan to write
	 * every file not read, so that the attempt and its failure (or the
	 * check after it) show, rather than a rollback that looks complete.
	 */
	for (i = 0; i < sf->nfiles; i++)
		if ((mask & (1u << i)) && !(cur->hw.raw_valid & (1u << i)))
			from.hw.raw[i] = ~want->hw.raw[i];
	if (!write_order(sf, from.hw.raw, want->hw.raw, mask, order))
		return;
	a = plan_push(pl, &rtune_obj_cc, 0, devidx, &from);
	a->mask = mask;
	for (i = 0; i < sf->nfiles; i++)
		if (mask & (1u << i))
			a->to.hw.raw[i] = want->hw.raw[i];
}

/* Append "; " separated text to @buf. */
static void add(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 3 >= len)
		return;
	if (n)
		n += (size_t)snprintf(buf + n, len - n, "; ");
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/*
 * Write the priorities of group @name whose bit differs between @cur and
 * @want, in priority order ("1" to an enabled one is refused by
 * MLNX_OFED: EPERM). On failure @why says which.
 */
static int write_group(const char *dir, const char *name, uint32_t cur, uint32_t want,
		       char *why, size_t wlen)
{
	char path[PATH_MAX];
	int p, err;

	for (p = 0; p < 8; p++) {
		uint32_t b = (want >> p) & 1;

		if (!((cur ^ want) & (1u << p)))
			continue;
		snprintf(path, sizeof(path), "%s/%s/%d", dir, name, p);
		err = cfs_write(path, b ? "1" : "0");
		if (err) {
			snprintf(why, wlen, "writing %s/%d %u: %s", name, p, b, strerror(-err));
			return err;
		}
	}
	return 0;
}

/* A raw value as text: a priority list for a group, else decimal. */
static const char *raw_text(const struct rtune_surface *sf, int f, uint32_t v, char *buf,
			    size_t len)
{
	if ((sf->groups & (1u << f)) && v <= 0xff)
		rtune_param_format(RTUNE_P_RP_ENABLED_PRIOS, v, buf, len);
	else
		snprintf(buf, len, "%u", v);
	return buf;
}

/* The fw_log matcher for the device being written. */
static bool log_match(const char *msg, size_t len, const void *arg)
{
	const struct rtune_hwcc *hw = arg;

	return hw->sf->fw_log(hw, msg, len);
}

/*
 * After a store that returned success: did the driver log that the
 * firmware refused it (sf->fw_log)? 0, or -EIO with a->why.
 */
static int log_check(struct rtune_kmsg *km, struct rtune_action *a, int f, uint32_t v, int k,
		     int n)
{
	char hit[160];
	const char *h = hit;
	int r = rtune_kmsg_scan(km, log_match, &a->from.hw, hit, sizeof(hit));

	if (!r)
		return 0;
	/* the line's end: "<ibdev>: dcqcn profile 1 not set, error -5" */
	if (strlen(hit) > 56)
		h = hit + strlen(hit) - 56;
	if (r > 0)
		snprintf(a->why, sizeof(a->why),
			 "%.32s %u: the driver logged \"%.56s\", the firmware refused it (after %d of %d writes)",
			 a->from.hw.sf->files[f], v, h, k, n);
	else
		snprintf(a->why, sizeof(a->why),
			 "%.32s %u: the kernel log after it: %.40s, whether the firmware took it is unknown (after %d of %d writes)",
			 a->from.hw.sf->files[f], v,
			 r == -EOVERFLOW ? "records lost or too many" : strerror(-r), k, n);
	return -EIO;
}

int surface_apply(struct rtune_link *d, struct rtune_action *a)
{
	const struct rtune_surface *sf = a->from.hw.sf;
	uint32_t expect[RTUNE_SURF_MAX_FILES];
	int order[RTUNE_SURF_MAX_FILES], n, k, j, err = 0;
	char path[PATH_MAX], val[16], bad[180] = "", fwbad[240] = "", t1[32], t2[32];
	char kept[180] = "";
	struct rtune_kmsg km = { .fd = -1 };
	bool made;

	memcpy(expect, a->from.hw.raw, sizeof(expect));
	n = write_order(sf, a->from.hw.raw, a->to.hw.raw, a->mask, order);
	if (n && sf->fw_log) {
		/* from here on: what the writes below make the driver log */
		err = rtune_kmsg_open(&km, rtune_test_kmsg());
		if (err) {
			snprintf(a->why, sizeof(a->why),
				 "cannot read the kernel log (/dev/kmsg: %.40s), the only place %s reports a failed firmware command; nothing written",
				 strerror(-err), sf->name);
			return err;
		}
	}
	err = group_enter(&a->from.hw, &made);
	if (err) {
		rtune_kmsg_close(&km);
		snprintf(a->why, sizeof(a->why), "mkdir %.150s: %s", a->from.hw.dir, strerror(-err));
		return err;
	}
	for (k = 0; k < n; k++) {
		int f = order[k];
		uint32_t v = a->to.hw.raw[f];
		const char *no = sf->unwritable ? sf->unwritable(f, v) : NULL;

		if (no) {
			/* left as it is, and said: never a value it does not have */
			add(kept, sizeof(kept), "%s stays %u, not %u: %s", sf->files[f], expect[f], v,
			    no);
			continue;
		}
		if (sf->groups & (1u << f)) {
			err = write_group(a->from.hw.dir, sf->files[f], expect[f], v, a->why,
					  sizeof(a->why));
			if (err) {
				add(a->why, sizeof(a->why), "after %d of %d writes", k, n);
				break;
			}
		} else {
			snprintf(path, sizeof(path), "%s/%s", a->from.hw.dir, sf->files[f]);
			snprintf(val, sizeof(val), sf->hex ? "0x%x" : "%u", v);
			err = cfs_write(path, val);
			if (err) {
				snprintf(a->why, sizeof(a->why),
					 "writing %s %u: %s (after %d of %d writes)", sf->files[f], v,
					 strerror(-err), k, n);
				break;
			}
		}
		for (j = 0; j < sf->nfiles; j++)
			expect[j] = shown_after(sf, f, v, j, expect[j]);
		if (sf->fw_log) {
			err = log_check(&km, a, f, v, k, n);
			if (err)
				break;
		}
	}
	rtune_kmsg_close(&km);
	/* a staged surface: send what was written to the firmware */
	if (!err && n && sf->commit) {
		snprintf(path, sizeof(path), "%s/%s", a->from.hw.dir, sf->commit);
		err = cfs_write(path, "0x1");
		if (err)
			snprintf(a->why, sizeof(a->why),
				 "writing %s 0x1: %s (the driver drops what was staged: its files show the new values, the firmware keeps the old)",
				 sf->commit, strerror(-err));
		else if (sf->after_commit)
			sf->after_commit(expect);
	}
	/* read every file back, written or not */
	surface_read_dev(d);
	if (!d->hw.err && !err && sf->dump) {
		int e = dump_check(&d->hw, expect, fwbad, sizeof(fwbad));

		if (e)
			snprintf(fwbad, sizeof(fwbad), "reading %s: %s", sf->dump, strerror(-e));
	}
	group_leave(&a->from.hw, made);
	if (d->hw.err) {
		char why[180];

		surface_why(d, why, sizeof(why));
		if (!err)
			snprintf(a->why, sizeof(a->why), "read-back: %s", why);
		return err ? err : d->hw.err;
	}
	if (err)
		return err;
	for (j = 0; j < sf->nfiles; j++) {
		if (d->hw.raw[j] == expect[j])
			continue;
		raw_text(sf, j, d->hw.raw[j], t1, sizeof(t1));
		raw_text(sf, j, expect[j], t2, sizeof(t2));
		if (expect[j] != a->from.hw.raw[j])
			add(bad, sizeof(bad), "%s reads %s after writing %s", sf->files[j], t1, t2);
		else
			add(bad, sizeof(bad), "%s reads %s, was %s and not written", sf->files[j],
			    t1, t2);
	}
	if (bad[0]) {
		snprintf(a->why, sizeof(a->why), "read-back: %s", bad);
		return -EIO;
	}
	if (fwbad[0]) {
		snprintf(a->why, sizeof(a->why), "read-back of %s: %.170s", sf->dump, fwbad);
		return -EIO;
	}
	if (kept[0]) {
		snprintf(a->why, sizeof(a->why), "not restorable: %.180s", kept);
		return -ERANGE;
	}
	return 0;
}

void surface_describe(const struct rtune_action *a, char *buf, size_t len)
{
	const struct rtune_surface *sf = a->from.hw.sf;
	size_t n = (size_t)snprintf(buf, len, "cc (%s %s", sf->name, a->from.hw.id);
	char t1[32], t2[32];
	int i;

	/* ionic: which of the device's profiles */
	if (a->from.hw.sel && n < len)
		n += (size_t)snprintf(buf + n, len - n, " profile %d", a->from.hw.sel);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, ")");

	for (i = 0; i < sf->nfiles && n < len; i++) {
		if (!(a->mask & (1u << i)) || a->from.hw.raw[i] == a->to.hw.raw[i])
			continue;
		raw_text(sf, i, a->to.hw.raw[i], t2, sizeof(t2));
		if (a->from.hw.raw_valid & (1u << i))
			n += (size_t)snprintf(buf + n, len - n, " %s %s -> %s;", sf->files[i],
					      raw_text(sf, i, a->from.hw.raw[i], t1, sizeof(t1)),
					      t2);
		else
			n += (size_t)snprintf(buf + n, len - n, " %s (unread) -> %s;",
					      sf->files[i], t2);
	}
	if (n < len && buf[n - 1] == ';')
		buf[n - 1] = '\0';
}
