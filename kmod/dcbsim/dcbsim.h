/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcbsim: a DCB-capable software netdev for rocetune's tests.
 *
 * One private header for the three parts of the module:
 *   netdev.c  rtnl_link_ops, net_device_ops, stacked mode (rx_handler)
 *   dcbnl.c   the IEEE dcbnl_rtnl_ops and the state they store
 *   rewr.c    the rewrite table ops (Linux 6.3+)
 *   fault.c   debugfs fault injection, which is not part of the DCB uAPI
 *   devlink.c the devlink instance: enable_roce, enable_iwarp, ports
 */
#ifndef _DCBSIM_H
#define _DCBSIM_H

#include <linux/atomic.h>
#include <linux/dcbnl.h>
#include <linux/ethtool.h>
#include <linux/if.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

/*
 * Generated at build time by kmod/compat/conftest.sh: RTUNE_HAVE_* defined
 * to 0 or 1, for "#if" and plain C conditions alike.
 */
#include "compat_generated.h"
#include "../compat/ethtool.h"
#include "../compat/netdev.h"

#define DCBSIM_LINK_KIND	"dcbsim"

/* The selector value the uAPI gives PCP from Linux 6.2 (DCB_APP_SEL_PCP). */
#define DCBSIM_APP_SEL_PCP	255

/* Simulated device capabilities and limits. */
#define DCBSIM_NUM_TCS		IEEE_8021QAZ_MAX_TCS
#define DCBSIM_PFC_CAP		IEEE_8021QAZ_MAX_TCS
#define DCBSIM_BUFFER_TOTAL	(1024 * 1024)	/* bytes of port buffer */
#define DCBSIM_APPTRUST_MAX	8	/* >= the number of distinct selectors */

/* Kinds of DCB write; each has its own fault-injection knobs. */
enum dcbsim_kind {
	DCBSIM_KIND_ETS,
	DCBSIM_KIND_PFC,
	DCBSIM_KIND_APP,
	DCBSIM_KIND_APPTRUST,
	DCBSIM_KIND_MAXRATE,
	DCBSIM_KIND_BUFFER,
	DCBSIM_KIND_DCBX,
	DCBSIM_KIND_REWR,
	DCBSIM_KIND_NUM,
};

/* The rewrite table of one selector (rewr.c): per priority, a PCP or DSCP. */
struct dcbsim_rewr_map {
	u8 valid;	/* bit p: priority p has a value */
	u8 val[IEEE_8021QAZ_MAX_TCS];
};

/* What the dcbnl ops store. The APP table is not here: it lives in the
 * DCB core's list (dcb_ieee_setapp/dcb_ieee_delapp). The rewrite table is
 * in the core's list and in rewr_pcp/rewr_dscp (see rewr.c).
 */
struct dcbsim_dcb {
	/* Protects every field below. dcbnl calls the ops under RTNL, but
	 * getdcbx also runs under the core's dcb_lock spinlock, and the
	 * pfc_cap knob is written from debugfs without RTNL, so a spinlock
	 * makes the state consistent on its own terms.
	 */
	spinlock_t lock;
	struct ieee_ets ets;
	struct ieee_pfc pfc;
	struct ieee_maxrate maxrate;
	struct dcbnl_buffer buffer;
	u8 dcbx;
	u8 apptrust[DCBSIM_APPTRUST_MAX];
	int napptrust;
	struct dcbsim_rewr_map rewr_pcp;
	struct dcbsim_rewr_map rewr_dscp;
};

/*
 * Counters of what happens on the simulated wire. Each advances at a rate
 * set in debugfs, computed when it is read:
 *	value(now) = base + rate * (now - since)
 * with now from the monotonic clock (ktime_get_ns()). Reading at read time
 * rather than ticking from a timer means no timer to stop on removal, no
 * wakeups while idle, and a value exact to the nanosecond whenever it is
 * read, so a test can measure a rate over a short window. Changing the
 * rate first folds the value so far into base.
 */
enum dcbsim_ctr_id {
	/* PFC frames received per priority: dcbnl "indications" */
	DCBSIM_CTR_PAUSE_RX,
	/* PFC frames sent per priority: dcbnl "requests" */
	DCBSIM_CTR_PAUSE_TX = DCBSIM_CTR_PAUSE_RX + IEEE_8021QAZ_MAX_TCS,
	DCBSIM_CTR_FCS_ERRORS = DCBSIM_CTR_PAUSE_TX + IEEE_8021QAZ_MAX_TCS,
	DCBSIM_CTR_SYMBOL_ERRORS,
	DCBSIM_CTR_LINK_DOWN,
	/* PFC storm detection, as mlx5 counts it: the device sent pauses
	 * past its warning watermark, or past its storm prevention timeout
	 * (and stopped them). Per port. Only injected: nothing pauses here.
	 */
	DCBSIM_CTR_STORM_WARN,
	DCBSIM_CTR_STORM_ERR,
	DCBSIM_CTR_NUM,
};

struct dcbsim_ctr {
	/* Protects the fields below. Taken by dcbnl and ethtool readers
	 * (under RTNL) and by the debugfs knobs (without RTNL), for a few
	 * arithmetic operations: never held across anything that sleeps.
	 */
	spinlock_t lock;
	u64 base;	/* the value at @since */
	u64 since;	/* ktime_get_ns() of the last fold */
	u32 rate;	/* per second */
};

struct dcbsim_counters {
	struct dcbsim_ctr ctr[DCBSIM_CTR_NUM];
};

/* Every counter at one instant. */
struct dcbsim_ctr_snapshot {
	u64 val[DCBSIM_CTR_NUM];
};

