// SPDX-License-Identifier: GPL-2.0
/*
 * dcbsim: the IEEE dcbnl ops.
 *
 * Every set goes through the same steps:
 *   1. check the input the way a careful driver does (-EINVAL, with the
 *      reason in the kernel log, as mlx5 and others do);
 *   2. dcbsim_fault_admit(): count the call, fail it if a failure was
 *      armed in debugfs, or report success without storing if the kind is
 *      ignored;
 *   3. store what was given and count a change if the state differs.
 * Every get reads back what was stored. Fields that describe the device
 * rather than its configuration (ets_cap, pfc_cap, the PFC counters,
 * buffer total_size) are never taken from userspace; the PFC counters are
 * the simulated wire's (counters.c).
 *
 * The APP table is the DCB core's own (dcb_ieee_setapp/dcb_ieee_delapp),
 * so "dcb app show" reads it the same way as for any driver.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/string.h>
#include <net/dcbnl.h>

#include "dcbsim.h"

static struct dcbsim_priv *dcbsim_priv(struct net_device *dev)
{
	return netdev_priv(dev);
}

void dcbsim_dcb_init(struct dcbsim_dcb *dcb)
{
	spin_lock_init(&dcb->lock);
	/* The rest is zeroed by alloc_netdev(): every TC strict priority
	 * with no bandwidth, every priority in TC 0, no PFC, no rate limit,
	 * every priority in buffer 0, an empty trust list.
	 */
	dcb->ets.ets_cap = DCBSIM_NUM_TCS;
	dcb->pfc.pfc_cap = DCBSIM_PFC_CAP;
	dcb->buffer.total_size = DCBSIM_BUFFER_TOTAL;
	dcb->dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
}

/* ETS */

static bool dcbsim_tsa_valid(u8 tsa)
{
	switch (tsa) {
	case IEEE_8021QAZ_TSA_STRICT:
	case IEEE_8021QAZ_TSA_CB_SHAPER:
	case IEEE_8021QAZ_TSA_ETS:
	case IEEE_8021QAZ_TSA_VENDOR:
		return true;
	}
	return false;
}

/* One ETS table (configuration or recommendation): known TSAs, priorities
 * mapped to existing TCs, bandwidth only on ETS TCs, summing to 100.
 */
static int dcbsim_ets_table_check(struct net_device *dev, const char *table,
				  const u8 *tsa, const u8 *bw,
				  const u8 *prio_tc)
{
	unsigned int sum = 0;
	bool have_ets = false;
	int i;

	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		if (!dcbsim_tsa_valid(tsa[i])) {
			netdev_err(dev, "%s: TC %d: unknown TSA %u\n",
				   table, i, tsa[i]);
			return -EINVAL;
		}
		if (prio_tc[i] >= DCBSIM_NUM_TCS) {
			netdev_err(dev, "%s: priority %d: no TC %u\n",
				   table, i, prio_tc[i]);
			return -EINVAL;
		}
		if (tsa[i] == IEEE_8021QAZ_TSA_ETS) {
			have_ets = true;
			sum += bw[i];
		} else if (bw[i]) {
			netdev_err(dev, "%s: TC %d: bandwidth %u%% on a non-ETS TC\n",
				   table, i, bw[i]);
			return -EINVAL;
		}
	}
	if (have_ets && sum != 100) {
		netdev_err(dev, "%s: ETS bandwidths sum to %u%%, not 100%%\n",
			   table, sum);
		return -EINVAL;
	}
	return 0;
}

static int dcbsim_ets_check(struct net_device *dev, const struct ieee_ets *ets)
{
	int err, i;

	if (ets->willing > 1 || ets->cbs > 1) {
		netdev_err(dev, "ETS: willing and cbs are booleans\n");
		return -EINVAL;
	}
	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		if (ets->tc_rx_bw[i] > 100) {
			netdev_err(dev, "ETS: TC %d: rx bandwidth %u%% > 100%%\n",
				   i, ets->tc_rx_bw[i]);
			return -EINVAL;
		}
	}
	err = dcbsim_ets_table_check(dev, "ETS", ets->tc_tsa, ets->tc_tx_bw,
				     ets->prio_tc);
	if (err)
		return err;
	return dcbsim_ets_table_check(dev, "ETS recommendation",
				      ets->tc_reco_tsa, ets->tc_reco_bw,
				      ets->reco_prio_tc);
}

