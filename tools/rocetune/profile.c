// SPDX-License-Identifier: GPL-2.0
/*
 * rocetune.conf(5) parser: INI sections, "key = value" lines, '#' or ';'
 * comments. Strict: unknown sections and keys, duplicates, trailing garbage
 * and out-of-range values are errors that name file, line and key and list
 * what is valid. Nothing here touches the host.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile.h"

#define MAX_LINE 1024
#define MAX_FILE (1024 * 1024)

struct pctx {
	const char *file;
	struct rtune_profile *p;
	struct rtune_diags *d;
	int line;
	const char *section;
	const char *key;
	int sec_idx;
	uint64_t seen[8];	/* per section: key indexes already given */
};

typedef int (*key_fn)(struct pctx *c, const char *v);

struct key_desc {
	const char *name;
	key_fn fn;
	const char *valid;	/* text for "valid values" in errors */
};

struct sec_desc {
	const char *name;
	const struct key_desc *keys;
	int nkeys;
};

#define ERR(c, code, ...) diag_add((c)->d, RTUNE_SEV_ERROR, (c)->file, (c)->line, \
				   (c)->section, (c)->key, code, __VA_ARGS__)

static const char *const tsa_names[] = { "strict", "cbs", "ets", "vendor" };
static const uint8_t tsa_vals[] = { RTUNE_TSA_STRICT, RTUNE_TSA_CBS, RTUNE_TSA_ETS, RTUNE_TSA_VENDOR };

const char *rtune_tsa_name(uint8_t tsa)
{
	unsigned int i;

	for (i = 0; i < sizeof(tsa_vals); i++)
		if (tsa_vals[i] == tsa)
			return tsa_names[i];
	return "unknown";
}

/* ---- small helpers ---- */

static int parse_uint(const char *s, unsigned long min, unsigned long max,
		      unsigned long *out)
{
	unsigned long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > max)
			return -1;
	}
	if (v < min)
		return -1;
	*out = v;
	return 0;
}

/* Split @v on blanks into at most @max tokens (copied into @buf). */
static int split(const char *v, char *buf, size_t buflen, char **tok, int max)
{
	int n = 0;
	char *s;

	snprintf(buf, buflen, "%s", v);
	for (s = strtok(buf, " \t"); s; s = strtok(NULL, " \t")) {
		if (n == max)
			return -1;
		tok[n++] = s;
	}
	return n;
}

