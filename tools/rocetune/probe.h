/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `rocetune verify --probe`: after the fingerprints, the peer sends a
 * bounded RC flow over librdmacm to the listener, which watches the
 * RoCEv2 packets of its probe QP arrive on its netdev (a packet socket:
 * Soft-RoCE's packets cross the netdev, an offloading NIC's do not) and
 * reports the DSCP and ECN codepoints it saw; both sides then check them
 * against what each host's settings promise. Documentation/rocetune.rst,
 * "The probe flow".
 *
 *   PROBE_REQ    ver:u8=2 0:u8 count:u16be size:u32be mtu:u16be 0:u16
 *   PROBE_PORT   ver:u8=2 0:u8 port:u16be
 *   PROBE_RESULT ver:u8=2 flags:u8 received:u32be qpn:u32be packets:u32be
 *                ladder:u8 pktmax:u16be
 *                ncodes:u16be { tos:u8 count:u32be }*ncodes (tos ascending)
 *                ncnp:u16be { tos:u8 count:u32be }*ncnp (the same, of CNPs)
 *                nctr:u8 { namelen:u8 name[a-z0-9_] delta:u64be }*nctr
 *                notelen:u8 note[printable]
 *
 * probe_msg.c encodes and parses these (untrusted: every length checked,
 * nothing read past the payload, selftests/fuzz/fuzz_verify.c) and the
 * captured packets; probe_check.c compares; probe_rdma.c moves the data.
 *
 * Path MTU (version 2): a hop with a smaller MTU eats full-size frames
 * while small probes pass. When both hosts report an active RoCE MTU, the
 * peer asks for @mtu, the smaller of the two, and sends a ladder of
 * RTUNE_PROBE_LADDER messages of mtu/16, 2*mtu/16, ... mtu bytes before
 * the probe's own messages, each one packet of that payload. RC delivers
 * in order, so the listener's count of ladder messages that arrived says
 * the largest size that crossed; it also reports the largest RoCEv2 IP
 * packet of the probe QP it saw (pktmax). rtune_probe_check_mtu() judges.
 *
 * With --probe-cnp the peer also watches the CNPs that come back to its
 * probe QP (a packet socket on its own netdev: BTH opcode 0x81, DestQP its
 * QP) and its QP's rate (rocetune.ko's qp_stats, else the port's
 * rp_cnp_handled), and checks them (rtune_probe_check_cnp()). The listener,
 * the notification point, counts the CNPs it sends to the peer's QP on
 * the same packet socket (outgoing, with every flow) and reports them by
 * ToS in PROBE_RESULT (ncnp): what left, against what came back.
 */
#ifndef ROCETUNE_PROBE_H
#define ROCETUNE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rtune_fp;
struct sockaddr;

#define RTUNE_PROBE_VER 2
#define RTUNE_PROBE_REQ_LEN 12
#define RTUNE_PROBE_PORT_LEN 4
#define RTUNE_PROBE_RESULT_MAX 4096
#define RTUNE_PROBE_COUNT_MAX 256	/* messages */
#define RTUNE_PROBE_SIZE_MAX 16384	/* bytes of one message */
#define RTUNE_PROBE_CODES_MAX 256	/* distinct IP ToS bytes */
#define RTUNE_PROBE_CTR_MAX 8
#define RTUNE_PROBE_CTR_NAME 63
#define RTUNE_PROBE_NOTE_MAX 200
#define RTUNE_PROBE_FLAG_CAPTURED 0x01	/* the listener's packet socket ran */
#define RTUNE_PROBE_LADDER 16		/* path MTU: sizes mtu/16 .. mtu */
#define RTUNE_PROBE_MTU_MIN 256		/* IB MTUs: 256 .. 4096, powers of 2 */
#define RTUNE_PROBE_MTU_MAX 4096
#define RTUNE_ROCEV2_PORT 4791

/* How many packets carried one IP ToS byte. */
struct rtune_probe_code {
	uint8_t tos;	/* DSCP << 2 | ECN */
	uint32_t count;
};

struct rtune_probe_req {
	uint16_t count;
	uint32_t size;
	uint16_t mtu;	/* the ladder's top (RoCE MTU), 0: no ladder */
};

/* The @i-th (0-based) message size of the ladder up to @mtu. */
static inline uint32_t rtune_probe_ladder_size(uint16_t mtu, int i)
{
	return (uint32_t)mtu * (uint32_t)(i + 1) / RTUNE_PROBE_LADDER;
}