static int dcbsim_ieee_getets(struct net_device *dev, struct ieee_ets *ets)
{
	struct dcbsim_dcb *dcb = &dcbsim_priv(dev)->dcb;

	spin_lock(&dcb->lock);
	*ets = dcb->ets;
	spin_unlock(&dcb->lock);
	return 0;
}

static int dcbsim_ieee_setets(struct net_device *dev, struct ieee_ets *ets)
{
	struct dcbsim_priv *priv = dcbsim_priv(dev);
	struct dcbsim_dcb *dcb = &priv->dcb;
	struct ieee_ets new = *ets;
	bool changed;
	int ret;

	if (!dcbsim_fault_admit(&priv->fault, DCBSIM_KIND_ETS,
				dcbsim_ets_check(dev, ets), &ret))
		return ret;

	spin_lock(&dcb->lock);
	new.ets_cap = dcb->ets.ets_cap;
	changed = memcmp(&dcb->ets, &new, sizeof(new));
	dcb->ets = new;
	spin_unlock(&dcb->lock);

	if (changed)
		dcbsim_fault_changed(&priv->fault, DCBSIM_KIND_ETS);
	return 0;
}

/* Max rate: kbit/s per TC, 0 meaning unlimited. Any value is accepted. */

static int dcbsim_ieee_getmaxrate(struct net_device *dev,
				  struct ieee_maxrate *maxrate)
{
	struct dcbsim_dcb *dcb = &dcbsim_priv(dev)->dcb;

	spin_lock(&dcb->lock);
	*maxrate = dcb->maxrate;
	spin_unlock(&dcb->lock);
	return 0;
}

static int dcbsim_ieee_setmaxrate(struct net_device *dev,
				  struct ieee_maxrate *maxrate)
{
	struct dcbsim_priv *priv = dcbsim_priv(dev);
	struct dcbsim_dcb *dcb = &priv->dcb;
	bool changed;
	int ret;

	if (!dcbsim_fault_admit(&priv->fault, DCBSIM_KIND_MAXRATE, 0, &ret))
		return ret;

	spin_lock(&dcb->lock);
	changed = memcmp(&dcb->maxrate, maxrate, sizeof(*maxrate));
	dcb->maxrate = *maxrate;
	spin_unlock(&dcb->lock);

	if (changed)
		dcbsim_fault_changed(&priv->fault, DCBSIM_KIND_MAXRATE);
	return 0;
}

/* PFC */

u8 dcbsim_dcb_pfc_cap(struct dcbsim_dcb *dcb)
{
	u8 cap;

	spin_lock(&dcb->lock);
	cap = dcb->pfc.pfc_cap;
	spin_unlock(&dcb->lock);
	return cap;
}

/* The pfc_cap debugfs knob: how many priorities may have PFC at once. */
int dcbsim_dcb_set_pfc_cap(struct dcbsim_dcb *dcb, u8 pfc_cap)
{
	int err = 0;

	if (pfc_cap > IEEE_8021QAZ_MAX_TCS)
		return -EINVAL;

	spin_lock(&dcb->lock);
	if (hweight8(dcb->pfc.pfc_en) > pfc_cap)
		err = -EBUSY;	/* would make the stored state invalid */
	else
		dcb->pfc.pfc_cap = pfc_cap;
	spin_unlock(&dcb->lock);
	return err;
}

static int dcbsim_pfc_check(struct net_device *dev, const struct ieee_pfc *pfc)
{
	u8 cap = dcbsim_dcb_pfc_cap(&dcbsim_priv(dev)->dcb);

	if (hweight8(pfc->pfc_en) > cap) {
		netdev_err(dev, "PFC: enable mask %#04x has more than %u priorities\n",
			   pfc->pfc_en, cap);
		return -EINVAL;
	}
	if (pfc->mbc > 1) {
		netdev_err(dev, "PFC: mbc is a boolean\n");
		return -EINVAL;
	}
	return 0;
}