static size_t lev(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t prev = row[0], tmp;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = tolower((unsigned char)a[i - 1]) !=
				      tolower((unsigned char)b[j - 1]);
			size_t best = prev + cost;

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

const char *rtune_suggest(const char *word, const char *const *cands, int n)
{
	const char *best = NULL;
	size_t bestd = 3, wl = strlen(word);
	int i;

	for (i = 0; i < n; i++) {
		size_t d = lev(word, cands[i]);

		if (d < bestd) {
			bestd = d;
			best = cands[i];
		}
	}
	if (best)
		return best;
	/* a long common prefix also counts: "rp_alpha_gain" -> ..._1024ths */
	for (i = 0; i < n; i++)
		if (wl >= 4 && (!strncmp(cands[i], word, wl) ||
				!strncmp(cands[i], word, strlen(cands[i]))))
			return cands[i];
	return NULL;
}

/* ---- [match] ---- */

static int valid_glob(const char *g, size_t maxlen)
{
	const char *s;

	if (!*g || strlen(g) >= maxlen)
		return 0;
	for (s = g; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.:*?[]!@", *s))
			return 0;
	return 1;
}

static int globs(struct pctx *c, const char *v, char (*out)[RTUNE_GLOB_LEN],
		 int *n, size_t maxlen, const char *what)
{
	char buf[MAX_LINE], *tok[RTUNE_MAX_GLOBS];
	int i, k;

	if (*n) {
		ERR(c, "duplicate-key", "given twice");
		return -1;
	}
	k = split(v, buf, sizeof(buf), tok, RTUNE_MAX_GLOBS);
	if (k <= 0) {
		ERR(c, "bad-value", "expected 1 to %d %s names or globs separated by blanks",
		    RTUNE_MAX_GLOBS, what);
		return -1;
	}
	for (i = 0; i < k; i++) {
		if (!valid_glob(tok[i], maxlen)) {
			ERR(c, "bad-value", "'%s' is not a valid %s name or glob (letters, digits, _-.: and * ? [ ], shorter than %zu)",
			    tok[i], what, maxlen);
			return -1;
		}
		snprintf(out[i], RTUNE_GLOB_LEN, "%s", tok[i]);
	}
	*n = k;
	return 0;
}

static int k_netdev(struct pctx *c, const char *v)
{
	return globs(c, v, c->p->netdev_globs, &c->p->n_netdev_globs, 16, "netdev");
}

static int k_rdma(struct pctx *c, const char *v)
{
	return globs(c, v, c->p->rdma_globs, &c->p->n_rdma_globs, RTUNE_GLOB_LEN, "RDMA device");
}

/* ---- [link] ---- */

static int k_mtu(struct pctx *c, const char *v)
{
	unsigned long x;

	if (parse_uint(v, 68, 65535, &x)) {
		ERR(c, "bad-value", "'%s' is not a valid MTU: expected a decimal 68..65535 (4200 for RoCE MTU 4096)", v);
		return -1;
	}
	c->p->has_mtu = true;
	c->p->mtu = (uint32_t)x;
	c->p->w_mtu.line = c->line;
	return 0;
}

static int k_roce_mtu(struct pctx *c, const char *v)
{
	unsigned long x;

	if (parse_uint(v, 256, 4096, &x) || (x & (x - 1))) {
		ERR(c, "bad-value", "'%s' is not a RoCE MTU: expected one of 256, 512, 1024, 2048, 4096", v);
		return -1;
	}
	c->p->has_roce_mtu = true;
	c->p->roce_mtu = (uint32_t)x;
	c->p->w_roce_mtu.line = c->line;
	return 0;
}

/* ---- [pfc] ---- */

static int k_pfc(struct pctx *c, const char *v)
{
	u32 m;

	if (rtune_parse_prio_mask(v, strlen(v), &m)) {
		ERR(c, "bad-value", "'%s' is not a priority list: expected 'none' or priorities 0-7 like '3' or '0,3-5'", v);
		return -1;
	}
	c->p->has_pfc = true;
	c->p->pfc_en = (uint8_t)m;
	c->p->w_pfc.line = c->line;
	return 0;
}

/* ---- [trust] ---- */

static int k_trust_mode(struct pctx *c, const char *v)
{
	if (!strcmp(v, "dscp"))
		c->p->trust = RTUNE_TRUST_DSCP;
	else if (!strcmp(v, "pcp"))
		c->p->trust = RTUNE_TRUST_PCP;
	else {
		ERR(c, "bad-value", "'%s' is not a trust mode: expected 'dscp' or 'pcp'", v);
		return -1;
	}
	c->p->w_trust.line = c->line;
	return 0;
}

static int k_dscp_prio(struct pctx *c, const char *v)
{
	char buf[MAX_LINE], *tok[2 * RTUNE_NUM_DSCP + 1];
	int i, n;
	struct rtune_profile *p = c->p;

	n = split(v, buf, sizeof(buf), tok, (int)(sizeof(tok) / sizeof(tok[0])));
	if (n <= 0) {
		ERR(c, "bad-value", "expected 'default' and/or DSCP:PRIO entries like '26:3 48:6' or '24-31:3'");
		return -1;
	}
	for (i = 0; i < n; i++) {
		unsigned long lo, hi, pr;
		char *colon, *dash;

		if (!strcmp(tok[i], "default")) {
			unsigned int d;

			for (d = 0; d < RTUNE_NUM_DSCP; d++) {
				p->dscp_map_set[d] = 1;
				p->dscp_prio[d] = (uint8_t)(d >> 3);
			}
			continue;
		}
		colon = strchr(tok[i], ':');
		if (!colon)
			goto bad;
		*colon = '\0';
		dash = strchr(tok[i], '-');
		if (dash)
			*dash = '\0';
		if (parse_uint(tok[i], 0, 63, &lo))
			goto bad;
		hi = lo;
		if (dash && (parse_uint(dash + 1, 0, 63, &hi) || hi < lo))
			goto bad;
		if (parse_uint(colon + 1, 0, 7, &pr))
			goto bad;
		for (; lo <= hi; lo++) {
			p->dscp_map_set[lo] = 1;
			p->dscp_prio[lo] = (uint8_t)pr;
		}
	}
	p->has_dscp_map = true;
	p->w_map.line = c->line;
	return 0;
bad:
	ERR(c, "bad-value", "bad entry in '%s': expected 'default' or DSCP:PRIO / DSCP-DSCP:PRIO with DSCP 0-63 and PRIO 0-7", v);
	return -1;
}

/* ---- [ets] ---- */

static int eight(struct pctx *c, const char *v, uint8_t *out, unsigned long max,
		 const char *what)
{
	char buf[MAX_LINE], *tok[9];
	unsigned long x;
	int i, n;

	n = split(v, buf, sizeof(buf), tok, 9);
	if (n != 8) {
		ERR(c, "bad-value", "expected exactly 8 %s values (one per %s), got %d",
		    what, strcmp(what, "TC") ? "traffic class" : "priority", n < 0 ? 9 : n);
		return -1;
	}
	for (i = 0; i < 8; i++) {
		if (parse_uint(tok[i], 0, max, &x)) {
			ERR(c, "bad-value", "'%s' is not a valid %s: expected 0..%lu", tok[i], what, max);
			return -1;
		}
		out[i] = (uint8_t)x;
	}
	return 0;
}

static int k_prio_tc(struct pctx *c, const char *v)
{
	if (eight(c, v, c->p->prio_tc, 7, "TC"))
		return -1;
	c->p->w_ets.line = c->line;
	return 0;
}

static int k_bw(struct pctx *c, const char *v)
{
	c->p->w_bw.line = c->line;
	return eight(c, v, c->p->tc_bw, 100, "bandwidth percentage");
}

static int k_tsa(struct pctx *c, const char *v)
{
	char buf[MAX_LINE], *tok[9];
	int i, n;
	unsigned int j;

	n = split(v, buf, sizeof(buf), tok, 9);
	if (n != 8) {
		ERR(c, "bad-value", "expected exactly 8 TSA names (one per traffic class): strict, ets, cbs or vendor");
		return -1;
	}
	for (i = 0; i < 8; i++) {
		for (j = 0; j < 4; j++)
			if (!strcmp(tok[i], tsa_names[j]))
				break;
		if (j == 4) {
			ERR(c, "bad-value", "'%s' is not a TSA: expected strict, ets, cbs or vendor", tok[i]);
			return -1;
		}
		c->p->tc_tsa[i] = tsa_vals[j];
	}
	return 0;
}

/* ---- [rdma_cm] ---- */

static int k_roce_mode(struct pctx *c, const char *v)
{
	if (!strcmp(v, "v2"))
		c->p->roce_mode = 2;
	else if (!strcmp(v, "v1"))
		c->p->roce_mode = 1;
	else {
		ERR(c, "bad-value", "'%s' is not a RoCE mode: expected 'v2' or 'v1'", v);
		return -1;
	}
	c->p->has_roce_mode = true;
	c->p->w_mode.line = c->line;
	return 0;
}

static int k_tos(struct pctx *c, const char *v)
{
	unsigned long x;

	if (parse_uint(v, 0, 255, &x)) {
		ERR(c, "bad-value", "'%s' is not a ToS byte: expected a decimal 0..255 (DSCP<<2 | ECN, e.g. 106 = DSCP 26 + ECT(0))", v);
		return -1;
	}
	c->p->has_tos = true;
	c->p->tos = (uint8_t)x;
	c->p->w_tos.line = c->line;
	return 0;
}

/* ---- [cc] ---- */

static int k_preset(struct pctx *c, const char *v)
{
	const struct rtune_preset *pr = rtune_preset_lookup(v, strlen(v));
	char names[128] = "";
	unsigned int i;

	if (!pr) {
		for (i = 0; i < rtune_preset_count; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names),
				 "%s%s", i ? ", " : "", rtune_presets[i].name);
		ERR(c, "bad-value", "'%s' is not a preset: expected one of %s", v, names);
		return -1;
	}
	c->p->preset = pr;
	c->p->has_cc = true;
	c->p->w_preset.line = c->line;
	return 0;
}

static int cc_param(struct pctx *c, int id, const char *v)
{
	const struct rtune_param_desc *pd = &rtune_param_descs[id];
	u32 x;

	if (rtune_param_parse((enum rtune_param_id)id, v, strlen(v), &x)) {
		if (pd->kind == RTUNE_KIND_PRIO_MASK)
			ERR(c, "bad-value", "'%s' is not a priority list: expected 'none' or priorities 0-7 like '3' or '0,3-5'", v);
		else if (pd->kind == RTUNE_KIND_BOOL)
			ERR(c, "bad-value", "'%s' is not valid: expected 0 or 1", v);
		else
			ERR(c, "bad-value", "'%s' is not valid: expected a decimal %u..%u (%s)",
			    v, pd->min, pd->max, pd->unit);
		return -1;
	}
	c->p->cc.v[id] = x;
	c->p->cc_set_mask |= 1u << id;
	c->p->has_cc = true;
	c->p->w_cc[id].line = c->line;
	return 0;
}

/* ---- tables ---- */

static const struct key_desc match_keys[] = {
	{ "netdev", k_netdev, "netdev name globs" },
	{ "rdma_device", k_rdma, "RDMA device name globs" },
};
static const struct key_desc link_keys[] = {
	{ "mtu", k_mtu, "68..65535" },
	{ "roce_mtu", k_roce_mtu, "256|512|1024|2048|4096" },
};
static const struct key_desc pfc_keys[] = {
	{ "priorities", k_pfc, "priority list" },
};
static const struct key_desc trust_keys[] = {
	{ "mode", k_trust_mode, "dscp|pcp" },
	{ "dscp_prio", k_dscp_prio, "default, DSCP:PRIO" },
};
static const struct key_desc ets_keys[] = {
	{ "prio_tc", k_prio_tc, "8 TCs" },
	{ "tsa", k_tsa, "8 TSAs" },
	{ "bw", k_bw, "8 percentages" },
};
static const struct key_desc cm_keys[] = {
	{ "roce_mode", k_roce_mode, "v1|v2" },
	{ "tos", k_tos, "0..255" },
};
static const struct key_desc cc_keys[] = {
	{ "preset", k_preset, "preset name" },
};

static const struct sec_desc sections[] = {
	{ "match", match_keys, 2 },
	{ "link", link_keys, 2 },
	{ "pfc", pfc_keys, 1 },
	{ "trust", trust_keys, 2 },
	{ "ets", ets_keys, 3 },
	{ "rdma_cm", cm_keys, 2 },
	{ "cc", cc_keys, 1 },
};
#define NSECT ((int)(sizeof(sections) / sizeof(sections[0])))
#define SEC_ETS 4
#define SEC_CC 6

static void list_keys(int s, char *buf, size_t len)
{
	int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < sections[s].nkeys && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				      sections[s].keys[i].name);
	if (s == SEC_CC && n < len)
		snprintf(buf + n, len - n, " and the CC parameters (rocetune params)");
}

