/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wire protocol of `rocetune verify` (Documentation/rocetune.rst,
 * "Verifying two hosts"): length-prefixed frames over one TCP connection,
 * a challenge-response on a pre-shared key before anything else is read,
 * then frames each carrying an HMAC-SHA256 tag under a session key.
 *
 *   frame    = "RTV1" type:u8 0:u8 0:u16 length:u32be payload[length]
 *              (tag[32] after the payload once authenticated)
 *   HELLO     peer -> listener   nonce_p[32]
 *   CHALLENGE listener -> peer   nonce_l[32] mac_l[32]
 *   AUTH      peer -> listener   mac_p[32]
 *   FP        either way         label_len:u16be label fingerprint
 *   ERROR     either way         a message (printable, <= 256 bytes)
 *   PROBE_REQ    peer -> listener  after the FPs, optional: probe.h
 *   PROBE_PORT   listener -> peer  the RDMA-CM port to connect to
 *   PROBE_RESULT listener -> peer  what the listener observed (probe.h)
 *
 *   mac_l   = HMAC(key, "rocetune-verify-1 listener" nonce_p nonce_l)
 *   mac_p   = HMAC(key, "rocetune-verify-1 peer" nonce_p nonce_l)
 *   session = HMAC(key, "rocetune-verify-1 session" nonce_p nonce_l)
 *   tag     = HMAC(session, seq:u64be header payload), seq counting the
 *             frames each side sent after AUTH, from 0
 *
 * Everything read is untrusted: a frame's type must be the one the state
 * expects (or ERROR), its length within that type's bound, and nothing is
 * read beyond it; selftests/fuzz/fuzz_verify.c drives these readers.
 */
#ifndef ROCETUNE_VWIRE_H
#define ROCETUNE_VWIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "fingerprint.h"

#define RTUNE_VW_MAGIC "RTV1"
#define RTUNE_VW_HDR 12
#define RTUNE_VW_NONCE 32
#define RTUNE_VW_MAC 32
#define RTUNE_VW_LABEL_MAX 128
#define RTUNE_VW_ERR_MAX 256
#define RTUNE_VW_KEY_MIN 16	/* bytes of a key file */
#define RTUNE_VW_KEY_MAX 4096

enum rtune_vw_type {
	RTUNE_VW_HELLO = 1,
	RTUNE_VW_CHALLENGE = 2,
	RTUNE_VW_AUTH = 3,
	RTUNE_VW_FP = 4,
	RTUNE_VW_ERROR = 5,
	RTUNE_VW_PROBE_REQ = 6,		/* fixed RTUNE_PROBE_REQ_LEN */
	RTUNE_VW_PROBE_PORT = 7,	/* fixed RTUNE_PROBE_PORT_LEN */
	RTUNE_VW_PROBE_RESULT = 8,	/* at most RTUNE_PROBE_RESULT_MAX */
};

/* Whole reads and writes with a deadline: 0, or -errno (-ETIMEDOUT,
 * -ECONNRESET at end of stream). The socket's, or a test's. */
struct rtune_vw_io {
	int (*read)(void *ctx, void *buf, size_t n);
	int (*write)(void *ctx, const void *buf, size_t n);
	void *ctx;
};

struct rtune_vw {
	struct rtune_vw_io io;
	const uint8_t *key;
	size_t keylen;
	uint8_t nonce_p[RTUNE_VW_NONCE], nonce_l[RTUNE_VW_NONCE];
	uint8_t session[RTUNE_VW_MAC];
	bool authed;
	uint64_t seq_tx, seq_rx;
	char why[RTUNE_VW_ERR_MAX + 64];	/* what went wrong, for the report */
	char peer_error[RTUNE_VW_ERR_MAX + 1];	/* an ERROR frame's text */
};

/* What a step's failure was, for the exit status and the report. */
enum rtune_vw_err {
	RTUNE_VW_OK = 0,
	RTUNE_VW_EIO = -1,	/* connection: closed, reset, timed out */
	RTUNE_VW_EPROTO = -2,	/* the other side sent something malformed */
	RTUNE_VW_EAUTH = -3,	/* a MAC did not check: wrong key, or tampering */
	RTUNE_VW_EPEER = -4,	/* the other side sent ERROR (peer_error) */
};

void rtune_vw_init(struct rtune_vw *w, const struct rtune_vw_io *io, const uint8_t *key,
		   size_t keylen);

/* The peer's side of authentication: HELLO, check CHALLENGE, AUTH. */
int rtune_vw_auth_peer(struct rtune_vw *w);
/* The listener's: read HELLO, CHALLENGE, check AUTH. Parses nothing of
 * the other side's but those three fixed-size frames until it passes. */
int rtune_vw_auth_listener(struct rtune_vw *w);

/* After authentication: a fingerprint with its label ("host dev rdma/port"). */
int rtune_vw_send_fp(struct rtune_vw *w, const char *label, const struct rtune_fp *fp);
int rtune_vw_recv_fp(struct rtune_vw *w, char *label, size_t labellen, struct rtune_fp *fp);
/* An ERROR frame (tagged once authenticated); best effort. */
void rtune_vw_send_error(struct rtune_vw *w, const char *msg);

/* After authentication: one probe frame (probe.h encodes and parses the
 * payloads). recv: a new buffer *@p of *@n bytes to free. */
int rtune_vw_send(struct rtune_vw *w, int type, const void *p, size_t n);
int rtune_vw_recv(struct rtune_vw *w, int type, uint8_t **p, size_t *n);

/* The FP payload's parser (for the fuzz harness too). */
int rtune_vw_parse_fp(const uint8_t *p, size_t n, char *label, size_t labellen,
		      struct rtune_fp *fp, char *why, size_t whylen);

/* Read a key file: a regular file of RTUNE_VW_KEY_MIN..MAX bytes that
 * neither group nor others may access. 0, or -errno with @why said. */
int rtune_vw_load_key(const char *path, uint8_t *key, size_t *keylen, char *why, size_t whylen);

#endif
