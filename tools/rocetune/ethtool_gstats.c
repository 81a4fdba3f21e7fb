// SPDX-License-Identifier: GPL-2.0
/*
 * A few of the driver's own statistics (`ethtool -S`), read by name: the
 * PFC pause-storm counters and the per-priority pause durations of the
 * drivers that have them. ethtool netlink
 * has the names (STRSET_GET) but no message with the values, so the three
 * ETHTOOL_* ioctls `ethtool -S` uses are the one way to them:
 * GSSET_INFO (how many), GSTRINGS (the names), GSTATS (the values).
 *
 * What the kernel sends is untrusted. Two hazards, both handled here:
 * - GSTRINGS and GSTATS write as many entries as the driver has at the
 *   time of the call, whatever length the request says, and a driver's
 *   count can change between the calls (mlx5 lists per-priority counters
 *   only for the priorities with PFC on). The buffers get room for half as
 *   many again as GSSET_INFO said, and a reading whose three counts
 *   disagree is dropped and taken again, once.
 * - A name fills its ETH_GSTRING_LEN bytes without a NUL when it is that
 *   long: names are compared with their length bounded.
 *
 * The drivers' names:
 *   mlx5 (drivers/net/ethernet/mellanox/mlx5/core/en_stats.c, read in
 *   mainline): tx_pause_storm_warning_events, tx_pause_storm_error_events,
 *   one pair per port, listed when the device has stall detection.
 *   bnxt_en (per-priority PFC frames and pfc_pri<N>_{rx,tx}_duration_us)
 *   and ice (per-priority XON/XOFF) have no storm counter that we found.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include "ethtool.h"

_Static_assert(RTUNE_ETH_GSTRING_LEN == ETH_GSTRING_LEN, "ETH_GSTRING_LEN");

static const struct {
	const char *name;
	enum rtune_eth_drv id;
} drv_names[] = {
	{ "tx_pause_storm_warning_events", RTUNE_ETH_STORM_WARN },	/* mlx5 */
	{ "tx_pause_storm_error_events", RTUNE_ETH_STORM_ERR },		/* mlx5 */
};

/*
 * Per-priority pause durations, in microseconds: "<dir>_prio<N><suffix>"
 * with N one digit 0-7. mlx5: rx_prio<N>_pause_duration (pauses received:
 * the time the port did not send on N), tx_prio<N>_pause_duration
 * (pauses sent), both documented in microseconds. bnxt_en's
 * pfc_pri<N>_{rx,tx}_duration_us are not read: their unit is unchecked.
 */
static const char dur_prefix_rx[] = "rx_prio", dur_prefix_tx[] = "tx_prio";
static const char dur_suffix[] = "_pause_duration";

/* Is @n (@len bytes) a pause duration? Then *@tx and *@prio say which. */
static bool pause_dur(const char *n, size_t len, bool *tx, int *prio)
{
	size_t pl = sizeof(dur_prefix_rx) - 1, sl = sizeof(dur_suffix) - 1;

	if (len != pl + 1 + sl || n[pl] < '0' || n[pl] > '7' || memcmp(n + pl + 1, dur_suffix, sl))
		return false;
	if (!memcmp(n, dur_prefix_rx, pl))
		*tx = false;
	else if (!memcmp(n, dur_prefix_tx, pl))
		*tx = true;
	else
		return false;
	*prio = n[pl] - '0';
	return true;
}

/* More statistics than this is no NIC's: refused rather than allocated. */
#define GSTATS_MAX (1u << 20)

