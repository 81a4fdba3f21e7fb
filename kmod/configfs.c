// SPDX-License-Identifier: GPL-2.0
/*
 * The configfs tree:
 *
 *   /sys/kernel/config/rocetune/
 *     version
 *     <ibdev>/                       one per attached RoCE device
 *       driver  backend
 *       ports/<N>/
 *         netdev  counters
 *         pacing  dp_counters  qp_stats  qp_watch  qp_ctl
 *                                    the software DCQCN datapath (rxe);
 *                                    see Documentation/datapath.rst
 *         cc/
 *           params  preset  commit  discard  last_error
 *           staged/<param>           written by the user
 *           active/<param>           in effect
 *
 * Device directories are created by the kernel when a device appears and
 * removed when it goes (userspace cannot mkdir or rmdir them). Lifetime:
 * every group of one device directory is embedded in one struct rtune_dir,
 * whose kref counts the groups not yet released; open files may hold a
 * group past unregistration, so the memory goes with the last of them.
 * configfs_unregister_group() waits for running show/store handlers and
 * fails later ones, which is what makes rtune_dev->ibdev safe to use in them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/slab.h>

#include "rocetune.h"
#include "datapath.h"
#include "qp_hash.h"
#include "objects.h"
#include "compat/compat.h"

struct rtune_port_dir {
	struct config_group group;	/* ports/<N> */
	struct config_group cc;		/* ports/<N>/cc */
	struct config_group staged;	/* ports/<N>/cc/staged */
	struct config_group active;	/* ports/<N>/cc/active */
	struct rtune_dir *dir;
	struct rtune_port *port;
};

struct rtune_dir {
	struct config_group group;	/* <ibdev> */
	struct config_group ports;	/* <ibdev>/ports */
	/* One reference per embedded group not yet released. */
	struct kref ref;
	struct rtune_dev *dev;		/* holds a reference */
	u32 nports;
	struct rtune_port_dir pdirs[];
};

/* Serialises creating and destroying device directories (dev->dir). */
static DEFINE_MUTEX(rtune_dir_lock);

static void rtune_dir_free(struct kref *ref)
{
	struct rtune_dir *dir = container_of(ref, struct rtune_dir, ref);

	rtune_dev_put(dir->dev);
	rtune_obj_free(RTUNE_OBJ_DIR, dir);
}

static struct rtune_dir *to_rtune_dir(struct config_item *item)
{
	return container_of(to_config_group(item), struct rtune_dir, group);
}

static struct rtune_dir *ports_to_rtune_dir(struct config_item *item)
{
	return container_of(to_config_group(item), struct rtune_dir, ports);
}

static struct rtune_port_dir *to_port_dir(struct config_item *item)
{
	return container_of(to_config_group(item), struct rtune_port_dir, group);
}

static struct rtune_port_dir *cc_to_port_dir(struct config_item *item)
{
	return container_of(to_config_group(item), struct rtune_port_dir, cc);
}

static struct rtune_port_dir *staged_to_port_dir(struct config_item *item)
{
	return container_of(to_config_group(item), struct rtune_port_dir, staged);
}

static struct rtune_port_dir *active_to_port_dir(struct config_item *item)
{
	return container_of(to_config_group(item), struct rtune_port_dir, active);
}

/* Releases: each embedded group gives back its share of the rtune_dir. */
static void rtune_dir_release(struct config_item *item)
{
	kref_put(&to_rtune_dir(item)->ref, rtune_dir_free);
}

static void rtune_ports_release(struct config_item *item)
{
	kref_put(&ports_to_rtune_dir(item)->ref, rtune_dir_free);
}

static void rtune_port_release(struct config_item *item)
{
	kref_put(&to_port_dir(item)->dir->ref, rtune_dir_free);
}

static void rtune_cc_release(struct config_item *item)
{
	kref_put(&cc_to_port_dir(item)->dir->ref, rtune_dir_free);
}

static void rtune_staged_release(struct config_item *item)
{
	kref_put(&staged_to_port_dir(item)->dir->ref, rtune_dir_free);
}

static void rtune_active_release(struct config_item *item)
{
	kref_put(&active_to_port_dir(item)->dir->ref, rtune_dir_free);
}

/* <ibdev>/ */

