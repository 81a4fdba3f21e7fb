// SPDX-License-Identifier: GPL-2.0
/* The wire protocol of `rocetune verify` (vwire.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include "probe.h"
#include "vwire.h"

#define LBL_LISTENER "rocetune-verify-1 listener"
#define LBL_PEER "rocetune-verify-1 peer"
#define LBL_SESSION "rocetune-verify-1 session"

/* The largest payload each type may have (fixed sizes for the first three). */
static size_t max_len(int type)
{
	switch (type) {
	case RTUNE_VW_HELLO:
		return RTUNE_VW_NONCE;
	case RTUNE_VW_CHALLENGE:
		return RTUNE_VW_NONCE + RTUNE_VW_MAC;
	case RTUNE_VW_AUTH:
		return RTUNE_VW_MAC;
	case RTUNE_VW_FP:
		return 2 + RTUNE_VW_LABEL_MAX + RTUNE_FP_WIRE_MAX;
	case RTUNE_VW_ERROR:
		return RTUNE_VW_ERR_MAX;
	case RTUNE_VW_PROBE_REQ:
		return RTUNE_PROBE_REQ_LEN;
	case RTUNE_VW_PROBE_PORT:
		return RTUNE_PROBE_PORT_LEN;
	case RTUNE_VW_PROBE_RESULT:
		return RTUNE_PROBE_RESULT_MAX;
	}
	return 0;
}