/* Simulated link: the port's speed and the PFC storm prevention tunable. */
struct dcbsim_link {
	/* Index into the port's link-mode table of the speed the link trained
	 * to. One word, written by the link_speed debugfs knob, read by
	 * get_link_ksettings: READ_ONCE/WRITE_ONCE, no lock.
	 */
	unsigned int mode;
	/* ETHTOOL_PFC_PREVENTION_TOUT in ms (0: disabled). Read and written by
	 * the ethtool tunable ops only, which run under RTNL.
	 */
	u16 pfc_prevention_tout;
};

/* Fault-injection state, exposed in debugfs by fault.c. The knobs and
 * counters need no lock: each is an atomic_t, or a bool read once per set
 * call (dcbx_lld: once per getdcbx). Only the cached name has a lock.
 */
struct dcbsim_fault {
	struct dentry *dir;
	/* errno magnitude for the next set of a kind, consumed by it */
	atomic_t fail_next[DCBSIM_KIND_NUM];
	/* accept sets of a kind and store nothing */
	bool ignore[DCBSIM_KIND_NUM];
	/* set calls that reached the driver, whatever their outcome */
	atomic_t calls[DCBSIM_KIND_NUM];
	/* set calls that changed the stored state */
	atomic_t sets[DCBSIM_KIND_NUM];
	/* getdcbx reports LLD-managed DCBX instead of host-managed */
	bool dcbx_lld;
	/* Protects name, which is written at registration and on rename
	 * (under RTNL) and read by the debugfs "name" file (without RTNL: device
	 * removal holds RTNL while it waits for debugfs readers).
	 */
	spinlock_t name_lock;
	char name[IFNAMSIZ];
};

/* One kind of set call's fault knobs and counters, for the sets that have
 * no DCB kind (devlink.c). Atomics and a bool read once per call: no lock.
 */
struct dcbsim_knobs {
	atomic_t fail_next;	/* errno magnitude, consumed by the next set */
	bool ignore;		/* sets succeed and store nothing */
	atomic_t calls;		/* set calls that reached the driver */
	atomic_t sets;		/* set calls that changed the state */
};

struct devlink_port;

struct dcbsim_priv {
	struct net_device *dev;
	/* The devlink port this netdev claimed (devlink.c), or NULL. Set
	 * before the netdev registers, cleared by the destructor (or when
	 * registration fails): never changes while the netdev is registered.
	 */
	struct devlink_port *dl_port;
	/* Before 6.2, ties the registered netdev to dl_port outside RTNL;
	 * holds a reference on the netdev while pending (devlink.c).
	 */
	struct work_struct dl_bind_work;
	struct rtune_compat_netdev_tracker dl_tracker;
	/* Stacked mode: the lower device, or NULL when standalone. Written
	 * under RTNL only: set once the device is linked, cleared when it is
	 * unlinked (device already closed, so no transmit can race).
	 */
	struct net_device *lower;
	struct rtune_compat_netdev_tracker lower_tracker;
	struct dcbsim_dcb dcb;
	struct dcbsim_counters counters;
	struct dcbsim_link link;
	struct dcbsim_fault fault;
};

/* dcbnl.c */
extern const struct dcbnl_rtnl_ops dcbsim_dcbnl_ops;
void dcbsim_dcb_init(struct dcbsim_dcb *dcb);
u8 dcbsim_dcb_pfc_cap(struct dcbsim_dcb *dcb);
int dcbsim_dcb_set_pfc_cap(struct dcbsim_dcb *dcb, u8 pfc_cap);

/* rewr.c: the rewrite ops exist with RTUNE_HAVE_DCBNL_REWR only */
int dcbsim_setrewr(struct net_device *dev, struct dcb_app *app);
int dcbsim_delrewr(struct net_device *dev, struct dcb_app *app);
void dcbsim_rewr_flush(struct net_device *dev);
void dcbsim_rewr_debugfs(struct dcbsim_priv *priv, struct dentry *dir);

/* counters.c */
void dcbsim_counters_init(struct dcbsim_counters *counters);
void dcbsim_counters_read(struct dcbsim_counters *counters,
			  struct dcbsim_ctr_snapshot *snap);
void dcbsim_counters_debugfs(struct dcbsim_counters *counters,
			     struct dentry *dir);

/* ethtool.c */
extern const struct ethtool_ops dcbsim_ethtool_ops;
void dcbsim_link_init(struct dcbsim_link *link);
void dcbsim_link_debugfs(struct dcbsim_priv *priv, struct dentry *dir);

/* fault.c */
void dcbsim_debugfs_init(void);
void dcbsim_debugfs_exit(void);
void dcbsim_fault_init(struct dcbsim_fault *fault);
void dcbsim_fault_register(struct dcbsim_priv *priv);
void dcbsim_fault_unregister(struct dcbsim_priv *priv);
void dcbsim_fault_rename(struct dcbsim_priv *priv);

bool dcbsim_fault_admit(struct dcbsim_fault *fault, enum dcbsim_kind kind,
			int verdict, int *ret);
void dcbsim_fault_changed(struct dcbsim_fault *fault, enum dcbsim_kind kind);
u8 dcbsim_fault_dcbx(struct dcbsim_fault *fault, u8 mode);
struct dentry *dcbsim_debugfs_dir(void);
bool dcbsim_knob_admit(struct dcbsim_knobs *knobs, int verdict, int *ret);
void dcbsim_knobs_debugfs(struct dcbsim_knobs *knobs, const char *kind,
			  struct dentry *dir);

/* devlink.c */
int dcbsim_devlink_init(void);
void dcbsim_devlink_exit(void);
void dcbsim_devlink_claim(struct dcbsim_priv *priv);
void dcbsim_devlink_bind(struct dcbsim_priv *priv);
void dcbsim_devlink_release(struct dcbsim_priv *priv, bool bound);

#endif /* _DCBSIM_H */
