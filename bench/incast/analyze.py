#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""analyze.py FLOWCAP_OUT NQPS BOTTLENECK_MBIT QSAMPLES: from flowcap.py's
per-QP bins and the bottleneck's backlog samples ("epoch_s bytes" lines,
or "epoch_s bytes sent_bytes sent_packets" from qsample.py --sent),
print "util jain converge_s flows q50 q99 qmax":

util        bytes that left the bottleneck / (its rate x time), over the
            transfer less its first 2 s and last 1 s; counted by the
            qdisc itself (its "Sent" bytes, between the first and the last
            sample in that window) when the samples carry it, since a
            packet capture in a busy guest loses packets (bench/taillat
            measured it seeing 45-64 %); from the capture otherwise;
jain        Jain's fairness index of the QPs' bytes over the same window,
            (sum x)^2 / (n sum x^2), n = NQPS (a QP never seen counts 0);
converge_s  seconds from the first packet until, for every 1 s window from
            then to the end of the window above, Jain >= 0.9 and
            util >= 0.8; "-" if that never happens;
flows       QPs seen (source ports with more than 1 % of the bytes);
q50, q99    percentiles of the backlog samples in the window of util
            (steady state: the start-up's first 2 s are left out, as for
            util);
qmax        the largest backlog sample of the whole transfer, start-up
            included.

The transfer runs from the first packet to the last, or to the time in
FLOWCAP_OUT.end (epoch seconds) if that is earlier: when the receiver's
perftest exited (bench/incast/run.sh). Its QPs are gone then, and what the
sender still has posted, then retransmits, reaches no QP and draws no CNP:
no congestion control can act on it, with or without rocetune."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from flowbins import BIN, read  # noqa: E402 (found through the path above)

path, n, mbit, qpath = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
data, _ = read(path)
if not data:
    print("0 0 - 0 0 0 0")
    sys.exit(0)
total = sum(sum(v.values()) for v in data.values())
flows = [s for s, v in data.items() if sum(v.values()) > total / 100]
last = max(max(v) for v in data.values())
try:
    end = float(open(path + '.end').read()) - float(open(path + '.t0').read())
    last = min(last, int(end / BIN))
except (OSError, ValueError):
    pass
lo, hi = int(2 / BIN), last - int(1 / BIN)  # bins [lo, hi)
cap = mbit * 1e6 / 8 * BIN  # bytes per bin at the bottleneck rate


def window(a, b):
    per = [sum(data[s].get(i, 0) for i in range(a, b)) for s in flows]
    per += [0] * max(0, n - len(per))
    tot = sum(per)
    jain = tot * tot / (len(per) * sum(x * x for x in per)) if tot else 0
    return tot / (cap * (b - a)), jain




sent = []  # (time in bins, bytes the qdisc had sent) of samples in [lo, hi)


def queue():
    """p50 and p99 of the backlog samples in [lo, hi), and the largest
    sample from the first packet to the end; fills sent."""
    try:
        t0 = float(open(path + '.t0').read())
    except (OSError, ValueError):
        return 0, 0, 0
    steady, whole = [], []
    for line in open(qpath):
        f = line.split()
        if len(f) not in (2, 4):
            continue
        t, b = (float(f[0]) - t0) / BIN, int(float(f[1]))
        if 0 <= t < last + 1:
            whole.append(b)
        if lo <= t < hi:
            steady.append(b)
            if len(f) == 4:
                sent.append((t, int(f[2])))
    if not steady:
        return 0, 0, max(whole, default=0)
    steady.sort()
    return (steady[(len(steady) - 1) // 2],
            steady[int((len(steady) - 1) * 0.99)], max(whole))


q50, q99, qmax = queue()
if hi <= lo:
    print("0 0 - %d %d %d %d" % (len(flows), q50, q99, qmax))
    sys.exit(0)
util, jain = window(lo, hi)
if sent:
    (ta, ba), (tb, bb) = sent[0], sent[-1]
    # a counter that did not move or went back measured nothing: 0, which
    # the callers refuse as an empty sample
    util = (bb - ba) / (cap * (tb - ta)) if tb > ta and bb > ba else 0
conv = "-"
w = int(1 / BIN)
for start in range(0, hi - w + 1):
    if all(window(a, a + w)[0] >= 0.8 and window(a, a + w)[1] >= 0.9
           for a in range(start, hi - w + 1)):
        conv = "%.1f" % (start * BIN)
        break
print("%.3f %.3f %s %d %d %d %d" % (util, jain, conv, len(flows), q50, q99, qmax))
