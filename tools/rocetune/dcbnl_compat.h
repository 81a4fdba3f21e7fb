/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcbnl UAPI pieces newer than Debian 12's linux-libc-dev 6.1 headers.
 * Values from the upstream UAPI (Linux 6.2: APP trust, 6.3: rewrite table);
 * they are ABI and never change.
 */
#ifndef ROCETUNE_DCBNL_COMPAT_H
#define ROCETUNE_DCBNL_COMPAT_H

#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>

/* enum ieee_attrs: DCB_ATTR_DCB_BUFFER = 10, then these */
#define RTUNE_DCB_ATTR_DCB_APP_TRUST_TABLE	11
#define RTUNE_DCB_ATTR_DCB_REWR_TABLE	12
/* enum dcbnl_app_attrs (6.2): PCP entries use a separate attribute type */
#define RTUNE_DCB_ATTR_DCB_APP		2
#define RTUNE_DCB_APP_SEL_PCP		255

#ifndef IEEE_8021QAZ_APP_SEL_DSCP
#define IEEE_8021QAZ_APP_SEL_DSCP	5
#endif

_Static_assert(sizeof(struct ieee_ets) == 59, "ieee_ets ABI");
_Static_assert(sizeof(struct ieee_pfc) == 136, "ieee_pfc ABI");
_Static_assert(sizeof(struct dcb_app) == 4, "dcb_app ABI");

#endif