static ssize_t rtune_dir_driver_show(struct config_item *item, char *page)
{
	return sysfs_emit(page, "%s\n", to_rtune_dir(item)->dev->driver);
}

static ssize_t rtune_dir_backend_show(struct config_item *item, char *page)
{
	struct rtune_dev *dev = to_rtune_dir(item)->dev;

	return sysfs_emit(page, "%s\n",
			  dev->has_backend ? "rxe-software" : "none");
}

CONFIGFS_ATTR_RO(rtune_dir_, driver);
CONFIGFS_ATTR_RO(rtune_dir_, backend);

static struct configfs_attribute *rtune_dir_attrs[] = {
	&rtune_dir_attr_driver,
	&rtune_dir_attr_backend,
	NULL,
};

static struct configfs_item_operations rtune_dir_item_ops = {
	.release = rtune_dir_release,
};

static const struct config_item_type rtune_dir_type = {
	.ct_item_ops = &rtune_dir_item_ops,
	.ct_attrs = rtune_dir_attrs,
	.ct_owner = THIS_MODULE,
};

static struct configfs_item_operations rtune_ports_item_ops = {
	.release = rtune_ports_release,
};

static const struct config_item_type rtune_ports_type = {
	.ct_item_ops = &rtune_ports_item_ops,
	.ct_owner = THIS_MODULE,
};

/* ports/<N>/ */

static ssize_t rtune_port_netdev_show(struct config_item *item, char *page)
{
	struct rtune_port_dir *pd = to_port_dir(item);
	struct net_device *ndev;
	ssize_t n;

	ndev = rtune_compat_ib_get_netdev(pd->dir->dev->ibdev, pd->port->num);
	if (!ndev)
		return sysfs_emit(page, "\n");
	n = sysfs_emit(page, "%s\n", netdev_name(ndev));
	dev_put(ndev);
	return n;
}

static ssize_t rtune_port_counters_show(struct config_item *item, char *page)
{
	struct rtune_port_dir *pd = to_port_dir(item);

	return rtune_counters_show(pd->dir->dev, pd->port, page);
}

/* The datapath serving this port, or NULL (not rxe). */
static struct rtune_dp *rtune_port_dp(struct rtune_port_dir *pd)
{
	struct rtune_dp *dp = pd->dir->dev->dp;

	return dp && dp->port == pd->port ? dp : NULL;
}

static ssize_t rtune_port_pacing_show(struct config_item *item, char *page)
{
	struct rtune_dp *dp = rtune_port_dp(to_port_dir(item));
	char id[IFNAMSIZ];
	bool active;

	if (!dp)
		return sysfs_emit(page, "unsupported\n");
	if (!rtune_pacing_safe())
		return sysfs_emit(page, "unavailable old-rxe\n");
	active = rtune_pacing_check(dp, id, sizeof(id), false);
	return sysfs_emit(page, "%s %s\n", active ? "active" : "inactive", id);
}

static ssize_t rtune_port_dp_counters_show(struct config_item *item, char *page)
{
	struct rtune_dp *dp = rtune_port_dp(to_port_dir(item));

	return dp ? rtune_dp_counters_show(dp, page) : 0;
}

static ssize_t rtune_port_qp_watch_show(struct config_item *item, char *page)
{
	struct rtune_dp *dp = rtune_port_dp(to_port_dir(item));
	struct rtune_qp *qp;
	ssize_t n;
	u32 qpn;

	if (!dp)
		return -EOPNOTSUPP;
	qpn = READ_ONCE(dp->watch_qpn);
	rcu_read_lock();
	qp = rtune_qp_lookup(dp, qpn);
	if (qp)
		n = rtune_qp_format(qp, page, PAGE_SIZE, false);
	else
		n = sysfs_emit(page, "qpn %u\nstate untracked\n", qpn);
	rcu_read_unlock();
	return n;
}

/*
 * Every write here changes what the datapath does (or, for qp_watch,
 * what it reveals): CAP_NET_ADMIN, as the netlink that sets a NIC's DCB
 * and ECN asks, not just the file's mode (uid 0 without the capability,
 * e.g. in a container, is refused too).
 */
static int rtune_may_write(void)
{
	return capable(CAP_NET_ADMIN) ? 0 : -EPERM;
}

