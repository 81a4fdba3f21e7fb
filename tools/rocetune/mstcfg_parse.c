// SPDX-License-Identifier: GPL-2.0
/*
 * The parser of `mstconfig -d DEV query` (mstcfg.h). The layout, as
 * mstflint's mlxconfig/mlxcfg_ui.cpp prints it (checked in the sources of
 * v4.21.0-1, Debian 12's mstflint 4.21.0+1-1, and of v4.36.0-1:
 * MlxCfg::printOpening, printConfHeader, printSingleParam, printValue,
 * queryDevCfg; mstconfig is that file built with MLXCFG_NAME "mstconfig"):
 *
 *   (empty line)
 *   Device #1:
 *   ----------
 *   (empty line)
 *   Device type:    ConnectX6DX
 *   Name:           ...            (not on 4th-generation devices)
 *   Description:    ...
 *   Device:         0000:3b:00.0
 *   (empty line)
 *   Configurations:                              Next Boot
 *            ROCE_CC_PRIO_MASK_P1                255
 *            ROCE_CC_ALGORITHM_P1                ECN(0)
 *
 * 4.21: a row is "%c        %-36s" (the '*' mark or a blank, the name),
 * then each value "%-16s" with a blank between two only when a value is
 * longer than 16. 4.26 and later: "%c%s     %-48s" where %s is "RO" for
 * a read-only parameter (else two blanks), values 33 wide. With -e
 * (--enable_verbosity) the header names Default, Current and Next Boot
 * and '*' marks a row whose next value differs; a plain query has the
 * Next Boot column only, which is what rocetune runs. A value is
 * "%u", LABEL(number) for enums and booleans (ECN(0), True(1)), N/A (the
 * device default) or Array[a..b]. A per-port parameter is named NAME_Pn
 * for n = 1 .. the device's port count (MGIR num_ports; 8 when MGIR
 * fails: mlxcfg_tlv.cpp TLVConf::getView, getMaxPort).
 *
 * Errors are printed to stdout as "-E- text", where text may go on over
 * indented lines ("-E- Failed to query some of the TLVs:" after the
 * table, then the TLV names); the exit status is then non-zero. With -d,
 * one device is printed ("Device #1"); without it, one section per device.
 *
 * Everything here is bounded by the input: lines over
 * RTUNE_MSTCFG_MAX_LINE, NUL bytes, a parameter of ours twice, with the
 * wrong number of columns or a value that is not a number, and a second
 * Configurations section are errors that say where.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mstcfg.h"

const char *const rtune_nv_names[RTUNE_NV_COUNT] = {
	[RTUNE_NV_PRIO_MASK] = "ROCE_CC_PRIO_MASK",
	[RTUNE_NV_ALGORITHM] = "ROCE_CC_ALGORITHM",
	[RTUNE_NV_CLAMP_TGT_RATE] = "CLAMP_TGT_RATE",
	[RTUNE_NV_CLAMP_TGT_RATE_ATI] = "CLAMP_TGT_RATE_AFTER_TIME_INC",
	[RTUNE_NV_TIME_RESET] = "RPG_TIME_RESET",
	[RTUNE_NV_BYTE_RESET] = "RPG_BYTE_RESET",
	[RTUNE_NV_THRESHOLD] = "RPG_THRESHOLD",
	[RTUNE_NV_MAX_RATE] = "RPG_MAX_RATE",
	[RTUNE_NV_AI_RATE] = "RPG_AI_RATE",
	[RTUNE_NV_HAI_RATE] = "RPG_HAI_RATE",
	[RTUNE_NV_GD] = "RPG_GD",
	[RTUNE_NV_MIN_DEC_FAC] = "RPG_MIN_DEC_FAC",
	[RTUNE_NV_MIN_RATE] = "RPG_MIN_RATE",
	[RTUNE_NV_RATE_FIRST_CNP] = "RATE_TO_SET_ON_FIRST_CNP",
	[RTUNE_NV_DCE_TCP_G] = "DCE_TCP_G",
	[RTUNE_NV_DCE_TCP_RTT] = "DCE_TCP_RTT",
	[RTUNE_NV_RATE_REDUCE_PERIOD] = "RATE_REDUCE_MONITOR_PERIOD",
	[RTUNE_NV_INITIAL_ALPHA] = "INITIAL_ALPHA_VALUE",
	[RTUNE_NV_MIN_TIME_CNPS] = "MIN_TIME_BETWEEN_CNPS",
	[RTUNE_NV_CNP_802P_PRIO] = "CNP_802P_PRIO",
	[RTUNE_NV_CNP_PRIO_MODE] = "CNP_RES_PRIO_MODE",
	[RTUNE_NV_CNP_DSCP] = "CNP_DSCP",
};

_Static_assert(RTUNE_NV_COUNT <= 32, "NV parameters fit the masks");

#define MAX_COLS 4
#define MAX_TOKENS (MAX_COLS + 3)	/* "*", "RO", the name, the values */

