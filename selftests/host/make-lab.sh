#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's first command works on a fresh clone: clone the committed
# tree (HEAD) into a new directory, run `make lab` there as a user would,
# and check what the demo promises: exit 0, each host's sections grouped
# and labelled, live per-QP rates in both runs, a per-QP table with live
# QPs, the side-by-side table written and well-formed (and equal to the
# raw measurements it was made from), and a PNG of the promised size.
#
# Boots the QEMU lab (through make lab): run it under the lab lock, like
# every lab suite. Takes about 5 minutes (build, then the demo).
# Environment: MAKE_LAB_REPO (what to clone, default this tree's
# repository); everything else (KDIR, LAB_KVER, DEMO_SECS) reaches make lab
# unchanged.
#
# cores: 2
# (for selftests/run_tests.sh: a build, then two guests)

# shellcheck disable=SC2317 # the t_* checks run through tap_ok
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

REPO=${MAKE_LAB_REPO:-$TOP}
command -v git >/dev/null || tap_skip_all "git not installed"
git -C "$REPO" rev-parse --verify -q HEAD >/dev/null || tap_skip_all "$REPO is not a git checkout"
# A copy of the tree inside another checkout (kernel-matrix.sh's
# build/matrix/KVER/src) would clone that other checkout's HEAD.
[ "$(cd "$REPO" && pwd -P)" = "$(cd "$(git -C "$REPO" rev-parse --show-toplevel)" && pwd -P)" ] ||
	tap_skip_all "$REPO is inside the checkout $(git -C "$REPO" rev-parse --show-toplevel), not one itself (set MAKE_LAB_REPO)"
[ -x "$TOP/selftests/lab/lab-run" ] || tap_skip_all "lab harness not available"

