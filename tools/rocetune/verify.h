/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `rocetune verify`: two hosts compare the fingerprints of their effective
 * settings (fingerprint.h) over an authenticated connection (vwire.h) and
 * report every setting that differs. See rocetune(8) and
 * Documentation/rocetune.rst ("Verifying two hosts").
 */
#ifndef ROCETUNE_VERIFY_H
#define ROCETUNE_VERIFY_H

#include <stdbool.h>

#define RTUNE_VERIFY_PORT "4793"
#define RTUNE_VERIFY_KEY "/etc/rocetune/verify.key"
#define RTUNE_VERIFY_PROBE_COUNT 64
#define RTUNE_VERIFY_PROBE_SIZE 1024
/* --probe-cnp: a flow long enough to fill a congested queue (2 MiB) */
#define RTUNE_VERIFY_CNP_COUNT 256
#define RTUNE_VERIFY_CNP_SIZE 8192

struct rtune_verify_opts {
	bool json;
	bool listen;		/* else connect to @peer */
	bool forever;		/* listener: keep serving after a verification */
	const char *peer;
	const char *bind;	/* listener: the local address (default: any) */
	const char *port;
	const char *key;	/* the pre-shared key file */
	const char *dev;	/* netdev or RDMA device; default: the only RDMA one */
	int timeout_ms;		/* per connection; the probe has as much again */
	bool probe;		/* peer: then the probe flow (probe.h) */
	bool probe_cnp;		/* peer: check CNPs and the rate reaction too */
	int probe_count;	/* messages; 0: the default */
	int probe_size;		/* bytes each; 0: the default */
};

/* Exit status of `verify`. */
enum {
	RTUNE_VERIFY_PASS = 0,
	RTUNE_VERIFY_FAIL = 1,		/* settings differ, or the probe flow failed */
	RTUNE_VERIFY_NOT_RUN = 4,	/* could not run: no peer, key refused, no device */
};

int rtune_verify(const struct rtune_verify_opts *o);

#endif
