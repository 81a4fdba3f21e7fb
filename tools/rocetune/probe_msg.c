// SPDX-License-Identifier: GPL-2.0
/*
 * The probe's frames and captured packets (probe.h). Everything parsed
 * here came from the other host or the wire: lengths are checked before
 * every read, and a parser accepts exactly what the encoder writes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "probe.h"
#include "../../kmod/core/wire.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

void rtune_probe_enc_req(const struct rtune_probe_req *r, uint8_t *out)
{
	out[0] = RTUNE_PROBE_VER;
	out[1] = 0;
	put16(out + 2, r->count);
	put32(out + 4, r->size);
	put16(out + 8, r->mtu);
	put16(out + 10, 0);
}

/* 0 or a power of two in RTUNE_PROBE_MTU_MIN..MAX */
static bool mtu_ok(uint32_t mtu)
{
	return !mtu || (mtu >= RTUNE_PROBE_MTU_MIN && mtu <= RTUNE_PROBE_MTU_MAX &&
			!(mtu & (mtu - 1)));
}

int rtune_probe_parse_req(const uint8_t *p, size_t n, struct rtune_probe_req *r, char *why,
			  size_t whylen)
{
	if (n != RTUNE_PROBE_REQ_LEN || p[0] != RTUNE_PROBE_VER || p[1] || get16(p + 10)) {
		snprintf(why, whylen, "probe request: not version %d of %d bytes%s", RTUNE_PROBE_VER,
			 RTUNE_PROBE_REQ_LEN, n && p[0] != RTUNE_PROBE_VER ?
			 " (the other host runs another rocetune version)" : "");
		return -EINVAL;
	}
	r->count = get16(p + 2);
	r->size = get32(p + 4);
	r->mtu = get16(p + 8);
	if (!mtu_ok(r->mtu)) {
		snprintf(why, whylen, "probe request: RoCE MTU %u (0, or %d..%d, a power of 2)",
			 r->mtu, RTUNE_PROBE_MTU_MIN, RTUNE_PROBE_MTU_MAX);
		return -EINVAL;
	}
	if (!r->count || r->count > RTUNE_PROBE_COUNT_MAX || !r->size ||
	    r->size > RTUNE_PROBE_SIZE_MAX) {
		snprintf(why, whylen, "probe request: %u messages of %u bytes (1..%d of 1..%d)",
			 r->count, r->size, RTUNE_PROBE_COUNT_MAX, RTUNE_PROBE_SIZE_MAX);
		return -EINVAL;
	}
	return 0;
}

void rtune_probe_enc_port(uint16_t port, uint8_t *out)
{
	out[0] = RTUNE_PROBE_VER;
	out[1] = 0;
	put16(out + 2, port);
}

int rtune_probe_parse_port(const uint8_t *p, size_t n, uint16_t *port, char *why, size_t whylen)
{
	if (n != RTUNE_PROBE_PORT_LEN || p[0] != RTUNE_PROBE_VER || p[1] || !get16(p + 2)) {
		snprintf(why, whylen, "probe port: malformed");
		return -EINVAL;
	}
	*port = get16(p + 2);
	return 0;
}

static bool ctr_name_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n > RTUNE_PROBE_CTR_NAME)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

int rtune_probe_enc_result(const struct rtune_probe_result *r, uint8_t *out, size_t len)
{
	size_t k = 0, nl = strnlen(r->note, RTUNE_PROBE_NOTE_MAX), cl;
	int i, j;

	if (r->ncodes < 0 || r->ncodes > RTUNE_PROBE_CODES_MAX || r->nctr < 0 ||
	    r->nctr > RTUNE_PROBE_CTR_MAX || r->ladder > RTUNE_PROBE_LADDER)
		return -E2BIG;
#define NEED(x) do { if (k + (x) > len) return -E2BIG; } while (0)
	NEED(19);
	out[k++] = RTUNE_PROBE_VER;
	out[k++] = r->captured ? RTUNE_PROBE_FLAG_CAPTURED : 0;
	put32(out + k, r->received);
	put32(out + k + 4, r->qpn);
	put32(out + k + 8, r->packets);
	out[k + 12] = r->ladder;
	put16(out + k + 13, r->pkt_max);
	put16(out + k + 15, (uint16_t)r->ncodes);
	k += 17;
	for (i = 0; i < r->ncodes; i++) {
		NEED(5);
		out[k] = r->code[i].tos;
		put32(out + k + 1, r->code[i].count);
		k += 5;
	}
	if (r->ncnp < 0 || r->ncnp > RTUNE_PROBE_CODES_MAX)
		return -E2BIG;
	NEED(2);
	put16(out + k, (uint16_t)r->ncnp);
	k += 2;
	for (i = 0; i < r->ncnp; i++) {
		NEED(5);
		out[k] = r->cnp[i].tos;
		put32(out + k + 1, r->cnp[i].count);
		k += 5;
	}
	NEED(1);
	out[k++] = (uint8_t)r->nctr;
	for (i = 0; i < r->nctr; i++) {
		cl = strnlen(r->ctr[i].name, RTUNE_PROBE_CTR_NAME);
		NEED(1 + cl + 8);
		out[k++] = (uint8_t)cl;
		memcpy(out + k, r->ctr[i].name, cl);
		k += cl;
		for (j = 0; j < 8; j++)
			out[k++] = (uint8_t)(r->ctr[i].delta >> (56 - 8 * j));
	}
	NEED(1 + nl);
	out[k++] = (uint8_t)nl;
	for (i = 0; i < (int)nl; i++)
		out[k++] = r->note[i] >= 0x20 && r->note[i] <= 0x7e ? (uint8_t)r->note[i] : '?';
#undef NEED
	return (int)k;
}

