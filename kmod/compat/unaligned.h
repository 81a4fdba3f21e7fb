/* SPDX-License-Identifier: GPL-2.0 */
/*
 * get_unaligned_be32() and friends: <asm/unaligned.h> until 6.11,
 * <linux/unaligned.h> from 6.12 (the probe in conftest.sh decides).
 */
#ifndef _ROCETUNE_COMPAT_UNALIGNED_H
#define _ROCETUNE_COMPAT_UNALIGNED_H

#include "compat_generated.h"

#if RTUNE_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* _ROCETUNE_COMPAT_UNALIGNED_H */