struct rtune_probe_result {
	bool captured;
	uint32_t received;	/* messages that completed on the listener */
	uint32_t qpn;		/* the listener's probe QP */
	uint32_t packets;	/* RoCEv2 packets to that QP seen on the netdev */
	uint8_t ladder;		/* path MTU ladder messages that arrived */
	uint16_t pkt_max;	/* the largest of those packets: IP bytes */
	int ncodes;
	struct rtune_probe_code code[RTUNE_PROBE_CODES_MAX];	/* tos ascending */
	uint32_t cnps_sent;	/* CNPs the listener sent to the peer's QP */
	int ncnp;
	struct rtune_probe_code cnp[RTUNE_PROBE_CODES_MAX];	/* theirs, by ToS */
	int nctr;
	struct {
		char name[RTUNE_PROBE_CTR_NAME + 1];
		uint64_t delta;
	} ctr[RTUNE_PROBE_CTR_MAX];
	char note[RTUNE_PROBE_NOTE_MAX + 1];
};

void rtune_probe_enc_req(const struct rtune_probe_req *r, uint8_t *out);
int rtune_probe_parse_req(const uint8_t *p, size_t n, struct rtune_probe_req *r, char *why,
			  size_t whylen);
void rtune_probe_enc_port(uint16_t port, uint8_t *out);
int rtune_probe_parse_port(const uint8_t *p, size_t n, uint16_t *port, char *why, size_t whylen);
/* The length written (<= RTUNE_PROBE_RESULT_MAX), or -E2BIG. */
int rtune_probe_enc_result(const struct rtune_probe_result *r, uint8_t *out, size_t len);
int rtune_probe_parse_result(const uint8_t *p, size_t n, struct rtune_probe_result *r,
			     char *why, size_t whylen);

/* A captured frame from its network header on: the IP ToS byte if it is
 * a RoCEv2 packet (UDP to 4791, IPv4 or IPv6) whose BTH names @qpn, else
 * -1. */
int rtune_probe_pkt_tos(const uint8_t *p, size_t n, uint32_t qpn);
/* The same for a RoCEv2 CNP (BTH opcode 0x81) whose DestQP is @qpn. */
int rtune_probe_pkt_cnp(const uint8_t *p, size_t n, uint32_t qpn);
/* The IP length (IPv4 total length, IPv6 40 + payload length) of a
 * packet rtune_probe_pkt_tos() accepted. */
unsigned int rtune_probe_pkt_len(const uint8_t *p, size_t n);
/* Count one packet of ToS @tos. */
void rtune_probe_count(struct rtune_probe_result *r, uint8_t tos);
/* The priority @fp's dcb.dscp_prio gives @dscp (its class selector
 * without a map entry). */
int rtune_probe_prio_of(const struct rtune_fp *fp, int dscp);
/* Count one packet of ToS @tos in @code (@ncodes of them, tos ascending,
 * room for RTUNE_PROBE_CODES_MAX). */
void rtune_probe_tally(struct rtune_probe_code *code, int *ncodes, uint8_t tos);

/*
 * What the peer saw of the reaction point with --probe-cnp: the CNPs that
 * came back to its probe QP and what its rate did.
 */
struct rtune_probe_cnp {
	bool captured;		/* the peer's packet socket ran */
	uint32_t qpn;		/* the peer's probe QP */
	uint32_t cnps;		/* CNPs to that QP seen on the netdev */
	int ncodes;
	struct rtune_probe_code code[RTUNE_PROBE_CODES_MAX];
	/* rocetune.ko's qp_stats of the probe QP (Soft-RoCE) */
	bool has_qp;
	char state[16];
	uint64_t rate_first_kbps, rate_min_kbps, rate_last_kbps;
	uint64_t rate_cuts, cnp_rcvd;	/* over the QP's life: the probe's own */
	/* else the port's hw_counters */
	bool has_handled;
	uint64_t cnp_handled;	/* rp_cnp_handled delta */
	char note[RTUNE_PROBE_NOTE_MAX + 1];
};

/* One check's outcome, for the report. */
struct rtune_probe_finding {
	const char *check;	/* "delivery", "dscp", "ecn", "path_mtu", "cnp_dscp",
				 * "rate_reaction" */
	const char *verdict;	/* "pass", "fail", "unchecked" */
	char host[136];		/* the host whose setting makes the promise */
	char setting[48];
	char value[48];
	char promised[64];
	char observed[240];
};

