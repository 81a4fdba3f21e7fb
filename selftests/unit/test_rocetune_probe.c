// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for `rocetune verify --probe` (tools/rocetune/probe.h):
 * the probe frames round-trip and their parsers refuse every truncation,
 * extension and out-of-range field; the packet parser finds the ToS of a
 * RoCEv2 packet to the probe QP (IPv4, IPv6) and nothing else; the check
 * passes matching packets and names each host whose DSCP or ECN promise
 * the packets break, and never passes when nothing was seen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/fingerprint.h"
#include "../../tools/rocetune/probe.h"

static char why[256];
static struct rtune_probe_result ra, rb;
static uint8_t buf[RTUNE_PROBE_RESULT_MAX + 16];

static void frames(void)
{
	struct rtune_probe_req q = { 64, 1024 }, q2;
	uint8_t b[RTUNE_PROBE_REQ_LEN];
	uint16_t port;
	int n, i, bad = 0;

	rtune_probe_enc_req(&q, b);
	tap_check(!rtune_probe_parse_req(b, sizeof(b), &q2, why, sizeof(why)) && q2.count == 64 &&
		  q2.size == 1024, "request round-trips");
	tap_check(rtune_probe_parse_req(b, sizeof(b) - 1, &q2, why, sizeof(why)) != 0,
		  "a short request is refused");
	q.count = RTUNE_PROBE_COUNT_MAX + 1;
	rtune_probe_enc_req(&q, b);
	tap_check(rtune_probe_parse_req(b, sizeof(b), &q2, why, sizeof(why)) != 0,
		  "more than %d messages refused (%s)", RTUNE_PROBE_COUNT_MAX, why);
	q.count = 1;
	q.size = RTUNE_PROBE_SIZE_MAX + 1;
	rtune_probe_enc_req(&q, b);
	tap_check(rtune_probe_parse_req(b, sizeof(b), &q2, why, sizeof(why)) != 0,
		  "messages larger than %d bytes refused", RTUNE_PROBE_SIZE_MAX);
	rtune_probe_enc_port(18515, b);
	tap_check(!rtune_probe_parse_port(b, RTUNE_PROBE_PORT_LEN, &port, why, sizeof(why)) &&
		  port == 18515, "port round-trips");
	rtune_probe_enc_port(0, b);
	tap_check(rtune_probe_parse_port(b, RTUNE_PROBE_PORT_LEN, &port, why, sizeof(why)) != 0,
		  "port 0 refused");

	memset(&ra, 0, sizeof(ra));
	ra.captured = true;
	ra.received = 64;
	ra.qpn = 0x11;
	for (i = 0; i < 64; i++)
		rtune_probe_count(&ra, i % 2 ? 106 : 105);
	ra.nctr = 1;
	strcpy(ra.ctr[0].name, "rcvd_pkts");
	ra.ctr[0].delta = 1ULL << 40;
	strcpy(ra.note, "a note");
	n = rtune_probe_enc_result(&ra, buf, sizeof(buf));
	tap_check(n > 0 && !rtune_probe_parse_result(buf, (size_t)n, &rb, why, sizeof(why)) &&
		  !memcmp(&ra, &rb, sizeof(ra)), "result round-trips (%d bytes)", n);
	tap_check(ra.ncodes == 2 && ra.code[0].tos == 105 && ra.code[1].count == 32 &&
		  ra.packets == 64, "codepoints are counted, in order");
	/* every truncation refused, and one byte more */
	for (i = 0; i < n; i++)
		bad += !rtune_probe_parse_result(buf, (size_t)i, &rb, why, sizeof(why));
	buf[n] = 0;
	bad += !rtune_probe_parse_result(buf, (size_t)n + 1, &rb, why, sizeof(why));
	tap_check(!bad, "each of %d truncations and an extension refused", n);
	buf[16] = 107;	/* first codepoint after the second: out of order */
	tap_check(rtune_probe_parse_result(buf, (size_t)n, &rb, why, sizeof(why)) != 0,
		  "codepoints out of order refused (%s)", why);
	buf[16] = 105;
	buf[n - 2] = 0x07;	/* a control byte in the note */
	tap_check(rtune_probe_parse_result(buf, (size_t)n, &rb, why, sizeof(why)) != 0,
		  "an unprintable note refused");
}

/* an IPv4 RoCEv2 packet of ToS @tos to @qpn */
static size_t pkt4(uint8_t *p, uint8_t tos, uint32_t qpn, uint16_t dport)
{
	memset(p, 0, 64);
	p[0] = 0x45;
	p[1] = tos;
	p[9] = 17;
	p[20 + 2] = (uint8_t)(dport >> 8);
	p[20 + 3] = (uint8_t)dport;
	p[28 + 5] = (uint8_t)(qpn >> 16);
	p[28 + 6] = (uint8_t)(qpn >> 8);
	p[28 + 7] = (uint8_t)qpn;
	return 28 + 12;
}

