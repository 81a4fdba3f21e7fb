/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Vendor congestion-control surfaces: the files a NIC driver exposes for
 * its DCQCN parameters (mlx5: debugfs mlx5/<PCI BDF>/cc_params/), and the
 * mapping between them and rocetune's vendor-neutral parameters
 * (kmod/core/params_list.h). Documentation/hardware.rst has the tables.
 *
 * A device with a surface is planned in the surface's own terms: its
 * state is the raw value of every file (struct rtune_hwcc), a target is
 * the raw values the profile's parameters convert to, and an action
 * writes files and reads them all back. So a rollback restores every
 * file it read to the exact value it had, including files that have no
 * neutral equivalent and values the neutral set cannot express.
 *
 * surface.c is generic: discovery, reading, writing, read-back, the
 * target and the plan. One file per vendor holds its table and its
 * conversions (surface_mlx5.c, surface_mlx5_ofed.c, surface_bnxt_re.c,
 * surface_irdma.c, surface_bnxt_re_oot.c, surface_ionic.c).
 */
#ifndef ROCETUNE_SURFACE_H
#define ROCETUNE_SURFACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../../kmod/core/params.h"

struct rtune_link;
struct rtune_profile;
struct rtune_plan;
struct rtune_action;
struct rtune_pr;
struct rtune_hwcc;

/* The most files one surface has (a bit each in uint32_t masks). */
#define RTUNE_SURF_MAX_FILES 32

/* Where a surface's directory is. */
enum rtune_surf_root {
	/* <debugfs>/<name>/<PCI BDF>/<subdir>/ (upstream mlx5, bnxt_re) */
	RTUNE_SURF_DEBUGFS_PCI,
	/* /sys/class/net/<netdev>/<subdir>/ (MLNX_OFED's ecn/) */
	RTUNE_SURF_SYSFS_NET,
	/*
	 * <configfs>/<name>/<ibdev>/, a group that exists only while someone
	 * has made it (Intel's irdma): made before each read or write and
	 * removed after, unless it was there already
	 */
	RTUNE_SURF_CONFIGFS_GROUP,
	/* /sys/class/infiniband/<ibdev>/<subdir>/ (ionic's dcqcn/) */
	RTUNE_SURF_SYSFS_IB,
};

/* What a neutral parameter is on a surface. */
struct rtune_surf_map {
	/* file index, or -1: the surface has no such knob */
	int file;
	/* with file -1: why, and where the knob is instead, if anywhere */
	const char *why;
};

struct rtune_surface {
	const char *name;	/* "mlx5": also its directory under debugfs */
	const char *driver;	/* the PCI driver that owns such devices */
	const char *subdir;	/* the directory under <root>/<name>/<id>/ */
	const char *backend;	/* shown as the cc backend */
	enum rtune_surf_root root;
	int nfiles;
	const char *const *files;
	/*
	 * Files that are per-priority directories instead: <file>/0 .. <file>/7
	 * each read "0" or "1", and the file's raw value is the bitmask of
	 * the priorities that read 1. Writes go to the priorities that differ.
	 */
	uint32_t groups;
	/*
	 * The files' mode says whether they can be written: without a write
	 * bit they are read-only (MLNX_OFED on a virtual function), and a
	 * plan that would change one is refused.
	 */
	bool ro_by_mode;
	/* shown as a warning when a plan changes the surface: when and to
	 * what the change applies, if not at once to everything */
	const char *applies;
	/*
	 * RTUNE_SURF_CONFIGFS_GROUP: the subsystem's directory under configfs
	 * (NULL: name), and the environment variable that replaces
	 * <configfs>/<group> in tests (NULL: none).
	 */
	const char *group;
	const char *test_env;
	/* Files print "%#x" ("0" or "0x1f") and are written "0x%x". */
	bool hex;
	/*
	 * A staged surface: writes only stage, and writing "0x1" to this file
	 * sends what is staged to the firmware. NULL: every write is live.
	 */
	const char *commit;
	/*
	 * A file that shows the firmware's values where the others show the
	 * driver's cache: lines "... (<key>) ... : <value>". dump_value turns
	 * one into a file index and a raw value (false: not one of ours).
	 */
	const char *dump;
	bool (*dump_value)(const char *key, const char *val, int *file, uint32_t *v);
	/* Values a commit itself changes in the cache (@raw: what was
	 * staged), when something was staged. NULL: none. */
	void (*after_commit)(uint32_t *raw);
	/* The target as a whole (@fmask: the files the profile sets): 0, or
	 * -ERANGE with @why. NULL: every value stands alone. */
	int (*check)(const uint32_t *raw, uint32_t fmask, char *why, size_t wlen);
	/* per neutral parameter */
	const struct rtune_surf_map *map;
	/*
	 * Neutral value @v of @id into raw[], setting the bits of the files
	 * it fills in *fmask. Returns 0, or -ERANGE with @why saying why the
	 * surface cannot express the value. Only for mapped parameters.
	 */
	int (*to_raw)(enum rtune_param_id id, uint32_t v, uint32_t *raw, uint32_t *fmask,
		      char *why, size_t wlen);
	/*
	 * The neutral value of mapped parameter @id, given the raw files read
	 * (bits of @valid) and *v preset to its own file's raw value. Returns
	 * false when the raw files do not express a value of ours. NULL: the
	 * raw value is the neutral one.
	 */
	bool (*decode)(enum rtune_param_id id, const uint32_t *raw, uint32_t valid, uint64_t *v);
	/*
	 * The files to write, in order, to take @from to @to for the files
	 * in @mask (side effects of writes included). Returns the count.
	 * NULL: the files that differ, in file order.
	 */
	int (*writes)(const uint32_t *from, const uint32_t *to, uint32_t mask, int *order);
	/* The value file @file shows after writing @v to file @w, given it
	 * showed @cur before: side effects of one write on another file.
	 * NULL: a write changes its own file only. */
	uint32_t (*after_write)(int w, uint32_t v, int file, uint32_t cur);
	/*
	 * Where in <root>/<id>/<subdir>/ (hw->dir on entry) the files are,
	 * when that is read from the device (ionic: the profile its
	 * match_default names): sets hw->dir, and hw->refuse when the files
	 * can be read but a profile must not be written. 0, or -errno with
	 * hw->errwhy. NULL: the directory itself.
	 */
	int (*locate)(struct rtune_hwcc *hw);
	/*
	 * A surface whose stores return success when the firmware refused
	 * them, and which says so only in the kernel log (ionic): whether one
	 * log message (@len bytes, not NUL-terminated) is such a failure for
	 * @hw. surface_apply() reads the kernel log after every write
	 * (kmsg.h) and fails the write on one. NULL: stores tell.
	 */
	bool (*fw_log)(const struct rtune_hwcc *hw, const char *msg, size_t len);
	/* Why raw value @v cannot be written to file @f although the file
	 * can show it (ionic's rate_to_set_on_first_cnp 0); NULL: it can.
	 * A rollback leaves such a file as it is and says it. */
	const char *(*unwritable)(int f, uint32_t v);
};

