#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ports/<N>/counters when the table does not fit its page (issue 9,
# finding 11, 2e9e3f5): whole lines only, then "# truncated: N more
# counters; /sys/class/infiniband/<dev>/ports/<N>/hw_counters has them",
# never a line cut in the middle. rxe's table is a few hundred bytes of
# the 4 kB page (244 on a new device), so a test build's debugfs
# show_page_bytes (kmod/fault.c) makes the page smaller. One host, rxe on
# its netdev. Checked at 230 and at 200 bytes, both less than the whole
# table (about 170 of a page is kept for the truncated line; the knob
# gives no page under 192):
#   - the whole table (knob off) has no "# truncated" line;
#   - the small read fits the small page and ends with one newline;
#   - every line but the last is "name value", the last the truncated
#     line naming the device and port;
#   - the names shown are the whole table's first names, in order, and
#     shown + N is the whole table's count;
#   - with the knob off again the whole table is back.
# A module that is not a test build has no knob: the suite skips.

# shellcheck disable=SC2317 # the t_* checks run through tap_ok
. "$(dirname "$0")/lib.sh"

DEV=rtpage0
DBG=/sys/kernel/debug/rocetune
KNOB=$DBG/show_page_bytes

rtune_require
ND=$(rtune_netdev)
[ -n "$ND" ] || tap_skip_all "no netdev that is up"
rtune_loaded && rtune_unload
rtune_load || tap_bail "insmod rocetune.ko failed"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
if [ ! -e "$KNOB" ]; then
	rtune_unload
	tap_skip_all "not a test build (make SANITIZE=1): no $KNOB"
fi

tap_plan 13
rdma link add $DEV type rxe netdev "$ND" || tap_bail "rdma link add failed"
wait_for test -d "$RT/$DEV" || tap_bail "device directory did not appear"
CTR=$RT/$DEV/ports/1/counters
W=$(mktemp -d /run/rocetune-cpage.XXXXXX)

echo 0 >"$KNOB"
cat "$CTR" >"$W/full"
tap_diag "whole table: $(wc -l <"$W/full") lines, $(wc -c <"$W/full") bytes"

# t_small BYTES: the table read with a page of BYTES, checked against the
# whole one.
t_small() {
	local bytes=$1 f=$W/small.$1 nl more shown total want
	echo "$bytes" >"$KNOB" || { echo "cannot set $KNOB"; return 1; }
	cat "$CTR" >"$f"
	echo 0 >"$KNOB"
	[ "$(wc -c <"$f")" -le "$bytes" ] ||
		{ echo "$(wc -c <"$f") bytes read with a page of $bytes"; return 1; }
	[ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] ||
		{ echo "does not end with a newline"; return 1; }
	nl=$(wc -l <"$f")
	awk -v n="$nl" 'NR < n && !/^[A-Za-z0-9_.-]+ [0-9]+$/ { print "line " NR " is cut or not a counter: " $0; bad = 1 }
		END { exit bad }' "$f" || return 1
	want="# truncated: [0-9]+ more counters; /sys/class/infiniband/$DEV/ports/1/hw_counters has them"
	tail -n 1 "$f" | grep -qxE "$want" ||
		{ echo "last line: $(tail -n 1 "$f")"; return 1; }
	more=$(tail -n 1 "$f" | awk '{ print $3 }')
	shown=$((nl - 1))
	total=$(wc -l <"$W/full")
	[ $((shown + more)) -eq "$total" ] ||
		{ echo "$shown shown + $more more != $total"; return 1; }
	head -n "$shown" "$f" | cut -d' ' -f1 >"$W/names.small"
	head -n "$shown" "$W/full" | cut -d' ' -f1 >"$W/names.full"
	cmp -s "$W/names.small" "$W/names.full" ||
		{ echo "names differ from the whole table's first $shown"; return 1; }
	echo "$shown lines and: $(tail -n 1 "$f")"
}

tap_ok "the whole table is longer than the pages tried" test "$(wc -c <"$W/full")" -gt 230
tap_ok "the whole table has no truncated line" sh -c "! grep -q '^#' '$W/full'"
tap_ok "the whole table is all 'name value' lines" \
	awk '!/^[A-Za-z0-9_.-]+ [0-9]+$/ { bad = 1 } END { exit bad }' "$W/full"
tap_ok "a page of 230 bytes: whole lines, then the truncated line with the count" t_small 230
tap_diag "$(tail -n 2 "$W/small.230" | tr '\n' ' ')"
tap_ok "a page of 200 bytes: the same" t_small 200
t_floor() {
	echo 192 >"$KNOB" && cat "$CTR" >"$W/small.192" &&
		echo 100 >"$KNOB" && cat "$CTR" >"$W/small.100"
	echo 0 >"$KNOB"
	cmp -s "$W/small.100" "$W/small.192"
}
tap_ok "a page of 100 is taken as 192 (the knob's floor)" t_floor
cat "$CTR" >"$W/again"
tap_eq "knob off: every line again" "$(wc -l <"$W/full")" "$(wc -l <"$W/again")"
tap_ok "knob off: no truncated line" sh -c "! grep -q '^#' '$W/again'"
tap_eq "show_page_bytes reads back 0" 0 "$(cat "$KNOB")"
tap_ok "rdma link delete $DEV" rdma link delete $DEV
tap_ok "device directory gone" wait_for test ! -d "$RT/$DEV"
tap_ok "rmmod rocetune" rtune_unload
tap_ok "kernel log clean" kernel_log_clean
rm -rf "$W"
tap_done