/* The configuration, and the PFC frames sent (requests) and received
 * (indications) per priority, as counted on the simulated wire.
 */
static int dcbsim_ieee_getpfc(struct net_device *dev, struct ieee_pfc *pfc)
{
	struct dcbsim_priv *priv = dcbsim_priv(dev);
	struct dcbsim_dcb *dcb = &priv->dcb;
	struct dcbsim_ctr_snapshot snap;
	int i;

	spin_lock(&dcb->lock);
	*pfc = dcb->pfc;
	spin_unlock(&dcb->lock);

	dcbsim_counters_read(&priv->counters, &snap);
	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		pfc->requests[i] = snap.val[DCBSIM_CTR_PAUSE_TX + i];
		pfc->indications[i] = snap.val[DCBSIM_CTR_PAUSE_RX + i];
	}
	return 0;
}

static int dcbsim_ieee_setpfc(struct net_device *dev, struct ieee_pfc *pfc)
{
	struct dcbsim_priv *priv = dcbsim_priv(dev);
	struct ieee_pfc *cur = &priv->dcb.pfc;
	bool changed;
	int ret;

	if (!dcbsim_fault_admit(&priv->fault, DCBSIM_KIND_PFC,
				dcbsim_pfc_check(dev, pfc), &ret))
		return ret;

	/* pfc_cap and the requests/indications counters belong to the
	 * device; only the configuration is taken from userspace.
	 */
	spin_lock(&priv->dcb.lock);
	changed = cur->pfc_en != pfc->pfc_en || cur->mbc != pfc->mbc ||
		  cur->delay != pfc->delay;
	cur->pfc_en = pfc->pfc_en;
	cur->mbc = pfc->mbc;
	cur->delay = pfc->delay;
	spin_unlock(&priv->dcb.lock);

	if (changed)
		dcbsim_fault_changed(&priv->fault, DCBSIM_KIND_PFC);
	return 0;
}

/* Buffers */

static int dcbsim_buffer_check(struct net_device *dev,
			       const struct dcbnl_buffer *buf)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < IEEE_8021Q_MAX_PRIORITIES; i++) {
		if (buf->prio2buffer[i] >= DCBX_MAX_BUFFERS) {
			netdev_err(dev, "buffer: priority %d: no buffer %u\n",
				   i, buf->prio2buffer[i]);
			return -EINVAL;
		}
	}
	for (i = 0; i < DCBX_MAX_BUFFERS; i++)
		sum += buf->buffer_size[i];
	if (sum > DCBSIM_BUFFER_TOTAL) {
		netdev_err(dev, "buffer: sizes sum to %llu bytes, more than the %u available\n",
			   sum, DCBSIM_BUFFER_TOTAL);
		return -EINVAL;
	}
	return 0;
}

static int dcbsim_getbuffer(struct net_device *dev, struct dcbnl_buffer *buf)
{
	struct dcbsim_dcb *dcb = &dcbsim_priv(dev)->dcb;

	spin_lock(&dcb->lock);
	*buf = dcb->buffer;
	spin_unlock(&dcb->lock);
	return 0;
}

static int dcbsim_setbuffer(struct net_device *dev, struct dcbnl_buffer *buf)
{
	struct dcbsim_priv *priv = dcbsim_priv(dev);
	struct dcbnl_buffer *cur = &priv->dcb.buffer;
	bool changed;
	int ret;

	if (!dcbsim_fault_admit(&priv->fault, DCBSIM_KIND_BUFFER,
				dcbsim_buffer_check(dev, buf), &ret))
		return ret;

	/* total_size is the device's; userspace cannot change it. */
	spin_lock(&priv->dcb.lock);
	changed = memcmp(cur->prio2buffer, buf->prio2buffer,
			 sizeof(buf->prio2buffer)) ||
		  memcmp(cur->buffer_size, buf->buffer_size,
			 sizeof(buf->buffer_size));
	memcpy(cur->prio2buffer, buf->prio2buffer, sizeof(buf->prio2buffer));
	memcpy(cur->buffer_size, buf->buffer_size, sizeof(buf->buffer_size));
	spin_unlock(&priv->dcb.lock);

	if (changed)
		dcbsim_fault_changed(&priv->fault, DCBSIM_KIND_BUFFER);
	return 0;
}

