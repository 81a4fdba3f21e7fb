// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for `rocetune verify --probe` (tools/rocetune/probe.h):
 * the probe frames round-trip and their parsers refuse every truncation,
 * extension and out-of-range field; the packet parser finds the ToS of a
 * RoCEv2 packet to the probe QP (IPv4, IPv6) and nothing else; the check
 * passes matching packets and names each host whose DSCP or ECN promise
 * the packets break, and never passes when nothing was seen. CNPs
 * (--probe-cnp): the CNP parser finds the peer's QP's CNPs only; the CNP
 * check names the listener whose CNPs carry another DSCP than the peer's,
 * fails when CE marks got no CNP, and the rate check names a peer whose
 * rate was not cut; what cannot be seen is unchecked, with why. Path
 * MTU: the request carries the RoCE MTU (0 or 256..4096, a power of 2),
 * the ladder's top is the smaller of the two hosts', and the check names
 * the largest size through and the expected one when the ladder stopped
 * short, or no full-size packet was seen.
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
	struct rtune_probe_req q = { 64, 1024, 1024 }, q2;
	uint8_t b[RTUNE_PROBE_REQ_LEN];
	uint16_t port;
	int n, i, bad = 0;

	rtune_probe_enc_req(&q, b);
	tap_check(!rtune_probe_parse_req(b, sizeof(b), &q2, why, sizeof(why)) && q2.count == 64 &&
		  q2.size == 1024 && q2.mtu == 1024, "request round-trips");
	b[0] = 1;
	tap_check(rtune_probe_parse_req(b, sizeof(b), &q2, why, sizeof(why)) != 0 &&
		  strstr(why, "another rocetune version"), "a version 1 request refused (%s)", why);
	q.mtu = 1000;
	rtune_probe_enc_req(&q, b);
	n = rtune_probe_parse_req(b, sizeof(b), &q2, why, sizeof(why));
	q.mtu = 8192;
	rtune_probe_enc_req(&q, b);
	tap_check(n && rtune_probe_parse_req(b, sizeof(b), &q2, why, sizeof(why)) != 0,
		  "RoCE MTUs 1000 and 8192 refused (%s)", why);
	q.mtu = 0;
	rtune_probe_enc_req(&q, b);
	tap_check(!rtune_probe_parse_req(b, sizeof(b), &q2, why, sizeof(why)) && !q2.mtu,
		  "no RoCE MTU (0): no ladder, accepted");
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
	ra.ladder = 14;
	ra.pkt_max = 940;
	for (i = 0; i < 64; i++)
		rtune_probe_count(&ra, i % 2 ? 106 : 105);
	ra.nctr = 1;
	strcpy(ra.ctr[0].name, "rcvd_pkts");
	ra.ctr[0].delta = 1ULL << 40;
	strcpy(ra.note, "a note");
	for (i = 0; i < 6; i++) {	/* the listener's CNPs: 5 of DSCP 48, 1 of 46 */
		ra.cnps_sent++;
		rtune_probe_tally(ra.cnp, &ra.ncnp, i ? 48 << 2 : 46 << 2);
	}
	n = rtune_probe_enc_result(&ra, buf, sizeof(buf));
	tap_check(n > 0 && !rtune_probe_parse_result(buf, (size_t)n, &rb, why, sizeof(why)) &&
		  !memcmp(&ra, &rb, sizeof(ra)), "result round-trips (%d bytes)", n);
	tap_check(ra.ncodes == 2 && ra.code[0].tos == 105 && ra.code[1].count == 32 &&
		  ra.packets == 64 && rb.cnps_sent == 6 && rb.ncnp == 2 && rb.cnp[1].count == 5,
		  "codepoints are counted, in order; the CNPs sent too");
	/* every truncation refused, and one byte more */
	for (i = 0; i < n; i++)
		bad += !rtune_probe_parse_result(buf, (size_t)i, &rb, why, sizeof(why));
	buf[n] = 0;
	bad += !rtune_probe_parse_result(buf, (size_t)n + 1, &rb, why, sizeof(why));
	tap_check(!bad, "each of %d truncations and an extension refused", n);
	buf[19] = 107;	/* first codepoint after the second: out of order */
	tap_check(rtune_probe_parse_result(buf, (size_t)n, &rb, why, sizeof(why)) != 0,
		  "codepoints out of order refused (%s)", why);
	buf[19] = 105;
	buf[14] = RTUNE_PROBE_LADDER + 1;
	tap_check(rtune_probe_parse_result(buf, (size_t)n, &rb, why, sizeof(why)) != 0,
		  "more path MTU messages than the ladder has refused (%s)", why);
	buf[14] = 14;
	buf[31] = 200;	/* the first CNP codepoint (46 << 2) after the second */
	tap_check(rtune_probe_parse_result(buf, (size_t)n, &rb, why, sizeof(why)) != 0,
		  "CNP codepoints out of order refused (%s)", why);
	buf[31] = 46 << 2;
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
	p[2] = 1068 >> 8;
	p[3] = 1068 & 0xff;
	tap_check(rtune_probe_pkt_len(p, n) == 1068, "IPv4: the packet's length is its total length");
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
	p[5] = 24;
	tap_check(rtune_probe_pkt_len(p, 60) == 64 && rtune_probe_pkt_len(p, 39) == 0,
		  "IPv6: the header and payload length; a cut header has none");

	n = pkt4(p, 192, 0x42, 4791);
	p[28] = 0x81;	/* BTH opcode: CNP */
	tap_check(rtune_probe_pkt_cnp(p, n, 0x42) == 192, "a CNP to the peer's QP: its ToS");
	tap_check(rtune_probe_pkt_cnp(p, n, 0x43) == -1, "a CNP to another QP is not counted");
	p[28] = 0x04;	/* SEND only */
	tap_check(rtune_probe_pkt_cnp(p, n, 0x42) == -1, "a data packet is not a CNP");
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

