/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log from a point on: /dev/kmsg opened and moved to its end
 * before a write, then read, without blocking, up to what was logged
 * since. For a driver whose only report of a failed firmware command is
 * a log line (ionic: surface_ionic.c).
 *
 * A /dev/kmsg record is "<prio>,<seq>,<usec>,<flags>;<text>\n" followed
 * by zero or more " KEY=value\n" lines (Documentation/ABI/testing/
 * dev-kmsg); one read() returns one record. The reader also takes a
 * plain file of such records (several to a read), which the unit tests
 * use.
 */
#ifndef ROCETUNE_KMSG_H
#define ROCETUNE_KMSG_H

#include <stdbool.h>
#include <stddef.h>

/* At most this many records are read by one scan: a log that grows
 * faster than that is one in which a line may have gone unread. */
#define RTUNE_KMSG_MAX_RECORDS 4096

struct rtune_kmsg {
	int fd;
	size_t fill;		/* bytes of a record not complete yet */
	char buf[16384];	/* larger than any record (printk's limit is 1 KiB) */
};

/* Does this message text (not NUL-terminated) report what we look for? */
typedef bool (*rtune_kmsg_match)(const char *text, size_t len, const void *arg);

/*
 * Open @path (NULL: /dev/kmsg) at its end: what a later scan sees was
 * logged after this. 0 or -errno.
 */
int rtune_kmsg_open(struct rtune_kmsg *k, const char *path);
/*
 * Read what was logged since the open or the last scan, up to the end of
 * the log. Returns 1 when @match took a record's text (copied into @hit,
 * NUL-terminated), 0 when none did, -EOVERFLOW when records were lost
 * (the log wrapped past our position, EPIPE) or more than
 * RTUNE_KMSG_MAX_RECORDS came, or another -errno: in each of those the
 * answer is not known.
 */
int rtune_kmsg_scan(struct rtune_kmsg *k, rtune_kmsg_match match, const void *arg, char *hit,
		    size_t hlen);
void rtune_kmsg_close(struct rtune_kmsg *k);

/*
 * The message text of one record's first line (@line, @n bytes, without
 * its newline): false when it is not "<prio>,<seq>,...;<text>".
 */
bool rtune_kmsg_text(const char *line, size_t n, const char **text, size_t *tlen);

#endif