static ssize_t rtune_port_qp_watch_store(struct config_item *item,
				      const char *page, size_t len)
{
	struct rtune_dp *dp = rtune_port_dp(to_port_dir(item));
	u32 qpn;

	if (rtune_may_write())
		return -EPERM;
	if (!dp)
		return -EOPNOTSUPP;
	if (rtune_parse_u32(page, len, &qpn) || qpn > RTUNE_BTH_QPN_MASK)
		return -EINVAL;
	WRITE_ONCE(dp->watch_qpn, qpn);
	return len;
}

static ssize_t rtune_port_qp_ctl_show(struct config_item *item, char *page)
{
	struct rtune_dp *dp = rtune_port_dp(to_port_dir(item));

	return dp ? rtune_qp_ctl_show(dp, page) : -EOPNOTSUPP;
}

static ssize_t rtune_port_qp_ctl_store(struct config_item *item,
				    const char *page, size_t len)
{
	struct rtune_dp *dp = rtune_port_dp(to_port_dir(item));
	int err;

	if (rtune_may_write())
		return -EPERM;
	if (!dp)
		return -EOPNOTSUPP;
	err = rtune_qp_ctl_store(dp, page, len);
	return err ? err : len;
}

/*
 * The bulk read of every QP. A binary attribute, because a configfs text
 * attribute is limited to one page (about 20 QPs); configfs sizes the
 * buffer with a first call (@buf NULL) and fills it with a second.
 */
static ssize_t rtune_port_qp_stats_read(struct config_item *item, void *buf,
				     size_t len)
{
	struct rtune_dp *dp = rtune_port_dp(to_port_dir(item));

	return dp ? rtune_qp_stats_read(dp, buf, len) : 0;
}

CONFIGFS_ATTR_RO(rtune_port_, netdev);
CONFIGFS_ATTR_RO(rtune_port_, counters);
CONFIGFS_ATTR_RO(rtune_port_, pacing);
CONFIGFS_ATTR_RO(rtune_port_, dp_counters);

/*
 * Root only: these name every QP with its peer QP, which is what a host
 * needs to forge CNPs or ACKs against a connection, and a qp_stats read
 * costs a snapshot of the whole table. The aggregate counters above are
 * for everyone.
 */
static struct configfs_attribute rtune_port_attr_qp_watch = {
	.ca_name = "qp_watch",
	.ca_owner = THIS_MODULE,
	.ca_mode = 0600,
	.show = rtune_port_qp_watch_show,
	.store = rtune_port_qp_watch_store,
};

static struct configfs_attribute rtune_port_attr_qp_ctl = {
	.ca_name = "qp_ctl",
	.ca_owner = THIS_MODULE,
	.ca_mode = 0600,
	.show = rtune_port_qp_ctl_show,
	.store = rtune_port_qp_ctl_store,
};

static struct configfs_bin_attribute rtune_port_attr_qp_stats = {
	.cb_attr = {
		.ca_name = "qp_stats",
		.ca_owner = THIS_MODULE,
		.ca_mode = 0400,
	},
	.read = rtune_port_qp_stats_read,
};

static struct configfs_attribute *rtune_port_attrs[] = {
	&rtune_port_attr_netdev,
	&rtune_port_attr_counters,
	&rtune_port_attr_pacing,
	&rtune_port_attr_dp_counters,
	&rtune_port_attr_qp_watch,
	&rtune_port_attr_qp_ctl,
	NULL,
};

static struct configfs_bin_attribute *rtune_port_bin_attrs[] = {
	&rtune_port_attr_qp_stats,
	NULL,
};

static struct configfs_item_operations rtune_port_item_ops = {
	.release = rtune_port_release,
};

static const struct config_item_type rtune_port_type = {
	.ct_item_ops = &rtune_port_item_ops,
	.ct_attrs = rtune_port_attrs,
	.ct_bin_attrs = rtune_port_bin_attrs,
	.ct_owner = THIS_MODULE,
};

/* ports/<N>/cc/ */