/* Types whose payload may be shorter than max_len(). */
static bool variable(int type)
{
	return type == RTUNE_VW_FP || type == RTUNE_VW_ERROR || type == RTUNE_VW_PROBE_RESULT;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void rtune_vw_init(struct rtune_vw *w, const struct rtune_vw_io *io, const uint8_t *key,
		   size_t keylen)
{
	memset(w, 0, sizeof(*w));
	w->io = *io;
	w->key = key;
	w->keylen = keylen;
}

/* HMAC-SHA256 under @key of @label, nonce_p, nonce_l. */
static void mac_nonces(const struct rtune_vw *w, const char *label, uint8_t *out)
{
	uint8_t buf[64 + 2 * RTUNE_VW_NONCE];
	size_t n = strlen(label);
	unsigned int olen = RTUNE_VW_MAC;

	memcpy(buf, label, n);
	memcpy(buf + n, w->nonce_p, RTUNE_VW_NONCE);
	memcpy(buf + n + RTUNE_VW_NONCE, w->nonce_l, RTUNE_VW_NONCE);
	HMAC(EVP_sha256(), w->key, (int)w->keylen, buf, n + 2 * RTUNE_VW_NONCE, out, &olen);
}

/* The tag of a frame (@hdr, @p of @n bytes) numbered @seq. */
static int frame_tag(const struct rtune_vw *w, uint64_t seq, const uint8_t *hdr,
		     const uint8_t *p, size_t n, uint8_t *out)
{
	uint8_t *buf = malloc(8 + RTUNE_VW_HDR + n);
	unsigned int olen = RTUNE_VW_MAC;
	bool ok;
	int i;

	if (!buf)
		return -ENOMEM;
	for (i = 0; i < 8; i++)
		buf[i] = (uint8_t)(seq >> (56 - 8 * i));
	memcpy(buf + 8, hdr, RTUNE_VW_HDR);
	if (n)
		memcpy(buf + 8 + RTUNE_VW_HDR, p, n);
	ok = HMAC(EVP_sha256(), w->session, RTUNE_VW_MAC, buf, 8 + RTUNE_VW_HDR + n, out,
		  &olen) != NULL;
	free(buf);
	return ok ? 0 : -EIO;
}

static int send_frame(struct rtune_vw *w, int type, const void *p, size_t n)
{
	uint8_t hdr[RTUNE_VW_HDR], tag[RTUNE_VW_MAC];

	memcpy(hdr, RTUNE_VW_MAGIC, 4);
	hdr[4] = (uint8_t)type;
	hdr[5] = hdr[6] = hdr[7] = 0;
	put32(hdr + 8, (uint32_t)n);
	if (w->authed && frame_tag(w, w->seq_tx++, hdr, p, n, tag))
		return RTUNE_VW_EIO;
	if (w->io.write(w->io.ctx, hdr, sizeof(hdr)) || (n && w->io.write(w->io.ctx, p, n)) ||
	    (w->authed && w->io.write(w->io.ctx, tag, sizeof(tag)))) {
		snprintf(w->why, sizeof(w->why), "connection lost while sending");
		return RTUNE_VW_EIO;
	}
	return 0;
}

/*
 * Read one frame of type @type (or ERROR) into a new buffer *@p of *@n
 * bytes (free it); fixed-size types must have exactly their size.
 */
static int recv_frame(struct rtune_vw *w, int type, uint8_t **p, size_t *n)
{
	uint8_t hdr[RTUNE_VW_HDR], tag[RTUNE_VW_MAC], want[RTUNE_VW_MAC];
	size_t len, max;
	uint8_t *buf;
	int err;

	*p = NULL;
	*n = 0;
	err = w->io.read(w->io.ctx, hdr, sizeof(hdr));
	if (err) {
		snprintf(w->why, sizeof(w->why), "connection %s",
			 err == -ETIMEDOUT ? "timed out" : "closed");
		return RTUNE_VW_EIO;
	}
	if (memcmp(hdr, RTUNE_VW_MAGIC, 4) || hdr[5] || hdr[6] || hdr[7]) {
		snprintf(w->why, sizeof(w->why), "not a rocetune verify frame");
		return RTUNE_VW_EPROTO;
	}
	if (hdr[4] != type && hdr[4] != RTUNE_VW_ERROR) {
		snprintf(w->why, sizeof(w->why), "frame type %u where %d was due", hdr[4], type);
		return RTUNE_VW_EPROTO;
	}
	len = get32(hdr + 8);
	max = max_len(hdr[4]);
	if (len > max || (!variable(hdr[4]) && len != max)) {
		snprintf(w->why, sizeof(w->why), "frame type %u of %zu bytes (%s %zu)", hdr[4],
			 len, variable(hdr[4]) ? "at most" : "not", max);
		return RTUNE_VW_EPROTO;
	}
	buf = malloc(len + 1);
	if (!buf)
		return RTUNE_VW_EIO;
	if ((len && w->io.read(w->io.ctx, buf, len)) ||
	    (w->authed && w->io.read(w->io.ctx, tag, sizeof(tag)))) {
		snprintf(w->why, sizeof(w->why), "connection lost in a frame");
		free(buf);
		return RTUNE_VW_EIO;
	}
	if (w->authed) {
		if (frame_tag(w, w->seq_rx++, hdr, buf, len, want) ||
		    CRYPTO_memcmp(tag, want, sizeof(tag))) {
			snprintf(w->why, sizeof(w->why), "a frame's tag does not check (tampered with)");
			free(buf);
			return RTUNE_VW_EAUTH;
		}
	}
	if (hdr[4] == RTUNE_VW_ERROR) {
		size_t i;

		for (i = 0; i < len; i++)
			w->peer_error[i] = buf[i] >= 0x20 && buf[i] <= 0x7e ? (char)buf[i] : '?';
		w->peer_error[len] = '\0';
		snprintf(w->why, sizeof(w->why), "the other side: %s%s", w->peer_error,
			 w->authed ? "" : " (unauthenticated)");
		free(buf);
		return RTUNE_VW_EPEER;
	}
	*p = buf;
	*n = len;
	return 0;
}

static int nonce(uint8_t *n)
{
	return getrandom(n, RTUNE_VW_NONCE, 0) == RTUNE_VW_NONCE ? 0 : -EIO;
}

static void derive_session(struct rtune_vw *w)
{
	mac_nonces(w, LBL_SESSION, w->session);
	w->authed = true;
	w->seq_tx = w->seq_rx = 0;
}

int rtune_vw_auth_peer(struct rtune_vw *w)
{
	uint8_t mac[RTUNE_VW_MAC], *p;
	size_t n;
	int err;

	if (nonce(w->nonce_p)) {
		snprintf(w->why, sizeof(w->why), "no random numbers");
		return RTUNE_VW_EIO;
	}
	err = send_frame(w, RTUNE_VW_HELLO, w->nonce_p, RTUNE_VW_NONCE);
	if (err)
		return err;
	err = recv_frame(w, RTUNE_VW_CHALLENGE, &p, &n);
	if (err)
		return err;
	memcpy(w->nonce_l, p, RTUNE_VW_NONCE);
	mac_nonces(w, LBL_LISTENER, mac);
	err = CRYPTO_memcmp(mac, p + RTUNE_VW_NONCE, RTUNE_VW_MAC);
	free(p);
	if (err) {
		snprintf(w->why, sizeof(w->why),
			 "the listener does not prove the key (a different key file?)");
		return RTUNE_VW_EAUTH;
	}
	mac_nonces(w, LBL_PEER, mac);
	err = send_frame(w, RTUNE_VW_AUTH, mac, sizeof(mac));
	if (err)
		return err;
	derive_session(w);
	return 0;
}

int rtune_vw_auth_listener(struct rtune_vw *w)
{
	uint8_t ch[RTUNE_VW_NONCE + RTUNE_VW_MAC], mac[RTUNE_VW_MAC], *p;
	size_t n;
	int err;

	err = recv_frame(w, RTUNE_VW_HELLO, &p, &n);
	if (err)
		return err;
	memcpy(w->nonce_p, p, RTUNE_VW_NONCE);
	free(p);
	if (nonce(w->nonce_l)) {
		snprintf(w->why, sizeof(w->why), "no random numbers");
		return RTUNE_VW_EIO;
	}
	memcpy(ch, w->nonce_l, RTUNE_VW_NONCE);
	mac_nonces(w, LBL_LISTENER, ch + RTUNE_VW_NONCE);
	err = send_frame(w, RTUNE_VW_CHALLENGE, ch, sizeof(ch));
	if (err)
		return err;
	err = recv_frame(w, RTUNE_VW_AUTH, &p, &n);
	if (err)
		return err;
	mac_nonces(w, LBL_PEER, mac);
	err = CRYPTO_memcmp(mac, p, RTUNE_VW_MAC);
	free(p);
	if (err) {
		snprintf(w->why, sizeof(w->why), "the peer does not prove the key: refused");
		send_frame(w, RTUNE_VW_ERROR, "authentication failed", 21);
		return RTUNE_VW_EAUTH;
	}
	derive_session(w);
	return 0;
}

int rtune_vw_send_fp(struct rtune_vw *w, const char *label, const struct rtune_fp *fp)
{
	size_t ll = strnlen(label, RTUNE_VW_LABEL_MAX);
	size_t max = 2 + RTUNE_VW_LABEL_MAX + RTUNE_FP_WIRE_MAX;
	uint8_t *buf = malloc(max);
	int n, err;

	if (!buf)
		return RTUNE_VW_EIO;
	buf[0] = (uint8_t)(ll >> 8);
	buf[1] = (uint8_t)ll;
	memcpy(buf + 2, label, ll);
	n = rtune_fp_format(fp, (char *)buf + 2 + ll, RTUNE_FP_WIRE_MAX);
	if (n < 0) {
		snprintf(w->why, sizeof(w->why), "the fingerprint is larger than %d bytes",
			 RTUNE_FP_WIRE_MAX);
		free(buf);
		return RTUNE_VW_EPROTO;
	}
	err = send_frame(w, RTUNE_VW_FP, buf, 2 + ll + (size_t)n);
	free(buf);
	return err;
}

int rtune_vw_parse_fp(const uint8_t *p, size_t n, char *label, size_t labellen,
		      struct rtune_fp *fp, char *why, size_t whylen)
{
	size_t ll, i;

	if (n < 2) {
		snprintf(why, whylen, "fingerprint frame of %zu bytes", n);
		return -EINVAL;
	}
	ll = (size_t)p[0] << 8 | p[1];
	if (ll > RTUNE_VW_LABEL_MAX || ll >= labellen || 2 + ll > n) {
		snprintf(why, whylen, "fingerprint label of %zu bytes", ll);
		return -EINVAL;
	}
	for (i = 0; i < ll; i++) {
		if (p[2 + i] < 0x20 || p[2 + i] > 0x7e) {
			snprintf(why, whylen, "fingerprint label: byte %zu not printable", i);
			return -EINVAL;
		}
		label[i] = (char)p[2 + i];
	}
	label[ll] = '\0';
	return rtune_fp_parse((const char *)p + 2 + ll, n - 2 - ll, fp, why, whylen);
}

int rtune_vw_recv_fp(struct rtune_vw *w, char *label, size_t labellen, struct rtune_fp *fp)
{
	char why[160];
	uint8_t *p;
	size_t n;
	int err = recv_frame(w, RTUNE_VW_FP, &p, &n);

	if (err)
		return err;
	err = rtune_vw_parse_fp(p, n, label, labellen, fp, why, sizeof(why));
	free(p);
	if (err) {
		snprintf(w->why, sizeof(w->why), "malformed fingerprint: %s", why);
		return RTUNE_VW_EPROTO;
	}
	return 0;
}

int rtune_vw_send(struct rtune_vw *w, int type, const void *p, size_t n)
{
	if (!w->authed || n > max_len(type))
		return RTUNE_VW_EPROTO;
	return send_frame(w, type, p, n);
}

int rtune_vw_recv(struct rtune_vw *w, int type, uint8_t **p, size_t *n)
{
	if (!w->authed)
		return RTUNE_VW_EPROTO;
	return recv_frame(w, type, p, n);
}

void rtune_vw_send_error(struct rtune_vw *w, const char *msg)
{
	send_frame(w, RTUNE_VW_ERROR, msg, strnlen(msg, RTUNE_VW_ERR_MAX));
}

int rtune_vw_load_key(const char *path, uint8_t *key, size_t *keylen, char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	ssize_t r;
	int err = 0;

	if (fd < 0) {
		err = -errno;
		snprintf(why, whylen, "key file %s: %s", path, strerror(errno));
		return err;
	}
	if (fstat(fd, &st)) {
		err = -errno;
		snprintf(why, whylen, "key file %s: %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		snprintf(why, whylen, "key file %s: not a regular file", path);
	} else if (st.st_mode & 077) {
		err = -EPERM;
		snprintf(why, whylen, "key file %s: mode %04o, group or others may access it (chmod 600)",
			 path, (unsigned int)(st.st_mode & 07777));
	} else if (st.st_size < RTUNE_VW_KEY_MIN || st.st_size > RTUNE_VW_KEY_MAX) {
		err = -EINVAL;
		snprintf(why, whylen, "key file %s: %lld bytes, not %d to %d", path,
			 (long long)st.st_size, RTUNE_VW_KEY_MIN, RTUNE_VW_KEY_MAX);
	} else {
		r = read(fd, key, (size_t)st.st_size);
		if (r != st.st_size) {
			err = -EIO;
			snprintf(why, whylen, "key file %s: short read", path);
		} else {
			*keylen = (size_t)r;
		}
	}
	close(fd);
	return err;
}