extern const struct rtune_surface rtune_surface_mlx5, rtune_surface_mlx5_ofed,
	rtune_surface_bnxt_re, rtune_surface_irdma, rtune_surface_bnxt_re_oot,
	rtune_surface_ionic;

/*
 * The conversions between a neutral parameter and the firmware field the
 * mlx5 surfaces share (cong_control_r_roce_ecn_rp/np): the same for the
 * upstream debugfs files and MLNX_OFED's sysfs ones, which write the same
 * fields. mlx5_to_fw: 0 or -ERANGE with @why. mlx5_from_fw: false when
 * the field's value has no neutral equivalent.
 */
int rtune_mlx5_to_fw(enum rtune_param_id id, uint32_t v, uint32_t *r, const char *file,
		     char *why, size_t wlen);
bool rtune_mlx5_from_fw(enum rtune_param_id id, uint64_t *v);

/* Find the surface of @d's RDMA device and read it into d->hw (and the
 * neutral d->cc). Leaves d->hw.sf NULL when the device has none. */
void surface_read_dev(struct rtune_link *d);

/* The obj_cc operations for a device with a surface. */
void surface_target(const struct rtune_profile *p, const struct rtune_link *dev, int devidx,
		    struct rtune_link *want, uint32_t *mask, struct rtune_plan *pl);
void surface_restore(const struct rtune_link *saved, struct rtune_link *want, uint32_t *mask);
void surface_plan(const struct rtune_link *cur, int devidx, const struct rtune_link *want,
		  uint32_t mask, struct rtune_plan *pl);
int surface_apply(struct rtune_link *d, struct rtune_action *a);
void surface_describe(const struct rtune_action *a, char *buf, size_t len);
/* Why the surface of @d is unavailable, in one line. */
void surface_why(const struct rtune_link *d, char *buf, size_t len);

/* Test-only overrides (Documentation/hardware.rst, "Testing"). */
#define RTUNE_ENV_TEST_DEBUGFS "ROCETUNE_TEST_DEBUGFS"
#define RTUNE_ENV_TEST_SURFACE "ROCETUNE_TEST_SURFACE"
#define RTUNE_ENV_TEST_SYSFS_NET "ROCETUNE_TEST_SYSFS_NET"
#define RTUNE_ENV_TEST_IRDMA_CONFIGFS "ROCETUNE_TEST_IRDMA_CONFIGFS"
#define RTUNE_ENV_TEST_BNXT_RE_CONFIGFS "ROCETUNE_TEST_BNXT_RE_CONFIGFS"
#define RTUNE_ENV_TEST_SYSFS_IB "ROCETUNE_TEST_SYSFS_IB"

/*
 * ionic's report of a failed firmware command (ibdev_warn() "dcqcn profile
 * <N> not set, error <rc>") for RDMA device @ibdev and profile @profile,
 * in log message @msg (@len bytes). Exposed for the unit tests.
 */
bool rtune_ionic_fw_failed(const char *msg, size_t len, const char *ibdev, int profile);

/*
 * Parse a dump (rtune_surface.dump) into @raw, setting bits of *valid for
 * the files it shows. Exposed for the unit tests.
 */
void surface_parse_dump(const struct rtune_surface *sf, const char *text, uint32_t *raw,
			uint32_t *valid);

#endif
