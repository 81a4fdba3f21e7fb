// SPDX-License-Identifier: GPL-2.0
/*
 * rocetune.conf(5) parser: INI sections, "key = value" lines, '#' or ';'
 * comments. Strict: unknown sections and keys, duplicates, trailing garbage
 * and out-of-range values are errors that name file, line and key and list
 * what is valid. Nothing here touches the host.
 */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "obj.h"
#include "profile.h"

#define MAX_FILE (1024 * 1024)

/* The parser's state: the context the keys see, and per section the keys
 * already given (bit i: keys[i]; bit nkeys + j: the j-th extra key). */
struct pctx {
	struct rtune_pctx c;
	int sec_idx;
	uint64_t seen[RTUNE_MAX_OBJS + 1];
};

#define ERR(c, code, ...) rtune_key_err(c, code, __VA_ARGS__)

void rtune_key_err(struct rtune_pctx *c, const char *code, const char *fmt, ...)
{
	char msg[sizeof(((struct rtune_diag *)0)->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_add(c->d, RTUNE_SEV_ERROR, c->file, c->line, c->section, c->key, code, "%s", msg);
}

/* ---- small helpers ---- */

int rtune_parse_uint(const char *s, unsigned long min, unsigned long max,
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
int rtune_split(const char *v, char *buf, size_t buflen, char **tok, int max)
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

static int globs(struct rtune_pctx *c, const char *v, char (*out)[RTUNE_GLOB_LEN],
		 int *n, size_t maxlen, const char *what)
{
	char buf[RTUNE_MAX_LINE], *tok[RTUNE_MAX_GLOBS];
	int i, k;

	if (*n) {
		ERR(c, "duplicate-key", "given twice");
		return -1;
	}
	k = rtune_split(v, buf, sizeof(buf), tok, RTUNE_MAX_GLOBS);
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

static int k_netdev(struct rtune_pctx *c, const char *v)
{
	return globs(c, v, c->p->netdev_globs, &c->p->n_netdev_globs, 16, "netdev");
}

static int k_rdma(struct rtune_pctx *c, const char *v)
{
	return globs(c, v, c->p->rdma_globs, &c->p->n_rdma_globs, RTUNE_GLOB_LEN, "RDMA device");
}

/* ---- sections: [match] here, the others from the objects ---- */

static const struct rtune_key match_keys[] = {
	{ "netdev", k_netdev },
	{ "rdma_device", k_rdma },
	{ NULL },
};

static void match_finish(struct rtune_pctx *c, uint64_t seen, uint64_t all)
{
	(void)seen;
	(void)all;
	if (!c->p->n_netdev_globs && !c->p->n_rdma_globs)
		ERR(c, "no-match", "the profile matches no device: [match] needs netdev = or rdma_device =");
}

static const struct rtune_section match_section = {
	.name = "match",
	.keys = match_keys,
	.finish = match_finish,
};

/* Section @i: 0 is [match], then each object's, in registry order. */
static const struct rtune_section *section(int i)
{
	int k, o;

	if (i == 0)
		return &match_section;
	for (k = o = 0; rtune_objs[o]; o++)
		if (rtune_objs[o]->section && ++k == i)
			return rtune_objs[o]->section;
	return NULL;
}

static int nkeys(const struct rtune_section *s)
{
	int n = 0;

	while (s->keys[n].name)
		n++;
	return n;
}

static void list_keys(const struct rtune_section *s, char *buf, size_t len)
{
	int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; s->keys[i].name && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", s->keys[i].name);
	if (s->more_what && n < len)
		snprintf(buf + n, len - n, " %s", s->more_what);
}

/* Has key bit @bit of the current section been given? Marks it. */
static bool given_twice(struct pctx *c, int bit)
{
	uint64_t m = 1ull << bit;

	if (c->seen[c->sec_idx] & m)
		return true;
	c->seen[c->sec_idx] |= m;
	return false;
}

static int do_key(struct pctx *c, const char *key, const char *val)
{
	const struct rtune_section *s = section(c->sec_idx);
	int i, nc = 0, nk = nkeys(s), id;
	const char **cands;
	char valid[512];
	const char *sg;

	for (i = 0; i < nk; i++) {
		if (strcmp(key, s->keys[i].name))
			continue;
		if (given_twice(c, i))
			goto dup;
		return s->keys[i].parse(&c->c, val);
	}
	if (s->more_lookup) {
		id = s->more_lookup(key);
		if (id >= 0) {
			if (given_twice(c, nk + id))
				goto dup;
			return s->more_parse(&c->c, id, val);
		}
	}
	cands = malloc(sizeof(*cands) * (size_t)(nk + s->nmore));
	if (!cands)
		abort();
	for (i = 0; i < nk; i++)
		cands[nc++] = s->keys[i].name;
	for (i = 0; i < s->nmore; i++)
		cands[nc++] = s->more_name(i);
	sg = rtune_suggest(key, cands, nc);
	free(cands);
	list_keys(s, valid, sizeof(valid));
	if (sg)
		ERR(&c->c, "unknown-key", "unknown key '%s' (did you mean '%s'?); valid keys in [%s]: %s",
		    key, sg, s->name, valid);
	else
		ERR(&c->c, "unknown-key", "unknown key '%s'; valid keys in [%s]: %s",
		    key, s->name, valid);
	return -1;
dup:
	ERR(&c->c, "duplicate-key", "'%s' is given twice in [%s]", key, s->name);
	return -1;
}

static void unknown_section(struct pctx *c, const char *name)
{
	const char *cands[RTUNE_MAX_OBJS + 1];
	char valid[256];
	const char *sg;
	size_t n = 0;
	int i;

	valid[0] = '\0';
	for (i = 0; section(i); i++) {
		cands[i] = section(i)->name;
		n += (size_t)snprintf(valid + n, sizeof(valid) - n, "%s%s", i ? ", " : "",
				      cands[i]);
		if (n >= sizeof(valid))
			break;
	}
	sg = rtune_suggest(name, cands, i);
	c->c.section = name;
	ERR(&c->c, "unknown-section", "unknown section [%s]%s%s%s; valid sections: %s",
	    name, sg ? " (did you mean [" : "", sg ? sg : "", sg ? "]?)" : "", valid);
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
	struct pctx c = { .c = { .file = name, .p = p, .d = d }, .sec_idx = -1 };
	const struct rtune_section *sec;
	int errs0 = d->nerr;
	size_t pos = 0;
	int in_bad_section = 0, i;

	memset(p, 0, sizeof(*p));
	snprintf(p->path, sizeof(p->path), "%s", name);
	p->roce_mtu = 4096;

	while (pos < len) {
		char line[RTUNE_MAX_LINE + 2], *s, *eq, *key, *val;
		size_t e = pos, n;

		while (e < len && text[e] != '\n')
			e++;
		n = e - pos;
		c.c.line++;
		c.c.section = c.sec_idx >= 0 ? section(c.sec_idx)->name : "";
		c.c.key = "";
		if (memchr(text + pos, '\0', n)) {
			ERR(&c.c, "syntax", "NUL byte in line");
			pos = e + 1;
			continue;
		}
		if (n > RTUNE_MAX_LINE) {
			ERR(&c.c, "syntax", "line longer than %d characters", RTUNE_MAX_LINE);
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

			if (!end || end[1]) {
				ERR(&c.c, "syntax", "malformed section header: expected [name]");
				in_bad_section = 1;
				continue;
			}
			*end = '\0';
			s = trim(s + 1);
			for (i = 0; (sec = section(i)); i++)
				if (!strcmp(s, sec->name))
					break;
			if (!sec) {
				unknown_section(&c, s);
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
			ERR(&c.c, "syntax", "expected 'key = value' or '[section]', got '%.60s'", s);
			continue;
		}
		*eq = '\0';
		key = trim(s);
		val = trim(eq + 1);
		c.c.key = key;
		if (!valid_ident(key)) {
			c.c.key = "";
			ERR(&c.c, "syntax", "'%.60s' is not a key name (letters, digits, _)", key);
			continue;
		}
		if (c.sec_idx < 0) {
			if (!in_bad_section)
				ERR(&c.c, "no-section", "key outside any section: start with [match]");
			continue;
		}
		if (!*val) {
			ERR(&c.c, "empty-value", "empty value");
			continue;
		}
		do_key(&c, key, val);
	}

	/* whole-file checks, section by section */
	c.c.line = 0;
	c.c.key = "";
	for (i = 0; (sec = section(i)); i++) {
		if (!sec->finish)
			continue;
		c.c.section = sec->name;
		sec->finish(&c.c, c.seen[i], (1ull << nkeys(sec)) - 1);
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