static ssize_t rtune_cc_params_show(struct config_item *item, char *page)
{
	const struct rtune_param_set *def = rtune_params_default();
	ssize_t n = sysfs_emit(page, "name unit kind min max default\n");
	int i;

	for (i = 0; i < RTUNE_P_COUNT; i++) {
		const struct rtune_param_desc *d = &rtune_param_descs[i];
		char lo[RTUNE_PARAM_TEXT_MAX], hi[RTUNE_PARAM_TEXT_MAX];
		char dv[RTUNE_PARAM_TEXT_MAX];

		rtune_param_format(i, d->min, lo, sizeof(lo));
		rtune_param_format(i, d->max, hi, sizeof(hi));
		rtune_param_format(i, def->v[i], dv, sizeof(dv));
		n += sysfs_emit_at(page, n, "%s %s %s %s %s %s\n", d->name,
				   d->unit,
				   d->kind == RTUNE_KIND_PRIO_MASK ? "prio_list" :
				   d->kind == RTUNE_KIND_BOOL ? "bool" : "u32",
				   lo, hi, dv);
	}
	return n;
}

static ssize_t rtune_cc_preset_show(struct config_item *item, char *page)
{
	ssize_t n = 0;
	unsigned int i;

	for (i = 0; i < rtune_preset_count; i++)
		n += sysfs_emit_at(page, n, "%s\n", rtune_presets[i].name);
	return n;
}

static ssize_t rtune_cc_preset_store(struct config_item *item, const char *page,
				  size_t len)
{
	int err = rtune_may_write();

	if (!err)
		err = rtune_port_stage_preset(cc_to_port_dir(item)->port, page, len);
	return err ? err : len;
}

/* "1" with an optional newline: the only word commit and discard take. */
static bool rtune_is_one(const char *page, size_t len)
{
	return (len == 1 || (len == 2 && page[1] == '\n')) && page[0] == '1';
}

static ssize_t rtune_cc_commit_show(struct config_item *item, char *page)
{
	struct rtune_port *port = cc_to_port_dir(item)->port;
	u64 gen;

	mutex_lock(&port->lock);
	gen = port->generation;
	mutex_unlock(&port->lock);
	return sysfs_emit(page, "%llu\n", gen);
}

static ssize_t rtune_cc_commit_store(struct config_item *item, const char *page,
				  size_t len)
{
	struct rtune_port_dir *pd = cc_to_port_dir(item);
	int err;

	if (rtune_may_write())
		return -EPERM;
	if (!rtune_is_one(page, len))
		return -EINVAL;
	err = rtune_port_commit(pd->dir->dev, pd->port);
	return err ? err : len;
}

static ssize_t rtune_cc_discard_store(struct config_item *item, const char *page,
				   size_t len)
{
	if (rtune_may_write())
		return -EPERM;
	if (!rtune_is_one(page, len))
		return -EINVAL;
	rtune_port_discard(cc_to_port_dir(item)->port);
	return len;
}

static ssize_t rtune_cc_last_error_show(struct config_item *item, char *page)
{
	struct rtune_port *port = cc_to_port_dir(item)->port;
	ssize_t n = 0;

	mutex_lock(&port->lock);
	if (port->last_error[0])
		n = sysfs_emit(page, "%s\n", port->last_error);
	mutex_unlock(&port->lock);
	return n;
}

CONFIGFS_ATTR_RO(rtune_cc_, params);
CONFIGFS_ATTR(rtune_cc_, preset);
CONFIGFS_ATTR(rtune_cc_, commit);
CONFIGFS_ATTR_WO(rtune_cc_, discard);
CONFIGFS_ATTR_RO(rtune_cc_, last_error);

static struct configfs_attribute *rtune_cc_attrs[] = {
	&rtune_cc_attr_params,
	&rtune_cc_attr_preset,
	&rtune_cc_attr_commit,
	&rtune_cc_attr_discard,
	&rtune_cc_attr_last_error,
	NULL,
};

static struct configfs_item_operations rtune_cc_item_ops = {
	.release = rtune_cc_release,
};

static const struct config_item_type rtune_cc_type = {
	.ct_item_ops = &rtune_cc_item_ops,
	.ct_attrs = rtune_cc_attrs,
	.ct_owner = THIS_MODULE,
};

/* ports/<N>/cc/staged/ and ports/<N>/cc/active/ */

/* One value as a configfs file shows it: its text and a newline. */
static ssize_t rtune_param_show(enum rtune_param_id id, u32 v, char *page)
{
	char text[RTUNE_PARAM_TEXT_MAX];
	int n = rtune_param_format(id, v, text, sizeof(text));

	return n < 0 ? n : sysfs_emit(page, "%s\n", text);
}

