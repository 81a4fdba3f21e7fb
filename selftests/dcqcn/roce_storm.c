// SPDX-License-Identifier: GPL-2.0
/*
 * roce_storm: a fast sender of hostile RoCEv2 packets over AF_PACKET, for
 * selftests/dcqcn/storm.sh (scapy sends a few thousand a second in a TCG
 * guest; this sends them in batches with sendmmsg()).
 *
 *   roce_storm -i IF -m DSTMAC -4 SRC,DST [-6 SRC6,DST6] [-b BCAST]
 *              [-q LIVEQPN [-p PEER]] -n COUNT [-s SEED] [-k badicrc|mixed]
 *
 * badicrc: SEND Only packets naming made-up QPNs (0x100000-0xffffff), each
 * with its ICRC flipped: what rxe drops, and what must not start tracking.
 * mixed: packet i is of kind i % NKINDS (below): truncated headers, every
 * BTH opcode, bad UDP lengths, CNPs and CE-marked packets naming LIVEQPN
 * and random QPNs from SRC (not LIVEQPN's peer), CE-marked packets to the
 * broadcast address, bad ICRCs, and with -6 CE marks and random opcodes
 * over IPv6 from SRC6, and CNPs naming LIVEQPN from ::ffff:PEER, the
 * IPv4-mapped form of LIVEQPN's real peer (see kind_names[]).
 * Only lab addresses (198.18.0.0/15, IPv6 link-local) are accepted.
 *
 * Prints "sent N dropped M" (M: sends the device queue refused even after
 * retrying) and per-kind counts "kind NAME N".
 *
 * The ICRC is zlib's CRC-32 over 8 x 0xff and the masked headers, an
 * implementation independent of the module's (kmod/core/icrc.c).
 *
 * Build: cc -std=c11 -Wall -Wextra -Werror -O2 -o roce_storm roce_storm.c -lz
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define BATCH		64
#define PKT_MAX		256
#define ROCE_PORT	4791
#define OP_SEND_ONLY	0x04
#define OP_CNP		0x81

enum kind {
	K_TRUNC, K_OPCODE, K_UDPLEN, K_CNP_LIVE, K_CNP_RANDOM, K_CE_LIVE,
	K_CE_BCAST, K_BADICRC, K_V6_CNP_MAPPED, K_V6_CE_LIVE, K_V6_RANDOM,
	NKINDS
};

static const char *const kind_names[NKINDS] = {
	"truncated", "opcode", "udp_len", "cnp_live_wrong_src", "cnp_random",
	"ce_live_wrong_src", "ce_broadcast", "bad_icrc", "v6_cnp_mapped_src",
	"v6_ce_live_wrong_src", "v6_random",
};

struct cfg {
	struct in_addr src4, dst4, bcast4;
	struct in6_addr src6, dst6, mapped6;
	int have6, have_bcast;
	uint32_t live_qpn;
	int mixed;
};

static uint64_t rng;

static uint32_t rnd(void)
{
	/* xorshift64*: fast and reproducible from the seed. */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545f4914f6cdd1dULL) >> 32);
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

