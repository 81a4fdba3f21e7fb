// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for `rocetune verify`'s fingerprint and wire protocol:
 * a device's settings become canonical "path=value" lines holding each
 * setting and nothing that names the device; the parser accepts exactly
 * the canonical form; a diff names each changed setting and nothing else;
 * authentication passes with one key and fails with two; tampered,
 * oversized and out-of-order frames are refused; key files with loose
 * modes are refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/fingerprint.h"
#include "../../tools/rocetune/state.h"
#include "../../tools/rocetune/vwire.h"


static struct rtune_fp fa, fb;
static char buf[RTUNE_FP_WIRE_MAX + 4096];
static char why[256];

/* A lossless-RoCE device as the tool would read it (values of
 * profiles/lossless-roce.conf). */
static void mkdev(struct rtune_link *v)
{
	int d;

	memset(v, 0, sizeof(*v));
	strcpy(v->netdev, "dcb0");
	v->ifindex = 5;
	v->link_ok = true;
	v->mtu = 4200;
	v->dcb.ok = v->dcb.has_pfc = v->dcb.has_ets = v->dcb.has_app = v->dcb.has_dcbx = true;
	v->dcb.pfc.pfc_cap = 8;
	v->dcb.pfc.pfc_en = 0x08;
	v->dcb.ets.prio_tc[3] = 3;
	v->dcb.ets.tc_tsa[0] = 2;
	v->dcb.ets.tc_tx_bw[0] = 50;
	v->dcb.ets.tc_tx_bw[3] = 50;
	for (d = 0; d < 64; d++)
		v->dcb.dscp_prios[d] = (uint8_t)(1u << (d >> 3));
	v->dcb.has_trust = true;
	v->dcb.ntrust = 1;
	v->dcb.trust[0] = 5;	/* DSCP */
	v->dcb.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	v->has_ib = true;
	strcpy(v->ibdev, "rxe0");
	v->port = 1;
	v->roce_mtu_ok = true;
	v->roce_active_mtu = 4096;
	v->cm_ok = true;
	v->roce_mode = 2;
	v->tos = 106;
	v->cc_ok = true;
	strcpy(v->cc_backend, "rxe-sw");
	v->cc = rtune_preset_lookup("connectx", 8)->set;
	v->cc.v[RTUNE_P_ECN_ENABLED_PRIOS] = 0x08;
	v->cc_valid = (1u << RTUNE_P_COUNT) - 1;
}

static int collect(struct rtune_fp *fp, const struct rtune_link *v)
{
	int err = rtune_fp_collect(fp, v);

	if (err)
		tap_diag("rtune_fp_collect: %d", err);
	return err;
}

