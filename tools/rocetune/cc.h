/* SPDX-License-Identifier: GPL-2.0 */
/* DCQCN parameters through rocetune.ko's configfs (stage, commit). */
#ifndef ROCETUNE_CC_H
#define ROCETUNE_CC_H

#include <stddef.h>
#include <stdint.h>
#include "../../kmod/core/params.h"

/* Read active values; *valid gets a bit per parameter read. */
int cc_get(const char *ibdev, uint32_t port, struct rtune_param_set *active,
	   uint32_t *valid, char *backend, size_t blen);
/* The driver name rocetune.ko shows for @ibdev. 0 or -errno. */
int cc_driver(const char *ibdev, char *buf, size_t len);
/* Stage the parameters in @mask whose value differs from @cur, commit, and
 * read back. On a refused commit, discard and put the reason in @why. */
int cc_apply(const char *ibdev, uint32_t port, const struct rtune_param_set *want,
	     const struct rtune_param_set *cur, uint32_t mask, char *why, size_t wlen);

#endif