/* APP table */

static bool dcbsim_app_selector_valid(u8 selector)
{
	switch (selector) {
	case IEEE_8021QAZ_APP_SEL_ETHERTYPE:
	case IEEE_8021QAZ_APP_SEL_STREAM:
	case IEEE_8021QAZ_APP_SEL_DGRAM:
	case IEEE_8021QAZ_APP_SEL_ANY:
	case IEEE_8021QAZ_APP_SEL_DSCP:
		return true;
	case DCBSIM_APP_SEL_PCP:
		return RTUNE_HAVE_DCB_APP_SEL_PCP;
	}
	return false;
}

static int dcbsim_app_check(struct net_device *dev, const struct dcb_app *app)
{
	bool ok;

	if (!dcbsim_app_selector_valid(app->selector)) {
		netdev_err(dev, "APP: unknown selector %u\n", app->selector);
		return -EINVAL;
	}
	if (app->priority >= IEEE_8021QAZ_MAX_TCS) {
		netdev_err(dev, "APP: no priority %u\n", app->priority);
		return -EINVAL;
	}

	switch (app->selector) {
	case IEEE_8021QAZ_APP_SEL_ETHERTYPE:
		/* EtherType 0 is how the default priority is expressed. */
		ok = !app->protocol || app->protocol >= ETH_P_802_3_MIN;
		break;
	case IEEE_8021QAZ_APP_SEL_DSCP:
		ok = app->protocol < 64;
		break;
	case DCBSIM_APP_SEL_PCP:
		ok = app->protocol < 16;	/* PCP 0-7, DEI in bit 3 */
		break;
	default:
		ok = app->protocol != 0;	/* TCP/UDP/SCTP port */
		break;
	}
	if (!ok) {
		netdev_err(dev, "APP: selector %u: invalid protocol %u\n",
			   app->selector, app->protocol);
		return -EINVAL;
	}
	return 0;
}

static int dcbsim_ieee_setapp(struct net_device *dev, struct dcb_app *app)
{
	struct dcbsim_priv *priv = dcbsim_priv(dev);
	int ret;

	if (!dcbsim_fault_admit(&priv->fault, DCBSIM_KIND_APP,
				dcbsim_app_check(dev, app), &ret))
		return ret;

	ret = dcb_ieee_setapp(dev, app);
	if (!ret)
		dcbsim_fault_changed(&priv->fault, DCBSIM_KIND_APP);
	return ret;
}

static int dcbsim_ieee_delapp(struct net_device *dev, struct dcb_app *app)
{
	struct dcbsim_priv *priv = dcbsim_priv(dev);
	int ret;

	/* Nothing to check: an entry that was never valid is not found. */
	if (!dcbsim_fault_admit(&priv->fault, DCBSIM_KIND_APP, 0, &ret))
		return ret;

	ret = dcb_ieee_delapp(dev, app);
	if (!ret)
		dcbsim_fault_changed(&priv->fault, DCBSIM_KIND_APP);
	return ret;
}

/* APP trust: the ops exist in struct dcbnl_rtnl_ops from Linux 6.2. */

