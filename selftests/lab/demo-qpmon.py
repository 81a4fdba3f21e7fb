#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""demo-qpmon.py QP_STATS SNAPSHOT [LIVE QSAMPLES]: for `make lab`
(selftests/lab/demo-guest.sh), every 2 s until SIGTERM:

- copy QP_STATS (rocetune.ko's configfs qp_stats) to SNAPSHOT whenever it
  has as many live QPs as the fullest table seen so far, so the last table
  with every QP live survives the QPs ending one by one and their eviction;
- with LIVE, append a line to it: seconds since the first live QP, the
  bottleneck backlog (the last complete line of QSAMPLES, "epoch_s
  backlog [sent_bytes sent_pkts]", written by selftests/dcqcn/qsample.py
  on the other host), and per live QP what it sent since the last line (paced_bytes: every packet is counted once
  rp_max_rate_kbps is set) and its DCQCN rate, both in Mb/s.

One process instead of a shell loop: in a TCG guest each fork costs a
noticeable fraction of a second, and a loop of cat, grep and awk took 6 s
per round instead of 2."""
import os
import signal
import sys
import time

PERIOD = 2.0
stats, snap = sys.argv[1], sys.argv[2]
live_out = sys.argv[3] if len(sys.argv) > 3 else None
qfile = sys.argv[4] if len(sys.argv) > 4 else None
stop = False


def term(*_):
    global stop
    stop = True


def backlog_kb():
    try:
        with open(qfile, 'rb') as f:
            f.seek(0, os.SEEK_END)
            start = max(0, f.tell() - 256)
            f.seek(start)
            lines = f.read().decode().split('\n')
        # The last piece is '' or a line still being written, and the
        # first one a line's tail unless the read began the file.
        for line in reversed(lines[0 if start == 0 else 1:-1]):
            v = line.split()
            if len(v) in (2, 4):
                return '%d' % round(float(v[1]) / 1000)
    except (OSError, ValueError, TypeError):
        pass
    return '-'


signal.signal(signal.SIGTERM, term)
t0 = None
prev, tprev = {}, None
most = 0
while not stop:
    try:
        with open(stats) as f:
            text = f.read()
    except OSError:
        text = ''
    now = time.time()
    rows = [line.split() for line in text.splitlines()[1:]]
    rows = sorted((r for r in rows if len(r) >= 12 and r[2] == 'live'), key=lambda r: int(r[0]))
    if rows and len(rows) >= most:
        most = len(rows)
        with open(snap + '.tmp', 'w') as f:
            f.write(text)
        os.replace(snap + '.tmp', snap)
    if rows:
        if live_out:
            if t0 is None:
                t0 = now
            out = '%5.1f s  queue %4s kB |' % (now - t0, backlog_kb())
            for r in rows:
                qpn, rate, pb = r[0], int(r[3]), int(r[11])
                if tprev is not None and qpn in prev:
                    sent = '%5.2f' % ((pb - prev[qpn]) * 8 / (now - tprev) / 1e6)
                else:
                    sent = '    -'
                out += '  QP %-4s %s / %5.2f' % (qpn, sent, rate / 1000)
            with open(live_out, 'a') as f:
                f.write(out + '\n')
            prev = {r[0]: int(r[11]) for r in rows}
            tprev = now
    while not stop and time.time() < now + PERIOD:
        time.sleep(0.2)