int rtune_probe_parse_result(const uint8_t *p, size_t n, struct rtune_probe_result *r,
			     char *why, size_t whylen)
{
	size_t k = 0, cl, nl;
	int i, j;

	memset(r, 0, sizeof(*r));
#define HAVE(x, what) do { if ((x) > n - k) { \
	snprintf(why, whylen, "probe result: %s past its %zu bytes", what, n); \
	return -EINVAL; } } while (0)
	if (n > RTUNE_PROBE_RESULT_MAX) {
		snprintf(why, whylen, "probe result: %zu bytes", n);
		return -EINVAL;
	}
	HAVE(19, "header");
	if (p[0] != RTUNE_PROBE_VER || (p[1] & ~RTUNE_PROBE_FLAG_CAPTURED)) {
		snprintf(why, whylen, "probe result: version %u flags 0x%x", p[0], p[1]);
		return -EINVAL;
	}
	r->captured = p[1] & RTUNE_PROBE_FLAG_CAPTURED;
	r->received = get32(p + 2);
	r->qpn = get32(p + 6);
	r->packets = get32(p + 10);
	r->ladder = p[14];
	r->pkt_max = get16(p + 15);
	r->ncodes = get16(p + 17);
	k = 19;
	if (r->ncodes > RTUNE_PROBE_CODES_MAX || r->received > RTUNE_PROBE_COUNT_MAX ||
	    r->qpn > 0xffffff || r->ladder > RTUNE_PROBE_LADDER) {
		snprintf(why, whylen,
			 "probe result: %d codepoints, %u messages, QP %u, %u ladder messages",
			 r->ncodes, r->received, r->qpn, r->ladder);
		return -EINVAL;
	}
	for (i = 0; i < r->ncodes; i++) {
		HAVE(5, "codepoints");
		r->code[i].tos = p[k];
		r->code[i].count = get32(p + k + 1);
		k += 5;
		if ((i && r->code[i].tos <= r->code[i - 1].tos) || !r->code[i].count) {
			snprintf(why, whylen, "probe result: codepoint %d out of order or empty", i);
			return -EINVAL;
		}
	}
	HAVE(2, "CNP codepoints");
	r->ncnp = get16(p + k);
	k += 2;
	if (r->ncnp > RTUNE_PROBE_CODES_MAX) {
		snprintf(why, whylen, "probe result: %d CNP codepoints", r->ncnp);
		return -EINVAL;
	}
	for (i = 0; i < r->ncnp; i++) {
		HAVE(5, "CNP codepoints");
		r->cnp[i].tos = p[k];
		r->cnp[i].count = get32(p + k + 1);
		k += 5;
		if ((i && r->cnp[i].tos <= r->cnp[i - 1].tos) || !r->cnp[i].count) {
			snprintf(why, whylen, "probe result: CNP codepoint %d out of order or empty", i);
			return -EINVAL;
		}
		if (r->cnps_sent > UINT32_MAX - r->cnp[i].count) {
			snprintf(why, whylen, "probe result: more than 2^32 CNPs");
			return -EINVAL;
		}
		r->cnps_sent += r->cnp[i].count;
	}
	HAVE(1, "counters");
	r->nctr = p[k++];
	if (r->nctr > RTUNE_PROBE_CTR_MAX) {
		snprintf(why, whylen, "probe result: %d counters", r->nctr);
		return -EINVAL;
	}
	for (i = 0; i < r->nctr; i++) {
		HAVE(1, "counter name");
		cl = p[k++];
		HAVE(cl + 8, "counter");
		if (!ctr_name_ok((const char *)p + k, cl)) {
			snprintf(why, whylen, "probe result: counter %d's name", i);
			return -EINVAL;
		}
		memcpy(r->ctr[i].name, p + k, cl);
		r->ctr[i].name[cl] = '\0';
		k += cl;
		for (j = 0; j < 8; j++)
			r->ctr[i].delta = r->ctr[i].delta << 8 | p[k++];
	}
	HAVE(1, "note");
	nl = p[k++];
	HAVE(nl, "note");
	if (nl > RTUNE_PROBE_NOTE_MAX) {
		snprintf(why, whylen, "probe result: a note of %zu bytes", nl);
		return -EINVAL;
	}
	for (i = 0; i < (int)nl; i++) {
		if (p[k + (size_t)i] < 0x20 || p[k + (size_t)i] > 0x7e) {
			snprintf(why, whylen, "probe result: note byte %d not printable", i);
			return -EINVAL;
		}
		r->note[i] = (char)p[k + (size_t)i];
	}
	r->note[nl] = '\0';
	k += nl;
	if (k != n) {
		snprintf(why, whylen, "probe result: %zu bytes after its end", n - k);
		return -EINVAL;
	}
