// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only fault injection, in debugfs:
 *
 *   /sys/kernel/debug/rocetune/fail_next_commit
 *
 * An errno magnitude (1..MAX_ERRNO): the next cc/commit on any port fails
 * with -errno before it changes anything, with last_error "injected
 * failure", and the knob goes back to 0. 0 means "don't fail". This lets
 * tests of tools that commit (rocetune apply) check their rollback; it is
 * not a stable interface.
 *
 *   /sys/kernel/debug/rocetune/withdraw_delay_ms
 *   /sys/kernel/debug/rocetune/withdraw_delays
 *
 * Milliseconds (0..10000) the worker sleeps after taking a live QP's
 * entry out of service (rtune_qp_withdraw(), after its grace period), and
 * how many times it did: a test widens that window to show that no
 * reference to the QP is held across it (ib_destroy_qp() would wait).
 *
 * Test builds only (make SANITIZE=1):
 *
 *   /sys/kernel/debug/rocetune/create_delay_ms
 *   /sys/kernel/debug/rocetune/create_delaying
 *   /sys/kernel/debug/rocetune/create_delays
 *
 * Milliseconds (0 = off; more than RTUNE_CREATE_DELAY_MAX_MS, 200, is
 * taken as 200) that rtune_qp_create() busy-waits between reading the
 * port's parameters and inserting the entry (softirq: it cannot sleep,
 * hence the small cap); how many creations are in that window now; and
 * how many went through it. selftests/dcqcn/commit-race.sh commits while
 * one is there, to show that the entry ends up on the new parameters.
 *
 *   /sys/kernel/debug/rocetune/show_page_bytes
 *
 * Bytes (0 = off: a whole page) that the show of ports/<N>/counters takes
 * as its page, at least RTUNE_SHOW_PAGE_MIN (192): a driver with more
 * counters than fit in a page is rare (rxe's take a few hundred bytes), so
 * selftests/kmod/counters-page.sh shrinks the page to show that the table
 * still ends with whole lines and a "# truncated" line.
 *
 * Test builds only (make SANITIZE=1, as make check does; kmod/Kbuild
 * defines RTUNE_TEST_BUILD), a module parameter, since it acts before
 * debugfs could be written:
 *
 *   insmod rocetune.ko fail_init_ms=N
 *
 * N milliseconds (1..10000) after ib_register_client() added the devices,
 * module init fails with -ENOMEM and takes the path a failed
 * ib_register_client() takes (it removes the devices it added itself):
 * selftests/kmod/init-fail.sh creates QP entries in that window and
 * checks that none of their RCU callbacks is left when init returns.
 * Production and DKMS builds have no such parameter.
 *
 *   insmod rocetune.ko attach_as_hardware=1
 *
 * Devices attach with no backend, as a hardware NIC does (backend
 * "none": no datapath, active/ and commit EOPNOTSUPP), so that
 * selftests/kmod/no-backend.sh can check on Soft-RoCE what the tree and
 * rocetune claim for a device rocetune.ko runs no DCQCN for. Read when a
 * device attaches; 0444, so it holds for the module's lifetime.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/moduleparam.h>

#include "rocetune.h"

/* No lock: one atomic, consumed by atomic_xchg() so only one commit fails. */
static atomic_t rtune_fail_next_commit = ATOMIC_INIT(0);

/* No lock: each is one word, read and written whole. */
static u32 rtune_withdraw_delay_ms;
static atomic_t rtune_withdraw_delays = ATOMIC_INIT(0);

/**
 * rtune_fault_withdraw - the injected delay of a withdrawal; may sleep
 */
void rtune_fault_withdraw(void)
{
	u32 ms = READ_ONCE(rtune_withdraw_delay_ms);

	if (!ms)
		return;
	atomic_inc(&rtune_withdraw_delays);
	msleep(min_t(u32, ms, 10000));
}

/**
 * rtune_fault_commit - consume an injected commit failure
 *
 * Return: 0, or the negative errno armed in fail_next_commit (which is
 * then disarmed).
 */
int rtune_fault_commit(void)
{
	return -atomic_xchg(&rtune_fail_next_commit, 0);
}

static int rtune_fail_next_get(void *data, u64 *val)
{
	*val = atomic_read(data);
	return 0;
}

static int rtune_fail_next_set(void *data, u64 val)
{
	if (val > MAX_ERRNO)
		return -EINVAL;
	atomic_set(data, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(rtune_fail_next_fops, rtune_fail_next_get,
			 rtune_fail_next_set, "%llu\n");

DEFINE_DEBUGFS_ATTRIBUTE(rtune_count_fops, rtune_fail_next_get, NULL, "%llu\n");

#ifdef RTUNE_TEST_BUILD
/* The longest busy-wait of create_delay_ms: it may be in softirq. */
#define RTUNE_CREATE_DELAY_MAX_MS 200

/* No lock: each is one word, read and written whole. */
static u32 rtune_create_delay_ms;
static atomic_t rtune_create_delaying = ATOMIC_INIT(0);
static atomic_t rtune_create_delays = ATOMIC_INIT(0);

/**
 * rtune_fault_qp_create - the injected delay of a QP entry's creation
 *
 * Called by rtune_qp_create() after it read the parameters and before it
 * inserts the entry; any context, never sleeps.
 */
void rtune_fault_qp_create(void)
{
	u32 ms = READ_ONCE(rtune_create_delay_ms);

	if (!ms)
		return;
	ms = min_t(u32, ms, RTUNE_CREATE_DELAY_MAX_MS);
	/*
	 * Fully ordered: whoever sees the creation in the window also sees
	 * that it has read the parameters.
	 */
	atomic_inc_return(&rtune_create_delaying);
	while (ms--)
		mdelay(1);
	atomic_inc(&rtune_create_delays);
	atomic_dec_return(&rtune_create_delaying);
}

/* The smallest show_page_bytes: room for the "# truncated" line and more. */
#define RTUNE_SHOW_PAGE_MIN 192

/* No lock: one word, read and written whole. */
static u32 rtune_show_page_bytes;

/**
 * rtune_fault_page_size - the page a counters show may fill
 *
 * Return: PAGE_SIZE, or less when show_page_bytes says so.
 */
size_t rtune_fault_page_size(void)
{
	u32 b = READ_ONCE(rtune_show_page_bytes);

	if (!b || b >= PAGE_SIZE)
		return PAGE_SIZE;
	return max_t(u32, b, RTUNE_SHOW_PAGE_MIN);
}

static void rtune_fault_test_init(struct dentry *dir)
{
	debugfs_create_u32("show_page_bytes", 0600, dir, &rtune_show_page_bytes);
	debugfs_create_u32("create_delay_ms", 0600, dir, &rtune_create_delay_ms);
	debugfs_create_file_unsafe("create_delaying", 0400, dir,
				   &rtune_create_delaying, &rtune_count_fops);
	debugfs_create_file_unsafe("create_delays", 0400, dir,
				   &rtune_create_delays, &rtune_count_fops);
}

static unsigned int fail_init_ms;
module_param(fail_init_ms, uint, 0444);
MODULE_PARM_DESC(fail_init_ms,
		 "test builds only: fail init this many ms after the RDMA client registered (0: never)");

static bool attach_as_hardware;
module_param(attach_as_hardware, bool, 0444);
MODULE_PARM_DESC(attach_as_hardware,
		 "test builds only: attach every device without a backend, as a hardware NIC");

/**
 * rtune_fault_no_backend - attach devices as hardware NICs (test builds)
 *
 * Return: the attach_as_hardware module parameter.
 */
bool rtune_fault_no_backend(void)
{
	return attach_as_hardware;
}

/**
 * rtune_fault_client_registered - the injected failure of module init
 *
 * Return: 0, or -ENOMEM after the delay set by fail_init_ms.
 */
int rtune_fault_client_registered(void)
{
	if (!fail_init_ms)
		return 0;
	msleep(min(fail_init_ms, 10000U));
	pr_info("injected init failure (fail_init_ms=%u)\n", fail_init_ms);
	return -ENOMEM;
}
#else
int rtune_fault_client_registered(void)
{
	return 0;
}

static void rtune_fault_test_init(struct dentry *dir)
{
}
#endif

/* @dir: rocetune.ko's debugfs directory; an error pointer is fine. */
void rtune_fault_init(struct dentry *dir)
{
	debugfs_create_file_unsafe("fail_next_commit", 0600, dir,
				   &rtune_fail_next_commit, &rtune_fail_next_fops);
	debugfs_create_u32("withdraw_delay_ms", 0600, dir, &rtune_withdraw_delay_ms);
	debugfs_create_file_unsafe("withdraw_delays", 0400, dir,
				   &rtune_withdraw_delays, &rtune_count_fops);
	rtune_fault_test_init(dir);
}