/* Our parameter @name ("CNP_DSCP_P1" for port 1), or -1. */
static int nv_lookup(const char *name, int port)
{
	size_t n = strlen(name);
	int i;

	if (n < 4 || name[n - 3] != '_' || name[n - 2] != 'P' || name[n - 1] != '0' + port)
		return -1;
	for (i = 0; i < RTUNE_NV_COUNT; i++)
		if (strlen(rtune_nv_names[i]) == n - 3 && !strncmp(name, rtune_nv_names[i], n - 3))
			return i;
	return -1;
}

/* A decimal or 0x number that fits a u32, all of @s. */
static bool parse_num(const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;
	int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!isxdigit((unsigned char)*s))
			return false;
	} else if (!isdigit((unsigned char)*s)) {
		return false;
	}
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

/*
 * One value: 1 a number in *v, 0 not available (N/A, Array[..]), -1 not
 * a value at all.
 */
static int parse_value(char *s, uint32_t *v)
{
	char *lp;
	size_t n = strlen(s);

	if (!strcmp(s, "N/A") || !strncmp(s, "Array[", 6))
		return 0;
	if (parse_num(s, v))
		return 1;
	/* LABEL(number): an enum or a boolean */
	lp = strchr(s, '(');
	if (!lp || lp == s || n < 3 || s[n - 1] != ')')
		return -1;
	s[n - 1] = '\0';
	return parse_num(lp + 1, v) ? 1 : -1;
}

/* Split @l at runs of blanks; the first @max tokens go to @tok. Returns
 * the number of tokens, which may be more than @max. */
static int split(char *l, char **tok, int max)
{
	int n = 0;

	for (;;) {
		while (*l == ' ' || *l == '\t')
			l++;
		if (!*l)
			return n;
		if (n < max)
			tok[n] = l;
		n++;
		while (*l && *l != ' ' && *l != '\t')
			l++;
		if (*l)
			*l++ = '\0';
	}
}

/* The header's column names (split at two or more blanks); -1 if too many. */
static int header_cols(const char *h, char cols[MAX_COLS][16])
{
	int n = 0;

	for (;;) {
		const char *s, *e;
		size_t len;

		while (*h == ' ' || *h == '\t')
			h++;
		if (!*h)
			return n;
		s = h;
		while (*h && *h != '\t' && !(h[0] == ' ' && (h[1] == ' ' || h[1] == '\t' || !h[1])))
			h++;
		e = h;
		if (n == MAX_COLS)
			return -1;
		len = (size_t)(e - s);
		snprintf(cols[n++], 16, "%.*s", (int)(len < 16 ? len : 15), s);
	}
}

/*
 * The error of an "-E-" line @line into @err, with the indented lines
 * that follow it at @pos (the rest of its text), joined by blanks.
 */
static void e_line(const char *text, size_t len, size_t pos, const char *line, char *err,
		   size_t elen)
{
	size_t n;

	n = (size_t)snprintf(err, elen, "mstconfig: %.200s", line);
	if (n >= elen)
		n = elen - 1;
	while (pos < len && n + 1 < elen && (text[pos] == ' ' || text[pos] == '\t')) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - (text + pos)) : len - pos, k;

		for (k = 0; k < l && n + 1 < elen; k++) {
			char c = text[pos + k];

			if (c == '\r' || c == '\t')
				c = ' ';
			if (c == ' ' && n && err[n - 1] == ' ')
				continue;	/* runs of blanks as one */
			if (!isprint((unsigned char)c))
				c = '?';
			err[n++] = c;
		}
		err[n] = '\0';
		pos += l + (nl ? 1 : 0);
	}
	while (n && err[n - 1] == ' ')
		err[--n] = '\0';
}

