// SPDX-License-Identifier: GPL-2.0
/*
 * `rocetune verify`'s untrusted input (tools/rocetune/vwire.c,
 * fingerprint.c). The first byte picks the target:
 *   even: the bytes are a fingerprint frame's payload, parsed with
 *         rtune_vw_parse_fp(); what it accepts must format back to the
 *         same bytes (the parser accepts the canonical form only);
 *   odd:  the bytes are what a peer sends a listener, through the
 *         listener's authentication on an in-memory stream (the MACs
 *         cannot be guessed, so this covers the framing up to AUTH);
 *   0xfe: a PROBE_RESULT payload (probe_msg.c), parsed; what it accepts
 *         must encode back to the same bytes;
 *   0xfc: a PROBE_REQ or PROBE_PORT payload (what the request parser
 *         accepts must encode back to the same bytes), and a captured
 *         packet (rtune_probe_pkt_tos, rtune_probe_pkt_len and, for
 *         --probe-cnp, rtune_probe_pkt_cnp; QP number from the first
 *         bytes).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../tools/rocetune/probe.h"
#include "../../tools/rocetune/vwire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct mem {
	const uint8_t *p;
	size_t n;
};

static int mem_read(void *ctx, void *buf, size_t n)
{
	struct mem *m = ctx;

	if (n > m->n)
		return -ECONNRESET;
	memcpy(buf, m->p, n);
	m->p += n;
	m->n -= n;
	return 0;
}

static int mem_write(void *ctx, const void *buf, size_t n)
{
	(void)ctx;
	(void)buf;
	(void)n;
	return 0;
}

static struct rtune_fp fp;
static struct rtune_probe_result pr;
static uint8_t penc[RTUNE_PROBE_RESULT_MAX];

/* The probe's parsers on an exactly sized copy @p of @n bytes. */
static void probe(int target, const uint8_t *p, size_t n)
{
	struct rtune_probe_req req;
	uint16_t port;
	char why[160];
	int len;

	if (target == 0xfe) {
		if (rtune_probe_parse_result(p, n, &pr, why, sizeof(why)))
			return;
		len = rtune_probe_enc_result(&pr, penc, sizeof(penc));
		if (len < 0 || (size_t)len != n || memcmp(penc, p, n))
			abort();	/* accepted something the encoder would not write */
		return;
	}
	if (!rtune_probe_parse_req(p, n, &req, why, sizeof(why))) {
		rtune_probe_enc_req(&req, penc);
		if (n != RTUNE_PROBE_REQ_LEN || memcmp(penc, p, n))
			abort();	/* accepted something the encoder would not write */
	}
	rtune_probe_parse_port(p, n, &port, why, sizeof(why));
	if (rtune_probe_pkt_tos(p, n, n >= 3 ? (uint32_t)p[0] << 16 | p[1] << 8 | p[2] : 0) >= 0)
		rtune_probe_pkt_len(p, n);
	rtune_probe_pkt_cnp(p, n, n >= 3 ? (uint32_t)p[0] << 16 | p[1] << 8 | p[2] : 0);
}
static char out[RTUNE_FP_WIRE_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t key[] = "fuzz-key-0123456789";
	char label[RTUNE_VW_LABEL_MAX + 1], why[160];
	uint8_t *copy;
	size_t ll;
	int n;

	if (!size)
		return 0;
	if (data[0] & 1) {
		struct mem m = { data + 1, size - 1 };
		struct rtune_vw_io io = { mem_read, mem_write, &m };
		struct rtune_vw w;

		rtune_vw_init(&w, &io, key, sizeof(key) - 1);
		if (!rtune_vw_auth_listener(&w))
			abort();	/* authenticated without the key */
		return 0;
	}
	/* an exactly sized copy, so ASan sees a read past the end */
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if (data[0] == 0xfe || data[0] == 0xfc) {
		probe(data[0], copy, size - 1);
		free(copy);
		return 0;
	}
	if (!rtune_vw_parse_fp(copy, size - 1, label, sizeof(label), &fp, why, sizeof(why))) {
		ll = strlen(label);
		n = rtune_fp_format(&fp, out, sizeof(out));
		if (n < 0 || (size_t)n != size - 1 - 2 - ll || memcmp(out, copy + 2 + ll, (size_t)n))
			abort();	/* accepted something not canonical */
	}
	free(copy);
	return 0;
}