static void test_encoding(void)
{
	struct rtune_link a, b;
	char exp[64], *p;
	int i, n, ok;

	mkdev(&a);
	tap_check(!collect(&fa, &a), "a device's settings collect into a fingerprint");
	snprintf(exp, sizeof(exp), "%u", a.cc.v[RTUNE_P_NP_CNP_DSCP]);
	ok = rtune_fp_get(&fa, "mtu") && !strcmp(rtune_fp_get(&fa, "mtu"), "4200") &&
	     rtune_fp_get(&fa, "roce_active_mtu") &&
	     !strcmp(rtune_fp_get(&fa, "roce_active_mtu"), "4096") &&
	     rtune_fp_get(&fa, "rdma_cm.tos") && !strcmp(rtune_fp_get(&fa, "rdma_cm.tos"), "106") &&
	     rtune_fp_get(&fa, "rdma_cm.roce_mode") &&
	     rtune_fp_get(&fa, "dcb.pfc_priorities") &&
	     !strcmp(rtune_fp_get(&fa, "dcb.pfc_priorities"), "3") &&
	     rtune_fp_get(&fa, "cc.active.np_cnp_dscp") &&
	     !strcmp(rtune_fp_get(&fa, "cc.active.np_cnp_dscp"), exp) &&
	     rtune_fp_get(&fa, "cc.active.ecn_enabled_prios") &&
	     !strcmp(rtune_fp_get(&fa, "cc.active.ecn_enabled_prios"), "8") &&
	     rtune_fp_get(&fa, "dcb.apptrust") && !strcmp(rtune_fp_get(&fa, "dcb.apptrust"), "dscp") &&
	     rtune_fp_get(&fa, "dcb.ets.prio_tc") &&
	     !strcmp(rtune_fp_get(&fa, "dcb.ets.prio_tc"), "0 0 0 3 0 0 0 0");
	tap_check(ok, "MTU, active RoCE MTU, PFC, trust, ETS, RDMA-CM mode and ToS, CNP DSCP and ECN enables are settings");
	p = (char *)rtune_fp_get(&fa, "dcb.dscp_prio");
	ok = p && !strncmp(p, "0:0 1:0 ", 8) && strstr(p, " 26:3 ") && strstr(p, " 63:7") &&
	     !strcmp(p + strlen(p) - 5, " 63:7");
	tap_check(ok, "the DSCP map is one setting, DSCP:priority in DSCP order (%.40s...)", p ? p : "");
	for (ok = 1, i = 0; i < RTUNE_P_COUNT; i++) {
		snprintf(exp, sizeof(exp), "cc.active.%s", rtune_param_descs[i].name);
		ok &= rtune_fp_get(&fa, exp) != NULL;
	}
	tap_check(ok, "every CC parameter is a setting");
	for (ok = 1, i = 0; i < fa.n; i++)
		ok &= !strstr(fa.it[i].key, "netdev") && !strstr(fa.it[i].key, "ifindex") &&
		      !strstr(fa.it[i].key, "rdma_device") && strcmp(fa.it[i].key, "port") &&
		      !strstr(fa.it[i].val, "dcb0") && !strstr(fa.it[i].val, "rxe0");
	tap_check(ok, "nothing that names the device is in it");

	b = a;
	strcpy(b.netdev, "eth7");
	b.ifindex = 42;
	strcpy(b.ibdev, "mlx5_3");
	b.port = 2;
	collect(&fb, &b);
	n = rtune_fp_format(&fa, buf, sizeof(buf));
	i = rtune_fp_format(&fb, buf + n, sizeof(buf) - (size_t)n);
	tap_check(n > 0 && i == n && !memcmp(buf, buf + n, (size_t)n),
		  "two devices that differ only in names and indexes have the same bytes");
	for (ok = 1, i = 1; i < fa.n; i++)
		ok &= strcmp(fa.it[i - 1].key, fa.it[i].key) < 0;
	tap_check(ok, "settings are sorted by path, none twice");
	n = rtune_fp_format(&fa, buf, sizeof(buf));
	ok = !rtune_fp_parse(buf, (size_t)n, &fb, why, sizeof(why)) && fb.n == fa.n;
	for (i = 0; ok && i < fa.n; i++)
		ok = !strcmp(fa.it[i].key, fb.it[i].key) && !strcmp(fa.it[i].val, fb.it[i].val);
	tap_check(ok, "format then parse gives the same %d settings (%s)", fa.n, ok ? "" : why);
	tap_check(rtune_fp_diff(&fa, &fb, NULL, 0) == 0, "and no difference");

	mkdev(&a);
	a.has_ib = false;
	a.cm_ok = a.cc_ok = false;
	collect(&fb, &a);
	ok = rtune_fp_get(&fb, "rdma_cm") && !strcmp(rtune_fp_get(&fb, "rdma_cm"), "null") &&
	     rtune_fp_get(&fb, "cc") && !strcmp(rtune_fp_get(&fb, "cc"), "null");
	tap_check(ok, "settings that cannot be read are \"null\", as in show -j");
}

struct mismatch {
	const char *what;
	void (*change)(struct rtune_link *v);
	const char *setting, *also;	/* the settings that must differ, in path order */
};

static void m_trust(struct rtune_link *v) { v->dcb.trust[0] = 0xff; /* PCP */ }
/* without a trust table (Linux 6.1): PCP trust is no DSCP entry at all */
static void m_trust61(struct rtune_link *v)
{
	v->dcb.has_trust = false;
	memset(v->dcb.dscp_prios, 0, sizeof(v->dcb.dscp_prios));
}
static void m_dscp(struct rtune_link *v) { v->dcb.dscp_prios[26] = 1u << 4; }
static void m_mtu(struct rtune_link *v) { v->mtu = 1500; }
static void m_rmtu(struct rtune_link *v) { v->roce_active_mtu = 1024; }
static void m_tos(struct rtune_link *v) { v->tos = 104; }
static void m_cnp(struct rtune_link *v) { v->cc.v[RTUNE_P_NP_CNP_DSCP] = 46; }
static void m_ecn(struct rtune_link *v) { v->cc.v[RTUNE_P_ECN_ENABLED_PRIOS] = 0; }
static void m_pfc(struct rtune_link *v) { v->dcb.pfc.pfc_en = 0x18; }
static void m_mode(struct rtune_link *v) { v->roce_mode = 1; }