#undef HAVE
	return 0;
}

/*
 * The BTH of a RoCEv2 packet (UDP to 4791, IPv4 without fragmentation or
 * IPv6) at @p, @n bytes from its network header on; NULL if it is not
 * one or is cut short. *@tos: its IP ToS byte. Field offsets and
 * accessors: kmod/core/wire.h.
 */
static const uint8_t *rocev2_bth(const uint8_t *p, size_t n, int *tos)
{
	const uint8_t *udp;
	size_t hl;
	int proto;

	if (n < 1)
		return NULL;
	switch (rtune_ip_version(p)) {
	case 4:
		if (n < RTUNE_IPV4_MIN_HLEN)
			return NULL;
		hl = rtune_ipv4_hlen(p);
		/* a fragment cannot be matched to a QP */
		if (hl < RTUNE_IPV4_MIN_HLEN || n < hl || (get16(p + 6) & 0x3fff))
			return NULL;
		*tos = p[RTUNE_IPV4_OFF_TOS];
		proto = p[RTUNE_IPV4_OFF_PROTO];
		break;
	case 6:
		hl = RTUNE_IPV6_HLEN;
		if (n < hl)
			return NULL;
		*tos = (get16(p) >> 4) & 0xff;
		proto = p[RTUNE_IPV6_OFF_NEXTHDR];	/* RoCEv2 sends no extension headers */
		break;
	default:
		return NULL;
	}
	if (proto != RTUNE_IPPROTO_UDP || n - hl < RTUNE_UDP_HLEN + RTUNE_BTH_LEN)
		return NULL;
	udp = p + hl;
	if (rtune_udp_dport(udp) != RTUNE_ROCEV2_PORT)
		return NULL;
	return udp + RTUNE_UDP_HLEN;
}

int rtune_probe_pkt_tos(const uint8_t *p, size_t n, uint32_t qpn)
{
	const uint8_t *bth;
	int tos;

	bth = rocev2_bth(p, n, &tos);
	return bth && rtune_bth_dqpn(bth) == qpn ? tos : -1;
}

int rtune_probe_pkt_cnp(const uint8_t *p, size_t n, uint32_t qpn)
{
	const uint8_t *bth;
	int tos;

	bth = rocev2_bth(p, n, &tos);
	return bth && rtune_bth_opcode(bth) == RTUNE_BTH_OPCODE_CNP &&
	       rtune_bth_dqpn(bth) == qpn ? tos : -1;
}

unsigned int rtune_probe_pkt_len(const uint8_t *p, size_t n)
{
	if (n >= RTUNE_IPV6_HLEN && rtune_ip_version(p) == 6)
		return RTUNE_IPV6_HLEN + get16(p + 4);
	if (n >= RTUNE_IPV4_MIN_HLEN && rtune_ip_version(p) == 4)
		return get16(p + 2);
	return 0;
}

void rtune_probe_tally(struct rtune_probe_code *code, int *ncodes, uint8_t tos)
{
	int i, j;

	for (i = 0; i < *ncodes && code[i].tos < tos; i++)
		;
	if (i < *ncodes && code[i].tos == tos) {
		code[i].count++;
		return;
	}
	/* RTUNE_PROBE_CODES_MAX (256) slots hold every ToS byte: never full */
	for (j = *ncodes; j > i; j--)
		code[j] = code[j - 1];
	code[i].tos = tos;
	code[i].count = 1;
	(*ncodes)++;
}

void rtune_probe_count(struct rtune_probe_result *r, uint8_t tos)
{
	r->packets++;
	rtune_probe_tally(r->code, &r->ncodes, tos);
}
