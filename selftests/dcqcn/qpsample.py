#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qpsample.py QP_STATS PERIOD_S RATES LAST: every PERIOD_S seconds read
rocetune.ko's qp_stats file QP_STATS; when it lists live QPs, append
"qpn rate_kbps" per live QP and then "-- uptime_s" to RATES, and keep
that whole table in LAST. Until SIGTERM. One process for the whole run:
a shell loop forks five programs per sample, and under a loaded TCG guest
that spaced its samples seconds apart (3 samples in a 12 s phase)."""
import signal
import sys
import time

path, period, rates, last = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
stop = False


def term(*_):
    global stop
    stop = True


signal.signal(signal.SIGTERM, term)
with open(rates, 'w') as out:
    while not stop:
        with open(path) as f:
            table = f.read()
        lines = table.splitlines()
        live = [ln.split() for ln in lines[1:]]
        live = [v for v in live if len(v) > 3 and v[2] == 'live']
        if live:
            with open(last, 'w') as f:
                f.write(table)
            for v in live:
                out.write("%s %s\n" % (v[0], v[3]))
            with open('/proc/uptime') as f:
                out.write("-- %s\n" % f.read().split()[0])
            out.flush()
        time.sleep(period)