#define RTUNE_PROBE_FINDINGS 8

/*
 * Compare what the listener saw (@r) with what the receiving host (@rx,
 * @rx_label) and the sending host (@tx, @tx_label) promise. @sent: the
 * messages that must arrive (verify: all it asked for); < 0: unknown, any
 * but none will do. The number of findings (at most
 * RTUNE_PROBE_FINDINGS); *@failed says whether any failed.
 */
int rtune_probe_check(const struct rtune_probe_result *r, int sent, const char *rx_label,
		      const struct rtune_fp *rx, const char *tx_label, const struct rtune_fp *tx,
		      struct rtune_probe_finding *out, bool *failed);

/*
 * The path MTU: the ladder up to @mtu (the smaller active RoCE MTU of the
 * two hosts, @rx's and @tx's roce_active_mtu; 0: one has none) must have
 * arrived whole, and, where packets were seen, one of mtu + 44 IP bytes
 * (IPv4, UDP, BTH, ICRC) at least. The finding names the host whose RoCE
 * MTU makes the promise (the listener when equal) and, on a failure, the
 * largest size that arrived. Appends one finding to @out (@n already
 * there); returns the new count, *@failed set if it failed.
 */
int rtune_probe_check_mtu(const struct rtune_probe_result *r, uint16_t mtu, const char *rx_label,
			  const struct rtune_fp *rx, const char *tx_label,
			  const struct rtune_fp *tx, struct rtune_probe_finding *out, int n,
			  bool *failed);
/* The ladder's top for two hosts: the smaller roce_active_mtu of @a and
 * @b, or 0 when either has none (or one out of 256..4096). */
uint16_t rtune_probe_mtu_of(const struct rtune_fp *a, const struct rtune_fp *b);

/*
 * --probe-cnp: the CNPs of @c that came back to the peer against the
 * listener's (@rx) cc.active.np_cnp_dscp (the notification point marks
 * them) and the peer's (@tx) (what its fabric gives CNPs), and the rate
 * reaction of the peer's QP against its rp_enabled_prios. @r: what the
 * listener saw (its CE marks). Appends at most 2 findings to @out (@n
 * already there); returns the new count, *@failed set if one failed.
 */
int rtune_probe_check_cnp(const struct rtune_probe_result *r, const struct rtune_probe_cnp *c,
			  const char *rx_label, const struct rtune_fp *rx, const char *tx_label,
			  const struct rtune_fp *tx, struct rtune_probe_finding *out, int n,
			  bool *failed);

/* --- probe_rdma.c: the flow itself --- */

/* Where the peer watches its reaction point (--probe-cnp). */
struct rtune_probe_rp {
	const char *netdev;	/* the packet socket's */
	const char *ibdev;	/* qp_stats and hw_counters */
	int port;
	struct rtune_probe_cnp *out;
};

/* The peer: connect to @dst:@port, set the RDMA-CM ToS (@tos >= 0), send
 * @req's ladder (if @req->mtu), then its messages; with @rp, watch the
 * CNPs and the rate meanwhile. 0 with *@sent (the messages, not the
 * ladder), or -1 with @why said; *@local_err set when the fault is this
 * host's (no device, no memory), not the path's. */
int rtune_probe_send(const char *dst, uint16_t port, int tos, const struct rtune_probe_req *req,
		     const struct rtune_probe_rp *rp, int timeout_ms, int *sent, bool *local_err,
		     char *why, size_t whylen);

struct rtune_probe_srv;
/* The listener: an RDMA-CM listener on @local port 0 (*@port its port) and
 * the packet socket on @netdev; @ibdev/@ibport for hw_counters. NULL with
 * @why said. */
struct rtune_probe_srv *rtune_probe_listen(const struct sockaddr *local, const char *netdev,
					   const char *ibdev, int ibport, uint16_t *port,
					   char *why, size_t whylen);
/* Accept one connection, take @req's ladder and messages, watch; until
 * @timeout_ms or @ctl_fd becomes readable (the peer gave up). Fills @r
 * (note says what went wrong); 0 when every message arrived. */
int rtune_probe_serve(struct rtune_probe_srv *s, const struct rtune_probe_req *req, int ctl_fd,
		      int timeout_ms, struct rtune_probe_result *r);
void rtune_probe_close(struct rtune_probe_srv *s);

#endif