static ssize_t rtune_staged_show(struct config_item *item, enum rtune_param_id id,
			      char *page)
{
	struct rtune_port *port = staged_to_port_dir(item)->port;
	u32 v;

	mutex_lock(&port->lock);
	v = port->staged.v[id];
	mutex_unlock(&port->lock);
	return rtune_param_show(id, v, page);
}

static ssize_t rtune_staged_store(struct config_item *item, enum rtune_param_id id,
			       const char *page, size_t len)
{
	int err = rtune_may_write();

	if (!err)
		err = rtune_port_stage(staged_to_port_dir(item)->port, id, page, len);
	return err ? err : len;
}

/*
 * A device without a backend (a hardware NIC: its firmware runs DCQCN)
 * has no values of rocetune.ko's in effect: reading active/ fails rather
 * than show defaults the device does not have (configfs.rst, Backends).
 */
static ssize_t rtune_active_show(struct config_item *item, enum rtune_param_id id,
			      char *page)
{
	struct rtune_port_dir *pd = active_to_port_dir(item);

	if (!pd->dir->dev->has_backend)
		return -EOPNOTSUPP;
	return rtune_param_show(id, rtune_port_active_value(pd->port, id), page);
}

/*
 * configfs show/store callbacks are not told which attribute they serve,
 * so each parameter needs its own pair; the parameter list generates them
 * (core/params_list.h). The file name is the same token as the
 * descriptor's name, and the arrays below follow the list's order, which
 * is the enum's: they cannot disagree with rtune_param_descs[].
 */
#define RTUNE_PARAM_ATTRS(id, name, unit, kind, min, max, paper, connectx, help) \
static ssize_t rtune_staged_##name##_show(struct config_item *item,	\
					  char *page)			\
{									\
	return rtune_staged_show(item, RTUNE_P_##id, page);		\
}									\
static ssize_t rtune_staged_##name##_store(struct config_item *item,	\
					   const char *page, size_t len) \
{									\
	return rtune_staged_store(item, RTUNE_P_##id, page, len);	\
}									\
static ssize_t rtune_active_##name##_show(struct config_item *item,	\
					  char *page)			\
{									\
	return rtune_active_show(item, RTUNE_P_##id, page);		\
}									\
CONFIGFS_ATTR(rtune_staged_, name);					\
CONFIGFS_ATTR_RO(rtune_active_, name);

RTUNE_PARAMS(RTUNE_PARAM_ATTRS)

#define RTUNE_STAGED_ATTR_REF(id, name, unit, kind, min, max, paper, connectx, help) \
	&rtune_staged_attr_##name,
#define RTUNE_ACTIVE_ATTR_REF(id, name, unit, kind, min, max, paper, connectx, help) \
	&rtune_active_attr_##name,

static struct configfs_attribute *rtune_staged_attrs[] = {
	RTUNE_PARAMS(RTUNE_STAGED_ATTR_REF)
	NULL,
};

static struct configfs_attribute *rtune_active_attrs[] = {
	RTUNE_PARAMS(RTUNE_ACTIVE_ATTR_REF)
	NULL,
};

/* Indexed like rtune_param_descs[], then the terminating NULL. */
static_assert(ARRAY_SIZE(rtune_staged_attrs) == RTUNE_P_COUNT + 1);
static_assert(ARRAY_SIZE(rtune_active_attrs) == RTUNE_P_COUNT + 1);

static struct configfs_item_operations rtune_staged_item_ops = {
	.release = rtune_staged_release,
};

static const struct config_item_type rtune_staged_type = {
	.ct_item_ops = &rtune_staged_item_ops,
	.ct_attrs = rtune_staged_attrs,
	.ct_owner = THIS_MODULE,
};

static struct configfs_item_operations rtune_active_item_ops = {
	.release = rtune_active_release,
};

static const struct config_item_type rtune_active_type = {
	.ct_item_ops = &rtune_active_item_ops,
	.ct_attrs = rtune_active_attrs,
	.ct_owner = THIS_MODULE,
};

/* The subsystem root. */

static ssize_t rtune_root_version_show(struct config_item *item, char *page)
{
	return sysfs_emit(page, "%s\n", RTUNE_VERSION);
}

CONFIGFS_ATTR_RO(rtune_root_, version);

static struct configfs_attribute *rtune_root_attrs[] = {
	&rtune_root_attr_version,
	NULL,
};

static const struct config_item_type rtune_root_type = {
	.ct_attrs = rtune_root_attrs,
	.ct_owner = THIS_MODULE,
};

static struct configfs_subsystem rtune_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf = "rocetune",
			.ci_type = &rtune_root_type,
		},
	},
};