T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-make-lab.XXXXXX")
C=$T/rocetune
LOG=$T/make-lab.log
# The clone goes when the test ends; what explains a failed demo (make
# lab's log, the demo's log, each guest's TAP and console) is kept in
# KEEP, replaced by each run.
KEEP=$TOP/build/tests/make-lab
keep_logs() {
	rm -rf "$KEEP" && mkdir -p "$KEEP" || return
	cp "$LOG" "$C/build/lab/demo.log" "$KEEP/" 2>/dev/null
	for h in "$C"/build/lab/demo/share/host*; do
		[ -d "$h" ] || continue
		mkdir -p "$KEEP/$(basename "$h")"
		cp -r "$h/." "$KEEP/$(basename "$h")/" 2>/dev/null
	done
	cp "$C"/build/lab/demo/*.console "$KEEP/" 2>/dev/null
	true
}
trap 'keep_logs; rm -rf "$T"' EXIT

tap_plan 13
head=$(git -C "$REPO" rev-parse HEAD)
tap_diag "cloning $REPO at ${head:0:12} into $C"
git clone -q "$REPO" "$C" 2>&1 | sed 's/^/# /'
tap_eq "fresh clone is at HEAD, without build/" "$head no-build" \
	"$(git -C "$C" rev-parse HEAD 2>&1) $([ -e "$C/build" ] && echo build || echo no-build)"

t0=$SECONDS
(cd "$C" && make lab) >"$LOG" 2>&1
rc=$?
tap_diag "make lab: exit $rc after $((SECONDS - t0)) s"
if [ "$rc" -ne 0 ]; then
	tail -25 "$LOG" | sed 's/^/#   /'
	sed -n 's/^/#   guest: /p' "$C"/build/lab/demo/share/host*/error 2>/dev/null
fi
tap_eq "make lab exits 0 on a fresh clone" 0 "$rc"

S=$C/build/lab/demo/share
TABLE=$(sed -n 's/^  table: //p' "$LOG")
PNG=$(sed -n 's/^  plot:  //p' "$LOG")
tap_eq "the demo names its table and plot, under the clone's build/lab/" \
	"$C/build/lab/demo-results.txt $C/build/lab/demo.png" "$TABLE $PNG"

# Sections: every "--- hostN: TITLE" header, in order; each title twice in
# a row, host1 then host2 (no interleaving), for every step of the story.
t_sections() {
	local got want
	got=$(sed -n 's/^--- \(host[12]\): \(.*\)/\1 \2/p' "$LOG" | tr '\n' '|')
	want=
	for s in "state before" "rocetune diff" "rocetune apply" "rocetune show after it" \
		"set-up" "switching DCQCN on"; do
		want+="host1 $s|host2 $s|"
	done
	[ "$got" = "$want" ] || { echo "sections: $got"; echo "expected: $want"; return 1; }
}
tap_ok "each host's state, diff, apply, show: labelled sections, host1's then host2's" t_sections

# The profile really went in: apply changed something on each host (exit
# 2 after writes), and the sections hold the commands' own output.
t_applied() {
	local h
	for h in 1 2; do
		if ! grep -q '^\$ rocetune apply profiles/soft-roce-lab.conf' "$S/host$h/sec-apply" ||
			! grep -q '^(exit 2)$' "$S/host$h/sec-apply" ||
			! grep -q '^(exit 2)$' "$S/host$h/sec-diff"; then
			cat "$S/host$h/sec-diff" "$S/host$h/sec-apply"
			return 1
		fi
	done
}
tap_ok "rocetune diff shows pending changes and apply changes both hosts" t_applied

# Live lines: "  T s  queue Q kB |  QP N sent / rate ..." with 4 QPs, at
# least 3 per run (15 s of traffic, every 2 s).
t_live() {
	local p n
	for p in off on; do
		n=$(grep -scE '^ +[0-9.]+ s  queue +[0-9]+ kB \|(  QP [0-9]+ +[0-9. -]+ / +[0-9.]+){4}$' \
			"$S/host2/live-$p")
		[ "${n:-0}" -ge 3 ] || { echo "run $p: $n live lines with 4 QPs"; cat "$S/host2/live-$p"; return 1; }
		grep -qF "$(head -1 "$S/host2/live-$p")" "$LOG" || { echo "live-$p not shown"; return 1; }
	done
}
tap_ok "live per-QP rates (4 QPs, every 2 s) shown in both runs" t_live

t_qptable() {
	local h
	for h in 1 2; do
		[ "$(awk 'NR > 1 && $3 == "live"' "$S/host$h/qp-on" | wc -l)" -ge 4 ] || return 1
	done
	# host2's table is printed under its heading, with a live row.
	sed -n '/^--- host2 (sender/,/^--- host1/p' "$LOG" | grep -qE '^  [0-9]+ +[0-9]+ +live '
}
tap_ok "the per-QP table is shown with its 4 live QPs on each host" t_qptable

# The table: 8 rows, label then two numbers.
t_table() {
	[ -s "$TABLE" ] || return 1
	grep -q 'without DCQCN *with DCQCN$' "$TABLE" || return 1
	[ "$(grep -cE '^[A-Za-z][A-Za-z0-9 (),/]+ +[0-9]+(\.[0-9]+)? +[0-9]+(\.[0-9]+)?$' "$TABLE")" -eq 8 ]
}
tap_ok "the side-by-side table has its 8 rows of two numbers" t_table
t_printed() {
	local row
	row=$(grep '^queue p99' "$TABLE" 2>/dev/null) && [ -n "$row" ] && grep -qxF "$row" "$LOG"
}
tap_ok "the table was printed by make lab" t_printed

# Each row equals the raw measurements in the run's share (host1's
# results: name perf_rc gbps drops marked rexmit util jain q50 q99 qmax ...).
t_measured() {
	local p col row want got
	[ -s "$TABLE" ] && [ -s "$S/host1/results" ] || return 1
	for row in "RED drops:4:%d" "CE marks:5:%d" "retransmissions:6:%d" "queue p99:10:%d" \
		"utilisation:7:%.3f" "fairness:8:%.3f"; do
		IFS=: read -r p col fmt <<<"$row"
		want=$(awk -v c="$col" -v f="$fmt" '$1 == "off" {a = sprintf(f, $c)} $1 == "on" {b = sprintf(f, $c)} END {print a, b}' "$S/host1/results")
		got=$(grep "^$p" "$TABLE" | awk '{print $(NF - 1), $NF}')
		if [ -z "$got" ] || [ "$want" != "$got" ]; then
			echo "$p: table '$got', measured '$want'"
			return 1
		fi
	done
	# Something was measured in both runs: utilisation and goodput above 0.
	awk '/^utilisation|^goodput/ {if (!($(NF - 1) > 0 && $NF > 0)) exit 1}' "$TABLE"
}
tap_ok "the table's numbers are this run's measurements, nonzero where they must be" t_measured

# PNG: signature, IHDR 1280x800, every chunk's CRC right, ends with IEND,
# and the image data inflates to the size the header implies.
t_png() {
	python3 - "$1" <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'signature'
off, chunks, idat = 8, [], b''
while off < len(d):
    n, typ = struct.unpack('>I4s', d[off:off + 8])
    body = d[off + 8:off + 8 + n]
    crc, = struct.unpack('>I', d[off + 8 + n:off + 12 + n])
    assert zlib.crc32(typ + body) == crc, 'CRC of %s' % typ
    chunks.append(typ)
    if typ == b'IDAT':
        idat += body
    off += 12 + n
assert chunks[0] == b'IHDR' and chunks[-1] == b'IEND', chunks
w, h, depth, ctype = struct.unpack('>IIBB', d[16:26])
assert (w, h) == (1280, 800), (w, h)
bpp = {2: 3, 6: 4, 0: 1, 4: 2, 3: 1}[ctype] * depth // 8
raw = zlib.decompress(idat)
assert len(raw) == h * (1 + w * bpp), (len(raw), w, h, bpp)
print('%dx%d, %d bytes' % (w, h, len(d)))
EOF
}
tap_ok "the plot is a valid, complete 1280x800 PNG" t_png "$PNG"
tap_ok "the plot is not empty (over 20 kB)" test "$(stat -c %s "$PNG" 2>/dev/null || echo 0)" -gt 20000

# The guests' run directory keeps the samples the plot was drawn from.
t_samples() {
	local p
	for p in off on; do
		[ -s "$S/host1/flows-$p" ] && [ -s "$S/host1/q-$p" ] &&
			[ -s "$C/build/lab/demo/plot/rates-$p.dat" ] || return 1
	done
}
tap_ok "the per-run samples (flows, queue) and plot data are kept" t_samples
tap_done