#if RTUNE_HAVE_DCBNL_APPTRUST
static int dcbsim_apptrust_check(struct net_device *dev, const u8 *selectors,
				 int nselectors)
{
	int i, j;

	if (nselectors < 0 || nselectors > DCBSIM_APPTRUST_MAX) {
		netdev_err(dev, "APP trust: %d selectors\n", nselectors);
		return -EINVAL;
	}
	for (i = 0; i < nselectors; i++) {
		if (!dcbsim_app_selector_valid(selectors[i])) {
			netdev_err(dev, "APP trust: unknown selector %u\n",
				   selectors[i]);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (selectors[j] == selectors[i]) {
				netdev_err(dev, "APP trust: selector %u twice\n",
					   selectors[i]);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static int dcbsim_getapptrust(struct net_device *dev, u8 *selectors,
			      int *nselectors)
{
	struct dcbsim_dcb *dcb = &dcbsim_priv(dev)->dcb;

	spin_lock(&dcb->lock);
	memcpy(selectors, dcb->apptrust, dcb->napptrust);
	*nselectors = dcb->napptrust;
	spin_unlock(&dcb->lock);
	return 0;
}

static int dcbsim_setapptrust(struct net_device *dev, u8 *selectors,
			      int nselectors)
{
	struct dcbsim_priv *priv = dcbsim_priv(dev);
	struct dcbsim_dcb *dcb = &priv->dcb;
	bool changed;
	int ret;

	if (!dcbsim_fault_admit(&priv->fault, DCBSIM_KIND_APPTRUST,
				dcbsim_apptrust_check(dev, selectors,
						      nselectors),
				&ret))
		return ret;

	spin_lock(&dcb->lock);
	changed = dcb->napptrust != nselectors ||
		  memcmp(dcb->apptrust, selectors, nselectors);
	memcpy(dcb->apptrust, selectors, nselectors);
	dcb->napptrust = nselectors;
	spin_unlock(&dcb->lock);

	if (changed)
		dcbsim_fault_changed(&priv->fault, DCBSIM_KIND_APPTRUST);
	return 0;
}
#endif /* RTUNE_HAVE_DCBNL_APPTRUST */

/* DCBX mode: only host-managed IEEE (optionally static) is supported. */

static u8 dcbsim_getdcbx(struct net_device *dev)
{
	struct dcbsim_dcb *dcb = &dcbsim_priv(dev)->dcb;
	u8 mode;

	/* Called with the DCB core's dcb_lock held: must not sleep. */
	spin_lock(&dcb->lock);
	mode = dcb->dcbx;
	spin_unlock(&dcb->lock);
	return dcbsim_fault_dcbx(&dcbsim_priv(dev)->fault, mode);
}

static int dcbsim_dcbx_check(struct net_device *dev, u8 mode)
{
	const u8 required = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;

	if ((mode & required) != required ||
	    (mode & ~(required | DCB_CAP_DCBX_STATIC))) {
		netdev_err(dev, "DCBX: mode %#04x unsupported (host IEEE only)\n",
			   mode);
		return -EINVAL;
	}
	return 0;
}

/* dcbnl passes the u8 result on as is: 0 is success, anything else not. */
static u8 dcbsim_setdcbx(struct net_device *dev, u8 mode)
{
	struct dcbsim_priv *priv = dcbsim_priv(dev);
	bool changed;
	int ret;

	if (!dcbsim_fault_admit(&priv->fault, DCBSIM_KIND_DCBX,
				dcbsim_dcbx_check(dev, mode), &ret))
		return ret ? 1 : 0;

	spin_lock(&priv->dcb.lock);
	changed = priv->dcb.dcbx != mode;
	priv->dcb.dcbx = mode;
	spin_unlock(&priv->dcb.lock);

	if (changed)
		dcbsim_fault_changed(&priv->fault, DCBSIM_KIND_DCBX);
	return 0;
}

const struct dcbnl_rtnl_ops dcbsim_dcbnl_ops = {
	.ieee_getets		= dcbsim_ieee_getets,
	.ieee_setets		= dcbsim_ieee_setets,
	.ieee_getmaxrate	= dcbsim_ieee_getmaxrate,
	.ieee_setmaxrate	= dcbsim_ieee_setmaxrate,
	.ieee_getpfc		= dcbsim_ieee_getpfc,
	.ieee_setpfc		= dcbsim_ieee_setpfc,
	.ieee_setapp		= dcbsim_ieee_setapp,
	.ieee_delapp		= dcbsim_ieee_delapp,
	.getdcbx		= dcbsim_getdcbx,
	.setdcbx		= dcbsim_setdcbx,
	.dcbnl_getbuffer	= dcbsim_getbuffer,
	.dcbnl_setbuffer	= dcbsim_setbuffer,
#if RTUNE_HAVE_DCBNL_APPTRUST
	.dcbnl_setapptrust	= dcbsim_setapptrust,
	.dcbnl_getapptrust	= dcbsim_getapptrust,
#endif
#if RTUNE_HAVE_DCBNL_REWR
	.dcbnl_setrewr		= dcbsim_setrewr,
	.dcbnl_delrewr		= dcbsim_delrewr,
#endif
};
