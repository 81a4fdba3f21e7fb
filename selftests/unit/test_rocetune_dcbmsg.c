// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for rocetune's dcbnl encoding and its reply parser:
 * requests carry IFNAME then the IEEE nest with full-size structs; replies
 * from the kernel are untrusted, so truncated or overlong attributes are
 * rejected instead of read.
 */
#include <stdio.h>
#include <string.h>
#include "../lib/tap.h"
#include "../../tools/rocetune/dcb.h"

static void test_encode(void)
{
	struct nl_msg *m = dcb_msg_ieee(RTM_SETDCB, DCB_CMD_IEEE_SET, "dcb0");
	struct nlmsghdr *h = nlmsg_hdr(m);
	struct dcbmsg *dm = nlmsg_data(h);
	struct nlattr *a = (struct nlattr *)((char *)dm + NLMSG_ALIGN(sizeof(*dm)));
	struct nlattr *nest;
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = 0x08 };

	tap_check(h->nlmsg_type == RTM_SETDCB && (h->nlmsg_flags & NLM_F_ACK) &&
		  (h->nlmsg_flags & NLM_F_REQUEST), "SETDCB request asks for an ACK");
	tap_check(dm->cmd == DCB_CMD_IEEE_SET && dm->dcb_family == 0, "dcbmsg cmd IEEE_SET");
	tap_check(a->nla_type == DCB_ATTR_IFNAME && !strcmp(nla_data(a), "dcb0"),
		  "first attribute is DCB_ATTR_IFNAME");
	nest = nla_nest_start(m, DCB_ATTR_IEEE);
	nla_put(m, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	nla_nest_end(m, nest);
	h = nlmsg_hdr(m);
	nest = nlmsg_find_attr(h, sizeof(struct dcbmsg), DCB_ATTR_IEEE);
	a = nest ? nla_find(nla_data(nest), nla_len(nest), DCB_ATTR_IEEE_PFC) : NULL;
	tap_check(a && nla_len(a) == 136 && ((struct ieee_pfc *)nla_data(a))->pfc_en == 0x08,
		  "PFC goes as a full 136-byte struct ieee_pfc inside DCB_ATTR_IEEE");
	nlmsg_free(m);
}

/*
 * The APP trust table: one u8 selector per entry, PCP as DCB_ATTR_DCB_APP,
 * the others as DCB_ATTR_IEEE_APP; an empty list is an empty table, not a
 * message without one (the kernel refuses an IEEE_SET with no IEEE nest).
 */
static void test_encode_trust(void)
{
	const uint8_t sel[2] = { IEEE_8021QAZ_APP_SEL_DSCP, RTUNE_DCB_APP_SEL_PCP };
	struct nl_msg *m = dcb_msg_trust("dcb0", sel, 2);
	struct nlattr *nest, *tab, *a;
	int rem, n = 0, ok = 1;

	nest = m ? nlmsg_find_attr(nlmsg_hdr(m), sizeof(struct dcbmsg), DCB_ATTR_IEEE) : NULL;
	tab = nest ? nla_find(nla_data(nest), nla_len(nest), RTUNE_DCB_ATTR_DCB_APP_TRUST_TABLE) : NULL;
	if (tab) {
		nla_for_each_nested(a, tab, rem) {
			if (n < 2 && nla_len(a) == 1 && *(uint8_t *)nla_data(a) == sel[n])
				ok &= nla_type(a) == (n ? RTUNE_DCB_ATTR_DCB_APP : DCB_ATTR_IEEE_APP);
			else
				ok = 0;
			n++;
		}
	}
	tap_check(tab && ok && n == 2,
		  "trust [dscp pcp]: u8 DCB_ATTR_IEEE_APP then u8 DCB_ATTR_DCB_APP in the trust table");
	nlmsg_free(m);

	m = dcb_msg_trust("dcb0", sel, 0);
	nest = m ? nlmsg_find_attr(nlmsg_hdr(m), sizeof(struct dcbmsg), DCB_ATTR_IEEE) : NULL;
	tab = nest ? nla_find(nla_data(nest), nla_len(nest), RTUNE_DCB_ATTR_DCB_APP_TRUST_TABLE) : NULL;
	tap_check(tab && nla_len(tab) == 0 && nla_len(nest) == NLA_HDRLEN,
		  "trust []: an empty trust table inside DCB_ATTR_IEEE, not a bare message");
	nlmsg_free(m);
}