static const struct mismatch mismatches[] = {
	{ "trust", m_trust, "dcb.apptrust", "dcb.trust" },
	{ "DSCP map", m_dscp, "dcb.dscp_prio", NULL },
	{ "MTU", m_mtu, "mtu", NULL },
	{ "active RoCE MTU", m_rmtu, "roce_active_mtu", NULL },
	{ "ToS", m_tos, "rdma_cm.tos", NULL },
	{ "CNP DSCP", m_cnp, "cc.active.np_cnp_dscp", NULL },
	{ "ECN off", m_ecn, "cc.active.ecn_enabled_prios", NULL },
	{ "PFC", m_pfc, "dcb.pfc_priorities", NULL },
	{ "RoCE mode", m_mode, "rdma_cm.roce_mode", NULL },
};

static void test_diff(void)
{
	struct rtune_fp_delta d[8];
	struct rtune_link a, b;
	unsigned int k;
	int n, want;

	mkdev(&a);
	collect(&fa, &a);
	for (k = 0; k < sizeof(mismatches) / sizeof(mismatches[0]); k++) {
		const struct mismatch *m = &mismatches[k];

		b = a;
		m->change(&b);
		collect(&fb, &b);
		n = rtune_fp_diff(&fa, &fb, d, 8);
		want = m->also ? 2 : 1;
		tap_check(n == want && !strcmp(d[0].key, m->setting) && d[0].a && d[0].b &&
			  strcmp(d[0].a, d[0].b) &&
			  (!m->also || (!strcmp(d[1].key, m->also) && strcmp(d[1].a, d[1].b))),
			  "%s mismatch: exactly %s%s%s differs (%d: %s%s%s)", m->what, m->setting,
			  m->also ? " and " : "", m->also ? m->also : "", n, n ? d[0].key : "none",
			  n > 1 ? " " : "", n > 1 ? d[1].key : "");
	}
	/* on a kernel without the trust table, from DSCP to PCP trust */
	a.dcb.has_trust = false;
	collect(&fa, &a);
	b = a;
	m_trust61(&b);
	collect(&fb, &b);
	n = rtune_fp_diff(&fa, &fb, d, 8);
	tap_check(n == 2 && !strcmp(d[0].key, "dcb.dscp_prio") && !strcmp(d[0].b, "none") &&
		  !strcmp(d[1].key, "dcb.trust") && !strcmp(d[1].a, "dscp") &&
		  !strcmp(d[1].b, "pcp"),
		  "without a trust table, PCP trust is dcb.trust pcp and an empty DSCP map (%d)", n);
	mkdev(&a);
	collect(&fa, &a);
	/* a setting one side lacks */
	b = a;
	b.cc_valid &= ~(1u << RTUNE_P_NP_CNP_DSCP);
	collect(&fb, &b);
	n = rtune_fp_diff(&fa, &fb, d, 8);
	tap_check(n == 1 && !strcmp(d[0].key, "cc.active.np_cnp_dscp") && d[0].a && !d[0].b,
		  "a setting only one side has is a difference, absent on the other");
	n = rtune_fp_diff(&fb, &fa, d, 8);
	tap_check(n == 1 && !d[0].a && d[0].b, "and the other way round");
	b = a;
	m_mtu(&b);
	m_tos(&b);
	m_cnp(&b);
	collect(&fb, &b);
	n = rtune_fp_diff(&fa, &fb, d, 2);
	tap_check(n == 3, "every difference is counted beyond the room given (%d)", n);
}

static int parse(const char *s)
{
	return rtune_fp_parse(s, strlen(s), &fb, why, sizeof(why));
}

