/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Type shim for the code in kmod/core/: that code is pure logic with no
 * kernel dependencies and is compiled twice, into rocetune.ko and into the
 * userspace tools and host unit tests. This header is the only place that
 * knows which side it is on.
 */
#ifndef _ROCETUNE_CORE_TYPES_H
#define _ROCETUNE_CORE_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/kernel.h>
#else
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <errno.h>
#include <string.h>
#include <stdio.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
/* One whole access of a shared variable, as the kernel's. */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#endif

#endif /* _ROCETUNE_CORE_TYPES_H */