static int do_key(struct pctx *c, const char *key, const char *val)
{
	const struct sec_desc *s = &sections[c->sec_idx];
	const char *cands[RTUNE_P_COUNT + 8];
	char valid[512];
	int i, nc = 0, bit;

	for (i = 0; i < s->nkeys; i++) {
		if (!strcmp(key, s->keys[i].name)) {
			bit = i;
			goto found;
		}
		cands[nc++] = s->keys[i].name;
	}
	if (c->sec_idx == SEC_CC) {
		int id = rtune_param_lookup(key, strlen(key));

		if (id >= 0) {
			bit = s->nkeys + id;
			if (c->seen[c->sec_idx] & (1ull << bit))
				goto dup;
			c->seen[c->sec_idx] |= 1ull << bit;
			return cc_param(c, id, val);
		}
		for (i = 0; i < RTUNE_P_COUNT; i++)
			cands[nc++] = rtune_param_descs[i].name;
	}
	{
		const char *sg = rtune_suggest(key, cands, nc);

		list_keys(c->sec_idx, valid, sizeof(valid));
		if (sg)
			ERR(c, "unknown-key", "unknown key '%s' (did you mean '%s'?); valid keys in [%s]: %s",
			    key, sg, s->name, valid);
		else
			ERR(c, "unknown-key", "unknown key '%s'; valid keys in [%s]: %s",
			    key, s->name, valid);
	}
	return -1;
found:
	if (c->seen[c->sec_idx] & (1ull << bit))
		goto dup;
	c->seen[c->sec_idx] |= 1ull << bit;
	return s->keys[bit].fn(c, val);
dup:
	ERR(c, "duplicate-key", "'%s' is given twice in [%s]", key, s->name);
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int valid_ident(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

int profile_parse_text(const char *name, const char *text, size_t len,
		       struct rtune_profile *p, struct rtune_diags *d)
{
	struct pctx c = { .file = name, .p = p, .d = d, .sec_idx = -1 };
	int errs0 = d->nerr;
	size_t pos = 0;
	int in_bad_section = 0;

	memset(p, 0, sizeof(*p));
	snprintf(p->path, sizeof(p->path), "%s", name);
	p->roce_mtu = 4096;

	while (pos < len) {
		char line[MAX_LINE + 2], *s, *eq, *key, *val;
		size_t e = pos, n;

		while (e < len && text[e] != '\n')
			e++;
		n = e - pos;
		c.line++;
		c.section = c.sec_idx >= 0 ? sections[c.sec_idx].name : "";
		c.key = "";
		if (memchr(text + pos, '\0', n)) {
			ERR(&c, "syntax", "NUL byte in line");
			pos = e + 1;
			continue;
		}
		if (n > MAX_LINE) {
			ERR(&c, "syntax", "line longer than %d characters", MAX_LINE);
			pos = e + 1;
			continue;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos = e + 1;

		/* comments: whole-line '#'/';', or ' #' after a value */
		s = trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		{
			char *h = strstr(s, " #");
			char *h2 = strstr(s, "\t#");

			if (h2 && (!h || h2 < h))
				h = h2;
			if (h)
				*h = '\0';
			s = trim(s);
		}
		if (*s == '[') {
			char *end = strchr(s, ']');
			int i;

			if (!end || end[1]) {
				ERR(&c, "syntax", "malformed section header: expected [name]");
				in_bad_section = 1;
				continue;
			}
			*end = '\0';
			s = trim(s + 1);
			for (i = 0; i < NSECT; i++)
				if (!strcmp(s, sections[i].name))
					break;
			if (i == NSECT) {
				const char *cands[NSECT];
				const char *sg;
				int j;

				for (j = 0; j < NSECT; j++)
					cands[j] = sections[j].name;
				sg = rtune_suggest(s, cands, NSECT);
				c.section = s;
				ERR(&c, "unknown-section", "unknown section [%s]%s%s%s; valid sections: match, link, pfc, trust, ets, rdma_cm, cc",
				    s, sg ? " (did you mean [" : "", sg ? sg : "", sg ? "]?)" : "");
				in_bad_section = 1;
				c.sec_idx = -1;
				continue;
			}
			c.sec_idx = i;
			in_bad_section = 0;
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			ERR(&c, "syntax", "expected 'key = value' or '[section]', got '%.60s'", s);
			continue;
		}
		*eq = '\0';
		key = trim(s);
		val = trim(eq + 1);
		c.key = key;
		if (!valid_ident(key)) {
			c.key = "";
			ERR(&c, "syntax", "'%.60s' is not a key name (letters, digits, _)", key);
			continue;
		}
		if (c.sec_idx < 0) {
			if (!in_bad_section)
				ERR(&c, "no-section", "key outside any section: start with [match]");
			continue;
		}
		if (!*val) {
			ERR(&c, "empty-value", "empty value");
			continue;
		}
		do_key(&c, key, val);
	}

	/* whole-file structural checks */
	c.line = 0;
	c.key = "";
	if (!p->n_netdev_globs && !p->n_rdma_globs) {
		c.section = "match";
		ERR(&c, "no-match", "the profile matches no device: [match] needs netdev = or rdma_device =");
	}
	if (c.seen[SEC_ETS] && c.seen[SEC_ETS] != 7) {
		c.section = "ets";
		ERR(&c, "incomplete-ets", "[ets] needs all of prio_tc, tsa and bw");
	} else if (c.seen[SEC_ETS]) {
		p->has_ets = true;
	}
	if (p->preset) {
		/* preset values first, then the explicit overrides */
		struct rtune_param_set s = p->preset->set;
		int i;

		for (i = 0; i < RTUNE_P_COUNT; i++)
			if (p->cc_set_mask & (1u << i))
				s.v[i] = p->cc.v[i];
		p->cc = s;
		p->cc_set_mask = (1u << RTUNE_P_COUNT) - 1;
	}
	return d->nerr > errs0 ? -1 : 0;
}

int profile_parse_file(const char *path, struct rtune_profile *p, struct rtune_diags *d)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int ret;

	if (!f) {
		diag_add(d, RTUNE_SEV_ERROR, path, 0, "", "", "open",
			 "cannot open: %s", strerror(errno));
		return -1;
	}
	buf = malloc(MAX_FILE + 1);
	if (!buf) {
		fclose(f);
		return -1;
	}
	n = fread(buf, 1, MAX_FILE + 1, f);
	if (ferror(f) || n > MAX_FILE) {
		diag_add(d, RTUNE_SEV_ERROR, path, 0, "", "", "open",
			 n > MAX_FILE ? "file larger than 1 MiB" : "read error");
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	ret = profile_parse_text(path, buf, n, p, d);
	free(buf);
	return ret;
}

bool profile_matches(const struct rtune_profile *p, const char *netdev,
		     const char *ibdev)
{
	int i;

	for (i = 0; netdev && *netdev && i < p->n_netdev_globs; i++)
		if (!fnmatch(p->netdev_globs[i], netdev, 0))
			return true;
	for (i = 0; ibdev && *ibdev && i < p->n_rdma_globs; i++)
		if (!fnmatch(p->rdma_globs[i], ibdev, 0))
			return true;
	return false;
}

int profile_dscp_prio(const struct rtune_profile *p, unsigned int dscp)
{
	if (dscp >= RTUNE_NUM_DSCP || !p->dscp_map_set[dscp])
		return -1;
	return p->dscp_prio[dscp];
}