static void test_parse(void)
{
	size_t k;
	int i;

	tap_check(!parse("a=1\nb=x y\nc=\n") && fb.n == 3 && !strcmp(fb.it[2].val, ""),
		  "canonical lines parse");
	tap_check(!parse("") && fb.n == 0, "no settings parse");
	tap_check(parse("b=1\na=2\n") == -EINVAL, "out of order: refused");
	tap_check(parse("a=1\na=2\n") == -EINVAL, "a path twice: refused");
	tap_check(parse("a=1\nb=2") == -EINVAL, "no final newline: refused");
	tap_check(parse("=1\n") == -EINVAL, "an empty path: refused");
	tap_check(parse("a b=1\n") == -EINVAL, "a space in a path: refused");
	tap_check(parse("a\n") == -EINVAL, "no '=': refused");
	tap_check(rtune_fp_parse("a=1\0\n", 5, &fb, why, sizeof(why)) == -EINVAL,
		  "a NUL in a value: refused");
	tap_check(parse("a=\t\n") == -EINVAL, "a control character in a value: refused");
	memset(buf, 'k', RTUNE_FP_KEY_MAX + 1);
	strcpy(buf + RTUNE_FP_KEY_MAX + 1, "=1\n");
	tap_check(parse(buf) == -EINVAL, "a path of %d bytes: refused", RTUNE_FP_KEY_MAX + 1);
	buf[RTUNE_FP_KEY_MAX] = '=';
	buf[RTUNE_FP_KEY_MAX + 1] = '1';
	buf[RTUNE_FP_KEY_MAX + 2] = '\n';
	buf[RTUNE_FP_KEY_MAX + 3] = '\0';
	tap_check(!parse(buf), "a path of %d bytes parses", RTUNE_FP_KEY_MAX);
	memcpy(buf, "a=", 2);
	memset(buf + 2, 'v', RTUNE_FP_VAL_MAX + 1);
	strcpy(buf + 3 + RTUNE_FP_VAL_MAX, "\n");
	tap_check(parse(buf) == -EINVAL, "a value of %d bytes: refused", RTUNE_FP_VAL_MAX + 1);
	for (k = 0, i = 0; i <= RTUNE_FP_ITEMS; i++)
		k += (size_t)sprintf(buf + k, "k%04d=1\n", i);
	tap_check(parse(buf) == -EINVAL, "%d settings: refused", RTUNE_FP_ITEMS + 1);
	tap_check(rtune_fp_parse(buf, RTUNE_FP_WIRE_MAX + 1, &fb, why, sizeof(why)) == -EINVAL,
		  "more than %d bytes: refused", RTUNE_FP_WIRE_MAX);
}

/* ---- the wire protocol over a socketpair, one side in a child ---- */

