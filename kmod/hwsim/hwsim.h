/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwsim: vendor congestion-control surfaces reproduced for rocetune's tests.
 *
 * A real NIC driver exposes its DCQCN knobs in a tree of its own (mlx5:
 * debugfs mlx5/<PCI BDF>/cc_params/). hwsim builds the same tree, with
 * the same file names, modes, formats and write semantics, under its own
 * debugfs root, and keeps the values in memory instead of in firmware. So
 * rocetune's adapter for that vendor can be tested without the hardware.
 *
 *   dev.c    the module, the device list, new_device/del_device
 *   fault.c  the fault knobs (fault/ next to each device's surface)
 *   mlx5.c   the mlx5 surface: cc_params/ as drivers/infiniband/hw/mlx5/
 *            cong.c creates it
 *   bnxt_re.c  the bnxt_re surface: cc_config/ as drivers/infiniband/hw/
 *            bnxt_re/debugfs.c creates it
 *   mlx5_ofed.c  MLNX_OFED's mlx5 surface: ecn/ as its en_sysfs.c creates
 *            it under /sys/class/net/<netdev>/
 *   irdma.c  Intel's out-of-tree irdma surface: a configfs subsystem whose
 *            groups are made with mkdir, as its configfs.c has it
 *   bnxt_re_oot.c  Broadcom's out-of-tree bnxt_re surface: configfs
 *            bnxt_re/<ibdev>/ports/1/cc/, staged until "apply"
 *   ionic.c  AMD Pensando's out-of-tree ionic surface: dcqcn/ profiles
 *            under /sys/class/infiniband/<ibdev>/, whose firmware failures
 *            only reach the kernel log
 *   cfs.c    the configfs subsystem of device groups both of those use
 *
 * Adding a vendor is one file with a struct hwsim_surface and its line in
 * dev.c's hwsim_surfaces[] (Documentation/hardware.rst).
 */
#ifndef _HWSIM_H
#define _HWSIM_H

#include <linux/atomic.h>
#include <linux/configfs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct dentry;
struct hwsim_dev;

/* One vendor surface. */
struct hwsim_surface {
	/* directory under the hwsim root, as the driver names its own root
	 * under /sys/kernel/debug ("mlx5")
	 */
	const char *name;
	/* The device can be a virtual function ("new_device ... vf"). */
	bool has_vf;
	/* Whether @id names a device of this surface; NULL: a PCI BDF. */
	bool (*id_valid)(const char *id);
	/* Module load and unload, for a surface with a root of its own
	 * (a configfs subsystem); either may be NULL.
	 */
	int (*init)(void);
	void (*exit)(void);
	/* Build the surface's files under @d->dir; set d->priv. Called once
	 * the device's directory exists. 0 or -errno.
	 */
	int (*create)(struct hwsim_dev *d);
	/* Free d->priv; the files are already gone. */
	void (*destroy)(struct hwsim_dev *d);
};

/* Fault injection, per device. fail_after and fail_errno are protected by
 * hwsim_dev.lock, which each surface write holds from the fault check to
 * the store, so a count never lands in the middle of a write. The bools
 * are written by debugfs_create_bool's handler without our lock and read
 * once per open or write (READ_ONCE); the counters are atomics.
 */
struct hwsim_fault {
	struct dentry *dir;
	/* open() of every surface file fails with EPERM, as debugfs does
	 * for files with write permission under kernel lockdown
	 */
	bool lockdown;
	/* writes succeed and store nothing */
	bool ignore_writes;
	/* -1: off; N >= 0: after N more successful writes, writes fail */
	int fail_after;
	/* errno magnitude of an injected write failure */
	u32 fail_errno;
	/* the failure stays until the knob is rewritten (else: one write) */
	bool fail_sticky;
	/* each write sleeps this long, holding hwsim_dev.lock (read once
	 * per write, written by debugfs_create_u32's handler)
	 */
	u32 delay_ms;
	/* writes that reached the simulated firmware (parsed), whatever
	 * became of them; and those that changed a stored value
	 */
	atomic_t writes;
	atomic_t changes;
};

struct hwsim_dev {
	struct list_head node;		/* hwsim_devs, under hwsim_devs_lock */
	const struct hwsim_surface *sf;
	char id[16];			/* PCI BDF, e.g. 0000:fe:00.0; or a netdev */
	bool vf;			/* a virtual function (has_vf), fixed */
	/* references from outside the device's files (irdma's configfs
	 * groups): taken under hwsim_devs_lock, and a device with any
	 * cannot be removed
	 */
	atomic_t users;
	struct dentry *dir;		/* <root>/<surface>/<id> */
	/* Protects the surface's stored values and the fault knobs. */
	struct mutex lock;
	struct hwsim_fault fault;
	void *priv;			/* the surface's state */
};

enum hwsim_admit {
	HWSIM_STORE,			/* apply the write */
	HWSIM_IGNORE,			/* report success, store nothing */
};

/*
 * A configfs subsystem whose mkdir'ed groups are devices (cfs.c). @make
 * builds the group of device @d named @name (a reference on @d, which
 * the group's item release drops with hwsim_dev_put()), or ERR_PTR.
 */
struct hwsim_cfs {
	struct configfs_subsystem subsys;
	const struct hwsim_surface *sf;
	struct config_group *(*make)(struct hwsim_dev *d, const char *name);
};

/* cfs.c */
int hwsim_cfs_register(struct hwsim_cfs *c, const char *name);
void hwsim_cfs_unregister(struct hwsim_cfs *c);

/* dev.c */
struct hwsim_dev *hwsim_dev_get(const struct hwsim_surface *sf, const char *id);
void hwsim_dev_put(struct hwsim_dev *d);
bool hwsim_name_valid(const char *id);

/* fault.c */
void hwsim_fault_init(struct hwsim_fault *f);
void hwsim_fault_register(struct hwsim_dev *d);
int hwsim_fault_open(struct hwsim_dev *d);
int hwsim_fault_admit(struct hwsim_dev *d);
void hwsim_fault_changed(struct hwsim_dev *d);

/* surfaces */
extern const struct hwsim_surface hwsim_mlx5;
extern const struct hwsim_surface hwsim_bnxt_re;
extern const struct hwsim_surface hwsim_mlx5_ofed;
extern const struct hwsim_surface hwsim_irdma;
extern const struct hwsim_surface hwsim_bnxt_re_oot;
extern const struct hwsim_surface hwsim_ionic;

#endif /* _HWSIM_H */