/* settings with the CC keys the CNP checks read (sorted, as a fingerprint) */
static void fp_cc(struct rtune_fp *fp, const char *cnp_dscp, const char *rp)
{
	char s[512];
	int n = snprintf(s, sizeof(s), "cc.active.ecn_enabled_prios=8\n"
			 "cc.active.np_cnp_dscp=%s\ncc.active.np_enabled_prios=8\n"
			 "cc.active.rp_enabled_prios=%s\ndcb.dscp_prio=26:3 48:6\n"
			 "rdma_cm.tos=106\n", cnp_dscp, rp);

	if (rtune_fp_parse(s, (size_t)n, fp, why, sizeof(why)))
		printf("# fp_cc: %s\n", why);
}

static struct rtune_probe_cnp cn;

/* the peer saw @cnps CNPs of ToS @tos; its QP was cut @cuts times */
static void cnp_of(uint32_t cnps, uint8_t tos, uint64_t cuts)
{
	uint32_t i;

	memset(&cn, 0, sizeof(cn));
	cn.captured = true;
	cn.qpn = 0x42;
	for (i = 0; i < cnps; i++) {
		cn.cnps++;
		rtune_probe_tally(cn.code, &cn.ncodes, tos);
	}
	cn.has_qp = true;
	cn.rate_first_kbps = 40000000;
	cn.rate_min_kbps = cuts ? 5000000 : 40000000;
	cn.rate_last_kbps = 40000000;
	cn.rate_cuts = cuts;
	cn.cnp_rcvd = cnps;
}

/* the listener saw 64 packets, @ce of them CE-marked */
static void marked(int ce)
{
	int i;

	memset(&ra, 0, sizeof(ra));
	ra.captured = true;
	ra.received = 64;
	for (i = 0; i < 64; i++)
		rtune_probe_count(&ra, i < ce ? 107 : 106);
}

static const char *cnp_run(void)
{
	bool failed = false;
	int n = rtune_probe_check_cnp(&ra, &cn, "h1", &frx, "h2", &ftx, f, 0, &failed);
	const char *got = failed_list(n);

	return n == 2 && failed == !!strstr(got, "fail:") ? got : "(wrong count or failed flag)";
}

static void check_cnp(void)
{
	const char *got;

	fp_cc(&frx, "48", "8");
	fp_cc(&ftx, "48", "8");
	marked(20);
	{
		bool failed;
		int n = rtune_probe_check(&ra, 64, "h1", &frx, "h2", &ftx, f, &failed);

		got = failed_list(n);
		tap_check(rtune_probe_prio_of(&frx, 48) == 6 && rtune_probe_prio_of(&frx, 46) == 5,
			  "a CNP's priority: the DSCP map's (48: 6), else the class selector (46: 5)");
		tap_check(!failed && !strcmp(got, "-") &&
			  !strcmp(f[3].observed, "ECN-capable in all 64 packets, 20 of them CE"),
			  "CE-marked packets pass the ECN check, and are said (%s; %s)", got,
			  f[3].observed);
	}
	cnp_of(9, 48 << 2, 3);
	got = cnp_run();
	tap_check(!strcmp(got, "-"), "CNPs of the profile's DSCP and a cut rate pass (%s; %s)", got,
		  f[1].observed);

	fp_cc(&frx, "46", "8");
	cnp_of(9, 46 << 2, 3);
	got = cnp_run();
	tap_check(!strcmp(got, "fail:cnp_dscp@h1") && !strcmp(f[0].value, "46") &&
		  strstr(f[0].observed, "DSCP 46 in all 9 CNPs") && strstr(f[0].observed, "48"),
		  "the listener's other CNP DSCP: the listener is named (%s; %s)", got, f[0].observed);

	fp_cc(&frx, "48", "8");
	cnp_of(9, 10 << 2, 3);
	got = cnp_run();
	tap_check(!strcmp(got, "fail:cnp_dscp@h1") && strstr(f[0].observed, "DSCP 10 in 9 of 9"),
		  "CNPs rewritten on the way: named (%s; %s)", got, f[0].observed);

	cnp_of(0, 0, 0);
	got = cnp_run();
	tap_check(!strcmp(got, "fail:cnp_dscp@h1 unchecked:rate_reaction@h2") &&
		  strstr(f[0].observed, "20 CE-marked"),
		  "CE marks but no CNP back: fails (%s; %s)", got, f[0].observed);

	marked(0);
	got = cnp_run();
	tap_check(!strcmp(got, "unchecked:cnp_dscp@h1 unchecked:rate_reaction@h2") &&
		  strstr(f[0].observed, "no congestion"),
		  "no CE mark on the path: unchecked, never a pass (%s)", got);

	marked(20);
	cnp_of(9, 48 << 2, 0);
	got = cnp_run();
	tap_check(!strcmp(got, "fail:rate_reaction@h2") && strstr(f[1].observed, "0 rate cuts"),
		  "CNPs but the rate was not cut: the peer is named (%s; %s)", got, f[1].observed);

	cnp_of(0, 0, 0);
	cn.has_qp = false;
	cn.has_handled = true;
	cn.cnp_handled = 5;
	got = cnp_run();
	tap_check(!strcmp(got, "unchecked:cnp_dscp@h1") && strstr(f[0].observed, "offloads") &&
		  strstr(f[1].observed, "rp_cnp_handled +5"),
		  "an offloading NIC: CNP DSCP unchecked, the device's rp_cnp_handled shown (%s)", got);
}

