/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-QP counters of RDMA hardware through the RDMA core's counter binding
 * (RDMA netlink, NLDEV STAT_GET/STAT_SET/STAT_DEL/STAT_GET_STATUS):
 *
 *   qpctr_msg.c  the requests, and the parsers of the kernel's replies
 *                (untrusted: every length and nest checked);
 *   qpctr.c      reading a port's counters, binding the QPs rocetune is
 *                asked to (manual mode, one new counter per QP) and
 *                removing only the bindings it made, recorded in the state
 *                directory (qp-counters).
 *
 * Never touched: a port in auto mode, a QP someone else bound, a counter
 * rocetune did not make, an optional counter rocetune did not enable.
 * Documentation/hardware.rst ("Per-QP congestion counters").
 */
#ifndef ROCETUNE_QPCTR_H
#define ROCETUNE_QPCTR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "nl.h"

#define RTUNE_QPC_NAME 48
#define RTUNE_QPC_MAX_HW 96	/* counters per RDMA counter / port status */
#define RTUNE_QPC_MAX_QPS 64	/* QPs remembered per counter (all are counted) */
#define RTUNE_QPC_MAX 256	/* counters per port */

/* RDMA_COUNTER_MODE_*: the port's mode, and each counter's. */
enum { RTUNE_QPC_NONE, RTUNE_QPC_AUTO, RTUNE_QPC_MANUAL };

struct rtune_qpc_hw {
	char name[RTUNE_QPC_NAME];
	uint64_t v;
};

/* One RDMA counter (a STAT_GET dump entry). */
struct rtune_qpc {
	uint32_t id, port, mode;
	uint32_t qpn[RTUNE_QPC_MAX_QPS];
	uint32_t nqp;		/* QPs bound to it; only the first MAX_QPS kept */
	struct rtune_qpc_hw hw[RTUNE_QPC_MAX_HW];
	int nhw;
	bool ours;		/* qpctr.c: a binding rocetune recorded */
};

/* A port's hardware counter as STAT_GET_STATUS lists it. */
struct rtune_qpc_stat {
	char name[RTUNE_QPC_NAME];
	uint32_t index;
	bool optional, enabled;	/* enabled: meaningful for optional ones */
};

/* A QP of the port (RES_QP_GET dump). */
struct rtune_qpc_qp {
	uint32_t qpn, port;
	uint8_t type;		/* IB_QPT_*: 2 RC, 3 UC, 4 UD */
	bool kernel;		/* owned by a kernel user (RES_KERN_NAME) */
};

struct rtune_qpc_port {
	char ibdev[64];
	uint32_t dev_idx, port;
	int mode_err;		/* 0, or the errno of the mode query */
	uint32_t mode, mask;
	struct rtune_qpc *c;	/* malloc'd, nc entries */
	int nc;
	int dump_err;
	struct rtune_qpc_stat st[RTUNE_QPC_MAX_HW];
	int nst;
	int st_err;		/* STAT_GET_STATUS not answered (kernel < 5.17) */
};

/*
 * How requests reach the kernel: rtune_nl_transact() on an RDMA netlink
 * socket, or in the unit tests a fake kernel that answers from built
 * messages.
 */
struct rtune_qpc_io {
	int (*xact)(struct rtune_qpc_io *io, struct nl_msg *msg, rtune_nl_cb cb, void *arg);
	struct nl_sock *sk;
	void *priv;
};
int qpc_io_open(struct rtune_qpc_io *io);
void qpc_io_close(struct rtune_qpc_io *io);

/* --- qpctr_msg.c: requests and reply parsers --- */
struct nl_msg *qpc_req(uint8_t cmd, uint16_t flags, uint32_t dev_idx, uint32_t port);
/* Each parser returns 0, or -EPROTO for a malformed message. */
int qpc_parse_dev(const struct nlmsghdr *h, uint32_t *idx, char *name, size_t len);
int qpc_parse_mode(const struct nlmsghdr *h, uint32_t *mode, uint32_t *mask);
/* A STAT_GET dump message: its counters appended to *c (n, cap). */
int qpc_parse_counters(const struct nlmsghdr *h, struct rtune_qpc **c, int *n);
int qpc_parse_status(const struct nlmsghdr *h, struct rtune_qpc_stat *st, int *n, int max);
int qpc_parse_qps(const struct nlmsghdr *h, struct rtune_qpc_qp **q, int *n);
/* A STAT_SET reply to a manual bind: the new counter's id and the QP. */
int qpc_parse_bound(const struct nlmsghdr *h, uint32_t *counter, uint32_t *qpn);

/* --- qpctr.c --- */
/* The RDMA device's index; -ENODEV if there is none of that name. */
int qpc_dev_index(struct rtune_qpc_io *io, const char *ibdev, uint32_t *idx);
/* Mode, counters and status of one port (each part's error in *p). */
int qpc_port_read(struct rtune_qpc_io *io, const char *ibdev, uint32_t dev_idx, uint32_t port,
		  struct rtune_qpc_port *p);
void qpc_port_free(struct rtune_qpc_port *p);

/* The driver whose RDMA devices bind QPs to counters (Linux 6.1: mlx5 only). */
bool qpc_driver_binds(const char *driver);

/* The optional counters rocetune enables to count congestion per QP. */
extern const char *const rtune_qpc_cc_optional[3];

/* What bind/unbind did to one port, for the report. */
struct rtune_qpc_result {
	int bound, already, skipped, failed, removed, gone;
	int enabled, disabled;	/* optional counters */
	bool unsupported, auto_mode;
	char why[256];		/* unsupported / auto mode / first failure */
};

/*
 * Bind, in manual mode, every QP of the port that is a user's RC, UC or UD
 * QP and bound to no counter, each to a new counter; enable first the
 * optional congestion counters the port has and has not enabled (the
 * other optional counters stay as they are). @driver is the device's
 * driver ("" when it has none): a driver without counter binding, or a
 * port in auto mode, is reported and nothing is sent. Records go to
 * @state (the qp-counters file's path).
 */
int qpc_bind(struct rtune_qpc_io *io, const char *state, const char *ibdev, const char *driver,
	     uint32_t port, struct rtune_qpc_result *r);
/* Remove the bindings and optional counters the records in @state name
 * for the port, if they are still rocetune's; drop their records. */
int qpc_unbind(struct rtune_qpc_io *io, const char *state, const char *ibdev, uint32_t port,
	       struct rtune_qpc_result *r);
/* Mark the counters of @p that the records in @state name as ours. */
void qpc_mark_ours(const char *state, struct rtune_qpc_port *p);
/* The qp-counters file: $ROCETUNE_STATE_DIR or /run/rocetune. */
void qpc_state_path(char *buf, size_t len);

#endif