static void packets(void)
{
	uint8_t p[80], *c;
	size_t n = pkt4(p, 106, 0x123456, 4791), i;
	int bad = 0;

	tap_check(rtune_probe_pkt_tos(p, n, 0x123456) == 106, "IPv4: the ToS of the probe QP's packet");
	tap_check(rtune_probe_pkt_tos(p, n, 0x123457) == -1, "IPv4: another QP's packet is not counted");
	pkt4(p, 106, 0x123456, 4792);
	tap_check(rtune_probe_pkt_tos(p, n, 0x123456) == -1, "IPv4: not UDP 4791, not counted");
	pkt4(p, 106, 0x123456, 4791);
	p[6] = 0x20;	/* more fragments */
	tap_check(rtune_probe_pkt_tos(p, n, 0x123456) == -1, "IPv4: a fragment is not counted");
	/* every truncation, in an exactly sized copy for ASan */
	pkt4(p, 106, 0x123456, 4791);
	for (i = 0; i < n; i++) {
		c = malloc(i ? i : 1);
		memcpy(c, p, i);
		bad += rtune_probe_pkt_tos(c, i, 0x123456) != -1;
		free(c);
	}
	tap_check(!bad, "IPv4: each truncation is not a packet");
	memset(p, 0, sizeof(p));
	p[0] = 0x60 | (106 >> 4);
	p[1] = (106 & 0xf) << 4;
	p[6] = 17;
	p[40 + 2] = 4791 >> 8;
	p[40 + 3] = 4791 & 0xff;
	p[48 + 7] = 9;
	tap_check(rtune_probe_pkt_tos(p, 60, 9) == 106, "IPv6: the traffic class of the probe QP's packet");
}

static void fp_of(struct rtune_fp *fp, const char *tos, const char *ecn)
{
	char s[256];
	int n = snprintf(s, sizeof(s), "cc.active.ecn_enabled_prios=%s\ndcb.dscp_prio=26:3 48:6\n"
			 "rdma_cm.tos=%s\n", ecn, tos);

	if (rtune_fp_parse(s, (size_t)n, fp, why, sizeof(why)))
		printf("# fp_of: %s\n", why);
}

static struct rtune_fp frx, ftx;
static struct rtune_probe_finding f[RTUNE_PROBE_FINDINGS];

/* "check@host" of the failed findings, or "-" */
static const char *failed_list(int n)
{
	static char s[256];
	int i;

	s[0] = '\0';
	for (i = 0; i < n; i++)
		if (strcmp(f[i].verdict, "pass"))
			snprintf(s + strlen(s), sizeof(s) - strlen(s), "%s%s:%s@%s", s[0] ? " " : "",
				 f[i].verdict, f[i].check, f[i].host);
	return s[0] ? s : "-";
}

static void check(void)
{
	bool failed;
	int n, i;
	const char *got;

	memset(&ra, 0, sizeof(ra));
	ra.captured = true;
	ra.received = 64;
	for (i = 0; i < 64; i++)
		rtune_probe_count(&ra, 106);
	fp_of(&frx, "106", "8");
	fp_of(&ftx, "106", "8");
	n = rtune_probe_check(&ra, 64, "h1", &frx, "h2", &ftx, f, &failed);
	got = failed_list(n);
	tap_check(n == 5 && !failed && !strcmp(got, "-"), "matching packets pass (%s)", got);

	n = rtune_probe_check(&ra, 65, "h1", &frx, "h2", &ftx, f, &failed);
	got = failed_list(n);
	tap_check(failed && !strcmp(got, "fail:delivery@h1"), "a lost message fails delivery (%s)", got);

	fp_of(&ftx, "106", "0");
	n = rtune_probe_check(&ra, 64, "h1", &frx, "h2", &ftx, f, &failed);
	got = failed_list(n);
	tap_check(failed && !strcmp(got, "fail:ecn@h2") && !strcmp(f[4].value, "0 (priority 3 off)"),
		  "ECN off on the sender, ECT(0) arrived: the sender's ECN is named (%s; %s)", got,
		  f[4].value);

	fp_of(&ftx, "106", "8");
	memset(&ra, 0, sizeof(ra));
	ra.captured = true;
	ra.received = 64;
	for (i = 0; i < 64; i++)
		rtune_probe_count(&ra, i ? 42 : 106);	/* DSCP 10 ECT(0) */
	n = rtune_probe_check(&ra, 64, "h1", &frx, "h2", &ftx, f, &failed);
	got = failed_list(n);
	tap_check(failed && !strcmp(got, "fail:dscp@h1 fail:dscp@h2") &&
		  strstr(f[1].observed, "DSCP 10 in 63 of 64"),
		  "another DSCP arrived: each host's rdma_cm.tos is named (%s; %s)", got, f[1].observed);

	memset(&ra, 0, sizeof(ra));
	ra.captured = true;
	strcpy(ra.note, "no RDMA_CM_EVENT_CONNECT_REQUEST within the time limit");
	n = rtune_probe_check(&ra, -1, "h1", &frx, "h2", &ftx, f, &failed);
	got = failed_list(n);
	tap_check(failed && !strcmp(got, "fail:delivery@h1 unchecked:dscp@h1 unchecked:ecn@h1"),
		  "nothing arrived: fails, DSCP and ECN unchecked (%s)", got);

	memset(&ra, 0, sizeof(ra));
	ra.captured = true;
	ra.received = 64;	/* arrived, but no packet crossed the netdev */
	n = rtune_probe_check(&ra, 64, "h1", &frx, "h2", &ftx, f, &failed);
	got = failed_list(n);
	tap_check(!failed && !strcmp(got, "unchecked:dscp@h1 unchecked:ecn@h1") &&
		  strstr(f[1].observed, "offloads"),
		  "an offloading NIC: delivered, DSCP and ECN said unchecked, with why (%s)", got);
}

int main(void)
{
	tap_plan(23);
	frames();
	packets();
	check();
	return tap_done();
}