/* Device directories. */

static void rtune_port_dir_init(struct rtune_dir *dir, struct rtune_port_dir *pd,
			     struct rtune_port *port)
{
	char name[12];

	pd->dir = dir;
	pd->port = port;
	snprintf(name, sizeof(name), "%u", port->num);
	config_group_init_type_name(&pd->group, name, &rtune_port_type);
	config_group_init_type_name(&pd->cc, "cc", &rtune_cc_type);
	config_group_init_type_name(&pd->staged, "staged", &rtune_staged_type);
	config_group_init_type_name(&pd->active, "active", &rtune_active_type);
	configfs_add_default_group(&pd->cc, &pd->group);
	configfs_add_default_group(&pd->staged, &pd->cc);
	configfs_add_default_group(&pd->active, &pd->cc);
	configfs_add_default_group(&pd->group, &dir->ports);
}

/* Groups in one rtune_dir: the device, ports, and four per port. */
static unsigned int rtune_dir_ngroups(u32 nports)
{
	return 2 + 4 * nports;
}

/* Drop the references config_group_init() gave each embedded group. */
static void rtune_dir_put_groups(struct rtune_dir *dir)
{
	u32 i;

	for (i = 0; i < dir->nports; i++) {
		config_group_put(&dir->pdirs[i].active);
		config_group_put(&dir->pdirs[i].staged);
		config_group_put(&dir->pdirs[i].cc);
		config_group_put(&dir->pdirs[i].group);
	}
	config_group_put(&dir->ports);
	config_group_put(&dir->group);
}

int rtune_dir_create(struct rtune_dev *dev)
{
	struct rtune_dir *dir;
	u32 i;
	int err;

	dir = rtune_obj_alloc(RTUNE_OBJ_DIR, struct_size(dir, pdirs, dev->nports),
			   GFP_KERNEL);
	if (!dir)
		return -ENOMEM;
	kref_init(&dir->ref);
	refcount_add(rtune_dir_ngroups(dev->nports) - 1, &dir->ref.refcount);
	kref_get(&dev->ref);
	dir->dev = dev;
	dir->nports = dev->nports;

	config_group_init_type_name(&dir->group, dev_name(&dev->ibdev->dev),
				    &rtune_dir_type);
	config_group_init_type_name(&dir->ports, "ports", &rtune_ports_type);
	configfs_add_default_group(&dir->ports, &dir->group);
	for (i = 0; i < dev->nports; i++)
		rtune_port_dir_init(dir, &dir->pdirs[i], &dev->ports[i]);

	mutex_lock(&rtune_dir_lock);
	err = configfs_register_group(&rtune_subsys.su_group, &dir->group);
	if (!err)
		dev->dir = dir;
	mutex_unlock(&rtune_dir_lock);
	if (err) {
		pr_err("%s: configfs directory: %d\n",
		       dev_name(&dev->ibdev->dev), err);
		/* Never registered: the last put frees dir and its dev ref. */
		rtune_dir_put_groups(dir);
	}
	return err;
}

void rtune_dir_destroy(struct rtune_dev *dev)
{
	struct rtune_dir *dir;

	mutex_lock(&rtune_dir_lock);
	dir = dev->dir;
	dev->dir = NULL;
	if (dir)
		configfs_unregister_group(&dir->group);
	mutex_unlock(&rtune_dir_lock);
	if (dir)
		rtune_dir_put_groups(dir);
}

int rtune_configfs_init(void)
{
	config_group_init(&rtune_subsys.su_group);
	mutex_init(&rtune_subsys.su_mutex);
	return configfs_register_subsystem(&rtune_subsys);
}

void rtune_configfs_exit(void)
{
	configfs_unregister_subsystem(&rtune_subsys);
}