int rtune_eth_gstats_pick(const char *names, uint32_t nnames, const uint64_t *vals,
			  uint32_t nvals, struct rtune_eth *e)
{
	uint32_t i;
	unsigned int k;

	memset(e->has_drv, 0, sizeof(e->has_drv));
	e->pause_us_rx_mask = e->pause_us_tx_mask = 0;
	if (nnames != nvals || nnames > GSTATS_MAX)
		return -EPROTO;
	for (i = 0; i < nnames; i++) {
		const char *n = names + (size_t)i * RTUNE_ETH_GSTRING_LEN;
		size_t len = strnlen(n, RTUNE_ETH_GSTRING_LEN);
		bool tx;
		int prio;

		if (pause_dur(n, len, &tx, &prio)) {
			uint8_t *mask = tx ? &e->pause_us_tx_mask : &e->pause_us_rx_mask;

			if (!(*mask & (1u << prio))) {	/* the first of a name counts */
				(tx ? e->pause_us_tx : e->pause_us_rx)[prio] = vals[i];
				*mask |= (uint8_t)(1u << prio);
			}
			continue;
		}

		for (k = 0; k < sizeof(drv_names) / sizeof(drv_names[0]); k++) {
			enum rtune_eth_drv id = drv_names[k].id;

			if (e->has_drv[id] || strlen(drv_names[k].name) != len ||
			    memcmp(drv_names[k].name, n, len))
				continue;
			e->has_drv[id] = true;	/* the first of a name counts */
			e->drv[id] = vals[i];
			memcpy(e->drv_name[id], n, len);
			e->drv_name[id][len] = '\0';
		}
	}
	return 0;
}

static int eth_ioctl(int fd, const char *ifname, void *req)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = req;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

/* The number of ETH_SS_STATS entries now; 0 when the driver has none. */
static int stats_count(int fd, const char *ifname, uint32_t *n)
{
	union {
		struct ethtool_sset_info s;
		uint8_t b[sizeof(struct ethtool_sset_info) + sizeof(uint32_t)];
	} req = { .s = { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_STATS } };
	int err = eth_ioctl(fd, ifname, &req);

	if (err)
		return err;
	*n = 0;
	if (req.s.sset_mask & (1ULL << ETH_SS_STATS))
		memcpy(n, req.b + sizeof(req.s), sizeof(*n));
	return 0;
}

/* One reading: 0, -EAGAIN when the counts disagree, or an errno. */
static int read_once(int fd, const char *ifname, struct rtune_eth *e)
{
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	uint32_t n, cap;
	int err;

	err = stats_count(fd, ifname, &n);
	if (err)
		return err;
	if (!n)
		return -EOPNOTSUPP;
	if (n > GSTATS_MAX)
		return -EPROTO;
	cap = n + n / 2 + 64;
	gs = calloc(1, sizeof(*gs) + (size_t)cap * RTUNE_ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + (size_t)cap * sizeof(uint64_t));
	err = -ENOMEM;
	if (!gs || !st)
		goto out;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	err = eth_ioctl(fd, ifname, gs);
	if (err)
		goto out;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	err = eth_ioctl(fd, ifname, st);
	if (err)
		goto out;
	if (gs->len > cap || st->n_stats > cap) {
		err = -EPROTO;	/* wrote past what it was asked for by half again */
		goto out;
	}
	err = gs->len != n || st->n_stats != n ? -EAGAIN :
	      rtune_eth_gstats_pick((const char *)gs->data, gs->len,
				    (const uint64_t *)st->data, st->n_stats, e);
out:
	free(gs);
	free(st);
	return err;
}

int rtune_ethtool_gstats(const char *ifname, struct rtune_eth *e)
{
	int fd, err, tries = 0;
	unsigned int k;

	memset(e->has_drv, 0, sizeof(e->has_drv));
	e->pause_us_rx_mask = e->pause_us_tx_mask = 0;
	if (strlen(ifname) >= IFNAMSIZ)
		return -ENODEV;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	do
		err = read_once(fd, ifname, e);
	while (err == -EAGAIN && ++tries < 2);
	close(fd);
	if (err == -EAGAIN)
		err = -EPROTO;	/* the driver's list kept changing */
	if (err)
		return err;
	for (k = 0; k < RTUNE_ETH_DRV_COUNT; k++)
		if (e->has_drv[k])
			return 0;
	return e->pause_us_rx_mask | e->pause_us_tx_mask ? 0 : -EOPNOTSUPP;
}