static void fp_mtu(struct rtune_fp *fp, const char *mtu)
{
	char s[64];
	int n = snprintf(s, sizeof(s), "roce_active_mtu=%s\n", mtu);

	if (rtune_fp_parse(s, (size_t)n, fp, why, sizeof(why)))
		printf("# fp_mtu: %s\n", why);
}

/* the listener got @ladder of the ladder, the largest packet @pkt_max */
static const char *mtu_run(uint16_t mtu, uint8_t ladder, uint16_t pkt_max)
{
	bool failed = false;
	int n;
	const char *got;

	memset(&ra, 0, sizeof(ra));
	ra.captured = true;
	ra.received = 64;
	ra.ladder = ladder;
	ra.pkt_max = pkt_max;
	rtune_probe_count(&ra, 106);
	n = rtune_probe_check_mtu(&ra, mtu, "h1", &frx, "h2", &ftx, f, 0, &failed);
	got = failed_list(n);
	return n == 1 && failed == !!strstr(got, "fail:") ? got : "(wrong count or failed flag)";
}

static void check_mtu(void)
{
	const char *got;

	fp_mtu(&frx, "1024");
	fp_mtu(&ftx, "1024");
	tap_check(rtune_probe_mtu_of(&frx, &ftx) == 1024, "both hosts' RoCE MTU 1024: the ladder tops at 1024");
	got = mtu_run(1024, 16, 1068);
	tap_check(!strcmp(got, "-") && strstr(f[0].observed, "1068"),
		  "every size and a 1068-byte packet: pass (%s)", f[0].observed);
	got = mtu_run(1024, 14, 940);
	tap_check(!strcmp(got, "fail:path_mtu@h1") && !strcmp(f[0].setting, "roce_active_mtu") &&
		  !strcmp(f[0].value, "1024") && strstr(f[0].promised, "up to 1024 bytes") &&
		  strstr(f[0].observed, "896 bytes (940-byte IP packets)") &&
		  strstr(f[0].observed, "960 bytes and up"),
		  "a hop eats 960 bytes and up: fails, names 896 and 1024 (%s; %s)", got,
		  f[0].observed);
	got = mtu_run(1024, 0, 0);
	tap_check(!strcmp(got, "unchecked:path_mtu@h1") && strstr(f[0].observed, "smallest"),
		  "nothing of the ladder arrived: the path, not its MTU: unchecked (%s)", got);
	got = mtu_run(1024, 16, 556);
	tap_check(!strcmp(got, "fail:path_mtu@h1") && strstr(f[0].observed, "smaller MTU"),
		  "all sizes arrived but never a full-size packet: fails (%s)", f[0].observed);
	fp_mtu(&ftx, "512");
	tap_check(rtune_probe_mtu_of(&frx, &ftx) == 512, "RoCE MTUs 1024 and 512: the ladder tops at 512");
	got = mtu_run(512, 8, 300);
	tap_check(!strcmp(got, "fail:path_mtu@h2") && !strcmp(f[0].value, "512"),
		  "the sender's smaller RoCE MTU makes the promise: it is named (%s)", got);
	fp_of(&ftx, "106", "8");	/* no roce_active_mtu */
	got = mtu_run(rtune_probe_mtu_of(&frx, &ftx), 0, 0);
	tap_check(!strcmp(got, "unchecked:path_mtu@h1") && strstr(f[0].observed, "no active RoCE MTU"),
		  "a host without an active RoCE MTU: unchecked (%s)", got);
}

int main(void)
{
	tap_plan(50);
	frames();
	packets();
	check();
	check_cnp();
	check_mtu();
	return tap_done();
}