int rtune_mstcfg_parse(const char *text, size_t len, int port, struct rtune_nvcc *nv,
		       char *err, size_t elen)
{
	char line[RTUNE_MSTCFG_MAX_LINE + 1], cols[MAX_COLS][16];
	int lineno = 0, ncols = 0, next_col = -1;
	bool in_cfg = false, seen_cfg = false;
	size_t pos = 0;

	memset(nv, 0, sizeof(*nv));
	err[0] = '\0';
	if (len > RTUNE_MSTCFG_MAX_OUT) {
		snprintf(err, elen, "mstconfig printed more than %d bytes", RTUNE_MSTCFG_MAX_OUT);
		return -E2BIG;
	}
	if (port < 1 || port > RTUNE_NV_MAX_PORT) {
		snprintf(err, elen, "port %d: NVconfig names ports 1 to %d", port,
			 RTUNE_NV_MAX_PORT);
		return -EINVAL;
	}
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		char *tok[MAX_TOKENS], *name;
		int ntok, id, i, r;

		lineno++;
		if (n > RTUNE_MSTCFG_MAX_LINE) {
			snprintf(err, elen, "line %d is longer than %d bytes", lineno,
				 RTUNE_MSTCFG_MAX_LINE);
			return -EPROTO;
		}
		if (memchr(text + pos, '\0', n)) {
			snprintf(err, elen, "line %d has a NUL byte: not text", lineno);
			return -EPROTO;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + (nl ? 1 : 0);
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		if (!strncmp(line, "-E-", 3)) {
			e_line(text, len, pos, line, err, elen);
			return -EPROTO;
		}
		if (!strncmp(line, "Configurations:", 15)) {
			if (seen_cfg) {
				snprintf(err, elen,
					 "line %d: a second Configurations section (more than one device?)",
					 lineno);
				return -EPROTO;
			}
			seen_cfg = in_cfg = true;
			ncols = header_cols(line + 15, cols);
			for (i = 0; i < ncols; i++)
				if (!strcmp(cols[i], "Next Boot"))
					next_col = i;
			if (ncols <= 0 || next_col < 0) {
				snprintf(err, elen,
					 "line %d: the Configurations header has no \"Next Boot\" column",
					 lineno);
				return -EPROTO;
			}
			continue;
		}
		if (!in_cfg)
			continue;
		/* the section is the indented lines after its header */
		if (line[0] != ' ' && line[0] != '\t' && line[0] != '*') {
			if (line[0])
				in_cfg = false;
			continue;
		}
		ntok = split(line, tok, MAX_TOKENS);
		if (ntok <= 0)
			continue;
		i = 0;
		if (!strcmp(tok[0], "*"))
			i = 1;
		else if (tok[0][0] == '*')
			tok[0]++;	/* "*NAME", "*RO" */
		if (i < ntok && i < MAX_TOKENS && !strcmp(tok[i], "RO"))
			i++;		/* 4.26+: a read-only parameter */
		if (i >= ntok || i >= MAX_TOKENS)
			continue;
		name = tok[i];
		id = nv_lookup(name, port);
		if (id < 0)
			continue;	/* not ours: not checked */
		if (ntok - i - 1 != ncols) {
			snprintf(err, elen, "line %d: %s has %d values for %d columns", lineno,
				 name, ntok - i - 1, ncols);
			return -EPROTO;
		}
		if ((nv->valid | nv->na) & (1u << id)) {
			snprintf(err, elen, "line %d: %s appears twice", lineno, name);
			return -EPROTO;
		}
		r = parse_value(tok[i + 1 + next_col], &nv->v[id]);
		if (r < 0) {
			snprintf(err, elen, "line %d: %s: \"%.40s\" is not a number", lineno, name,
				 tok[i + 1 + next_col]);
			return -EPROTO;
		}
		nv->v[id] = r ? nv->v[id] : 0;
		nv->valid |= (uint32_t)(r == 1) << id;
		nv->na |= (uint32_t)(r == 0) << id;
	}
	if (!seen_cfg) {
		snprintf(err, elen, "no \"Configurations:\" section in mstconfig's output (%d lines)",
			 lineno);
		return -EPROTO;
	}
	return 0;
}
