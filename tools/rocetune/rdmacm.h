/* SPDX-License-Identifier: GPL-2.0 */
/* RDMA-CM default RoCE mode and ToS through the rdma_cm configfs. */
#ifndef ROCETUNE_RDMACM_H
#define ROCETUNE_RDMACM_H

#include <stdint.h>

const char *rtune_configfs_root(void);
int cm_get(const char *ibdev, uint32_t port, int *mode, int *tos);
int cm_set(const char *ibdev, uint32_t port, int mode, int tos);	/* -1 = leave */

#endif
