#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""marks.py LOG OUT SECS: the small flow's own window on this host's
clock, from its perftest server's log LOG (bench/taillat, host1). OUT
gets "start EPOCH" when the header line ("#bytes #iterations t_min...")
appears, which perftest prints just before its first exchange, and "end
EPOCH" when the per-exchange samples ("#, usec", -U) or the result line
appear, which it prints after its last. OUT is created (empty) once this
runs, so that the caller can wait for it before it starts perftest: a
line is timed when it is read, not when it was written. Polls every
10 ms. Exits 0 after the end mark, 1 after SECS without it (OUT then
holds what was seen).

LOG is followed through its open descriptor: a perftest that
lab_perf_run --calibrated runs again has its first log renamed, and the
marks stay those of the first run."""
import os
import sys
import time

log, out, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
deadline = time.monotonic() + secs
POLL = 0.01


def mark(f, what):
    f.write('%s %.6f\n' % (what, time.time()))
    f.flush()


with open(out, 'w') as f:
    fd = None
    while fd is None:
        try:
            fd = open(log, 'rb')
        except FileNotFoundError:
            if time.monotonic() > deadline:
                sys.exit(1)
            time.sleep(POLL)
    buf, started = b'', False
    while time.monotonic() < deadline:
        chunk = fd.read()
        if not chunk:
            time.sleep(POLL)
            continue
        buf += chunk
        *lines, buf = buf.split(b'\n')
        for line in lines:
            text = line.decode('ascii', 'replace').strip()
            if not started and 't_min[usec]' in text:
                mark(f, 'start')
                started = True
            elif started and (text == '#, usec' or text[:1].isdigit() and len(text.split()) >= 9):
                mark(f, 'end')
                sys.exit(0)
sys.exit(1)