/* Build a GETDCB reply by hand: IFNAME, IEEE{...}, DCBX. */
static size_t reply(unsigned char *buf, int pfc_len, int app_len, int lie)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	unsigned char *p;
	struct nlattr *ie, *a, *tab;
	struct dcb_app app = { IEEE_8021QAZ_APP_SEL_DSCP, 3, 26 };
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = 0x08 };

	memset(buf, 0, 4096);
	h->nlmsg_type = RTM_GETDCB;
	p = buf + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct dcbmsg));
	ie = (struct nlattr *)p;
	ie->nla_type = DCB_ATTR_IEEE | NLA_F_NESTED;
	p += NLA_HDRLEN;
	a = (struct nlattr *)p;
	a->nla_type = DCB_ATTR_IEEE_PFC;
	a->nla_len = (uint16_t)(NLA_HDRLEN + pfc_len);
	memcpy(p + NLA_HDRLEN, &pfc, (size_t)pfc_len);
	p += NLA_ALIGN(a->nla_len);
	tab = (struct nlattr *)p;
	tab->nla_type = DCB_ATTR_IEEE_APP_TABLE;
	p += NLA_HDRLEN;
	a = (struct nlattr *)p;
	a->nla_type = DCB_ATTR_IEEE_APP;
	a->nla_len = (uint16_t)(NLA_HDRLEN + app_len);
	memcpy(p + NLA_HDRLEN, &app, sizeof(app));
	p += NLA_ALIGN(NLA_HDRLEN + sizeof(app));
	tab->nla_len = (uint16_t)(p - (unsigned char *)tab);
	ie->nla_len = (uint16_t)(p - (unsigned char *)ie + lie);
	a = (struct nlattr *)p;
	a->nla_type = DCB_ATTR_DCBX;
	a->nla_len = NLA_HDRLEN + 1;
	p[NLA_HDRLEN] = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	p += NLA_ALIGN(NLA_HDRLEN + 1);
	h->nlmsg_len = (uint32_t)(p - buf);
	return h->nlmsg_len;
}

static void test_parse(void)
{
	static unsigned char buf[4096];
	struct rtune_dcb d;
	int r;

	reply(buf, sizeof(struct ieee_pfc), sizeof(struct dcb_app), 0);
	memset(&d, 0, sizeof(d));
	r = dcb_parse_get((struct nlmsghdr *)buf, &d);
	tap_check(r == 0 && d.ok && d.has_pfc && d.pfc.pfc_en == 0x08, "well-formed reply: PFC read");
	tap_check(d.has_app && d.dscp_prios[26] == 1u << 3 && d.n_other_app == 0, "APP DSCP 26 -> 3 read");
	tap_check(d.has_dcbx && d.dcbx == 0x09, "bare DCB_ATTR_DCBX read");
	tap_check(!d.has_trust && !d.has_ets, "absent attributes stay absent (capability detection)");

	reply(buf, 100, sizeof(struct dcb_app), 0);
	memset(&d, 0, sizeof(d));
	tap_check(dcb_parse_get((struct nlmsghdr *)buf, &d) < 0, "truncated ieee_pfc is rejected");

	reply(buf, sizeof(struct ieee_pfc), 2, 0);
	memset(&d, 0, sizeof(d));
	tap_check(dcb_parse_get((struct nlmsghdr *)buf, &d) < 0, "truncated dcb_app is rejected");

	reply(buf, sizeof(struct ieee_pfc), sizeof(struct dcb_app) + 40, 0);
	memset(&d, 0, sizeof(d));
	tap_check(dcb_parse_get((struct nlmsghdr *)buf, &d) < 0,
		  "an APP entry claiming more bytes than its table holds is rejected");

	reply(buf, sizeof(struct ieee_pfc), sizeof(struct dcb_app), 64);
	memset(&d, 0, sizeof(d));
	tap_check(dcb_parse_get((struct nlmsghdr *)buf, &d) < 0,
		  "a nest claiming more bytes than the message holds is rejected");
	{
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		reply(buf, sizeof(struct ieee_pfc), sizeof(struct dcb_app), 0);
		h->nlmsg_len = NLMSG_HDRLEN + 2;
		memset(&d, 0, sizeof(d));
		tap_check(dcb_parse_get(h, &d) < 0, "a message shorter than struct dcbmsg is rejected");
	}
}

int main(void)
{
	test_encode();
	test_encode_trust();
	test_parse();
	return tap_done();
}