static int fd_read(void *ctx, void *b, size_t n)
{
	int fd = *(int *)ctx;
	char *p = b;

	while (n) {
		ssize_t r = read(fd, p, n);

		if (r <= 0)
			return r ? -errno : -ECONNRESET;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static int fd_write(void *ctx, const void *b, size_t n)
{
	int fd = *(int *)ctx;

	return write(fd, b, n) == (ssize_t)n ? 0 : -EIO;
}

static const uint8_t key1[] = "0123456789abcdef-key-one";
static const uint8_t key2[] = "0123456789abcdef-key-two";

/*
 * The listener (child) with @lkey against the peer (here) with @pkey; the
 * child exits with its auth result (negated) or 10 + its fp-receive result.
 * Returns the peer's auth result; *@lres the child's exit status.
 */
static int exchange(const uint8_t *lkey, const uint8_t *pkey, int *lres, int *pfp)
{
	struct rtune_vw w;
	struct rtune_vw_io io = { fd_read, fd_write, NULL };
	int sv[2], st, err;
	char label[RTUNE_VW_LABEL_MAX + 1];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -100;
	pid = fork();
	if (!pid) {
		close(sv[0]);
		io.ctx = &sv[1];
		rtune_vw_init(&w, &io, lkey, 24);
		err = rtune_vw_auth_listener(&w);
		if (err)
			_exit(-err);
		err = rtune_vw_recv_fp(&w, label, sizeof(label), &fb);
		if (!err)
			err = rtune_vw_send_fp(&w, "listener", &fb);
		_exit(10 - err);
	}
	close(sv[1]);
	io.ctx = &sv[0];
	rtune_vw_init(&w, &io, pkey, 24);
	err = rtune_vw_auth_peer(&w);
	*pfp = 1;
	if (!err) {
		*pfp = rtune_vw_send_fp(&w, "peer", &fa);
		if (!*pfp)
			*pfp = rtune_vw_recv_fp(&w, label, sizeof(label), &fb);
		if (!*pfp && strcmp(label, "listener"))
			*pfp = 99;
	}
	close(sv[0]);
	waitpid(pid, &st, 0);
	*lres = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return err;
}

/* Feed @n bytes to a listener's authentication; its result. */
static int feed_listener(const void *bytes, size_t n, char *whybuf, size_t wl)
{
	struct rtune_vw w;
	struct rtune_vw_io io = { fd_read, fd_write, NULL };
	int sv[2], err;

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	if (write(sv[1], bytes, n) != (ssize_t)n)
		return -100;
	shutdown(sv[1], SHUT_WR);
	io.ctx = &sv[0];
	rtune_vw_init(&w, &io, key1, 24);
	err = rtune_vw_auth_listener(&w);
	snprintf(whybuf, wl, "%s", w.why);
	close(sv[0]);
	close(sv[1]);
	return err;
}

static void test_wire(void)
{
	uint8_t f[RTUNE_VW_HDR + 64] = "RTV1";
	struct rtune_link a;
	int err, lres, pfp;

	mkdev(&a);
	collect(&fa, &a);
	signal(SIGPIPE, SIG_IGN);
	err = exchange(key1, key1, &lres, &pfp);
	tap_check(!err && lres == 10 && !pfp && fb.n == fa.n,
		  "same key: both authenticate and exchange fingerprints (%d %d %d)", err, lres, pfp);
	err = exchange(key1, key2, &lres, &pfp);
	tap_check(err == RTUNE_VW_EAUTH && lres == -RTUNE_VW_EIO,
		  "different keys: the peer refuses the listener's proof, the listener never gets past authentication (%d %d)",
		  err, lres);

	/* HELLO with a nonce one byte short */
	f[4] = RTUNE_VW_HELLO;
	f[11] = RTUNE_VW_NONCE - 1;
	err = feed_listener(f, RTUNE_VW_HDR + RTUNE_VW_NONCE - 1, why, sizeof(why));
	tap_check(err == RTUNE_VW_EPROTO, "a HELLO of the wrong size: refused (%s)", why);
	/* a length of 4 GiB - 1: refused from the header, nothing allocated */
	f[8] = f[9] = f[10] = f[11] = 0xff;
	err = feed_listener(f, RTUNE_VW_HDR, why, sizeof(why));
	tap_check(err == RTUNE_VW_EPROTO, "a 4 GiB length: refused from the header (%s)", why);
	/* a fingerprint before authentication */
	f[4] = RTUNE_VW_FP;
	f[8] = f[9] = f[10] = 0;
	f[11] = 4;
	memcpy(f + RTUNE_VW_HDR, "\0\0a=", 4);
	err = feed_listener(f, RTUNE_VW_HDR + 4, why, sizeof(why));
	tap_check(err == RTUNE_VW_EPROTO, "a fingerprint before authentication: refused (%s)", why);
	memcpy(f, "HTTP", 4);
	err = feed_listener(f, RTUNE_VW_HDR, why, sizeof(why));
	tap_check(err == RTUNE_VW_EPROTO, "not our magic: refused (%s)", why);
}

static void test_key(void)
{
	char dir[] = "/tmp/rocetune-key.XXXXXX", path[64];
	uint8_t k[RTUNE_VW_KEY_MAX];
	size_t kl = 0;
	int fd;

	if (!mkdtemp(dir)) {
		tap_skip("mkdtemp failed", "key file checks");
		return;
	}
	snprintf(path, sizeof(path), "%s/key", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	tap_check(fd >= 0 && write(fd, key1, 24) == 24 && !close(fd), "key file written");
	tap_check(!rtune_vw_load_key(path, k, &kl, why, sizeof(why)) && kl == 24 &&
		  !memcmp(k, key1, 24), "a 0600 key file of 24 bytes loads");
	chmod(path, 0640);
	tap_check(rtune_vw_load_key(path, k, &kl, why, sizeof(why)) == -EPERM,
		  "mode 0640: refused (%s)", why);
	chmod(path, 0600);
	truncate(path, RTUNE_VW_KEY_MIN - 1);
	tap_check(rtune_vw_load_key(path, k, &kl, why, sizeof(why)) == -EINVAL,
		  "%d bytes: refused (%s)", RTUNE_VW_KEY_MIN - 1, why);
	unlink(path);
	tap_check(rtune_vw_load_key(path, k, &kl, why, sizeof(why)) == -ENOENT,
		  "missing: refused (%s)", why);
	rmdir(dir);
}

int main(void)
{
	tap_plan(10 + 13 + 15 + 6 + 5);
	test_encoding();
	test_diff();
	test_parse();
	test_wire();
	test_key();
	return tap_done();
}
