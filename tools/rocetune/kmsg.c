// SPDX-License-Identifier: GPL-2.0
/* The kernel log from a point on (kmsg.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "kmsg.h"

int rtune_kmsg_open(struct rtune_kmsg *k, const char *path)
{
	k->fill = 0;
	k->fd = open(path ? path : "/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0)
		return -errno;
	/* /dev/kmsg: SEEK_END moves past every record logged so far */
	if (lseek(k->fd, 0, SEEK_END) < 0) {
		int e = errno;

		close(k->fd);
		k->fd = -1;
		return -e;
	}
	return 0;
}

void rtune_kmsg_close(struct rtune_kmsg *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

bool rtune_kmsg_text(const char *line, size_t n, const char **text, size_t *tlen)
{
	const char *semi = memchr(line, ';', n);
	size_t i;

	if (!semi || semi == line)
		return false;
	/* the prefix: digits, commas and the flag characters ('-', 'c') */
	for (i = 0; line + i < semi; i++)
		if (!strchr("0123456789,-c", line[i]))
			return false;
	*text = semi + 1;
	*tlen = n - (size_t)(semi + 1 - line);
	return true;
}

/* Drop the first @off bytes of k->buf: lines already looked at. */
static void consume(struct rtune_kmsg *k, size_t off)
{
	memmove(k->buf, k->buf + off, k->fill - off);
	k->fill -= off;
}

/*
 * The complete lines in k->buf: a record's first line is matched, its
 * continuation lines (" KEY=value") skipped. Keeps an incomplete line.
 */
static int lines(struct rtune_kmsg *k, rtune_kmsg_match match, const void *arg, char *hit,
		 size_t hlen, int *records)
{
	size_t off = 0;
	char *nl;

	while ((nl = memchr(k->buf + off, '\n', k->fill - off))) {
		const char *line = k->buf + off, *text;
		size_t n = (size_t)(nl - line), tlen;

		off += n + 1;
		if (!n || *line == ' ')
			continue;
		if (++*records > RTUNE_KMSG_MAX_RECORDS)
			return -EOVERFLOW;
		if (!rtune_kmsg_text(line, n, &text, &tlen) || !match(text, tlen, arg))
			continue;
		if (hlen) {
			if (tlen >= hlen)
				tlen = hlen - 1;
			memcpy(hit, text, tlen);
			hit[tlen] = '\0';
		}
		consume(k, off);
		return 1;
	}
	consume(k, off);
	return 0;
}

int rtune_kmsg_scan(struct rtune_kmsg *k, rtune_kmsg_match match, const void *arg, char *hit,
		    size_t hlen)
{
	int records = 0, r;

	if (hlen)
		hit[0] = '\0';
	for (;;) {
		ssize_t n;

		if (k->fill == sizeof(k->buf))
			return -EOVERFLOW;	/* a line longer than any record */
		n = read(k->fd, k->buf + k->fill, sizeof(k->buf) - k->fill);
		if (n < 0 && errno == EINTR)
			continue;
		/* EAGAIN: nothing more logged; 0: the end of a plain file */
		if ((n < 0 && errno == EAGAIN) || n == 0)
			return 0;
		/* the log wrapped past our position: records were lost */
		if (n < 0 && errno == EPIPE)
			return -EOVERFLOW;
		if (n < 0)
			return -errno;
		k->fill += (size_t)n;
		r = lines(k, match, arg, hit, hlen, &records);
		if (r)
			return r;
	}
}