/* The ICRC of @pkt (IP header first, @len bytes without the ICRC). */
static void put_icrc(uint8_t *pkt, size_t len, int v6)
{
	static const uint8_t lrh[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t m[PKT_MAX];
	size_t ihl = v6 ? 40 : (size_t)(pkt[0] & 15) * 4;
	uLong c;

	memcpy(m, pkt, len);
	if (v6) {
		m[0] |= 0x0f;
		m[1] = m[2] = m[3] = 0xff;
		m[7] = 0xff;
	} else {
		m[1] = m[8] = m[10] = m[11] = 0xff;
	}
	if (len >= ihl + 8)
		m[ihl + 6] = m[ihl + 7] = 0xff;
	if (len >= ihl + 8 + 5)
		m[ihl + 8 + 4] = 0xff;
	c = crc32(0L, lrh, sizeof(lrh));
	c = crc32(c, m, (uInt)len);
	pkt[len] = (uint8_t)c;
	pkt[len + 1] = (uint8_t)(c >> 8);
	pkt[len + 2] = (uint8_t)(c >> 16);
	pkt[len + 3] = (uint8_t)(c >> 24);
}

/*
 * Build one packet of kind @k into @pkt; returns its length and sets *@v6.
 * Layout: IP, UDP (to 4791), BTH (12), payload, ICRC (4).
 */
static size_t build(const struct cfg *c, enum kind k, uint32_t i, uint8_t *pkt, int *v6)
{
	uint32_t qpn = 0x100000 + rnd() % 0xf00000;
	uint8_t opcode = OP_SEND_ONLY, tos = 0, bth_flags = 0;
	size_t ihl, l4, paylen = 16, bthlen = 12, total;
	const struct in6_addr *s6 = &c->src6;
	struct in_addr d4 = c->dst4;
	int icrc = 1, badicrc = 0;
	int udp_delta = 0;
	uint8_t *u, *b;

	*v6 = 0;
	switch (k) {
	case K_TRUNC:
		bthlen = rnd() % 12;	/* the BTH cut short, no ICRC */
		paylen = 0;
		icrc = 0;
		break;
	case K_OPCODE:
		opcode = (uint8_t)i;
		paylen = rnd() % 64;
		break;
	case K_UDPLEN:
		udp_delta = (rnd() & 1) ? 100 : -30;
		break;
	case K_CNP_LIVE:
		opcode = OP_CNP;
		qpn = c->live_qpn;
		bth_flags = 0x40;
		break;
	case K_CNP_RANDOM:
		opcode = OP_CNP;
		bth_flags = 0x40;
		break;
	case K_CE_LIVE:
		qpn = c->live_qpn;
		tos = 0x03;
		break;
	case K_CE_BCAST:
		if (c->have_bcast)
			d4 = c->bcast4;
		qpn = c->live_qpn;
		tos = 0x03;
		break;
	case K_BADICRC:
		/* Half of them CNPs: the reaction point checks the ICRC too. */
		if (i & 1) {
			opcode = OP_CNP;
			bth_flags = 0x40;
		}
		badicrc = 1;
		break;
	case K_V6_CNP_MAPPED:
		opcode = OP_CNP;
		qpn = c->live_qpn;
		bth_flags = 0x40;
		s6 = &c->mapped6;
		*v6 = 1;
		break;
	case K_V6_CE_LIVE:
		qpn = c->live_qpn;
		tos = 0x03;
		*v6 = 1;
		break;
	case K_V6_RANDOM:
		opcode = (uint8_t)rnd();
		tos = (uint8_t)rnd();
		*v6 = 1;
		break;
	default:
		break;
	}
	if (!c->mixed)
		badicrc = 1;
	if (*v6 && !c->have6)
		*v6 = 0;
	ihl = *v6 ? 40 : 20;
	l4 = 8 + bthlen + paylen + (icrc ? 4 : 0);
	total = ihl + l4;
	memset(pkt, 0, total);
	if (*v6) {
		pkt[0] = 0x60 | (tos >> 4);
		pkt[1] = (uint8_t)(tos << 4);
		pkt[4] = (uint8_t)(l4 >> 8);
		pkt[5] = (uint8_t)l4;
		pkt[6] = 17;
		pkt[7] = 64;
		memcpy(pkt + 8, s6, 16);
		memcpy(pkt + 24, &c->dst6, 16);
	} else {
		pkt[0] = 0x45;
		pkt[1] = tos;
		pkt[2] = (uint8_t)(total >> 8);
		pkt[3] = (uint8_t)total;
		pkt[4] = (uint8_t)(i >> 8);
		pkt[5] = (uint8_t)i;
		pkt[6] = 0x40;
		pkt[8] = 64;
		pkt[9] = 17;
		memcpy(pkt + 12, &c->src4, 4);
		memcpy(pkt + 16, &d4, 4);
		{
			uint16_t s = csum_fold(csum_add(0, pkt, 20));

			pkt[10] = (uint8_t)(s >> 8);
			pkt[11] = (uint8_t)s;
		}
	}
	u = pkt + ihl;
	u[0] = 0xc0;
	u[1] = (uint8_t)rnd();
	u[2] = ROCE_PORT >> 8;
	u[3] = ROCE_PORT & 0xff;
	u[4] = (uint8_t)((l4 + udp_delta) >> 8);
	u[5] = (uint8_t)(l4 + udp_delta);
	b = u + 8;
	if (bthlen == 12) {
		b[0] = opcode;
		b[2] = b[3] = 0xff;
		b[4] = bth_flags;
		b[5] = (uint8_t)(qpn >> 16);
		b[6] = (uint8_t)(qpn >> 8);
		b[7] = (uint8_t)qpn;
		b[9] = (uint8_t)(i >> 16);
		b[10] = (uint8_t)(i >> 8);
		b[11] = (uint8_t)i;
	} else {
		memset(b, opcode, bthlen);
	}
	if (icrc) {
		put_icrc(pkt, total - 4, *v6);
		if (badicrc)
			pkt[total - 1] ^= 0x5a;
	}
	if (*v6) {
		/* UDP over IPv6 needs its checksum: over the pseudo-header. */
		uint32_t s = csum_add(0, pkt + 8, 32);
		uint16_t f;

		s += (uint32_t)l4 + 17;
		s = csum_add(s, u, l4);
		f = csum_fold(s);
		if (!f)
			f = 0xffff;
		u[6] = (uint8_t)(f >> 8);
		u[7] = (uint8_t)f;
	}
	return total;
}

static int parse_pair4(char *s, struct in_addr *a, struct in_addr *b)
{
	char *comma = strchr(s, ',');

	if (!comma)
		return -1;
	*comma = 0;
	return inet_pton(AF_INET, s, a) == 1 && inet_pton(AF_INET, comma + 1, b) == 1 ? 0 : -1;
}

static int parse_pair6(char *s, struct in6_addr *a, struct in6_addr *b)
{
	char *comma = strchr(s, ',');

	if (!comma)
		return -1;
	*comma = 0;
	return inet_pton(AF_INET6, s, a) == 1 && inet_pton(AF_INET6, comma + 1, b) == 1 ? 0 : -1;
}

static int lab4(const struct in_addr *a)
{
	uint32_t h = ntohl(a->s_addr);

	return (h & 0xfffe0000u) == 0xc6120000u;	/* 198.18.0.0/15 */
}

static int lab6(const struct in6_addr *a)
{
	return a->s6_addr[0] == 0xfe && (a->s6_addr[1] & 0xc0) == 0x80;
}

static void usage(void)
{
	fprintf(stderr, "usage: roce_storm -i IF -m DSTMAC -4 SRC,DST [-6 SRC6,DST6] [-b BCAST]\n"
		"                  [-q LIVEQPN [-p PEER]] -n COUNT [-s SEED] [-k badicrc|mixed]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static uint8_t bufs[BATCH][PKT_MAX];
	struct sockaddr_ll sll[BATCH];
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	unsigned long counts[NKINDS] = { 0 };
	unsigned long count = 0, sent = 0, dropped = 0, i;
	unsigned int mac[6], ifindex = 0;
	struct cfg c = { .mixed = 1 };
	struct in_addr peer4 = { 0 };
	int opt, fd, have4 = 0, have_mac = 0, j, retries;

	rng = 1;
	while ((opt = getopt(argc, argv, "i:m:4:6:b:q:p:n:s:k:")) != -1) {
		switch (opt) {
		case 'i':
			ifindex = if_nametoindex(optarg);
			if (!ifindex) {
				fprintf(stderr, "roce_storm: no interface %s\n", optarg);
				return 1;
			}
			break;
		case 'm':
			have_mac = sscanf(optarg, "%x:%x:%x:%x:%x:%x", &mac[0], &mac[1],
					  &mac[2], &mac[3], &mac[4], &mac[5]) == 6;
			if (!have_mac)
				usage();
			break;
		case '4':
			if (parse_pair4(optarg, &c.src4, &c.dst4) || !lab4(&c.src4) || !lab4(&c.dst4)) {
				fprintf(stderr, "roce_storm: -4 wants two 198.18.0.0/15 addresses\n");
				return 2;
			}
			have4 = 1;
			break;
		case '6':
			if (parse_pair6(optarg, &c.src6, &c.dst6) || !lab6(&c.src6) || !lab6(&c.dst6)) {
				fprintf(stderr, "roce_storm: -6 wants two link-local addresses\n");
				return 2;
			}
			c.have6 = 1;
			break;
		case 'b':
			if (inet_pton(AF_INET, optarg, &c.bcast4) != 1 || !lab4(&c.bcast4)) {
				fprintf(stderr, "roce_storm: -b wants a 198.18.0.0/15 address\n");
				return 2;
			}
			c.have_bcast = 1;
			break;
		case 'q':
			c.live_qpn = (uint32_t)strtoul(optarg, NULL, 0) & 0xffffff;
			break;
		case 'p':
			if (inet_pton(AF_INET, optarg, &peer4) != 1 || !lab4(&peer4)) {
				fprintf(stderr, "roce_storm: -p wants a 198.18.0.0/15 address\n");
				return 2;
			}
			break;
		case 'n':
			count = strtoul(optarg, NULL, 0);
			break;
		case 's':
			rng = strtoull(optarg, NULL, 0) | 1;
			break;
		case 'k':
			if (!strcmp(optarg, "badicrc"))
				c.mixed = 0;
			else if (strcmp(optarg, "mixed"))
				usage();
			break;
		default:
			usage();
		}
	}
	if (!ifindex || !have_mac || !have4 || !count)
		usage();
	/* ::ffff:PEER, which must not pass for LIVEQPN's IPv4 peer. */
	c.mapped6.s6_addr[10] = c.mapped6.s6_addr[11] = 0xff;
	memcpy(&c.mapped6.s6_addr[12], peer4.s_addr ? &peer4 : &c.src4, 4);
	fd = socket(AF_PACKET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("roce_storm: socket(AF_PACKET)");
		return 1;
	}
	for (i = 0; i < count;) {
		int n = 0, v6;

		for (; n < BATCH && i + (unsigned long)n < count; n++) {
			unsigned long k = i + (unsigned long)n;
			enum kind kd = c.mixed ? (enum kind)(k % NKINDS) : K_BADICRC;

			memset(&sll[n], 0, sizeof(sll[n]));
			iov[n].iov_base = bufs[n];
			iov[n].iov_len = build(&c, kd, (uint32_t)k, bufs[n], &v6);
			sll[n].sll_family = AF_PACKET;
			sll[n].sll_ifindex = (int)ifindex;
			sll[n].sll_protocol = htons(v6 ? ETH_P_IPV6 : ETH_P_IP);
			sll[n].sll_halen = 6;
			for (j = 0; j < 6; j++)
				sll[n].sll_addr[j] = kd == K_CE_BCAST && c.have_bcast ?
						     0xff : (unsigned char)mac[j];
			memset(&msgs[n], 0, sizeof(msgs[n]));
			msgs[n].msg_hdr.msg_name = &sll[n];
			msgs[n].msg_hdr.msg_namelen = sizeof(sll[n]);
			msgs[n].msg_hdr.msg_iov = &iov[n];
			msgs[n].msg_hdr.msg_iovlen = 1;
			counts[kd]++;
		}
		for (j = 0, retries = 0; j < n;) {
			int r = sendmmsg(fd, msgs + j, (unsigned int)(n - j), 0);

			if (r > 0) {
				sent += (unsigned long)r;
				j += r;
				retries = 0;
				continue;
			}
			if (r < 0 && errno != ENOBUFS && errno != EAGAIN && errno != EINTR) {
				perror("roce_storm: sendmmsg");
				return 1;
			}
			/* The device queue is full: let it drain a little. */
			if (++retries > 50) {
				dropped++;
				j++;
				retries = 0;
				continue;
			}
			nanosleep(&(struct timespec){ .tv_nsec = 200000 }, NULL);
		}
		i += (unsigned long)n;
	}
	close(fd);
	printf("sent %lu dropped %lu\n", sent, dropped);
	for (j = 0; j < NKINDS; j++)
		if (counts[j])
			printf("kind %s %lu\n", kind_names[j], counts[j]);
	return 0;
}
